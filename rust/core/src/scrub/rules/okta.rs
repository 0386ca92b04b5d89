//! Okta: okta-api-token.

use super::{Family, RuleDef, Vector};

pub const OKTA_API_TOKEN: RuleDef = RuleDef::token(
    "okta-api-token",
    "Okta API token after the SSWS scheme (00 + 40)",
    &["SSWS"],
    r"SSWS[ \t]+(?P<secret>00[A-Za-z0-9_-]{40})",
    72,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Okta",
    source: "Okta docs: API tokens (SSWS scheme)",
    rules: &[OKTA_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OKTA_API_TOKEN,
        "Authorization: SSWS 000XUK2itBjTHID-fO29Wg3GrNgIdjKqVSGkv67aI0",
        "Authorization: SSWS [REDACTED:okta-api-token]",
    ),
    Vector::miss(&OKTA_API_TOKEN, "Authorization: SSWS ${OKTA_TOKEN}"),
];
