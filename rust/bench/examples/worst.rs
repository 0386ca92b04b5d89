//! Worst-case inputs for the scrubber: throughput next to clean text.
//! `cargo run --release -p scrubline-bench --example worst` (WORST=<name part>: only
//! those; KEYWORDS=1: a storm of every built-in keyword, with ALPHABET=<bytes> each
//! copy followed by one byte of a pseudo-random sequence of those; FUZZ=1: every input of the
//! `scrub_chunks` fuzz corpus repeated to 1 MiB, TESTS=1: every input of the core's
//! `tests/worst.rs`, with BETWEEN=8,64,… storms of every varied, wrong-case and
//! look-alike unit that many bytes apart as well; QUIET=1 to print the summary only).
//! DUMP=<dir> times nothing: it writes each input but clean text to a file of that
//! directory, numbered, and its name to `index.tsv` there (what `benches/storms.py
//! --tests` and `--worst` read).
//! CHUNK=<bytes> feeds every input, clean text included, in chunks of that size
//! (64 KiB by default; `CHUNK=1 SIZE_MIB=…` for the one-byte writes of a stream);
//! SMALL_FIRST=<bytes> writes that much of each input first in 32-byte chunks (a
//! stream that starts with token deltas, then larger writes).
use std::time::Instant;

use scrubline_bench::corpus;
use scrubline_core::{RuleSet, Scrubber};

/// The inputs of the core's `tests/worst.rs`, from the file that test reads them from.
#[path = "../../core/tests/common/worst_inputs.rs"]
mod worst_inputs;
use worst_inputs::*;

fn run(name: &str, text: &[u8]) -> f64 {
    if !wanted(name) {
        return 0.0;
    }
    if let Ok(dir) = std::env::var("DUMP") {
        if name != "clean corpus" {
            dump(std::path::Path::new(&dir), name, text);
        }
        return 0.0;
    }
    let set = RuleSet::builtin();
    let mut best = f64::MAX;
    let mut out = Vec::with_capacity(text.len() + 1024);
    let (mut held_max, mut redactions) = (0, 0);
    for _ in 0..3 {
        let mut s = Scrubber::new(set.clone());
        out.clear();
        let t = Instant::now();
        let first = small_first().min(text.len());
        let pieces = text[..first]
            .chunks(32)
            .chain(text[first..].chunks(chunk()));
        for piece in pieces {
            s.feed(piece, &mut out);
            held_max = held_max.max(s.held());
        }
        s.flush(&mut out);
        best = best.min(t.elapsed().as_secs_f64());
        redactions = s.redactions();
    }
    let mbps = text.len() as f64 / best / 1e6;
    if std::env::var("QUIET").is_err() {
        println!(
            "{name:>28}: {mbps:>8.1} MB/s  out {:>10} B  max held {held_max} B  \
             {redactions} redactions",
            out.len()
        );
    }
    mbps
}

/// How many bytes of each input go first in 32-byte writes: SMALL_FIRST, or none.
fn small_first() -> usize {
    std::env::var("SMALL_FIRST").map_or(0, |v| v.parse().expect("SMALL_FIRST"))
}

/// The chunk size inputs are fed in: CHUNK, or 64 KiB.
fn chunk() -> usize {
    std::env::var("CHUNK").map_or(65536, |v| v.parse().expect("CHUNK"))
}

/// Writes `text` to the next numbered file of `dir` and a line `file<TAB>name` to
/// its `index.tsv` (both made when missing).
fn dump(dir: &std::path::Path, name: &str, text: &[u8]) {
    use std::io::Write;
    std::fs::create_dir_all(dir).expect("the DUMP directory");
    let index = dir.join("index.tsv");
    let n = std::fs::read_to_string(&index).map_or(0, |t| t.lines().count());
    let file = format!("{n:04}.bin");
    std::fs::write(dir.join(&file), text).expect("an input written");
    let mut f = (std::fs::OpenOptions::new().create(true).append(true))
        .open(&index)
        .expect("the index");
    // A name is one line of the index: its control bytes (a unit's newline) as spaces.
    let name: String = name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    writeln!(f, "{file}\t{name}").expect("the index written");
}

