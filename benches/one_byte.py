"""1-byte chunks through the Python API: the time per byte must not grow with
the stream (no quadratic buffer copying). Feeds 10 MB of agent-like text one byte at a
time and prints the time of each successive MB.

    python benches/one_byte.py [--mb 10]
"""

from __future__ import annotations

import argparse
import time

from corpus import corpus
from scrubline import Scrubber, scrub


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=10)
    args = ap.parse_args()
    mb = 1 << 20
    text = corpus(args.mb * mb, seed=3)[0][: args.mb * mb]
    s = Scrubber()
    feed = s.feed
    out: list[str] = []
    times = []
    for i in range(args.mb):
        part = text[i * mb : (i + 1) * mb]
        t0 = time.perf_counter()
        for ch in part:
            out.append(feed(ch))
        times.append(time.perf_counter() - t0)
    out.append(s.flush())
    assert "".join(out) == scrub(text), "streamed != whole"
    print("| MB | seconds | µs per character |")
    print("|---|---|---|")
    for i, t in enumerate(times):
        print(f"| {i + 1} | {t:.2f} | {t / mb * 1e6:.2f} |")
    print(f"\nlast/first: {times[-1] / times[0]:.2f}")


if __name__ == "__main__":
    main()
