//! xAI: xai-api-key.

use super::{Family, RuleDef, Vector};

pub const XAI_API_KEY: RuleDef = RuleDef::token(
    "xai-api-key",
    "xAI API key (xai- + 80)",
    &["xai-"],
    r"xai-[0-9A-Za-z_]{80}",
    84,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "xAI",
    source: "GL, TH, NP",
    rules: &[XAI_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &XAI_API_KEY,
        "XAI_KEY=xai-M1f9wq6NJt9tKxbe09GWOxnIMUjUD7QZu0FVUbELHZ4H36bAIZ2iFUzwfWwi4vBgaQ7HPA15EC98ZY1e",
        "XAI_KEY=[REDACTED:xai-api-key]",
    ),
    Vector::hit(
        &XAI_API_KEY,
        "{\"model\": \"grok-2\", \"key\": \"xai-80atUU6v6o6SCTNziuWUH_oFKUknweHFvUonnBuuxnC3r9IIWdGdMtryw1On8FlCJU6K6PzRqiYgyIje\"}",
        "{\"model\": \"grok-2\", \"key\": \"[REDACTED:xai-api-key]\"}",
    ),
    Vector::miss(&XAI_API_KEY, "pip install xai-sdk"),
    Vector::miss(&XAI_API_KEY, "xai-fsleyPoW0rTkoHzjFkfKg40w8VCCLzpQCXGwWLxnWHQB3klJes8u67T63V5W4h9vw3N66YNAlDwUQSoPc"),
];
