//! GitHub: github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat.

use super::{Family, RuleDef, Vector};

pub const GITHUB_PAT: RuleDef = RuleDef::token(
    "github-pat",
    "GitHub classic personal access token (ghp_ + 36, up to 255 accepted)",
    &["ghp_"],
    r"ghp_[0-9A-Za-z]{36,255}",
    259,
)
.right_guard("")
.overflow("[0-9A-Za-z_]");

pub const GITHUB_OAUTH: RuleDef = RuleDef::token(
    "github-oauth",
    "GitHub OAuth access token (gho_ + 36, up to 255 accepted)",
    &["gho_"],
    r"gho_[0-9A-Za-z]{36,255}",
    259,
)
.right_guard("")
.overflow("[0-9A-Za-z_]");

pub const GITHUB_APP_TOKEN: RuleDef = RuleDef::token(
    "github-app-token",
    "GitHub App user-to-server / server-to-server token (ghu_/ghs_ + 36, up to 255 accepted)",
    &["ghu_", "ghs_"],
    r"gh[us]_[0-9A-Za-z]{36,255}",
    259,
)
.right_guard("")
.overflow("[0-9A-Za-z_]");

pub const GITHUB_REFRESH_TOKEN: RuleDef = RuleDef::token(
    "github-refresh-token",
    "GitHub refresh token (ghr_ + 36 or 76, up to 255 accepted)",
    &["ghr_"],
    r"ghr_[0-9A-Za-z]{36,255}",
    259,
)
.right_guard("")
.overflow("[0-9A-Za-z_]");

