//! Dependency-Track: dependency-track-api-key.

use super::{Family, RuleDef, Vector};

pub const DEPENDENCY_TRACK_API_KEY: RuleDef = RuleDef::token(
    "dependency-track-api-key",
    "OWASP Dependency-Track API key (odt_ + 32+)",
    &["odt_"],
    r"odt_[A-Za-z0-9]{32,255}",
    259,
)
.overflow("[A-Za-z0-9]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Dependency-Track",
    source: "NP",
    rules: &[DEPENDENCY_TRACK_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DEPENDENCY_TRACK_API_KEY,
        "DTRACK_API_KEY=odt_vhqKDKSzoRKpGXpWIsw0wx8xhBVMmmzn",
        "DTRACK_API_KEY=[REDACTED:dependency-track-api-key]",
    ),
    Vector::hit(
        &DEPENDENCY_TRACK_API_KEY,
        "curl -H \"X-Api-Key: odt_8FV5IrjFeux9nRofmpwunLfS2fYwty08TLiqj3ht\" https://dtrack.internal/api/v1/project",
        "curl -H \"X-Api-Key: [REDACTED:dependency-track-api-key]\" https://dtrack.internal/api/v1/project",
    ),
    Vector::miss(&DEPENDENCY_TRACK_API_KEY, "odt_sGYQm3xTBeEEcA3znMaY"),
    Vector::miss(&DEPENDENCY_TRACK_API_KEY, "odt_<key>"),
];
