//! Shippo: shippo-api-token.

use super::{Family, RuleDef, Vector};

pub const SHIPPO_API_TOKEN: RuleDef = RuleDef::token(
    "shippo-api-token",
    "Shippo API token (shippo_live_/shippo_test_ + 40 hex)",
    &["shippo_"],
    r"shippo_(?:live|test)_[a-f0-9]{40}",
    52,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Shippo",
    source: "Shippo docs: API tokens",
    rules: &[SHIPPO_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SHIPPO_API_TOKEN,
        "SHIPPO_API_TOKEN=shippo_live_6080910391c6733483fe77027afee7925b5c6916",
        "SHIPPO_API_TOKEN=[REDACTED:shippo-api-token]",
    ),
    Vector::miss(&SHIPPO_API_TOKEN, "shippo_live_148bf3e82b1e"),
];
