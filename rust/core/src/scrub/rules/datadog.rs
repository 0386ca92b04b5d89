//! Datadog: datadog-key.

use super::{Family, RuleDef, Vector};

pub const DATADOG_KEY: RuleDef = RuleDef::context(
    "datadog-key",
    "Datadog API key (32 hex) / application key (40 hex) in a DD-API-KEY / DD-APPLICATION-KEY header",
    &["DD-API-KEY", "DD-APPLICATION-KEY"],
    r#"(?i:dd-(?:api|application)-key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[a-f0-9]{32}(?:[a-f0-9]{8})?)"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Datadog",
    source: "Datadog docs: API and application keys (DD-API-KEY, DD-APPLICATION-KEY)",
    rules: &[DATADOG_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DATADOG_KEY,
        "curl -X GET https://api.datadoghq.com/api/v1/validate -H \"DD-API-KEY: b2acd3e46eef9df41438d13f8d962a60\"",
        "curl -X GET https://api.datadoghq.com/api/v1/validate -H \"DD-API-KEY: [REDACTED:datadog-key]\"",
    ),
    Vector::hit(
        &DATADOG_KEY,
        "-H \"DD-APPLICATION-KEY: bb707a71b1f6ad103793ce11156c8aca241d0fa9\"",
        "-H \"DD-APPLICATION-KEY: [REDACTED:datadog-key]\"",
    ),
    Vector::miss(&DATADOG_KEY, "DD-API-KEY: ${DD_API_KEY}"),
    Vector::miss(&DATADOG_KEY, "DD-APPLICATION-KEY: <DATADOG_APP_KEY>"),
];
