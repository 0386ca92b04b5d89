//! Adversarial inputs (the scrubber): each test states its bound. Time is
//! bounded through `Scrubber::work` (keyword hits examined plus bytes fed to candidate
//! DFAs), memory through `Scrubber::held`; no clocks. The throughput of the same inputs
//! is measured by `TESTS=1 cargo run --release -p scrubline-bench --example worst`.

use scrubline_core::{RuleSet, Scrubber};

#[path = "common/worst_inputs.rs"]
mod worst_inputs;
use worst_inputs::*;

const N: usize = 1 << 20;

struct Run {
    out: Vec<u8>,
    work: u64,
    held_max: usize,
}

fn run(text: &[u8], chunk: usize) -> Run {
    let mut s = Scrubber::new(RuleSet::builtin());
    let mut out = Vec::new();
    let mut held_max = 0;
    for piece in text.chunks(chunk) {
        s.feed(piece, &mut out);
        held_max = held_max.max(s.held());
    }
    s.flush(&mut out);
    Run {
        out,
        work: s.work(),
        held_max,
    }
}

fn repeat(unit: &str, size: usize) -> Vec<u8> {
    unit.as_bytes().iter().copied().cycle().take(size).collect()
}

/// Prefix storms and near-misses: linear work (at most 16 units per input byte) and the
/// text comes out unchanged (none of them is a credential), in 4 KiB writes and a byte
/// at a time (each write asks its candidates again; those on a path the memo knows
/// wait for its end).
#[test]
fn prefix_storms_are_linear_and_left_alone() {
    for (chunk, size) in [(4096, N), (1, 1 << 16)] {
        for unit in PREFIX_STORMS {
            let text = repeat(unit, size);
            let r = run(&text, chunk);
            assert!(
                r.work <= 16 * size as u64,
                "{unit:?} in {chunk}-byte writes: work {} for {size} bytes",
                r.work
            );
            assert!(r.held_max <= 4096, "{unit:?}: held {}", r.held_max);
            assert_eq!(
                r.out, text,
                "{unit:?} in {chunk}-byte writes: output changed"
            );
        }
    }
}

/// Storms made only of a token's own characters (`glpat-glpat-…`, `eyJeyJ…`) read as
/// one token that outgrows its rule: redacted once, the rest swallowed, memory bounded.
#[test]
fn storms_of_token_characters_are_one_overflow() {
    for (unit, expect) in TOKEN_STORMS {
        let text = repeat(unit, N);
        let r = run(&text, 4096);
        assert_eq!(String::from_utf8_lossy(&r.out), expect, "{unit:?}");
        assert!(r.work <= 16 * N as u64, "{unit:?}: work {}", r.work);
        assert!(r.held_max <= 64 << 10, "{unit:?}: held {}", r.held_max);
    }
}

/// Candidates of one rule that live long and overlap (`eyJ-eyJ-…` 2,000 times, then
/// `!`: each `eyJ` is a JWT candidate alive to the `!`): not one pass per candidate
/// over the whole run (1,000 units per byte before candidates joined the path of the
/// one before), nor a candidate per hit (2.5 units a byte before they followed the
/// first: now 0.05 in 64 KiB chunks, 0.23 in 4 KiB ones), and the text left alone.
#[test]
fn overlapping_long_candidates_are_linear() {
    let text = repeat(&overlapping_long_candidates(), N);
    for chunk in [4096, 65536] {
        let r = run(&text, chunk);
        assert_eq!(r.out, text, "output changed in {chunk}-byte chunks");
        assert!(r.work <= N as u64 / 2, "work {} for {N} bytes", r.work);
    }
    assert_eq!(run(&text[..1 << 16], 7).out, &text[..1 << 16]);
}

/// Near-miss tokens, one character short and one long, repeated: left alone, linear.
#[test]
fn near_miss_tokens_are_left_alone() {
    // npm tokens are exactly 36 after the prefix (GitHub's are accepted from 36 to 255).
    for unit in NEAR_MISS_TOKENS {
        let text = repeat(unit, N);
        let r = run(&text, 1000);
        assert_eq!(r.out, text);
        assert!(r.work <= 4 * N as u64, "work {}", r.work);
    }
}

/// Tokens of 130 to 250 bytes printed back to back with no separator (as a fuzzer
/// wrote them): each runs on into the next copy and dies there, a path too long for
/// the prefilter's kill. Every later copy is decided by the memo after a comparison,
/// not read again by its rule's DFA (a tenth of a unit a byte; about one before),
/// and left alone.
#[test]
fn long_tokens_run_together_are_judged_once() {
    left_alone_within(&LONG_TOKENS_RUN_TOGETHER, N as u64 / 4);
}

