//! Mailgun: mailgun-api-key.

use super::{Family, RuleDef, Vector, W};

pub const MAILGUN_API_KEY: RuleDef = RuleDef::context(
    "mailgun-api-key",
    "Mailgun private API key (key-… or 32-8-8 hex) after a mailgun key",
    &["mailgun"],
    r#"(?i:mailgun)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})"#,
    159,
)
.right_guard(W);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Mailgun",
    source: "GL, NP, DS",
    rules: &[MAILGUN_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MAILGUN_API_KEY,
        "MAILGUN_API=key-ec7ac7e2c889109c2ad33912ecbcca60",
        "MAILGUN_API=[REDACTED:mailgun-api-key]",
    ),
    Vector::hit(
        &MAILGUN_API_KEY,
        "{\"mailgun\": \"c9bd05ec68d811661a63176591ec18f7-4e5031b5-cf86ab87\"}",
        "{\"mailgun\": \"[REDACTED:mailgun-api-key]\"}",
    ),
    Vector::miss(
        &MAILGUN_API_KEY,
        "https://api.mailgun.net/v3/example.com/messages",
    ),
    Vector::miss(
        &MAILGUN_API_KEY,
        "MAILGUN_API=key-eb8026e1a1f896a8a2764feb734ea0d",
    ),
];
