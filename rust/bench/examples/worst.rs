//! Worst-case inputs for the scrubber: throughput next to clean text.
//! `cargo run --release -p scrubline-bench --example worst`
use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

fn run(name: &str, text: &[u8]) {
    let set = RuleSet::builtin();
    let mut best = f64::MAX;
    let mut out = Vec::with_capacity(text.len() + 1024);
    let mut held_max = 0;
    for _ in 0..3 {
        let mut s = Scrubber::new(set.clone());
        out.clear();
        let t = Instant::now();
        for piece in text.chunks(65536) {
            s.feed(piece, &mut out);
            held_max = held_max.max(s.held());
        }
        s.flush(&mut out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{name:>28}: {:>8.1} MB/s  out {:>10} B  max held {held_max} B",
        text.len() as f64 / best / 1e6,
        out.len()
    );
}

fn repeat(unit: &str, size: usize) -> Vec<u8> {
    unit.as_bytes().iter().copied().cycle().take(size).collect()
}

fn main() {
    let n = 16 << 20;
    run("clean corpus", &corpus(n, None).0);
    for unit in [
        "ghp_",
        "sk-",
        "xoxb-",
        "eyJ",
        "sk-ant-api03-",
        "AKIA",
        "password=",
        "Q~",
        "-us",
        "://a:",
        "a",
    ] {
        run(&format!("storm {unit:?}"), &repeat(unit, n));
    }
    let mut pem = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
    pem.extend(repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789+/", n));
    run("PEM without END", &pem);
    let mut pw = b"password=".to_vec();
    pw.extend(repeat("a", n));
    run("password= then 16 MiB", &pw);
    let mut bearer = b"Authorization: Bearer ".to_vec();
    bearer.extend(repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789", n));
    run("Bearer then base64", &bearer);
    let mut jwtish = Vec::new();
    while jwtish.len() < n {
        jwtish.extend_from_slice(b"eyJ");
        jwtish.extend(repeat("a", 4000));
        jwtish.push(b'!');
    }
    run("eyJ + 4000 class bytes + !", &jwtish);
}
