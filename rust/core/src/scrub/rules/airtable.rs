//! Airtable: airtable-token.

use super::{Family, RuleDef, Vector};

pub const AIRTABLE_TOKEN: RuleDef = RuleDef::token(
    "airtable-token",
    "Airtable personal access token (pat….64 hex) or OAuth token (oaa…)",
    &["pat", "oaa"],
    r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}|oaa[A-Za-z0-9]{14}\.[A-Za-z0-9_-]{40,}",
    256,
)
.right_guard("[A-Za-z0-9_-]")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Airtable",
    source: "Airtable docs: personal access tokens, OAuth",
    rules: &[AIRTABLE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &AIRTABLE_TOKEN,
        "AIRTABLE_TOKEN=pat5ifChTsgNt8dTX.2194c13aab1805a82acd1cb438687f500604b7856633238bd4d28e6046f3c8b8",
        "AIRTABLE_TOKEN=[REDACTED:airtable-token]",
    ),
    Vector::hit(
        &AIRTABLE_TOKEN,
        "oauth oaaLGryuANwMrKsI6.P-cHmStEbGeCYBCt_STBFqEkHKVL2gJzpT1yNPRrFTE_x59UhD",
        "oauth [REDACTED:airtable-token]",
    ),
    Vector::miss(&AIRTABLE_TOKEN, "path.join(a, b)"),
    Vector::miss(&AIRTABLE_TOKEN, "pattern.416f98917424f3644d147457166116bbd910a671825fefb72177baeaae636d45"),
];
