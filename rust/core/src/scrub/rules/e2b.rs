//! E2B: e2b-api-key.

use super::{Family, RuleDef, Vector};

pub const E2B_API_KEY: RuleDef = RuleDef::token(
    "e2b-api-key",
    "E2B API key (e2b_ + 40 hex)",
    &["e2b_"],
    r"e2b_[a-f0-9]{40}",
    44,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "E2B",
    source: "E2B docs: API keys",
    rules: &[E2B_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &E2B_API_KEY,
        "E2B_API_KEY=e2b_438c7b01ca92494c66b6aa086f87add90e63c277",
        "E2B_API_KEY=[REDACTED:e2b-api-key]",
    ),
    Vector::miss(&E2B_API_KEY, "e2b_cc78a4117d"),
];
