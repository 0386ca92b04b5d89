//! HashiCorp Nomad: nomad-acl-token.

use super::{Family, RuleDef, Vector};

pub const NOMAD_ACL_TOKEN: RuleDef = RuleDef::context(
    "nomad-acl-token",
    "Nomad ACL token secret ID (UUID) in an X-Nomad-Token header",
    &["X-Nomad-Token"],
    r#"(?i:x-nomad-token)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "HashiCorp Nomad",
    source: "Nomad docs: ACL tokens (X-Nomad-Token)",
    rules: &[NOMAD_ACL_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NOMAD_ACL_TOKEN,
        "curl --header \"X-Nomad-Token: a1ecc6ee-9872-cd0d-f17d-5e2ad2ccfd16\" http://127.0.0.1:4646/v1/jobs",
        "curl --header \"X-Nomad-Token: [REDACTED:nomad-acl-token]\" http://127.0.0.1:4646/v1/jobs",
    ),
    Vector::miss(&NOMAD_ACL_TOKEN, "X-Nomad-Token: ${NOMAD_TOKEN}"),
    Vector::miss(&NOMAD_ACL_TOKEN, "X-Nomad-Token: <secret id>"),
];
