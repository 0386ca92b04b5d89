//! The built-in credential rules: one entry per credential family, each with a stable ID.
//!
//! How a rule matches (the engine in `stream.rs` relies on exactly this):
//! - the prefilter finds an occurrence of one of the rule's `keywords` (ASCII
//!   case-insensitive);
//! - the match starts at the keyword, or, for rules with `before`, at the start of the
//!   run of `before.class` bytes that ends at the keyword (its length must lie in
//!   `before.min..=before.max`);
//! - `pattern` is run anchored at that start (bytes, no Unicode classes, no look-around)
//!   and the *last* match end it reports before it can no longer match is taken, provided
//!   the byte after that end is not in `right_guard` (or the stream ended there);
//! - a match may not start right after a byte in `left_guard`;
//! - only the span of the first participating group whose name starts with `secret` is
//!   replaced, or the whole match when the pattern has no such group;
//! - a match still growing after `max_len` bytes is redacted up to there, and the bytes
//!   that follow are swallowed while they are in `overflow` (never released).
//!
//! Classes (`left_guard`, `right_guard`, `overflow`, `before.class`) are regex bracket
//! expressions such as `[A-Za-z0-9_]`; the empty string means "no class".

/// How a rule decides: the three tiers of the contract (D4), plus user rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Prefixed or fixed-format tokens, redacted unconditionally.
    Token,
    /// A generic value made a secret by a nearby keyword; checked against placeholders.
    Context,
    /// A literal secret registered at run time, or one of its encodings.
    Literal,
    /// A rule from the user's rules file.
    Custom,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Token => "token",
            Tier::Context => "context",
            Tier::Literal => "literal",
            Tier::Custom => "custom",
        }
    }
}

/// Bytes of a match that precede its keyword (for formats whose literal is not a prefix).
#[derive(Clone, Copy, Debug)]
pub struct Before {
    pub class: &'static str,
    pub min: usize,
    pub max: usize,
}

/// A built-in rule, as written in the table below.
#[derive(Clone, Copy, Debug)]
pub struct RuleDef {
    pub id: &'static str,
    pub tier: Tier,
    pub description: &'static str,
    pub keywords: &'static [&'static str],
    pub pattern: &'static str,
    pub before: Option<Before>,
    pub left_guard: &'static str,
    pub right_guard: &'static str,
    pub max_len: usize,
    pub overflow: &'static str,
}

/// Word characters: the usual guard on both sides of a fixed-format token.
const W: &str = "[A-Za-z0-9_]";

impl RuleDef {
    /// A prefixed token: keyword at the start, guarded by word characters on both sides.
    const fn token(
        id: &'static str,
        description: &'static str,
        keywords: &'static [&'static str],
        pattern: &'static str,
        max_len: usize,
    ) -> RuleDef {
        RuleDef {
            id,
            tier: Tier::Token,
            description,
            keywords,
            pattern,
            before: None,
            left_guard: W,
            right_guard: W,
            max_len,
            overflow: "",
        }
    }

    /// A keyword-anchored generic value: the pattern starts at the keyword and puts the
    /// value in a `secret…` group, so the key stays visible; no guards by default.
    const fn context(
        id: &'static str,
        description: &'static str,
        keywords: &'static [&'static str],
        pattern: &'static str,
        max_len: usize,
    ) -> RuleDef {
        RuleDef {
            id,
            tier: Tier::Context,
            description,
            keywords,
            pattern,
            before: None,
            left_guard: "",
            right_guard: "",
            max_len,
            overflow: "",
        }
    }

    /// The same rule with another right guard ("" for none).
    const fn right_guard(self, class: &'static str) -> RuleDef {
        RuleDef {
            right_guard: class,
            ..self
        }
    }

    /// The same rule with another left guard ("" for none).
    const fn left_guard(self, class: &'static str) -> RuleDef {
        RuleDef {
            left_guard: class,
            ..self
        }
    }

    /// The same rule with an overflow class (for open-ended values capped by `max_len`).
    const fn overflow(self, class: &'static str) -> RuleDef {
        RuleDef {
            overflow: class,
            ..self
        }
    }

    /// The same rule matching from a run of `class` bytes before the keyword.
    const fn before(self, class: &'static str, min: usize, max: usize) -> RuleDef {
        RuleDef {
            before: Some(Before { class, min, max }),
            ..self
        }
    }
}

// Conventions used by the patterns below.
// - Sources, as in the redaction reference: GL gitleaks, TH TruffleHog, NP Nosey Parker,
//   DS detect-secrets, MS microsoft/security-utilities, GR gitlab-runner.
// - Fixed-length tokens use the exact length and a right guard, so a token one character
//   too long is left alone; open-ended ones use `+`/`{n,}`, `max_len` and `overflow`.
// - Under leftmost-first, an alternation lists its longer alternative first when both
//   share a prefix (otherwise the shorter one would end the match early).
// - Context rules put the value in `secret…` groups: `KEY`, then `(?:\\?["'])?` (the closing
//   quote of a JSON or JSON-in-JSON key), then one of
//     `=value` with no spaces (env and CLI style): any value of 4+ (8+) word-ish bytes;
//     a spaced `=`, `:`, `:=`, `=>` and a quoted value ("…", '…', \"…\"); the match takes
//     the closing quote and any `,)}` after it, so the right guard below never sees them;
//     the same and an unquoted value, which must contain a digit (or, for passwords, a
//     symbol) and start with a letter or digit, so type annotations, `None` and bare or
//     dotted identifiers (`password: str`, `token: u32`, `self.password = password`) fail;
//     `>value<` (XML elements such as Maven's `<password>…</password>`).
//   Unquoted values stop at whitespace, quotes, backticks and `,;<>(){}[]&\`; the right
//   guard `[(\[<,)}]` rejects a value that is really a call, an index, a generic type, a
//   keyword argument (`password=password,`) or a struct-literal field.

