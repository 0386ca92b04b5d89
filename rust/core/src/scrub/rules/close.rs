//! Close: close-api-key.

use super::{Family, RuleDef, Vector};

pub const CLOSE_API_KEY: RuleDef = RuleDef::token(
    "close-api-key",
    "Close CRM API key (api_ + 45)",
    &["api_"],
    r"api_[A-Za-z0-9.]{45}",
    49,
)
// A dot after the 45th byte means a longer dotted name (`api_v1.endpoints.…`), not a key.
.right_guard("[A-Za-z0-9_.]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Close",
    source: "TH",
    rules: &[CLOSE_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLOSE_API_KEY,
        "CLOSE_API_KEY=api_vNo2a17lVspspvZ2dnCl9v.cG3bQPnpFrZpD7D2QbtYbj",
        "CLOSE_API_KEY=[REDACTED:close-api-key]",
    ),
    Vector::hit(
        &CLOSE_API_KEY,
        "requests.get(url, auth=(\"api_5i6oh6IrfdWxmyQgF8R6SY.b5RuHzOUv5zMfp5SHWlj6t\", \"\"))",
        "requests.get(url, auth=(\"[REDACTED:close-api-key]\", \"\"))",
    ),
    Vector::miss(&CLOSE_API_KEY, "def api_get_lead_by_id(self):"),
    Vector::miss(&CLOSE_API_KEY, "api_gIZuSDOUjVz594CjFraW"),
    Vector::miss(
        &CLOSE_API_KEY,
        "from app.api_v1.endpoints.users.schemas.responses.listings.page import Page",
    ),
];
