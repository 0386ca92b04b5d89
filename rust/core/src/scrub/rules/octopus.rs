//! Octopus Deploy: octopus-deploy-api-key.

use super::{Family, RuleDef, Vector};

pub const OCTOPUS_DEPLOY_API_KEY: RuleDef = RuleDef::token(
    "octopus-deploy-api-key",
    "Octopus Deploy API key (API- + 26)",
    &["API-"],
    r"API-[A-Z0-9]{26}",
    30,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Octopus Deploy",
    source: "Octopus Deploy docs: API keys",
    rules: &[OCTOPUS_DEPLOY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OCTOPUS_DEPLOY_API_KEY,
        "OCTOPUS_API_KEY=API-YY4ZHVQA8Q067IMK049QITR1TE",
        "OCTOPUS_API_KEY=[REDACTED:octopus-deploy-api-key]",
    ),
    Vector::miss(&OCTOPUS_DEPLOY_API_KEY, "API-VERSION"),
];
