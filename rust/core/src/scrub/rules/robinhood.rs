//! Robinhood Crypto: robinhood-crypto-api-key.

use super::{Family, RuleDef, Vector};

pub const ROBINHOOD_CRYPTO_API_KEY: RuleDef = RuleDef::token(
    "robinhood-crypto-api-key",
    "Robinhood Crypto trading API key (rh-api- + UUID)",
    &["rh-api-"],
    r"rh-api-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    43,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Robinhood Crypto",
    source: "TH",
    rules: &[ROBINHOOD_CRYPTO_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ROBINHOOD_CRYPTO_API_KEY,
        "API_KEY = \"rh-api-0ca2a8b0-6633-b284-58e0-30b99012e4c7\"",
        "API_KEY = \"[REDACTED:robinhood-crypto-api-key]\"",
    ),
    Vector::miss(&ROBINHOOD_CRYPTO_API_KEY, "rh-api-92c16e35"),
    Vector::miss(
        &ROBINHOOD_CRYPTO_API_KEY,
        "rh-api-XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX",
    ),
];
