//! Infracost: infracost-api-key.

use super::{Family, RuleDef, Vector};

pub const INFRACOST_API_KEY: RuleDef = RuleDef::token(
    "infracost-api-key",
    "Infracost API key (ico- + 32)",
    &["ico-"],
    r"ico-[A-Za-z0-9]{32}",
    36,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Infracost",
    source: "Infracost docs: API keys",
    rules: &[INFRACOST_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &INFRACOST_API_KEY,
        "INFRACOST=ico-Nck49HnQa7JKMrebgC5WDjS3e2HGP4ZT",
        "INFRACOST=[REDACTED:infracost-api-key]",
    ),
    Vector::miss(&INFRACOST_API_KEY, "ico-jYsNYEuucS"),
];
