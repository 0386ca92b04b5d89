//! New Relic: newrelic-user-api-key, newrelic-insights-key, newrelic-license-key, newrelic-browser-key.

use super::{Family, RuleDef, Vector};

pub const NEWRELIC_USER_API_KEY: RuleDef = RuleDef::token(
    "newrelic-user-api-key",
    "New Relic user API key (NRAK- + 27)",
    &["NRAK-"],
    r"NRAK-[A-Z0-9]{27}",
    32,
);

pub const NEWRELIC_INSIGHTS_KEY: RuleDef = RuleDef::token(
    "newrelic-insights-key",
    "New Relic Insights insert / query key (NRII-, NRIQ- + 32)",
    &["NRII-", "NRIQ-"],
    r"NRI[IQ]-[A-Za-z0-9_-]{32}",
    37,
)
.right_guard("[A-Za-z0-9_-]");

pub const NEWRELIC_LICENSE_KEY: RuleDef = RuleDef::token(
    "newrelic-license-key",
    "New Relic ingest licence key (36 hex + NRAL)",
    &["NRAL"],
    r"[a-f0-9]{36}NRAL",
    40,
)
.before("[a-f0-9]", 36, 36);

pub const NEWRELIC_BROWSER_KEY: RuleDef = RuleDef::token(
    "newrelic-browser-key",
    "New Relic browser API key (NRJS- + 19 hex)",
    &["NRJS-"],
    r"NRJS-[a-f0-9]{19}",
    24,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "New Relic",
    source: "New Relic docs: API keys",
    rules: &[
        NEWRELIC_USER_API_KEY,
        NEWRELIC_INSIGHTS_KEY,
        NEWRELIC_LICENSE_KEY,
        NEWRELIC_BROWSER_KEY,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NEWRELIC_USER_API_KEY,
        "NEW_RELIC_API_KEY=NRAK-5KPDVITMHA6H3WJ27J2LCYCUT6T",
        "NEW_RELIC_API_KEY=[REDACTED:newrelic-user-api-key]",
    ),
    Vector::hit(
        &NEWRELIC_USER_API_KEY,
        "-H 'Api-Key: NRAK-3PJQCZDR8PHK7BOLP6TB0465H0T'",
        "-H 'Api-Key: [REDACTED:newrelic-user-api-key]'",
    ),
    Vector::miss(&NEWRELIC_USER_API_KEY, "NRAK-5ZF4CAZRZOW4HJQEBJJ1 is short"),
    Vector::hit(
        &NEWRELIC_INSIGHTS_KEY,
        "insert key NRII-KdM0hUO8FEWpLujlV58qubUigqUyJYcO",
        "insert key [REDACTED:newrelic-insights-key]",
    ),
    Vector::hit(
        &NEWRELIC_INSIGHTS_KEY,
        "X-Query-Key: NRIQ-lTGmtQRi5HxfxDa_sYyzVeFTkgkhkD54",
        "X-Query-Key: [REDACTED:newrelic-insights-key]",
    ),
    Vector::miss(&NEWRELIC_INSIGHTS_KEY, "NRIQ-IJGxprn3t9Rx"),
    Vector::hit(
        &NEWRELIC_LICENSE_KEY,
        "license_key: 6b844ba88bea681d87c154592629ab56da82NRAL",
        "license_key: [REDACTED:newrelic-license-key]",
    ),
    Vector::miss(&NEWRELIC_LICENSE_KEY, "the NRAL suffix marks a licence key"),
    Vector::hit(
        &NEWRELIC_BROWSER_KEY,
        "browser key NRJS-fb31ec30a088a5f5e2b",
        "browser key [REDACTED:newrelic-browser-key]",
    ),
    Vector::miss(&NEWRELIC_BROWSER_KEY, "NRJS-7c0b7649f9"),
];