/// The built-in rules, in priority order (earlier wins a tie between equally long matches
/// starting at the same byte).
pub static BUILTIN: &[RuleDef] = &[
    // ---- 1–4 AWS (GL, DS, NP) ------------------------------------------------------------
    RuleDef::token(
        "aws-access-key-id",
        "AWS access key ID (AKIA/ASIA/ABIA/ACCA/A3T…, 20 chars)",
        &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}",
        20,
    ),
    RuleDef::context(
        "aws-secret-access-key",
        "AWS secret access key (40 chars) after aws_secret_access_key / SecretAccessKey",
        &["secret_access_key", "secret-access-key", "secretaccesskey", "aws_secret_key"],
        r#"(?i:secret[_-]?access[_-]?key|aws_secret_key)(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9/+=]{40})"#,
        127,
    )
    .right_guard("[A-Za-z0-9/+=]"),
    RuleDef::context(
        "aws-session-token",
        "AWS session token after aws_session_token / SessionToken / X-Amz-Security-Token",
        &["aws_session_token", "sessiontoken", "x-amz-security-token"],
        r#"(?i:aws_session_token|sessiontoken|x-amz-security-token)(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9/+=]{16,})"#,
        4096,
    )
    .overflow("[A-Za-z0-9/+=]"),
    RuleDef::token(
        "aws-bedrock-api-key",
        "Amazon Bedrock API key: long-lived ABSK… or short-lived bedrock-api-key-…",
        &["ABSK", "bedrock-api-key-"],
        r"ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]*={0,2}",
        4096,
    )
    .right_guard("[A-Za-z0-9+/=]")
    .overflow("[A-Za-z0-9+/=]"),
    // ---- 5–7 GitHub (GL) -----------------------------------------------------------------
    RuleDef::token(
        "github-pat",
        "GitHub classic personal access token (ghp_, 40 chars)",
        &["ghp_"],
        r"ghp_[0-9A-Za-z]{36}",
        40,
    ),
    RuleDef::token(
        "github-oauth",
        "GitHub OAuth access token (gho_, 40 chars)",
        &["gho_"],
        r"gho_[0-9A-Za-z]{36}",
        40,
    ),
    RuleDef::token(
        "github-app-token",
        "GitHub App user-to-server / server-to-server token (ghu_/ghs_, 40 chars)",
        &["ghu_", "ghs_"],
        r"gh[us]_[0-9A-Za-z]{36}",
        40,
    ),
    RuleDef::token(
        "github-refresh-token",
        "GitHub refresh token (ghr_, 40 or 80 chars)",
        &["ghr_"],
        r"ghr_(?:[0-9A-Za-z]{76}|[0-9A-Za-z]{36})",
        80,
    ),
    RuleDef::token(
        "github-fine-grained-pat",
        "GitHub fine-grained personal access token (github_pat_, 93 chars)",
        &["github_pat_"],
        r"github_pat_[0-9A-Za-z_]{82}",
        93,
    ),
    // ---- 8–9 GitLab (GL, TH, DS, GR) ------------------------------------------------------
    // Legacy tokens are 20 chars, routable ones 27–300 plus `.` and 9 chars; like GitLab's
    // own runner sanitizer we take any length from 20 on.
    RuleDef::token(
        "gitlab-pat",
        "GitLab personal access token (glpat-, legacy and routable)",
        &["glpat-"],
        r"glpat-[0-9A-Za-z_-]{20,}(?:\.[0-9a-z]{9})?",
        400,
    )
    .right_guard("[0-9A-Za-z_-]")
    .overflow("[0-9A-Za-z_.-]"),
    RuleDef::token(
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
    .overflow("[0-9A-Za-z_.-]"),
    RuleDef::token(
        "gitlab-session-cookie",
        "GitLab session cookie (_gitlab_session=, value redacted)",
        &["_gitlab_session="],
        r"_gitlab_session=(?P<secret>[0-9a-f]{32})",
        48,
    )
    .left_guard(""),
    // ---- 10–13 Slack (GL, TH) -------------------------------------------------------------
    RuleDef::token(
        "slack-bot-token",
        "Slack bot token (xoxb-)",
        &["xoxb-"],
        r"xoxb-[0-9]{8,14}-[0-9A-Za-z-]{18,}",
        256,
    )
    .overflow("[0-9A-Za-z-]"),
    RuleDef::token(
        "slack-user-token",
        "Slack user token (xoxp-)",
        &["xoxp-"],
        r"xoxp-[0-9]{8,14}-[0-9A-Za-z-]{18,}",
        256,
    )
    .overflow("[0-9A-Za-z-]"),
    RuleDef::token(
        "slack-legacy-token",
        "Slack legacy workspace, bot and user tokens (xoxa-, xoxr-, xoxo-, xoxs-)",
        &["xoxa-", "xoxr-", "xoxo-", "xoxs-"],
        r"xox[aors]-[0-9A-Za-z-]{10,}",
        256,
    )
    .overflow("[0-9A-Za-z-]"),
    RuleDef::token(
        "slack-config-token",
        "Slack configuration access and refresh tokens (xoxe.xoxb-, xoxe.xoxp-, xoxe-)",
        &["xoxe.xoxb-", "xoxe.xoxp-", "xoxe-"],
        r"xoxe(?:\.xox[bp])?-[0-9]-[0-9A-Za-z]{140,}",
        512,
    )
    .overflow("[0-9A-Za-z]"),
    RuleDef::token(
        "slack-app-token",
        "Slack app-level token (xapp-)",
        &["xapp-"],
        r"xapp-[0-9]-[0-9A-Za-z]+-[0-9]+-[0-9A-Za-z]+",
        256,
    )
    .overflow("[0-9A-Za-z-]"),
    RuleDef::token(
        "slack-webhook",
        "Slack incoming webhook / workflow URL path",
        &["hooks.slack.com/"],
        r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,}",
        320,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9+/]"),
    // ---- 14 Discord (TH, DS): webhooks; bot tokens have no literal, so only after `Bot` --
    RuleDef::token(
        "discord-webhook",
        "Discord webhook URL (id and token)",
        &["discord.com/api/", "discordapp.com/api/"],
        r"discord(?:app)?\.com/api/(?:v[0-9]{1,2}/)?webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,80}",
        133,
    )
    .right_guard("[A-Za-z0-9_-]"),
    RuleDef::context(
        "discord-bot-token",
        "Discord bot token in an `Authorization: Bot …` header",
        &["authorization"],
        r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:bot)[ \t]{1,32}(?P<secret>[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})"#,
        191,
    )
    .right_guard("[A-Za-z0-9_-]"),
    // ---- 15 Microsoft Teams (GL) ----------------------------------------------------------
    RuleDef::token(
        "msteams-webhook",
        "Microsoft Teams incoming webhook URL path",
        &["webhook.office.com/webhookb2/"],
        r"webhook\.office\.com/webhookb2/[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}@[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}/IncomingWebhook/[0-9A-Za-z]{32}/[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}(?:/V2[0-9A-Za-z_-]+)?",
        512,
    )
    .right_guard("")
    .overflow("[0-9A-Za-z_-]"),
    // ---- 16 Stripe (GL, TH) ---------------------------------------------------------------
    RuleDef::token(
        "stripe-secret-key",
        "Stripe secret key (sk_live_/sk_test_/sk_prod_)",
        &["sk_live_", "sk_test_", "sk_prod_"],
        r"sk_(?:live|test|prod)_[0-9A-Za-z]{10,}",
        256,
    )
    .overflow("[0-9A-Za-z]"),
    RuleDef::token(
        "stripe-restricted-key",
        "Stripe restricted key (rk_live_/rk_test_/rk_prod_)",
        &["rk_live_", "rk_test_", "rk_prod_"],
        r"rk_(?:live|test|prod)_[0-9A-Za-z]{10,}",
        256,
    )
    .overflow("[0-9A-Za-z]"),
    // ---- 17–19 OpenAI, Anthropic (GL, TH, NP) ---------------------------------------------
    RuleDef::token(
        "openai-api-key",
        "OpenAI project / service-account / admin key (sk-proj-, sk-svcacct-, sk-admin-, sk-None-)",
        &["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"],
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,}",
        400,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9_-]"),
    // Legacy keys have no longer prefix than `sk-` (also in "task-"): the left guard does
    // the filtering.
    RuleDef::token(
        "openai-legacy-api-key",
        "OpenAI legacy user key (sk- + 20 + T3BlbkFJ + 20)",
        &["sk-"],
        r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}",
        51,
    )
    .right_guard("[A-Za-z0-9_-]"),
    RuleDef::token(
        "anthropic-api-key",
        "Anthropic API key (sk-ant-api03-, 108 chars)",
        &["sk-ant-api03-"],
        r"sk-ant-api03-[A-Za-z0-9_-]{93}AA",
        108,
    )
    .right_guard("[A-Za-z0-9_-]"),
    RuleDef::token(
        "anthropic-admin-key",
        "Anthropic admin API key (sk-ant-admin01-, 110 chars)",
        &["sk-ant-admin01-"],
        r"sk-ant-admin01-[A-Za-z0-9_-]{93}AA",
        110,
    )
    .right_guard("[A-Za-z0-9_-]"),
    RuleDef::token(
        "anthropic-oauth-token",
        "Anthropic OAuth access / refresh token (sk-ant-oat01-, sk-ant-ort01-)",
        &["sk-ant-oat01-", "sk-ant-ort01-"],
        r"sk-ant-o[ar]t01-[A-Za-z0-9_-]{80,}",
        256,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9_-]"),
    // ---- 20–22 Google (GL, NP, TH) --------------------------------------------------------
    RuleDef::token(
        "google-api-key",
        "Google API key (AIza…, 39 chars: Gemini, Maps, Firebase)",
        &["AIza"],
        r"AIza[0-9A-Za-z_-]{35}",
        39,
    )
    .right_guard("[0-9A-Za-z_-]"),
    RuleDef::token(
        "google-oauth-client-secret",
        "Google OAuth client secret (GOCSPX-, 35 chars)",
        &["GOCSPX-"],
        r"GOCSPX-[0-9A-Za-z_-]{28}",
        35,
    )
    .right_guard("[0-9A-Za-z_-]"),
    RuleDef::token(
        "google-oauth-access-token",
        "Google OAuth access token (ya29.)",
        &["ya29."],
        r"ya29\.[0-9A-Za-z_-]{20,}",
        2048,
    )
    .right_guard("")
    .overflow("[0-9A-Za-z_-]"),
    // ---- 23–26 Private keys (GL, DS, NP, TH) ----------------------------------------------
    // 23 (GCP service-account JSON) is covered here: its "private_key" is a \n-escaped PEM.
    // After the BEGIN line come either armour headers (encrypted PKCS#1, PGP) or a base64
    // run of 16+ bytes; then the rest of the block through its END line (the body class
    // stops it at bytes no key contains) or, for a block cut short (`head`, truncated
    // output), the base64 lines that follow. Lines end in real or \n-escaped newlines.
    RuleDef {
        id: "private-key-pem",
        tier: Tier::Token,
        description: "PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, PGP), real or \\n-escaped newlines, whole or truncated",
        keywords: &["-----BEGIN"],
        pattern: concat!(
            r#"-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----"#,
            r#"(?:(?:(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n))+[ \t]*(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):[^\r\n\\]*)+"#,
            r#"|(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n)|[ \t])+[ \t]*[A-Za-z0-9+/=]{16})"#,
            r#"(?:[A-Za-z0-9+/=\s\\:,.@"()_-]*?-----END[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----"#,
            r#"|[A-Za-z0-9+/=]*(?:(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n)|[ \t])+[ \t]*[A-Za-z0-9+/=]{16,})*)"#,
        ),
        before: None,
        left_guard: "",
        right_guard: "",
        max_len: 16384,
        overflow: r"[A-Za-z0-9+/=\\\r\n]",
    },
    RuleDef {
        id: "putty-private-key",
        tier: Tier::Token,
        description: "PuTTY private key file (PuTTY-User-Key-File-2/3), whole or truncated",
        keywords: &["PuTTY-User-Key-File-"],
        pattern: r#"PuTTY-User-Key-File-[1-3]:[^\r\n\\]*(?:[A-Za-z0-9+/=\s\\:,.@"()_-]*?Private-MAC:[ \t]*[0-9A-Fa-f]+|(?:(?:\r?\n|(?:\\+r)?\\+n)(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n\\]*|[A-Za-z0-9+/=]+))+)"#,
        before: None,
        left_guard: "",
        right_guard: "",
        max_len: 16384,
        overflow: r"[A-Za-z0-9+/=\\\r\n]",
    },
    RuleDef::token(
        "age-secret-key",
        "age encryption secret key (AGE-SECRET-KEY-1…, bech32)",
        &["AGE-SECRET-KEY-1"],
        r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
        74,
    ),
    // ---- 27 JWT (GL, NP): Kubernetes service-account tokens, Supabase keys, ID tokens ----
    RuleDef::token(
        "jwt",
        "JSON Web Token (eyJ….eyJ….signature)",
        &["eyJ"],
        // A backslash only as the JSON escape of a slash (`\/`): in `…<jwt>\nnext` the
        // `\n` ends the token instead of being swallowed with the next word.
        r"eyJ[A-Za-z0-9_-]{15,}\.eyJ(?:[A-Za-z0-9_/-]|\\/){15,}\.(?:(?:[A-Za-z0-9_/+-]|\\/){10,}={0,2})?",
        8192,
    )
    .right_guard("")
    .overflow(r"[A-Za-z0-9_/+=.-]"),
    // ---- 28 HTTP authorization (NP, GL curl rules) ----------------------------------------
    RuleDef::context(
        "http-bearer",
        "Authorization: Bearer / token … header value (8+ bytes with a digit)",
        &["authorization"],
        r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:bearer|token)[ \t]{1,32}(?P<secret>[A-Za-z0-9._~+/_-]{7,}[0-9][A-Za-z0-9._~+/_-]*=*|[A-Za-z0-9._~+/_-]{0,7}[0-9][A-Za-z0-9._~+/_-]{7,}=*)"#,
        8192,
    )
    .overflow("[A-Za-z0-9._~+/=_-]"),
    // Not checked: that the base64 decodes to `user:password` (a `:` in printable bytes).
    // That needs a per-rule validator; the placeholder guard is shared by every context
    // rule and must not reject other rules' base64 values.
    RuleDef::context(
        "http-basic",
        "Authorization: Basic … header value (padded base64 of user:password, 8+ chars)",
        &["authorization"],
        r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:basic)[ \t]{1,32}(?P<secret>(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)"#,
        2048,
    )
    .right_guard("[A-Za-z0-9+/=]")
    .overflow("[A-Za-z0-9+/=]"),
    // The password is 3+ bytes and not only digits (`-u 1000:1000`); the guard leaves
    // example values (`user:pass`, `foo:bar`, `root:root`) and gsutil ACL roles
    // (`-u user@example.com:READ`, `:FULL_CONTROL`). `docker -u app:app` (user:group with
    // equal names) is still redacted: the guard cannot see the user name.
    RuleDef::context(
        "curl-user-password",
        "password of `-u user:password` / `--user user:password` (curl, wget, httpie)",
        &["-u ", "--user"],
        r#"(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'$]{1,128}:(?P<secret>[0-9]{0,64}[^\s"'0-9][^\s"']{2,256}|[^\s"']{2,256}[^\s"'0-9])"#,
        465,
    )
    .left_guard(W),
    // ---- 29 Credentials in URLs and DB URIs (NP, TH): only the password ------------------
    // A password of one or two bytes (`http://a:b@host`) is an example, not a secret. The
    // guard leaves well-known example values (`user:pass`, `foo:bar`, `postgres:postgres`,
    // `root:root`); a password equal to any other user name (`app:app`) is still redacted,
    // since the guard sees the password alone and the pattern cannot compare the two.
    RuleDef::context(
        "url-userinfo",
        "password in scheme://user:password@host (postgres, mysql, mongodb, redis, amqp, http…)",
        &["://"],
        r#"://[^\s:@/?#"'<>\\{}]{0,256}:(?P<secret>[^\s/?#"'<>\\{}]{3,256})@"#,
        517,
    ),
    // ---- 30 netrc (NP); ODBC / .NET connection strings: see connection-string-password ----
    RuleDef::context(
        "netrc-password",
        "password in a netrc entry (machine … login … password …)",
        &["machine"],
        r"machine[ \t\r\n]{1,32}\S{1,256}(?:[ \t\r\n]{1,32}(?:login|account|port)[ \t\r\n]{1,32}\S{1,256}){1,3}[ \t\r\n]{1,32}password[ \t\r\n]{1,32}(?P<secret>\S{1,256})",
        1604,
    ),
    // ---- 31 Azure storage / Service Bus / SAS (DS, NP) ------------------------------------
    RuleDef::context(
        "azure-storage-key",
        "Azure storage account key (88 chars) after AccountKey= / storage_key",
        &["accountkey", "account_key", "storagekey", "storage_key"],
        r#"(?i:account_?key|storage_?key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9+/]{86}==)"#,
        168,
    )
    .right_guard("[A-Za-z0-9+/=]"),
    RuleDef::context(
        "azure-shared-access-key",
        "Azure Service Bus / Event Hubs / IoT SharedAccessKey=",
        &["sharedaccesskey"],
        r"(?i:sharedaccesskey)[ \t]{0,32}=[ \t]{0,32}(?P<secret>[A-Za-z0-9+/]{20,100}={0,2})",
        182,
    )
    .right_guard("[A-Za-z0-9+/=]"),
    RuleDef::context(
        "azure-sas-token",
        "signature (sig=) of an Azure shared access signature URL or connection string",
        &["?sig=", "&sig="],
        r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,}={0,2})",
        512,
    )
    .overflow("[A-Za-z0-9%+/=]"),
    // ---- 32–33 Entra ID, Azure DevOps (GL, TH, MS, NP) ------------------------------------
    RuleDef {
        id: "azure-ad-client-secret",
        tier: Tier::Token,
        description: "Azure AD / Entra client secret (…Q~…)",
        keywords: &["Q~"],
        pattern: r"[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34}",
        before: Some(Before { class: "[a-zA-Z0-9_~.]", min: 4, max: 4 }),
        left_guard: "",
        right_guard: "[a-zA-Z0-9_~.-]",
        max_len: 40,
        overflow: "",
    },
    RuleDef::token(
        "azure-devops-pat",
        "Azure DevOps personal access token, identifiable format (76 + AZDO + 4, 84 chars)",
        &["AZDO"],
        r"[a-zA-Z0-9]{76}AZDO[a-zA-Z0-9]{4}",
        84,
    )
    .before("[a-zA-Z0-9]", 76, 76),
    RuleDef::context(
        "azure-devops-pat-legacy",
        "Azure DevOps legacy PAT (52 lowercase alphanumerics) after a devops / ado key",
        &["devops", "ado_pat", "ado_token", "azdo_pat", "azdo_token"],
        r#"(?i:devops|ado_pat|ado_token|azdo_pat|azdo_token)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[a-z0-9]{52})"#,
        164,
    )
    .right_guard("[A-Za-z0-9]"),
    // ---- 34–37 Package registries (GL, TH, NP, DS, MS) ------------------------------------
    RuleDef::token(
        "npm-token",
        "npm access token (npm_, 40 chars)",
        &["npm_"],
        r"npm_[A-Za-z0-9]{36}",
        40,
    ),
    RuleDef::token(
        "pypi-token",
        "PyPI / TestPyPI upload token (pypi-AgE… macaroon)",
        &["pypi-AgE"],
        r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}",
        1024,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9_-]"),
    RuleDef::token(
        "rubygems-api-key",
        "RubyGems API key (rubygems_ + 48 hex)",
        &["rubygems_"],
        r"rubygems_[0-9a-f]{48}",
        57,
    ),
    RuleDef::token(
        "nuget-api-key",
        "NuGet API key (oy2 + 43 base32)",
        &["oy2"],
        r"oy2[a-z2-7]{43}",
        46,
    ),
    RuleDef::token(
        "docker-hub-token",
        "Docker Hub personal / organization access token (dckr_pat_, dckr_oat_)",
        &["dckr_pat_", "dckr_oat_"],
        r"dckr_(?:pat_[A-Za-z0-9_-]{27}|oat_[A-Za-z0-9_-]{32})",
        41,
    )
    .right_guard("[A-Za-z0-9_-]"),
    // ---- 38–43 AI platforms (GL, TH, NP) --------------------------------------------------
    RuleDef::token(
        "huggingface-token",
        "Hugging Face user or organization token (hf_, api_org_ + 34)",
        &["hf_", "api_org_"],
        r"(?:hf_|api_org_)[A-Za-z0-9]{34}",
        42,
    ),
    RuleDef::token(
        "groq-api-key",
        "Groq API key (gsk_ + 52)",
        &["gsk_"],
        r"gsk_[A-Za-z0-9]{52}",
        56,
    ),
    RuleDef::token(
        "openrouter-api-key",
        "OpenRouter API key (sk-or-v1- + 64 hex)",
        &["sk-or-v1-"],
        r"sk-or-v1-[0-9a-f]{64}",
        73,
    ),
    RuleDef::token(
        "xai-api-key",
        "xAI API key (xai- + 80)",
        &["xai-"],
        r"xai-[0-9A-Za-z_]{80}",
        84,
    ),
    RuleDef::token(
        "replicate-api-token",
        "Replicate API token (r8_ + 37)",
        &["r8_"],
        r"r8_[0-9A-Za-z_-]{37}",
        40,
    )
    .right_guard("[0-9A-Za-z_-]"),
    RuleDef::token(
        "perplexity-api-key",
        "Perplexity API key (pplx- + 48)",
        &["pplx-"],
        r"pplx-[A-Za-z0-9]{48}",
        53,
    ),
    RuleDef::token(
        "langsmith-api-key",
        "LangSmith personal / service key (lsv2_pt_, lsv2_sk_)",
        &["lsv2_pt_", "lsv2_sk_"],
        r"lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}",
        51,
    ),
    RuleDef::token(
        "pinecone-api-key",
        "Pinecone API key (pcsk_)",
        &["pcsk_"],
        r"pcsk_[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}",
        75,
    ),
    // ---- 44 Email and messaging: one rule per vendor (GL, NP, DS) -------------------------
    RuleDef::token(
        "sendgrid-api-key",
        "SendGrid API key (SG.22.43)",
        &["SG."],
        r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
        69,
    )
    .right_guard("[A-Za-z0-9_-]"),
    // `SK` is short and frequent ("task", "ask"): the left guard rejects those cheaply.
    RuleDef::token(
        "twilio-api-key",
        "Twilio API key SID (SK + 32 hex)",
        &["SK"],
        r"SK[0-9a-fA-F]{32}",
        34,
    ),
    RuleDef::context(
        "mailgun-api-key",
        "Mailgun private API key (key-… or 32-8-8 hex) after a mailgun key",
        &["mailgun"],
        r#"(?i:mailgun)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})"#,
        159,
    )
    .right_guard(W),
    RuleDef::token(
        "mailchimp-api-key",
        "Mailchimp API key (32 hex + -usN)",
        &["-us"],
        r"[0-9a-f]{32}-us[0-9]{1,2}",
        37,
    )
    .before("[0-9a-f]", 32, 32),
    // ---- 45 Shopify (GL, NP) --------------------------------------------------------------
    RuleDef::token(
        "shopify-token",
        "Shopify access / custom-app / private-app token or shared secret (shpat_, shpca_, shppa_, shpss_)",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}",
        38,
    ),
    // ---- 46 Cloud platforms: one rule per vendor (GL) -------------------------------------
    RuleDef::token(
        "digitalocean-token",
        "DigitalOcean personal / OAuth / refresh token (dop_v1_, doo_v1_, dor_v1_)",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"do[opr]_v1_[0-9a-f]{64}",
        71,
    ),
    RuleDef::token(
        "databricks-api-token",
        "Databricks API token (dapi + 32 hex)",
        &["dapi"],
        r"dapi[0-9a-f]{32}(?:-[0-9])?",
        38,
    ),
    RuleDef::token(
        "heroku-api-key",
        "Heroku API key, v2 format (HRKU-AA…)",
        &["HRKU-AA"],
        r"HRKU-AA[0-9A-Za-z_-]{58}",
        65,
    )
    .right_guard("[0-9A-Za-z_-]"),
    // ---- 47 Secret managers: one rule per vendor (GL, NP) ---------------------------------
    // Vault's legacy `s.` tokens have no usable literal; VAULT_TOKEN= catches them through
    // secret-assignment.
    RuleDef::token(
        "vault-token",
        "HashiCorp Vault service / batch token (hvs., hvb.)",
        &["hvs.", "hvb."],
        r"hvs\.[A-Za-z0-9_-]{24,}|hvb\.[A-Za-z0-9_-]{100,}",
        512,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9_-]"),
    RuleDef::token(
        "terraform-cloud-token",
        "Terraform Cloud / Enterprise API token (….atlasv1.…)",
        &[".atlasv1."],
        r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}",
        93,
    )
    .before("[A-Za-z0-9]", 14, 14)
    .right_guard("[A-Za-z0-9_=-]"),
    RuleDef::token(
        "doppler-token",
        "Doppler personal / service / CLI / service-account / SCIM / audit token (dp.pt. …)",
        &["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
        r"dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,32}\.)?[A-Za-z0-9]{40,44}",
        86,
    ),
    RuleDef::token(
        "1password-service-account-token",
        "1Password service account token (ops_eyJ…)",
        &["ops_eyJ"],
        r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}",
        4096,
    )
    .right_guard("")
    .overflow("[A-Za-z0-9+/=]"),
    // ---- 48 Developer platforms: one rule per vendor (GL, TH, NP, DS) ---------------------
    RuleDef::token(
        "linear-api-key",
        "Linear API key (lin_api_ + 40)",
        &["lin_api_"],
        r"lin_api_[A-Za-z0-9]{40}",
        48,
    ),
    RuleDef::token(
        "notion-token",
        "Notion integration token (ntn_ + 46, legacy secret_ + 43)",
        &["ntn_", "secret_"],
        r"ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43}",
        50,
    ),
    RuleDef::token(
        "postman-api-key",
        "Postman API key (PMAK-24-34)",
        &["PMAK-"],
        r"PMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}",
        64,
    ),
    RuleDef::token(
        "sentry-token",
        "Sentry user auth token (sntryu_) or organization token (sntrys_eyJ…)",
        &["sntryu_", "sntrys_"],
        r"sntryu_[0-9a-f]{64}|sntrys_eyJ[A-Za-z0-9+/=]{20,}_[A-Za-z0-9+/]{43}",
        1024,
    )
    .right_guard("[A-Za-z0-9_+/=]")
    .overflow("[A-Za-z0-9_+/=]"),
    RuleDef::token(
        "grafana-token",
        "Grafana service account token (glsa_), Cloud token (glc_) or API key (eyJrIjoi…)",
        &["glsa_", "glc_", "eyJrIjoi"],
        r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,3}|eyJrIjoi[A-Za-z0-9]{70,}={0,3}",
        512,
    )
    .overflow("[A-Za-z0-9+/=]"),
    RuleDef::token(
        "atlassian-api-token",
        "Atlassian API token (ATATT3…, 192 chars)",
        &["ATATT3"],
        r"ATATT3[A-Za-z0-9_=-]{186}",
        192,
    )
    .right_guard("[A-Za-z0-9_=-]"),
    RuleDef::token(
        "tailscale-key",
        "Tailscale auth / API / OAuth key (tskey-<kind>-<id>-<secret>)",
        &["tskey-"],
        r"tskey-(?:[a-z]+-)?[0-9A-Za-z]+-[0-9A-Za-z]{16,}",
        256,
    )
    .overflow("[0-9A-Za-z]"),
    RuleDef::token(
        "supabase-token",
        "Supabase personal access token (sbp_) or secret API key (sb_secret_)",
        &["sbp_", "sb_secret_"],
        r"sbp_[0-9a-f]{40}|sb_secret_[A-Za-z0-9_-]{20,}",
        256,
    )
    .overflow("[A-Za-z0-9_-]"),
    RuleDef::token(
        "netlify-token",
        "Netlify personal access token (nfp_ + 36)",
        &["nfp_"],
        r"nfp_[A-Za-z0-9_]{36}",
        40,
    ),
    RuleDef::token(
        "cloudflare-api-token",
        "Cloudflare user / account API token (cfut_, cfat_)",
        &["cfut_", "cfat_"],
        r"cf[ua]t_[A-Za-z0-9]{40}[a-f0-9]{8}",
        53,
    ),
    RuleDef::token(
        "cloudflare-origin-ca-key",
        "Cloudflare Origin CA key (v1.0-24-146 hex)",
        &["v1.0-"],
        r"v1\.0-[0-9a-f]{24}-[0-9a-f]{146}",
        176,
    ),
    RuleDef::token(
        "flyio-token",
        "Fly.io access token (fo1_, fm1a_, fm1r_, fm2_ macaroons)",
        &["fo1_", "fm1a_", "fm1r_", "fm2_"],
        r"fo1_[A-Za-z0-9_-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}|fm2_[A-Za-z0-9+/]{100,}={0,3}",
        4096,
    )
    .right_guard("[A-Za-z0-9_-]")
    .overflow("[A-Za-z0-9+/=]"),
    RuleDef::token(
        "elevenlabs-api-key",
        "ElevenLabs API key (sk_ + 48 hex)",
        &["sk_"],
        r"sk_[0-9a-f]{48}",
        51,
    ),
    RuleDef::token(
        "pulumi-api-token",
        "Pulumi access token (pul- + 40 hex)",
        &["pul-"],
        r"pul-[0-9a-f]{40}",
        44,
    ),
    RuleDef::token(
        "square-token",
        "Square access token (sq0atp-, EAAA…) or OAuth secret (sq0csp-)",
        &["sq0atp-", "sq0csp-", "EAAA"],
        r"(?:sq0atp-|EAAA)[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43}",
        67,
    )
    // `EAAA` also occurs inside base64 blobs, hence `+/=` in both guards.
    .left_guard("[A-Za-z0-9_+/-]")
    .right_guard("[A-Za-z0-9_+/=-]"),
    RuleDef::context(
        "telegram-bot-token",
        "Telegram bot token after a telegram key or in an api.telegram.org/bot… URL",
        &["telegram"],
        r#"(?i:telegram)(?:[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret1>[0-9]{5,16}:A[A-Za-z0-9_-]{34})|\.org/bot(?P<secret2>[0-9]{5,16}:A[A-Za-z0-9_-]{34}))"#,
        162,
    )
    .right_guard("[A-Za-z0-9_-]"),
    // ---- Generic assignments (Tier::Context; NP "Generic Password/Secret", GL generic) ----
    RuleDef {
        id: "password-assignment",
        tier: Tier::Context,
        description: "password=/password:/DB_PASSWORD=\"…\"/<password>…< assignments (value redacted, key kept)",
        keywords: &["password", "passwd", "pwd"],
        pattern: concat!(
            r#"(?i:password|passwd|pwd)(?i:[_.-]?(?:[0-9]|confirm(?:ation)?|plain(?:text)?|value|str|string))?"#,
            // <password>value</password>
            r#"(?:>(?P<secret1>[^<>\s"'(){}]+)<"#,
            r#"|(?:\\?["'])?(?:"#,
            // PASSWORD=value (no spaces): 4+ bytes
            r#"=(?P<secret2>\w[^\s"'`,;<>(){}\[\]&\\]{3,})"#,
            r#"|[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:"#,
            // quoted: anything that does not start with whitespace
            r#""(?P<secret3>(?:[^"\\\s]|\\[^\r\n])(?:[^"\\\r\n]|\\[^\r\n])*)"[,)}]{0,16}"#,
            r#"|'(?P<secret4>[^'\s][^'\r\n]*)'[,)}]{0,16}"#,
            r#"|\\"(?P<secret5>[^"\\\s][^"\\\r\n]*)\\"[,)}]{0,16}"#,
            // unquoted: 6+ bytes, starts alphanumeric, has a digit or one of !#$%*+=?@^|~
            r#"|(?P<secret6>[A-Za-z0-9][^\s"'`,;<>(){}\[\]&\\]{4,}[0-9!#$%*+=?@^|~][^\s"'`,;<>(){}\[\]&\\]*"#,
            r#"|[A-Za-z0-9][^\s"'`,;<>(){}\[\]&\\]{0,4}[0-9!#$%*+=?@^|~][^\s"'`,;<>(){}\[\]&\\]{4,}))))"#,
        ),
        before: None,
        left_guard: "[/]",
        right_guard: r"[(\[<,)}]",
        max_len: 512,
        overflow: r"[^\s]",
    },
    // Values with spaces or braces, ended by `;` (the right guard lets only `;` or the end
    // of the stream follow); simple values are left to password-assignment, which wins
    // the tie by coming first.
    RuleDef::context(
        "connection-string-password",
        "Password=/Pwd= in an ODBC / ADO.NET / JDBC connection string, up to `;`",
        &["password=", "pwd="],
        r#"(?i:password|pwd)=(?:\{(?P<secret1>[^}\r\n]{1,256})\}|(?P<secret2>\w[^\r\n"'`,;<>(){}\[\]&\\]{0,254}[^\s"'`,;<>(){}\[\]&\\]))"#,
        267,
    )
    .right_guard("[^;]"),
    // Token-like values: at least one byte that is not a letter, `_` or `.` (so `NextToken`,
    // `next_token`, `SA_ACCESS_TOKEN`, `string.quoted` fail) and 5+ bytes. Each is written
    // `X{4,}ZX*|X{0,4}ZX{4,}` (Z the required byte): every such value of 9+ bytes matches,
    // none under 5 does (an exact "8+ bytes" costs a 3.6 MB DFA).
    RuleDef::context(
        "secret-assignment",
        "secret=/token:/api_key=/access_key=/client_secret:/<token>…< assignments (value redacted, key kept)",
        &["secret", "token", "api_key", "apikey", "api-key", "access_key", "accesskey", "access-key"],
        concat!(
            r#"(?i:secret|token|api[_-]?key|access[_-]?key)(?i:[_.-]?(?:key|token|secret|value|base)){0,2}"#,
            // <token>value</token>
            r#"(?:>(?P<secret1>[^<>\s"'(){}]{4,}[^<>\s"'(){}A-Za-z_.][^<>\s"'(){}]*|[^<>\s"'(){}]{0,4}[^<>\s"'(){}A-Za-z_.][^<>\s"'(){}]{4,})<"#,
            r#"|(?:\\?["'])?(?:"#,
            // SECRET=value (no spaces)
            r#"=(?P<secret2>[0-9][^\s"'`,;<>(){}\[\]&\\]{4,}|[A-Za-z_](?:[^\s"'`,;<>(){}\[\]&\\]{3,}[^\s"'`,;<>(){}\[\]&\\A-Za-z_.][^\s"'`,;<>(){}\[\]&\\]*|[^\s"'`,;<>(){}\[\]&\\]{0,3}[^\s"'`,;<>(){}\[\]&\\A-Za-z_.][^\s"'`,;<>(){}\[\]&\\]{3,}))"#,
            r#"|[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:"#,
            // quoted, no whitespace, `#` (colours) or braces (templates)
            r#""(?P<secret3>[^"\\\s#{}]{4,}[^"\\\s#{}A-Za-z_.][^"\\\s#{}]*|[^"\\\s#{}]{0,4}[^"\\\s#{}A-Za-z_.][^"\\\s#{}]{4,})"[,)}]{0,16}"#,
            r#"|'(?P<secret4>[^'\\\s#{}]{4,}[^'\\\s#{}A-Za-z_.][^'\\\s#{}]*|[^'\\\s#{}]{0,4}[^'\\\s#{}A-Za-z_.][^'\\\s#{}]{4,})'[,)}]{0,16}"#,
            r#"|\\"(?P<secret5>[^"\\\s#{}]{4,}[^"\\\s#{}A-Za-z_.][^"\\\s#{}]*|[^"\\\s#{}]{0,4}[^"\\\s#{}A-Za-z_.][^"\\\s#{}]{4,})\\"[,)}]{0,16}"#,
            // unquoted: token alphabet, starts alphanumeric, has a digit
            r#"|(?P<secret6>[0-9][\w+/=.~-]{4,}|[A-Za-z](?:[\w+/=.~-]{3,}[0-9][\w+/=.~-]*|[\w+/=.~-]{0,3}[0-9][\w+/=.~-]{3,})))))"#,
        ),
        1024,
    )
    .left_guard("[:]")
    .right_guard(r"[(\[<,)}]")
    .overflow(r"[^\s]"),
];
