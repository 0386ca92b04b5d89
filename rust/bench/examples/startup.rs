//! What a process pays before its first output: the built-in rule set's build, then
//! the first scrub of the bundled demo trace, or of the file named as the argument
//! (which compiles the matchers and secret spans of the rules its text hits). Once
//! per process, so one measurement a run:
//! `cargo run --release -p scrubline-bench --example startup`, run again and again
//! (`benches/startup.py` alternates two builds of the Python extension the same way).

use std::time::Instant;

use scrubline_core::RuleSet;

fn main() {
    let demo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/scrubline/data/demo.trace.jsonl"
    );
    let path = std::env::args().nth(1).unwrap_or_else(|| demo.to_string());
    let text = std::fs::read(&path).expect("a file to scrub");
    let t = Instant::now();
    let set = RuleSet::builtin();
    let built = t.elapsed();
    let out = scrubline_core::scrub_cow(&set, &text);
    let scrubbed = t.elapsed() - built;
    println!(
        "build {:.1} ms scrub {:.1} ms ({} matchers built, {} bytes out)",
        built.as_secs_f64() * 1e3,
        scrubbed.as_secs_f64() * 1e3,
        set.matchers_built(),
        out.len()
    );
}
