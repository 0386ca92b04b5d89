//! Netlify: netlify-token.

use super::{Family, RuleDef, Vector};

pub const NETLIFY_TOKEN: RuleDef = RuleDef::token(
    "netlify-token",
    "Netlify personal access token (nfp_ + 36)",
    &["nfp_"],
    r"nfp_[A-Za-z0-9_]{36}",
    40,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Netlify",
    source: "GL, TH, NP, DS",
    rules: &[NETLIFY_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NETLIFY_TOKEN,
        "NETLIFY_AUTH=nfp_0W1c8BumXEYmrt5PZKQ7c49gmYEALguMGX5l netlify deploy --prod",
        "NETLIFY_AUTH=[REDACTED:netlify-token] netlify deploy --prod",
    ),
    Vector::hit(
        &NETLIFY_TOKEN,
        "{\"netlify\": \"nfp_SPk1EqDOkSgKaxBMQWO1a0uvmvhdC1Yqb6EM\"}",
        "{\"netlify\": \"[REDACTED:netlify-token]\"}",
    ),
    Vector::miss(&NETLIFY_TOKEN, "nfp_0A9hFKLFAt0YvVBHxWJjQJzutctCCjNx6p3"),
    Vector::miss(&NETLIFY_TOKEN, "nfp_LpjnMOTg8T5jMrFAwgAU3LyCCS7SJfAXpyOgr"),
];
