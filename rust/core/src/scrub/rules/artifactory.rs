//! JFrog Artifactory: artifactory-token.

use super::{Family, RuleDef, Vector};

pub const ARTIFACTORY_TOKEN: RuleDef = RuleDef::token(
    "artifactory-token",
    "JFrog Artifactory API key (AKCp + 69) or reference token (cmVmdGtu…)",
    &["AKCp", "cmVmdGtuOjAxOj"],
    r"AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{36,}",
    256,
)
.overflow("[A-Za-z0-9]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "JFrog Artifactory",
    source: "JFrog docs: API keys and reference tokens",
    rules: &[ARTIFACTORY_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ARTIFACTORY_TOKEN,
        "ARTIFACTORY_API_KEY=AKCpfqNnggWTiaM9RbalZPrzMvD2Zf4cjM9cTTLLAf2fZ0HZz5cAKNerR1gY43yzzxegltPZV",
        "ARTIFACTORY_API_KEY=[REDACTED:artifactory-token]",
    ),
    Vector::hit(
        &ARTIFACTORY_TOKEN,
        "X-JFrog-Art-Api: cmVmdGtuOjAxOjaJIkoHImE0VEoABD6zuWM8hIKndkgMjfwzRfdbkHz5H6mx0ek4",
        "X-JFrog-Art-Api: [REDACTED:artifactory-token]",
    ),
    Vector::miss(&ARTIFACTORY_TOKEN, "AKCpAzbPln9OFc"),
];
