//! Postmark: postmark-token.

use super::{Family, RuleDef, Vector};

pub const POSTMARK_TOKEN: RuleDef = RuleDef::context(
    "postmark-token",
    "Postmark server / account token (UUID) in an X-Postmark-Server-Token / X-Postmark-Account-Token header",
    &["X-Postmark-Server-Token", "X-Postmark-Account-Token"],
    r#"(?i:x-postmark-(?:server|account)-token)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#,
    130,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Postmark",
    source: "Postmark docs: API tokens (X-Postmark-Server-Token, X-Postmark-Account-Token)",
    rules: &[POSTMARK_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &POSTMARK_TOKEN,
        "curl https://api.postmarkapp.com/email -H \"X-Postmark-Server-Token: 78effdb0-629f-a96f-f5cd-23d8aa456a5b\" -d @mail.json",
        "curl https://api.postmarkapp.com/email -H \"X-Postmark-Server-Token: [REDACTED:postmark-token]\" -d @mail.json",
    ),
    Vector::hit(
        &POSTMARK_TOKEN,
        "{\"X-Postmark-Account-Token\": \"cddb160c-effa-a023-39ba-46c337849124\"}",
        "{\"X-Postmark-Account-Token\": \"[REDACTED:postmark-token]\"}",
    ),
    Vector::miss(&POSTMARK_TOKEN, "X-Postmark-Server-Token: POSTMARK_API_TEST"),
    Vector::miss(&POSTMARK_TOKEN, "X-Postmark-Server-Token: server token"),
];
