//! Zoho: zoho-oauth-token.

use super::{Family, RuleDef, Vector};

pub const ZOHO_OAUTH_TOKEN: RuleDef = RuleDef::context(
    "zoho-oauth-token",
    "Zoho OAuth access token after the Zoho-oauthtoken scheme (1000. + 32 hex . 32 hex)",
    &["Zoho-oauthtoken"],
    r"(?i:zoho-oauthtoken)[ \t]{1,32}(?P<secret>1000\.[a-f0-9]{32}\.[a-f0-9]{32})",
    114,
)
.right_guard("[A-Za-z0-9]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Zoho",
    source: "Zoho API docs: OAuth access tokens; TH",
    rules: &[ZOHO_OAUTH_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ZOHO_OAUTH_TOKEN,
        "Authorization: Zoho-oauthtoken 1000.8a62ffa1ef47162bce7f3732e2b7af4c.8d1cbafeed840512012a88be11286f75\n",
        "Authorization: Zoho-oauthtoken [REDACTED:zoho-oauth-token]\n",
    ),
    Vector::hit(
        &ZOHO_OAUTH_TOKEN,
        "curl -H 'Authorization: Zoho-oauthtoken 1000.4fc3bbc1c76c9232df66477f7bac9c0e.674f98ad2783efa716e6daac7b6a3334' https://www.zohoapis.com/crm/v6/Leads",
        "curl -H 'Authorization: Zoho-oauthtoken [REDACTED:zoho-oauth-token]' https://www.zohoapis.com/crm/v6/Leads",
    ),
    Vector::miss(&ZOHO_OAUTH_TOKEN, "Authorization: Zoho-oauthtoken 1000.02e96f56b444ce8ed135c7a7868f339b"),
    Vector::miss(&ZOHO_OAUTH_TOKEN, "Authorization: Zoho-oauthtoken {access_token}"),
];
