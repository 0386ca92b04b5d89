//! Fly.io: flyio-token.

use super::{Family, RuleDef, Vector};

pub const FLYIO_TOKEN: RuleDef = RuleDef::token(
    "flyio-token",
    "Fly.io access token (fo1_, fm1a_, fm1r_, fm2_ macaroons)",
    &["fo1_", "fm1a_", "fm1r_", "fm2_"],
    r"fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3}",
    4096,
)
.right_guard("[A-Za-z0-9_-]")
.overflow("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Fly.io",
    source: "GL, TH, NP, DS",
    rules: &[FLYIO_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &FLYIO_TOKEN,
        "FLY_API=fo1_aPHTJRaPQEysDiotOCn8urjDjqW56B-fuzIgkYpGrpB fly deploy",
        "FLY_API=[REDACTED:flyio-token] fly deploy",
    ),
    Vector::hit(
        &FLYIO_TOKEN,
        "{\"fly\": \"FlyV1 fm2_9JoO9aeJB18xWV+d0pgs3ibo5ZV+75CBF9se6rzTMqx7hI19FOvlsLZpbRbzuXrw4nC39+3+YNRuD7g//r4ROJUzHtm6lCjWMQed+yVwAdL9ZBcUWvhGM5aV2GLi7WDC8lxm233iOYItInHoBmDCPrMssjSLwQ/DED1N/GHBAgeFDMDaEythXtNvZIiIYtaaIzs2hGNb==\"}",
        "{\"fly\": \"FlyV1 [REDACTED:flyio-token]\"}",
    ),
    Vector::miss(&FLYIO_TOKEN, "fo1_rnlszSOkupYHIT8m7OswgZuZTyMWD1biEitMlK5bo5"),
    Vector::miss(&FLYIO_TOKEN, "fm2_ghcUMuHCKGDZsq3UPcLuCSAu5ake48h+NzJiPWCL8hyTvsPvLx"),
];
