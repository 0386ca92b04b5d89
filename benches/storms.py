"""Keyword storms beside clean text: scrubline and hyperscan given the same rules.

    make bench-compare                      # runs this too, into docs/benchmarks-compare.md
    .venv/bin/python benches/storms.py [--size KiB] [--every N] [--md FILE]

A storm is one keyword of the built-in rules repeated (`sk-sk-sk-…`), as written and
upper-cased: an input anyone who can write into an agent's output can choose, and the
worst case of an engine that starts work at every keyword. Each engine is read against
its own rate on clean text (the clean corpus of compare.py, as much of it as a storm,
the same chunks, the same runs), measured just before the storm: scrubline's
`Scrubber.feed_bytes`, and hyperscan in block mode compiled with every built-in rule's
pattern (compare.py's `rule_patterns`), reporting its matches to a Python callback as a
user of its Python API gets them. 64 KiB chunks for both; the best of `--runs` per
storm and per clean baseline, the two engines alternated storm by storm. scrubline's
streamed output is checked against `scrub()` of the whole storm before its time counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).parent))
import scrubline
from compare import agent_text, rule_patterns, slices, write_md

CHUNK = 65536


class Storm(NamedTuple):
    keyword: str
    ours: float  # MB/s
    theirs: float
    matches: int  # hyperscan's callbacks
    clean: tuple[float, float]  # each engine's clean rate, measured just before it


Ours = Callable[[bytes, int], float]
Theirs = Callable[[bytes, int], tuple[float, int]]


def engines() -> tuple[Ours, Theirs, int]:
    """scrubline's and hyperscan's timed runs over a text (best of the runs, MB/s)."""
    import hyperscan

    pats = rule_patterns()
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(expressions=pats, ids=list(range(len(pats))), elements=len(pats))

    def ours(data: bytes, runs: int) -> float:
        chunks, best = slices(data, CHUNK), float("inf")
        s = scrubline.Scrubber()  # checked before it counts: streamed equals whole
        out = b"".join([s.feed_bytes(c) for c in chunks] + [s.flush_bytes()])
        if out != scrubline.scrub(data.decode()).encode():
            raise AssertionError(f"{data[:16]!r}…: feed_bytes output differs from scrub()")
        for _ in range(runs):
            s = scrubline.Scrubber()
            feed = s.feed_bytes
            t = time.perf_counter()
            for c in chunks:
                feed(c)
            s.flush_bytes()
            best = min(best, time.perf_counter() - t)
        return len(data) / best / 1e6

    def theirs(data: bytes, runs: int) -> tuple[float, int]:
        chunks, best, seen = slices(data, CHUNK), float("inf"), [0]

        def on_match(_id: int, _s: int, _e: int, _f: int, _ctx: object) -> None:
            seen[0] += 1

        for _ in range(runs):
            seen[0] = 0
            scan = db.scan
            t = time.perf_counter()
            for c in chunks:
                scan(c, match_event_handler=on_match)
            best = min(best, time.perf_counter() - t)
        return len(data) / best / 1e6, seen[0]

    return ours, theirs, len(pats)


def keywords() -> list[str]:
    found = {k for r in scrubline.rules() for k in r.keywords}
    return sorted(found | {k.upper() for k in found})


def report(clean: tuple[float, float], storms: list[Storm], meta: dict[str, object]) -> str:
    out = [
        f"Run of {meta['date']}: `{meta['command']}` ({meta['n']} storms of "
        f"{meta['size']} KiB, every keyword of the built-in rules as written and "
        f"upper-cased{meta['sample']}; hyperscan compiled with {meta['patterns']} patterns; "
        f"64 KiB chunks; best of {meta['runs']} runs each, the engines alternated; each "
        f"storm read against its engine's rate on as much clean text, measured just "
        f"before it the same way; *clean MB/s*: the median of those).",
        "",
        "| engine | clean MB/s | storms: median | 10th percentile | slowest "
        "| storms ≥ 0.5x clean |",
        "|---|---|---|---|---|---|",
    ]
    for name, i in (
        ("scrubline `Scrubber.feed_bytes`", 1),
        ("hyperscan block, scrubline's rules", 2),
    ):
        rel = sorted((s[i] / s.clean[i - 1], s.keyword, s[i]) for s in storms)
        med = statistics.median(r[0] for r in rel)
        p10 = rel[len(rel) // 10]
        low = rel[0]
        half = sum(r[0] >= 0.5 for r in rel)
        rate = statistics.median(s[i] for s in storms)
        out.append(
            f"| {name} | {clean[i - 1]:,.0f} | {rate:,.0f} MB/s ({med:.3f}x) "
            f"| {p10[2]:,.1f} MB/s ({p10[0]:.3f}x) | `{low[1]}` {low[2]:,.1f} MB/s "
            f"({low[0]:.4f}x) | {half} of {len(rel)} |"
        )
    out += [
        "",
        "The slowest storms of each engine, with the other beside (MB/s, and x its own "
        "clean rate; *matches*: hyperscan's callbacks over the storm):",
        "",
        "| storm | scrubline | hyperscan | matches |",
        "|---|---|---|---|",
    ]
    slow = sorted(storms, key=lambda s: s.ours)[:8]
    slow += [s for s in sorted(storms, key=lambda s: s.theirs)[:8] if s not in slow]
    for s in slow:
        out.append(
            f"| `{s.keyword}` | {s.ours:,.1f} ({s.ours / s.clean[0]:.3f}x) "
            f"| {s.theirs:,.1f} ({s.theirs / s.clean[1]:.4f}x) | {s.matches:,} |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024, help="KiB per storm (default 1024)")
    ap.add_argument("--every", type=int, default=1, help="only every Nth keyword")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--md", type=Path, help="write the tables into this Markdown file")
    args = ap.parse_args()
    ours, theirs, patterns = engines()
    # Clean text of the storms' size, each storm's baseline measured just before it with
    # the same runs: the host's speed drifts over the minutes of the run, and a clean
    # rate that is the best of more runs than a storm's read every storm lower.
    clean_text = agent_text(args.size * 1024, None).data
    storms = []
    for k in keywords()[:: args.every]:
        data = (k.encode() * (args.size * 1024 // len(k) + 1))[: args.size * 1024]
        base = (ours(clean_text, args.runs), theirs(clean_text, args.runs)[0])
        rate, matches = theirs(data, args.runs)
        storms.append(Storm(k, ours(data, args.runs), rate, matches, base))
    clean = tuple(statistics.median(s.clean[i] for s in storms) for i in (0, 1))
    from datetime import date

    meta = {
        "date": date.today().isoformat(),
        "command": " ".join(["python", *sys.argv]),
        "n": len(storms),
        "size": args.size,
        "sample": f", every {args.every}th" if args.every > 1 else "",
        "patterns": patterns,
        "runs": args.runs,
    }
    body = report(clean, storms, meta)
    print(body)
    if args.md:
        write_md(args.md, body, "benches/storms.py")


if __name__ == "__main__":
    main()
