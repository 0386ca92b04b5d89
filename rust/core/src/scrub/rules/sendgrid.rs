//! SendGrid: sendgrid-api-key.

use super::{Family, RuleDef, Vector};

pub const SENDGRID_API_KEY: RuleDef = RuleDef::token(
    "sendgrid-api-key",
    "SendGrid API key (SG.22.43)",
    &["SG."],
    r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
    69,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "SendGrid",
    source: "GL, NP, DS",
    rules: &[SENDGRID_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SENDGRID_API_KEY,
        "SENDGRID_KEY=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",
        "SENDGRID_KEY=[REDACTED:sendgrid-api-key]",
    ),
    Vector::hit(
        &SENDGRID_API_KEY,
        "sg = SendGridAPIClient(\"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\")",
        "sg = SendGridAPIClient(\"[REDACTED:sendgrid-api-key]\")",
    ),
    Vector::miss(&SENDGRID_API_KEY, "SG.Xe5BXUiw3_KhkfISyrbUo0.5ia47lBQwTtiQ6AIAhiYYGzaHQxxQ3NZ0fTy5wOA9J"),
    Vector::miss(&SENDGRID_API_KEY, "XSG.Fm79dvIxEiaFWwH1gPE-qa.fUur_d28QyTrZyaJdTuiI6IKSCdesvytPAMDKBi9OhW"),
];
