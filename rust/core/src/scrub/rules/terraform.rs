//! Terraform Cloud: terraform-cloud-token.

use super::{Family, RuleDef, Vector};

pub const TERRAFORM_CLOUD_TOKEN: RuleDef = RuleDef::token(
    "terraform-cloud-token",
    "Terraform Cloud / Enterprise API token (….atlasv1.…)",
    &[".atlasv1."],
    r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}",
    93,
)
.before("[A-Za-z0-9]", 14, 14)
.right_guard("[A-Za-z0-9_=-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Terraform Cloud",
    source: "GL, NP",
    rules: &[TERRAFORM_CLOUD_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &TERRAFORM_CLOUD_TOKEN,
        "credentials \"app.terraform.io\" {\n  value = \"f4OY7l1ZGDAXfA.atlasv1.Yefh6HzzIyWmTWPlU8M58HmGcvEFkVlrTcacZ4OxNC1KqTh5IssC2FjZ8pKa7eoNKdq\"\n}",
        "credentials \"app.terraform.io\" {\n  value = \"[REDACTED:terraform-cloud-token]\"\n}",
    ),
    Vector::hit(
        &TERRAFORM_CLOUD_TOKEN,
        "TF_CLOUD=lxMayoJYyJkMrr.atlasv1.1ownyqByuPjA6GmcMTOrdAuAT8sj3F32Hx8EmSp7wouZ87AoBOO5PujRVPgviQ4TIZb",
        "TF_CLOUD=[REDACTED:terraform-cloud-token]",
    ),
    Vector::miss(&TERRAFORM_CLOUD_TOKEN, "d2vM8wDgYw6gK.atlasv1.vZt9CJy20FonvtU2eHYzH5YqRpDzHFIftEcARNv8PsqiuKU23m9t7fWDKocC7cNnrVX"),
    Vector::miss(&TERRAFORM_CLOUD_TOKEN, "ZuM76KFOmsqwE2.atlasv1.Dm2tbHiWdFdGQi1PG501OucKUGFyWuL7w1Ww4vkgbKeLyYAMlRPPJWbfEEZHcqfMXGMRzx3"),
];
