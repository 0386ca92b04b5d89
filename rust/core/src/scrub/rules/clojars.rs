//! Clojars: clojars-token.

use super::{Family, RuleDef, Vector};

pub const CLOJARS_TOKEN: RuleDef = RuleDef::token(
    "clojars-token",
    "Clojars deploy token (CLOJARS_ + 60)",
    &["CLOJARS_"],
    r"CLOJARS_[a-z0-9]{60}",
    68,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Clojars",
    source: "Clojars docs: deploy tokens",
    rules: &[CLOJARS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLOJARS_TOKEN,
        "password CLOJARS_uad1k8j0gux2565jup8p6r5zekohclh7h5mrpvilj5kvds7x1ri7wrt2gfgq",
        "password [REDACTED:clojars-token]",
    ),
    Vector::miss(&CLOJARS_TOKEN, "CLOJARS_USERNAME"),
];
