//! PagerDuty: pagerduty-api-key.

use super::{Family, RuleDef, Vector};

pub const PAGERDUTY_API_KEY: RuleDef = RuleDef::context(
    "pagerduty-api-key",
    "PagerDuty REST API key after the `Token token=` scheme (20)",
    &["Authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:token)[ \t]{1,32}token=(?P<secret>[A-Za-z0-9_+-]{20})"#,
    120,
)
.right_guard("[A-Za-z0-9_+-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "PagerDuty",
    source: "PagerDuty docs: REST API keys (Token token=)",
    rules: &[PAGERDUTY_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PAGERDUTY_API_KEY,
        "curl -H 'Authorization: Token token=hDw5GOk+F5RWN2XjE563' https://api.pagerduty.com/incidents",
        "curl -H 'Authorization: Token token=[REDACTED:pagerduty-api-key]' https://api.pagerduty.com/incidents",
    ),
    Vector::hit(
        &PAGERDUTY_API_KEY,
        "headers = {\"Authorization\": \"Token token=QYOKXTm1m8iyWwyp04eY\"}",
        "headers = {\"Authorization\": \"Token token=[REDACTED:pagerduty-api-key]\"}",
    ),
    Vector::miss(&PAGERDUTY_API_KEY, "Authorization: Token token=YOUR_API_KEY"),
    Vector::miss(&PAGERDUTY_API_KEY, "Authorization: Token token=$PAGERDUTY_TOKEN"),
];
