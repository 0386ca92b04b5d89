//! Ubidots: ubidots-token.

use super::{Family, RuleDef, Vector};

pub const UBIDOTS_TOKEN: RuleDef = RuleDef::token(
    "ubidots-token",
    "Ubidots token (BBFF- + 30)",
    &["BBFF-"],
    r"BBFF-[A-Za-z0-9]{30}",
    35,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Ubidots",
    source: "Ubidots docs: tokens",
    rules: &[UBIDOTS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &UBIDOTS_TOKEN,
        "UBIDOTS_TOKEN=BBFF-DYPkXgogJNOtVQhXtfOUJOoNRIZsET",
        "UBIDOTS_TOKEN=[REDACTED:ubidots-token]",
    ),
    Vector::miss(&UBIDOTS_TOKEN, "BBFF-ODkAPNh3Nn"),
];
