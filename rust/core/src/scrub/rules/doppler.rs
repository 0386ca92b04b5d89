//! Doppler: doppler-token.

use super::{Family, RuleDef, Vector};

pub const DOPPLER_TOKEN: RuleDef = RuleDef::token(
    "doppler-token",
    "Doppler personal / service / CLI / service-account / SCIM / audit token (dp.pt. …)",
    &[
        "dp.pt.",
        "dp.st.",
        "dp.ct.",
        "dp.sa.",
        "dp.scim.",
        "dp.audit.",
    ],
    r"dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,32}\.)?[A-Za-z0-9]{40,44}",
    86,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Doppler",
    source: "GL, NP",
    rules: &[DOPPLER_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DOPPLER_TOKEN,
        "DOPPLER_PAT=dp.pt.XYuUk6vzmyB7CeP6C5XaS6LiDjBUrKSdEkDEinLAfvt",
        "DOPPLER_PAT=[REDACTED:doppler-token]",
    ),
    Vector::hit(
        &DOPPLER_TOKEN,
        "$ doppler run --token dp.st.prd.1Dlbt0gb19rqBm2RVGQtp6QzwX9z33nINLOzhVjJ -- ./server",
        "$ doppler run --token [REDACTED:doppler-token] -- ./server",
    ),
    Vector::miss(
        &DOPPLER_TOKEN,
        "dp.pt.EBJ8MAwUN2FtVcqvJ0eQnkvMbcLi64Y86i5gYpT",
    ),
    Vector::miss(
        &DOPPLER_TOKEN,
        "dp.xx.NCty9QzGYUTB7Mwv4xDc8oc56sYwVCun8M0ka78gn0s",
    ),
];
