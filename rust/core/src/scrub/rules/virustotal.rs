//! VirusTotal: virustotal-api-key.

use super::{Family, RuleDef, Vector};

pub const VIRUSTOTAL_API_KEY: RuleDef = RuleDef::context(
    "virustotal-api-key",
    "VirusTotal API key (64 hex) in an x-apikey header",
    &["x-apikey"],
    r#"(?i:x-apikey)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[a-f0-9]{64})"#,
    140,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "VirusTotal",
    source: "VirusTotal API v3 docs: x-apikey header",
    rules: &[VIRUSTOTAL_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &VIRUSTOTAL_API_KEY,
        "curl --request GET --url https://www.virustotal.com/api/v3/files/447709a1649c9d022bb4359daafac87962fff66b3e2ddb5481798dbaa1a10f4f --header 'x-apikey: bea97c4230e9e722d58ce62b183498f40c474f287f8afc1581b9aeb4e4c4d81d'",
        "curl --request GET --url https://www.virustotal.com/api/v3/files/447709a1649c9d022bb4359daafac87962fff66b3e2ddb5481798dbaa1a10f4f --header 'x-apikey: [REDACTED:virustotal-api-key]'",
    ),
    Vector::miss(&VIRUSTOTAL_API_KEY, "x-apikey: <your API key>"),
    Vector::miss(&VIRUSTOTAL_API_KEY, "x-apikey: $VT_API_KEY"),
];
