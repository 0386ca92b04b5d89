//! Profiling target: the clean corpus (DENSE=1: one credential per 4 KiB) streamed in
//! 64 KiB chunks (or `CHUNK` bytes), output buffer reused; `FILE=path` streams that
//! file instead (the first `SIZE_MIB`, for example a corpus `benches/compare.py`
//! wrote). `LAZY=1` feeds with `feed_lazy`, as the Python binding does at 64 KiB: the
//! chunk's unchanged part is not copied (and each call's output is dropped).
//! `cargo run --release -p scrubline-bench --example stream64k`
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
    let lazy = std::env::var("LAZY").is_ok();
    let text = match std::env::var("FILE") {
        Ok(path) => {
            let mut t = std::fs::read(&path).expect("FILE");
            t.truncate(mib << 20);
            t
        }
        Err(_) => corpus(mib << 20, dense.then_some(4096)).0,
    };
    let mut out = Vec::with_capacity(text.len());
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        let mut s = Scrubber::new(set.clone());
        out.clear();
        let mut total = 0;
        for piece in text.chunks(chunk) {
            if lazy {
                out.clear();
                total += s.feed_lazy(piece, &mut out) + out.len();
            } else {
                s.feed(piece, &mut out);
            }
        }
        s.flush(&mut out);
        if lazy {
            total += out.len();
            out.clear();
            std::hint::black_box(total);
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let name = match std::env::var("FILE") {
        Ok(path) => path,
        Err(_) if dense => "dense".into(),
        Err(_) => {
            assert!(lazy || out.len() == text.len());
            "clean".into()
        }
    };
    println!(
        "{name}, {chunk} B chunks: {:.0} MB/s, {:.0} ns per call (best of {rounds})",
        text.len() as f64 / best / 1e6,
        best * 1e9 / text.len().div_ceil(chunk) as f64
    );
}
