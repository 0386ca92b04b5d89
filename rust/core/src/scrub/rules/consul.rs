//! HashiCorp Consul: consul-acl-token.

use super::{Family, RuleDef, Vector};

pub const CONSUL_ACL_TOKEN: RuleDef = RuleDef::context(
    "consul-acl-token",
    "Consul ACL token (UUID) in an X-Consul-Token header",
    &["X-Consul-Token"],
    r#"(?i:x-consul-token)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "HashiCorp Consul",
    source: "Consul docs: ACL tokens (X-Consul-Token)",
    rules: &[CONSUL_ACL_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CONSUL_ACL_TOKEN,
        "curl --header \"X-Consul-Token: c334ed46-a3ce-c449-f7e5-497781b69ce4\" http://127.0.0.1:8500/v1/agent/members",
        "curl --header \"X-Consul-Token: [REDACTED:consul-acl-token]\" http://127.0.0.1:8500/v1/agent/members",
    ),
    Vector::hit(
        &CONSUL_ACL_TOKEN,
        "{\"X-Consul-Token\": \"ae1b5ed7-d344-5559-931f-3d47ac08a670\"}",
        "{\"X-Consul-Token\": \"[REDACTED:consul-acl-token]\"}",
    ),
    Vector::miss(&CONSUL_ACL_TOKEN, "X-Consul-Token: $CONSUL_HTTP_TOKEN"),
    Vector::miss(&CONSUL_ACL_TOKEN, "X-Consul-Token: <token>"),
];
