//! Jina AI: jina-api-key.

use super::{Family, RuleDef, Vector};

pub const JINA_API_KEY: RuleDef = RuleDef::token(
    "jina-api-key",
    "Jina AI API key (jina_ + 60)",
    &["jina_"],
    r"jina_[A-Za-z0-9_-]{60}",
    65,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Jina AI",
    source: "Jina AI docs: API keys",
    rules: &[JINA_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &JINA_API_KEY,
        "JINA_API_KEY=jina_0db22c4f5f6eb385f06322c5485f2f30BYOgYg9hZhgGpous4x_LCcxylD8C",
        "JINA_API_KEY=[REDACTED:jina-api-key]",
    ),
    Vector::miss(&JINA_API_KEY, "jina_1PZu8Rb4VfczlxX9ZfPR"),
];
