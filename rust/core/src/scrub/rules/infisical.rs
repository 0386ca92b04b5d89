//! Infisical: infisical-service-token.

use super::{Family, RuleDef, Vector};

pub const INFISICAL_SERVICE_TOKEN: RuleDef = RuleDef::token(
    "infisical-service-token",
    "Infisical service token (st.<id>.<32 hex>.<32 hex>)",
    &["st."],
    r"st\.[a-f0-9-]{36}\.[a-f0-9]{32}\.[a-f0-9]{32}",
    108,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Infisical",
    source: "Infisical docs: service tokens",
    rules: &[INFISICAL_SERVICE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &INFISICAL_SERVICE_TOKEN,
        "INFISICAL_TOKEN=st.4e7100ff-b3b8-1e95-2ad0-bd5830db6415.993ff18f88c9ebf4e9214e8453604fab.c0fdee719c08eb903d01fbfa968401d3",
        "INFISICAL_TOKEN=[REDACTED:infisical-service-token]",
    ),
    Vector::miss(&INFISICAL_SERVICE_TOKEN, "first.second.third"),
];
