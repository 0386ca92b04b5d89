//! HTTP authorization: http-bearer, http-basic, curl-user-password.

use super::{base64_decode, Family, RuleDef, Vector, W};

pub const HTTP_BEARER: RuleDef = RuleDef::context(
    "http-bearer",
    "Authorization: Bearer / token … header value (8+ bytes with a digit)",
    &["authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:bearer|token)[ \t]{1,32}(?P<secret>[A-Za-z0-9._~+/_-]{7,}[0-9][A-Za-z0-9._~+/_-]*=*|[A-Za-z0-9._~+/_-]{0,7}[0-9][A-Za-z0-9._~+/_-]{7,}=*)"#,
    8192,
)
.overflow("[A-Za-z0-9._~+/=_-]");

pub const HTTP_BASIC: RuleDef = RuleDef::context(
    "http-basic",
    "Authorization: Basic … header value (padded base64 of user:password, 8+ chars)",
    &["authorization"],
    r#"(?i:authorization)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?i:basic)[ \t]{1,32}(?P<secret>(?:[A-Za-z0-9+/]{4}){2,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)"#,
    2048,
)
.right_guard("[A-Za-z0-9+/=]")
.overflow("[A-Za-z0-9+/=]")
.validator(decodes_to_user_and_password);

/// `Authorization: Basic` carries base64 of `user:password`.
fn decodes_to_user_and_password(value: &[u8]) -> bool {
    base64_decode(value).is_some_and(|d| d.contains(&b':'))
}

// The password is 3+ bytes and not only digits (`-u 1000:1000`); the guard leaves
// example values (`user:pass`, `foo:bar`, `root:root`) and gsutil ACL roles
// (`-u user@example.com:READ`, `:FULL_CONTROL`). `docker -u app:app` (user:group with
// equal names) is still redacted: the guard cannot see the user name.
pub const CURL_USER_PASSWORD: RuleDef = RuleDef::context(
    "curl-user-password",
    "password of `-u user:password` / `--user user:password` (curl, wget, httpie)",
    &["-u ", "--user"],
    r#"(?:-u|--user)(?:[ \t]{1,8}|=)["']?[^\s:"'$]{1,128}:(?P<secret>[0-9]{0,64}[^\s"'0-9][^\s"']{2,256}|[^\s"']{2,256}[^\s"'0-9])"#,
    465,
)
.left_guard(W);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "HTTP authorization",
    source: "GL, NP",
    rules: &[HTTP_BEARER, HTTP_BASIC, CURL_USER_PASSWORD],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &HTTP_BEARER,
        "curl -s -H \"Authorization: Bearer ccxO7Bxf8bXAHWAoYHWcrT4mmpWlmje9pDaSlApC\" https://api.example.com/v1/me",
        "curl -s -H \"Authorization: Bearer [REDACTED:http-bearer]\" https://api.example.com/v1/me",
    ),
    Vector::hit(
        &HTTP_BEARER,
        "> GET /v1/items HTTP/1.1\n> authorization: bearer p5dg0EOIts_mq8_AVHeK8N4cunjt-R.pJcHov-E-yiGFbk24Mwn\n> accept: */*",
        "> GET /v1/items HTTP/1.1\n> authorization: bearer [REDACTED:http-bearer]\n> accept: */*",
    ),
    Vector::hit(
        &HTTP_BEARER,
        "{\"headers\": {\"Authorization\": \"token l4w3EMlu9tfsCZ2qqBkWsaAxQ3dmrKu8MOFqUKT7\"}}",
        "{\"headers\": {\"Authorization\": \"token [REDACTED:http-bearer]\"}}",
    ),
    Vector::miss(&HTTP_BEARER, "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com"),
    Vector::miss(&HTTP_BEARER, "headers = {\"Authorization\": f\"Bearer {token}\"}"),
    Vector::miss(&HTTP_BEARER, "Authorization: Bearer <token>"),
    Vector::miss(&HTTP_BEARER, "Authorization header uses the Bearer scheme."),
    Vector::hit(
        &HTTP_BASIC,
        "Authorization: Basic ZGVwbG95OjFmVmNLc1V0d3gxQ1c5L0Y5TEI5RkVLcytrNlc0OA==\r\nHost: example.com",
        "Authorization: Basic [REDACTED:http-basic]\r\nHost: example.com",
    ),
    Vector::hit(
        &HTTP_BASIC,
        "requests.get(url, headers={\"authorization\": \"Basic Y2k6d2xRZyt2Q2tsOGYzc1NpT054THczYUpB\"})",
        "requests.get(url, headers={\"authorization\": \"Basic [REDACTED:http-basic]\"})",
    ),
    Vector::miss(&HTTP_BASIC, "Authorization: Basic bm8gY29sb24gaW4gdGhpcyB2YWx1ZQ=="),
    Vector::miss(&HTTP_BASIC, "Authorization: Basic ${CREDS}"),
    Vector::miss(&HTTP_BASIC, "The Authorization: Basic scheme sends base64(user:password)."),
    Vector::miss(&HTTP_BASIC, "Authorization: Basic Bw34BsixMb4VXPJ0MHqBre="),
    Vector::hit(
        &CURL_USER_PASSWORD,
        "curl -u admin:FCcxxViN2pUM6Z1Y https://jenkins.example.com/api/json",
        "curl -u admin:[REDACTED:curl-user-password] https://jenkins.example.com/api/json",
    ),
    Vector::hit(
        &CURL_USER_PASSWORD,
        "curl -s --user 'api:key-2e6d7ee2c0476f8d6966f1398a6a72f4' https://api.example.net/v3/domains",
        "curl -s --user 'api:[REDACTED:curl-user-password]' https://api.example.net/v3/domains",
    ),
    Vector::miss(&CURL_USER_PASSWORD, "docker run -u 1000:1000 -v $PWD:/src alpine ls"),
    Vector::miss(&CURL_USER_PASSWORD, "git push -u origin feature/login"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u \"$USER:$PASS\" https://example.com"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u user:pass https://api.example.com/v1/me"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u username:password https://api.example.com/v1/me"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u foo:bar http://localhost:8080/"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u a:b http://localhost:8080/"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u postgres:postgres http://localhost:5432/"),
    Vector::miss(&CURL_USER_PASSWORD, "curl -u root:root http://localhost:9200/_cat/indices"),
    Vector::miss(&CURL_USER_PASSWORD, "gsutil acl ch -u john.doe@example.com:READ gs://example-bucket"),
    Vector::miss(&CURL_USER_PASSWORD, "gsutil acl ch -u john.doe@example.com:WRITE gs://example-bucket"),
    Vector::miss(&CURL_USER_PASSWORD, "gsutil acl ch -u AllUsers:OWNER gs://example-bucket"),
    Vector::miss(&CURL_USER_PASSWORD, "gsutil acl ch -u service@example.iam.gserviceaccount.com:FULL_CONTROL gs://example-bucket"),
    Vector::hit(
        &CURL_USER_PASSWORD,
        "curl -u user:pass3574 https://api.example.com/v1/me",
        "curl -u user:[REDACTED:curl-user-password] https://api.example.com/v1/me",
    ),
    Vector::hit(
        &CURL_USER_PASSWORD,
        "curl -u root:2j3RxnQDGtO7OF http://localhost:9200/_cat/indices",
        "curl -u root:[REDACTED:curl-user-password] http://localhost:9200/_cat/indices",
    ),
    Vector::hit(
        &CURL_USER_PASSWORD,
        "curl -u john.doe@example.com:READ98GXSbgR https://example.com",
        "curl -u john.doe@example.com:[REDACTED:curl-user-password] https://example.com",
    ),
];

#[cfg(test)]
mod tests {
    use super::decodes_to_user_and_password as valid;

    #[test]
    fn basic_auth_must_decode_to_user_and_password() {
        assert!(valid(b"dXNlcjpodW50ZXIy")); // user:hunter2
        assert!(valid(b"YWxhZGRpbjpvcGVuc2VzYW1l")); // aladdin:opensesame
        assert!(!valid(b"bm90IGEgcGFpcg==")); // "not a pair"
        assert!(!valid(b"****")); // not base64
    }
}
