//! Figma: figma-pat.

use super::{Family, RuleDef, Vector};

pub const FIGMA_PAT: RuleDef = RuleDef::token(
    "figma-pat",
    "Figma personal access token (figd_ + 40)",
    &["figd_"],
    r"figd_[A-Za-z0-9_-]{40,43}",
    48,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Figma",
    source: "Figma docs: personal access tokens",
    rules: &[FIGMA_PAT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FIGMA_PAT,
        "figma figd_QDGnza024JDONRBlczgzBMt0xyqRb82t53vtc0ZH",
        "figma [REDACTED:figma-pat]",
    ),
    Vector::miss(&FIGMA_PAT, "figd_n6nB2RU9yn"),
];
