//! Groq: groq-api-key.

use super::{Family, RuleDef, Vector};

pub const GROQ_API_KEY: RuleDef = RuleDef::token(
    "groq-api-key",
    "Groq API key (gsk_ + 52)",
    &["gsk_"],
    r"gsk_[A-Za-z0-9]{52}",
    56,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Groq",
    source: "GL, TH, NP",
    rules: &[GROQ_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &GROQ_API_KEY,
        "GROQ_KEY=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",
        "GROQ_KEY=[REDACTED:groq-api-key]",
    ),
    Vector::hit(
        &GROQ_API_KEY,
        "groq.AuthenticationError: Error code: 401 - invalid key 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",
        "groq.AuthenticationError: Error code: 401 - invalid key [REDACTED:groq-api-key]",
    ),
    Vector::miss(&GROQ_API_KEY, "gsk_eQ2pGNjpn9sSNapB62V6Fod1bUS5yXBI9TTIgkYEHNLRLWUYZNa"),
    Vector::miss(&GROQ_API_KEY, "gsk_t3BUwFhf4RsfMXVcHpX1s02ROmBquZzzO300jr5x0XYu4FGXZVC3K"),
];
