//! Secret and token assignments: secret-assignment.

use super::{Family, RuleDef, Vector};

// Token-like values: at least one byte that is not a letter, `_` or `.` (so `NextToken`,
// `next_token`, `SA_ACCESS_TOKEN`, `string.quoted` fail) and 5+ bytes. Each is written
// `X{4,}ZX*|X{0,4}ZX{4,}` (Z the required byte): every such value of 9+ bytes matches,
// none under 5 does (an exact "8+ bytes" costs a 3.6 MB DFA).
pub const SECRET_ASSIGNMENT: RuleDef = RuleDef::context(
    "secret-assignment",
    "secret=/token:/api_key=/access_key=/client_secret:/<token>…</ assignments (value redacted, key kept)",
    &["secret", "token", "api_key", "apikey", "api-key", "access_key", "accesskey", "access-key"],
    concat!(
        r#"(?i:secret|token|api[_-]?key|access[_-]?key)(?i:[_.-]?(?:key|token|secret|value|base)){0,2}"#,
        // <token>value</token>: a closing tag after the value (`<your-api-key>API_KEY=<…`
        // is a placeholder between two tags, not an element's text)
        r#"(?:>[ \t\r\n]{0,64}(?P<secret1>[^<>\s"'(){}]{4,}[^<>\s"'(){}A-Za-z_.][^<>\s"'(){}]*|[^<>\s"'(){}]{0,4}[^<>\s"'(){}A-Za-z_.][^<>\s"'(){}]{4,})[ \t\r\n]{0,64}</"#,
        r#"|(?:\\?["']\]?)?(?:"#,
        // SECRET=value (no spaces)
        r#"=(?P<secret2>[0-9][^\s"'`,;<>(){}\[\]&\\]{4,}|[A-Za-z_](?:[^\s"'`,;<>(){}\[\]&\\]{3,}[^\s"'`,;<>(){}\[\]&\\A-Za-z_.][^\s"'`,;<>(){}\[\]&\\]*|[^\s"'`,;<>(){}\[\]&\\]{0,3}[^\s"'`,;<>(){}\[\]&\\A-Za-z_.][^\s"'`,;<>(){}\[\]&\\]{3,}))"#,
        r#"|[ \t]{0,32}(?:(?i:string)[ \t]{1,8})?(?::{1,3}=|[?.+]=|=>|[:=])[ \t]{0,32}(?:"#,
        // quoted: no whitespace or braces (templates); `#` only after the first byte
        // (`"#ffffff"` is a colour, `"#/definitions/Token"` a reference)
        r#""(?P<secret3>[^"\\\s#{},;:)}\]][^"\\\s{}]{3,}[^"\\\s{}A-Za-z_.][^"\\\s{}]*|[^"\\\s#{},;:)}\]][^"\\\s{}]{0,3}[^"\\\s{}A-Za-z_.][^"\\\s{}]{4,}|[^"\\\s#{}A-Za-z_.,;:)}\]][^"\\\s{}]{4,})"[,)}]{0,16}"#,
        r#"|'(?P<secret4>[^'\\\s#{},;:)}\]][^'\\\s{}]{3,}[^'\\\s{}A-Za-z_.][^'\\\s{}]*|[^'\\\s#{},;:)}\]][^'\\\s{}]{0,3}[^'\\\s{}A-Za-z_.][^'\\\s{}]{4,}|[^'\\\s#{}A-Za-z_.,;:)}\]][^'\\\s{}]{4,})'[,)}]{0,16}"#,
        r#"|\\"(?P<secret5>[^"\\\s#{},;:)}\]][^"\\\s{}]{3,}[^"\\\s{}A-Za-z_.][^"\\\s{}]*|[^"\\\s#{},;:)}\]][^"\\\s{}]{0,3}[^"\\\s{}A-Za-z_.][^"\\\s{}]{4,}|[^"\\\s#{}A-Za-z_.,;:)}\]][^"\\\s{}]{4,})\\"[,)}]{0,16}"#,
        r#"|`(?P<secret7>[^`\\\s#{}][^`\\\s{}]{3,}[^`\\\s{}A-Za-z_.][^`\\\s{}]*|[^`\\\s#{}][^`\\\s{}]{0,3}[^`\\\s{}A-Za-z_.][^`\\\s{}]{4,}|[^`\\\s#{}A-Za-z_.][^`\\\s{}]{4,})`[,)}]{0,16}"#,
        // unquoted: token alphabet and `!#$%*@^`, starts alphanumeric, has a digit
        r#"|(?P<secret6>[0-9][\w+/=.~!#$%*@^-]{4,}|[A-Za-z](?:[\w+/=.~!#$%*@^-]{3,}[0-9][\w+/=.~!#$%*@^-]*|[\w+/=.~!#$%*@^-]{0,3}[0-9][\w+/=.~!#$%*@^-]{3,})))))"#,
    ),
    1024,
)
.left_guard("[:]")
.right_guard(r"[(\[<,)}]")
.overflow(r"[^\s]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Secret and token assignments",
    source: "GL, TH, NP, DS",
    rules: &[SECRET_ASSIGNMENT],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "API_KEY=WQ9iCRyLD97ynsQnI6aszaFZWho3Kd5F",
        "API_KEY=[REDACTED:secret-assignment]",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "{\"client_secret\": \"1aBlcxmgG_J7vEf_qglI8n7f_zwYIwZfCnC0mBJa\", \"grant_type\": \"client_credentials\"}",
        "{\"client_secret\": \"[REDACTED:secret-assignment]\", \"grant_type\": \"client_credentials\"}",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "auth:\n  token: tmycnzpoak3kp9nzdcw7u\n",
        "auth:\n  token: [REDACTED:secret-assignment]\n",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "X-Api-Key: 1fcXCTfaL97iPXylhtQ5V8Hb",
        "X-Api-Key: [REDACTED:secret-assignment]",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "SECRET_KEY_BASE=d0f823226d6bc60db68c5794d3b791da2d86d4277104c19c5315b89da9fdd77d bin/rails server",
        "SECRET_KEY_BASE=[REDACTED:secret-assignment] bin/rails server",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "<settings>\n  <apiKey>jyY7qjFj1cpSaHPRUn2cyCZpSs4KORTKoP0ljVr1</apiKey>\n</settings>",
        "<settings>\n  <apiKey>[REDACTED:secret-assignment]</apiKey>\n</settings>",
    ),
    Vector::miss(
        &SECRET_ASSIGNMENT,
        "<your-api-key>API_KEY=<your-api-key>API_KEY=<your-api-key>",
    ),
    Vector::miss(&SECRET_ASSIGNMENT, "token_count = 5"),
    Vector::miss(&SECRET_ASSIGNMENT, "    pub token: __u32,"),
    Vector::miss(&SECRET_ASSIGNMENT, "        dot2_token: node.dot2_token,"),
    Vector::miss(&SECRET_ASSIGNMENT, "pub const IFLA_INET6_TOKEN: _bindgen_ty_7 = 7;"),
    Vector::miss(&SECRET_ASSIGNMENT, "max_tokens=1024"),
    Vector::miss(&SECRET_ASSIGNMENT, "secret_key: SecretStr"),
    Vector::miss(&SECRET_ASSIGNMENT, "access_token = response.access_token"),
    Vector::miss(&SECRET_ASSIGNMENT, "API_KEY=<your-api-key>"),
    Vector::miss(&SECRET_ASSIGNMENT, "api_key = os.getenv(\"OPENAI_API_KEY\")"),
    Vector::miss(&SECRET_ASSIGNMENT, "token: ${{ secrets.GITHUB_TOKEN }}"),
    Vector::miss(&SECRET_ASSIGNMENT, "{\"request_id\": \"3362f630-ce10-af0b-728a-bff369a00388\", \"token_type\": \"Bearer\"}"),
    Vector::miss(&SECRET_ASSIGNMENT, "tokenizer = AutoTokenizer.from_pretrained(name)"),
    Vector::miss(&SECRET_ASSIGNMENT, "secret: \"xxxxxxxxxxxxxxxx\""),
    Vector::miss(&SECRET_ASSIGNMENT, "TOKEN: WIN32_ERROR"),
    Vector::miss(&SECRET_ASSIGNMENT, "pub const TOKEN: WIN32_ERROR = 5;"),
    Vector::miss(&SECRET_ASSIGNMENT, "token = new_token_value1"),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "SECRET_KEY=4BYNNT_5EOTSP_6398",
        "SECRET_KEY=[REDACTED:secret-assignment]",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "token = token_157985",
        "token = [REDACTED:secret-assignment]",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "os.environ[\"API_KEY\"] = \"Xk9#mQ2vLp7Rt\"",
        "os.environ[\"API_KEY\"] = \"[REDACTED:secret-assignment]\"",
    ),
    Vector::hit(
        &SECRET_ASSIGNMENT,
        "client_secret: Xk9!mQ2vLp7Rt\n",
        "client_secret: [REDACTED:secret-assignment]\n",
    ),
    Vector::miss(&SECRET_ASSIGNMENT, "token: \"#/components/schemas/Token\""),
    Vector::miss(&SECRET_ASSIGNMENT, "headers['token'] = token"),
    Vector::miss(&SECRET_ASSIGNMENT, "permissions: repo:token:write-all9"),
    // `:` before the keyword is the left guard: PowerShell's `$env:API_KEY = '…'` is
    // missed (a `$env:` keyword measured 5-8 % of clean throughput; docs/scrubber.md)
    Vector::miss(&SECRET_ASSIGNMENT, "$env:API_KEY = 'qldl96%ISCvq'"),
    Vector::miss(&SECRET_ASSIGNMENT, "kubectl get k8s:secret:ns/name-x1"),
];
