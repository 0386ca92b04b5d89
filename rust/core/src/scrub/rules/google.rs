//! Google: google-api-key, google-oauth-client-secret, google-oauth-access-token.

use super::{Family, RuleDef, Vector};

pub const GOOGLE_API_KEY: RuleDef = RuleDef::token(
    "google-api-key",
    "Google API key (AIza…, 39 chars: Gemini, Maps, Firebase)",
    &["AIza"],
    r"AIza[0-9A-Za-z_-]{35}",
    39,
)
.right_guard("[0-9A-Za-z_-]");

pub const GOOGLE_OAUTH_CLIENT_SECRET: RuleDef = RuleDef::token(
    "google-oauth-client-secret",
    "Google OAuth client secret (GOCSPX-, 35 chars)",
    &["GOCSPX-"],
    r"GOCSPX-[0-9A-Za-z_-]{28}",
    35,
)
.right_guard("[0-9A-Za-z_-]");

pub const GOOGLE_OAUTH_ACCESS_TOKEN: RuleDef = RuleDef::token(
    "google-oauth-access-token",
    "Google OAuth access token (ya29.)",
    &["ya29."],
    r"ya29\.[0-9A-Za-z_-]{20,}",
    2048,
)
.right_guard("")
.overflow("[0-9A-Za-z_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Google",
    source: "GL, NP, TH",
    rules: &[
        GOOGLE_API_KEY,
        GOOGLE_OAUTH_CLIENT_SECRET,
        GOOGLE_OAUTH_ACCESS_TOKEN,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &GOOGLE_API_KEY,
        "GEMINI_KEY=AIzaqWlN7D7A2X5UMf31CxYGwkji_9dDQ9CNmnE python main.py",
        "GEMINI_KEY=[REDACTED:google-api-key] python main.py",
    ),
    Vector::hit(
        &GOOGLE_API_KEY,
        "<script src=\"https://maps.googleapis.com/maps/api/js?key=AIza7SQ2Jgj8TAY48FxMf7aHP6D7rmXErOJmCmr&callback=initMap\"></script>",
        "<script src=\"https://maps.googleapis.com/maps/api/js?key=[REDACTED:google-api-key]&callback=initMap\"></script>",
    ),
    Vector::miss(&GOOGLE_API_KEY, "AIzaoBc5in8pVvXUnygLacjXpVVdIvKLNEL6p0"),
    Vector::miss(&GOOGLE_API_KEY, "AIzaRLHuuNGuTKbecitP1oAJvJRNYkKjrFCBgioa"),
    Vector::hit(
        &GOOGLE_OAUTH_CLIENT_SECRET,
        "{\"installed\": {\"client_id\": \"1234-abc.apps.googleusercontent.com\", \"client_s\": \"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\"}}",
        "{\"installed\": {\"client_id\": \"1234-abc.apps.googleusercontent.com\", \"client_s\": \"[REDACTED:google-oauth-client-secret]\"}}",
    ),
    Vector::hit(
        &GOOGLE_OAUTH_CLIENT_SECRET,
        "GOOGLE_CLIENT=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",
        "GOOGLE_CLIENT=[REDACTED:google-oauth-client-secret]",
    ),
    Vector::miss(&GOOGLE_OAUTH_CLIENT_SECRET, "GOCSPX-Apom4m1wei9jpqIcjUUi9PxCbHo"),
    Vector::miss(&GOOGLE_OAUTH_CLIENT_SECRET, "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f"),
    Vector::hit(
        &GOOGLE_OAUTH_ACCESS_TOKEN,
        "$ gcloud auth print-access-token\nya29.DBK2T_pnUvN3K3FgHaVu-F3dbGVhev_3AvoW5MmdueyKlU1yEUE0_mLA6bzxAQHHyO0S-dHIDPIy7civ-E54uoDRTtBa7PutbFNEqt0WL87FI1zxZ6hFTt3arOOxsGx6CvuyoGqcQLbnThmidxJJsT\n",
        "$ gcloud auth print-access-token\n[REDACTED:google-oauth-access-token]\n",
    ),
    Vector::hit(
        &GOOGLE_OAUTH_ACCESS_TOKEN,
        "{\"access\": \"ya29.a04Pq5TboubB6qO4xPqnz_lO4Va9KC6vkJcUTyRaSEwA5FEyQBxU57Xc_di_ehSrRNAPGIakTLJwCzsSsSww_nFGpNSdNa2HhdZpwwxGMW0HObSZEw3nE-lU7jciYAjXbK6gwr2l_iZTXH_0jEEk2XnghJZlm1rwGk97U6r8EoLWyrdf4JFu7tO9KiAmd-w4aeifrN9Dim\", \"expires_in\": 3599}",
        "{\"access\": \"[REDACTED:google-oauth-access-token]\", \"expires_in\": 3599}",
    ),
    Vector::miss(&GOOGLE_OAUTH_ACCESS_TOKEN, "ya29.W88iu8ORp5HCZy7KdGr"),
    Vector::miss(&GOOGLE_OAUTH_ACCESS_TOKEN, "version ya29.1 of the library"),
];
