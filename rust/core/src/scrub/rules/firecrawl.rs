//! Firecrawl: firecrawl-api-key.

use super::{Family, RuleDef, Vector};

pub const FIRECRAWL_API_KEY: RuleDef = RuleDef::token(
    "firecrawl-api-key",
    "Firecrawl API key (fc- + 32 hex)",
    &["fc-"],
    r"fc-[a-f0-9]{32}",
    35,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Firecrawl",
    source: "Firecrawl docs: API keys",
    rules: &[FIRECRAWL_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FIRECRAWL_API_KEY,
        "FIRECRAWL_API_KEY=fc-75a3ad93e92033022ae6d6fc411a3f5f",
        "FIRECRAWL_API_KEY=[REDACTED:firecrawl-api-key]",
    ),
    Vector::miss(&FIRECRAWL_API_KEY, "fc-b326e6067a"),
];
