//! Docker Hub: docker-hub-token.

use super::{Family, RuleDef, Vector};

pub const DOCKER_HUB_TOKEN: RuleDef = RuleDef::token(
    "docker-hub-token",
    "Docker Hub personal / organization access token (dckr_pat_, dckr_oat_)",
    &["dckr_pat_", "dckr_oat_"],
    r"dckr_(?:pat_[A-Za-z0-9_-]{27}|oat_[A-Za-z0-9_-]{32})",
    41,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Docker Hub",
    source: "GL, TH, NP, DS, MS",
    rules: &[DOCKER_HUB_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DOCKER_HUB_TOKEN,
        "echo dckr_pat_S4Ntbw36HlpNIpayzyEXiRVdzER | docker login -u acme --password-stdin",
        "echo [REDACTED:docker-hub-token] | docker login -u acme --password-stdin",
    ),
    Vector::hit(
        &DOCKER_HUB_TOKEN,
        "{\"auths\": {\"https://index.docker.io/v1/\": {\"pat\": \"dckr_oat_7qW4P4uqN4MbI8D4fGBZlbsJj345mUop\"}}}",
        "{\"auths\": {\"https://index.docker.io/v1/\": {\"pat\": \"[REDACTED:docker-hub-token]\"}}}",
    ),
    Vector::miss(&DOCKER_HUB_TOKEN, "dckr_pat_dhpkUHqcQefA0xWL2fPRuSDnET"),
    Vector::miss(&DOCKER_HUB_TOKEN, "dckr_pat_nkjcYJ8ERTttOIfRVQMr34ZAylqB"),
];
