//! Scaleway: scaleway-access-key.

use super::{Family, RuleDef, Vector};

// `SCW` alone starts too many words to be a keyword on the clean path: access key IDs
// are found after a scaleway / SCW_ key.
pub const SCALEWAY_ACCESS_KEY: RuleDef = RuleDef::context(
    "scaleway-access-key",
    "Scaleway access key ID (SCW + 17) after a scaleway / SCW_ key",
    &["scaleway", "scw_"],
    r#"(?i:scaleway|scw_)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>SCW[A-Z0-9]{17})"#,
    100,
)
.right_guard("[A-Za-z0-9_]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Scaleway",
    source: "Scaleway docs: API keys",
    rules: &[SCALEWAY_ACCESS_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SCALEWAY_ACCESS_KEY,
        "SCW_ACCESS_KEY=SCWT7Q2MZ8RK4VX1NB6D",
        "SCW_ACCESS_KEY=[REDACTED:scaleway-access-key]",
    ),
    Vector::hit(
        &SCALEWAY_ACCESS_KEY,
        "scaleway_access_key: \"SCW9PL3XK2QZ7M4RT8VB\"",
        "scaleway_access_key: \"[REDACTED:scaleway-access-key]\"",
    ),
    Vector::miss(&SCALEWAY_ACCESS_KEY, "SCW_DEFAULT_REGION=fr-par"),
];
