//! Hugging Face: huggingface-token.

use super::{Family, RuleDef, Vector};

pub const HUGGINGFACE_TOKEN: RuleDef = RuleDef::token(
    "huggingface-token",
    "Hugging Face user or organization token (hf_, api_org_ + 34)",
    &["hf_", "api_org_"],
    r"(?:hf_|api_org_)[A-Za-z0-9]{34}",
    42,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Hugging Face",
    source: "GL, TH, NP",
    rules: &[HUGGINGFACE_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &HUGGINGFACE_TOKEN,
        "huggingface-cli login --add-to-git-credential  # hf_WWS0uNMvTPZb93581zdAckRcj3i5ydDd1h",
        "huggingface-cli login --add-to-git-credential  # [REDACTED:huggingface-token]",
    ),
    Vector::hit(
        &HUGGINGFACE_TOKEN,
        "HF_ORG=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",
        "HF_ORG=[REDACTED:huggingface-token]",
    ),
    Vector::miss(
        &HUGGINGFACE_TOKEN,
        "from huggingface_hub import hf_hub_download",
    ),
    Vector::miss(&HUGGINGFACE_TOKEN, "hf_WiujgzJQ3AfYH1KeQ6x9sRBKyvNGxkomgTx"),
];
