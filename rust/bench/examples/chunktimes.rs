//! Each call of a stream, timed apart: `FILE=path` (or the dense corpus) fed to a new
//! scrubber in `CHUNK`-byte calls (default 64 KiB) with `feed_lazy`, `ROUNDS` times
//! (default 20). Prints the best time of each, in µs: the scrubber's creation, each
//! call in order, and the flush. What a stream's first calls cost beside its later
//! ones (a storm is found in its first block, and a rule's state is made at its first
//! hit).
//! `CHUNK=4096 FILE=path cargo run --release -p scrubline-bench --example chunktimes`
use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

fn main() {
    let set = RuleSet::builtin();
    let var = |name: &str, default: usize| {
        std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
    };
    let (rounds, chunk) = (var("ROUNDS", 20), var("CHUNK", 65536).max(1));
    let text = match std::env::var("FILE") {
        Ok(path) => std::fs::read(path).expect("FILE"),
        Err(_) => corpus(8 << 20, Some(4096)).0,
    };
    let calls = text.len().div_ceil(chunk);
    // The creation, each call, the flush.
    let mut best = vec![f64::MAX; calls + 2];
    let mut out = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        let mut s = Scrubber::new(set.clone());
        best[0] = best[0].min(t.elapsed().as_secs_f64());
        for (i, piece) in text.chunks(chunk).enumerate() {
            out.clear();
            let t = Instant::now();
            std::hint::black_box(s.feed_lazy(piece, &mut out));
            best[i + 1] = best[i + 1].min(t.elapsed().as_secs_f64());
        }
        out.clear();
        let t = Instant::now();
        s.flush(&mut out);
        best[calls + 1] = best[calls + 1].min(t.elapsed().as_secs_f64());
    }
    let us: Vec<String> = best.iter().map(|b| format!("{:.1}", b * 1e6)).collect();
    println!("{}", us.join(" "));
}
