//! Defined Networking: defined-networking-api-token.

use super::{Family, RuleDef, Vector};

pub const DEFINED_NETWORKING_API_TOKEN: RuleDef = RuleDef::token(
    "defined-networking-api-token",
    "Defined Networking (Nebula) API token (dnkey- + 26 - 52)",
    &["dnkey-"],
    r"dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}",
    85,
)
.right_guard("[A-Za-z0-9=_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Defined Networking",
    source: "GL",
    rules: &[DEFINED_NETWORKING_API_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &DEFINED_NETWORKING_API_TOKEN,
        "DN_API_KEY=dnkey-qYEHyK8rAC0MIKyDZBTNiea6hG-awFQRrIhHl50I4AD5vLZUyp1xl7ihhgILuDMyEFGIm6It1j8uIwx",
        "DN_API_KEY=[REDACTED:defined-networking-api-token]",
    ),
    Vector::hit(
        &DEFINED_NETWORKING_API_TOKEN,
        "curl -H \"Authorization: Bearer dnkey-WACXLMHK0JENTTPZFK9SK2TDEF-cdm5ujiwLp4rNNPHSyMbqrlWi3vrM6jI6nLriRfmoRiJOM2ytq3a\" https://api.defined.net/v1/hosts",
        "curl -H \"Authorization: Bearer [REDACTED:defined-networking-api-token]\" https://api.defined.net/v1/hosts",
    ),
    Vector::miss(&DEFINED_NETWORKING_API_TOKEN, "dnkey-EGQ21Zz3uI1r8NAC0CGMWTGdB3-zzDOrjRdFiM9ul4OW0x33PlJ51GGvV"),
    Vector::miss(&DEFINED_NETWORKING_API_TOKEN, "dnkey-<your-key>"),
];
