//! Duffel: duffel-api-token.

use super::{Family, RuleDef, Vector};

pub const DUFFEL_API_TOKEN: RuleDef = RuleDef::token(
    "duffel-api-token",
    "Duffel access token (duffel_live_/duffel_test_ + 43)",
    &["duffel_"],
    r"duffel_(?:live|test)_[A-Za-z0-9_-]{43}",
    55,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Duffel",
    source: "Duffel docs: access tokens",
    rules: &[DUFFEL_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DUFFEL_API_TOKEN,
        "duffel key duffel_test_KHETDdD-gHb48Qp11nJk3k_g4lNIrxyAGF9t8KHmC7M",
        "duffel key [REDACTED:duffel-api-token]",
    ),
    Vector::miss(&DUFFEL_API_TOKEN, "duffel_test_0K79vEEXu3"),
];
