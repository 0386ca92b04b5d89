//! The placeholder guard of context rules, end to end: false positives that are left
//! alone, and the true positives next to them that are still redacted. The same cases are
//! vectors in tests/fixtures/rules/vectors.jsonl; these add the ones that cross rules.

use scrubline_core::{scrub, RuleSet};

mod common;
use common::feed_in_chunks;

fn out(text: &str) -> String {
    String::from_utf8_lossy(&scrub(&RuleSet::builtin(), text.as_bytes())).into_owned()
}

#[track_caller]
fn kept(text: &str) {
    assert_eq!(out(text), text);
}

#[track_caller]
fn redacted(text: &str, secret: &str, rule: &str) {
    assert_eq!(
        out(text),
        text.replacen(secret, &format!("[REDACTED:{rule}]"), 1),
        "{text}"
    );
}

#[test]
fn example_credentials_in_urls_and_curl_are_kept() {
    for (user, pass) in [
        ("user", "pass"),
        ("username", "password"),
        ("foo", "bar"),
        ("a", "b"),
        ("postgres", "postgres"),
        ("root", "root"),
    ] {
        kept(&format!("curl -u {user}:{pass} https://example.com/api"));
        kept(&format!(
            "curl --user '{user}:{pass}' https://example.com/api"
        ));
        kept(&format!("postgres://{user}:{pass}@localhost:5432/app"));
    }
    redacted(
        "curl -u root:Zq8vLm2Rt https://example.com/api",
        "Zq8vLm2Rt",
        "curl-user-password",
    );
    redacted(
        "postgres://postgres:pG7xWq2Lm@localhost:5432/app",
        "pG7xWq2Lm",
        "url-userinfo",
    );
    redacted("http://a:b4c@localhost/", "b4c", "url-userinfo");
}

#[test]
fn gsutil_roles_are_kept() {
    for role in [
        "READ",
        "WRITE",
        "OWNER",
        "FULL_CONTROL",
        "R",
        "W",
        "O",
        "FC",
    ] {
        kept(&format!(
            "gsutil acl ch -u jane@example.com:{role} gs://bucket"
        ));
    }
    redacted(
        "curl -u jane@example.com:READWRITE9x https://example.com",
        "READWRITE9x",
        "curl-user-password",
    );
}

#[test]
fn prose_is_kept_and_passphrases_are_redacted() {
    kept("password = 'Password used to generate key'");
    kept(r#"{"password": "The password for the CI user, see the wiki."}"#);
    kept("secret: 'the secret is in the vault'");
    for phrase in [
        "correct horse battery staple",
        "Correct Horse Battery Staple",
        "my dog is named Rex2019",
        "two words only",
    ] {
        redacted(
            &format!("password = '{phrase}'"),
            phrase,
            "password-assignment",
        );
    }
}

#[test]
fn constants_and_names_of_the_secret_are_kept() {
    kept("TOKEN: WIN32_ERROR");
    kept("Password: MSV1_0_PROTOCOL_MESSAGE_TYPE");
    kept("password=password_bytes");
    kept("password=proposed_password");
    kept("token = new_token_value1");
    kept("api_token=SECRET_TOKEN_V2");
    redacted("password=Password123", "Password123", "password-assignment");
    redacted("password=Secret_2024", "Secret_2024", "password-assignment");
    redacted(
        "SECRET_KEY=X7KQ_9PLM_2ZR4",
        "X7KQ_9PLM_2ZR4",
        "secret-assignment",
    );
}

#[test]
fn streamed_equals_whole_on_guard_cases() {
    let set = RuleSet::builtin();
    let text = "curl -u root:root x\npassword = 'Password used to generate key'\n\
                TOKEN: WIN32_ERROR\npassword=password_bytes\npassword=Password123\n\
                postgres://postgres:pG7xWq2Lm@db/app\n";
    let whole = scrub(&set, text.as_bytes());
    for size in [1, 2, 7] {
        let got = feed_in_chunks(&set, text.as_bytes(), &[size]);
        assert_eq!(got, whole, "chunks of {size}");
    }
}
