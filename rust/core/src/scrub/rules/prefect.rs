//! Prefect: prefect-api-key.

use super::{Family, RuleDef, Vector};

pub const PREFECT_API_KEY: RuleDef = RuleDef::token(
    "prefect-api-key",
    "Prefect Cloud API key (pnu_ + 36)",
    &["pnu_"],
    r"pnu_[A-Za-z0-9]{36}",
    40,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Prefect",
    source: "Prefect docs: API keys",
    rules: &[PREFECT_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PREFECT_API_KEY,
        "PREFECT_API_KEY=pnu_P4Ge88roqSdJydewLJd1BwzejLlwHxPXx3of",
        "PREFECT_API_KEY=[REDACTED:prefect-api-key]",
    ),
    Vector::miss(&PREFECT_API_KEY, "pnu_7jUl5xYckN"),
];
