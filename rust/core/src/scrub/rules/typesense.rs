//! Typesense: typesense-api-key.

use super::{Family, RuleDef, Vector};

pub const TYPESENSE_API_KEY: RuleDef = RuleDef::context(
    "typesense-api-key",
    "Typesense API key (19+, a digit among the first 41) in an X-TYPESENSE-API-KEY header",
    &["X-TYPESENSE-API-KEY"],
    r#"(?i:x-typesense-api-key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z_-]{0,40}[0-9][A-Za-z0-9_-]{18,126})"#,
    220,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Typesense",
    source: "Typesense docs: API keys (X-TYPESENSE-API-KEY)",
    rules: &[TYPESENSE_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TYPESENSE_API_KEY,
        "curl -H \"X-TYPESENSE-API-KEY: 5X4SWmhDkLzKUAhiDrpZvq5g1eyIar17\" http://localhost:8108/collections",
        "curl -H \"X-TYPESENSE-API-KEY: [REDACTED:typesense-api-key]\" http://localhost:8108/collections",
    ),
    Vector::miss(&TYPESENSE_API_KEY, "X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}"),
    Vector::miss(&TYPESENSE_API_KEY, "X-TYPESENSE-API-KEY: xyz"),
];
