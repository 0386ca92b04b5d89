//! JSON Web Tokens (unusual headers): jwt-noncanonical.

use super::{Family, RuleDef, Vector};

pub const JWT_NONCANONICAL: RuleDef = RuleDef::token(
    "jwt-noncanonical",
    "JWT whose header JSON has whitespace or CRLF ({\\r\\n or { \" encoded)",
    &["ew0K", "ewog", "eyAi"],
    r"(?:ew0K|ewog|eyAi)[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    8192,
)
.right_guard("")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "JSON Web Tokens (unusual headers)",
    source: "RFC 7519; headers with whitespace",
    rules: &[JWT_NONCANONICAL],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &JWT_NONCANONICAL,
        "Authorization: JWT ew0KICAidHlwIjogIkpXVCIsDQogICJhbGciOiAiSFMyNTYiDQp9.e2FDqa2_-H5zB4hPINmUnCuJf292_GQftIJhtQ_j.cbiSrPsycuX-FloqFbtOQLfgbUsotNhV8pwEXhb640J",
        "Authorization: JWT [REDACTED:jwt-noncanonical]",
    ),
    Vector::miss(&JWT_NONCANONICAL, "ewogC1VBMyoVtaPbgUyX4h3M is not a token"),
];
