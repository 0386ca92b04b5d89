//! Heroku: heroku-api-key.

use super::{Family, RuleDef, Vector};

pub const HEROKU_API_KEY: RuleDef = RuleDef::token(
    "heroku-api-key",
    "Heroku API key, v2 format (HRKU-AA…)",
    &["HRKU-AA"],
    r"HRKU-AA[0-9A-Za-z_-]{58}",
    65,
)
.right_guard("[0-9A-Za-z_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Heroku",
    source: "GL",
    rules: &[HEROKU_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &HEROKU_API_KEY,
        "HEROKU_KEY=HRKU-AAb0jV0TBTjmTPCU6TcMH8-sVehNjkOZB5Yg0vC0x4HbRxO7LHiGN4TUhevK",
        "HEROKU_KEY=[REDACTED:heroku-api-key]",
    ),
    Vector::hit(
        &HEROKU_API_KEY,
        "$ heroku authorizations:create\nCreated OAuth authorization.\n  ID:          6580086f-6880-5fdc-bbb3-5c2beb9f8c63\n  Value:       HRKU-AAMJMG_pQSrCiT-OnfBN84XZ33Wp6q-sOS2FUz6aw3T-u0Tr7xlfGZS6MRdZ\n",
        "$ heroku authorizations:create\nCreated OAuth authorization.\n  ID:          6580086f-6880-5fdc-bbb3-5c2beb9f8c63\n  Value:       [REDACTED:heroku-api-key]\n",
    ),
    Vector::miss(&HEROKU_API_KEY, "HRKU-AAcYke4NSNKODBW6qhxYQqwGXHe7AHves43bLnGD8UgEQWX8our3JLljtas"),
    Vector::miss(&HEROKU_API_KEY, "HRKU-ABKhLA2CXqoFxjmSaPr4P6BvAZRTL78L0wfu01cS3toYxKtMy2qRGRK5qnhg"),
];
