//! MaxMind: maxmind-license-key.

use super::{Family, RuleDef, Vector};

pub const MAXMIND_LICENSE_KEY: RuleDef = RuleDef::token(
    "maxmind-license-key",
    "MaxMind license key (6 _ 29 _mmk)",
    &["_mmk"],
    r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk",
    40,
)
.before("[A-Za-z0-9_]", 36, 36);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "MaxMind",
    source: "GL",
    rules: &[MAXMIND_LICENSE_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MAXMIND_LICENSE_KEY,
        "MAXMIND_LICENSE_KEY=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",
        "MAXMIND_LICENSE_KEY=[REDACTED:maxmind-license-key]",
    ),
    Vector::hit(
        &MAXMIND_LICENSE_KEY,
        "LicenseKey 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\nEditionIDs GeoLite2-City",
        "LicenseKey [REDACTED:maxmind-license-key]\nEditionIDs GeoLite2-City",
    ),
    Vector::miss(&MAXMIND_LICENSE_KEY, "dOrwQ0_jZPcggQhpAgH4An7yvtX_mmk"),
    Vector::miss(&MAXMIND_LICENSE_KEY, "YOUR_LICENSE_KEY_mmk"),
];
