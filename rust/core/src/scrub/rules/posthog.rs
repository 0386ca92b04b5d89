//! PostHog: posthog-personal-api-key.

use super::{Family, RuleDef, Vector};

pub const POSTHOG_PERSONAL_API_KEY: RuleDef = RuleDef::token(
    "posthog-personal-api-key",
    "PostHog personal API key (phx_ + 43)",
    &["phx_"],
    r"phx_[A-Za-z0-9]{43}",
    47,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "PostHog",
    source: "PostHog docs: personal API keys",
    rules: &[POSTHOG_PERSONAL_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &POSTHOG_PERSONAL_API_KEY,
        "POSTHOG_PERSONAL_API_KEY=phx_8IAfzxEegVz4jUOiDgSiKgdBbVECkFc8aE1tuQzoGV9",
        "POSTHOG_PERSONAL_API_KEY=[REDACTED:posthog-personal-api-key]",
    ),
    Vector::miss(
        &POSTHOG_PERSONAL_API_KEY,
        "phc_DHsymJdrDYXLygmB0s9axDsuANhzzpk86v1qY5KPMql is a public project key",
    ),
];
