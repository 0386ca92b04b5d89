//! Quick throughput probe: `cargo run --release -p scrubline-bench --example throughput`.
//! Prints MB/s of the whole-text scrubber (`scrub_cow`, what Python's `scrub()` calls: the
//! input borrowed back when nothing changes) on the clean and dense corpora (median of 5).

use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{scrub_cow, RuleSet};

fn main() {
    let set = RuleSet::builtin();
    for (name, every) in [("clean", None), ("dense 1/4KiB", Some(4096))] {
        let (text, planted) = corpus(64 << 20, every);
        let mut times = Vec::new();
        let mut redacted = 0;
        for run in 0..5 {
            let t = Instant::now();
            let out = scrub_cow(&set, &text);
            times.push(t.elapsed().as_secs_f64());
            if run == 0 {
                redacted = out.windows(10).filter(|w| w == b"[REDACTED:").count();
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name:>14}: {:>8.1} MB/s  ({} MB, planted {planted}, redacted {redacted})",
            text.len() as f64 / times[2] / 1e6,
            text.len() >> 20
        );
    }
}
