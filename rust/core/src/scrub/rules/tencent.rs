//! Tencent Cloud: tencent-secret-id.

use super::{Family, RuleDef, Vector};

pub const TENCENT_SECRET_ID: RuleDef = RuleDef::token(
    "tencent-secret-id",
    "Tencent Cloud SecretId (AKID + 32)",
    &["AKID"],
    r"AKID[A-Za-z0-9]{32}",
    36,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Tencent Cloud",
    source: "Tencent Cloud docs: SecretId",
    rules: &[TENCENT_SECRET_ID],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TENCENT_SECRET_ID,
        "TENCENTCLOUD_SECRET_ID=AKID6zSTsUH4CnF0XjfvxgZiRm2ywn18Qa6U",
        "TENCENTCLOUD_SECRET_ID=[REDACTED:tencent-secret-id]",
    ),
    Vector::miss(&TENCENT_SECRET_ID, "AKIDVgeTWMc8mN"),
];
