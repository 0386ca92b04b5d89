//! Scalingo: scalingo-api-token.

use super::{Family, RuleDef, Vector};

pub const SCALINGO_API_TOKEN: RuleDef = RuleDef::token(
    "scalingo-api-token",
    "Scalingo API token (tk-us- + 48)",
    &["tk-us-"],
    r"tk-us-[A-Za-z0-9_-]{48}",
    54,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Scalingo",
    source: "GL",
    rules: &[SCALINGO_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SCALINGO_API_TOKEN,
        "SCALINGO_API_TOKEN=tk-us-sFtDyvikDrPe6wmMvQGY7nU4dINx2eZRwN_ptWPYxAwIZ0Dq",
        "SCALINGO_API_TOKEN=[REDACTED:scalingo-api-token]",
    ),
    Vector::hit(
        &SCALINGO_API_TOKEN,
        "$ scalingo login --api-token tk-us-K7fCOokPyQnP8o4FG5B5EGnwAp_cz2jlPR9_RrxEmlKi_Mf5 --region osc-fr1",
        "$ scalingo login --api-token [REDACTED:scalingo-api-token] --region osc-fr1",
    ),
    Vector::miss(&SCALINGO_API_TOKEN, "tk-us-XS8I7ICIHEcBmBppXzRx"),
    Vector::miss(&SCALINGO_API_TOKEN, "tk-us-1p5GZu0iwsfox0Y4YcqbHsVtwyjq1QqFd0f2mUAg01vI5v8."),
    Vector::miss(&SCALINGO_API_TOKEN, "tk-us-XXXXXXXX"),
];
