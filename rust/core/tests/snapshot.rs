//! A scrubber's state crossing a process boundary (K6, K7): feed(a); snapshot; restore;
//! feed(b); flush is feed(a+b); flush for every split, every rule family, literals and
//! custom rules; and every damaged, foreign or newer snapshot is refused whole.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use scrubline_core::scrub::rules;
use scrubline_core::scrub::{SNAPSHOT_FORMAT_VERSION, SNAPSHOT_MAGIC};
use scrubline_core::{scrub, Error, RuleSet, RuleSpec, Scrubber};

const LITERAL: &[u8] = b"correct-horse-battery";

/// Built-in rules, a custom rule and a literal secret: every tier at once.
fn full_set() -> Arc<RuleSet> {
    static SET: OnceLock<Arc<RuleSet>> = OnceLock::new();
    SET.get_or_init(|| {
        let custom = RuleSpec::custom("acme-key", "acme_[a-z0-9]{12}", vec!["acme_".into()]);
        Arc::new(RuleSet::new(&[custom], &[LITERAL.to_vec()], "[REDACTED:{rule}]").unwrap())
    })
    .clone()
}

/// Feed `text` in pieces cut at `cuts`, moving the stream to a restored scrubber at
/// every cut; return the output and the per-rule counts.
fn resumed(set: &Arc<RuleSet>, text: &[u8], cuts: &[usize]) -> (Vec<u8>, Vec<u64>) {
    let mut s = Scrubber::new(Arc::clone(set));
    let mut out = Vec::new();
    let mut at = 0;
    for &cut in cuts {
        let cut = cut.clamp(at, text.len());
        s.feed(&text[at..cut], &mut out);
        at = cut;
        let snap = s.snapshot();
        let held = s.held();
        s = Scrubber::restore(&snap, Arc::clone(set)).expect("own snapshot restores");
        assert_eq!(s.held(), held);
        // Restoring loses nothing the format knows about: it snapshots back the same.
        assert_eq!(s.snapshot(), snap);
    }
    s.feed(&text[at..], &mut out);
    s.flush(&mut out);
    (out, s.counts().map(|(_, n)| n).collect())
}

fn direct(set: &Arc<RuleSet>, text: &[u8]) -> (Vec<u8>, Vec<u64>) {
    let mut s = Scrubber::new(Arc::clone(set));
    let mut out = Vec::new();
    s.feed(text, &mut out);
    s.flush(&mut out);
    (out, s.counts().map(|(_, n)| n).collect())
}

#[test]
fn k6_every_vector_at_every_split_point() {
    let set = RuleSet::builtin();
    let full = full_set();
    for v in rules::vectors() {
        let text = v.text.as_bytes();
        for set in [&set, &full] {
            let want = direct(set, text);
            for cut in 0..=text.len() {
                assert_eq!(
                    resumed(set, text, &[cut]),
                    want,
                    "{}: split at {cut} of {:?}",
                    v.rule.id,
                    v.text
                );
            }
        }
    }
}

#[test]
fn k6_literal_custom_and_overflow_at_every_split_point() {
    let set = full_set();
    let mut texts: Vec<Vec<u8>> = vec![
        b"pw correct-horse-battery, b64 Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5 acme_0123456789ab!".to_vec(),
        b"key=acme_abcdefghijkl acme_short GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
            .to_vec(),
    ];
    let mut pem = b"x -----BEGIN PRIVATE KEY-----\n".to_vec();
    for _ in 0..40 {
        pem.extend_from_slice(b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789abcdef\n");
    }
    pem.extend_from_slice(b" tail");
    texts.push(pem);
    let mut long = b"token ghp_".to_vec();
    long.extend(std::iter::repeat_n(b'a', 400));
    long.extend_from_slice(b" after");
    texts.push(long);
    for text in &texts {
        let want = direct(&set, text);
        assert_eq!(want.0, scrub(&set, text));
        for cut in 0..=text.len() {
            assert_eq!(resumed(&set, text, &[cut]), want, "split at {cut}");
        }
    }
}

#[test]
fn k6_after_a_flush_the_next_stream_continues() {
    let set = full_set();
    let mut s = Scrubber::new(Arc::clone(&set));
    let mut out = Vec::new();
    s.feed(b"first correct-horse-battery", &mut out);
    s.flush(&mut out);
    s.feed(b"second ghp_aB3dE5gH7jK9mN1p", &mut out);
    let mut r = Scrubber::restore(&s.snapshot(), Arc::clone(&set)).unwrap();
    r.feed(b"Q3sT5vX7zA9cE1gI3kM5 end", &mut out);
    r.flush(&mut out);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "first [REDACTED:literal-secret]second [REDACTED:github-pat] end"
    );
    assert_eq!(r.redactions(), 2);
}

