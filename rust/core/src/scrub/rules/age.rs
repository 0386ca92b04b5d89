//! age: age-secret-key.

use super::{Family, RuleDef, Vector};

pub const AGE_SECRET_KEY: RuleDef = RuleDef::token(
    "age-secret-key",
    "age encryption secret key (AGE-SECRET-KEY-1…, bech32)",
    &["AGE-SECRET-KEY-1"],
    r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
    74,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "age",
    source: "GL, DS, NP, TH",
    rules: &[AGE_SECRET_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &AGE_SECRET_KEY,
        "# created: 2024-06-11T10:00:00Z\n# public key: age1h3wv7cgivfaeqee9qau0rbmyggrf17r7npbmmaofp44aiehgl63tdfjd49\nAGE-SECRET-KEY-12DM0DXZMVT4R7TN7DLV5GV2Y6D3VC3VND2RKC3NL7RR436Z2KS5DA9FSZ0\n",
        "# created: 2024-06-11T10:00:00Z\n# public key: age1h3wv7cgivfaeqee9qau0rbmyggrf17r7npbmmaofp44aiehgl63tdfjd49\n[REDACTED:age-secret-key]\n",
    ),
    Vector::hit(
        &AGE_SECRET_KEY,
        "SOPS_AGE_KEY=AGE-SECRET-KEY-1WJCRQ4C33NDSTLY7R25NH0PC75F5R5E94H8JG3S0KF87XT89D9RQ8FTG27 sops -d secrets.enc.yaml",
        "SOPS_AGE_KEY=[REDACTED:age-secret-key] sops -d secrets.enc.yaml",
    ),
    Vector::miss(&AGE_SECRET_KEY, "AGE-SECRET-KEY-1LP3QDL6LJU8C7JH945CCDV7Z3X5J250SUL6Y42UGTZM7CQPJRH5L9CKH6"),
    Vector::miss(&AGE_SECRET_KEY, "AGE-SECRET-KEY-1NK4GTUDHN8N8354Y7AE0887RC74QRW5GEK73NAA2KDDD6N85EMbbbbbbbb"),
];
