//! 1Password account secret key: 1password-secret-key.

use super::{Family, RuleDef, Vector};

pub const ONEPASSWORD_SECRET_KEY: RuleDef = RuleDef::token(
    "1password-secret-key",
    "1Password account Secret Key (A3-…)",
    &["A3-"],
    r"A3-[A-Z0-9]{6}-[A-Z0-9]{5,11}(?:-[A-Z0-9]{5}){3}",
    48,
)
.right_guard("[A-Z0-9-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "1Password account secret key",
    source: "1Password docs: Secret Key",
    rules: &[ONEPASSWORD_SECRET_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ONEPASSWORD_SECRET_KEY,
        "op secret key A3-H6JR9Y-MIGGHW-UPBMQ-KG8BR-DJR9H",
        "op secret key [REDACTED:1password-secret-key]",
    ),
    Vector::miss(&ONEPASSWORD_SECRET_KEY, "A3-SIZE paper"),
];