/// Tokens of 70 to 110 bytes printed back to back (each runs on into the next copy, so
/// none is a key), with a hit or three every copy: fewer than a dense block needs by
/// their number, and each hit went on to the scrubber to be dropped there. They repeat,
/// so their blocks go dense, and there the hits of a period are judged and the rest
/// counted (work per MiB: 43,210 before for the first, 189-194 now).
#[test]
fn repeating_tokens_run_together_are_counted() {
    left_alone_within(&REPEATING_TOKENS_RUN_TOGETHER, N as u64 / 256);
}

/// Each of `units` repeated to [`N`] bytes, fed in 64 KiB chunks: the output is the
/// input, and the work at most `most`.
fn left_alone_within(units: &[&str], most: u64) {
    for unit in units {
        let text = repeat(unit, N);
        let r = run(&text, 65536);
        assert_eq!(r.out, text, "{}: output changed", &unit[..12]);
        assert!(r.work <= most, "{}: work {}", &unit[..12], r.work);
    }
}

/// A Mailchimp key and a Twilio key SID printed back to back with their names
/// (`…cbd7c-us21MAILCHIMP_KEY=…`): no key, since the next name runs into each one.
/// Their hits are judged in the prefilter's pass and the rest of each repeating
/// stretch counted, not sent one by one to the scrubber to be dropped at their start
/// (for the Mailchimp rule the judgement starts at the run of 32 hex digits before
/// `-us`).
#[test]
fn keys_run_into_their_names_are_dropped_where_found() {
    // A unit of work a hit before (~20,000); ~200-900 now.
    left_alone_within(&KEYS_RUN_INTO_NAMES, N as u64 / 256);
}

/// Candidates that never resolve: memory stays bounded by the rule's cap, the span is
/// redacted (never released), and the work is linear.
#[test]
fn never_resolving_candidates_are_capped_and_redacted() {
    for (head, body, expect) in NEVER_RESOLVING {
        let mut text = head.as_bytes().to_vec();
        text.extend(repeat(body, 8 * N));
        let r = run(&text, 65536);
        assert_eq!(String::from_utf8_lossy(&r.out), expect, "{head:?}");
        assert!(r.held_max <= 64 << 10, "{head:?}: held {}", r.held_max);
        assert!(r.work <= 2 * text.len() as u64, "{head:?}: work {}", r.work);
        // The cap does not depend on how the bytes arrive.
        assert_eq!(run(&text, 7).out, r.out, "{head:?} in 7-byte chunks");
    }
}

/// One-byte chunks of a large input: the work per byte does not grow with the stream
/// (no rescanning of what was already decided).
#[test]
fn one_byte_chunks_do_constant_work_per_byte() {
    let text = agent_text(N);
    let small = run(&text[..N / 4], 1).work as f64 / (N / 4) as f64;
    let large = run(&text, 1).work as f64 / N as f64;
    assert!(
        large <= small * 1.5 + 0.01,
        "work per byte {small:.3} -> {large:.3}"
    );
}

/// Agent-like text with credentials, built from the vectors' shapes.
fn agent_text(size: usize) -> Vec<u8> {
    let lines = [
        "def load(path):\n    return json.load(open(path))\n",
        "tests/test_api.py::test_create PASSED [ 42%]\n",
        "export GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5\n",
        "{\"tool\":\"bash\",\"output\":\"total 48\\n-rw-r--r-- README.md\\n\"}\n",
        "The handler sees an empty form; I will move the parsing step.\n",
    ];
    lines
        .iter()
        .cycle()
        .flat_map(|l| l.bytes())
        .take(size)
        .collect()
}

/// A storm of every built-in keyword (`sk-sk-sk-…`, `ghp_ghp_…`, `eyJeyJ…`, as written
/// and upper-cased): the output does not depend on the chunking (1-byte chunks
/// included), memory stays bounded and the work linear.
#[test]
fn every_keyword_storm_is_split_invariant_and_bounded() {
    const STORM: usize = 4096;
    let mut keywords: Vec<String> = scrubline_core::scrub::rules::builtin()
        .flat_map(|r| r.keywords.iter())
        .flat_map(|k| [k.to_string(), k.to_ascii_uppercase()])
        .collect();
    keywords.sort();
    keywords.dedup();
    let mut heavy = Vec::new();
    for k in &keywords {
        let text = repeat(k, STORM);
        let whole = run(&text, STORM);
        for chunk in [1, 7] {
            let r = run(&text, chunk);
            assert_eq!(r.out, whole.out, "{k:?} in {chunk}-byte chunks");
            assert!(r.held_max <= 64 << 10, "{k:?}: held {}", r.held_max);
        }
        if whole.work > 16 * STORM as u64 {
            heavy.push((k.clone(), whole.work / STORM as u64));
        }
    }
    assert!(heavy.is_empty(), "work per byte over 16: {heavy:?}");
}

