//! Algolia: algolia-api-key.

use super::{Family, RuleDef, Vector};

pub const ALGOLIA_API_KEY: RuleDef = RuleDef::context(
    "algolia-api-key",
    "Algolia API key (32 hex) in an X-Algolia-API-Key header",
    &["X-Algolia-API-Key"],
    r#"(?i:x-algolia-api-key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[a-f0-9]{32})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Algolia",
    source: "Algolia docs: API keys (X-Algolia-API-Key)",
    rules: &[ALGOLIA_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ALGOLIA_API_KEY,
        "curl -H \"X-Algolia-API-Key: 0aaa1ab01e89e558e859711c0ad69252\" -H \"X-Algolia-Application-Id: MC3BK6WEC1\" https://latency-dsn.algolia.net/1/indexes",
        "curl -H \"X-Algolia-API-Key: [REDACTED:algolia-api-key]\" -H \"X-Algolia-Application-Id: MC3BK6WEC1\" https://latency-dsn.algolia.net/1/indexes",
    ),
    Vector::miss(&ALGOLIA_API_KEY, "X-Algolia-API-Key: ${ALGOLIA_ADMIN_KEY}"),
    Vector::miss(&ALGOLIA_API_KEY, "X-Algolia-API-Key: <ADMIN_API_KEY>"),
];
