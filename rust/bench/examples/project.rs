//! The run boundary alone, in Rust: a trace file through `Boundary::admit_many` in
//! batches of 256 lines, ROUNDS times (default 3); prints events/s of the best round.
//! `NO_RECORDS=1` keeps no records, as `scrubline project` does.
//! For profiles without Python in the way:
//!
//!     python benches/traces.py 10000 /tmp/t10k.jsonl
//!     cargo run --release -p scrubline-bench --example project -- /tmp/t10k.jsonl

use std::time::Instant;

use scrubline_core::{Boundary, BoundaryConfig, Finish, RuleSet, SchemaVersion, Step};

fn main() {
    let path = std::env::args().nth(1).expect("a trace file");
    let rounds: usize = std::env::var("ROUNDS").map_or(3, |r| r.parse().unwrap());
    let no_records = std::env::var("NO_RECORDS").is_ok_and(|v| v == "1");
    let data = std::fs::read(path).expect("readable trace");
    let lines: Vec<&[u8]> = data
        .split(|&c| c == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t0 = Instant::now();
        let mut b = Boundary::new(BoundaryConfig {
            version: SchemaVersion::new(8).unwrap(),
            run_id: "bench".into(),
            rules: RuleSet::builtin(),
            max_turn_tokens: None,
        });
        let mut out = 0usize;
        let mut n = 0usize;
        for chunk in lines.chunks(256) {
            let mut step = Step {
                no_records,
                ..Default::default()
            };
            let (done, err) = b.admit_many(chunk, n as u64 + 1, &mut step);
            assert!(err.is_none() && done == chunk.len());
            out += step.out.len() + step.records.iter().map(|r| r.body.len()).sum::<usize>();
            n += done;
        }
        let (step, _) = b.finish(Finish::default());
        out += step.out.len();
        let dt = t0.elapsed().as_secs_f64();
        best = best.min(dt);
        eprintln!("{n} lines, {out} bytes out, {dt:.3} s");
    }
    println!(
        "best: {:.0} events/s, {:.1} MB/s",
        lines.len() as f64 / best,
        data.len() as f64 / best / 1e6
    );
}
