//! Razorpay: razorpay-key-id.

use super::{Family, RuleDef, Vector};

pub const RAZORPAY_KEY_ID: RuleDef = RuleDef::token(
    "razorpay-key-id",
    "Razorpay key ID (rzp_live_/rzp_test_ + 14)",
    &["rzp_"],
    r"rzp_(?:live|test)_[A-Za-z0-9]{14}",
    23,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Razorpay",
    source: "Razorpay docs: API keys",
    rules: &[RAZORPAY_KEY_ID],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RAZORPAY_KEY_ID,
        "RAZORPAY_KEY_ID=rzp_live_yO7pXDr6DmqHzo",
        "RAZORPAY_KEY_ID=[REDACTED:razorpay-key-id]",
    ),
    Vector::miss(&RAZORPAY_KEY_ID, "rzp_live_3RwEa"),
];
