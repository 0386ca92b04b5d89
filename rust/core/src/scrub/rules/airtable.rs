//! Airtable: airtable-oauth-token, airtable-pat.

use super::{Family, RuleDef, Vector};

pub const AIRTABLE_OAUTH_TOKEN: RuleDef = RuleDef::token(
    "airtable-oauth-token",
    "Airtable OAuth access token (oaa + 14 + . + 40+)",
    &["oaa"],
    r"oaa[A-Za-z0-9]{14}\.[A-Za-z0-9_-]{40,}",
    256,
)
.right_guard("[A-Za-z0-9_-]")
.overflow("[A-Za-z0-9_-]");

// `pat` alone starts too many words (`path`, `pattern`) to be a keyword on the clean
// path: personal access tokens are found after an airtable key.
pub const AIRTABLE_PAT: RuleDef = RuleDef::context(
    "airtable-pat",
    "Airtable personal access token (pat + 14 + . + 64 hex) after an airtable key",
    &["airtable"],
    r#"(?i:airtable)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?:(?i:bearer)[ \t]{1,8})?(?P<secret>pat[A-Za-z0-9]{14}\.[a-f0-9]{64})"#,
    160,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Airtable",
    source: "Airtable docs: personal access tokens, OAuth",
    rules: &[AIRTABLE_OAUTH_TOKEN, AIRTABLE_PAT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &AIRTABLE_PAT,
        "AIRTABLE_TOKEN=pat5ifChTsgNt8dTX.2194c13aab1805a82acd1cb438687f500604b7856633238bd4d28e6046f3c8b8",
        "AIRTABLE_TOKEN=[REDACTED:airtable-pat]",
    ),
    Vector::hit(
        &AIRTABLE_OAUTH_TOKEN,
        "oauth oaaLGryuANwMrKsI6.P-cHmStEbGeCYBCt_STBFqEkHKVL2gJzpT1yNPRrFTE_x59UhD",
        "oauth [REDACTED:airtable-oauth-token]",
    ),
    Vector::miss(&AIRTABLE_PAT, "airtable_base = app" ),
    Vector::miss(&AIRTABLE_OAUTH_TOKEN, "oaa.416f98917424f3644d147457166116bbd910a671825fefb72177baeaae636d45"),
];
