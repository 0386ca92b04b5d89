//! Notion: notion-token.

use super::{Family, RuleDef, Vector};

pub const NOTION_TOKEN: RuleDef = RuleDef::token(
    "notion-token",
    "Notion integration token (ntn_ + 46, legacy secret_ + 43)",
    &["ntn_", "secret_"],
    r"ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}",
    50,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Notion",
    source: "GL, TH, NP, DS",
    rules: &[NOTION_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NOTION_TOKEN,
        "NOTION_KEY=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",
        "NOTION_KEY=[REDACTED:notion-token]",
    ),
    Vector::hit(
        &NOTION_TOKEN,
        "notion = Client(auth=\"secret_IGhHeqQoDpJSv45YsYZVQAZY3j8pLJNxh60QIrr2bbp\")",
        "notion = Client(auth=\"[REDACTED:notion-token]\")",
    ),
    Vector::miss(
        &NOTION_TOKEN,
        "ntn_99140604279hHfGVt81Qh2p4N3UQIeLXICr2GeBlDsnFA",
    ),
    Vector::miss(
        &NOTION_TOKEN,
        "client_secret_9AtL4uhY4iFUvoEHxtGD7tBJUPhdB6zUJvwvkI2NOPd",
    ),
];
