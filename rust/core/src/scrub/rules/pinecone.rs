//! Pinecone: pinecone-api-key.

use super::{Family, RuleDef, Vector};

pub const PINECONE_API_KEY: RuleDef = RuleDef::token(
    "pinecone-api-key",
    "Pinecone API key (pcsk_)",
    &["pcsk_"],
    r"pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}",
    75,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Pinecone",
    source: "GL, TH, NP",
    rules: &[PINECONE_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PINECONE_API_KEY,
        "PINECONE_KEY=pcsk_sWhqWA_us0WODGdK0zpjLVRhbocCbqEs8flDmT4tFZYWjBJ2LGlyViPpZ3OSv7jikikLdt",
        "PINECONE_KEY=[REDACTED:pinecone-api-key]",
    ),
    Vector::hit(
        &PINECONE_API_KEY,
        "pc = Pinecone(api='pcsk_zyUpS_wHNbgFTyn8nqc0WuyGmtoWQEgLCCGpgdMcbq8sriYpKZGK6X7TvX2UGEQVt0JKf')",
        "pc = Pinecone(api='[REDACTED:pinecone-api-key]')",
    ),
    Vector::miss(&PINECONE_API_KEY, "pcsk_FQnpjy_VexrkbfDGPxTWsl0fbS4t4okZ9soPsyagY2d0CuGcY8iri8HYjkorID6kyGPqj"),
    Vector::miss(&PINECONE_API_KEY, "pcsk_b3fS2A0_U35bwhuPBaB01um3QGGXYxCWkCmP83qE3mG0v9sEYKdPK1aq8zbi1i6XkonVQJI"),
];
