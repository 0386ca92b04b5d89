//! Stream behaviour of the scrubber (D2, D3): split invariance, minimal hold-back,
//! overflow, literals, invalid UTF-8.

use std::sync::Arc;

use proptest::prelude::*;
use std::borrow::Cow;

use scrubline_core::{scrub, scrub_cow, RuleSet, RuleSpec, Scrubber};

mod common;
use common::feed_in_chunks;

fn set() -> Arc<RuleSet> {
    RuleSet::builtin()
}

fn whole(text: &[u8]) -> Vec<u8> {
    scrub(&set(), text)
}

fn streamed(text: &[u8], sizes: &[usize]) -> Vec<u8> {
    feed_in_chunks(&set(), text, sizes)
}

const GHP: &str = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5";

#[test]
fn d4_token_is_redacted_with_rule_id() {
    let text = format!("token: {GHP} done");
    assert_eq!(
        String::from_utf8(whole(text.as_bytes())).unwrap(),
        "token: [REDACTED:github-pat] done"
    );
}

#[test]
fn d2_split_at_every_point_is_never_exposed() {
    let text = format!("export GITHUB_TOKEN={GHP}\nnext line");
    let expect = whole(text.as_bytes());
    for cut in 0..=text.len() {
        let (a, b) = text.as_bytes().split_at(cut);
        let mut s = Scrubber::new(set());
        let mut out = Vec::new();
        s.feed(a, &mut out);
        let first = out.clone();
        s.feed(b, &mut out);
        s.flush(&mut out);
        assert_eq!(out, expect, "cut at {cut}");
        // Nothing of the token left the scrubber before it was decided.
        let shown = String::from_utf8_lossy(&first);
        assert!(!shown.contains("ghp_aB3"), "cut at {cut}: {shown}");
    }
}

#[test]
fn d2_chunk_sizes_1_2_7_default() {
    let text = format!(
        "a {GHP} b AKIAQ3ZP7XK2M5RT9WLA c\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\n"
    );
    let expect = whole(text.as_bytes());
    for sizes in [&[1usize][..], &[2], &[7], &[65536]] {
        assert_eq!(streamed(text.as_bytes(), sizes), expect, "{sizes:?}");
    }
}

#[test]
fn d3_nothing_held_when_tail_cannot_start_a_credential() {
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    s.feed(b"hello world, all is well. ", &mut out);
    assert_eq!(out, b"hello world, all is well. ");
    assert_eq!(s.held(), 0);
}

#[test]
fn d3_partial_keyword_is_held_then_released() {
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    s.feed(b"see gh", &mut out);
    assert_eq!(out, b"see ");
    s.feed(b"x now!", &mut out);
    assert_eq!(out, b"see ghx now!");
    assert_eq!(s.held(), 0);
}

/// A tail is held only in a case its rule could still match: a keyword whose pattern
/// spells it one way (`QZ:!X`) only as written, one whose pattern ignores case
/// (`tk:!x`) in any case, a literal secret only as written. (The tails end in bytes
/// no built-in rule reads before its keyword, so only the keywords decide.) What is
/// not held is out at once, and the rest is released as written.
#[test]
fn d3_tail_is_held_only_in_a_case_its_rule_can_match() {
    let specs = [
        RuleSpec::custom("exact-like", "QZ:!X[0-9]{8}", vec!["QZ:!X".into()]),
        RuleSpec::custom("folded-like", "(?i)tk:!x=[0-9]{8}", vec!["tk:!x".into()]),
    ];
    let set = Arc::new(RuleSet::new(&specs, &[b"Pw:!Secret".to_vec()], "***").unwrap());
    for (text, held) in [
        ("x QZ:!", 4),
        ("x qz:!", 0),
        ("x Qz:!", 0),
        ("x TK:!", 4),
        ("x tK:!", 4),
        ("x Pw:!", 4),
        ("x pw:!", 0),
        ("x PW:!", 0),
    ] {
        let mut s = Scrubber::new(set.clone());
        let mut out = Vec::new();
        s.feed(text.as_bytes(), &mut out);
        assert_eq!(s.held(), held, "{text}");
        assert_eq!(out, &text.as_bytes()[..text.len() - held], "{text}");
        s.feed(b"X=01234567 ", &mut out);
        s.flush(&mut out);
        let want = scrub(&set, format!("{text}X=01234567 ").as_bytes());
        assert_eq!(out, want, "{text}");
    }
    assert_eq!(
        scrub(
            &set,
            b"a QZ:!X01234567 b tK:!x=01234567 c Pw:!Secret d qz:!X01234567"
        ),
        b"a *** b *** c *** d qz:!X01234567"
    );
}

/// A literal secret of all 256 byte values has more distinct bytes than the hold-back
/// walk's table has columns as written: the set still builds (that walk folds case,
/// holding more, never less), the secret is redacted, and fed a byte at a time the
/// output is the whole text's.
#[test]
fn literal_of_every_byte_value_builds_and_is_redacted_split_or_whole() {
    let secret: Vec<u8> = (0..=255u8).collect();
    let set = Arc::new(RuleSet::new(&[], std::slice::from_ref(&secret), "***").unwrap());
    let text = [&b"pw "[..], &secret, b" end"].concat();
    let whole = scrub(&set, &text);
    assert_eq!(whole, b"pw *** end");
    assert_eq!(feed_in_chunks(&set, &text, &[1]), whole);
}

