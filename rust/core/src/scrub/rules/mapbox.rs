//! Mapbox: mapbox-secret-token.

use super::{Family, RuleDef, Vector};

pub const MAPBOX_SECRET_TOKEN: RuleDef = RuleDef::token(
    "mapbox-secret-token",
    "Mapbox secret token (sk.eyJ…)",
    &["sk.eyJ"],
    r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
    512,
)
.right_guard("[A-Za-z0-9_-]")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Mapbox",
    source: "Mapbox docs: secret access tokens",
    rules: &[MAPBOX_SECRET_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MAPBOX_SECRET_TOKEN,
        "MAPBOX_DOWNLOADS_TOKEN=sk.eyJ1Ijoisd6Nox22R9gaPBdeH3SXNlV5OmNINEIZnV3Qhu9230kCRswFSf.3b0bq-W2UGazPENWcbdFqe",
        "MAPBOX_DOWNLOADS_TOKEN=[REDACTED:mapbox-secret-token]",
    ),
    Vector::miss(&MAPBOX_SECRET_TOKEN, "pk.eyJ1IjoirjjBIGk0cKx4RiiPpwCZY5JCYefLBYRt5eRryUiVULFefsO0Kh._C6U3o7PbyhB7UezWSPX0E is a public token"),
];
