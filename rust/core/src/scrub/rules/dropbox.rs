//! Dropbox: dropbox-token.

use super::{Family, RuleDef, Vector};

pub const DROPBOX_TOKEN: RuleDef = RuleDef::token(
    "dropbox-token",
    "Dropbox short-lived access token (sl. + 130+)",
    &["sl."],
    r"sl\.[A-Za-z0-9_=-]{130,}",
    1400,
)
.right_guard("")
.overflow("[A-Za-z0-9_=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Dropbox",
    source: "Dropbox docs: short-lived access tokens",
    rules: &[DROPBOX_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DROPBOX_TOKEN,
        "DROPBOX_TOKEN=sl.cUbQUZNIvu5oVM5xmXIc_maQid_A5KdyX4ip96NeV28BPoQdWMy55f5sM4GUG1tBANsh5wOxW7QQaNeTeS04kFH8HyFK2wVWbG-9VkCQWDq4is03M8RvT0WrSyBu2gJwWpam0asNy6uZ",
        "DROPBOX_TOKEN=[REDACTED:dropbox-token]",
    ),
    Vector::miss(&DROPBOX_TOKEN, "see sl.example.com"),
];
