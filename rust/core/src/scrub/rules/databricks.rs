//! Databricks: databricks-api-token.

use super::{Family, RuleDef, Vector};

pub const DATABRICKS_API_TOKEN: RuleDef = RuleDef::token(
    "databricks-api-token",
    "Databricks API token (dapi + 32 hex)",
    &["dapi"],
    r"dapi[0-9a-f]{32}(?:-[0-9])?",
    38,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Databricks",
    source: "GL",
    rules: &[DATABRICKS_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DATABRICKS_API_TOKEN,
        "DATABRICKS_PAT=dapif1f8385fee2494398341a9bda6ad5375",
        "DATABRICKS_PAT=[REDACTED:databricks-api-token]",
    ),
    Vector::hit(
        &DATABRICKS_API_TOKEN,
        "[DEFAULT]\nhost = https://adb-123.4.azuredatabricks.net\npat = dapi0852d74f3817c77c00d320507712db7d-2\n",
        "[DEFAULT]\nhost = https://adb-123.4.azuredatabricks.net\npat = [REDACTED:databricks-api-token]\n",
    ),
    Vector::miss(&DATABRICKS_API_TOKEN, "dapi6a12a38f703b2cfb0d5e10283dd00b9"),
    Vector::miss(&DATABRICKS_API_TOKEN, "dapi1cb7fce0e1b3b0c8e7b15eb492714db0f"),
];
