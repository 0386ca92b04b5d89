//! Zapier: zapier-webhook.

use super::{Family, RuleDef, Vector};

pub const ZAPIER_WEBHOOK: RuleDef = RuleDef::token(
    "zapier-webhook",
    "Zapier catch-hook URL path",
    &["hooks.zapier.com/hooks/catch/"],
    r"hooks\.zapier\.com/hooks/catch/[0-9]{4,12}/[a-z0-9]{4,12}",
    64,
)
.right_guard("[A-Za-z0-9]")
.left_guard("");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Zapier",
    source: "Zapier docs: webhook URLs",
    rules: &[ZAPIER_WEBHOOK],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ZAPIER_WEBHOOK,
        "curl -X POST https://hooks.zapier.com/hooks/catch/2865108/tgi1a9/",
        "curl -X POST https://[REDACTED:zapier-webhook]/",
    ),
    Vector::miss(
        &ZAPIER_WEBHOOK,
        "hooks.zapier.com/hooks/catch/ is the prefix",
    ),
];
