//! Slack: slack-bot-token, slack-user-token, slack-legacy-token, slack-config-token, slack-app-token, slack-webhook.

use super::{Family, RuleDef, Vector};

pub const SLACK_BOT_TOKEN: RuleDef = RuleDef::token(
    "slack-bot-token",
    "Slack bot token (xoxb-)",
    &["xoxb-"],
    r"xoxb-[0-9]{8,14}-[0-9A-Za-z-]{18,}",
    256,
)
.overflow("[0-9A-Za-z-]");

pub const SLACK_USER_TOKEN: RuleDef = RuleDef::token(
    "slack-user-token",
    "Slack user token (xoxp-)",
    &["xoxp-"],
    r"xoxp-[0-9]{8,14}-[0-9A-Za-z-]{18,}",
    256,
)
.overflow("[0-9A-Za-z-]");

pub const SLACK_LEGACY_TOKEN: RuleDef = RuleDef::token(
    "slack-legacy-token",
    "Slack legacy workspace, bot and user tokens (xoxa-, xoxr-, xoxo-, xoxs-)",
    &["xoxa-", "xoxr-", "xoxo-", "xoxs-"],
    r"xox[aors]-[0-9A-Za-z-]{10,}",
    256,
)
.overflow("[0-9A-Za-z-]");

pub const SLACK_CONFIG_TOKEN: RuleDef = RuleDef::token(
    "slack-config-token",
    "Slack configuration access and refresh tokens (xoxe.xoxb-, xoxe.xoxp-, xoxe-)",
    &["xoxe.xoxb-", "xoxe.xoxp-", "xoxe-"],
    r"xoxe(?:\.xox[bp])?-[0-9]-[0-9A-Za-z]{140,}",
    512,
)
.overflow("[0-9A-Za-z]");

pub const SLACK_APP_TOKEN: RuleDef = RuleDef::token(
    "slack-app-token",
    "Slack app-level token (xapp-)",
    &["xapp-"],
    r"xapp-[0-9]-[0-9A-Za-z]+-[0-9]+-[0-9A-Za-z]+",
    256,
)
.overflow("[0-9A-Za-z-]");

