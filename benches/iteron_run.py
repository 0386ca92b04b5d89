"""`iteron run` end to end with the durable record: events/s and kernel_tax per event.

Each round replays the same generated trace through
`iteron run --replay TRACE --output-format stream-json` (stdout to /dev/null) with a
fresh ITERON_HOME: the SQLite store in WAL mode, synchronous=FULL, one commit (fsync) per
batch: the whole lines of one 256 KiB read of the trace (python/scrubline/runtime.py).
Interleaved with each round, `scrubline project` on the same trace is the same run loop
without a store (the reference for what the record costs; its stdout goes to a file
there, for its kernel_tax).

Before a round counts: the store holds every record (count of events == last seq == the
number of records the boundary writes), the run is `done`, and no planted credential is
in any file under ITERON_HOME. The first run's stdout is checked against the in-process
boundary (same lines, exactly the planted redactions).

python benches/iteron_run.py [--events 100000] [--rounds 3] [--seed 1] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

from scrubline.runtime import FILE_CHUNK

sys.path.insert(0, str(Path(__file__).parent))
from project import check, rust
from traces import CREDENTIALS, generate

BIN = Path(sys.executable).parent
TAX = ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us")


def iteron(trace: Path, home: Path, out: Path | None = None) -> float:
    env = dict(os.environ, ITERON_HOME=str(home))
    cmd = [str(BIN / "iteron"), "run", "--replay", str(trace), "--output-format", "stream-json"]
    with open(out or os.devnull, "wb") as f:
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=f, env=env, check=True)
        return time.perf_counter() - t0


def scrubline_project(trace: Path, out: Path) -> tuple[float, dict]:
    """The same run loop without a store; its stdout goes to a file for its result."""
    with trace.open("rb") as f, out.open("wb") as o:
        t0 = time.perf_counter()
        subprocess.run(
            [str(BIN / "scrubline"), "project", "--schema-version", "8"],
            stdin=f,
            stdout=o,
            check=True,
        )
        wall = time.perf_counter() - t0
    result = orjson.loads(out.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1])
    out.unlink()
    return wall, result


def stored(home: Path, n_records: int) -> dict:
    """Check the store of one run; return its result."""
    db = sqlite3.connect(home / "iteron.db")
    try:
        ((run_id, outcome, result),) = db.execute("SELECT run_id, outcome, result FROM runs")
        count, last = db.execute(
            "SELECT count(*), max(seq) FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()
    finally:
        db.close()
    assert outcome == "done", outcome
    assert count == last == n_records, f"store: {count} events, last {last}, {n_records} written"
    for f in home.iterdir():  # the database, and its WAL and shm if still there
        data = f.read_bytes()
        leaked = [c for c in CREDENTIALS if c.encode() in data]
        assert not leaked, f"{f.name} holds planted credentials {leaked}"
    return orjson.loads(result)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", default=None, help="where the ITERON_HOMEs go (default: $TMPDIR)")
    args = ap.parse_args()

    lines, planted = generate(args.events, args.seed)
    records, expected = rust(lines)
    n_records = len(records)
    del records
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        trace = root / "trace.jsonl"
        trace.write_bytes(b"".join(x + b"\n" for x in lines))
        size = trace.stat().st_size
        print(
            f"trace: {args.events} events, {size / 1e6:.1f} MB, {planted} credentials planted;"
            f" {n_records} records per run; ITERON_HOME under {root}\n"
        )

        # -- correctness first: stdout and store of one run --------------------------------
        out = root / "out.jsonl"
        iteron(trace, root / "check", out)
        got = check(out.read_bytes(), planted, args.events, "iteron run")
        assert got == check(expected, planted, args.events, "Boundary"), "stdout differs"
        stored(root / "check", n_records)
        out.unlink()
        print(f"check: stdout agrees with the boundary; store holds {n_records} events\n")

        walls: list[float] = []
        refs: list[float] = []
        taxes: list[dict] = []
        ref_taxes: list[dict] = []
        for i in range(args.rounds):
            home = root / f"home{i}"
            if i % 2:
                ref = scrubline_project(trace, root / "ref.jsonl")
            walls.append(iteron(trace, home))
            if i % 2 == 0:
                ref = scrubline_project(trace, root / "ref.jsonl")
            refs.append(ref[0])
            ref_taxes.append(ref[1]["kernel_tax"])
            taxes.append(stored(home, n_records)["kernel_tax"])

    med, ref = statistics.median(walls), statistics.median(refs)
    print(f"{args.rounds} rounds, interleaved with `scrubline project` (no store):\n")
    print("| command | wall, median [min, max] | events/s | MB/s |")
    print("|---|---|---|---|")
    for name, ws in (
        ("`iteron run --replay TRACE --output-format stream-json`", walls),
        ("`scrubline project --schema-version 8 < TRACE` (no store)", refs),
    ):
        m = statistics.median(ws)
        print(
            f"| {name} | {m:.2f} s [{min(ws):.2f}, {max(ws):.2f}] |"
            f" {args.events / m:,.0f} | {size / m / 1e6:.1f} |"
        )
    print(f"\nthe durable record costs {med - ref:.2f} s ({(med / ref - 1) * 100:.0f} %) per run\n")
    print("kernel_tax of the result, per event (median of the rounds; each round's in brackets):\n")
    print("| field | total | per event | `scrubline project` (no store), per event |")
    print("|---|---|---|---|")
    for k in TAX:
        vs = [t[k] for t in taxes]
        m = statistics.median(vs)
        each = ", ".join(f"{v / args.events:.2f}" for v in vs)
        r = statistics.median(t[k] for t in ref_taxes) / args.events
        print(f"| `{k}` | {m / 1e6:.2f} s | {m / args.events:.2f} µs [{each}] | {r:.2f} µs |")
    # One commit per read of the trace, plus the run's creation and its end.
    commits = -(-size // FILE_CHUNK) + 2
    fsync = statistics.median(t["record_fsync_latency_us"] for t in taxes)
    print(f"\n~{commits} commits per run: {fsync / commits / 1000:.2f} ms per commit (median)")


if __name__ == "__main__":
    main()
