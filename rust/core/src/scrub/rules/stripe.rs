//! Stripe: stripe-secret-key, stripe-restricted-key.

use super::{Family, RuleDef, Vector};

pub const STRIPE_SECRET_KEY: RuleDef = RuleDef::token(
    "stripe-secret-key",
    "Stripe secret key (sk_live_/sk_test_/sk_prod_)",
    &["sk_live_", "sk_test_", "sk_prod_"],
    r"sk_(?:live|test|prod)_[0-9A-Za-z]{10,}",
    256,
)
.overflow("[0-9A-Za-z]");

pub const STRIPE_RESTRICTED_KEY: RuleDef = RuleDef::token(
    "stripe-restricted-key",
    "Stripe restricted key (rk_live_/rk_test_/rk_prod_)",
    &["rk_live_", "rk_test_", "rk_prod_"],
    r"rk_(?:live|test|prod)_[0-9A-Za-z]{10,}",
    256,
)
.overflow("[0-9A-Za-z]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Stripe",
    source: "GL, TH",
    rules: &[STRIPE_SECRET_KEY, STRIPE_RESTRICTED_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &STRIPE_SECRET_KEY,
        "STRIPE_KEY=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",
        "STRIPE_KEY=[REDACTED:stripe-secret-key]",
    ),
    Vector::hit(
        &STRIPE_SECRET_KEY,
        "$ stripe listen --api-key sk_test_nyxmjvv57yIka7PRadj5Sfjn\n> Ready!",
        "$ stripe listen --api-key [REDACTED:stripe-secret-key]\n> Ready!",
    ),
    Vector::miss(&STRIPE_SECRET_KEY, "sk_live_SayRnlPYw"),
    Vector::miss(&STRIPE_SECRET_KEY, "pk_live_wxSrA5ciWaWtqrY5h03IUAUU is a publishable key"),
    Vector::hit(
        &STRIPE_RESTRICTED_KEY,
        "STRIPE_RESTRICTED=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",
        "STRIPE_RESTRICTED=[REDACTED:stripe-restricted-key]",
    ),
    Vector::hit(
        &STRIPE_RESTRICTED_KEY,
        "{\"object\": \"api_key\", \"value\": \"rk_test_AbXz6jQhUD9IFnccD1zVviKV\"}",
        "{\"object\": \"api_key\", \"value\": \"[REDACTED:stripe-restricted-key]\"}",
    ),
    Vector::miss(&STRIPE_RESTRICTED_KEY, "rk_live_wc8nJ"),
    Vector::miss(&STRIPE_RESTRICTED_KEY, "work_live_IXgrnK7cXgi2lbxQppWlsBVu"),
];
