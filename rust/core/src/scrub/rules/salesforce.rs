//! Salesforce: salesforce-session-id.

use super::{Family, RuleDef, Vector};

pub const SALESFORCE_SESSION_ID: RuleDef = RuleDef::token(
    "salesforce-session-id",
    "Salesforce session ID / access token (00D…!…)",
    &["00D"],
    r"00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,}",
    256,
)
.right_guard("")
.overflow("[A-Za-z0-9._]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Salesforce",
    source: "Salesforce docs: session IDs",
    rules: &[SALESFORCE_SESSION_ID],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SALESFORCE_SESSION_ID,
        "sid=00DZ9J58K8nrKlu!Nn2QfAhQVAK9oKZmmztp4U0.H3FcDNygzXb5EZj2NiRF8ex82vS0Zh81CwUurlmbtAqSBMs7GlKv2cglosttS53pIBnmswMQ",
        "sid=[REDACTED:salesforce-session-id]",
    ),
    Vector::hit(
        &SALESFORCE_SESSION_ID,
        "<sessionId>00Dze0TTnSSy1QaWYX!sy0caqhbzLd97cL7pGOaqSH6TOnbTy6noaJfhRUSmwu9OeR3ZTXFRSp8ayqDLWBVKbI73x6xd3fCcH8HOL1FAlt4XL</sessionId>",
        "<sessionId>[REDACTED:salesforce-session-id]</sessionId>",
    ),
    Vector::miss(&SALESFORCE_SESSION_ID, "org 00Dzf4jg2oN7r2Y has no session"),
];