pub const GITHUB_FINE_GRAINED_PAT: RuleDef = RuleDef::token(
    "github-fine-grained-pat",
    "GitHub fine-grained personal access token (github_pat_, 93 chars)",
    &["github_pat_"],
    r"github_pat_[0-9A-Za-z_]{82}",
    93,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "GitHub",
    source: "GL",
    rules: &[
        GITHUB_PAT,
        GITHUB_OAUTH,
        GITHUB_APP_TOKEN,
        GITHUB_REFRESH_TOKEN,
        GITHUB_FINE_GRAINED_PAT,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &GITHUB_PAT,
        "$ git clone https://ghp_r84thqdgZWAyce800W6uZVwVbQoPv76gCWg0@github.com/acme/app.git\nCloning into 'app'...",
        "$ git clone https://[REDACTED:github-pat]@github.com/acme/app.git\nCloning into 'app'...",
    ),
    Vector::hit(
        &GITHUB_PAT,
        "{\"tool\": \"bash\", \"output\": \"GH_PAT=ghp_vF3KE3QiIOTvRAZBF3GT5ShuUYpDVU4VV5qY\\n\"}",
        "{\"tool\": \"bash\", \"output\": \"GH_PAT=[REDACTED:github-pat]\\n\"}",
    ),
    Vector::hit(
        &GITHUB_PAT,
        "ghp_dr2ZLgsiJpMaIFTkbh967jcsFF1lo6Ts0lIQO is one character longer than documented",
        "[REDACTED:github-pat] is one character longer than documented",
    ),
    Vector::hit(
        &GITHUB_PAT,
        "x=ghp_dr2ZLgsiJpMaIFTkbh967jcsFF1lo6Ts0lIQOdr2ZLgsiJpMaIFTkbh967jcsFF1lo6Ts0lIQOdr2ZLgsiJpMaIFTkbh967jcsFF1lo6Ts0lIQO;",
        "x=[REDACTED:github-pat];",
    ),
    Vector::miss(&GITHUB_PAT, "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is a placeholder"),
    Vector::miss(&GITHUB_PAT, "ghp_HaLMXvEBeRQX44Je9UXOO1IWypYptjpBDa5 is one character short"),
    Vector::miss(&GITHUB_PAT, "ghp_Un8ESLUCWPTGnY8zeJLW7MxkF1YqG1!@#$%^ wrong charset"),
    Vector::hit(
        &GITHUB_OAUTH,
        "gh auth status: Logged in, oauth credential gho_Zk6uXL2EX0PVtJwb6r8SSgxeO6RwVB67fJrl",
        "gh auth status: Logged in, oauth credential [REDACTED:github-oauth]",
    ),
    Vector::hit(
        &GITHUB_OAUTH,
        "GH_ENTERPRISE_OAUTH=gho_qxj4BvRfO9cuIsENrCtNZjLJlOJK3TNTgejf",
        "GH_ENTERPRISE_OAUTH=[REDACTED:github-oauth]",
    ),
    Vector::hit(&GITHUB_OAUTH, "gho_ViFFPghaSso6ln5QFj69PvQE2CtBDO4RH125d", "[REDACTED:github-oauth]"),
    Vector::miss(&GITHUB_OAUTH, "xgho_EHOWws6esx2Xf2aUomr4WsWU8CGOyLaFOKpm"),
    Vector::hit(
        &GITHUB_APP_TOKEN,
        "GH_INSTALLATION=ghs_mRIeINxwy2gK0fGLmq12F7ralUgoJBlQh9s5 gh api /installation/repositories",
        "GH_INSTALLATION=[REDACTED:github-app-token] gh api /installation/repositories",
    ),
    Vector::hit(
        &GITHUB_APP_TOKEN,
        "2024-06-11 10:00:01 DEBUG installation credential issued: ghu_XOJZQYmp4v2MVsIzqP84ccRu5jHWvFRLVHxa",
        "2024-06-11 10:00:01 DEBUG installation credential issued: [REDACTED:github-app-token]",
    ),
    Vector::miss(&GITHUB_APP_TOKEN, "ghs_4S7giHI0eCKDmNIpWPh3NFESeRFns7VFps1"),
    Vector::miss(&GITHUB_APP_TOKEN, "ghx_yiefETqy18AwrQnajMH2JsuzByyX5TFU63Ig"),
    Vector::hit(
        &GITHUB_REFRESH_TOKEN,
        "refresh=ghr_wzL43M9r9p3FoV3sbmvqqkkDXwWluFef5AeRfyRxmIPx2BqAfzm1cOXOzgwNTSaG2eMPlJzXigtp&grant_type=refresh_token",
        "refresh=[REDACTED:github-refresh-token]&grant_type=refresh_token",
    ),
    Vector::hit(
        &GITHUB_REFRESH_TOKEN,
        "{\"refresh\": \"ghr_VJSXFHXiRdD6My5od5KPwVq7Fl5LGc195F0w\", \"expires_in\": 15897600}",
        "{\"refresh\": \"[REDACTED:github-refresh-token]\", \"expires_in\": 15897600}",
    ),
    Vector::hit(
        &GITHUB_REFRESH_TOKEN,
        "ghr_NDBnNFnpOcizQpHesGJ6wJomv7vzBhgwPWTSMvZWt5qcCZ1e5s",
        "[REDACTED:github-refresh-token]",
    ),
    Vector::miss(&GITHUB_REFRESH_TOKEN, "ghr_QR4Ah7qFJ4ICNIZNPOFm"),
    Vector::hit(
        &GITHUB_FINE_GRAINED_PAT,
        "export GH_PAT=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",
        "export GH_PAT=[REDACTED:github-fine-grained-pat]",
    ),
    Vector::hit(
        &GITHUB_FINE_GRAINED_PAT,
        "  - uses: actions/checkout@v4\n    with:\n      github-pat: 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\n",
        "  - uses: actions/checkout@v4\n    with:\n      github-pat: [REDACTED:github-fine-grained-pat]\n",
    ),
    Vector::miss(&GITHUB_FINE_GRAINED_PAT, "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i"),
    Vector::miss(&GITHUB_FINE_GRAINED_PAT, "github_pat_byTTvbQBKf3gd8xYLPdgwP8kBRh4LcKgPSyogw2s truncated"),
];
