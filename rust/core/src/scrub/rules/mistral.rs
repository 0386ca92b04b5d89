//! Mistral (keyword): mistral-api-key.

use super::{Family, RuleDef, Vector};

pub const MISTRAL_API_KEY: RuleDef = RuleDef::context(
    "mistral-api-key",
    "Mistral API key (32) after a mistral key",
    &["mistral"],
    r#"(?i:mistral)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9]{32})"#,
    120,
)
.right_guard("[A-Za-z0-9]")
.left_guard("");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Mistral (keyword)",
    source: "Mistral docs: API keys (32 characters, no prefix)",
    rules: &[MISTRAL_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MISTRAL_API_KEY,
        "MISTRAL_API_KEY=EZQTUUFu6dhEFiksxl9c4deTJlnMEJfu",
        "MISTRAL_API_KEY=[REDACTED:mistral-api-key]",
    ),
    Vector::miss(&MISTRAL_API_KEY, "mistral_model = mistral-large-latest"),
];
