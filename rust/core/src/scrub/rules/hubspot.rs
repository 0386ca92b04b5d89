//! HubSpot: hubspot-private-app-token.

use super::{Family, RuleDef, Vector};

pub const HUBSPOT_PRIVATE_APP_TOKEN: RuleDef = RuleDef::token(
    "hubspot-private-app-token",
    "HubSpot private app token (pat-na1-/pat-eu1- + UUID)",
    &["pat-na", "pat-eu"],
    r"pat-(?:na|eu)[0-9]-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
    44,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "HubSpot",
    source: "HubSpot docs: private app tokens",
    rules: &[HUBSPOT_PRIVATE_APP_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &HUBSPOT_PRIVATE_APP_TOKEN,
        "HUBSPOT_TOKEN=pat-na1-667855b2-fbad-c548-fa43-6ef11e70b1ee",
        "HUBSPOT_TOKEN=[REDACTED:hubspot-private-app-token]",
    ),
    Vector::miss(&HUBSPOT_PRIVATE_APP_TOKEN, "pat-na1-f886be59"),
];
