//! DigitalOcean: digitalocean-token.

use super::{Family, RuleDef, Vector};

pub const DIGITALOCEAN_TOKEN: RuleDef = RuleDef::token(
    "digitalocean-token",
    "DigitalOcean personal / OAuth / refresh token (dop_v1_, doo_v1_, dor_v1_)",
    &["dop_v1_", "doo_v1_", "dor_v1_"],
    r"do[opr]_v1_[0-9a-f]{64}",
    71,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "DigitalOcean",
    source: "GL",
    rules: &[DIGITALOCEAN_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DIGITALOCEAN_TOKEN,
        "doctl auth init --access-token dop_v1_fd4b2c28a28cc4dd7bbd3647e7df8da1a954fd5371d2e20b926f4198e429f625",
        "doctl auth init --access-token [REDACTED:digitalocean-token]",
    ),
    Vector::hit(
        &DIGITALOCEAN_TOKEN,
        "{\"refresh\": \"dor_v1_5657bfc56c257064d56fcd286fdbdb48f16d4932c8cdb0ce1b6608161a73ca17\"}",
        "{\"refresh\": \"[REDACTED:digitalocean-token]\"}",
    ),
    Vector::miss(&DIGITALOCEAN_TOKEN, "dop_v1_90ba8cd906bc68a8b0b379957a6aa4711ddf518e1db75c3fdc39ce881145f75"),
    Vector::miss(&DIGITALOCEAN_TOKEN, "dox_v1_fa51c2abdfac3f9d4c155293d72c405d8f2c72bd277d8592015cbc1d72eed054"),
];
