//! Telegram (bare bot token): telegram-bot-token-bare.

use super::{Family, RuleDef, Vector};

pub const TELEGRAM_BOT_TOKEN_BARE: RuleDef = RuleDef::token(
    "telegram-bot-token-bare",
    "Telegram bot token anywhere (<bot id>:AA + 33)",
    &[":AA"],
    r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}",
    46,
)
.right_guard("[A-Za-z0-9_-]")
.left_guard("[0-9]")
.before("[0-9]", 8, 10);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Telegram (bare bot token)",
    source: "Telegram Bot API docs",
    rules: &[TELEGRAM_BOT_TOKEN_BARE],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TELEGRAM_BOT_TOKEN_BARE,
        "bot = telebot.TeleBot('6104370536:AAS6Xg9QTifpeYRWC_g4-atG7PfS0NXQkMF')",
        "bot = telebot.TeleBot('[REDACTED:telegram-bot-token-bare]')",
    ),
    Vector::hit(
        &TELEGRAM_BOT_TOKEN_BARE,
        "curl https://api.example/bot227720489:AAwve8GUdtvDpQzI0pEue2j6pydqvAEg43s/getMe",
        "curl https://api.example/bot[REDACTED:telegram-bot-token-bare]/getMe",
    ),
    Vector::miss(&TELEGRAM_BOT_TOKEN_BARE, "12:30:AA meeting"),
    Vector::miss(&TELEGRAM_BOT_TOKEN_BARE, "time 1700000000:AAbc"),
];
