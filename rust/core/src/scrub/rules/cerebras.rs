//! Cerebras: cerebras-api-key.

use super::{Family, RuleDef, Vector};

pub const CEREBRAS_API_KEY: RuleDef = RuleDef::token(
    "cerebras-api-key",
    "Cerebras API key (csk- + 48)",
    &["csk-"],
    r"csk-[a-z0-9]{48}",
    52,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Cerebras",
    source: "Cerebras docs: API keys",
    rules: &[CEREBRAS_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CEREBRAS_API_KEY,
        "CEREBRAS_API_KEY=csk-g3nd3gt7zlvydpklk9mvyd7d3cm84uo1rooa58rl7225vtm7",
        "CEREBRAS_API_KEY=[REDACTED:cerebras-api-key]",
    ),
    Vector::miss(&CEREBRAS_API_KEY, "csk-xdpyz0fya1"),
];
