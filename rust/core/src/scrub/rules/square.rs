//! Square: square-token.

use super::{Family, RuleDef, Vector};

pub const SQUARE_TOKEN: RuleDef = RuleDef::token(
    "square-token",
    "Square access token (sq0atp-, EAAA…) or OAuth secret (sq0csp-)",
    &["sq0atp-", "sq0csp-", "EAAA"],
    r"(?:sq0atp-|EAAA)[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43}",
    67,
)
// `EAAA` also occurs inside base64 blobs, hence `+/=` in both guards.
.left_guard("[A-Za-z0-9_+/-]")
.right_guard("[A-Za-z0-9_+/=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Square",
    source: "GL, TH, NP, DS",
    rules: &[SQUARE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SQUARE_TOKEN,
        "SQUARE_ACCESS=EAAAKN2m1mLCOyVMVv_N8tojX5czY5BCdosrte0awFrJOi45R1pOURjArQIaHK69",
        "SQUARE_ACCESS=[REDACTED:square-token]",
    ),
    Vector::hit(
        &SQUARE_TOKEN,
        "{\"square\": {\"application_id\": \"sq0idp-abc\", \"oauth\": \"sq0csp-WUgn5lCstW9IXQ4EnblsYhadAEbwhISo7-_Ged436Pt\"}}",
        "{\"square\": {\"application_id\": \"sq0idp-abc\", \"oauth\": \"[REDACTED:square-token]\"}}",
    ),
    Vector::miss(&SQUARE_TOKEN, "sq0atp-FCe6JSPIUcUbl41Vu0Rpv"),
    Vector::miss(&SQUARE_TOKEN, "sq0csp-Krlddkl8ppJXGboQSZK5BZTa3M1z3k6vb2Mw7pUl1Hgp"),
];
