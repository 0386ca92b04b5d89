//! Cloudflare: cloudflare-api-token, cloudflare-origin-ca-key.

use super::{Family, RuleDef, Vector};

pub const CLOUDFLARE_API_TOKEN: RuleDef = RuleDef::token(
    "cloudflare-api-token",
    "Cloudflare user / account API token (cfut_, cfat_)",
    &["cfut_", "cfat_"],
    r"cf[ua]t_[A-Za-z0-9]{40}[a-f0-9]{8}",
    53,
);

pub const CLOUDFLARE_ORIGIN_CA_KEY: RuleDef = RuleDef::token(
    "cloudflare-origin-ca-key",
    "Cloudflare Origin CA key (v1.0-24-146 hex)",
    &["v1.0-"],
    r"v1\.0-[0-9a-f]{24}-[0-9a-f]{146}",
    176,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Cloudflare",
    source: "GL, TH, NP, DS",
    rules: &[CLOUDFLARE_API_TOKEN, CLOUDFLARE_ORIGIN_CA_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLOUDFLARE_API_TOKEN,
        "CLOUDFLARE_API=cfut_R1raxbknJmOd0jbj2Xe8P2K4CAB2TB42TQkaUqTe8fbb55f7 wrangler deploy",
        "CLOUDFLARE_API=[REDACTED:cloudflare-api-token] wrangler deploy",
    ),
    Vector::hit(
        &CLOUDFLARE_API_TOKEN,
        "{\"cloudflare\": \"cfat_9LocDfQH7mUcDwqekfApR4dlqY5gQbJyHOmBXerB9d189162\"}",
        "{\"cloudflare\": \"[REDACTED:cloudflare-api-token]\"}",
    ),
    Vector::miss(&CLOUDFLARE_API_TOKEN, "cfut_aocszqpcDaAPM1QBgEWqSCmFZQwIlaHsl0jyqi9896bb200"),
    Vector::miss(&CLOUDFLARE_API_TOKEN, "cfut_5haHgv5h9cuvN8AJ3BeeEOk71pzVdBKIe87y9MpX4e2f82162"),
    Vector::hit(
        &CLOUDFLARE_ORIGIN_CA_KEY,
        "CF_ORIGIN_CA=v1.0-41be5eae7ea8b1f0fff2b340-3b48a6e5538e97221380bc0b8097cc9048c3d962e60ee6c0c3feda6b4e70ab15fbbfadc4d5a7d34f962e611b2d10d43292267905228e61ea96b4026788d4fc0efb6f401b0364d9d1c3",
        "CF_ORIGIN_CA=[REDACTED:cloudflare-origin-ca-key]",
    ),
    Vector::hit(
        &CLOUDFLARE_ORIGIN_CA_KEY,
        "provider \"cloudflare\" {\n  origin_ca = \"v1.0-67b2dfee0f764d30705ad0dc-18130e060e861f9256dea583e1c0ce4ac1ccfc1c361baacda5a8444a92894ec27347f54f05e425ede5ceab046431854df8c9c630974f56f7f7884fc17eba6958e96c27940983f12ff1\"\n}",
        "provider \"cloudflare\" {\n  origin_ca = \"[REDACTED:cloudflare-origin-ca-key]\"\n}",
    ),
    Vector::miss(&CLOUDFLARE_ORIGIN_CA_KEY, "released v1.0-beta with fixes"),
    Vector::miss(&CLOUDFLARE_ORIGIN_CA_KEY, "v1.0-19582f739d92d21564d22e5f-16466b434e5fdcfedbc0c8f7d3f642a1df142055fed5103443151950792d931845c7c51d98a4e25c8c8e36cd821962cc4f362a1f691b1b71473c0d54bb627ac9d158efbb53e25e26d"),
];
