//! Klaviyo: klaviyo-private-key.

use super::{Family, RuleDef, Vector};

pub const KLAVIYO_PRIVATE_KEY: RuleDef = RuleDef::token(
    "klaviyo-private-key",
    "Klaviyo private API key (pk_ + 34 hex)",
    &["pk_"],
    r"pk_(?:[A-Za-z0-9]{6}_)?[0-9a-f]{34}",
    44,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Klaviyo",
    source: "TH",
    rules: &[KLAVIYO_PRIVATE_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &KLAVIYO_PRIVATE_KEY,
        "KLAVIYO_PRIVATE_KEY=pk_f41928a4e758432dfea5d5e696e68033ec",
        "KLAVIYO_PRIVATE_KEY=[REDACTED:klaviyo-private-key]",
    ),
    Vector::hit(
        &KLAVIYO_PRIVATE_KEY,
        "headers={\"Authorization\": \"Klaviyo-API-Key pk_vRyzNX_4bc64b4b3153e30e3338777df8afbf23c1\"}",
        "headers={\"Authorization\": \"Klaviyo-API-Key [REDACTED:klaviyo-private-key]\"}",
    ),
    Vector::miss(&KLAVIYO_PRIVATE_KEY, "pk_ed4346aebad4aa73311c"),
    Vector::miss(&KLAVIYO_PRIVATE_KEY, "pk_oozntxvzwnnwkvjvgnuivmwqiyynitwmog"),
];
