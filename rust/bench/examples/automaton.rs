//! One automaton for every rule, over the inputs the scrubber reads hit by hit: what a
//! design with no step per keyword hit would read them at, beside the scrubber in the
//! same run. `cargo run --release -p scrubline-bench --example automaton` (SIZE_MIB:
//! the size of each input, 4 by default).
//!
//! Three readers of the same bytes, each the best of three runs:
//! * the scrubber, in 64 KiB chunks (detects, holds back and redacts);
//! * regex-automata's lazy DFA over every built-in pattern at once (unanchored,
//!   leftmost-first, no guards, validators or hold-back: less work than the scrubber's),
//!   with a 64 MiB cache;
//! * regex-automata's dense DFA of one rule's pattern (`ghp_…`), built ahead, with no
//!   literal search and no accelerated states: one rule's few states stay in the
//!   first-level cache, so a byte costs one table load, each dependent on the last.
//!   No automaton that reads every byte reads faster than this one.
//!
//! The regex crate's own engine (`meta`, as `RegexSet` or `Regex::new_many` would use
//! it) is timed on the first 256 KiB of clean text only: it reads it at well under
//! 1 MB/s (its lazy DFA's default cache cannot hold the rules' states; given 64 MiB,
//! as the lazy DFA above is, it read 129 MB/s in one run).
use std::time::Instant;

use regex_automata::{dfa, hybrid, meta, nfa::thompson, util::syntax, Input};
use scrubline_bench::corpus;
use scrubline_core::{scrub::rules::FAMILIES, RuleSet, Scrubber};

#[path = "../../core/tests/common/worst_inputs.rs"]
#[allow(dead_code)]
mod worst_inputs;
use worst_inputs::*;

/// The best of three runs of `f` over `text`, in MB/s, and what the last run returned.
fn best(text: &[u8], mut f: impl FnMut(&[u8]) -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..3 {
        let t = Instant::now();
        n = f(text);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (text.len() as f64 / best / 1e6, n)
}

fn main() {
    let patterns: Vec<&str> = (FAMILIES.iter().flat_map(|f| f.rules))
        .map(|r| r.pattern)
        .filter(|p| !p.is_empty())
        .collect();
    // Bytes, not UTF-8, as the scrubber reads them; room for the counted repetitions.
    let syntax = syntax::Config::new().unicode(false).utf8(false);
    let big = Some(1 << 30);
    let lazy = hybrid::regex::Regex::builder()
        .syntax(syntax)
        .thompson(thompson::Config::new().nfa_size_limit(big).utf8(false))
        .dfa(hybrid::dfa::Config::new().cache_capacity(64 << 20))
        .build_many(&patterns)
        .expect("the lazy DFA of every pattern");
    let mut cache = lazy.create_cache();
    let one = dfa::regex::Regex::builder()
        .syntax(syntax)
        .thompson(thompson::Config::new().utf8(false))
        // No literal search ahead of it, no skipping from a state: it reads every byte.
        .dense(dfa::dense::Config::new().prefilter(None).accelerate(false))
        .build(r"ghp_[A-Za-z0-9]{36}")
        .expect("the dense DFA of one pattern");
    let set = RuleSet::builtin();

    let n: usize = std::env::var("SIZE_MIB").map_or(4, |v| v.parse().expect("SIZE_MIB")) << 20;
    let (clean, _) = corpus(n, None);
    let meta = meta::Regex::builder()
        .syntax(syntax)
        .configure(meta::Config::new().nfa_size_limit(big).utf8_empty(false))
        .build_many(&patterns)
        .expect("the regex crate's engine of every pattern");
    let (rate, _) = best(&clean[..256 << 10], |t| meta.find_iter(t).count());
    println!(
        "{} patterns; the regex crate's engine (meta) reads clean text at {rate:.2} MB/s",
        patterns.len()
    );

    let mut inputs: Vec<(String, Vec<u8>)> = vec![("clean corpus".into(), clean)];
    for unit in VARIED_STORMS {
        inputs.push((format!("varied storm {unit:?}"), varied_storm(unit, n)));
    }
    inputs.push(("runs of a, no period".into(), runs_of_a(n)));
    println!(
        "{:>28}  {:>18}  {:>24}  {:>22}",
        "input", "scrubber MB/s", "lazy DFA, all rules", "dense DFA, one rule"
    );
    for (name, text) in &inputs {
        let (ours, redacted) = best(text, |t| {
            let mut s = Scrubber::new(set.clone());
            let mut out = Vec::with_capacity(t.len() + 1024);
            for piece in t.chunks(65536) {
                s.feed(piece, &mut out);
            }
            s.flush(&mut out);
            s.redactions() as usize
        });
        let (all, _) = best(text, |t| lazy.find_iter(&mut cache, Input::new(t)).count());
        let (single, _) = best(text, |t| one.find_iter(t).count());
        println!(
            "{name:>28}  {ours:>9.1} ({redacted:>6})  {all:>9.1} ({:>5.2}x ours)  \
             {single:>9.1} ({:>5.2}x ours)",
            all / ours,
            single / ours
        );
    }
}
