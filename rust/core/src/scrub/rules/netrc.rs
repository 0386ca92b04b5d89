//! netrc: netrc-password.

use super::{Family, RuleDef, Vector};

pub const NETRC_PASSWORD: RuleDef = RuleDef::context(
    "netrc-password",
    "password in a netrc entry (machine … login … password …, on one line or a line each)",
    &["machine"],
    concat!(
        r"machine[ \t\r\n]{1,32}(?:",
        // on one line or several: a host name with a dot or a port, or localhost
        r"(?:[^\s.:]{0,128}[.:]\S{1,128}|localhost)(?:[ \t\r\n]{1,32}(?:login|account|port)[ \t\r\n]{1,32}\S{1,256}){1,3}[ \t\r\n]{1,32}",
        // a file's layout, one token pair a line: any host name (`machine gitserver`)
        r"|\S{1,128}(?:[ \t]*\r?\n[ \t]*(?:login|account|port)[ \t]{1,32}\S{1,256}){1,3}[ \t]*\r?\n[ \t]*",
        r")password[ \t\r\n]{1,32}(?P<secret>\S{1,256})",
    ),
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
    Vector::hit(
        &NETRC_PASSWORD,
        "machine gitserver\nlogin ci\npassword 7Hq2-wRt9Lp\n",
        "machine gitserver\nlogin ci\npassword [REDACTED:netrc-password]\n",
    ),
    Vector::miss(&NETRC_PASSWORD, "the machine learning password reset flow"),
    Vector::miss(
        &NETRC_PASSWORD,
        "a machine learning login page asks for a password first",
    ),
    Vector::miss(&NETRC_PASSWORD, "machine learning\nlogin flow password reset"),
    Vector::miss(&NETRC_PASSWORD, "machine github.com login octocat"),
];
