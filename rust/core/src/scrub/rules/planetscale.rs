//! PlanetScale: planetscale-token.

use super::{Family, RuleDef, Vector};

pub const PLANETSCALE_TOKEN: RuleDef = RuleDef::token(
    "planetscale-token",
    "PlanetScale service token, password or OAuth token (pscale_tkn_, pscale_pw_, pscale_oauth_)",
    &["pscale_"],
    r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}",
    77,
)
.right_guard("[A-Za-z0-9_.-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "PlanetScale",
    source: "PlanetScale docs: service tokens, passwords",
    rules: &[PLANETSCALE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PLANETSCALE_TOKEN,
        "PLANETSCALE=pscale_tkn_6xEhKCaZCvC97iVnVq4qUxPQe3NFpJVqExgEgGfHBg4",
        "PLANETSCALE=[REDACTED:planetscale-token]",
    ),
    Vector::hit(
        &PLANETSCALE_TOKEN,
        "password: pscale_pw_EhiAYkWx6JDu79mhHCxMjCyO-lZdOA9g1U7TNzsnNEJ",
        "password: [REDACTED:planetscale-token]",
    ),
    Vector::miss(&PLANETSCALE_TOKEN, "pscale_tkn_b4rs6p3k"),
];
