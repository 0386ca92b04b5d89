//! LangSmith: langsmith-api-key.

use super::{Family, RuleDef, Vector};

pub const LANGSMITH_API_KEY: RuleDef = RuleDef::token(
    "langsmith-api-key",
    "LangSmith personal / service key (lsv2_pt_, lsv2_sk_)",
    &["lsv2_pt_", "lsv2_sk_"],
    r"lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}",
    51,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "LangSmith",
    source: "GL, TH, NP",
    rules: &[LANGSMITH_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &LANGSMITH_API_KEY,
        "LANGSMITH_KEY=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",
        "LANGSMITH_KEY=[REDACTED:langsmith-api-key]",
    ),
    Vector::hit(
        &LANGSMITH_API_KEY,
        "{\"langsmith\": {\"key\": \"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\"}}",
        "{\"langsmith\": {\"key\": \"[REDACTED:langsmith-api-key]\"}}",
    ),
    Vector::miss(
        &LANGSMITH_API_KEY,
        "lsv2_pt_dda755d0cc3ddeaf4768cc732d620f23_6cfa438ec",
    ),
    Vector::miss(
        &LANGSMITH_API_KEY,
        "lsv2_xx_f036f310f910dc825233be447f92f895_32261999d5",
    ),
];
