//! Connection-string passwords: connection-string-password.

use super::password::PASSWORD_ASSIGNMENT;
use super::{Family, RuleDef, Vector};

// Values with spaces or braces, ended by `;` (the right guard lets only `;` or the end
// of the stream follow); simple values are left to password-assignment, which wins
// the tie by coming first.
pub const CONNECTION_STRING_PASSWORD: RuleDef = RuleDef::context(
    "connection-string-password",
    "Password=/Pwd= in an ODBC / ADO.NET / JDBC connection string, up to `;`",
    &["password=", "pwd="],
    r#"(?i:password|pwd)=(?:\{(?P<secret1>[^}\r\n]{1,256})\}|(?P<secret2>\w[^\r\n"'`,;<>(){}\[\]&\\]{0,254}[^\s"'`,;<>(){}\[\]&\\]))"#,
    267,
)
.right_guard("[^;]")
.yields_to(&PASSWORD_ASSIGNMENT);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Connection-string passwords",
    source: "GL, TH, NP, DS",
    rules: &[CONNECTION_STRING_PASSWORD],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &CONNECTION_STRING_PASSWORD,
        "\"ConnectionStrings\": {\"Default\": \"Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password=Str0ng anrqwt Pass;Encrypt=True;\"}",
        "\"ConnectionStrings\": {\"Default\": \"Server=tcp:db.example.com,1433;Database=app;User ID=sa;Password=[REDACTED:connection-string-password];Encrypt=True;\"}",
    ),
    Vector::hit(
        &CONNECTION_STRING_PASSWORD,
        "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD={QEqXDYhGLM;h3jb};",
        "Driver={ODBC Driver 18 for SQL Server};Server=db;UID=sa;PWD={[REDACTED:connection-string-password]};",
    ),
    Vector::miss(&CONNECTION_STRING_PASSWORD, "Password=;Server=db"),
    Vector::miss(&CONNECTION_STRING_PASSWORD, "Server=db;Password={{ db_password }};"),
];
