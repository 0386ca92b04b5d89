//! The cost of one write through the Rust API, by chunk size: 8 MiB of clean text fed
//! in CHUNK-byte writes (32 by default), ROUNDS times (15), after one untimed pass that
//! compiles the rules it meets; prints the median and the minimum per write. `FILE=path`
//! feeds that file instead (an input `worst` writes with `DUMP=DIR`, a byte a write
//! with `CHUNK=1`).
//! `cargo run --release -p scrubline-bench --example writes`. Under `perf record` it
//! profiles a stream of small writes with little else in the profile.

use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

fn main() {
    let set = RuleSet::builtin();
    let chunk: usize = std::env::var("CHUNK").map_or(32, |v| v.parse().expect("CHUNK"));
    let rounds: usize = std::env::var("ROUNDS").map_or(15, |v| v.parse().expect("ROUNDS"));
    let text = match std::env::var("FILE") {
        Ok(path) => std::fs::read(&path).expect("FILE"),
        Err(_) => corpus(8 << 20, None).0,
    };
    let mut out = Vec::with_capacity(1 << 16);
    let pass = |s: &mut Scrubber, out: &mut Vec<u8>| {
        for piece in text.chunks(chunk) {
            out.clear();
            s.feed(piece, out);
        }
        s.flush(out);
    };
    pass(&mut Scrubber::new(set.clone()), &mut out);
    let writes = text.len().div_ceil(chunk) as f64;
    let mut ns: Vec<f64> = (0..rounds.max(1))
        .map(|_| {
            let mut s = Scrubber::new(set.clone());
            let t = Instant::now();
            pass(&mut s, &mut out);
            t.elapsed().as_secs_f64() / writes * 1e9
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    println!(
        "{chunk} B writes: median {:.1} ns a write, min {:.1} ({} rounds)",
        ns[ns.len() / 2],
        ns[0],
        ns.len()
    );
}
