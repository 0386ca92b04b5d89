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

criterion_group!(scrub_benches, benches);
criterion_main!(scrub_benches);
