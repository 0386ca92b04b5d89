//! Frame.io: frameio-token.

use super::{Family, RuleDef, Vector};

pub const FRAMEIO_TOKEN: RuleDef = RuleDef::token(
    "frameio-token",
    "Frame.io developer token (fio-u- + 64)",
    &["fio-u-"],
    r"fio-u-[A-Za-z0-9_=-]{64}",
    70,
)
.right_guard("[A-Za-z0-9_=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Frame.io",
    source: "Frame.io docs: developer tokens",
    rules: &[FRAMEIO_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FRAMEIO_TOKEN,
        "FRAMEIO=fio-u-B80J2CV3SD1wcEL3iPlN7GXFs-B-JUdmkPSV9_y6sl7TY1PGqTOOSxCzHSQut8Oz",
        "FRAMEIO=[REDACTED:frameio-token]",
    ),
    Vector::miss(&FRAMEIO_TOKEN, "fio-u-3XnqVsdcpJ"),
];
