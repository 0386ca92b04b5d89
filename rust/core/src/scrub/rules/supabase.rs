//! Supabase: supabase-token.

use super::{Family, RuleDef, Vector};

pub const SUPABASE_TOKEN: RuleDef = RuleDef::token(
    "supabase-token",
    "Supabase personal access token (sbp_) or secret API key (sb_secret_)",
    &["sbp_", "sb_secret_"],
    r"sbp_[0-9a-f]{40}|sb_secret_[A-Za-z0-9_-]{20,}",
    256,
)
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Supabase",
    source: "GL, TH, NP, DS",
    rules: &[SUPABASE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SUPABASE_TOKEN,
        "SUPABASE_ACCESS=sbp_79de71d1be13e5a0d304aa46eb4f493a87644b7c supabase link --project-ref abcdefgh",
        "SUPABASE_ACCESS=[REDACTED:supabase-token] supabase link --project-ref abcdefgh",
    ),
    Vector::hit(
        &SUPABASE_TOKEN,
        "createClient(url, \"sb_secret_nQDlncUhV_2E-cIxKoNBPCfryKUAmfl\")",
        "createClient(url, \"[REDACTED:supabase-token]\")",
    ),
    Vector::miss(&SUPABASE_TOKEN, "sbp_8e6fcd7a683a1205f3c5ce0c92abd5c9129ca05"),
    Vector::miss(&SUPABASE_TOKEN, "sbp_371a7c4be087d71cb27659062a8205657393d779f"),
];
