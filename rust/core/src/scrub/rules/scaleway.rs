//! Scaleway: scaleway-access-key.

use super::{Family, RuleDef, Vector};

pub const SCALEWAY_ACCESS_KEY: RuleDef = RuleDef::token(
    "scaleway-access-key",
    "Scaleway access key ID (SCW + 17)",
    &["SCW"],
    r"SCW[A-Z0-9]{17}",
    20,
);

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
        "SCW_ACCESS_KEY=SCWBSRBXUHRGF9C62F6K",
        "SCW_ACCESS_KEY=[REDACTED:scaleway-access-key]",
    ),
    Vector::miss(&SCALEWAY_ACCESS_KEY, "SCW4564LF1ASJ"),
];
