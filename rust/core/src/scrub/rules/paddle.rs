//! Paddle: paddle-api-key.

use super::{Family, RuleDef, Vector};

pub const PADDLE_API_KEY: RuleDef = RuleDef::token(
    "paddle-api-key",
    "Paddle Billing API key (pdl_live_ / pdl_sdbx_apikey_…)",
    &["pdl_live_apikey_", "pdl_sdbx_apikey_"],
    r"pdl_(?:live|sdbx)_apikey_[0-9a-z]{26}_[A-Za-z0-9_]{20,64}",
    107,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Paddle",
    source: "Paddle docs: API keys",
    rules: &[PADDLE_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PADDLE_API_KEY,
        "PADDLE_API_KEY=pdl_live_apikey_tn2dbql21poxtcpzoreq9dh9dn_P0VK7h6lz1pkJGcW3ALRU_n542",
        "PADDLE_API_KEY=[REDACTED:paddle-api-key]",
    ),
    Vector::hit(
        &PADDLE_API_KEY,
        "Authorization: Bearer pdl_sdbx_apikey_ysyeu5i4pd4z7prnk2zwg8jr7n_oA8weZPp3nuKP8OvnOhkmlxFwD\n",
        "Authorization: Bearer [REDACTED:paddle-api-key]\n",
    ),
    Vector::miss(&PADDLE_API_KEY, "pdl_live_apikey_6uyo5dzjqszn"),
    Vector::miss(&PADDLE_API_KEY, "pdl_sdbx_apikey_..."),
];
