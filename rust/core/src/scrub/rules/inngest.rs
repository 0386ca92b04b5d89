//! Inngest: inngest-signing-key.

use super::{Family, RuleDef, Vector};

pub const INNGEST_SIGNING_KEY: RuleDef = RuleDef::token(
    "inngest-signing-key",
    "Inngest signing key (signkey-<env>- + 64 hex)",
    &["signkey-"],
    r"signkey-(?:prod|test|branch)-[0-9a-f]{64}",
    79,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Inngest",
    source: "Inngest docs: signing keys",
    rules: &[INNGEST_SIGNING_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &INNGEST_SIGNING_KEY,
        "INNGEST_SIGNING_KEY=signkey-prod-2d7b7c37c3debaa1a1201d6486c8216eb9071bcd17f41ad2f01987ca126c4a3f",
        "INNGEST_SIGNING_KEY=[REDACTED:inngest-signing-key]",
    ),
    Vector::hit(
        &INNGEST_SIGNING_KEY,
        "INNGEST_SIGNING_KEY_FALLBACK=\"signkey-branch-09d20391bbd6f5fafd29b6f5437c2a9a57c3aa1db21561aa331055a743c8df1a\"",
        "INNGEST_SIGNING_KEY_FALLBACK=\"[REDACTED:inngest-signing-key]\"",
    ),
    Vector::miss(&INNGEST_SIGNING_KEY, "signkey-prod-c4e64f01487226e72dcfd0be2c528638393a931c"),
    Vector::miss(&INNGEST_SIGNING_KEY, "signkey-prod-<your key>"),
];
