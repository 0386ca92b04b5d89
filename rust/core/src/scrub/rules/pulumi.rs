//! Pulumi: pulumi-api-token.

use super::{Family, RuleDef, Vector};

pub const PULUMI_API_TOKEN: RuleDef = RuleDef::token(
    "pulumi-api-token",
    "Pulumi access token (pul- + 40 hex)",
    &["pul-"],
    r"pul-[0-9a-f]{40}",
    44,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Pulumi",
    source: "GL, TH, NP, DS",
    rules: &[PULUMI_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PULUMI_API_TOKEN,
        "PULUMI_ACCESS=pul-1243eb1ae85bd48b58e74e17549955b92d50dafe pulumi up",
        "PULUMI_ACCESS=[REDACTED:pulumi-api-token] pulumi up",
    ),
    Vector::hit(
        &PULUMI_API_TOKEN,
        "{\"accessTokens\": {\"https://api.pulumi.com\": \"pul-38167114e445b65b43813ac255e9866ea8db5ff2\"}}",
        "{\"accessTokens\": {\"https://api.pulumi.com\": \"[REDACTED:pulumi-api-token]\"}}",
    ),
    Vector::miss(&PULUMI_API_TOKEN, "pul-060c4963d3e4b688d11c5f5c5b94de5695a800a"),
    Vector::miss(&PULUMI_API_TOKEN, "pull-request-3dec171ce124d3c1c36c3e2fd4f70608d9d9475a"),
];
