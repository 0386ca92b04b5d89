//! ElevenLabs: elevenlabs-api-key.

use super::{Family, RuleDef, Vector};

pub const ELEVENLABS_API_KEY: RuleDef = RuleDef::token(
    "elevenlabs-api-key",
    "ElevenLabs API key (sk_ + 48 hex)",
    &["sk_"],
    r"sk_[0-9a-f]{48}",
    51,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "ElevenLabs",
    source: "GL, TH, NP, DS",
    rules: &[ELEVENLABS_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ELEVENLABS_API_KEY,
        "ELEVENLABS_KEY=sk_ff9c2d7226890401373ea9fb786080cf6a6c0bc80545ca55",
        "ELEVENLABS_KEY=[REDACTED:elevenlabs-api-key]",
    ),
    Vector::hit(
        &ELEVENLABS_API_KEY,
        "curl https://api.elevenlabs.io/v1/voices -H 'xi-api: sk_40d8eef7e29d37eb397be9aa80d650511bce85fba02fa7fc'",
        "curl https://api.elevenlabs.io/v1/voices -H 'xi-api: [REDACTED:elevenlabs-api-key]'",
    ),
    Vector::miss(&ELEVENLABS_API_KEY, "task_b424761acc237f12fcd1357520af829382cef0ae2a9d7237"),
    Vector::miss(&ELEVENLABS_API_KEY, "sk_5bd18ecff778427d31b22ddd4e930150f9de297b27e8ceb"),
];
