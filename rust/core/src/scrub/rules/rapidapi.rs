//! RapidAPI: rapidapi-key.

use super::{Family, RuleDef, Vector};

pub const RAPIDAPI_KEY: RuleDef = RuleDef::context(
    "rapidapi-key",
    "RapidAPI key in an X-RapidAPI-Key header or key (50)",
    &["X-RapidAPI-Key"],
    r#"(?i:x-rapidapi-key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9_-]{50})"#,
    133,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "RapidAPI",
    source: "RapidAPI docs: X-RapidAPI-Key header; GL",
    rules: &[RAPIDAPI_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RAPIDAPI_KEY,
        "curl -H 'X-RapidAPI-Key: mo-3VtsMpZ72ZiEgEumqqSf2Fo11tBO69xBru9ZZ2aR6U1VOEk' -H 'X-RapidAPI-Host: weather.p.rapidapi.com'",
        "curl -H 'X-RapidAPI-Key: [REDACTED:rapidapi-key]' -H 'X-RapidAPI-Host: weather.p.rapidapi.com'",
    ),
    Vector::hit(
        &RAPIDAPI_KEY,
        "headers = {\"X-RapidAPI-Key\": \"SNAMh9knuSe9JQPshecZwKVxfdKsytJP6JfbATlxTVtLxtVvRU\", \"X-RapidAPI-Host\": \"imdb.p.rapidapi.com\"}",
        "headers = {\"X-RapidAPI-Key\": \"[REDACTED:rapidapi-key]\", \"X-RapidAPI-Host\": \"imdb.p.rapidapi.com\"}",
    ),
    Vector::miss(&RAPIDAPI_KEY, "X-RapidAPI-Key: YOUR_RAPIDAPI_KEY"),
    Vector::miss(&RAPIDAPI_KEY, "X-RapidAPI-Key: ${RAPIDAPI_KEY}"),
];
