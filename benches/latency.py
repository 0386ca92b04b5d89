"""Latency per 32-byte delta through the Python API: p50 / p99 / p99.9 in microseconds.

python benches/latency.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import corpus
from scrubline import Scrubber


def main() -> None:
    for name, every in (("clean", None), ("dense 1/4KiB", 4096)):
        text, _ = corpus(4 << 20, every)
        deltas = [text[i : i + 32] for i in range(0, len(text), 32)]
        s = Scrubber()
        feed = s.feed
        clock = time.perf_counter_ns
        ns = []
        for d in deltas:
            t = clock()
            feed(d)
            ns.append(clock() - t)
        ns.sort()
        q = statistics.quantiles(ns, n=1000)
        print(
            f"{name:>14}: per 32 B delta p50 {q[499] / 1000:.2f} us, p99 {q[989] / 1000:.2f} us,"
            f" p99.9 {q[998] / 1000:.2f} us ({len(ns)} deltas)"
        )


if __name__ == "__main__":
    main()
