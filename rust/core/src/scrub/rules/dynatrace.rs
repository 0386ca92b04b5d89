//! Dynatrace: dynatrace-token.

use super::{Family, RuleDef, Vector};

pub const DYNATRACE_TOKEN: RuleDef = RuleDef::token(
    "dynatrace-token",
    "Dynatrace access token (dt0c01. + 24 + . + 64)",
    &["dt0c0", "dt0s0"],
    r"dt0[a-z][0-9]{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}",
    96,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Dynatrace",
    source: "Dynatrace docs: access tokens",
    rules: &[DYNATRACE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DYNATRACE_TOKEN,
        "DT_API_TOKEN=dt0c01.C72PWEG760O8RJQB3BYGI339.TLPZHZ49NRTOP10DBAKIY9UNYJY2H393UYW3SN9WJO4OUZ74FAJRFA26V9RJZD3D",
        "DT_API_TOKEN=[REDACTED:dynatrace-token]",
    ),
    Vector::miss(&DYNATRACE_TOKEN, "dt0c01.W4HQKIZ9PNOKEU42UQUA8LSU"),
];
