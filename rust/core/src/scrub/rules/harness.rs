//! Harness: harness-token.

use super::{Family, RuleDef, Vector};

pub const HARNESS_TOKEN: RuleDef = RuleDef::token(
    "harness-token",
    "Harness personal / service account token (pat./sat. + id + . + 24 + . + 20)",
    &["pat.", "sat."],
    r"[ps]at\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}",
    72,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Harness",
    source: "Harness docs: API keys and tokens",
    rules: &[HARNESS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &HARNESS_TOKEN,
        "HARNESS=pat.r1PY22Mhr7AT90UWlCCJEp.svurwymNd5nCvZIhpuQ096Pc.GUvmWFUQGHTTUQydXQrJ",
        "HARNESS=[REDACTED:harness-token]",
    ),
    Vector::miss(&HARNESS_TOKEN, "pat.KDLv0BG44j"),
];
