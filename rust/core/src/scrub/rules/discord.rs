//! Discord: discord-webhook, discord-bot-token.

use super::{Family, RuleDef, Vector};

pub const DISCORD_WEBHOOK: RuleDef = RuleDef::token(
    "discord-webhook",
    "Discord webhook URL (id and token)",
    &["discord.com/api/", "discordapp.com/api/"],
    r"discord(?:app)?\.com/api/(?:v[0-9]{1,2}/)?webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,80}",
    133,
)
.right_guard("[A-Za-z0-9_-]");

pub const DISCORD_BOT_TOKEN: RuleDef = RuleDef::context(
    "discord-bot-token",
    "Discord bot token in an `Authorization: Bot …` header",
    &["authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:bot)[ \t]{1,32}(?P<secret>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})"#,
    191,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Discord",
    source: "TH, DS",
    rules: &[DISCORD_WEBHOOK, DISCORD_BOT_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DISCORD_WEBHOOK,
        "DISCORD_WEBHOOK=https://discord.com/api/webhooks/9857210154733704231/BA9QjoI2mIHgqOCfcgpnPhJDP3A1GUjSMZzkouyI_c3NsNRKXy-1tdmOJCszLAvnMJcI",
        "DISCORD_WEBHOOK=https://[REDACTED:discord-webhook]",
    ),
    Vector::hit(
        &DISCORD_WEBHOOK,
        "POST https://discordapp.com/api/webhooks/804114798859330353/R8G2bVyIMogeReYDDgAS8ZGwrA-ulxDOeSyQm3xIoryOL2Cx92KeCPczAAOt5xgjsBLj -> 204 No Content",
        "POST https://[REDACTED:discord-webhook] -> 204 No Content",
    ),
    Vector::miss(&DISCORD_WEBHOOK, "https://discord.com/api/webhooks/{webhook.id}/{webhook.token}"),
    Vector::miss(&DISCORD_WEBHOOK, "https://discord.com/api/webhooks/5962919675320842505/c09kdqmUIkYndvvW3z44"),
    Vector::hit(
        &DISCORD_BOT_TOKEN,
        "curl -H 'Authorization: Bot Mi3QW9AouO8E4rtYn0RgsSuBSJ.Iq40t6.G-qo2mMaD5CtnBG6O1HIzpqRfliahxnEWhefTl' https://discord.com/api/v10/users/@me",
        "curl -H 'Authorization: Bot [REDACTED:discord-bot-token]' https://discord.com/api/v10/users/@me",
    ),
    Vector::hit(
        &DISCORD_BOT_TOKEN,
        "headers = {\"Authorization\": \"Bot Oj6ASggMHqiUYnlvMYEB3W9d.n6s8oo.5NXsbRc3Oxaei1QSozOXXZ9nvMF\"}",
        "headers = {\"Authorization\": \"Bot [REDACTED:discord-bot-token]\"}",
    ),
    Vector::miss(&DISCORD_BOT_TOKEN, "headers = {\"Authorization\": f\"Bot {token}\"}"),
    Vector::miss(&DISCORD_BOT_TOKEN, "Authorization: Bot <your bot token>"),
];
