//! OpenAI: openai-api-key, openai-legacy-api-key.

use super::{Family, RuleDef, Vector};

pub const OPENAI_API_KEY: RuleDef = RuleDef::token(
    "openai-api-key",
    "OpenAI project / service-account / admin key (sk-proj-, sk-svcacct-, sk-admin-, sk-None-)",
    &["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"],
    r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,}",
    400,
)
.right_guard("")
.overflow("[A-Za-z0-9_-]");

// Legacy keys have no longer prefix than `sk-` (also in "task-"): the left guard does
// the filtering.
pub const OPENAI_LEGACY_API_KEY: RuleDef = RuleDef::token(
    "openai-legacy-api-key",
    "OpenAI legacy user key (sk- + 20 + T3BlbkFJ + 20)",
    &["sk-"],
    r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}",
    51,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "OpenAI",
    source: "GL, TH, NP",
    rules: &[OPENAI_API_KEY, OPENAI_LEGACY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OPENAI_API_KEY,
        "OPENAI_KEY=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",
        "OPENAI_KEY=[REDACTED:openai-api-key]",
    ),
    Vector::hit(
        &OPENAI_API_KEY,
        "openai.AuthenticationError: Incorrect API key provided: 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.",
        "openai.AuthenticationError: Incorrect API key provided: [REDACTED:openai-api-key].",
    ),
    Vector::miss(&OPENAI_API_KEY, "sk-proj-Se5DsOJf4GH2BqsWh0Ci2i8AdREP8Us2jPPjAPy"),
    Vector::miss(&OPENAI_API_KEY, "task-proj-sIhUf5CMbHb3oHX3x9o3HbsV6R8Vj8hF3QDyqO02Inz4WzKNlDYyAcBulmA4"),
    Vector::hit(
        &OPENAI_LEGACY_API_KEY,
        "export OPENAI_KEY=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",
        "export OPENAI_KEY=[REDACTED:openai-legacy-api-key]",
    ),
    Vector::hit(
        &OPENAI_LEGACY_API_KEY,
        "{\"error\": \"invalid key 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\"}",
        "{\"error\": \"invalid key [REDACTED:openai-legacy-api-key]\"}",
    ),
    Vector::miss(&OPENAI_LEGACY_API_KEY, "task-stoMAqGFfMGpMqHLvkT3BlbkFJ7ckSWru3EbM3BZWLUft6"),
    Vector::miss(&OPENAI_LEGACY_API_KEY, "sk-YOFEjw2XGG3zNPK8FNBUT3BlbkFJIUKbNrNE7pd1fRzihOhgW"),
    Vector::miss(&OPENAI_LEGACY_API_KEY, "mark the disk-full task-done"),
];
