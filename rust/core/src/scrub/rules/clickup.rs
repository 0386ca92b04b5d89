//! ClickUp: clickup-personal-token.

use super::{Family, RuleDef, Vector};

pub const CLICKUP_PERSONAL_TOKEN: RuleDef = RuleDef::token(
    "clickup-personal-token",
    "ClickUp personal API token (pk_<user id>_ + 32)",
    &["pk_"],
    r"pk_[0-9]{7,9}_[0-9A-Z]{32}",
    45,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "ClickUp",
    source: "TH",
    rules: &[CLICKUP_PERSONAL_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLICKUP_PERSONAL_TOKEN,
        "CLICKUP_API_TOKEN=pk_84421106_YQFK34K2I83UCA74FV6MHNQZ35LNYBMI",
        "CLICKUP_API_TOKEN=[REDACTED:clickup-personal-token]",
    ),
    Vector::miss(&CLICKUP_PERSONAL_TOKEN, "pk_36152390_VIHWGUC7P7X7MMZ6TBE4"),
    Vector::miss(
        &CLICKUP_PERSONAL_TOKEN,
        "pk_98118941_xjnwvoqcerdvtnrnuleajpjdiwlyvmhh",
    ),
];
