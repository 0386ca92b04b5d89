//! Tavily: tavily-api-key.

use super::{Family, RuleDef, Vector};

pub const TAVILY_API_KEY: RuleDef = RuleDef::token(
    "tavily-api-key",
    "Tavily API key (tvly- + 32)",
    &["tvly-"],
    r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}",
    42,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Tavily",
    source: "Tavily docs: API keys",
    rules: &[TAVILY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TAVILY_API_KEY,
        "TAVILY_API_KEY=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",
        "TAVILY_API_KEY=[REDACTED:tavily-api-key]",
    ),
    Vector::hit(
        &TAVILY_API_KEY,
        "key 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",
        "key [REDACTED:tavily-api-key]",
    ),
    Vector::miss(&TAVILY_API_KEY, "tvly-v61w94vELG"),
];
