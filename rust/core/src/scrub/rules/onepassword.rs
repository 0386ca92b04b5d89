//! 1Password: 1password-service-account-token.

use super::{Family, RuleDef, Vector};

pub const ONEPASSWORD_SERVICE_ACCOUNT_TOKEN: RuleDef = RuleDef::token(
    "1password-service-account-token",
    "1Password service account token (ops_eyJ…)",
    &["ops_eyJ"],
    r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}",
    4096,
)
.right_guard("")
.overflow("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "1Password",
    source: "GL, NP",
    rules: &[ONEPASSWORD_SERVICE_ACCOUNT_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ONEPASSWORD_SERVICE_ACCOUNT_TOKEN,
        "OP_SERVICE_ACCOUNT=ops_eyJWyJNlFhXept6gmavjxUQP1LFBxcDwEQqY8IeML7TH90WFYPmlu22D2hagVupD/VIsJGwvKkc8VbaOZ48Av4vy1B9jGsqIH4TvIav4+PE0SpgghgGGVpNWMDm/LklAnDtcAhNZiMUu6PM9kK27gnExhWxVeGglPpVEzSpEP/0Ko3brLTCOxO30wK9Rmf9BjuSB3juRZdxdz3ZHs6nsyPhzZam2nGfFB0TXM6n9iiDvg8CiiV4++XPbJi5m0X5ninp/Mo0QBmGuUV8w7IY4wVEqKeQrthkFfmehOpHb7XhykqrUmkDLVTZlxR/X5sMcjS52s2cV9GH7X4biklj8k6AFpdfJiXY4u8oat2q2jVg+Koy0x/9dAE4v/2rNZbl+HM49a4j+3C2+Eu3LoBp0064trRTEjESQfP2HaYBbkKNS1tIEMklQnraW9PxIc1CKOlkRxI20kKgqS8eo/sD1yLWKfyZs0+kzRa73lrgOCDCx4KIQNKF2sxXc7w54LAkeH08AsSBcpnnnsbBZMTT9vefPn54Lgyrotu38ERUTkPYqYnrZEcJPJ/JftouW/8tcwkyPk3rc6fCwCNrL3fDaGNtuCef=",
        "OP_SERVICE_ACCOUNT=[REDACTED:1password-service-account-token]",
    ),
    Vector::hit(
        &ONEPASSWORD_SERVICE_ACCOUNT_TOKEN,
        "{\"env\": {\"OP_SA\": \"ops_eyJGV4DXKGztArk3tox1jfQ1Gl3OnWqPuQS/Pm3M/Ic1IMM/VJCxKaUhuxJbbMe9soWh2uxbGhQQ3KfONG+uGROCwT7cXcgztXPt3p+wgqjG0vbDr0E+rQ7URCzo0lfL9acXyJHuxxGvmaeYEYS/LbsgGZJLuGmtXp6250Az/UiqQl5IQkWsgw37fBOomE2KOD7QTWVnw8hKLtcz+z0lEdAMKuLCcsm1BX++FZSryZSwFV8CI8yRHO8Rs3M7OjerC5TlEv0ScfHTmSuMj5PO2lQ77V8kKpDiwHOKzclEUpUpPuP\"}}",
        "{\"env\": {\"OP_SA\": \"[REDACTED:1password-service-account-token]\"}}",
    ),
    Vector::miss(&ONEPASSWORD_SERVICE_ACCOUNT_TOKEN, "ops_eyJ5gZszE0qgAXXc0Dal3EfJfwy0NMAMvKgm06EwiHAEfmKco8K+BuYXpMahpk0lhNaFukpvD+ffXwZ1G6J6yzSgyrB0ZAchh0DF7VJ"),
    Vector::miss(&ONEPASSWORD_SERVICE_ACCOUNT_TOKEN, "ops_eyJ is the prefix of service account tokens"),
];
