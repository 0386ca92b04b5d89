//! Opsgenie: opsgenie-api-key.

use super::{Family, RuleDef, Vector};

pub const OPSGENIE_API_KEY: RuleDef = RuleDef::context(
    "opsgenie-api-key",
    "Opsgenie API key after the GenieKey scheme (UUID)",
    &["Authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:geniekey)[ \t]{1,32}(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Opsgenie",
    source: "Opsgenie docs: API key authentication",
    rules: &[OPSGENIE_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OPSGENIE_API_KEY,
        "curl -X POST https://api.opsgenie.com/v2/alerts -H \"Authorization: GenieKey a84fe95a-55ba-5c25-b122-ff9b59afe85d\"",
        "curl -X POST https://api.opsgenie.com/v2/alerts -H \"Authorization: GenieKey [REDACTED:opsgenie-api-key]\"",
    ),
    Vector::hit(
        &OPSGENIE_API_KEY,
        "{\"Authorization\": \"GenieKey 760155d3-f17c-35d6-56a4-d8a7b0137ab1\"}",
        "{\"Authorization\": \"GenieKey [REDACTED:opsgenie-api-key]\"}",
    ),
    Vector::miss(&OPSGENIE_API_KEY, "Authorization: GenieKey $OPSGENIE_KEY"),
    Vector::miss(&OPSGENIE_API_KEY, "Authorization: GenieKey <api key>"),
];
