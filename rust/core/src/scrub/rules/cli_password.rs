//! Passwords in command lines and in calls or config elements that pair a key with a
//! value: `mysql -pSECRET`, `redis-cli -a SECRET`, `--password SECRET`, `--token VALUE`,
//! `System.setProperty("DB_TOKEN", "…")`, `new NetworkCredential("u", "…")`,
//! `<add key="Password" value="…"/>`, and `*_PASS=` / `"pass":` assignments.

use super::{Family, RuleDef, Vector};

pub const CLI_PASSWORD_FLAG: RuleDef = RuleDef::context(
    "cli-password-flag",
    "password of mysql/mysqldump/mysqladmin -pSECRET, redis-cli -a SECRET, --password SECRET; --token/--api-key VALUE",
    &[
        "mysql",
        "redis-cli",
        "--password ",
        "--token ",
        "--api-key ",
        "--api-token ",
        "--auth-token ",
        "--access-token ",
    ],
    concat!(
        r#"mysql(?:dump|admin|sh|import)?(?:[ \t]{1,8}-[A-Za-oq-z-][^\s]{0,128}(?:[ \t]{1,8}[^-\s][^\s]{0,128})?){0,8}[ \t]{1,8}-p(?P<secret1>[^\s"'$-][^\s"']{3,128})"#,
        r#"|redis-cli(?:[ \t]{1,8}-[^a\s][^\s]{0,64}(?:[ \t]{1,8}[^-\s][^\s]{0,128})?){0,8}[ \t]{1,8}-a[ \t]{1,8}(?P<secret2>[^\s"'$-][^\s"']{3,128})"#,
        r#"|--password[ \t]{1,8}(?P<secret3>[^\s"'$-][^\s"']{3,128})"#,
        // a token flag's value: token-like (8+ bytes with a digit), so `--token FILE` or
        // `--api-key <key>` stay
        r#"|--(?:token|api-key|api-token|auth-token|access-token)[ \t]{1,8}["']?(?P<secret5>[A-Za-z0-9](?:[^\s"'`<>{}]{3,}[0-9][^\s"'`<>{}]*|[^\s"'`<>{}]{0,3}[0-9][^\s"'`<>{}]{3,}))"#,
    ),
    1600,
)
.left_guard("[A-Za-z0-9_-]");

pub const QUOTED_KEY_VALUE: RuleDef = RuleDef::context(
    "quoted-key-value",
    "a quoted secret paired with a quoted key: setProperty(\"X_TOKEN\", \"…\"), NetworkCredential(\"u\", \"…\"), <add key=\"Password\" value=\"…\"/>",
    &["password", "passwd", "secret", "token", "api_key", "apikey", "networkcredential"],
    concat!(
        r#"(?:(?i:password|passwd|secret|token|api_?key)[A-Za-z0-9_.-]{0,32}["'][ \t]{0,8},[ \t]{0,8}"#,
        r#"|(?i:password|passwd|secret|token|api_?key)[A-Za-z0-9_.-]{0,32}"[ \t]{1,8}(?i:value)="#,
        r#"|(?i:networkcredential)\([ \t]{0,8}"[^"\r\n]{0,128}"[ \t]{0,8},[ \t]{0,8})"#,
        r#"(?:"(?P<secret1>[^"\\\s,;:)}\]][^"\\\r\n]{3,255})"|'(?P<secret2>[^'\s,;:)}\]][^'\r\n]{3,255})')"#,
    ),
    700,
);

