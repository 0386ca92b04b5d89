//! ReadMe: readme-api-key.

use super::{Family, RuleDef, Vector};

pub const README_API_KEY: RuleDef = RuleDef::token(
    "readme-api-key",
    "ReadMe API key (rdme_ + 70)",
    &["rdme_"],
    r"rdme_[a-z0-9]{70}",
    75,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "ReadMe",
    source: "ReadMe docs: API keys",
    rules: &[README_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &README_API_KEY,
        "readme key rdme_m9562wyddm94g48e5sezrffw14stpwoyie35l5azgz3kddq9dyf9sy7gg87ild9lkiryko",
        "readme key [REDACTED:readme-api-key]",
    ),
    Vector::miss(&README_API_KEY, "rdme_thuxz8s4xg"),
];
