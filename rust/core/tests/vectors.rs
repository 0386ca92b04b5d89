//! Every rule against its vectors (D4, D5), whole and streamed, and split invariance on
//! random mixtures of every rule's credentials (D2). The vectors live beside their rules;
//! tests/fixtures/rules/vectors.jsonl is their copy for the Python tests, kept in sync here.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use scrubline_core::scrub::rules::{self, Vector};
use scrubline_core::{scrub, RuleSet};

mod common;
use common::feed_in_chunks;

/// Every family's vectors (they live beside their rules in rust/core/src/scrub/rules/).
fn vectors() -> &'static [Vector] {
    static V: OnceLock<Vec<Vector>> = OnceLock::new();
    V.get_or_init(|| rules::vectors().copied().collect())
}

const JSONL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/rules/vectors.jsonl"
);

/// The vectors as JSON lines `{"rule", "text", "expect"}`, in priority order.
fn jsonl() -> String {
    let mut out = String::new();
    for v in vectors() {
        let line = serde_json::json!({"rule": v.rule.id, "text": v.text, "expect": v.expect});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// The Python tests and the fuzz seeds read the vectors from tests/fixtures/rules/
/// vectors.jsonl: it must be exactly what the family files hold. Regenerate with
/// `SCRUBLINE_WRITE_VECTORS=1 cargo test -p scrubline-core --test vectors`.
#[test]
fn d4_vectors_jsonl_is_in_sync_with_the_family_files() {
    let want = jsonl();
    if std::env::var_os("SCRUBLINE_WRITE_VECTORS").is_some() {
        std::fs::write(JSONL, &want).expect("write vectors.jsonl");
    }
    let have = std::fs::read_to_string(JSONL).unwrap_or_default();
    assert!(
        have == want,
        "tests/fixtures/rules/vectors.jsonl is stale: run \
         SCRUBLINE_WRITE_VECTORS=1 cargo test -p scrubline-core --test vectors"
    );
}

#[test]
fn every_builtin_rule_compiles() {
    // Built-in matchers are built on first use; this is where a bad pattern would show.
    RuleSet::builtin()
        .compile_all()
        .expect("every built-in rule compiles");
}

#[test]
fn d4_every_rule_has_positive_and_negative_vectors() {
    let set = RuleSet::builtin();
    let ids: BTreeSet<String> = set.rules().into_iter().map(|r| r.id).collect();
    for id in ids.iter().filter(|id| id.as_str() != "literal-secret") {
        let mine: Vec<&Vector> = vectors().iter().filter(|v| v.rule.id == id).collect();
        assert!(
            mine.iter().any(|v| v.text != v.expect),
            "{id}: no positive vector"
        );
        assert!(
            mine.iter().any(|v| v.text == v.expect),
            "{id}: no negative vector"
        );
    }
    for v in vectors() {
        assert!(
            ids.contains(v.rule.id),
            "vector for unknown rule {}",
            v.rule.id
        );
    }
}

#[test]
fn d4_d5_vectors_whole_and_in_chunks_of_1_2_7() {
    let set = RuleSet::builtin();
    let mut failures = Vec::new();
    for v in vectors() {
        let whole = String::from_utf8_lossy(&scrub(&set, v.text.as_bytes())).into_owned();
        if whole != v.expect {
            failures.push(format!(
                "{}: {:?}\n   got    {:?}\n   expect {:?}",
                v.rule.id, v.text, whole, v.expect
            ));
            continue;
        }
        for sizes in [[1usize], [2], [7]] {
            let out = feed_in_chunks(&set, v.text.as_bytes(), &sizes);
            assert_eq!(
                String::from_utf8_lossy(&out),
                v.expect,
                "{} in chunks of {sizes:?}",
                v.rule.id
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// D2 on random mixtures: vector texts of any rules, glued with random filler, split
    /// at random points. Streamed output equals whole output.
    #[test]
    fn d2_streamed_equals_whole_on_every_rule(
        picks in proptest::collection::vec((any::<proptest::sample::Index>(), "[ -~\n]{0,6}"), 1..10),
        sizes in proptest::collection::vec(1usize..64, 1..8),
    ) {
        let vs = vectors();
        let mut text = String::new();
        for (ix, filler) in &picks {
            text.push_str(vs[ix.index(vs.len())].text);
            text.push_str(filler);
        }
        let set = RuleSet::builtin();
        prop_assert_eq!(feed_in_chunks(&set, text.as_bytes(), &sizes), scrub(&set, text.as_bytes()));
    }

    /// D2 with every positive vector split at one random point: nothing of the secret
    /// leaves the scrubber before the split is healed, and the output is the expected one.
    #[test]
    fn d2_single_split_inside_any_credential(ix in any::<proptest::sample::Index>(), cut in any::<proptest::sample::Index>()) {
        let positives: Vec<&Vector> = vectors().iter().filter(|v| v.text != v.expect).collect();
        let v = positives[ix.index(positives.len())];
        let cut = cut.index(v.text.len() + 1);
        let set = RuleSet::builtin();
        let out = feed_in_chunks(&set, v.text.as_bytes(), &[cut.max(1), usize::MAX]);
        prop_assert_eq!(String::from_utf8_lossy(&out), v.expect);
    }
}
