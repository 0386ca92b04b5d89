//! Typeform: typeform-token.

use super::{Family, RuleDef, Vector};

pub const TYPEFORM_TOKEN: RuleDef = RuleDef::token(
    "typeform-token",
    "Typeform personal access token (tfp_ + 59)",
    &["tfp_"],
    r"tfp_[A-Za-z0-9_.=-]{59}",
    63,
)
.right_guard("[A-Za-z0-9_.=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Typeform",
    source: "Typeform docs: personal access tokens",
    rules: &[TYPEFORM_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TYPEFORM_TOKEN,
        "TYPEFORM=tfp_TVZEnmuQmKm1J5pPy7KJsOVbKSjR9VpZmtHFN60lMWa3rUrgEQwUEOK0FXH",
        "TYPEFORM=[REDACTED:typeform-token]",
    ),
    Vector::miss(&TYPEFORM_TOKEN, "tfp_DHH9DonlAb"),
];
