//! Anthropic: anthropic-api-key, anthropic-admin-key, anthropic-oauth-token.

use super::{Family, RuleDef, Vector};

pub const ANTHROPIC_API_KEY: RuleDef = RuleDef::token(
    "anthropic-api-key",
    "Anthropic API key (sk-ant-api03-, 108 chars)",
    &["sk-ant-api03-"],
    r"sk-ant-api03-[A-Za-z0-9_-]{93}AA",
    108,
)
.right_guard("[A-Za-z0-9_-]");

pub const ANTHROPIC_ADMIN_KEY: RuleDef = RuleDef::token(
    "anthropic-admin-key",
    "Anthropic admin API key (sk-ant-admin01-, 110 chars)",
    &["sk-ant-admin01-"],
    r"sk-ant-admin01-[A-Za-z0-9_-]{93}AA",
    110,
)
.right_guard("[A-Za-z0-9_-]");

pub const ANTHROPIC_OAUTH_TOKEN: RuleDef = RuleDef::token(
    "anthropic-oauth-token",
    "Anthropic OAuth access / refresh token (sk-ant-oat01-, sk-ant-ort01-)",
    &["sk-ant-oat01-", "sk-ant-ort01-"],
    r"sk-ant-o[ar]t01-[A-Za-z0-9_-]{80,}",
    256,
)
.right_guard("")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Anthropic",
    source: "GL, TH, NP",
    rules: &[
        ANTHROPIC_API_KEY,
        ANTHROPIC_ADMIN_KEY,
        ANTHROPIC_OAUTH_TOKEN,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ANTHROPIC_API_KEY,
        "ANTHROPIC_KEY=sk-ant-api03-TxTgrMRH9oxmpAAMCVatSA_JWbh3ARtEAFTz6XGMKg2f-EPwqcyRhq04Ilv0I08t10sdwN8yQZ4kQvq7wNyuZwGtL6JC5AA claude -p hi",
        "ANTHROPIC_KEY=[REDACTED:anthropic-api-key] claude -p hi",
    ),
    Vector::hit(
        &ANTHROPIC_API_KEY,
        "{\"type\": \"error\", \"error\": {\"message\": \"invalid x-api-bearer sk-ant-api03--oS65HEAxHFCqU0ZidqyMlY29sdnY_-bugs1XKhwF-CwLrgPu1U8qxnMhofaMRqBoIfGd8XUGcQdEjuSbYJGAY3cwrlOaAA\"}}",
        "{\"type\": \"error\", \"error\": {\"message\": \"invalid x-api-bearer [REDACTED:anthropic-api-key]\"}}",
    ),
    Vector::miss(&ANTHROPIC_API_KEY, "sk-ant-api03-MsoSARfIGmgWjLZRmXwMgcBIo9MDWZqrNMRQRiTZOekDNNubjaKuFNGClrXdyZHPethjgP53o-q-DHkKBJpR72vmj7eHAAAB"),
    Vector::miss(&ANTHROPIC_API_KEY, "sk-ant-api03-vTZZAQ2nbj0DcuEgEjuShTtGpVnd5ueDxbkahZcyBWNdvkYAh2Wl2MWRle7BykIr3nUOQnJYVVUbY7UzvFnyY7Ctk4fyAA"),
    Vector::miss(&ANTHROPIC_API_KEY, "sk-ant-api03-rZCAmDzbkcBsSAy8rxIADJVPWA-Zy7IUuS8-ZF8PgC4Dn9KEm-sFW2gXyaCPjblxeP87Q7V8RxpgsZmLIE4c6_rMWoeVTAB"),
    Vector::hit(
        &ANTHROPIC_ADMIN_KEY,
        "ANTHROPIC_ADMIN=sk-ant-admin01-lK0Wf0fLV5pmjK08pFT4x6iEr9yblwN7SOkJZtblFPzhrsOEQ4GMBrMuQpUhaammZTYIvJlMORSXVCMTmh_IiiEa1otVwAA",
        "ANTHROPIC_ADMIN=[REDACTED:anthropic-admin-key]",
    ),
    Vector::hit(
        &ANTHROPIC_ADMIN_KEY,
        "curl https://api.anthropic.com/v1/organizations/users -H 'x-admin: sk-ant-admin01-awYD15n8sPcTJaAyc2eGFQD6zqMNkEKrfNTjxTzdGU45s4JIJRZAt53q4OhaWRN0-Xbg74pFj8nsy6sQjVUawnR-xK1QRAA'",
        "curl https://api.anthropic.com/v1/organizations/users -H 'x-admin: [REDACTED:anthropic-admin-key]'",
    ),
    Vector::miss(&ANTHROPIC_ADMIN_KEY, "sk-ant-admin01-x9ksTZDoQHrQttu1n4obG0CXc59pX3WodxZj0f7VheEBhiFEtb"),
    Vector::miss(&ANTHROPIC_ADMIN_KEY, "sk-ant-admin01-y9hH__OjbPOH9q32poG1ltPzW0Zuy3RKQ-fZwWVyQF85C_ZxLVYpo2AnN_y-s40yKdvltjSP9vjbjbL0-y-xH_UkDujysLAA"),
    Vector::hit(
        &ANTHROPIC_OAUTH_TOKEN,
        "CLAUDE_CODE_OAUTH=sk-ant-oat01-_wY7fLdIKwFcltHt6FNCxIwCm7ct1lL9VIiF-RVsxUo7OpURl-B1A-Yz-6vAOPD5omFcH0hDLtHQRyDglKb_mzCJt4bTJAA",
        "CLAUDE_CODE_OAUTH=[REDACTED:anthropic-oauth-token]",
    ),
    Vector::hit(
        &ANTHROPIC_OAUTH_TOKEN,
        "{\"claudeAiOauth\": {\"refresh\": \"sk-ant-ort01-EDZr3en7QblzDjBf4lYtVGtahREvbFXdVKRQx-BIDxRPIVRV_P1yA3Eo8jP8cjWZHxfwSV_ujX-6w1D4R7tCTB1gaeCZmAA\"}}",
        "{\"claudeAiOauth\": {\"refresh\": \"[REDACTED:anthropic-oauth-token]\"}}",
    ),
    Vector::miss(&ANTHROPIC_OAUTH_TOKEN, "sk-ant-oat01-pA1X3CJXDGvyqFb0C6V_7bn5Bwi_ugJwmSl1YhA2"),
    Vector::miss(&ANTHROPIC_OAUTH_TOKEN, "sk-ant-oat02-Kr9aQHENvD4aJDwGrTASwHCIIEpqkU3TlLO4ZwUPoxnJaJj9qkva0504WeWCm8L4erOR_nm9YP7rH1ZWcFVcN8z3lbVy1R3"),
];