pub const SLACK_WEBHOOK: RuleDef = RuleDef::token(
    "slack-webhook",
    "Slack incoming webhook / workflow URL path",
    &["hooks.slack.com/"],
    r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,}",
    320,
)
.right_guard("")
.overflow("[A-Za-z0-9+/]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Slack",
    source: "GL, TH",
    rules: &[
        SLACK_BOT_TOKEN,
        SLACK_USER_TOKEN,
        SLACK_LEGACY_TOKEN,
        SLACK_CONFIG_TOKEN,
        SLACK_APP_TOKEN,
        SLACK_WEBHOOK,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SLACK_BOT_TOKEN,
        "SLACK_BOT=xoxb-815467859869-4970042357028-fbuvmHEdPXrW2EfY3ARlMvsn",
        "SLACK_BOT=[REDACTED:slack-bot-token]",
    ),
    Vector::hit(
        &SLACK_BOT_TOKEN,
        "{\"ok\": true, \"access\": \"xoxb-40393743586-665495202928-CYpxG2quOw3ItJgcwsNnKj5s\", \"team\": {\"id\": \"T0\"}}",
        "{\"ok\": true, \"access\": \"[REDACTED:slack-bot-token]\", \"team\": {\"id\": \"T0\"}}",
    ),
    Vector::miss(&SLACK_BOT_TOKEN, "xoxb-436171967000-eVoUITZ5Qx"),
    Vector::miss(&SLACK_BOT_TOKEN, "xoxb-123"),
    Vector::hit(
        &SLACK_USER_TOKEN,
        "slack_user=xoxp-429905739027-317913570736-0974329381714-zvx9xgu8yviihcutvg9yv6j9az04jmjd",
        "slack_user=[REDACTED:slack-user-token]",
    ),
    Vector::hit(
        &SLACK_USER_TOKEN,
        "2024-06-11T10:00:00Z INFO slack: posting as xoxp-7435213780-35584351057-482688172505-vg2ina4naoto5wwp2kg571gudihp4qjo",
        "2024-06-11T10:00:00Z INFO slack: posting as [REDACTED:slack-user-token]",
    ),
    Vector::miss(&SLACK_USER_TOKEN, "xoxp-13265"),
    Vector::miss(&SLACK_USER_TOKEN, "xoxp-845260402256-F8Ctx37zoz1o"),
    Vector::hit(
        &SLACK_LEGACY_TOKEN,
        "legacy: xoxs-5548638888-37503680802-715435766954-5600cec635b09f8de26577ca2269e9e5c9c0b2e7b6bda3c4faddb871fb9b6c39",
        "legacy: [REDACTED:slack-legacy-token]",
    ),
    Vector::hit(
        &SLACK_LEGACY_TOKEN,
        "{\"workspace\": \"xoxa-2-ntBpLjuXa8QVq6siFk7YkLGwc4J8XiXiMqRROL9u\"}",
        "{\"workspace\": \"[REDACTED:slack-legacy-token]\"}",
    ),
    Vector::miss(&SLACK_LEGACY_TOKEN, "xoxa-y0DCK4wwx"),
    Vector::miss(&SLACK_LEGACY_TOKEN, "xoxo-hugs and kisses"),
    Vector::hit(
        &SLACK_CONFIG_TOKEN,
        "SLACK_CONFIG=xoxe.xoxp-1-ZR46DWN9NEYKOKS2GXYZ7XP6KYGU708OW7N98BB5X9STZ7MS54O82EWPFGIZTGQ8HKCK8EWKC7Q1KJ0ZFUY8A613LZ2T3WKYFTNOXMZP6WEWSV044BZLPBPZQ86CJ514J2D829OX72B04LAX1FQH4EJVY7PIXQTJ2RIP",
        "SLACK_CONFIG=[REDACTED:slack-config-token]",
    ),
    Vector::hit(
        &SLACK_CONFIG_TOKEN,
        "{\"refresh\": \"xoxe-1-6GXR6E20G50KF90VL80S81V066DAREDX4A3OSNMA0ZZOFP63LFC7I0ZZDNNH2G1EQDW2LP0BX7UAMMV4JT0WXJBEQTY5K6C14E2CIJDH7JQO7WJLRLPH2EETFI1FR34QI270WN32MA04RVJM3S\", \"exp\": 1718000000}",
        "{\"refresh\": \"[REDACTED:slack-config-token]\", \"exp\": 1718000000}",
    ),
    Vector::miss(&SLACK_CONFIG_TOKEN, "xoxe-1-2XPT9GXJI9HUH6QIMNUT2V48Y0HA7NUBS17KB5O10LTEKTTL8CK6LJDLP3RGECZ871NCGLWI6L4NJLKC1RHA6CPQU2OUC1HIB360"),
    Vector::miss(&SLACK_CONFIG_TOKEN, "xoxe.xoxp-FWTSHEHOKCYTVGMPXEXAMMFMJVCHTTHDRHNBBYKPLHGPFPKYQZHJEKZUZNHYZMGRGHPDJVFWRGRBLZJWRJIYWMNTDCQDHFXGPUNGBHNWXJAGFPUHKDZAUOPACPPNPVESLQSXCEOWBRYLTSAIVYIWYVVJQEMRVVIG"),
    Vector::hit(
        &SLACK_APP_TOKEN,
        "SLACK_APP=xapp-1-AX4YCQQYPZ9-4228162668336-f3983bba690f9b6fc0db18fa3fd307a336b8d0bd3edcf0b2302f153eded2be5a python bot.py",
        "SLACK_APP=[REDACTED:slack-app-token] python bot.py",
    ),
    Vector::hit(
        &SLACK_APP_TOKEN,
        "connecting socket mode with xapp-1-ACFN6366W9P-3285019420948-e4ef62ffe217edb37bb5de10f1ddc978470c9d6f090d50f65ce2305f4b1e6d40...",
        "connecting socket mode with [REDACTED:slack-app-token]...",
    ),
    Vector::miss(&SLACK_APP_TOKEN, "xapp-1-GSXDGUBJKT"),
    Vector::miss(&SLACK_APP_TOKEN, "the xapp- prefix is for app-level tokens"),
    Vector::hit(
        &SLACK_WEBHOOK,
        "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"hi\"}' https://hooks.slack.com/services/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",
        "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"hi\"}' https://[REDACTED:slack-webhook]",
    ),
    Vector::hit(
        &SLACK_WEBHOOK,
        "{\"webhook_url\": \"https://hooks.slack.com/workflows/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\"}",
        "{\"webhook_url\": \"https://[REDACTED:slack-webhook]\"}",
    ),
    Vector::miss(&SLACK_WEBHOOK, "see https://hooks.slack.com/services/ for setup"),
    Vector::miss(&SLACK_WEBHOOK, "https://hooks.slack.com/services/TUILAXRZE/BCHFFSEOI/EiZxQGkT0WSFXn1X3h2A"),
];
