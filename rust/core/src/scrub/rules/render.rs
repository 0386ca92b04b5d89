//! Render: render-api-key.

use super::{Family, RuleDef, Vector};

pub const RENDER_API_KEY: RuleDef = RuleDef::token(
    "render-api-key",
    "Render API key (rnd_ + 32)",
    &["rnd_"],
    r"rnd_[A-Za-z0-9]{32}",
    36,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Render",
    source: "Render docs: API keys",
    rules: &[RENDER_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RENDER_API_KEY,
        "RENDER_API_KEY=rnd_ls8NBDm1bVvA7Tb9X2rw4AUIQxcypC1e",
        "RENDER_API_KEY=[REDACTED:render-api-key]",
    ),
    Vector::miss(&RENDER_API_KEY, "rnd_GkPa4eldtC"),
];