pub const PASS_ASSIGNMENT: RuleDef = RuleDef::context(
    "pass-assignment",
    "DB_PASS= / SMTP_PASS: / \"pass\": assignments (value redacted, key kept; `pass` alone is a Python statement)",
    &["_pass", "-pass", ".pass", "\"pass\"", "'pass'"],
    concat!(
        r#"(?:[_.-](?i:pass)(?:\\?["'])?|["'](?i:pass)\\?["'])[ \t]{0,32}(?::{1,3}=|[?.+]=|=>|[:=])[ \t]{0,32}"#,
        r#"(?:"(?P<secret1>[^"\\\s,;:)}\]][^"\\\r\n]{2,255})"[,)}]{0,16}|'(?P<secret2>[^'\s,;:)}\]][^'\r\n]{2,255})'[,)}]{0,16}|(?P<secret3>[A-Za-z0-9][^\s"'`,;<>(){}\[\]&\\]{2,}[0-9!#$%*+=?@^|~][^\s"'`,;<>(){}\[\]&\\]*))"#,
    ),
    320,
)
.right_guard(r"[(\[<,)}]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Command-line and paired passwords",
    source: "mysql(1), redis-cli, .NET System.Net.NetworkCredential, .NET appSettings",
    rules: &[CLI_PASSWORD_FLAG, QUOTED_KEY_VALUE, PASS_ASSIGNMENT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "mysql -u root -peouf44!ZWE app",
        "mysql -u root -p[REDACTED:cli-password-flag] app",
    ),
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "mysqldump -h db -uadmin -pzose53%RTU --all-databases > dump.sql",
        "mysqldump -h db -uadmin -p[REDACTED:cli-password-flag] --all-databases > dump.sql",
    ),
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "redis-cli -h cache -a spfy09%DTI ping",
        "redis-cli -h cache -a [REDACTED:cli-password-flag] ping",
    ),
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "psql --password mxhk39%ECN -h db",
        "psql --password [REDACTED:cli-password-flag] -h db",
    ),
    Vector::miss(&CLI_PASSWORD_FLAG, "mysql -u root -p app"),
    Vector::miss(&CLI_PASSWORD_FLAG, "mysql -u root -p\"$MYSQL_PWD\" app"),
    Vector::miss(&CLI_PASSWORD_FLAG, "docker login --password-stdin"),
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "vercel deploy --token 4fJq8sLk2mZ9xPw7 --prod",
        "vercel deploy --token [REDACTED:cli-password-flag] --prod",
    ),
    Vector::hit(
        &CLI_PASSWORD_FLAG,
        "tool --api-key \"Vq7Lm2Xc9Rt4\" run",
        "tool --api-key \"[REDACTED:cli-password-flag]\" run",
    ),
    Vector::miss(
        &CLI_PASSWORD_FLAG,
        "docker login -u ci --password-stdin < token.txt",
    ),
    Vector::miss(&CLI_PASSWORD_FLAG, "gh auth login --token <token>"),
    Vector::miss(
        &CLI_PASSWORD_FLAG,
        "  --token TOKEN       the API token to use",
    ),
    Vector::miss(&CLI_PASSWORD_FLAG, "curl --token \"$TOKEN\""),
    Vector::miss(&CLI_PASSWORD_FLAG, "run --api-key-file keys.txt"),
    Vector::hit(
        &QUOTED_KEY_VALUE,
        "System.setProperty(\"DB_TOKEN\", \"zrlp90%XCS\");",
        "System.setProperty(\"DB_TOKEN\", \"[REDACTED:quoted-key-value]\");",
    ),
    Vector::hit(
        &QUOTED_KEY_VALUE,
        "os.environ.setdefault('API_SECRET', 'lhvf94%ZCY')",
        "os.environ.setdefault('API_SECRET', '[REDACTED:quoted-key-value]')",
    ),
    Vector::hit(
        &QUOTED_KEY_VALUE,
        "new NetworkCredential(\"admin\", \"upxs63!ZFZ\")",
        "new NetworkCredential(\"admin\", \"[REDACTED:quoted-key-value]\")",
    ),
    Vector::hit(
        &QUOTED_KEY_VALUE,
        "<add key=\"SmtpPassword\" value=\"ztxa61%BEL\" />",
        "<add key=\"SmtpPassword\" value=\"[REDACTED:quoted-key-value]\" />",
    ),
    Vector::miss(
        &QUOTED_KEY_VALUE,
        "System.setProperty(\"DB_TOKEN\", System.getenv(\"X\"));",
    ),
    Vector::miss(&QUOTED_KEY_VALUE, "<add key=\"Password\" value=\"\" />"),
    Vector::miss(
        &QUOTED_KEY_VALUE,
        "new NetworkCredential(\"admin\", password)",
    ),
    Vector::miss(&QUOTED_KEY_VALUE, "t(\"password\", \"Password\")"),
    Vector::hit(
        &PASS_ASSIGNMENT,
        "ENV DB_PASS=jypl94%LRG",
        "ENV DB_PASS=[REDACTED:pass-assignment]",
    ),
    Vector::hit(
        &PASS_ASSIGNMENT,
        "{\"user\": \"app\", \"pass\": \"fqon59!DHZ\"}",
        "{\"user\": \"app\", \"pass\": \"[REDACTED:pass-assignment]\"}",
    ),
    Vector::hit(
        &PASS_ASSIGNMENT,
        "SMTP_PASS: 'hdfg45!IZO'",
        "SMTP_PASS: '[REDACTED:pass-assignment]'",
    ),
    Vector::miss(&PASS_ASSIGNMENT, "bypass=true"),
    Vector::miss(&PASS_ASSIGNMENT, "pass: the test suite"),
    Vector::miss(&PASS_ASSIGNMENT, "PASS=1"),
];