fn refusal(data: &[u8], set: &Arc<RuleSet>) -> String {
    match Scrubber::restore(data, Arc::clone(set)) {
        Ok(_) => panic!("restored a snapshot that should be refused"),
        Err(e @ Error::Snapshot { .. }) => e.to_string(),
        Err(e) => panic!("wrong error kind: {e}"),
    }
}

/// A snapshot with held-back bytes, a live candidate and counts.
fn busy_snapshot() -> Vec<u8> {
    let mut s = Scrubber::new(full_set());
    let mut out = Vec::new();
    s.feed(
        b"a correct-horse-battery b ghp_aB3dE5gH7jK9mN1pQ3s",
        &mut out,
    );
    assert!(s.held() > 0 && s.redactions() == 1);
    s.snapshot()
}

#[test]
fn k7_other_rules_are_refused() {
    let snap = busy_snapshot();
    let others = [
        RuleSet::builtin(),
        Arc::new(RuleSet::new(&[], &[LITERAL.to_vec()], "[REDACTED:{rule}]").unwrap()),
        Arc::new(
            RuleSet::new(
                &[RuleSpec::custom(
                    "acme-key",
                    "acme_[a-z0-9]{12}",
                    vec!["acme_".into()],
                )],
                &[b"correct-horse-batterz".to_vec()],
                "[REDACTED:{rule}]",
            )
            .unwrap(),
        ),
        Arc::new(
            RuleSet::new(
                &[RuleSpec::custom(
                    "acme-key",
                    "acme_[a-z0-9]{12}",
                    vec!["acme_".into()],
                )],
                &[LITERAL.to_vec()],
                "***",
            )
            .unwrap(),
        ),
        Arc::new(
            RuleSet::new(
                &[RuleSpec::custom(
                    "acme-key",
                    "acme_[a-z0-9]{13}",
                    vec!["acme_".into()],
                )],
                &[LITERAL.to_vec()],
                "[REDACTED:{rule}]",
            )
            .unwrap(),
        ),
    ];
    for other in &others {
        assert_ne!(other.fingerprint(), full_set().fingerprint());
        assert!(refusal(&snap, other).contains("other rules"));
    }
    // The same rules compiled again are the same rules.
    let again = Arc::new(
        RuleSet::new(
            &[RuleSpec::custom(
                "acme-key",
                "acme_[a-z0-9]{12}",
                vec!["acme_".into()],
            )],
            &[LITERAL.to_vec()],
            "[REDACTED:{rule}]",
        )
        .unwrap(),
    );
    assert!(Scrubber::restore(&snap, again).is_ok());
}

#[test]
fn k7_every_flipped_bit_is_refused() {
    let snap = busy_snapshot();
    let set = full_set();
    for i in 0..snap.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = snap.clone();
            bad[i] ^= bit;
            refusal(&bad, &set);
        }
    }
}

#[test]
fn k7_truncated_at_every_length_or_extended_is_refused() {
    let snap = busy_snapshot();
    let set = full_set();
    for n in 0..snap.len() {
        let msg = refusal(&snap[..n], &set);
        assert!(
            msg.contains("truncated") || msg.contains("magic"),
            "{n}: {msg}"
        );
    }
    let mut longer = snap.clone();
    longer.push(0);
    refusal(&longer, &set);
    refusal(b"", &set);
    refusal(b"not a snapshot at all, just some text", &set);
}

#[test]
fn k7_a_newer_format_is_refused_by_name() {
    let mut snap = busy_snapshot();
    assert_eq!(&snap[..8], SNAPSHOT_MAGIC);
    snap[8..10].copy_from_slice(&(SNAPSHOT_FORMAT_VERSION + 1).to_le_bytes());
    let msg = refusal(&snap, &full_set());
    assert!(msg.contains("newer"), "{msg}");
}

#[test]
fn k7_the_fingerprint_holds_no_literal_in_clear() {
    let mut s = Scrubber::new(full_set());
    let mut out = Vec::new();
    s.feed(b"nothing secret here", &mut out);
    let snap = s.snapshot();
    assert!(!snap.windows(LITERAL.len()).any(|w| w == LITERAL));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Mixtures of every family's credentials, cut anywhere, restored at every cut.
    #[test]
    fn k6_resumed_at_many_cuts_equals_one_pass(
        picks in proptest::collection::vec(any::<proptest::sample::Index>(), 0..6),
        fillers in proptest::collection::vec("[ -~]{0,10}", 6),
        cuts in proptest::collection::vec(0usize..400, 0..6),
    ) {
        let all: Vec<_> = rules::vectors().collect();
        let mut text = Vec::new();
        for (i, p) in picks.iter().enumerate() {
            text.extend_from_slice(fillers[i].as_bytes());
            text.extend_from_slice(p.get(&all).text.as_bytes());
        }
        text.extend_from_slice(b" correct-horse-battery acme_0123456789ab");
        let mut cuts = cuts;
        cuts.sort_unstable();
        let set = full_set();
        prop_assert_eq!(resumed(&set, &text, &cuts), direct(&set, &text));
    }

    /// Arbitrary bytes (invalid UTF-8 included) survive the round trip too.
    #[test]
    fn k6_arbitrary_bytes(
        text in proptest::collection::vec(any::<u8>(), 0..200),
        cut in 0usize..200,
    ) {
        let set = full_set();
        prop_assert_eq!(resumed(&set, &text, &[cut]), direct(&set, &text));
    }
}

