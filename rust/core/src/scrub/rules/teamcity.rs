//! TeamCity: teamcity-access-token.

use super::{Family, RuleDef, Vector};

pub const TEAMCITY_ACCESS_TOKEN: RuleDef = RuleDef::token(
    "teamcity-access-token",
    "TeamCity access token (eyJ0eXAiOiAiVENWMiJ9 = {\"typ\": \"TCV2\"}, then 36 . 48)",
    &["eyJ0eXAiOiAiVENWMiJ9"],
    r"eyJ0eXAiOiAiVENWMiJ9\.[A-Za-z0-9_-]{36}\.[A-Za-z0-9_-]{48}",
    106,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "TeamCity",
    source: "NP",
    rules: &[TEAMCITY_ACCESS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TEAMCITY_ACCESS_TOKEN,
        "TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.HGWAJfTr5CdYunVNLVJ4wyk3XsKYbY7WpUNr.5pYPmHg-6SzMoUGfYtFW-tSNT3OgeHS3lTh130rkHc2J3En0",
        "TEAMCITY_TOKEN=[REDACTED:teamcity-access-token]",
    ),
    Vector::hit(
        &TEAMCITY_ACCESS_TOKEN,
        "<add key=\"ClearTextPassword\" value=\"eyJ0eXAiOiAiVENWMiJ9.RcIrTEQoJIcJRFYlfqiMf0OEF03E5WkMDcEr.FLFIjDVNKH17vo69aH2lz8APjGnRx2zbjTIdvvBEaBgnJnTz\" />",
        "<add key=\"ClearTextPassword\" value=\"[REDACTED:teamcity-access-token]\" />",
    ),
    Vector::miss(&TEAMCITY_ACCESS_TOKEN, "eyJ0eXAiOiAiVENWMiJ9.UjqNzmulA8Rns37mbQyhLipJQs7YSKRJgUQP"),
];