/// The storms named in the scrubber's documentation, exactly: a prefix repeated is not
/// a credential (left alone), a run of a token's own characters is one overflow.
#[test]
fn named_storms_have_exact_outputs() {
    for (unit, expect) in [
        ("sk-", None),
        ("SK-", None),
        ("ghp_", None),
        ("GHP_", None),
        ("xoxb-", None),
        ("AKIA", None),
        ("sk-ant-api03-", None),
        ("eyJ", Some("[REDACTED:jwt]")),
        ("glpat-", Some("[REDACTED:gitlab-pat]")),
    ] {
        let text = repeat(unit, 1 << 16);
        for chunk in [1, 4096] {
            let out = run(&text, chunk).out;
            match expect {
                None => assert!(out == text, "{unit:?} in {chunk}-byte chunks changed"),
                Some(e) => assert_eq!(String::from_utf8_lossy(&out), e, "{unit:?}"),
            }
        }
    }
}

/// Pieces of the texts the property tests below make: JWT parts (the first nine), then
/// keywords, values and breaks of other rules.
const PIECES: [&str; 23] = [
    "eyJ-",
    "eyJ",
    "aB3dE5gH7jK9mN1pQ3sT",
    ".",
    ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.",
    "!",
    "AAAA",
    " ",
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "TOKEN",
    "api_key=",
    "abc12345",
    "\"",
    "ghp_",
    "sk-ant-api03-",
    "=",
    "\n",
    "x",
    "AZDO",
    "0123456789abcdefghij",
    "token = token_157985",
    "TOKEN: WIN32_ERROR",
    "password=hunter2",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Overlapping JWT candidates that join each other's trails (`eyJ-eyJ-…`), with
    /// real tokens, dots, overflows and cuts among them: the output does not depend on
    /// the chunking, which moves where candidates meet and where trails are joined.
    #[test]
    fn joined_candidates_are_split_invariant(
        pieces in proptest::collection::vec(0usize..9, 0..300),
        chunk in 1usize..200,
    ) {
        let text: Vec<u8> = pieces.iter().flat_map(|&i| PIECES[i].bytes()).collect();
        split_invariant(&text, chunk)?;
    }

    /// Periodic text (a unit of keywords, values and breaks repeated, with a few bytes
    /// changed): later candidates read what earlier ones read and take their outcome
    /// from the rule's memo, matched or not; the output does not depend on the
    /// chunking, which changes which candidates can.
    #[test]
    fn memoised_candidates_are_split_invariant(
        unit in proptest::collection::vec(0..PIECES.len(), 1..6),
        times in 2usize..60,
        edits in proptest::collection::vec((0usize..4000, 0..PIECES.len()), 0..4),
        chunk in 1usize..200,
    ) {
        let one: Vec<u8> = unit.iter().flat_map(|&i| PIECES[i].bytes()).collect();
        let mut text: Vec<u8> = one.iter().copied().cycle().take(one.len() * times).collect();
        for (at, p) in edits {
            let at = at % text.len();
            text.splice(at..at, PIECES[p].bytes());
        }
        split_invariant(&text, chunk)?;
    }
}

/// `text` comes out the same whole, in `chunk`-byte chunks and in 1-byte chunks.
fn split_invariant(text: &[u8], chunk: usize) -> Result<(), proptest::test_runner::TestCaseError> {
    let whole = run(text, text.len().max(1)).out;
    proptest::prop_assert_eq!(&run(text, chunk).out, &whole);
    proptest::prop_assert_eq!(&run(text, 1).out, &whole);
    Ok(())
}

/// A periodic text whose every unit holds a credential: every candidate after the
/// first takes its match from the memo, and every value is redacted.
#[test]
fn periodic_matches_are_each_redacted() {
    let text = repeat("api_key=abc12345 ", 17 * 1000);
    let expect = repeat("api_key=[REDACTED:secret-assignment] ", 37 * 1000);
    for chunk in [1, 7, 4096, 1 << 20] {
        assert_eq!(run(&text, chunk).out, expect, "{chunk}-byte chunks");
    }
}

