//! OpenShift: openshift-user-token.

use super::{Family, RuleDef, Vector};

pub const OPENSHIFT_USER_TOKEN: RuleDef = RuleDef::token(
    "openshift-user-token",
    "OpenShift OAuth user token (sha256~ + 43)",
    &["sha256~"],
    r"sha256~[A-Za-z0-9_-]{43}",
    50,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "OpenShift",
    source: "OpenShift docs: user tokens",
    rules: &[OPENSHIFT_USER_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &OPENSHIFT_USER_TOKEN,
        "oc login --token=sha256~8iXfj93v8PoXDQXsDHi4BFZZm1LErINjipB3uT-Vms5",
        "oc login --token=[REDACTED:openshift-user-token]",
    ),
    Vector::miss(
        &OPENSHIFT_USER_TOKEN,
        "sha256:916be129c553cc363c865a8fae222b3d0f4aec4bd0ee6b77592601ee3676055d",
    ),
];
