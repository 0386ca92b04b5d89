//! Sourcegraph: sourcegraph-token.

use super::{Family, RuleDef, Vector};

pub const SOURCEGRAPH_TOKEN: RuleDef = RuleDef::token(
    "sourcegraph-token",
    "Sourcegraph access token (sgp_…)",
    &["sgp_"],
    r"sgp_(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}",
    61,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Sourcegraph",
    source: "Sourcegraph docs: access tokens",
    rules: &[SOURCEGRAPH_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SOURCEGRAPH_TOKEN,
        "SRC_ACCESS_TOKEN=sgp_81f863ccd7693f6d_da86cd9f8f53f5b853908a705bde92615e3d156f",
        "SRC_ACCESS_TOKEN=[REDACTED:sourcegraph-token]",
    ),
    Vector::hit(
        &SOURCEGRAPH_TOKEN,
        "token sgp_02ef9b6a189316a8077ff4fd1bf0beeccbdc5c6b",
        "token [REDACTED:sourcegraph-token]",
    ),
    Vector::miss(&SOURCEGRAPH_TOKEN, "sgp_9d538253f8e8d2a73c1a"),
];
