"""Session page latency against store size (S1, S2, S4): a small store and a large one
(100k sessions, 1M events), the same pages timed in each, on either backend. The keyset
indexes should make every page cost the same whatever the store holds.

    python benches/sessions.py [--backend sqlite|postgresql] [--url URL]
                               [--sessions 100000] [--events 1000000]

PostgreSQL: a server of its own (tests/stores.py, as the test suite starts it) unless
``--url`` names a database to fill; the rows are made by bulk SQL on the server
(generate_series), not by runs. Prints a Markdown table (median and p90 of 50 calls per
page, microseconds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

from scrubline import sessions
from scrubline.store import SessionStore, open_store

TAGS = ("planner", "reviewer", "coder", None)


def build(root: Path, n_sessions: int, n_events: int) -> tuple[SessionStore, str]:
    """A store of ``n_sessions`` runs (95 % tenant default, tags in turn) and ``n_events``
    events: half in one long run (the newest), the rest spread over the others."""
    store = open_store(None, root)
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


def build_postgres(url: str, n_sessions: int, n_events: int) -> tuple[SessionStore, str]:
    """The same store as ``build``, made by the server (generate_series), in a database
    emptied first."""
    store = open_store(url)
    db = store.db
    db.execute("TRUNCATE runs, events, artifacts")
    db.execute(
        "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
        " agent_definition_tag, turns, outcome)"
        " SELECT 'run-' || lpad(i::text, 8, '0'), CASE WHEN i %% 20 = 1 THEN 'other'"
        " ELSE 'default' END, s, s, i, (ARRAY['planner', 'reviewer', 'coder', NULL])[i %% 4 + 1],"
        " 1, 'done' FROM generate_series(1, %s) i,"
        " LATERAL (SELECT '2026-01-01T00:00:00.' || lpad(i::text, 6, '0') || 'Z' AS s) t",
        (n_sessions,),
    )
    long_run = f"run-{n_sessions:08d}"
    long_n = n_events // 2
    rest = n_events - long_n
    per = max(1, rest // max(1, n_sessions - 1))
    db.execute(
        "INSERT INTO events (run_id, seq, turn, type, body)"
        " SELECT %s, g, 1 + g / 200, 'assistant_delta', convert_to(format("
        """ '{"seq":%%s,"turn":%%s,"type":"assistant_delta","text":"word %%s "}',"""
        " g, 1 + g / 200, g), 'UTF8') FROM generate_series(1, %s) g",
        (long_run, long_n),
    )
    runs = min(n_sessions - 1, -(-rest // per))
    db.execute(
        "INSERT INTO events (run_id, seq, turn, type, body)"
        " SELECT 'run-' || lpad(i::text, 8, '0'), g, 1, 'notice', convert_to(format("
        """ '{"seq":%%s,"turn":1,"type":"notice","text":"n","code":null}', g), 'UTF8')"""
        " FROM generate_series(1, %s) i, generate_series(1, %s) g",
        (runs, per),
    )
    db.commit()
    db.execute("ANALYZE")
    db.commit()
    return store, long_run


def pages(store: SessionStore, long_run: str) -> dict[str, tuple[float, float]]:
    lp = sessions.list_page
    tp = sessions.transcript_page
    first = lp(store, "default", version=8, limit=20)
    deep = first
    for _ in range(10):
        deep = lp(store, "default", version=8, limit=100, cursor=deep["next_cursor"])
    t_first = tp(store, "default", long_run, version=8, limit=100)
    t_deep = t_first
    for _ in range(10):
        t_deep = tp(store, "default", long_run, version=8, limit=100,
                    cursor=t_deep["older_cursor"])  # fmt: skip
    # Correctness before counting: pages are full and ordered.
    assert len(first["sessions"]) == 20 and len(t_first["events"]) == 100
    seqs = [e["seq"] for e in t_deep["events"]]
    assert seqs == sorted(seqs) and seqs[-1] < t_first["events"][0]["seq"]
    c_list, c_tx = deep["next_cursor"], t_deep["older_cursor"]
    return {
        "list, first page (20)": timed(lambda: lp(store, "default", version=8, limit=20)),
        "list, page 12 (100, cursor)": timed(
            lambda: lp(store, "default", version=8, limit=100, cursor=c_list)
        ),
        "list, tag filter (20)": timed(
            lambda: lp(store, "default", version=8, limit=20, tag="reviewer")
        ),
        "transcript, newest page (100)": timed(
            lambda: tp(store, "default", long_run, version=8, limit=100)
        ),
        "transcript, page 12 (100, cursor)": timed(
            lambda: tp(store, "default", long_run, version=8, limit=100, cursor=c_tx)
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--url", help="a postgresql:// database to fill (else a server of our own)")
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--events", type=int, default=1_000_000)
    args = ap.parse_args()
    server = None
    if args.backend == "postgresql" and args.url is None:
        sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
        from stores import PgServer, server_bin

        server = PgServer(server_bin())
    results = {}
    try:
        for label, (n_s, n_e) in {
            "small": (1_000, 10_000),
            "large": (args.sessions, args.events),
        }.items():
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.perf_counter()
                if args.backend == "sqlite":
                    store, long_run = build(Path(tmp), n_s, n_e)
                else:
                    url = args.url or server.url(server.new_database())
                    store, long_run = build_postgres(url, n_s, n_e)
                built = time.perf_counter() - t0
                results[label] = pages(store, long_run)
                store.close()
                print(f"built {label}: {n_s} sessions, {n_e} events in {built:.1f} s")
    finally:
        if server is not None:
            server.stop()
    print()
    print(f"{args.backend}:")
    print(f"| page | small store (1k / 10k) | large store ({args.sessions} / {args.events}) |")
    print("|---|---|---|")
    for name in results["small"]:
        (sm, sp), (lm, lp90) = results["small"][name], results["large"][name]
        print(f"| {name} | {sm:.0f} µs (p90 {sp:.0f}) | {lm:.0f} µs (p90 {lp90:.0f}) |")


if __name__ == "__main__":
    main()
