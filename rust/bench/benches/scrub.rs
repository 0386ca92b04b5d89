//! criterion benchmarks of the scrubber core: whole-text and streamed throughput on clean
//! and credential-dense agent-like text. Run with `make bench` (or
//! `cargo bench -p scrubline-bench`); results are recorded in docs/benchmarks.md.
//! Every benchmark first checks that its output redacted exactly what was planted.

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use scrubline_bench::corpus;
use scrubline_core::{scrub, RuleSet, Scrubber};

const SIZE: usize = 8 << 20;

fn redactions(out: &[u8]) -> usize {
    memchr_count(out, b"[REDACTED:")
}

fn memchr_count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

fn stream(set: &Arc<RuleSet>, text: &[u8], chunk: usize, out: &mut Vec<u8>) {
    let mut s = Scrubber::new(Arc::clone(set));
    out.clear();
    for piece in text.chunks(chunk) {
        s.feed(piece, out);
    }
    s.flush(out);
}

fn benches(c: &mut Criterion) {
    let set = RuleSet::builtin();
    for (name, every) in [("clean", None), ("dense", Some(4096))] {
        let (text, planted) = corpus(SIZE, every);
        assert_eq!(
            redactions(&scrub(&set, &text)),
            planted,
            "{name}: wrong output"
        );
        let mut group = c.benchmark_group(format!("scrub/{name}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(10);
        group.bench_function("whole", |b| b.iter(|| scrub(&set, &text)));
        let mut out = Vec::with_capacity(text.len());
        for chunk in [32usize, 1024, 65536] {
            stream(&set, &text, chunk, &mut out);
            assert_eq!(redactions(&out), planted, "{name}/{chunk}: wrong output");
            group.bench_with_input(BenchmarkId::new("stream", chunk), &chunk, |b, &chunk| {
                b.iter(|| stream(&set, &text, chunk, &mut out))
            });
        }
        group.finish();
    }
}

/// Adversarial inputs beside clean text (1 MiB each, 64 KiB chunks): keyword storms,
/// a run that keeps candidates alive, one-byte chunks. Each checks its exact output.
fn adversarial(c: &mut Criterion) {
    const N: usize = 1 << 20;
    let set = RuleSet::builtin();
    let repeat = |unit: &str| -> Vec<u8> { unit.bytes().cycle().take(N).collect() };
    let mut inputs: Vec<(String, Vec<u8>, Option<&str>)> = vec![
        ("clean".into(), corpus(N, None).0, None),
        ("storm sk-".into(), repeat("sk-"), None),
        ("storm ghp_".into(), repeat("ghp_"), None),
        ("storm eyJ".into(), repeat("eyJ"), Some("[REDACTED:jwt]")),
        ("storm -----BEGIN".into(), repeat("-----BEGIN"), None),
        ("storm a".into(), repeat("a"), None),
    ];
    for (_, text, _) in &mut inputs {
        text.truncate(N);
    }
    let mut group = c.benchmark_group("scrub/adversarial");
    group.throughput(Throughput::Bytes(N as u64));
    group.sample_size(10);
    let mut out = Vec::with_capacity(N);
    for (name, text, expect) in &inputs {
        stream(&set, text, 65536, &mut out);
        match expect {
            None => assert!(out == *text, "{name}: output changed"),
            Some(e) => assert_eq!(out, e.as_bytes(), "{name}: wrong output"),
        }
        group.bench_function(name.as_str(), |b| {
            b.iter(|| stream(&set, text, 65536, &mut out))
        });
    }
    let (text, _) = corpus(64 << 10, None);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("clean, 1-byte chunks", |b| {
        b.iter(|| stream(&set, &text, 1, &mut out))
    });
    group.finish();
}

criterion_group!(scrub_benches, benches, adversarial);
criterion_main!(scrub_benches);