/// A run that a mid-string keyword may still follow is held, and only that run: 32 hex
/// digits (`…-us1` would make a Mailchimp key) are held, a 33rd cannot start one and
/// `-u` after them extends the hold; a space releases everything.
#[test]
fn d3_run_before_a_mid_string_keyword_is_held_then_released() {
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    let hex = "a8c78fb9b8e81f6b858abf27d74cbd7c";
    s.feed(format!("key {hex}").as_bytes(), &mut out);
    assert_eq!(out, b"key ");
    assert_eq!(s.held(), 32);
    s.feed(b"-u", &mut out);
    assert_eq!((out.len(), s.held()), (4, 34));
    s.feed(b"x ", &mut out);
    assert_eq!(out, format!("key {hex}-ux ").as_bytes());
    assert_eq!(s.held(), 0);
    // 33 hex digits could still precede an Azure DevOps token's `AZDO` (76 letters and
    // digits); 80 are too many for every rule: only the last byte is held (`f` may
    // start a keyword), not the run before it.
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    s.feed(format!("key 0{hex}").as_bytes(), &mut out);
    assert_eq!(s.held(), 33);
    let long = format!("key 0123456789{hex}{hex}abcdef");
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    s.feed(long.as_bytes(), &mut out);
    assert_eq!(
        (&out[..], s.held()),
        (&long.as_bytes()[..long.len() - 1], 1)
    );
}

#[test]
fn d3_dead_candidate_is_released_at_once() {
    let mut s = Scrubber::new(set());
    let mut out = Vec::new();
    s.feed(b"prefix ghp_abc is not one; ", &mut out);
    assert_eq!(out, b"prefix ghp_abc is not one; ");
}

#[test]
fn d3_overflow_is_redacted_never_released() {
    let mut text = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
    for _ in 0..2000 {
        text.extend_from_slice(b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789abcdef\n");
    }
    text.extend_from_slice(b" tail text");
    let out = whole(&text);
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        "[REDACTED:private-key-pem] tail text"
    );
    assert_eq!(streamed(&text, &[1, 3, 4096]), out);
}

#[test]
fn d6_invalid_utf8_passes_through() {
    let mut text = b"\xff\xfe bytes \xc3(".to_vec();
    text.extend_from_slice(GHP.as_bytes());
    text.extend_from_slice(b" \x80end");
    let out = whole(&text);
    assert_eq!(out, b"\xff\xfe bytes \xc3([REDACTED:github-pat] \x80end");
    assert_eq!(streamed(&text, &[1]), out);
}

#[test]
fn literal_secrets_and_their_encodings() {
    let set = Arc::new(RuleSet::new(&[], &[b"correct-horse-battery".to_vec()], "***").unwrap());
    let text =
        b"pw correct-horse-battery, b64 Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5, url correct-horse-battery";
    let out = scrub(&set, text);
    assert_eq!(out, b"pw ***, b64 ***, url ***");
    assert_eq!(feed_in_chunks(&set, text, &[1]), out);
}

#[test]
fn literal_with_self_overlapping_prefix_split_byte_by_byte() {
    // GitLab's phrase masker leaks `aab` in `aaab` when fed a byte at a time.
    let set = Arc::new(RuleSet::new(&[], &[b"aaaabaaaab".to_vec()], "***").unwrap());
    let text = b"aaaaaaabaaaab!";
    assert_eq!(scrub(&set, text), b"aaa***!");
    assert_eq!(feed_in_chunks(&set, text, &[1]), b"aaa***!");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn d2_streamed_equals_whole(
        parts in proptest::collection::vec(prop_oneof![
            Just(GHP.to_string()),
            Just("AKIAQ3ZP7XK2M5RT9WLA".to_string()),
            Just("-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA\\n-----END RSA PRIVATE KEY-----".to_string()),
            Just("password=\"hunter22\"".to_string()),
            Just("abcQ~".to_string()),
            "[ -~]{0,12}",
            "[gph_AKI\\-Q~ ]{0,8}",
        ], 0..12),
        sizes in proptest::collection::vec(1usize..40, 1..6),
    ) {
        let text = parts.concat();
        prop_assert_eq!(streamed(text.as_bytes(), &sizes), whole(text.as_bytes()));
    }

    /// Keywords that need a run of bytes before them (`-us` after 32 hex digits, `:AA`
    /// after 8-10 digits, `Q~`, `.atlasv1.`): a run cut anywhere is held until it is
    /// known that no such keyword follows it.
    #[test]
    fn d2_mid_string_keywords_streamed_equals_whole(
        parts in proptest::collection::vec(prop_oneof![
            Just("a8c78fb9b8e81f6b858abf27d74cbd7c-us21".to_string()),
            Just("123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0".to_string()),
            Just("abc1Q~KoC8Q~Ot5bRcLh.kfRu7IdQGD6pxXaKMHyZ_d".to_string()),
            Just("a1B2c3D4e5F6g7.atlasv1.".to_string()),
            "[0-9a-f]{0,34}",
            "[0-9]{0,11}",
            "[-usAQ~:.a-z ]{0,6}",
        ], 0..10),
        sizes in proptest::collection::vec(1usize..40, 1..6),
    ) {
        let text = parts.concat();
        prop_assert_eq!(streamed(text.as_bytes(), &sizes), whole(text.as_bytes()));
    }

    /// `scrub_cow` is `scrub`, borrowed exactly when nothing changed.
    #[test]
    fn d2_scrub_cow_borrows_exactly_when_unchanged(
        parts in proptest::collection::vec(prop_oneof![
            Just(GHP.to_string()),
            Just("password=\"hunter22\"".to_string()),
            "[ -~]{0,12}",
            "[gph_AKI\\-Q~ ]{0,8}",
        ], 0..12),
    ) {
        let text = parts.concat();
        let cow = scrub_cow(&set(), text.as_bytes());
        prop_assert_eq!(&cow[..], &whole(text.as_bytes())[..]);
        prop_assert_eq!(matches!(cow, Cow::Borrowed(_)), cow[..] == *text.as_bytes());
    }
}

