//! DeepL: deepl-auth-key.

use super::{Family, RuleDef, Vector};

pub const DEEPL_AUTH_KEY: RuleDef = RuleDef::context(
    "deepl-auth-key",
    "DeepL API authentication key after the DeepL-Auth-Key scheme (UUID, :fx for the free API)",
    &["DeepL-Auth-Key"],
    r"(?i:deepl-auth-key)[ \t]{1,32}(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?::fx)?)",
    70,
)
.right_guard("[A-Za-z0-9_:-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "DeepL",
    source: "DeepL docs: authentication (DeepL-Auth-Key)",
    rules: &[DEEPL_AUTH_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DEEPL_AUTH_KEY,
        "curl https://api-free.deepl.com/v2/translate -H 'Authorization: DeepL-Auth-Key c604f507-bea5-00cd-4555-756d0d4cf799:fx' -d 'text=Hallo'",
        "curl https://api-free.deepl.com/v2/translate -H 'Authorization: DeepL-Auth-Key [REDACTED:deepl-auth-key]' -d 'text=Hallo'",
    ),
    Vector::hit(
        &DEEPL_AUTH_KEY,
        "headers = {\"Authorization\": \"DeepL-Auth-Key 8d3435c3-b9c1-b35a-cf89-6ad34422f7cb\"}",
        "headers = {\"Authorization\": \"DeepL-Auth-Key [REDACTED:deepl-auth-key]\"}",
    ),
    Vector::miss(&DEEPL_AUTH_KEY, "Authorization: DeepL-Auth-Key [yourAuthKey]"),
    Vector::miss(&DEEPL_AUTH_KEY, "DeepL-Auth-Key ${DEEPL_AUTH_KEY}"),
];
