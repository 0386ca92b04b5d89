//! Mailchimp: mailchimp-api-key.

use super::{Family, RuleDef, Vector};

pub const MAILCHIMP_API_KEY: RuleDef = RuleDef::token(
    "mailchimp-api-key",
    "Mailchimp API key (32 hex + -usN)",
    &["-us"],
    r"[0-9a-f]{32}-us[0-9]{1,2}",
    37,
)
.before("[0-9a-f]", 32, 32);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Mailchimp",
    source: "GL, NP, DS",
    rules: &[MAILCHIMP_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MAILCHIMP_API_KEY,
        "MAILCHIMP_KEY=a8c78fb9b8e81f6b858abf27d74cbd7c-us21",
        "MAILCHIMP_KEY=[REDACTED:mailchimp-api-key]",
    ),
    Vector::hit(
        &MAILCHIMP_API_KEY,
        "client.set_config({\"api\": \"36118d3274e009cae268b47b2ff264a7-us6\", \"server\": \"us6\"})",
        "client.set_config({\"api\": \"[REDACTED:mailchimp-api-key]\", \"server\": \"us6\"})",
    ),
    Vector::miss(&MAILCHIMP_API_KEY, "5ea363d7df024ca5a5ebac4fb312293-us21"),
    Vector::miss(&MAILCHIMP_API_KEY, "gf12bc8a154d5accf7e4547c95d7f67d7-us21"),
    Vector::miss(&MAILCHIMP_API_KEY, "locale en-US and --use-feature"),
];