/// A change after the first 64 KiB slice (the output is compared slice by slice until
/// then), and a clean text of several slices borrowed back whole.
#[test]
fn scrub_cow_across_slices() {
    let clean = "fn main() { println!(\"hello\"); }\n".repeat(8000);
    assert!(matches!(
        scrub_cow(&set(), clean.as_bytes()),
        Cow::Borrowed(_)
    ));
    let text = format!("{clean}token {GHP} end\n{clean}");
    let cow = scrub_cow(&set(), text.as_bytes());
    assert!(matches!(cow, Cow::Owned(_)));
    assert_eq!(cow.into_owned(), whole(text.as_bytes()));
    assert_eq!(
        String::from_utf8(whole(text.as_bytes())).unwrap(),
        format!("{clean}token [REDACTED:github-pat] end\n{clean}")
    );
}

#[test]
fn token_after_a_json_escape_is_found() {
    let text = format!("{{\"out\": \"line\\n{GHP}\\tx\"}}");
    assert_eq!(
        String::from_utf8(whole(text.as_bytes())).unwrap(),
        "{\"out\": \"line\\n[REDACTED:github-pat]\\tx\"}"
    );
    assert_eq!(streamed(text.as_bytes(), &[1]), whole(text.as_bytes()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Any bytes at all (invalid UTF-8, NULs, keyword fragments), any chunking: no panic,
    /// and the streamed output equals the whole output.
    #[test]
    fn d2_d6_arbitrary_bytes_any_chunking(
        parts in proptest::collection::vec(prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..40),
            Just(GHP.as_bytes().to_vec()),
            Just(b"password=".to_vec()),
            Just(b"-----BEGIN PRIVATE KEY-----".to_vec()),
            Just(b"\\n".to_vec()),
            Just(b"Authorization: Bearer ".to_vec()),
            Just(b"://u:".to_vec()),
        ], 0..10),
        sizes in proptest::collection::vec(1usize..50, 1..6),
    ) {
        let text = parts.concat();
        prop_assert_eq!(streamed(&text, &sizes), whole(&text));
    }
}

#[test]
fn jwt_in_a_json_string_stops_at_an_escaped_newline() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let text = format!("{{\"output\":\"TOKEN={jwt}\\nnext line\"}}");
    assert_eq!(
        String::from_utf8(whole(text.as_bytes())).unwrap(),
        "{\"output\":\"TOKEN=[REDACTED:jwt]\\nnext line\"}"
    );
    assert_eq!(streamed(text.as_bytes(), &[1]), whole(text.as_bytes()));
}

/// After an overflow, the swallow takes the overflow class and the UTF-8 continuation
/// bytes of the character the cut went through, and stops at the next character: the
/// output stays valid UTF-8, whole or in 1-byte chunks.
#[test]
fn d3_overflow_swallows_the_rest_of_a_cut_character() {
    let mut rule =
        scrubline_core::RuleSpec::custom("ov", "tok[a-z\\x80-\\xff]+", vec!["tok".into()]);
    rule.max_len = 16;
    rule.overflow = "[a-z]".to_string();
    let set = Arc::new(RuleSet::new(&[rule], &[], "[{rule}]").unwrap());
    // The 16th byte is the first of `é`: the cut is inside it.
    let text = "x tokabcdefghijkl\u{e9}\u{e9}\u{e9} rest".as_bytes();
    let want = "x [ov]\u{e9}\u{e9} rest";
    assert_eq!(String::from_utf8(scrub(&set, text)).unwrap(), want);
    assert_eq!(
        String::from_utf8(feed_in_chunks(&set, text, &[1])).unwrap(),
        want
    );
}
