"""The run boundary against its pure-Python baseline, on one generated trace.

1. In one process: the Rust `Boundary` loop (admit every line, keep the output, finish)
   and `BaselineBoundary` (benches/baseline_project.py: Python + orjson, calling the same
   Rust scrubber), in interleaved rounds; median events/s, MB/s of input, and the ratio.
2. Per-event latency of `Boundary.admit` (perf_counter_ns around each call): p50, p99,
   p99.9, overall and per event type.
3. End to end: `scrubline project --schema-version 8 < trace` against
   `python benches/baseline_project.py < trace` (subprocesses, stdout to /dev/null).

Before anything is timed, both boundaries' outputs and records must agree (the result's
run_id and the three latency fields of kernel_tax normalized), no planted credential may
appear, and exactly the planted number of redactions must be published.

python benches/project.py [--events 100000] [--rounds 5] [--cli-rounds 3] [--seed 1]
python benches/project.py --only rust|baseline --rounds R   # one loop R times, no output
                                                            # (for valgrind --tool=callgrind)
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from baseline_project import LATENCIES, BaselineBoundary
from scrubline._core import Boundary
from traces import CREDENTIALS, generate

HERE = Path(__file__).parent
BIN = Path(sys.executable).parent
VERSION = 8

Run = tuple[list, bytes]  # (records, published bytes)


def per_line(b: Boundary | BaselineBoundary, lines: list[bytes]) -> Run:
    """What the run loop does with a boundary (python/scrubline/run.py), minus the store:
    admit every line, keep the records and the output, finish."""
    admit = b.admit
    records: list = []
    out: list[bytes] = []
    for n, line in enumerate(lines, 1):
        recs, data = admit(line, n)
        if recs:
            records += recs
        if data:
            out.append(data)
    recs, data, *_ = b.finish()
    records += recs
    out.append(data)
    return records, b"".join(out)


def rust(lines: list[bytes]) -> Run:
    return per_line(Boundary(version=VERSION, run_id="bench"), lines)


def rust_batch(lines: list[bytes]) -> Run:
    """The same through `Boundary.admit_block`, 256 lines a call (what run.py does)."""
    b = Boundary(version=VERSION, run_id="bench")
    admit = b.admit_block
    records: list = []
    out: list[bytes] = []
    for start in range(0, len(lines), 256):
        block = b"\n".join(lines[start : start + 256]) + b"\n"
        first = start + 1
        while block and not b.stopped:
            n, used, recs, data, err = admit(block, first)
            assert err is None, err
            first += n
            block = block[used:]
            records += recs
            out.append(data)
    recs, data, _ = b.finish()
    records += recs
    out.append(data)
    return records, b"".join(out)


def baseline(lines: list[bytes]) -> Run:
    return per_line(BaselineBoundary(VERSION, "bench"), lines)


def published(out: bytes) -> list[dict]:
    """The published lines, parsed, with the result's volatile fields normalized."""
    lines = [orjson.loads(x) for x in out.splitlines()]
    result = lines[-1]
    assert result["type"] == "result", result["type"]
    result["run_id"] = "RUN"
    for k in LATENCIES:
        result["kernel_tax"][k] = 0
    return lines


def check(out: bytes, planted: int, n_events: int, what: str) -> list[dict]:
    """The output is complete and redacted exactly what was planted."""
    lines = published(out)
    result = lines[-1]
    assert result["outcome"] == "done" and result["exit_code"] == 0, (what, result["outcome"])
    assert lines[-2]["type"] == "run_done", what
    leaked = [c for c in CREDENTIALS if c.encode() in out]
    assert not leaked, f"{what}: planted credentials leaked: {leaked}"
    marks = out.rsplit(b"\n", 2)[0].count(b"[REDACTED:")  # the result repeats the answer
    assert marks == planted, f"{what}: {marks} redactions published, {planted} planted"
    assert max(x.get("seq", 0) for x in lines) >= n_events - 1, what
    return lines


