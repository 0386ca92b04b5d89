"""What moving a stream between processes costs (K6): `snapshot()`, `resume(data)` and
`Scrubber.restore(...)` against feeding one 1 KiB delta, medians of many calls in one run.

    .venv/bin/python benches/snapshot.py
"""

from __future__ import annotations

import statistics
import time

from scrubline._core import Scrubber

LITERAL = "correct-horse-battery"
DELTA = ("The build finished; see the log for details. " * 24)[:1024]


def median_us(fn, n: int = 2000) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times) / 1000


def main() -> None:
    busy = Scrubber(literals=[LITERAL])
    busy.feed(DELTA + f" {LITERAL} token ghp_aB3dE5gH7jK9mN1pQ3s")
    data = busy.snapshot()
    other = Scrubber(literals=[LITERAL])
    builtin = Scrubber()
    builtin.feed(DELTA)
    plain = builtin.snapshot()

    rows = [
        ("feed 1 KiB delta (baseline)", median_us(lambda: builtin.feed(DELTA))),
        ("snapshot() (held tail, live candidate)", median_us(busy.snapshot)),
        ("resume(data) (same rules, no compile)", median_us(lambda: other.resume(data))),
        ("Scrubber.restore(data) built-in rules", median_us(lambda: Scrubber.restore(plain))),
        (
            "Scrubber.restore(data, literals=[...]) (compiles)",
            median_us(lambda: Scrubber.restore(data, literals=[LITERAL]), n=50),
        ),
    ]
    base = rows[0][1]
    print(f"snapshot: {len(data)} bytes (busy), {len(plain)} bytes (clean)")
    for name, us in rows:
        print(f"| {name} | {us:.2f} µs | {us / base:.2f}x |")


if __name__ == "__main__":
    main()
