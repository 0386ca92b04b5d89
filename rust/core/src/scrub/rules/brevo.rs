//! Brevo (Sendinblue): brevo-api-key.

use super::{Family, RuleDef, Vector};

pub const BREVO_API_KEY: RuleDef = RuleDef::token(
    "brevo-api-key",
    "Brevo API / SMTP key (xkeysib-, xsmtpsib- + 64 hex + 16)",
    &["xkeysib-", "xsmtpsib-"],
    r"x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}",
    90,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Brevo (Sendinblue)",
    source: "Brevo docs: API and SMTP keys",
    rules: &[BREVO_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &BREVO_API_KEY,
        "BREVO_API_KEY=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",
        "BREVO_API_KEY=[REDACTED:brevo-api-key]",
    ),
    Vector::miss(&BREVO_API_KEY, "xkeysib-d681e12533"),
];
