//! Klaviyo: klaviyo-private-key.

use super::{Family, RuleDef, Vector};

// Keyed by the `Klaviyo-API-Key` scheme, which shares signatures the prefilter already
// has; a bare `pk_` keyword would be one more three-byte keyword on the clean path.
pub const KLAVIYO_PRIVATE_KEY: RuleDef = RuleDef::context(
    "klaviyo-private-key",
    "Klaviyo private API key (pk_ + 34 hex) after the Klaviyo-API-Key scheme",
    &["Klaviyo-API-Key"],
    r"(?i:klaviyo-api-key)[ \t]{1,32}(?P<secret>pk_(?:[A-Za-z0-9]{6}_)?[0-9a-f]{34})",
    92,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Klaviyo",
    source: "Klaviyo docs: private API keys (Klaviyo-API-Key); TH",
    rules: &[KLAVIYO_PRIVATE_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &KLAVIYO_PRIVATE_KEY,
        "curl -H 'Authorization: Klaviyo-API-Key pk_f41928a4e758432dfea5d5e696e68033ec' -H 'revision: 2024-10-15' https://a.klaviyo.com/api/profiles",
        "curl -H 'Authorization: Klaviyo-API-Key [REDACTED:klaviyo-private-key]' -H 'revision: 2024-10-15' https://a.klaviyo.com/api/profiles",
    ),
    Vector::hit(
        &KLAVIYO_PRIVATE_KEY,
        "headers={\"Authorization\": \"Klaviyo-API-Key pk_vRyzNX_4bc64b4b3153e30e3338777df8afbf23c1\"}",
        "headers={\"Authorization\": \"Klaviyo-API-Key [REDACTED:klaviyo-private-key]\"}",
    ),
    Vector::miss(&KLAVIYO_PRIVATE_KEY, "Authorization: Klaviyo-API-Key pk_ed4346aebad4aa73311c"),
    Vector::miss(&KLAVIYO_PRIVATE_KEY, "Authorization: Klaviyo-API-Key your-private-api-key"),
];
