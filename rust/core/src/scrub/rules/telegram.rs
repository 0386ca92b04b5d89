//! Telegram: telegram-bot-token.

use super::{Family, RuleDef, Vector};

pub const TELEGRAM_BOT_TOKEN: RuleDef = RuleDef::context(
    "telegram-bot-token",
    "Telegram bot token after a telegram key or in an api.telegram.org/bot… URL",
    &["telegram"],
    r#"(?i:telegram)(?:[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret1>[0-9]{5,16}:A[A-Za-z0-9_-]{34})|\.org/bot(?P<secret2>[0-9]{5,16}:A[A-Za-z0-9_-]{34}))"#,
    162,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Telegram",
    source: "GL, TH, NP, DS",
    rules: &[TELEGRAM_BOT_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TELEGRAM_BOT_TOKEN,
        "TELEGRAM_BOT=3833481951:Ac2B6ONhuUo-lIycSb59_8Vhbyzz0PAxrvy",
        "TELEGRAM_BOT=[REDACTED:telegram-bot-token]",
    ),
    Vector::hit(
        &TELEGRAM_BOT_TOKEN,
        "POST https://api.telegram.org/bot054413991:Af9TxjzmmFRt-GyPmRep8X94jyNi2BJe64G/sendMessage 200 OK",
        "POST https://api.telegram.org/bot[REDACTED:telegram-bot-token]/sendMessage 200 OK",
    ),
    Vector::miss(&TELEGRAM_BOT_TOKEN, "TELEGRAM_BOT=0281243925:BgVKjd-u8F9uvkjVMqqx7MpdRMqraljbOn6"),
    Vector::miss(&TELEGRAM_BOT_TOKEN, "https://api.telegram.org/bot<token>/getMe"),
];
