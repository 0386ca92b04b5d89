//! Langfuse: langfuse-secret-key.

use super::{Family, RuleDef, Vector};

pub const LANGFUSE_SECRET_KEY: RuleDef = RuleDef::token(
    "langfuse-secret-key",
    "Langfuse secret key (sk-lf- + UUID)",
    &["sk-lf-"],
    r"sk-lf-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
    42,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Langfuse",
    source: "Langfuse docs: API keys",
    rules: &[LANGFUSE_SECRET_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &LANGFUSE_SECRET_KEY,
        "LANGFUSE_SECRET_KEY=sk-lf-fb99a9b2-88e2-3c2d-45b8-ee668165090d",
        "LANGFUSE_SECRET_KEY=[REDACTED:langfuse-secret-key]",
    ),
    Vector::miss(
        &LANGFUSE_SECRET_KEY,
        "pk-lf-dbc00bd7-4ed0-9d21-f0de-b7001e69487b is public",
    ),
];
