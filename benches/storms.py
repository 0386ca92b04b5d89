"""Adversarial inputs beside clean text: scrubline and hyperscan given the same rules.

    make bench-compare                      # runs this too, into docs/benchmarks-compare.md
    .venv/bin/python benches/storms.py [--size KiB] [--every N] [--tests DIR]
                                       [--worst DIR] [--fuzz DIR] [--bytewise KiB]
                                       [--md FILE]

A storm is one keyword of the built-in rules repeated (`sk-sk-sk-…`), as written and
upper-cased: an input anyone who can write into an agent's output can choose, and the
worst case of an engine that starts work at every keyword. `--tests` adds the inputs
of the core's `tests/worst.rs` (storms of token prefixes, near misses, tokens run
together, candidates that never resolve) and `--worst` the `worst` example's own
(storms that do not repeat, random token alphabets, a keyword every few bytes, …), as
that example writes them with `DUMP=DIR` (`TESTS=1` for the first); `--fuzz` every
input of the `scrub_chunks` fuzz corpus (its text after the control bytes), repeated
to the storms' size. Each engine is read against its own rate on clean text (the
clean corpus of compare.py, as much of it as an input, the same chunks, the same
runs), measured just before the input: scrubline's `Scrubber.feed_bytes`, and
hyperscan in block mode compiled with every built-in rule's pattern (compare.py's
`rule_patterns`), reporting its matches to a Python callback as a user of its Python
API gets them. 64 KiB chunks for both; the best of `--runs` per input and per clean
baseline, the two engines alternated input by input. scrubline's streamed output is
checked against one `feed_bytes` of the whole input before its time counts. An input
scrubline reads at under half its clean rate is measured again, with its clean
baseline, best of three times the runs: on a shared host one slow run is not a slow
path, and a slow path stays slow.

`--bytewise KiB` adds the inputs of `--tests` again, their first KiB written a byte
at a time (one `feed_bytes` call a byte, as a stream that writes each byte as it comes
does), each against clean text written the same way; hyperscan's column is then its
stream mode, one `scan` a byte (block mode would miss every match).
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
    kind: str  # which set of inputs: KINDS
    keyword: str  # the keyword, or the input's name
    ours: float  # MB/s
    theirs: float
    matches: int  # hyperscan's callbacks
    clean: tuple[float, float]  # each engine's clean rate, measured just before it


Ours = Callable[[bytes, int, int], float]
Theirs = Callable[[bytes, int, int], tuple[float, int]]


def engines() -> tuple[Ours, Theirs, int]:
    """scrubline's and hyperscan's timed runs over a text (best of the runs, MB/s)."""
    import hyperscan

    pats = rule_patterns()
    db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    db.compile(expressions=pats, ids=list(range(len(pats))), elements=len(pats))
    stream_db = hyperscan.Database(mode=hyperscan.HS_MODE_STREAM)
    stream_db.compile(expressions=pats, ids=list(range(len(pats))), elements=len(pats))

    def ours(data: bytes, runs: int, chunk: int) -> float:
        chunks, best = slices(data, chunk), float("inf")
        s = scrubline.Scrubber()  # checked before it counts: streamed equals whole
        out = b"".join([s.feed_bytes(c) for c in chunks] + [s.flush_bytes()])
        s = scrubline.Scrubber()
        if out != s.feed_bytes(data) + s.flush_bytes():
            raise AssertionError(f"{data[:16]!r}…: streamed output differs from whole")
        for _ in range(runs):
            s = scrubline.Scrubber()
            feed = s.feed_bytes
            t = time.perf_counter()
            for c in chunks:
                feed(c)
            s.flush_bytes()
            best = min(best, time.perf_counter() - t)
        return len(data) / best / 1e6

    def theirs(data: bytes, runs: int, chunk: int) -> tuple[float, int]:
        chunks, best, seen = slices(data, chunk), float("inf"), [0]

        def on_match(_id: int, _s: int, _e: int, _f: int, _ctx: object) -> None:
            seen[0] += 1

        for _ in range(runs):
            seen[0] = 0
            if chunk < CHUNK:  # a stream's writes: block mode would miss what they cut
                with stream_db.stream(match_event_handler=on_match) as st:
                    scan = st.scan
                    t = time.perf_counter()
                    for c in chunks:
                        scan(c)
                    best = min(best, time.perf_counter() - t)
                continue
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


# The sets of inputs, in the report's order: what each row of its table names.
KINDS = {
    "storm": "keyword storms",
    "tests": "inputs of `tests/worst.rs`",
    "worst": "other inputs of `worst`",
    "fuzz": "fuzz corpus inputs",
    "bytes": "inputs of `tests/worst.rs`, a byte a write",
}


def dumped(path: Path) -> list[tuple[str, bytes]]:
    """The inputs the `worst` example wrote with `DUMP=path`, with their names."""
    inputs = []
    for line in (path / "index.tsv").read_text().splitlines():
        file, name = line.split("\t", 1)
        inputs.append((name, (path / file).read_bytes()))
    return inputs


def fuzz_inputs(path: Path, size: int) -> list[tuple[str, bytes]]:
    """The text of each input of the `scrub_chunks` fuzz corpus at `path` (after its
    control byte, chunk sizes and plant bytes: `fuzz/fuzz_targets/scrub_chunks.rs`),
    repeated to `size` bytes; inputs with no text are left out."""
    inputs = []
    for file in sorted(path.iterdir()):
        data = file.read_bytes()
        if not data:
            continue
        text = data[1 + (data[0] & 7) + 1 + 2 :]
        if text:
            inputs.append((file.name[:12], (text * (size // len(text) + 1))[:size]))
    return inputs


def report(storms: list[Storm], meta: dict[str, object]) -> str:
    counts = ", ".join(
        f"{sum(s.kind == k for s in storms)} {name}" for k, name in KINDS.items()
        if any(s.kind == k for s in storms)
    )  # fmt: skip
    out = [
        f"Run of {meta['date']}: `{meta['command']}` ({counts}; {meta['size']} KiB each; "
        f"the storms: every keyword of the built-in rules as written and "
        f"upper-cased{meta['sample']}; hyperscan compiled with {meta['patterns']} patterns; "
        f"64 KiB chunks{meta['bytewise']}; best of {meta['runs']} runs each, the engines "
        f"alternated; each "
        f"input read against its engine's rate on as much clean text, measured just "
        f"before it the same way, and measured again with it, best of {3 * meta['runs']}, "
        f"where scrubline read it at under 0.5x; *clean MB/s*: the median of those).",
        "",
        "| engine | inputs | clean MB/s | median | 10th percentile | slowest | ≥ 0.5x clean |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, i in (
        ("scrubline `Scrubber.feed_bytes`", 1),
        ("hyperscan block, scrubline's rules", 2),
    ):
        for kind, what in KINDS.items():
            mine = [s for s in storms if s.kind == kind]
            if not mine:
                continue
            if i == 2 and kind == "bytes":
                name = "hyperscan stream, scrubline's rules"
            rel = sorted((s[i + 1] / s.clean[i - 1], s.keyword, s[i + 1]) for s in mine)
            med = statistics.median(r[0] for r in rel)
            p10 = rel[len(rel) // 10]
            low = rel[0]
            half = sum(r[0] >= 0.5 for r in rel)
            rate = statistics.median(s[i + 1] for s in mine)
            base = statistics.median(s.clean[i - 1] for s in mine)
            out.append(
                f"| {name} | {what} | {base:,.0f} | {rate:,.0f} MB/s ({med:.3f}x) "
                f"| {p10[2]:,.1f} MB/s ({p10[0]:.3f}x) | `{low[1]}` {low[2]:,.1f} MB/s "
                f"({low[0]:.4f}x) | {half} of {len(rel)} |"
            )
    out += [
        "",
        "The slowest inputs of each engine, read against its own clean rate, with the "
        "other beside (MB/s, and x its own clean rate; *matches*: hyperscan's callbacks "
        "over the input):",
        "",
        "| input | scrubline | hyperscan | matches |",
        "|---|---|---|---|",
    ]
    slow = sorted(storms, key=lambda s: s.ours / s.clean[0])[:10]
    slow += [s for s in sorted(storms, key=lambda s: s.theirs / s.clean[1])[:8] if s not in slow]
    for s in slow:
        name = s.keyword.replace("|", "\\|")  # a cell of the table
        out.append(
            f"| {s.kind} `{name}` | {s.ours:,.1f} "
            f"({s.ours / s.clean[0]:.3f}x) | {s.theirs:,.1f} ({s.theirs / s.clean[1]:.4f}x) "
            f"| {s.matches:,} |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1024, help="KiB per storm (default 1024)")
    ap.add_argument("--every", type=int, default=1, help="only every Nth keyword")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--tests", type=Path, help="the inputs `TESTS=1 worst` wrote with DUMP")
    ap.add_argument("--worst", type=Path, help="the inputs `worst` wrote with DUMP")
    ap.add_argument("--fuzz", type=Path, help="the scrub_chunks fuzz corpus")
    ap.add_argument("--bytewise", type=int, default=0, help="KiB of each --tests input "
                    "written a byte at a time (default 0: none)")  # fmt: skip
    ap.add_argument("--md", type=Path, help="write the tables into this Markdown file")
    args = ap.parse_args()
    ours, theirs, patterns = engines()
    # Clean text of an input's size, each input's baseline measured just before it with
    # the same runs: the host's speed drifts over the minutes of the run, and a clean
    # rate that is the best of more runs than an input's read every input lower.
    size = args.size * 1024
    clean_text = agent_text(size, None).data
    inputs = [
        ("storm", k, (k.encode() * (size // len(k) + 1))[:size]) for k in keywords()[:: args.every]
    ]
    for kind, path in (("tests", args.tests), ("worst", args.worst)):
        if path:  # an input of both sets is counted with the tests'
            seen = {name for _, name, _ in inputs}
            inputs += [(kind, n, data) for n, data in dumped(path) if n not in seen]
    if args.fuzz:
        inputs += [("fuzz", name, data) for name, data in fuzz_inputs(args.fuzz, size)]
    if args.tests and args.bytewise:
        cut = args.bytewise * 1024
        inputs += [("bytes", name, data[:cut]) for name, data in dumped(args.tests)]
    storms = []
    for kind, name, data in inputs:
        text, chunk = clean_text[: len(data)], 1 if kind == "bytes" else CHUNK
        base = (ours(text, args.runs, chunk), theirs(text, args.runs, chunk)[0])
        rate, matches = theirs(data, args.runs, chunk)
        mine = ours(data, args.runs, chunk)
        if mine < base[0] / 2:  # measured again (see the module's text)
            base = (ours(text, 3 * args.runs, chunk), base[1])
            mine = ours(data, 3 * args.runs, chunk)
        storms.append(Storm(kind, name, mine, rate, matches, base))
    from datetime import date

    meta = {
        "date": date.today().isoformat(),
        "command": " ".join(["python", *sys.argv]),
        "n": len(storms),
        "size": args.size,
        "sample": f", every {args.every}th" if args.every > 1 else "",
        "patterns": patterns,
        "runs": args.runs,
        "bytewise": (
            f" (the byte-at-a-time set: {args.bytewise} KiB each, one write a byte)"
            if args.bytewise and args.tests
            else ""
        ),
    }
    body = report(storms, meta)
    print(body)
    if args.md:
        write_md(args.md, body, "benches/storms.py")


if __name__ == "__main__":
    main()
