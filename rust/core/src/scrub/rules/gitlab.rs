//! GitLab: gitlab-pat, gitlab-token, gitlab-session-cookie.

use super::{Family, RuleDef, Vector};

// Legacy tokens are 20 chars, routable ones 27–300 plus `.` and 9 chars; like GitLab's
// own runner sanitizer we take any length from 20 on.
pub const GITLAB_PAT: RuleDef = RuleDef::token(
    "gitlab-pat",
    "GitLab personal access token (glpat-, legacy and routable)",
    &["glpat-"],
    r"glpat-[0-9A-Za-z_-]{20,}(?:\.[0-9a-z]{9})?",
    400,
)
.right_guard("[0-9A-Za-z_-]")
.overflow("[0-9A-Za-z_.-]");

pub const GITLAB_TOKEN: RuleDef = RuleDef::token(
    "gitlab-token",
    "GitLab deploy, runner, trigger, CI job, feed, mail, agent, OAuth, SCIM, feature-flag and runner-registration tokens",
    &[
        "gldt-", "glrt-", "glrtr-", "glptt-", "glcbt-", "glft-", "glimt-", "glagent-",
        "gloas-", "glsoat-", "glffct-", "gltok-", "GR1348941",
    ],
    r"(?:gl(?:dt|rtr?|ptt|ft|imt|agent|oas|soat|ffct|tok)-|glcbt-[0-9A-Za-z]{1,5}_|GR1348941)[0-9A-Za-z_-]{20,}(?:\.[0-9a-z]{9})?",
    400,
)
.right_guard("[0-9A-Za-z_-]")
.overflow("[0-9A-Za-z_.-]");

pub const GITLAB_SESSION_COOKIE: RuleDef = RuleDef::token(
    "gitlab-session-cookie",
    "GitLab session cookie (_gitlab_session=, value redacted)",
    &["_gitlab_session="],
    r"_gitlab_session=(?P<secret>[0-9a-f]{32})",
    48,
)
.left_guard("");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "GitLab",
    source: "GL, TH, DS, GR",
    rules: &[GITLAB_PAT, GITLAB_TOKEN, GITLAB_SESSION_COOKIE],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &GITLAB_PAT,
        "git remote set-url origin https://oauth2@gitlab.com/acme/app.git # PAT glpat-GLlB8NQH_n2SqewSs_JZ",
        "git remote set-url origin https://oauth2@gitlab.com/acme/app.git # PAT [REDACTED:gitlab-pat]",
    ),
    Vector::hit(
        &GITLAB_PAT,
        "{\"name\": \"ci\", \"pat\": \"glpat-JSxKXLqHFYDxe7mxYMDr9rzn9L8sRZzRm5OJfCxD.plqqtds25\", \"scopes\": [\"api\"]}",
        "{\"name\": \"ci\", \"pat\": \"[REDACTED:gitlab-pat]\", \"scopes\": [\"api\"]}",
    ),
    Vector::miss(&GITLAB_PAT, "glpat-SjnuLevWupNmZ708STN one short"),
    Vector::miss(&GITLAB_PAT, "xglpat-NGxu3hr0605mMmlvWKAW"),
    Vector::hit(
        &GITLAB_TOKEN,
        "docker login registry.gitlab.com -u deployer -p gldt-9Dk085mqVUv7fDcOsT9A",
        "docker login registry.gitlab.com -u deployer -p [REDACTED:gitlab-token]",
    ),
    Vector::hit(
        &GITLAB_TOKEN,
        "Registering runner... succeeded  runner=glrt-t1_33YWdbgyOupjpxE9LGOz89ri7rM.3o8bvsext",
        "Registering runner... succeeded  runner=[REDACTED:gitlab-token]",
    ),
    Vector::hit(
        &GITLAB_TOKEN,
        "gitlab-runner register --registration-token GR1348941wf5AMZEvhASYudybGaTZ",
        "gitlab-runner register --registration-token [REDACTED:gitlab-token]",
    ),
    Vector::hit(
        &GITLAB_TOKEN,
        "curl -X POST --fail -F ref=main https://gitlab.example.com/api/v4/projects/9/trigger/pipeline -F pipeline=glptt-dfe1a56f1ebcff54bc10f0a623c3202900bee7dd",
        "curl -X POST --fail -F ref=main https://gitlab.example.com/api/v4/projects/9/trigger/pipeline -F pipeline=[REDACTED:gitlab-token]",
    ),
    Vector::miss(&GITLAB_TOKEN, "gldt-XH7iqjF2uqISF8z7GIq"),
    Vector::miss(&GITLAB_TOKEN, "the glrt- prefix marks runner tokens"),
    Vector::hit(
        &GITLAB_SESSION_COOKIE,
        "Cookie: _gitlab_session=ff9e7f87fdf24f9d82344fb126f5545a; known_sign_in=1",
        "Cookie: _gitlab_session=[REDACTED:gitlab-session-cookie]; known_sign_in=1",
    ),
    Vector::hit(
        &GITLAB_SESSION_COOKIE,
        "curl -b '_gitlab_session=7947336c8b535f8f9ed0de997f57f92b' https://gitlab.example.com/",
        "curl -b '_gitlab_session=[REDACTED:gitlab-session-cookie]' https://gitlab.example.com/",
    ),
    Vector::miss(&GITLAB_SESSION_COOKIE, "_gitlab_session=0c820db5eb54ff43728df5af6c832d0;"),
    Vector::miss(&GITLAB_SESSION_COOKIE, "_gitlab_session=32f51afb932f8c455df7dcd51ecc2b56c"),
];
