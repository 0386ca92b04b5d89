//! HashiCorp Vault: vault-token.

use super::{Family, RuleDef, Vector};

// Vault's legacy `s.` tokens have no usable literal; VAULT_TOKEN= catches them through
// secret-assignment.
pub const VAULT_TOKEN: RuleDef = RuleDef::token(
    "vault-token",
    "HashiCorp Vault service / batch token (hvs., hvb.)",
    &["hvs.", "hvb."],
    r"hvs\.[A-Za-z0-9_-]{24,}|hvb\.[A-Za-z0-9_-]{100,}",
    512,
)
.right_guard("")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "HashiCorp Vault",
    source: "GL, NP",
    rules: &[VAULT_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &VAULT_TOKEN,
        "VAULT_ADDR=https://vault:8200 VAULT_CRED=hvs.aagk5WIn-ACFpAMj0JyvlWhGC9jfuCCKgqEijTa07vURJUsUv3IOaPrdK7pCd6imCh_CrtuJUasdiK0SXLWXinvBcE vault kv get secret/app",
        "VAULT_ADDR=https://vault:8200 VAULT_CRED=[REDACTED:vault-token] vault kv get secret/app",
    ),
    Vector::hit(
        &VAULT_TOKEN,
        "{\"auth\": {\"client_value\": \"hvb.mvIMIVEmhxeXHSJ3J3PpaaMt_GCU8CHQgsXS5DlcO9aokY6M7KF5xyfU-qybLqNDk5eRdW9nXj-HFIpOQGBSxYYPn94XyQOAZTbCEM1APzB_P9Tme8wmeclQm0_jA5TgfmIHJMzx3h90\", \"lease_duration\": 3600}}",
        "{\"auth\": {\"client_value\": \"[REDACTED:vault-token]\", \"lease_duration\": 3600}}",
    ),
    Vector::miss(&VAULT_TOKEN, "hvs.mKOPWzXqtv7ww84A7IvTTU4"),
    Vector::miss(&VAULT_TOKEN, "hvb.d3QciQCPUGZtO1n1LaeGSDv39RcycTIvCRTaTFkbMIBvbV0XUEMuFXNQzN5k"),
];
