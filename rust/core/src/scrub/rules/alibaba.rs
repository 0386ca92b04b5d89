//! Alibaba Cloud: alibaba-access-key-id.

use super::{Family, RuleDef, Vector};

pub const ALIBABA_ACCESS_KEY_ID: RuleDef = RuleDef::token(
    "alibaba-access-key-id",
    "Alibaba Cloud AccessKey ID (LTAI + 12-20)",
    &["LTAI"],
    r"LTAI[A-Za-z0-9]{12,20}",
    24,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Alibaba Cloud",
    source: "Alibaba Cloud docs: AccessKey",
    rules: &[ALIBABA_ACCESS_KEY_ID],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ALIBABA_ACCESS_KEY_ID,
        "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAIP15avBUzKXUlHlGgpdZW",
        "ALIBABA_CLOUD_ACCESS_KEY_ID=[REDACTED:alibaba-access-key-id]",
    ),
    Vector::miss(&ALIBABA_ACCESS_KEY_ID, "LTAIJFB3c"),
];
