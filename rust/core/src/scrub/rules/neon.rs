//! Neon: neon-api-key.

use super::{Family, RuleDef, Vector};

pub const NEON_API_KEY: RuleDef = RuleDef::token(
    "neon-api-key",
    "Neon API key (napi_ + 64)",
    &["napi_"],
    r"napi_[a-z0-9]{64}",
    69,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Neon",
    source: "Neon docs: API keys",
    rules: &[NEON_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NEON_API_KEY,
        "NEON_API_KEY=napi_ysa4kd3qgciugficirny9sni7totfh8jzoylq55cc4hkkfph6qymwle2qlkjzvqp",
        "NEON_API_KEY=[REDACTED:neon-api-key]",
    ),
    Vector::miss(&NEON_API_KEY, "napi_tgy6j7imhz"),
];
