//! Yandex Cloud: yandex-api-key.

use super::{Family, RuleDef, Vector};

pub const YANDEX_API_KEY: RuleDef = RuleDef::token(
    "yandex-api-key",
    "Yandex Cloud API key (AQVN + 35-38)",
    &["AQVN"],
    r"AQVN[A-Za-z0-9_-]{35,38}",
    42,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Yandex Cloud",
    source: "GL",
    rules: &[YANDEX_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &YANDEX_API_KEY,
        "YC_API_KEY=AQVN4xmiCixg684jhdi414k5xoCszKjvk3RZadfX",
        "YC_API_KEY=[REDACTED:yandex-api-key]",
    ),
    Vector::hit(
        &YANDEX_API_KEY,
        "Authorization: Api-Key AQVN7CNc6bGdVAWNK3TFAVyUOTPnjHiQJ6Fdn9YEQZ\n",
        "Authorization: Api-Key [REDACTED:yandex-api-key]\n",
    ),
    Vector::miss(&YANDEX_API_KEY, "AQVNKdXbME0R1IRzeubOVGcD"),
    Vector::miss(
        &YANDEX_API_KEY,
        "AQVNwCX2Pu50FNgKR8DlJiL2W4v8GzSddpANyzdxCfv6",
    ),
];
