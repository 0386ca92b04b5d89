//! OpenRouter: openrouter-api-key.

use super::{Family, RuleDef, Vector};

pub const OPENROUTER_API_KEY: RuleDef = RuleDef::token(
    "openrouter-api-key",
    "OpenRouter API key (sk-or-v1- + 64 hex)",
    &["sk-or-v1-"],
    r"sk-or-v1-[0-9a-f]{64}",
    73,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "OpenRouter",
    source: "GL, TH, NP",
    rules: &[OPENROUTER_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OPENROUTER_API_KEY,
        "OPENROUTER_KEY=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",
        "OPENROUTER_KEY=[REDACTED:openrouter-api-key]",
    ),
    Vector::hit(
        &OPENROUTER_API_KEY,
        "client = OpenAI(base_url=\"https://openrouter.ai/api/v1\", api_base=\"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\")",
        "client = OpenAI(base_url=\"https://openrouter.ai/api/v1\", api_base=\"[REDACTED:openrouter-api-key]\")",
    ),
    Vector::miss(&OPENROUTER_API_KEY, "sk-or-v1-3a3ec1f4e982535863b84231e4e211167f0993acaaa60dbd3279b34b02b3680"),
    Vector::miss(&OPENROUTER_API_KEY, "sk-or-v1-BCNSMSPIPHLQUJRZKNGWJEHOWMJANUSJDJHDTGIXBREJZEYOQMTVCEXTEZRJXTVC"),
];
