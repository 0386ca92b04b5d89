"""Session page latency against store size (S1, S2, S4): a small store and a large one
(100k sessions, 1M events), the same pages timed in each. The keyset indexes should
make every page cost the same whatever the store holds.

    python benches/sessions.py [--sessions 100000] [--events 1000000]

Prints a Markdown table (median and p90 of 50 calls per page, microseconds).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import orjson

from scrubline import sessions
from scrubline.store import Store

TAGS = ("planner", "reviewer", "coder", None)


def build(root: Path, n_sessions: int, n_events: int) -> tuple[Store, str]:
    """A store of ``n_sessions`` runs (95 % tenant default, tags in turn) and ``n_events``
    events: half in one long run (the newest), the rest spread over the others."""
    store = Store.open(root)
    db = store.db
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
        " agent_definition_tag, turns, outcome) VALUES (?, ?, ?, ?, ?, ?, 1, 'done')",
        (
            (
                f"run-{i:08d}",
                "other" if i % 20 == 1 else "default",
                f"2026-01-01T00:00:00.{i:06d}Z",
                f"2026-01-01T00:00:00.{i:06d}Z",
                i,
                TAGS[i % len(TAGS)],
            )
            for i in range(1, n_sessions + 1)
        ),
    )
    long_run = f"run-{n_sessions:08d}"
    long_n = n_events // 2
    rest = n_events - long_n
    per = max(1, rest // max(1, n_sessions - 1))

    def events():
        for seq in range(1, long_n + 1):
            body = {"seq": seq, "turn": 1 + seq // 200, "type": "assistant_delta",
                    "text": f"word {seq} "}  # fmt: skip
            yield long_run, seq, body["turn"], "assistant_delta", orjson.dumps(body)
        made = 0
        i = 1
        while made < rest and i < n_sessions:
            for seq in range(1, per + 1):
                body = {"seq": seq, "turn": 1, "type": "notice", "text": "n", "code": None}
                yield f"run-{i:08d}", seq, 1, "notice", orjson.dumps(body)
            made += per
            i += 1

    db.executemany(
        "INSERT INTO events (run_id, seq, turn, type, body) VALUES (?, ?, ?, ?, ?)", events()
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    return store, long_run


def timed(fn, rounds: int = 50) -> tuple[float, float]:
    fn()  # warm
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - t0) / 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.9 * len(samples))]


def pages(store: Store, root: Path, long_run: str) -> dict[str, tuple[float, float]]:
    lp = sessions.list_page
    tp = sessions.transcript_page
    first = lp(store, root, "default", version=8, limit=20)
    deep = first
    for _ in range(10):
        deep = lp(store, root, "default", version=8, limit=100, cursor=deep["next_cursor"])
    t_first = tp(store, root, "default", long_run, version=8, limit=100)
    t_deep = t_first
    for _ in range(10):
        t_deep = tp(store, root, "default", long_run, version=8, limit=100,
                    cursor=t_deep["older_cursor"])  # fmt: skip
    # Correctness before counting: pages are full and ordered.
    assert len(first["sessions"]) == 20 and len(t_first["events"]) == 100
    seqs = [e["seq"] for e in t_deep["events"]]
    assert seqs == sorted(seqs) and seqs[-1] < t_first["events"][0]["seq"]
    c_list, c_tx = deep["next_cursor"], t_deep["older_cursor"]
    return {
        "list, first page (20)": timed(lambda: lp(store, root, "default", version=8, limit=20)),
        "list, page 12 (100, cursor)": timed(
            lambda: lp(store, root, "default", version=8, limit=100, cursor=c_list)
        ),
        "list, tag filter (20)": timed(
            lambda: lp(store, root, "default", version=8, limit=20, tag="reviewer")
        ),
        "transcript, newest page (100)": timed(
            lambda: tp(store, root, "default", long_run, version=8, limit=100)
        ),
        "transcript, page 12 (100, cursor)": timed(
            lambda: tp(store, root, "default", long_run, version=8, limit=100, cursor=c_tx)
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--events", type=int, default=1_000_000)
    args = ap.parse_args()
    results = {}
    for label, (n_s, n_e) in {
        "small": (1_000, 10_000),
        "large": (args.sessions, args.events),
    }.items():
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            store, long_run = build(Path(tmp), n_s, n_e)
            built = time.perf_counter() - t0
            results[label] = pages(store, Path(tmp), long_run)
            store.close()
            print(f"built {label}: {n_s} sessions, {n_e} events in {built:.1f} s")
    print()
    print(f"| page | small store (1k / 10k) | large store ({args.sessions} / {args.events}) |")
    print("|---|---|---|")
    for name in results["small"]:
        (sm, sp), (lm, lp90) = results["small"][name], results["large"][name]
        print(f"| {name} | {sm:.0f} µs (p90 {sp:.0f}) | {lm:.0f} µs (p90 {lp90:.0f}) |")


if __name__ == "__main__":
    main()
