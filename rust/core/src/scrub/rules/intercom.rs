//! Intercom: intercom-access-token.

use super::{Family, RuleDef, Vector};

pub const INTERCOM_ACCESS_TOKEN: RuleDef = RuleDef::token(
    "intercom-access-token",
    "Intercom access token (dG9rOj…, base64 of tok:)",
    &["dG9rOj"],
    r"dG9rOj[A-Za-z0-9+/]{50,}={0,2}",
    256,
)
.right_guard("[A-Za-z0-9+/=]")
.overflow("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Intercom",
    source: "Intercom docs: access tokens",
    rules: &[INTERCOM_ACCESS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &INTERCOM_ACCESS_TOKEN,
        "INTERCOM_TOKEN=dG9rOjUUr1dAzl4AH0O4osxEJwxEPOkVZJu66QHcYtbodC8RgAN3ihjVlTno=",
        "INTERCOM_TOKEN=[REDACTED:intercom-access-token]",
    ),
    Vector::miss(&INTERCOM_ACCESS_TOKEN, "dG9rOjUfblozU5xu"),
];
