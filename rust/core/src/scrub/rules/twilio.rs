//! Twilio: twilio-api-key.

use super::{Family, RuleDef, Vector};

// `SK` is short and frequent ("task", "ask"): the left guard rejects those cheaply.
pub const TWILIO_API_KEY: RuleDef = RuleDef::token(
    "twilio-api-key",
    "Twilio API key SID (SK + 32 hex)",
    &["SK"],
    r"SK[0-9a-fA-F]{32}",
    34,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Twilio",
    source: "GL, NP, DS",
    rules: &[TWILIO_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TWILIO_API_KEY,
        "TWILIO_API_KEY_SID=SK4ea30621e3581f3e9c5bb6f6ae72e04b",
        "TWILIO_API_KEY_SID=[REDACTED:twilio-api-key]",
    ),
    Vector::hit(
        &TWILIO_API_KEY,
        "client = Client(\"SK1415588B2837EC18AF0518F0EA9A57EF\", os.environ[\"TWILIO_API_SECRET\"], account_sid)",
        "client = Client(\"[REDACTED:twilio-api-key]\", os.environ[\"TWILIO_API_SECRET\"], account_sid)",
    ),
    Vector::miss(&TWILIO_API_KEY, "TASKe05a6df76df485d8ddccc892f97f5c6f"),
    Vector::miss(&TWILIO_API_KEY, "SKf211a51a253e6703136abfc6214b40d"),
];
