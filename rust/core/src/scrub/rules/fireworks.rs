//! Fireworks AI: fireworks-api-key.

use super::{Family, RuleDef, Vector};

pub const FIREWORKS_API_KEY: RuleDef = RuleDef::token(
    "fireworks-api-key",
    "Fireworks AI API key (fw_ + 24)",
    &["fw_"],
    r"fw_[A-Za-z0-9]{24}",
    27,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Fireworks AI",
    source: "Fireworks AI docs: API keys",
    rules: &[FIREWORKS_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FIREWORKS_API_KEY,
        "FIREWORKS_API_KEY=fw_JkIGclZTtaRUO41TEUEHkIvN",
        "FIREWORKS_API_KEY=[REDACTED:fireworks-api-key]",
    ),
    Vector::miss(&FIREWORKS_API_KEY, "fw_9BAVzWXvbM"),
];
