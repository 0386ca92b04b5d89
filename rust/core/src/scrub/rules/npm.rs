//! npm: npm-token.

use super::{Family, RuleDef, Vector};

pub const NPM_TOKEN: RuleDef = RuleDef::token(
    "npm-token",
    "npm access token (npm_, 40 chars)",
    &["npm_"],
    r"npm_[A-Za-z0-9]{36}",
    40,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "npm",
    source: "GL, TH, NP, DS, MS",
    rules: &[NPM_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NPM_TOKEN,
        "//registry.npmjs.org/:_auth=npm_jx3g2JU4TVqPr0EfghMprMidZpZGbI3LV08q",
        "//registry.npmjs.org/:_auth=[REDACTED:npm-token]",
    ),
    Vector::hit(
        &NPM_TOKEN,
        "$ NODE_AUTH=npm_O6Cx942sNmgHpL98Nv7Qo0vSHEY6v3gzEpDv npm publish\n+ acme-lib@1.2.3",
        "$ NODE_AUTH=[REDACTED:npm-token] npm publish\n+ acme-lib@1.2.3",
    ),
    Vector::miss(&NPM_TOKEN, "npm_config_cache=/home/user/.npm"),
    Vector::miss(&NPM_TOKEN, "npm_BGL656yYQ3WlwYZwvuro7OrM8kAKNFHZCTT1a"),
];
