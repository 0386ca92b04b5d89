//! Perplexity: perplexity-api-key.

use super::{Family, RuleDef, Vector};

pub const PERPLEXITY_API_KEY: RuleDef = RuleDef::token(
    "perplexity-api-key",
    "Perplexity API key (pplx- + 48)",
    &["pplx-"],
    r"pplx-[A-Za-z0-9]{48}",
    53,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Perplexity",
    source: "GL, TH, NP",
    rules: &[PERPLEXITY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PERPLEXITY_API_KEY,
        "PPLX_KEY=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",
        "PPLX_KEY=[REDACTED:perplexity-api-key]",
    ),
    Vector::hit(
        &PERPLEXITY_API_KEY,
        "curl https://api.perplexity.ai/chat/completions -H \"X-Key: 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\"",
        "curl https://api.perplexity.ai/chat/completions -H \"X-Key: [REDACTED:perplexity-api-key]\"",
    ),
    Vector::miss(&PERPLEXITY_API_KEY, "pplx-kM4HA0Pl5MIX2H81YzWgDofrpWjaYtGFJEc6zGnZNFAKASr"),
    Vector::miss(&PERPLEXITY_API_KEY, "pplx-XAEpAlGGq4Kol6ASBjRios9fKj1e3cQaOrK79Ev1PRbZxyhhu"),
];
