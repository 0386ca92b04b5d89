//! Riot Games: riot-games-api-key.

use super::{Family, RuleDef, Vector};

pub const RIOT_GAMES_API_KEY: RuleDef = RuleDef::token(
    "riot-games-api-key",
    "Riot Games API key (RGAPI- + UUID)",
    &["RGAPI-"],
    r"RGAPI-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    42,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Riot Games",
    source: "Riot Games developer portal: API keys",
    rules: &[RIOT_GAMES_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RIOT_GAMES_API_KEY,
        "RIOT_API_KEY=RGAPI-d3cf5360-ba92-dee6-4544-f9664a371e50",
        "RIOT_API_KEY=[REDACTED:riot-games-api-key]",
    ),
    Vector::hit(
        &RIOT_GAMES_API_KEY,
        "headers = {\"X-Riot-Token\": \"RGAPI-48e7d8f4-f53f-0b0d-74b8-7c3b5ce2126e\"}",
        "headers = {\"X-Riot-Token\": \"[REDACTED:riot-games-api-key]\"}",
    ),
    Vector::miss(
        &RIOT_GAMES_API_KEY,
        "RGAPI-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
    ),
    Vector::miss(&RIOT_GAMES_API_KEY, "RGAPI-3ca3947c-1798"),
];
