//! RubyGems: rubygems-api-key.

use super::{Family, RuleDef, Vector};

pub const RUBYGEMS_API_KEY: RuleDef = RuleDef::token(
    "rubygems-api-key",
    "RubyGems API key (rubygems_ + 48 hex)",
    &["rubygems_"],
    r"rubygems_[0-9a-f]{48}",
    57,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "RubyGems",
    source: "GL, TH, NP, DS, MS",
    rules: &[RUBYGEMS_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RUBYGEMS_API_KEY,
        "---\n:rubygems: rubygems_d7240acf442d274639a12121d260a65ceafbcb9f1941b003\n",
        "---\n:rubygems: [REDACTED:rubygems-api-key]\n",
    ),
    Vector::hit(
        &RUBYGEMS_API_KEY,
        "curl -H \"Authorization:rubygems_ee4ff1b08d09439b0ee35248d5796c00a039063c2d586cc4\" https://rubygems.org/api/v1/gems.json",
        "curl -H \"Authorization:[REDACTED:rubygems-api-key]\" https://rubygems.org/api/v1/gems.json",
    ),
    Vector::miss(&RUBYGEMS_API_KEY, "rubygems_bc821cd0705cea5dc762b34ffaea403fa217300168d7b76"),
    Vector::miss(&RUBYGEMS_API_KEY, "rubygems_9a501ae9e1e55d48b6c3d4cba09545b248e5049893c1bd73a"),
];
