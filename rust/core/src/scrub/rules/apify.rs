//! Apify: apify-token.

use super::{Family, RuleDef, Vector};

pub const APIFY_TOKEN: RuleDef = RuleDef::token(
    "apify-token",
    "Apify API token (apify_api_ + 36)",
    &["apify_api_"],
    r"apify_api_[A-Za-z0-9]{36}",
    46,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Apify",
    source: "Apify docs: API tokens",
    rules: &[APIFY_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &APIFY_TOKEN,
        "APIFY_TOKEN=apify_api_TPcfsS346e9GG6Xz0axJ6TQ7Vav6q6d0g1GY",
        "APIFY_TOKEN=[REDACTED:apify-token]",
    ),
    Vector::miss(&APIFY_TOKEN, "apify_api_19DULA0isG"),
];
