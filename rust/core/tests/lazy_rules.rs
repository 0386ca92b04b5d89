//! A built-in rule's pattern is compiled once per process, on the first hit of its
//! keywords that could match: a scrubber made for a stream's literal secrets compiles
//! none up front, a hit that dies in the bytes at hand compiles none, and every later
//! rule set shares what was compiled. (A test binary of its own: what it counts
//! is the process's.)

use std::sync::Arc;

use scrubline_core::{RuleSet, Scrubber};

fn with_literal(secret: &str) -> Arc<RuleSet> {
    let literals = [secret.as_bytes().to_vec()];
    Arc::new(RuleSet::new(&[], &literals, "[REDACTED:{rule}]").expect("a valid literal"))
}

fn scrub(set: &Arc<RuleSet>, text: &str) -> String {
    let mut s = Scrubber::new(Arc::clone(set));
    let mut out = Vec::new();
    s.feed(text.as_bytes(), &mut out);
    s.flush(&mut out);
    String::from_utf8(out).expect("UTF-8 in, UTF-8 out")
}

#[test]
fn built_in_patterns_compile_on_first_hit_once_per_process() {
    let first = with_literal("correct-horse-battery-staple");
    let scrubber = Scrubber::new(Arc::clone(&first));
    assert_eq!(
        first.matchers_built(),
        0,
        "a new scrubber compiles no pattern"
    );
    drop(scrubber);

    // One keyword hit, of GitHub's `ghp_`: its rule's pattern, and no other, is built.
    let text = "see ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e, then correct-horse-battery-staple\n";
    assert_eq!(
        scrub(&first, text),
        "see [REDACTED:github-pat], then [REDACTED:literal-secret]\n"
    );
    assert_eq!(first.matchers_built(), 1);

    // Another set, with another literal: the compiled pattern is shared.
    let second = with_literal("purple-monkey-dishwasher");
    assert_eq!(second.matchers_built(), 1);
    assert_eq!(
        scrub(
            &second,
            "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e purple-monkey-dishwasher"
        ),
        "[REDACTED:github-pat] [REDACTED:literal-secret]"
    );
    assert_eq!(second.matchers_built(), 1);
    assert_eq!(RuleSet::builtin().matchers_built(), 1);

    // An agent's usage report names `tokens`, `secrets` and `api_key` whose next
    // bytes no rule reads on (the gates drop most; `quoted-key-value` reads
    // `api_key_env` on past the gate's 4 bytes, and its lazy DFA dies at the `:`):
    // nothing is compiled, nothing changes.
    let usage = concat!(
        r#"{"type":"result","usage":{"input_tokens":7464,"cached_input_tokens":0,"#,
        r#""output_tokens":12},"max_tokens":1024,"secrets":[],"api_key_env":"OPENAI_API_KEY"}"#,
        "\n",
    );
    let set = RuleSet::builtin();
    assert_eq!(scrub(&set, usage), usage);
    assert_eq!(
        set.matchers_built(),
        1,
        "no rule compiled for hits that die"
    );

    // Prose and a certificate whose keywords' rules read on past the gates' reach and
    // die a few words on (`netrc-password` wants a host with a dot after `machine`,
    // `private-key-pem` `PRIVATE KEY` within 40 bytes of `-----BEGIN`): read by the
    // rules' lazy DFAs, nothing compiled, nothing changed.
    let prose = concat!(
        "the machine learning model runs on this machine as mysql does\n",
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUbx\n-----END CERTIFICATE-----\n",
    );
    assert_eq!(scrub(&set, prose), prose);
    assert_eq!(set.matchers_built(), 1, "no rule compiled for prose");

    // Again and again, with a count between them (text that repeats has its hits
    // answered a period at a time, not read): each read by the lazy DFA, nothing
    // compiled (`probes_compile_their_rule_once_they_have_read_enough` states when
    // that stops).
    let units: String = (0..64)
        .map(|i| format!("the machine learning model, run {i}: lorem ipsum dolor\n"))
        .collect();
    assert_eq!(scrub(&set, &units), units);
    assert_eq!(set.matchers_built(), 1, "a few hits compile nothing");

    // A hit that may match compiles its rule, and is redacted as ever.
    assert_eq!(
        scrub(
            &set,
            "machine github.com login octocat password fRaMxk1KIAhEP9K6"
        ),
        "machine github.com login octocat password [REDACTED:netrc-password]"
    );
    assert_eq!(set.matchers_built(), 2);
    assert_eq!(
        scrub(&set, "auth:\n  token: tmycnzpoak3kp9nzdcw7u\n"),
        "auth:\n  token: [REDACTED:secret-assignment]\n"
    );
    assert_eq!(set.matchers_built(), 3);

    // Split anywhere, the same output (a hit whose next bytes have not arrived is a
    // candidate, and compiles its rule, as before).
    for cut in 0..usage.len() {
        let mut s = Scrubber::new(Arc::clone(&set));
        let mut out = Vec::new();
        s.feed(&usage.as_bytes()[..cut], &mut out);
        s.feed(&usage.as_bytes()[cut..], &mut out);
        s.flush(&mut out);
        assert_eq!(String::from_utf8(out).unwrap(), usage, "cut at {cut}");
    }
}
