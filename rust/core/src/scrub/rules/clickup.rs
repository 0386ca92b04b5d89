//! ClickUp: clickup-token.

use super::{Family, RuleDef, Vector};

pub const CLICKUP_TOKEN: RuleDef = RuleDef::token(
    "clickup-token",
    "ClickUp personal API token (pk_ + id + _ + 32)",
    &["pk_"],
    r"pk_[0-9]{6,10}_[A-Z0-9]{32}",
    46,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "ClickUp",
    source: "ClickUp docs: personal API tokens",
    rules: &[CLICKUP_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLICKUP_TOKEN,
        "CLICKUP_TOKEN=pk_60965609_GRTWF09YZEP7U4NHCM5UBM31WE2PRYLF",
        "CLICKUP_TOKEN=[REDACTED:clickup-token]",
    ),
    Vector::miss(
        &CLICKUP_TOKEN,
        "pk_live_suYYpheegzPkCtXtRA5F34oO is a publishable key",
    ),
];
