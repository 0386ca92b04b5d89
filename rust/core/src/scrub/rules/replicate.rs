//! Replicate: replicate-api-token.

use super::{Family, RuleDef, Vector};

pub const REPLICATE_API_TOKEN: RuleDef = RuleDef::token(
    "replicate-api-token",
    "Replicate API token (r8_ + 37)",
    &["r8_"],
    r"r8_[0-9A-Za-z_-]{37}",
    40,
)
.right_guard("[0-9A-Za-z_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Replicate",
    source: "GL, TH, NP",
    rules: &[REPLICATE_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &REPLICATE_API_TOKEN,
        "REPLICATE_API=r8_4eNa1hV0cpED9y5NFarJO5sMCo0HOxzsqcvbS",
        "REPLICATE_API=[REDACTED:replicate-api-token]",
    ),
    Vector::hit(
        &REPLICATE_API_TOKEN,
        "$ cog login --token-stdin <<< r8_i7XxVYJ479tMTixICeyqWRj3ZkckuqwNpPcaW",
        "$ cog login --token-stdin <<< [REDACTED:replicate-api-token]",
    ),
    Vector::miss(
        &REPLICATE_API_TOKEN,
        "r8_fgkia20H8xNWjR4f8MtIRAFHV0vhEcHH7P92",
    ),
    Vector::miss(
        &REPLICATE_API_TOKEN,
        "r8_m55JcIAXTrXOJa1RPNpTYRI9JW9xKQiBBlibmd",
    ),
];
