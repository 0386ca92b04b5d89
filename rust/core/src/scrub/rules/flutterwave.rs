//! Flutterwave: flutterwave-secret-key.

use super::{Family, RuleDef, Vector};

pub const FLUTTERWAVE_SECRET_KEY: RuleDef = RuleDef::token(
    "flutterwave-secret-key",
    "Flutterwave secret / encryption key (FLWSECK-…-X)",
    &["FLWSECK"],
    r"FLWSECK(?:_TEST)?-[a-f0-9]{32}-X",
    46,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Flutterwave",
    source: "Flutterwave docs: API keys",
    rules: &[FLUTTERWAVE_SECRET_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FLUTTERWAVE_SECRET_KEY,
        "FLW_SECRET_KEY=FLWSECK_TEST-b8e99627aa790b4a30e86c5cdbbc42b9-X",
        "FLW_SECRET_KEY=[REDACTED:flutterwave-secret-key]",
    ),
    Vector::miss(&FLUTTERWAVE_SECRET_KEY, "FLWSECK_TEST-6167b5ab46"),
];
