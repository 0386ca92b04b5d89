//! Password assignments: password-assignment.

use super::{Family, RuleDef, Tier, Vector};

pub const PASSWORD_ASSIGNMENT: RuleDef = RuleDef {
    id: "password-assignment",
    tier: Tier::Context,
    description:
        "password=/password:/DB_PASSWORD=\"…\"/<password>…< assignments (value redacted, key kept)",
    keywords: &["password", "passwd", "pwd"],
    pattern: concat!(
        r#"(?i:password|passwd|pwd)(?i:[_.-]?(?:[0-9]|confirm(?:ation)?|plain(?:text)?|value|str|string))?"#,
        // <password>value</password>
        r#"(?:>[ \t\r\n]{0,64}(?P<secret1>[^<>\s"'(){}]+)[ \t\r\n]{0,64}<"#,
        r#"|(?:\\?["']\]?)?(?:"#,
        // PASSWORD=value (no spaces): 4+ bytes
        r#"=(?P<secret2>\w[^\s"'`,;<>(){}\[\]&\\]{3,})"#,
        r#"|[ \t]{0,32}(?:(?i:string)[ \t]{1,8})?(?::{1,3}=|[?.+]=|=>|[:=])[ \t]{0,32}(?:"#,
        // quoted: anything that does not start with whitespace
        r#""(?P<secret3>(?:[^"\\\s,;:)}\]]|\\[^\r\n])(?:[^"\\\r\n]|\\[^\r\n])*)"[,)}]{0,16}"#,
        r#"|'(?P<secret4>[^'\s,;:)}\]][^'\r\n]*)'[,)}]{0,16}"#,
        r#"|`(?P<secret7>[^`\s][^`\r\n]*)`[,)}]{0,16}"#,
        r#"|\\"(?P<secret5>[^"\\\s,;:)}\]][^"\\\r\n]*)\\"[,)}]{0,16}"#,
        // unquoted: 6+ bytes, starts alphanumeric, has a digit or one of !#$%*+=?@^|~
        r#"|(?P<secret6>[A-Za-z0-9][^\s"'`,;<>(){}\[\]&\\]{4,}[0-9!#$%*+=?@^|~][^\s"'`,;<>(){}\[\]&\\]*"#,
        r#"|[A-Za-z0-9][^\s"'`,;<>(){}\[\]&\\]{0,4}[0-9!#$%*+=?@^|~][^\s"'`,;<>(){}\[\]&\\]{4,}))"#,
        // prose and gradle: `the password is 'x'`, `password 'x'` (quoted only)
        r#"|[ \t]{1,8}(?:(?i:is|was)[ \t]{1,8})?(?:"(?P<secret8>[^"\\\s][^"\\\r\n]{2,})"|'(?P<secret9>[^'\s][^'\r\n]{2,})')))"#,
    ),
    before: None,
    left_guard: "[/]",
    right_guard: r"[(\[<,)}]",
    max_len: 512,
    overflow: r"[^\s]",
    validator: None,
    yields_to: None,
};

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Password assignments",
    source: "GL, TH, NP, DS",
    rules: &[PASSWORD_ASSIGNMENT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "ENV['DB_PASSWORD'] = 'Xk9mQ2vLp7Rt'",
        "ENV['DB_PASSWORD'] = '[REDACTED:password-assignment]'",
    ),
    Vector::miss(&PASSWORD_ASSIGNMENT, "if d[\"password\"] == \"abc123!\":"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "x = config[\"password\"]"),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "POSTGRES_PASSWORD=WHlA0Yg0jsOtGC",
        "POSTGRES_PASSWORD=[REDACTED:password-assignment]",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "{\"username\": \"admin\", \"password\": \"RGr8qKIJ!x0C\"}",
        "{\"username\": \"admin\", \"password\": \"[REDACTED:password-assignment]\"}",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "db:\n  host: localhost\n  password: G4ibwP768\n",
        "db:\n  host: localhost\n  password: [REDACTED:password-assignment]\n",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "{\"output\": \"{\\\"password\\\": \\\"uWblbcp6Vv8b\\\"}\"}",
        "{\"output\": \"{\\\"password\\\": \\\"[REDACTED:password-assignment]\\\"}\"}",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "spring.datasource.password=WuKc9qsJu0",
        "spring.datasource.password=[REDACTED:password-assignment]",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "conn = psycopg2.connect(user='app', password='DzDOTuMlQ JMsq')",
        "conn = psycopg2.connect(user='app', password='[REDACTED:password-assignment]')",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>640a2LKc4zb3</password>\n</server>",
        "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>[REDACTED:password-assignment]</password>\n</server>",
    ),
    Vector::miss(&PASSWORD_ASSIGNMENT, "The password is stored in vault."),
    Vector::miss(&PASSWORD_ASSIGNMENT, "PS C:\\> $password = Read-Host -AsSecureString"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "  password: secrets/db-password"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "conn = connect(host=host, user=user, password=password)"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "def login(user, password=None, timeout=30):"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "<input type=\"password\" name=\"pw\">Remember me</label>"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "    pub password: u32,"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password: windows_sys::core::PCWSTR"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "    password: str"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "    def get_password(self):"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "        self.password = password"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password=os.environ[\"DB_PASSWORD\"]"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "    password: ${DB_PASSWORD}"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password: Optional[str] = None"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password = getpass.getpass(\"Password: \")"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "$ cat /etc/passwd: Permission denied"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password = \"<your-password>\""),
    Vector::miss(&PASSWORD_ASSIGNMENT, "PWD=/home/user/project"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password = 'Password used to generate key'"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "{\"password\": \"the password of the admin user, see the wiki\"}"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "Password: MSV1_0_PROTOCOL_MESSAGE_TYPE"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password: DB_PASSWORD"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "password=password_bytes"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "PASSWORD=proposed_password"),
    Vector::miss(&PASSWORD_ASSIGNMENT, "new_password=newPassword"),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "password = 'correct horse battery staple'",
        "password = '[REDACTED:password-assignment]'",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "password = \"Correct Horse Battery Staple\"",
        "password = \"[REDACTED:password-assignment]\"",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "password=Password342",
        "password=[REDACTED:password-assignment]",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "PASSWORD=password_9309",
        "PASSWORD=[REDACTED:password-assignment]",
    ),
    Vector::hit(
        &PASSWORD_ASSIGNMENT,
        "password: 'nbmaw ogoarc to kacn89'",
        "password: '[REDACTED:password-assignment]'",
    ),
];
