//! Shopify: shopify-token.

use super::{Family, RuleDef, Vector};

pub const SHOPIFY_TOKEN: RuleDef = RuleDef::token(
    "shopify-token",
    "Shopify access / custom-app / private-app token or shared secret (shpat_, shpca_, shppa_, shpss_)",
    &["shpat_", "shpca_", "shppa_", "shpss_"],
    r"shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}",
    38,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Shopify",
    source: "GL, NP",
    rules: &[SHOPIFY_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SHOPIFY_TOKEN,
        "SHOPIFY_ADMIN=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",
        "SHOPIFY_ADMIN=[REDACTED:shopify-token]",
    ),
    Vector::hit(
        &SHOPIFY_TOKEN,
        "2024-06-11 INFO shopify app: loaded shared credential 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",
        "2024-06-11 INFO shopify app: loaded shared credential [REDACTED:shopify-token]",
    ),
    Vector::miss(&SHOPIFY_TOKEN, "shpat_1edbeb36ae4c1adbd483ebb298d7133"),
    Vector::miss(&SHOPIFY_TOKEN, "shpat_wlohyugwoxtnxjqzrjpwpqukrsxyqgrn"),
];