#[test]
fn k6_a_snapshot_is_small() {
    let snap = busy_snapshot();
    let mut s = Scrubber::new(RuleSet::builtin());
    let mut out = Vec::new();
    s.feed(b"clean text", &mut out);
    let clean = s.snapshot();
    println!("busy {} bytes, clean {} bytes", snap.len(), clean.len());
    assert!(clean.len() < 200 && snap.len() < 400);
}

/// `data` with its checksum recomputed: what a forger (not a bit flip) would send.
fn resealed(mut data: Vec<u8>) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    let n = data.len() - 32;
    let sum = Sha256::digest(&data[..n]);
    data[n..].copy_from_slice(&sum);
    data
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A resealed snapshot with any body bytes changed is refused or restores into a
    /// scrubber that works: restoring never panics, nor does feeding it afterwards.
    #[test]
    fn k7_a_forged_body_never_panics(
        edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<u8>()), 1..4),
        more in "[ -~]{0,40}",
    ) {
        let snap = busy_snapshot();
        let body = 50..snap.len() - 32;
        let mut forged = snap.clone();
        for (at, byte) in edits {
            forged[body.start + at.index(body.len())] = byte;
        }
        if let Ok(mut s) = Scrubber::restore(&resealed(forged), full_set()) {
            let mut out = Vec::new();
            s.feed(more.as_bytes(), &mut out);
            s.flush(&mut out);
        }
    }
}

/// Counts whose sum does not fit a `u64` (each one in range) are refused, and a restored
/// scrubber reports the sum of the counts it was given.
#[test]
fn k7_forged_counts_that_overflow_are_refused() {
    let set = full_set();
    let mut s = Scrubber::new(Arc::clone(&set));
    let mut out = Vec::new();
    s.feed(
        b"a correct-horse-battery b ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 AKIAQ3ZP7XK2M5RT9WLA ",
        &mut out,
    );
    let fired = s.counts().filter(|&(_, n)| n > 0).count();
    assert!(fired >= 2 && s.redactions() >= 2);
    let snap = s.snapshot();
    let restored = Scrubber::restore(&snap, Arc::clone(&set)).unwrap();
    assert_eq!(restored.redactions(), s.redactions());
    // The counts: the number of rules, the number that fired, then (u32 rule, u64 n).
    let rules = s.counts().count() as u64;
    let head = [rules.to_le_bytes(), (fired as u64).to_le_bytes()].concat();
    let at = snap
        .windows(16)
        .position(|w| w == head)
        .expect("the counts")
        + 16;
    let mut forged = snap.clone();
    for k in 0..fired {
        let n = at + k * 12 + 4;
        forged[n..n + 8].copy_from_slice(&(u64::MAX / 2 + 1).to_le_bytes());
    }
    assert!(refusal(&resealed(forged), &set).contains("counts overflow"));
}

#[test]
fn k7_forged_offsets_are_refused() {
    let snap = busy_snapshot();
    // base, emitted, scanned are the body's first three u64s: emitted before base.
    let mut forged = snap.clone();
    forged[58..66].copy_from_slice(&0u64.to_le_bytes());
    forged[50..58].copy_from_slice(&5u64.to_le_bytes());
    assert!(refusal(&resealed(forged), &full_set()).contains("corrupt"));
}

#[test]
fn k7_a_forged_match_end_before_its_start_is_refused() {
    let snap = busy_snapshot();
    // The last candidate's `best` is absent; its fate tag is the byte before the
    // checksum. Rewrite the fate as `Done(Some(0))`: a match ending before it starts.
    let n = snap.len() - 32;
    let mut forged = snap[..n].to_vec();
    assert_eq!(forged[n - 1], 0, "the last candidate is live");
    forged[n - 1] = 2;
    forged.extend_from_slice(&0u64.to_le_bytes());
    forged.extend_from_slice(&[0; 32]);
    let len = u64::from_le_bytes(forged[42..50].try_into().unwrap()) + 8;
    forged[42..50].copy_from_slice(&len.to_le_bytes());
    assert!(refusal(&resealed(forged), &full_set()).contains("out of range"));
}
