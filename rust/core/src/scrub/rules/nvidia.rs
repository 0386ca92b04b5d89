//! NVIDIA: nvidia-api-key.

use super::{Family, RuleDef, Vector};

pub const NVIDIA_API_KEY: RuleDef = RuleDef::token(
    "nvidia-api-key",
    "NVIDIA API catalog / NIM key (nvapi- + 64)",
    &["nvapi-"],
    r"nvapi-[A-Za-z0-9_-]{64}",
    70,
)
.right_guard("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "NVIDIA",
    source: "TH",
    rules: &[NVIDIA_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NVIDIA_API_KEY,
        "NVIDIA_API_KEY=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",
        "NVIDIA_API_KEY=[REDACTED:nvidia-api-key]",
    ),
    Vector::hit(
        &NVIDIA_API_KEY,
        "client = OpenAI(base_url=\"https://integrate.api.nvidia.com/v1\", api_key=\"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\")",
        "client = OpenAI(base_url=\"https://integrate.api.nvidia.com/v1\", api_key=\"[REDACTED:nvidia-api-key]\")",
    ),
    Vector::miss(&NVIDIA_API_KEY, "nvapi-0aOW9mkOhzHrYg5CT0OO4YEoUIWug9CYx4TblJcy"),
    Vector::miss(&NVIDIA_API_KEY, "nvapi-..."),
];
