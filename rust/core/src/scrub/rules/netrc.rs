//! netrc: netrc-password.

use super::{Family, RuleDef, Vector};

pub const NETRC_PASSWORD: RuleDef = RuleDef::context(
    "netrc-password",
    "password in a netrc entry (machine … login … password …)",
    &["machine"],
    r"machine[ \t\r\n]{1,32}(?:[^\s.:]{0,128}[.:]\S{1,128}|localhost)(?:[ \t\r\n]{1,32}(?:login|account|port)[ \t\r\n]{1,32}\S{1,256}){1,3}[ \t\r\n]{1,32}password[ \t\r\n]{1,32}(?P<secret>\S{1,256})",
    1604,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "netrc",
    source: "NP",
    rules: &[NETRC_PASSWORD],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NETRC_PASSWORD,
        "$ cat ~/.netrc\nmachine api.heroku.com\n  login dev@example.com\n  password 9BeKTT35hZX5LLEkoGpp\n",
        "$ cat ~/.netrc\nmachine api.heroku.com\n  login dev@example.com\n  password [REDACTED:netrc-password]\n",
    ),
    Vector::hit(
        &NETRC_PASSWORD,
        "machine github.com login octocat password fRaMxk1KIAhEP9K6",
        "machine github.com login octocat password [REDACTED:netrc-password]",
    ),
    Vector::miss(&NETRC_PASSWORD, "the machine learning password reset flow"),
    Vector::miss(&NETRC_PASSWORD, "machine github.com login octocat"),
];