/// KEYWORDS=1: a storm of every built-in keyword (`sk-sk-sk-…`, 4 MiB each or
/// SIZE_MIB, as written and upper-cased), summarised beside clean text.
fn every_keyword() {
    let clean = run("clean corpus", &corpus(4 << 20, None).0);
    let mut keywords: Vec<String> = scrubline_core::scrub::rules::builtin()
        .flat_map(|r| r.keywords.iter())
        .flat_map(|k| [k.to_string(), k.to_ascii_uppercase()])
        .collect();
    keywords.sort();
    keywords.dedup();
    // SIZE_MIB: the size of each storm (4 by default).
    let mib: usize = std::env::var("SIZE_MIB").map_or(4, |v| v.parse().expect("SIZE_MIB"));
    // ALPHABET=<bytes>: each keyword with a byte of a pseudo-random sequence of these
    // after each copy (a storm that does not repeat), not the keyword alone.
    let alphabet = std::env::var("ALPHABET").ok();
    let storm = |k: &str| match &alphabet {
        Some(a) => varied_storm_of(k, mib << 20, 1, a.as_bytes()),
        None => repeat(k, mib << 20),
    };
    // Only the storms WORST asks for are built.
    let rates: Vec<(f64, String)> = keywords
        .iter()
        .filter(|k| wanted(&format!("storm {k:?}")))
        .map(|k| (run(&format!("storm {k:?}"), &storm(k)), k.clone()))
        .collect();
    summarise("keyword storms", clean, rates);
}

/// The median and the slowest of `rates`, beside `clean`.
fn summarise(what: &str, clean: f64, mut rates: Vec<(f64, String)>) {
    rates.retain(|r| r.0 > 0.0);
    if rates.is_empty() || clean == 0.0 {
        return;
    }
    rates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = rates[rates.len() / 2].0;
    let half = rates.iter().filter(|r| r.0 >= clean / 2.0).count();
    println!(
        "{} {what}: median {median:.0} MB/s ({:.2}x clean {clean:.0} MB/s), {half} at \
         0.5x clean or more; slowest:",
        rates.len(),
        median / clean
    );
    for (mbps, k) in rates.iter().take(12) {
        println!("{k:>28}: {mbps:>8.1} MB/s  {:.3}x clean", mbps / clean);
    }
}

/// FUZZ=1: the text of every input of the `scrub_chunks` fuzz corpus (after its control
/// bytes), repeated to 1 MiB (SIZE_MIB), summarised beside clean text.
fn fuzz_corpus() {
    let clean = run("clean corpus", &corpus(4 << 20, None).0);
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/scrub_chunks"
    );
    // SIZE_MIB: each input repeated to that many MiB (1 by default; more for a profiler).
    let mib: usize = std::env::var("SIZE_MIB").map_or(1, |v| v.parse().expect("SIZE_MIB"));
    let mut rates: Vec<(f64, String)> = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the fuzz corpus") {
        let path = entry.expect("a corpus entry").path();
        let data = std::fs::read(&path).expect("a corpus input");
        let Some(&ctl) = data.first() else { continue };
        let skip = 1 + (ctl & 7) as usize + 1 + 2;
        if data.len() <= skip {
            continue;
        }
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        if !wanted(&name) {
            continue;
        }
        let text: Vec<u8> = data[skip..]
            .iter()
            .copied()
            .cycle()
            .take(mib << 20)
            .collect();
        rates.push((run(&name, &text), name));
    }
    summarise("fuzz inputs", clean, rates);
}

/// TESTS=1: every input of the core's `tests/worst.rs` (4 MiB each, SIZE_MIB),
/// summarised beside clean text.
fn worst_tests() {
    let clean = run("clean corpus", &corpus(4 << 20, None).0);
    let n: usize = std::env::var("SIZE_MIB").map_or(4, |v| v.parse().expect("SIZE_MIB")) << 20;
    // Only the inputs WORST asks for are built.
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut add = |name: String, text: &dyn Fn() -> Vec<u8>| {
        if wanted(&name) {
            inputs.push((name, text()));
        }
    };
    for unit in PREFIX_STORMS
        .into_iter()
        .chain(TOKEN_STORMS.map(|(unit, _)| unit))
    {
        add(format!("storm {unit:?}"), &|| repeat(unit, n));
    }
    let unit = overlapping_long_candidates();
    add("eyJ- x2000 + !".into(), &|| repeat(&unit, n));
    for unit in NEAR_MISS_TOKENS
        .into_iter()
        .chain(LONG_TOKENS_RUN_TOGETHER)
        .chain(REPEATING_TOKENS_RUN_TOGETHER)
        .chain(KEYS_RUN_INTO_NAMES)
    {
        add(format!("repeated {unit:.24}"), &|| repeat(unit, n));
    }
    for (head, body, _) in NEVER_RESOLVING {
        let name = format!("never resolving {:?}", &head[..head.len().min(14)]);
        add(name, &|| [head.as_bytes(), &repeat(body, n)].concat());
    }
    for unit in VARIED_STORMS {
        add(format!("varied storm {unit:?}"), &|| varied_storm(unit, n));
    }
    for unit in WRONG_CASE_STORMS.into_iter().chain(LOOK_ALIKE_STORMS) {
        add(format!("varied storm {unit:?}"), &|| varied_storm(unit, n));
    }
    for unit in TWO_BETWEEN_STORMS {
        let name = format!("varied storm {unit:?}, two between");
        add(name, &|| varied_storm_by(unit, n, 2));
    }
    for (unit, between) in SPREAD_STORMS {
        let name = format!("varied storm {unit:?}, {between} between");
        add(name, &|| varied_storm_by(unit, n, between));
    }
    for unit in WORD_STORMS {
        add(format!("word storm {unit:?}"), &|| word_storm(unit, n));
    }
    add("runs of a, no period".into(), &|| runs_of_a(n));
    // BETWEEN=8,64,…: storms of every varied, wrong-case and look-alike unit with that
    // many bytes between copies too (to look for a slow band past the spread storms the
    // tests read), and of `#`, which no keyword holds: the sequence between copies alone.
    let between = std::env::var("BETWEEN").unwrap_or_default();
    for between in between.split(',').filter(|b| !b.is_empty()) {
        let between: usize = between.parse().expect("BETWEEN: numbers");
        let units = (VARIED_STORMS.into_iter())
            .chain(WRONG_CASE_STORMS)
            .chain(LOOK_ALIKE_STORMS);
        for unit in units.chain(["#"]) {
            let name = format!("varied storm {unit:?}, {between} between (extra)");
            add(name, &|| varied_storm_by(unit, n, between));
        }
    }
    let rates = inputs
        .iter()
        .map(|(name, text)| (run(name, text), name.clone()))
        .collect();
    summarise("inputs of tests/worst.rs", clean, rates);
}

