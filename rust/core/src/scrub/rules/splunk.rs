//! Splunk: splunk-hec-token.

use super::{Family, RuleDef, Vector};

pub const SPLUNK_HEC_TOKEN: RuleDef = RuleDef::context(
    "splunk-hec-token",
    "Splunk HTTP Event Collector token after the Splunk scheme (UUID)",
    &["Authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:splunk)[ \t]{1,32}(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Splunk",
    source: "Splunk docs: HTTP Event Collector tokens",
    rules: &[SPLUNK_HEC_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SPLUNK_HEC_TOKEN,
        "curl -k https://splunk.internal:8088/services/collector -H 'Authorization: Splunk 35ee11cb-d003-dfdc-222a-6c4a303ec50c' -d '{\"event\": \"deploy\"}'",
        "curl -k https://splunk.internal:8088/services/collector -H 'Authorization: Splunk [REDACTED:splunk-hec-token]' -d '{\"event\": \"deploy\"}'",
    ),
    Vector::hit(
        &SPLUNK_HEC_TOKEN,
        "headers = {\"Authorization\": \"Splunk A0ACBDF1-38E4-8BC0-1CD8-4936F328629B\"}",
        "headers = {\"Authorization\": \"Splunk [REDACTED:splunk-hec-token]\"}",
    ),
    Vector::miss(&SPLUNK_HEC_TOKEN, "Authorization: Splunk <hec-token>"),
    Vector::miss(&SPLUNK_HEC_TOKEN, "Authorization: Splunk ${SPLUNK_HEC_TOKEN}"),
];