/// A keyword that needs a run before it (an Azure DevOps PAT: 76 alphanumerics, then
/// `AZDO`), in a storm of itself and after one: the storm is left alone, the tokens
/// after it are redacted, however the text is split.
#[test]
fn runs_before_keywords_in_storms() {
    let token = format!("{}AZDO{}", "a1B2".repeat(19), "x9Z8");
    let mut text = repeat("AZDO", 1 << 14);
    for _ in 0..50 {
        text.extend_from_slice(format!(" {token}").as_bytes());
    }
    text.push(b' ');
    text.extend(repeat("AZDO", 4097));
    let mut expect = repeat("AZDO", 1 << 14);
    expect.extend(repeat(" [REDACTED:azure-devops-pat]", 50 * 28));
    expect.push(b' ');
    expect.extend(repeat("AZDO", 4097));
    for chunk in [1, 7, 4096, 1 << 20] {
        let out = run(&text, chunk).out;
        assert!(
            out == expect,
            "{chunk}-byte chunks: {}",
            String::from_utf8_lossy(&out)
        );
    }
}

/// Lines printed again and again, each with credentials in it: every copy is
/// redacted, and after the first periods of each chunk the rest are copied, not
/// decided again (work per MiB: 1,125,053 and 1,275,643 before, 36,886 and 32,495
/// now).
#[test]
fn repeated_credentials_are_copied() {
    for line in [
        "password = 'correct horse battery staple'\n",
        "$ stripe listen --api-key sk_test_nyxmjvv57yIka7PRadj5Sfjn\n> Ready!\n",
    ] {
        let text = repeat(line, N - N % line.len());
        let one = run(line.as_bytes(), line.len()).out;
        let r = run(&text, 65536);
        assert!(r.out == one.repeat(text.len() / line.len()), "{line:?}");
        assert!(r.work <= N as u64 / 16, "{line:?}: work {}", r.work);
    }
}

/// Storms that do not repeat (see [`varied_storm`], [`WRONG_CASE_STORMS`],
/// [`LOOK_ALIKE_STORMS`], [`TWO_BETWEEN_STORMS`], [`SPREAD_STORMS`] and [`runs_of_a`];
/// the `worst` example's inputs of those names), where the text has no period and
/// every hit is read: the work stays linear, at most 16 units a byte, memory bounded,
/// and the output does not depend on the chunking. (scrubber.md: "What an attacker
/// can still choose".)
#[test]
fn storms_that_do_not_repeat_are_linear_and_split_invariant() {
    const SIZE: usize = 1 << 16;
    let inputs = (VARIED_STORMS
        .into_iter()
        .chain(WRONG_CASE_STORMS)
        .chain(LOOK_ALIKE_STORMS))
    .map(|unit| (unit, varied_storm(unit, SIZE)))
    .chain(TWO_BETWEEN_STORMS.map(|unit| (unit, varied_storm_by(unit, SIZE, 2))))
    .chain(SPREAD_STORMS.map(|(unit, n)| (unit, varied_storm_by(unit, SIZE, n))))
    .chain([("runs of a", runs_of_a(SIZE))]);
    for (unit, text) in inputs {
        let whole = run(&text, SIZE).out;
        for chunk in [SIZE, 1, 7, 4096] {
            let r = run(&text, chunk);
            assert!(r.held_max <= 4096, "{unit:?}: held {}", r.held_max);
            assert_eq!(r.out, whole, "{unit:?} in {chunk}-byte chunks");
            assert!(
                r.work <= 16 * text.len() as u64,
                "{unit:?} in {chunk}-byte chunks: work {} for {} bytes",
                r.work,
                text.len()
            );
        }
    }
}

/// Storms of a keyword whose rule reads a bounded run of word bytes after it, with an
/// alphanumeric byte after each copy (`tokenatokenZtoken0…`): each hit's run goes on
/// past its rule's bound, through the next copies. In writes of 4 KiB and more the
/// dense blocks drop each hit where its run ends, unread: under one unit of work in
/// four bytes (a candidate a hit, each fed its ~38 bytes, was 4-6.4 a byte). In small
/// writes each hit is still a candidate, fed as its bytes arrive (linear: at most 16
/// a byte). None of it is a credential, whatever the chunking.
#[test]
fn word_storms_die_by_their_run() {
    const SIZE: usize = 1 << 18;
    for unit in WORD_STORMS {
        let text = word_storm(unit, SIZE);
        for chunk in [SIZE, 65536, 4096, 7] {
            let r = run(&text, chunk);
            assert_eq!(r.out, text, "{unit:?} in {chunk}-byte chunks");
            assert!(r.held_max <= 4096, "{unit:?}: held {}", r.held_max);
            let most = if chunk >= 4096 { SIZE / 4 } else { 16 * SIZE };
            assert!(
                r.work <= most as u64,
                "{unit:?} in {chunk}-byte chunks: work {} for {SIZE} bytes",
                r.work
            );
        }
    }
}
