//! Microsoft Power Platform: power-automate-webhook.

use super::{Family, RuleDef, Vector};

pub const POWER_AUTOMATE_WEBHOOK: RuleDef = RuleDef::token(
    "power-automate-webhook",
    "Power Automate / Logic Apps HTTP trigger URL signature (sig=)",
    &["/triggers/manual/paths/invoke"],
    r"/triggers/manual/paths/invoke\?[A-Za-z0-9_.%=&-]{0,200}sig=(?P<secret>[A-Za-z0-9_%-]{20,})",
    400,
)
.right_guard("")
.left_guard("")
.overflow("[A-Za-z0-9_%-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Microsoft Power Platform",
    source: "Microsoft Power Automate docs: HTTP trigger URLs",
    rules: &[POWER_AUTOMATE_WEBHOOK],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &POWER_AUTOMATE_WEBHOOK,
        "POST https://prod-00.westeurope.logic.azure.com:443/workflows/25dea01e25f72b7f4919703b2bf059ad/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Qy-xHrOslWoLJ4hY4kgbp7l-FLB-xhqDVDmUCPS8KYj HTTP/1.1",
        "POST https://prod-00.westeurope.logic.azure.com:443/workflows/25dea01e25f72b7f4919703b2bf059ad/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=[REDACTED:power-automate-webhook] HTTP/1.1",
    ),
    Vector::miss(&POWER_AUTOMATE_WEBHOOK, "/triggers/manual/paths/invoke?api-version=2016-06-01"),
];
