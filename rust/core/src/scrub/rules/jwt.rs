//! JSON Web Tokens: jwt.

use super::{Family, RuleDef, Vector};

pub const JWT: RuleDef = RuleDef::token(
    "jwt",
    "JSON Web Token (eyJ….eyJ….signature)",
    &["eyJ"],
    // A backslash only as the JSON escape of a slash (`\/`): in `…<jwt>\nnext` the
    // `\n` ends the token instead of being swallowed with the next word.
    r"eyJ[A-Za-z0-9_-]{15,}\.eyJ(?:[A-Za-z0-9_/-]|\\/){15,}\.(?:(?:[A-Za-z0-9_/+-]|\\/){10,}={0,2})?",
    8192,
)
.right_guard("")
.overflow(r"[A-Za-z0-9_/+=.-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "JSON Web Tokens",
    source: "GL, NP",
    rules: &[JWT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &JWT,
        "$ kubectl create token default\neyJhbGciOiJSUzI1NiIsImtpZCI6IOhhqzgnJA-mYVJvSFzDK.eyJEvDVlsYK9EdCdCHklnUfjXsI3hH2tQGuQXOrAnItxiiEqGkHDDqaBxSRzhmHDP1c2Jg_grqqQERt8qvEfbljABAiwGbSVrLdg7GVLam4bdGQdVFnn6CUHLG_.2gft7tKKkB3X-uYfbcsgMNnoqfU1DJKSERL6qlgsCpZKThJppH4ydlBk9t0fufdrHWcCpI0NZoyfvoR4DoEnLj\n",
        "$ kubectl create token default\n[REDACTED:jwt]\n",
    ),
    Vector::hit(
        &JWT,
        "{\"id_jwt\": \"eyJhbGciOiJSUzI1NiIsImtpZCI6IllsZBYtuLNrlcQgoYO9e.eyJy8Kj7iV7YpOTFNWkAwUUq6_G32NepE9BDxTzfV4C6lBlqM_dAB3rZYwnsSbCRi1fthx3e9HwM3ZvtIVUY3SHxt_WbFGLwQdzBjW05X1GM83Eh4ZtQPtmqOCP.MipmV10sGypOk60uZISGe8RZRcqGrMW_9a0cpzQqRzCz9tVJLj_5z1OmRWtQV0KJa5aFoE7t-rcmIbveZxx4ZO\", \"expires\": 3600}",
        "{\"id_jwt\": \"[REDACTED:jwt]\", \"expires\": 3600}",
    ),
    Vector::hit(
        &JWT,
        "SUPABASE_SERVICE_ROLE=eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0.FlLkpDLQulMVImJXFJ8Q0VX-MdcNnfsyAcz349veqbY",
        "SUPABASE_SERVICE_ROLE=[REDACTED:jwt]",
    ),
    Vector::miss(&JWT, "eyJhbGciOiJIUzI1NiJ9 is only a header"),
    Vector::miss(&JWT, "eyJOw47COVk3p.eyJucOWsUVCwG.gswDjDT9hOuhcYUMtBji"),
];
