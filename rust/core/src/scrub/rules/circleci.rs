//! CircleCI: circleci-token.

use super::{Family, RuleDef, Vector};

pub const CIRCLECI_TOKEN: RuleDef = RuleDef::token(
    "circleci-token",
    "CircleCI personal API token (CCIPAT_ + 22 + _ + 40 hex)",
    &["CCIPAT_"],
    r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}",
    70,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "CircleCI",
    source: "CircleCI docs: personal API tokens",
    rules: &[CIRCLECI_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CIRCLECI_TOKEN,
        "CIRCLE_TOKEN=CCIPAT_Z7gs9OqFVcbyuQRLCq4PWp_3ea3b76cd213902fc4dd84c72de4f10961fa54d3",
        "CIRCLE_TOKEN=[REDACTED:circleci-token]",
    ),
    Vector::miss(&CIRCLECI_TOKEN, "CCIPAT_ay5utnlDDX"),
];
