//! A built-in rule's pattern is compiled once per process, on the first hit of its
//! keywords that its gate lets through: a scrubber made for a stream's literal secrets
//! compiles none up front, a hit that dies a few bytes on compiles none, and every
//! later rule set shares what was compiled. (A test binary of its own: what it counts
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

    // An agent's usage report names `tokens`, `secrets` and `API_KEY` whose next bytes
    // no rule reads on: their gates drop them, nothing is compiled, nothing changes.
    // (The gates read 4 bytes past a keyword: `"api_key_env":` would compile
    // `quoted-key-value`, whose `api_key[A-Za-z0-9_.-]{0,32}"` reads on through `_env`.)
    let usage = concat!(
        r#"{"type":"result","usage":{"input_tokens":7464,"cached_input_tokens":0,"#,
        r#""output_tokens":12},"max_tokens":1024,"secrets":[],"env":"OPENAI_API_KEY"}"#,
        "\n",
    );
    let set = RuleSet::builtin();
    assert_eq!(scrub(&set, usage), usage);
    assert_eq!(
        set.matchers_built(),
        1,
        "no rule compiled for hits that die"
    );

    // A hit its gate lets through compiles its rule, and is redacted as ever.
    assert_eq!(
        scrub(&set, "auth:\n  token: tmycnzpoak3kp9nzdcw7u\n"),
        "auth:\n  token: [REDACTED:secret-assignment]\n"
    );
    assert!(set.matchers_built() > 1);

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
