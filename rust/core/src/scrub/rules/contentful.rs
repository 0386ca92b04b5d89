//! Contentful: contentful-pat.

use super::{Family, RuleDef, Vector};

pub const CONTENTFUL_PAT: RuleDef = RuleDef::token(
    "contentful-pat",
    "Contentful personal access token (CFPAT- + 43)",
    &["CFPAT-"],
    r"CFPAT-[A-Za-z0-9_-]{43}",
    49,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Contentful",
    source: "Contentful docs: personal access tokens",
    rules: &[CONTENTFUL_PAT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CONTENTFUL_PAT,
        "contentful CFPAT-_QdKTgEuw2L7VPNHVGK6rnR6MGzy0Kkc8yGdfOaVj82",
        "contentful [REDACTED:contentful-pat]",
    ),
    Vector::miss(&CONTENTFUL_PAT, "CFPAT-V8FTooQ7EA"),
];
