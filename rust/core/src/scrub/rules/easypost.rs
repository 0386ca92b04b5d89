//! EasyPost: easypost-api-key.

use super::{Family, RuleDef, Vector};

pub const EASYPOST_API_KEY: RuleDef = RuleDef::token(
    "easypost-api-key",
    "EasyPost production / test API key (EZAK, EZTK + 54)",
    &["EZAK", "EZTK"],
    r"EZ[AT]K[A-Za-z0-9]{54}",
    58,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "EasyPost",
    source: "EasyPost docs: API keys",
    rules: &[EASYPOST_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &EASYPOST_API_KEY,
        "EASYPOST_API_KEY=EZAKOHANW9QeTf7l4N7vzvBYAwcgy1gIPD5VjkgvEJTMPdvUwgMr9AiUxq",
        "EASYPOST_API_KEY=[REDACTED:easypost-api-key]",
    ),
    Vector::miss(&EASYPOST_API_KEY, "EZAK2GAJLlEOvB"),
];
