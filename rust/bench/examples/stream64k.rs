//! Profiling target: the clean corpus (DENSE=1: one credential per 4 KiB) streamed in
//! 64 KiB chunks (or `CHUNK` bytes), output buffer reused. `cargo run --release -p scrubline-bench --example stream64k`
use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

fn main() {
    let set = RuleSet::builtin();
    // SIZE_MIB and ROUNDS make it small enough for `valgrind --tool=callgrind`.
    let mib: usize = std::env::var("SIZE_MIB").map_or(64, |v| v.parse().expect("SIZE_MIB"));
    let rounds: usize = std::env::var("ROUNDS").map_or(5, |v| v.parse().expect("ROUNDS"));
    let chunk: usize = std::env::var("CHUNK").map_or(65536, |v| v.parse().expect("CHUNK"));
    let dense = std::env::var("DENSE").is_ok();
    let (text, _) = corpus(mib << 20, dense.then_some(4096));
    let mut out = Vec::with_capacity(text.len());
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        let mut s = Scrubber::new(set.clone());
        out.clear();
        for piece in text.chunks(chunk) {
            s.feed(piece, &mut out);
        }
        s.flush(&mut out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    if !dense {
        assert_eq!(out.len(), text.len());
    }
    println!(
        "{}, {chunk} B chunks: {:.0} MB/s, {:.0} ns per call (best of {rounds})",
        if dense { "dense" } else { "clean" },
        text.len() as f64 / best / 1e6,
        best * 1e9 / text.len().div_ceil(chunk) as f64
    );
}
