//! Pivotal Tracker: pivotal-tracker-token.

use super::{Family, RuleDef, Vector};

pub const PIVOTAL_TRACKER_TOKEN: RuleDef = RuleDef::context(
    "pivotal-tracker-token",
    "Pivotal Tracker API token (32 hex) in an X-TrackerToken header",
    &["X-TrackerToken"],
    r#"(?i:x-trackertoken)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[a-f0-9]{32})"#,
    120,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Pivotal Tracker",
    source: "Pivotal Tracker API docs: X-TrackerToken",
    rules: &[PIVOTAL_TRACKER_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PIVOTAL_TRACKER_TOKEN,
        "curl -X GET -H \"X-TrackerToken: 42deb55498ec5eea090645e6a90d2bfa\" https://www.pivotaltracker.com/services/v5/me",
        "curl -X GET -H \"X-TrackerToken: [REDACTED:pivotal-tracker-token]\" https://www.pivotaltracker.com/services/v5/me",
    ),
    Vector::miss(&PIVOTAL_TRACKER_TOKEN, "X-TrackerToken: $TOKEN"),
    Vector::miss(&PIVOTAL_TRACKER_TOKEN, "X-TrackerToken: <your token>"),
];
