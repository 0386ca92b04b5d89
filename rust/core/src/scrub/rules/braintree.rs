//! PayPal Braintree: braintree-access-token.

use super::{Family, RuleDef, Vector};

pub const BRAINTREE_ACCESS_TOKEN: RuleDef = RuleDef::token(
    "braintree-access-token",
    "PayPal Braintree access token (access_token$production$…$…)",
    &["access_token$production$", "access_token$sandbox$"],
    r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
    73,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "PayPal Braintree",
    source: "NP",
    rules: &[BRAINTREE_ACCESS_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &BRAINTREE_ACCESS_TOKEN,
        "BRAINTREE_ACCESS_TOKEN=access_token$production$kocyvgczlfbalid5$ca446bcb7620dfc799456b9327e71369",
        "BRAINTREE_ACCESS_TOKEN=[REDACTED:braintree-access-token]",
    ),
    Vector::hit(
        &BRAINTREE_ACCESS_TOKEN,
        "gateway = braintree.BraintreeGateway(access_token=\"access_token$sandbox$t1qsi25lnbbij30o$ea44caf0991af673f821f9f9abce21e7\")",
        "gateway = braintree.BraintreeGateway(access_token=\"[REDACTED:braintree-access-token]\")",
    ),
    Vector::miss(&BRAINTREE_ACCESS_TOKEN, "access_token$production$fnbhf7qyk58yeog8$853c40f834c155547195"),
    Vector::miss(&BRAINTREE_ACCESS_TOKEN, "access_token$production$<merchant id>$<secret>"),
];
