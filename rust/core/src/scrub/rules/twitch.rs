//! Twitch: twitch-oauth-token.

use super::{Family, RuleDef, Vector};

pub const TWITCH_OAUTH_TOKEN: RuleDef = RuleDef::token(
    "twitch-oauth-token",
    "Twitch OAuth token in IRC form (oauth: + 30)",
    &["oauth:"],
    r"oauth:(?P<secret>[a-z0-9]{30})",
    36,
)
.left_guard("");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Twitch",
    source: "Twitch docs: IRC oauth tokens",
    rules: &[TWITCH_OAUTH_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TWITCH_OAUTH_TOKEN,
        "PASS oauth:smnyih6ei9uthb6lbnvdgu6rmg1vip",
        "PASS oauth:[REDACTED:twitch-oauth-token]",
    ),
    Vector::miss(&TWITCH_OAUTH_TOKEN, "oauth: see the docs"),
    Vector::miss(&TWITCH_OAUTH_TOKEN, "oauth:cdiijb05ialo"),
];
