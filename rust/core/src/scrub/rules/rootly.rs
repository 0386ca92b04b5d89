//! Rootly: rootly-api-key.

use super::{Family, RuleDef, Vector};

pub const ROOTLY_API_KEY: RuleDef = RuleDef::token(
    "rootly-api-key",
    "Rootly API key (rootly_ + 64 hex)",
    &["rootly_"],
    r"rootly_[a-f0-9]{64}",
    71,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Rootly",
    source: "Rootly docs: API keys",
    rules: &[ROOTLY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ROOTLY_API_KEY,
        "rootly rootly_bf57df2b6c603d39b1053cb797205df2e1d27cfba42325036221acaa7a0379fc",
        "rootly [REDACTED:rootly-api-key]",
    ),
    Vector::miss(&ROOTLY_API_KEY, "rootly_204b1408e4d5fd765d69"),
];
