//! Resend: resend-api-key.

use super::{Family, RuleDef, Vector};

pub const RESEND_API_KEY: RuleDef = RuleDef::token(
    "resend-api-key",
    "Resend API key (re_ + 8 + _ + 24)",
    &["re_"],
    r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}",
    36,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Resend",
    source: "Resend docs: API keys",
    rules: &[RESEND_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &RESEND_API_KEY,
        "RESEND_API_KEY=re_TtPKBM01_ombWUkNXQMRWPQqh8ixTojX5",
        "RESEND_API_KEY=[REDACTED:resend-api-key]",
    ),
    Vector::miss(&RESEND_API_KEY, "are_you_sure"),
];
