//! OpenStack: openstack-fernet-token.

use super::{Family, RuleDef, Vector};

pub const OPENSTACK_FERNET_TOKEN: RuleDef = RuleDef::context(
    "openstack-fernet-token",
    "OpenStack Keystone Fernet token (gAAAAA…) in an X-Auth-Token / X-Subject-Token header",
    &["X-Auth-Token", "X-Subject-Token"],
    r#"(?i:x-(?:auth|subject)-token)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>gAAAAA[A-Za-z0-9_-]{100,400}={0,2})"#,
    460,
)
.right_guard("[A-Za-z0-9_=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "OpenStack",
    source: "OpenStack Keystone docs: X-Auth-Token, Fernet tokens",
    rules: &[OPENSTACK_FERNET_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OPENSTACK_FERNET_TOKEN,
        "curl -s -H \"X-Auth-Token: gAAAAABPhICakAxmBK0efhgVPn2DnPImz6ZMSubwRQYUmA33IZiQcS0eeQ04LNP4YB5rrvvoVMpm6A65TuDDbZSzVpopOVrHX3t2OkK3-C3azOJZpxEKJXYqIt3CvHK_LOd86RycT8qCXmYxX1PhDf1SiX0DJ9WHdlGybWi_w2x0vgxBGzV5ZX==\" https://keystone.internal:5000/v3/projects",
        "curl -s -H \"X-Auth-Token: [REDACTED:openstack-fernet-token]\" https://keystone.internal:5000/v3/projects",
    ),
    Vector::hit(
        &OPENSTACK_FERNET_TOKEN,
        "X-Subject-Token: gAAAAABv20egSmpo38si1nfs7Dn7s6DkXzwzR7tTMAGM5apsKhSASunkCnsE0mxqlSloBAN1fVt2x8MkpcpEV1uh6fDnzl2KMr0IM7PljKDZblhBlG_iyT4t84yLXGb\nVary: X-Auth-Token",
        "X-Subject-Token: [REDACTED:openstack-fernet-token]\nVary: X-Auth-Token",
    ),
    Vector::miss(&OPENSTACK_FERNET_TOKEN, "X-Auth-Token: $OS_TOKEN"),
    Vector::miss(&OPENSTACK_FERNET_TOKEN, "X-Auth-Token: <keystone token>"),
];
