//! Latency per 32-byte delta (the size of an LLM token delta), through the Rust API:
//! `cargo run --release -p scrubline-bench --example latency`. Prints p50/p99/p99.9.

use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

fn main() {
    let set = RuleSet::builtin();
    for (name, every) in [("clean", None), ("dense 1/4KiB", Some(4096))] {
        let (text, _) = corpus(16 << 20, every);
        let mut s = Scrubber::new(set.clone());
        let mut out = Vec::with_capacity(1 << 16);
        let mut ns: Vec<u64> = Vec::with_capacity(text.len() / 32 + 1);
        for piece in text.chunks(32) {
            out.clear();
            let t = Instant::now();
            s.feed(piece, &mut out);
            ns.push(t.elapsed().as_nanos() as u64);
        }
        ns.sort_unstable();
        let q = |p: f64| ns[((ns.len() - 1) as f64 * p) as usize];
        println!(
            "{name:>14}: per 32 B delta p50 {} ns, p99 {} ns, p99.9 {} ns, max {} ns ({} deltas)",
            q(0.5),
            q(0.99),
            q(0.999),
            ns[ns.len() - 1],
            ns.len()
        );
    }
}
