//! Midtrans: midtrans-server-key.

use super::{Family, RuleDef, Vector};

pub const MIDTRANS_SERVER_KEY: RuleDef = RuleDef::token(
    "midtrans-server-key",
    "Midtrans server key (Mid-server- / SB-Mid-server- + 24)",
    &["Mid-server-"],
    r"Mid-server-[A-Za-z0-9_-]{24}",
    35,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Midtrans",
    source: "Midtrans docs: server keys",
    rules: &[MIDTRANS_SERVER_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MIDTRANS_SERVER_KEY,
        "MIDTRANS_SERVER_KEY=SB-Mid-server-mZOEPLsL-asq1dzQkLAw0fyX",
        "MIDTRANS_SERVER_KEY=SB-[REDACTED:midtrans-server-key]",
    ),
    Vector::miss(&MIDTRANS_SERVER_KEY, "Mid-server-OxKEfR6Ewu"),
];
