//! Bitbucket: bitbucket-app-password.

use super::{Family, RuleDef, Vector};

pub const BITBUCKET_APP_PASSWORD: RuleDef = RuleDef::token(
    "bitbucket-app-password",
    "Bitbucket app password (ATBB + 32)",
    &["ATBB"],
    r"ATBB[A-Za-z0-9_=.-]{32}",
    36,
)
.right_guard("[A-Za-z0-9_=.-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Bitbucket",
    source: "Atlassian docs: app passwords",
    rules: &[BITBUCKET_APP_PASSWORD],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &BITBUCKET_APP_PASSWORD,
        "BITBUCKET_APP_PASSWORD=ATBBZT3A3Bgz4ZsVKp4U8QYHwMsZNoK2GOQ0",
        "BITBUCKET_APP_PASSWORD=[REDACTED:bitbucket-app-password]",
    ),
    Vector::miss(&BITBUCKET_APP_PASSWORD, "ATBB2ra5xPjyd8"),
];
