//! X (Twitter): twitter-bearer-token.

use super::{Family, RuleDef, Vector};

pub const TWITTER_BEARER_TOKEN: RuleDef = RuleDef::token(
    "twitter-bearer-token",
    "X / Twitter app-only bearer token (AAAA…AAAA + 30+)",
    &["AAAAAAAAAAAAAAAAAAAAA"],
    r"A{21,24}[A-Za-z0-9%]{30,}",
    512,
)
.right_guard("")
.overflow("[A-Za-z0-9%]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "X (Twitter)",
    source: "X developer docs: app-only bearer tokens",
    rules: &[TWITTER_BEARER_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TWITTER_BEARER_TOKEN,
        "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAAANmEg6XkcJcTaFQCNxPL1TeTjtkgUMPrKz1Na9hVH5uEMJ0Pq4NXd9erYdMXhP0jZXLBlCfU3m6GkTBKA",
        "TWITTER_BEARER_TOKEN=[REDACTED:twitter-bearer-token]",
    ),
    Vector::miss(&TWITTER_BEARER_TOKEN, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
];
