//! Sentry: sentry-token.

use super::{Family, RuleDef, Vector};

pub const SENTRY_TOKEN: RuleDef = RuleDef::token(
    "sentry-token",
    "Sentry user auth token (sntryu_) or organization token (sntrys_eyJ…)",
    &["sntryu_", "sntrys_"],
    r"sntryu_[0-9a-f]{64}|sntrys_eyJ[A-Za-z0-9+/=]{20,}_[A-Za-z0-9+/]{43}",
    1024,
)
.right_guard("[A-Za-z0-9_+/=]")
.overflow("[A-Za-z0-9_+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Sentry",
    source: "GL, TH, NP, DS",
    rules: &[SENTRY_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SENTRY_TOKEN,
        "SENTRY_AUTH=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",
        "SENTRY_AUTH=[REDACTED:sentry-token]",
    ),
    Vector::hit(
        &SENTRY_TOKEN,
        "sentry-cli --auth sntrys_eyJpYXQiOjE3MTgwMDAwMDAuMCwidXJsIjoiaHR0cHM6Ly9zZW50cnkuaW8ib83+W+e/zX+RtW1xoHdO/Y6MQrV5iihcItTSfEAo_U/XdpjlWDBsaQPm8gDnWZJ8oG922zpXckR5FuFzeZIv releases new 1.2.3",
        "sentry-cli --auth [REDACTED:sentry-token] releases new 1.2.3",
    ),
    Vector::miss(&SENTRY_TOKEN, "sntryu_93be1bea5fc2058c5a01350380f245df6edbcfb295bfd7dd60c1f28c8473ef7"),
    Vector::miss(&SENTRY_TOKEN, "sntryu_286f8bcc38f6ca6ef213d6b142864d35893975cb308ca09e49d2a0168d3234610"),
];
