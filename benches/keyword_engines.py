"""Hyperscan given scrubline's own keywords: would a different literal engine win?

    .venv/bin/python benches/keyword_engines.py [--size MiB] [--runs N]

`benches/compare.py` sets scrubline's whole rule set against hyperscan scanning for nine
patterns. This asks the narrower question behind it: hyperscan (PyPI wheel, the `bench`
extra) compiled with every keyword of the built-in rules (caseless literals; the ones
shorter than three bytes exact, as scrubline matches them) only *finds* where a keyword
occurs, which is the first of the scrubber's steps. Beside it, scrubline's whole engine
(find, candidates, hold-back, redaction) on the same bytes. Runs are interleaved and the
median is quoted; the corpus is the clean one of compare.py.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import corpus
from scrubline import Scrubber, rules


def keyword_database(mode: int):
    import hyperscan

    keywords = sorted({k for r in rules() for k in r.keywords})
    db = hyperscan.Database(mode=mode)
    db.compile(
        expressions=[re.escape(k).encode() for k in keywords],
        ids=list(range(len(keywords))),
        flags=[hyperscan.HS_FLAG_CASELESS if len(k) >= 3 else 0 for k in keywords],
    )
    return db, len(keywords)


def main() -> None:
    import hyperscan

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=32, help="corpus MiB (default 32)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    text, _ = corpus(args.size << 20, None)
    data = text.encode()
    block, n = keyword_database(hyperscan.HS_MODE_BLOCK)
    streaming, _ = keyword_database(hyperscan.HS_MODE_STREAM)
    hits = [0]

    def on_match(_id: int, _start: int, _end: int, _flags: int, _ctx: object) -> None:
        hits[0] += 1

    def hs_block(size: int) -> Callable[[], None]:
        chunks = [data[i : i + size] for i in range(0, len(data), size)]

        def run() -> None:
            for c in chunks:
                block.scan(c, match_event_handler=on_match)

        return run

    def hs_stream(size: int) -> Callable[[], None]:
        chunks = [data[i : i + size] for i in range(0, len(data), size)]

        def run() -> None:
            with streaming.stream(match_event_handler=on_match) as s:
                for c in chunks:
                    s.scan(c)

        return run

    def ours(size: int) -> Callable[[], None]:
        chunks = [data[i : i + size] for i in range(0, len(data), size)]

        def run() -> None:
            s = Scrubber()
            feed = s.feed_bytes
            for c in chunks:
                feed(c)
            s.flush_bytes()

        return run

    cases = {
        f"hyperscan block, {n} keywords, 64 KiB chunks": hs_block(65536),
        "scrubline Scrubber.feed_bytes, 64 KiB (whole engine)": ours(65536),
        f"hyperscan stream, {n} keywords, 32 B writes": hs_stream(32),
        "scrubline Scrubber.feed_bytes, 32 B (whole engine)": ours(32),
    }
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.runs):
        for name, run in cases.items():
            t = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t)
    print(f"clean corpus, {len(data) / 1e6:.1f} MB, median of {args.runs} interleaved runs")
    for name, ts in times.items():
        rates = sorted(len(data) / t / 1e6 for t in ts)
        print(f"  {name}: {statistics.median(rates):,.0f} MB/s [{rates[0]:,.0f}-{rates[-1]:,.0f}]")


if __name__ == "__main__":
    main()