def check_records(records: list, what: str) -> None:
    seqs = [r[0] for r in records]
    assert seqs == list(range(1, len(records) + 1)), f"{what}: records are not seq 1..n"
    for r in records:
        for c in CREDENTIALS:
            assert c.encode() not in r[3], f"{what}: credential in record {r[0]}"


def timed(fn: Callable[[list[bytes]], Run], lines: list[bytes]) -> float:
    t0 = time.perf_counter()
    fn(lines)
    return time.perf_counter() - t0


def pct(sorted_ns: list[int], q: float) -> float:
    """The q-quantile (nearest rank) of sorted nanoseconds, in microseconds."""
    i = min(len(sorted_ns) - 1, max(0, round(q * len(sorted_ns)) - 1))
    return sorted_ns[i] / 1000


def latency(lines: list[bytes], kinds: list[str]) -> dict[str, list[int]]:
    b = Boundary(version=VERSION, run_id="bench")
    admit = b.admit
    clock = time.perf_counter_ns
    per: dict[str, list[int]] = defaultdict(list)
    for n, (line, kind) in enumerate(zip(lines, kinds, strict=True), 1):
        t = clock()
        admit(line, n)
        per[kind].append(clock() - t)
    b.finish()
    return per


def cli(cmd: list[str], trace: Path, out: int = subprocess.DEVNULL) -> tuple[float, bytes]:
    """Wall time of one run of `cmd < trace`, and its stdout when `out` is a pipe. An
    empty trace ends as a failed run (exit 1): only the time counts then."""
    with trace.open("rb") as f:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdin=f, stdout=out, check=trace.stat().st_size > 0)
        return time.perf_counter() - t0, p.stdout or b""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cli-rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=("rust", "batch", "baseline"), help="run one loop, untimed")
    args = ap.parse_args()

    lines, planted = generate(args.events, args.seed)
    if args.only:
        for _ in range(args.rounds):
            {"rust": rust, "batch": rust_batch, "baseline": baseline}[args.only](lines)
        return
    size = sum(len(x) + 1 for x in lines)
    kinds = [orjson.loads(x)["type"] for x in lines]
    print(
        f"trace: {args.events} events, {size / 1e6:.1f} MB, {planted} credentials planted"
        f" (benches/traces.py, seed {args.seed}); schema version {VERSION}\n"
    )

    # -- correctness first ------------------------------------------------------------------
    r_records, r_out = rust(lines)
    batch_records, batch_out = rust_batch(lines)
    assert batch_records == r_records, "admit_block records differ from admit's"
    # Everything but the result line, whose kernel_tax latencies are measured.
    assert batch_out.splitlines()[:-1] == r_out.splitlines()[:-1], "admit_block lines differ"
    b_records, b_out = baseline(lines)
    r_lines = check(r_out, planted, args.events, "Boundary")
    b_lines = check(b_out, planted, args.events, "baseline")
    assert r_lines == b_lines, "Boundary and baseline publish different lines"
    check_records(r_records, "Boundary")
    assert [r[:3] for r in r_records] == [r[:3] for r in b_records], "record heads differ"
    assert all(
        orjson.loads(x[3]) == orjson.loads(y[3]) for x, y in zip(r_records, b_records, strict=True)
    ), "record bodies differ"
    print(
        f"check: {len(r_lines)} published lines and {len(r_records)} records agree;"
        f" {planted} redactions, no credential\n"
    )
    del r_records, b_records, r_out, b_out, r_lines, b_lines

    # -- in-process throughput, interleaved -------------------------------------------------
    times: dict[str, list[float]] = {
        "Boundary (Rust)": [],
        "Boundary.admit_block (Rust)": [],
        "BaselineBoundary": [],
    }
    ratios = []
    for i in range(args.rounds):
        order = [
            (rust, "Boundary (Rust)"),
            (rust_batch, "Boundary.admit_block (Rust)"),
            (baseline, "BaselineBoundary"),
        ]
        for fn, name in order if i % 2 == 0 else order[::-1]:
            gc.collect()
            times[name].append(timed(fn, lines))
        ratios.append(times["BaselineBoundary"][-1] / times["Boundary (Rust)"][-1])
    print(f"in process, {args.rounds} interleaved rounds (median, [min, max] of the rounds):\n")
    print("| loop | median | events/s | MB/s of input |")
    print("|---|---|---|---|")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(
            f"| {name} | {med:.3f} s [{min(ts):.3f}, {max(ts):.3f}] |"
            f" {args.events / med:,.0f} | {size / med / 1e6:.1f} |"
        )
    base = statistics.median(times["BaselineBoundary"])
    ratio = base / statistics.median(times["Boundary (Rust)"])
    batch = base / statistics.median(times["Boundary.admit_block (Rust)"])
    print(
        f"\nratio (baseline / Rust): {ratio:.2f}x per line, {batch:.2f}x batched, of the"
        f" medians; per round (per line) {', '.join(f'{r:.2f}' for r in ratios)}"
        " (target >= 3x)\n"
    )

    # -- per-event latency -------------------------------------------------------------------
    latency(lines, kinds)  # warm: built-in rules compile on first use
    gc.collect()
    per = latency(lines, kinds)
    every = sorted(ns for v in per.values() for ns in v)
    print(f"Boundary.admit latency, {len(every)} calls (second pass), microseconds:\n")
    print("| events | n | p50 | p99 | p99.9 | max |")
    print("|---|---|---|---|---|---|")
    rows = [("all", every)]
    rows += [(k, sorted(per[k])) for k in sorted(per, key=lambda k: -len(per[k]))[:5]]
    for name, ns in rows:
        print(
            f"| {name} | {len(ns)} | {pct(ns, 0.5):.2f} | {pct(ns, 0.99):.2f} |"
            f" {pct(ns, 0.999):.1f} | {ns[-1] / 1000:.0f} |"
        )
    print()

    # -- end to end, the CLIs ----------------------------------------------------------------
    scrubline_cmd = [str(BIN / "scrubline"), "project", "--schema-version", str(VERSION)]
    baseline_cmd = [sys.executable, str(HERE / "baseline_project.py")]
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "trace.jsonl"
        trace.write_bytes(b"".join(x + b"\n" for x in lines))
        empty = Path(tmp) / "empty.jsonl"
        empty.write_bytes(b"")
        _, s_out = cli(scrubline_cmd, trace, subprocess.PIPE)
        _, p_out = cli(baseline_cmd, trace, subprocess.PIPE)
        assert check(s_out, planted, args.events, "scrubline project") == check(
            p_out, planted, args.events, "baseline_project.py"
        ), "the two CLIs publish different lines"
        del s_out, p_out
        walls: dict[str, list[float]] = {"scrubline": [], "baseline": []}
        starts: dict[str, list[float]] = {"scrubline": [], "baseline": []}
        for i in range(args.cli_rounds):
            order = [("scrubline", scrubline_cmd), ("baseline", baseline_cmd)]
            for name, cmd in order if i % 2 == 0 else order[::-1]:
                walls[name].append(cli(cmd, trace)[0])
                starts[name].append(cli(cmd, empty)[0])
    print(f"end to end, {args.cli_rounds} interleaved rounds, stdout to /dev/null:\n")
    print("| command | wall, median [min, max] | events/s | MB/s | empty trace (startup) |")
    print("|---|---|---|---|---|")
    labels = {
        "scrubline": "`scrubline project --schema-version 8 < trace`",
        "baseline": "`python benches/baseline_project.py < trace`",
    }
    for name, ws in walls.items():
        med = statistics.median(ws)
        print(
            f"| {labels[name]} | {med:.2f} s [{min(ws):.2f}, {max(ws):.2f}] |"
            f" {args.events / med:,.0f} | {size / med / 1e6:.1f} |"
            f" {statistics.median(starts[name]):.2f} s |"
        )
    cli_ratio = statistics.median(walls["baseline"]) / statistics.median(walls["scrubline"])
    print(f"\nratio (baseline / scrubline): {cli_ratio:.2f}x")


if __name__ == "__main__":
    main()
