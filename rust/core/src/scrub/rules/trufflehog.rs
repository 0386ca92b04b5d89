//! TruffleHog Enterprise: trufflehog-enterprise-key, trufflehog-enterprise-secret.

use super::{Family, RuleDef, Vector};

pub const TRUFFLEHOG_ENTERPRISE_KEY: RuleDef = RuleDef::token(
    "trufflehog-enterprise-key",
    "TruffleHog Enterprise API key ID (thog-key- + 16 hex)",
    &["thog-key-"],
    r"thog-key-[0-9a-f]{16}",
    25,
)
.right_guard("[A-Za-z0-9_-]");

pub const TRUFFLEHOG_ENTERPRISE_SECRET: RuleDef = RuleDef::token(
    "trufflehog-enterprise-secret",
    "TruffleHog Enterprise API secret (thog-secret- + 32 hex)",
    &["thog-secret-"],
    r"thog-secret-[0-9a-f]{32}",
    44,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "TruffleHog Enterprise",
    source: "TH",
    rules: &[TRUFFLEHOG_ENTERPRISE_KEY, TRUFFLEHOG_ENTERPRISE_SECRET],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TRUFFLEHOG_ENTERPRISE_KEY,
        "THOG_KEY=thog-key-d626ddaf722f10c0",
        "THOG_KEY=[REDACTED:trufflehog-enterprise-key]",
    ),
    Vector::miss(&TRUFFLEHOG_ENTERPRISE_KEY, "thog-key-69f1d95a"),
    Vector::hit(
        &TRUFFLEHOG_ENTERPRISE_SECRET,
        "THOG_SECRET=thog-secret-4b0775deb82404fe223f77991b421b1f",
        "THOG_SECRET=[REDACTED:trufflehog-enterprise-secret]",
    ),
    Vector::miss(
        &TRUFFLEHOG_ENTERPRISE_SECRET,
        "thog-secret-pxxlxnzohltjgtizxgllwxyosnqxmwqg",
    ),
];
