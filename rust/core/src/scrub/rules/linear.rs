//! Linear: linear-api-key.

use super::{Family, RuleDef, Vector};

pub const LINEAR_API_KEY: RuleDef = RuleDef::token(
    "linear-api-key",
    "Linear API key (lin_api_ + 40)",
    &["lin_api_"],
    r"lin_api_[A-Za-z0-9]{40}",
    48,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Linear",
    source: "GL, TH, NP, DS",
    rules: &[LINEAR_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &LINEAR_API_KEY,
        "LINEAR_KEY=lin_api_6QnBH7RfD7t97odjEm4NFdGw8eeTWAhfH5kLlRXV",
        "LINEAR_KEY=[REDACTED:linear-api-key]",
    ),
    Vector::hit(
        &LINEAR_API_KEY,
        "{\"mcpServers\": {\"linear\": {\"env\": {\"LINEAR_KEY\": \"lin_api_8hIIgGy7OUusUFZKe6E3jcY4JISu9LdXsrlbuljm\"}}}}",
        "{\"mcpServers\": {\"linear\": {\"env\": {\"LINEAR_KEY\": \"[REDACTED:linear-api-key]\"}}}}",
    ),
    Vector::miss(&LINEAR_API_KEY, "lin_api_8xkBtGSwly60u7NE28WX0eJvlp8cXXNLuGqVM0Y"),
    Vector::miss(&LINEAR_API_KEY, "lin_api_8dGyRXZNVv2rHgdRe518Mx9Ep1cvZQPhMypjKsZIX"),
];
