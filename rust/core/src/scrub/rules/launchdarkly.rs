//! LaunchDarkly: launchdarkly-access-token.

use super::{Family, RuleDef, Vector};

pub const LAUNCHDARKLY_ACCESS_TOKEN: RuleDef = RuleDef::token(
    "launchdarkly-access-token",
    "LaunchDarkly API access token (api- + UUID v4)",
    &["api-"],
    r"api-[a-z0-9]{8}-[a-z0-9]{4}-4[a-z0-9]{3}-[a-z0-9]{4}-[a-z0-9]{12}",
    40,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "LaunchDarkly",
    source: "TH; LaunchDarkly docs: API access tokens",
    rules: &[LAUNCHDARKLY_ACCESS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &LAUNCHDARKLY_ACCESS_TOKEN,
        "LD_API_TOKEN=api-d058a654-d812-4b11-81cb-fad1959a5357",
        "LD_API_TOKEN=[REDACTED:launchdarkly-access-token]",
    ),
    Vector::hit(
        &LAUNCHDARKLY_ACCESS_TOKEN,
        "curl -H 'Authorization: api-de84426d-e6f1-4cc8-8e41-29f56e3413d1' https://app.launchdarkly.com/api/v2/flags/default",
        "curl -H 'Authorization: [REDACTED:launchdarkly-access-token]' https://app.launchdarkly.com/api/v2/flags/default",
    ),
    Vector::miss(&LAUNCHDARKLY_ACCESS_TOKEN, "see https://api-eu.example.com/v2/flags"),
    Vector::miss(&LAUNCHDARKLY_ACCESS_TOKEN, "api-c9341d61"),
];