/// WORST=<part of a name> runs only the matching inputs (for a profiler).
fn wanted(name: &str) -> bool {
    std::env::var("WORST").map_or(true, |w| name.contains(&w))
}

fn repeat(unit: &str, size: usize) -> Vec<u8> {
    unit.as_bytes().iter().copied().cycle().take(size).collect()
}

fn main() {
    if std::env::var("KEYWORDS").is_ok() {
        return every_keyword();
    }
    if std::env::var("FUZZ").is_ok() {
        return fuzz_corpus();
    }
    if std::env::var("TESTS").is_ok() {
        return worst_tests();
    }
    // SIZE_MIB: the size of each input (16 by default).
    let n: usize = std::env::var("SIZE_MIB").map_or(16, |v| v.parse().expect("SIZE_MIB")) << 20;
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
    // Storms that do not repeat: each keyword followed by one byte of a seeded
    // pseudo-random sequence (a repeating storm's hits are counted a period at a time;
    // these are read hit by hit).
    for unit in VARIED_STORMS {
        run(&format!("varied storm {unit:?}"), &varied_storm(unit, n));
    }
    // The same with keywords of rules that spell them one way only, in the other case
    // (no hit at all), and with words Teddy's buckets mistake for signatures.
    for unit in WRONG_CASE_STORMS.into_iter().chain(LOOK_ALIKE_STORMS) {
        run(&format!("varied storm {unit:?}"), &varied_storm(unit, n));
    }
    // Random token alphabets with no keyword in them: what credentials are made of,
    // and where a keyword searcher's buckets flag the most look-alikes.
    for (name, alphabet) in [
        (
            "random base64",
            &b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[..],
        ),
        ("random hex", &b"0123456789abcdef"[..]),
    ] {
        let mut x = 0x6A09_E667_F3BC_C909u64;
        let text: Vec<u8> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x >> 32) as usize % alphabet.len()]
            })
            .collect();
        run(name, &text);
    }
    // Runs of `a` of 150 to 250 bytes, each ended by a random byte: dense blocks with
    // no period, where the first bytes of the window a period is looked for with occur
    // at nearly every distance.
    run("runs of a, no period", &runs_of_a(n));
    // Ordinary text with a keyword every 16 to 31 bytes: as dense as hits get in
    // text that is not a storm (a log of `token=…` lines, JSON full of keys), where
    // either engine of the prefilter may be the cheaper.
    let (clean, _) = corpus(n, None);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut text = Vec::with_capacity(n + n / 8);
    let mut at = 0;
    while at < clean.len() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let gap = 16 + (x % 16) as usize;
        text.extend_from_slice(&clean[at..(at + gap).min(clean.len())]);
        text.extend_from_slice(
            [&b"token"[..], b"secret", b"api_key", b"passwd"][(x >> 8) as usize % 4],
        );
        at += gap;
    }
    run("a keyword every 16-31 bytes", &text);
    let mut pem = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
    pem.extend(repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789+/", n));
    run("PEM without END", &pem);
    let mut pw = b"password=".to_vec();
    pw.extend(repeat("a", n));
    run("password= then a run of a", &pw);
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
    // Every `eyJ-` starts a JWT candidate that lives to the `!`, 8,000 bytes on.
    let mut cut = repeat("eyJ-", 8000);
    cut.push(b'!');
    let cut: Vec<u8> = cut.iter().copied().cycle().take(n).collect();
    run("eyJ- x2000 + !", &cut);
}
