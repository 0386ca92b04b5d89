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
    source: "NP",
    rules: &[FIRECRAWL_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FIRECRAWL_API_KEY,
        "FIRECRAWL_API_KEY=fc-230ebaf6d4684ffd93758b892cd29706",
        "FIRECRAWL_API_KEY=[REDACTED:firecrawl-api-key]",
    ),
    Vector::hit(
        &FIRECRAWL_API_KEY,
        "app = FirecrawlApp(api_key=\"fc-4dd1134cf8adc5e633c2e186c55a6d2e\")",
        "app = FirecrawlApp(api_key=\"[REDACTED:firecrawl-api-key]\")",
    ),
    Vector::miss(&FIRECRAWL_API_KEY, "fc-YOUR_API_KEY"),
    Vector::miss(&FIRECRAWL_API_KEY, "see rfc-8759"),
];
