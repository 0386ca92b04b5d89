//! Elasticsearch: elasticsearch-api-key.

use super::{Family, RuleDef, Vector};

pub const ELASTICSEARCH_API_KEY: RuleDef = RuleDef::context(
    "elasticsearch-api-key",
    "Elasticsearch / Elastic Cloud API key after the ApiKey scheme (base64 of id:key)",
    &["Authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:apikey)[ \t]{1,32}(?P<secret>[A-Za-z0-9+/]{40,200}={0,2})"#,
    300,
)
.right_guard("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Elasticsearch",
    source: "Elastic docs: API keys (Authorization: ApiKey)",
    rules: &[ELASTICSEARCH_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ELASTICSEARCH_API_KEY,
        "curl -H \"Authorization: ApiKey 58F8vm9v4P0dVnqF/IVfhtSWW3RHHqYcKDIT5jJ+IyqbKvzoVHoboH7g8o==\" https://es.internal:9200/_cat/indices",
        "curl -H \"Authorization: ApiKey [REDACTED:elasticsearch-api-key]\" https://es.internal:9200/_cat/indices",
    ),
    Vector::hit(
        &ELASTICSEARCH_API_KEY,
        "headers={'Authorization': 'ApiKey e1rcJcFkl6Bl4I7eGXtRf5VYrUQOXILRpXruyVOBCXVaKIg9uswyifQietcI'}",
        "headers={'Authorization': 'ApiKey [REDACTED:elasticsearch-api-key]'}",
    ),
    Vector::miss(&ELASTICSEARCH_API_KEY, "Authorization: ApiKey ${ES_API_KEY}"),
    Vector::miss(&ELASTICSEARCH_API_KEY, "Authorization: ApiKey <base64 of id:api_key>"),
];
