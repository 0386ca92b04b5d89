"""`iteron run --replay` into each store backend: events/s with the durable record in
SQLite (the file under ITERON_HOME) and in PostgreSQL (``--store postgresql://…``).

Rounds alternate the backends on the same generated trace, each round into a fresh
store (a fresh ITERON_HOME; a fresh database of the same server). Before a round counts,
its store holds every record (count of events == last seq == the records the boundary
writes) and the run is ``done``. PostgreSQL is a server of its own (tests/stores.py, as
the test suite starts it: fsync and synchronous_commit on, on 127.0.0.1) .

    python benches/store_replay.py [--events 100000] [--rounds 3] [--seed 1]
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

import psycopg

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from project import rust
from stores import PgServer, server_bin
from traces import generate

BIN = Path(sys.executable).parent


def run(trace: Path, home: Path, store: str | None) -> float:
    env = dict(os.environ, ITERON_HOME=str(home), ITERON_STORE=store or "")
    cmd = [str(BIN / "iteron"), "run", "--replay", str(trace), "--output-format", "stream-json"]
    with open(os.devnull, "wb") as f:
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=f, env=env, check=True)
        return time.perf_counter() - t0


def check(rows: tuple, n_records: int) -> None:
    outcome, count, last = rows
    assert outcome == "done", outcome
    assert count == last == n_records, f"store: {count} events, last {last}, {n_records} written"


COUNT = (
    "SELECT r.outcome, count(e.seq), max(e.seq) FROM runs r JOIN events e"
    " ON e.run_id = r.run_id GROUP BY r.run_id, r.outcome"
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    lines, _planted = generate(args.events, args.seed)
    n_records = len(rust(lines)[0])
    server = PgServer(server_bin())
    walls: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            trace = root / "trace.jsonl"
            trace.write_bytes(b"".join(x + b"\n" for x in lines))
            size = trace.stat().st_size
            print(f"trace: {args.events} events, {size / 1e6:.1f} MB, {n_records} records\n")
            for i in range(args.rounds):
                order = ("sqlite", "postgresql") if i % 2 == 0 else ("postgresql", "sqlite")
                for backend in order:
                    home = root / f"{backend}{i}"
                    if backend == "sqlite":
                        wall = run(trace, home, None)
                        db = sqlite3.connect(home / "iteron.db")
                        check(db.execute(COUNT).fetchone(), n_records)
                        db.close()
                    else:
                        url = server.url(server.new_database())
                        wall = run(trace, home, url)
                        with psycopg.connect(url) as db:
                            check(db.execute(COUNT).fetchone(), n_records)
                    walls[backend].append(wall)
    finally:
        server.stop()
    print(f"{args.rounds} rounds per backend, alternating:\n")
    print("| store | wall, median [min, max] | events/s | MB/s |")
    print("|---|---|---|---|")
    for backend, ws in walls.items():
        m = statistics.median(ws)
        print(
            f"| {backend} | {m:.2f} s [{min(ws):.2f}, {max(ws):.2f}] |"
            f" {args.events / m:,.0f} | {size / m / 1e6:.1f} |"
        )
    ratio = statistics.median(walls["postgresql"]) / statistics.median(walls["sqlite"])
    print(f"\nPostgreSQL / SQLite wall time: {ratio:.2f}x")


if __name__ == "__main__":
    main()
