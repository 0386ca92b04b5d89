//! Microsoft Teams: msteams-webhook.

use super::{Family, RuleDef, Vector};

pub const MSTEAMS_WEBHOOK: RuleDef = RuleDef::token(
    "msteams-webhook",
    "Microsoft Teams incoming webhook URL path",
    &["webhook.office.com/webhookb2/"],
    r"webhook\.office\.com/webhookb2/[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}@[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}/IncomingWebhook/[0-9A-Za-z]{32}/[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}(?:/V2[0-9A-Za-z_-]+)?",
    512,
)
.right_guard("")
.overflow("[0-9A-Za-z_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Microsoft Teams",
    source: "GL",
    rules: &[MSTEAMS_WEBHOOK],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &MSTEAMS_WEBHOOK,
        "TEAMS_WEBHOOK_URL=https://acme.webhook.office.com/webhookb2/703fef43-bf0b-4616-e42b-5a6b7108c477@84bcd4f8-b78c-b3ad-ba69-1e92d48c0a7c/IncomingWebhook/q3l3gmbzzn2seberkwqleyhbkml0qhki/f1c76e71-25e4-c136-7e0a-147a4bf2a211",
        "TEAMS_WEBHOOK_URL=https://acme.[REDACTED:msteams-webhook]",
    ),
    Vector::hit(
        &MSTEAMS_WEBHOOK,
        "{\"type\": \"teams\", \"url\": \"https://acme.webhook.office.com/webhookb2/e9774acf-11c2-d68b-19d8-a9ab89affd99@5a93c023-3c9b-0890-1fae-996d8472ce19/IncomingWebhook/j8o0enhuopqxvpc11o0yd1av5fil9aph/20524d69-03ba-2b25-e113-2143d109e707/V2LNVJzK24QPs8IalRgJyusHhOop2q-EuMXE6L9s9Z\"}",
        "{\"type\": \"teams\", \"url\": \"https://acme.[REDACTED:msteams-webhook]\"}",
    ),
    Vector::miss(&MSTEAMS_WEBHOOK, "Create an Incoming Webhook: https://acme.webhook.office.com/webhookb2/..."),
    Vector::miss(&MSTEAMS_WEBHOOK, "https://acme.webhook.office.com/webhookb2/61b08c20-af05-c6d6-827d-25ba82f2ff96/IncomingWebhook"),
];
