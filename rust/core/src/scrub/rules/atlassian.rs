//! Atlassian: atlassian-api-token.

use super::{Family, RuleDef, Vector};

pub const ATLASSIAN_API_TOKEN: RuleDef = RuleDef::token(
    "atlassian-api-token",
    "Atlassian API token (ATATT3…, 192 chars)",
    &["ATATT3"],
    r"ATATT3[A-Za-z0-9_=-]{186}",
    192,
)
.right_guard("[A-Za-z0-9_=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Atlassian",
    source: "GL, TH, NP, DS",
    rules: &[ATLASSIAN_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ATLASSIAN_API_TOKEN,
        "JIRA_API=ATATT3VzexiUlQsJvz3J29zHeR8oMSTt-5mkw20U7hHQJEpVcXlewpyHbs9Udem_otCJ5q08clPiiS96hkUN3N_8TEIMqeBP3nei-C7mkmHiRXLHy0VZ5zceD1_EFRlCOK1fE55tvDqlIhloQ9s6_DM9-C4o3TSWJZ7NTiIxg-D3kcLHOTQLMS8U=4AD8ED6",
        "JIRA_API=[REDACTED:atlassian-api-token]",
    ),
    Vector::hit(
        &ATLASSIAN_API_TOKEN,
        "{\"confluence\": {\"api\": \"ATATT3DLRzSr7cua3NdWjtZPwtaKXYWG5coFszZL67OdP25ESoQXeM-RKYbKnFpLWf26K3NoJuFmc9jel1IoGjBPCJ13dgTaDP5HKO_8AfCSvd5mQTpL2yZiI_YRePMaJmSmdFnMJtrRLYNN38GV4LBXP4uNbyiIpoVlUrkmJLepXPDNV0hj-3pHWwXZQ4OW\"}}",
        "{\"confluence\": {\"api\": \"[REDACTED:atlassian-api-token]\"}}",
    ),
    Vector::miss(&ATLASSIAN_API_TOKEN, "ATATT3ZnbhL9ceQ16dqXn5N5MZ-ta-KQy7CQFVvgUhir9-IvBRqj2NxuDAFGn9ONQXUMeN8k9et-IB5ZENczGgNKEOxzKpecyANM9vuUIcx96YJonPt8MbmDQWJdcuN7lZDKzZwOk6UtgCWCI_VqGIrhKOK_nH3McReKz_8jzG_0BUsvZbE37qP7Xl4PjIn"),
    Vector::miss(&ATLASSIAN_API_TOKEN, "ATATT3ZZ84P8iMMWNOY6MuxSwy3lVfLaSPb7BEhh3ZCypYSP6QOcPYWwjOINKIfIDh2YwyWoq3dHTfVeYYLavpTK6LoWsQCbHxhwCofoMnf2pu2a5hla6Cj4pCnI2Hry36UFimvEH6dM2eh3p6bL32f8YQHzCfw0sIKbv7GNPwINunVbxTXD1aP955I1Uy1r3"),
];
