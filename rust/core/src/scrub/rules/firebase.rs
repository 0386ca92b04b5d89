//! Firebase Cloud Messaging: fcm-server-key.

use super::{Family, RuleDef, Vector};

pub const FCM_SERVER_KEY: RuleDef = RuleDef::token(
    "fcm-server-key",
    "Firebase Cloud Messaging legacy server key (…:APA91b…)",
    &[":APA91b"],
    r"[A-Za-z0-9_-]{11}:APA91b[A-Za-z0-9_-]{134}",
    152,
)
.right_guard("[A-Za-z0-9_-]")
.left_guard("[A-Za-z0-9_-]")
.before("[A-Za-z0-9_-]", 11, 11);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Firebase Cloud Messaging",
    source: "Firebase docs: legacy server keys",
    rules: &[FCM_SERVER_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FCM_SERVER_KEY,
        "FCM_SERVER_KEY=AAAAmYTwe0R:APA91bZAEEe6ZYCcwE9jtLYoT_UUh_YRZqon-UcK43kuETKw6VX_hy6ctfgnwGwbbRCfNp0IFleEkcRrqUNzM0UKYMnWprFq5jbINMN0B_fgCbMOOqpS-1RURzEGWvJVgWw2HfTXGPcp",
        "FCM_SERVER_KEY=[REDACTED:fcm-server-key]",
    ),
    Vector::miss(&FCM_SERVER_KEY, "the :APA91b marker of FCM keys"),
];
