//! Cisco Meraki: meraki-api-key.

use super::{Family, RuleDef, Vector};

pub const MERAKI_API_KEY: RuleDef = RuleDef::context(
    "meraki-api-key",
    "Cisco Meraki Dashboard API key (40 hex) in an X-Cisco-Meraki-API-Key header",
    &["X-Cisco-Meraki-API-Key"],
    r#"(?i:x-cisco-meraki-api-key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[a-f0-9]{40})"#,
    130,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Cisco Meraki",
    source: "Meraki Dashboard API docs: X-Cisco-Meraki-API-Key; GL",
    rules: &[MERAKI_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MERAKI_API_KEY,
        "curl -L -H 'X-Cisco-Meraki-API-Key: f5cc5c25bed3adb250e9303052f8bbf7b82b00af' https://api.meraki.com/api/v1/organizations",
        "curl -L -H 'X-Cisco-Meraki-API-Key: [REDACTED:meraki-api-key]' https://api.meraki.com/api/v1/organizations",
    ),
    Vector::miss(&MERAKI_API_KEY, "X-Cisco-Meraki-API-Key: <key>"),
    Vector::miss(&MERAKI_API_KEY, "X-Cisco-Meraki-API-Key: ${MERAKI_DASHBOARD_API_KEY}"),
];
