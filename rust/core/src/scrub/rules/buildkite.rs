//! Buildkite: buildkite-token.

use super::{Family, RuleDef, Vector};

pub const BUILDKITE_TOKEN: RuleDef = RuleDef::token(
    "buildkite-token",
    "Buildkite API access token (bkua_ + 40 hex)",
    &["bkua_"],
    r"bkua_[a-f0-9]{40}",
    45,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Buildkite",
    source: "Buildkite docs: API access tokens",
    rules: &[BUILDKITE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &BUILDKITE_TOKEN,
        "BUILDKITE_API_TOKEN=bkua_ce9f74beffa2aebe67a9e636ecc028ceade8b4b5",
        "BUILDKITE_API_TOKEN=[REDACTED:buildkite-token]",
    ),
    Vector::miss(&BUILDKITE_TOKEN, "bkua_d758dc9b38"),
];
