//! Credentials in URLs: url-userinfo.

use super::{Family, RuleDef, Vector};

// A password of one or two bytes (`http://a:b@host`) is an example, not a secret. The
// guard leaves well-known example values (`user:pass`, `foo:bar`, `postgres:postgres`,
// `root:root`); a password equal to any other user name (`app:app`) is still redacted,
// since the guard sees the password alone and the pattern cannot compare the two.
pub const URL_USERINFO: RuleDef = RuleDef::context(
    "url-userinfo",
    "password in scheme://user:password@host (postgres, mysql, mongodb, redis, amqp, http…)",
    &["://"],
    r#"://[^\s:@/?#"'<>\\{}]{0,256}:(?P<secret>[^\s/"'<>\\{}]{3,256})@"#,
    517,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Credentials in URLs",
    source: "NP, TH",
    rules: &[URL_USERINFO],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &URL_USERINFO,
        "DATABASE_URL=postgres://app:1eH68Y0MwqtnO407JG@db.internal:5432/app",
        "DATABASE_URL=postgres://app:[REDACTED:url-userinfo]@db.internal:5432/app",
    ),
    Vector::hit(
        &URL_USERINFO,
        "{\"redis\": \"redis://:nV0Cz7HAvZST!BHGe@cache:6379/0\"}",
        "{\"redis\": \"redis://:[REDACTED:url-userinfo]@cache:6379/0\"}",
    ),
    Vector::hit(
        &URL_USERINFO,
        "mongodb+srv://admin:yeV9GhoXrlnK4X7653Z0@cluster0.ab12c.mongodb.net/?retryWrites=true",
        "mongodb+srv://admin:[REDACTED:url-userinfo]@cluster0.ab12c.mongodb.net/?retryWrites=true",
    ),
    Vector::miss(&URL_USERINFO, "http://localhost:8080/api/v1/users"),
    Vector::miss(&URL_USERINFO, "postgres://app:${DB_PASSWORD}@db:5432/app"),
    Vector::miss(&URL_USERINFO, "ssh://git@github.com:22/acme/app.git"),
    Vector::miss(&URL_USERINFO, "docker pull ghcr.io/acme/app@sha256:7fa992cef7c49a7aa986e967d2753915424e342ea560543394c88df3cc067dd5"),
    Vector::miss(&URL_USERINFO, "postgres://user:pass@localhost:5432/app"),
    Vector::miss(&URL_USERINFO, "postgres://username:password@db.example.com:5432/app"),
    Vector::miss(&URL_USERINFO, "http://foo:bar@localhost:8080/"),
    Vector::miss(&URL_USERINFO, "http://a:b@localhost/"),
    Vector::miss(&URL_USERINFO, "postgres://postgres:postgres@localhost:5432/postgres"),
    Vector::miss(&URL_USERINFO, "mysql://root:root@127.0.0.1:3306/app"),
    Vector::hit(
        &URL_USERINFO,
        "postgres://postgres:tjanmiFFX6HsRwUH@localhost:5432/postgres",
        "postgres://postgres:[REDACTED:url-userinfo]@localhost:5432/postgres",
    ),
    Vector::hit(
        &URL_USERINFO,
        "mysql://root:2dYf65MkUO@127.0.0.1:3306/app",
        "mysql://root:[REDACTED:url-userinfo]@127.0.0.1:3306/app",
    ),
    Vector::hit(
        &URL_USERINFO,
        "http://a:0XF@localhost/",
        "http://a:[REDACTED:url-userinfo]@localhost/",
    ),
];
