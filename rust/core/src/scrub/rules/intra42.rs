//! 42 Intra: intra42-client-secret.

use super::{Family, RuleDef, Vector};

pub const INTRA42_CLIENT_SECRET: RuleDef = RuleDef::token(
    "intra42-client-secret",
    "42 Intra client secret (s-s4t2ud-/s-s4t2af- + 64 hex)",
    &["s-s4t2"],
    r"s-s4t2(?:ud|af)-[a-f0-9]{64}",
    72,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "42 Intra",
    source: "42 API docs: client secrets",
    rules: &[INTRA42_CLIENT_SECRET],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &INTRA42_CLIENT_SECRET,
        "FT_SECRET=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",
        "FT_SECRET=[REDACTED:intra42-client-secret]",
    ),
    Vector::miss(&INTRA42_CLIENT_SECRET, "s-s4t2ud-61c752c26e"),
];
