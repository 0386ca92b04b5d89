//! Postman: postman-api-key.

use super::{Family, RuleDef, Vector};

pub const POSTMAN_API_KEY: RuleDef = RuleDef::token(
    "postman-api-key",
    "Postman API key (PMAK-24-34)",
    &["PMAK-"],
    r"PMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}",
    64,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Postman",
    source: "GL, TH, NP, DS",
    rules: &[POSTMAN_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &POSTMAN_API_KEY,
        "POSTMAN_KEY=PMAK-cfbaccc24ecfd26339923716-a60ae7f48714dcbf7436d76af1aa71a36d",
        "POSTMAN_KEY=[REDACTED:postman-api-key]",
    ),
    Vector::hit(
        &POSTMAN_API_KEY,
        "newman run coll.json --env-var postman=PMAK-adbf0269130ff505bd4355d6-c1d45d55a02fb26da283770b2400ac8406",
        "newman run coll.json --env-var postman=[REDACTED:postman-api-key]",
    ),
    Vector::miss(&POSTMAN_API_KEY, "PMAK-dfb3282fc8db3fc21c778932-81977519ad3fd092d9f9e947ed341d52f"),
    Vector::miss(&POSTMAN_API_KEY, "PMAK-908c91a759578fea70b8f92-fe0d4258cad747585ca44e0f4e38da9d47"),
];
