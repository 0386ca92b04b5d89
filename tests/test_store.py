"""The store backends side by side (S4, S6, S7, S8-S12, A5): one writer per run, cursors
tied to their store, concurrent writers and readers, the connection string kept secret,
and (PostgreSQL) a connection killed mid-run and a versioned schema."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from scrubline import sessions
from scrubline.errors import StoreError
from scrubline.store import new_run_id, open_store
from scrubline.store_postgres import MIGRATIONS, url_secrets
from stores import Cli, PostgresBackend, SqliteBackend

GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"


def ok_json(r) -> dict:
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def trace_lines(n: int, label: str = "w") -> list[bytes]:
    lines = [{"type": "run_start", "agent": "a"}]
    lines += [{"type": "notice", "text": f"{label} event {i}"} for i in range(n)]
    return [json.dumps(x).encode() + b"\n" for x in lines]


def feed(proc: subprocess.Popen, lines: list[bytes]) -> list[dict]:
    """Write ``lines`` to a streaming run and read the events they produce."""
    out = []
    for line in lines:
        proc.stdin.write(line)
        proc.stdin.flush()
    for _ in range(len(lines) - 1):  # run_start is recorded, not published
        out.append(json.loads(proc.stdout.readline()))
    return out


def streaming(cli: Cli, home: Path, *extra: str) -> subprocess.Popen:
    return cli.popen(
        ["run", "--output-format", "stream-json", "--replay", "-", *extra],
        home,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


# -- S8: one writer per run ------------------------------------------------------------


def test_s8_a_second_writer_of_a_run_is_refused_run_busy_and_retryable(cli, tmp_path):
    run_id = ok_json(cli.iteron("run", "--output-format", "json", home=tmp_path))["run_id"]
    before = cli.backend.sql(tmp_path, f"SELECT count(*) FROM events WHERE run_id = '{run_id}'")
    first = streaming(cli, tmp_path, "--resume", run_id)
    got = feed(first, trace_lines(3, "first"))
    assert [e["text"] for e in got] == [f"first event {i}" for i in range(3)]
    # The first writer holds the run: a second resume (another runner) is refused.
    r = cli.iteron("run", "--output-format", "json", "--resume", run_id, home=tmp_path)
    assert r.returncode == 1
    result = json.loads(r.stdout)
    assert result["type"] == "result" and result["run_id"] == run_id
    assert result["outcome"] == "failed" and result["error"]["code"] == "run_busy"
    assert result["error"]["message"].endswith("(retryable)")
    assert r.stderr.decode().count("\n") == 1 and "run_busy" in r.stderr.decode()
    # A fork of a run being written is fine: it copies what is committed.
    assert ok_json(cli.iteron("--fork", run_id, home=tmp_path))["fork_point"] > 0
    first.stdin.write(b'{"type": "run_end", "outcome": "done"}\n')
    first.stdin.close()
    tail = [json.loads(x) for x in first.stdout.read().splitlines()]
    assert first.wait(30) == 0 and tail[-1]["type"] == "result" and tail[-1]["success"]
    # Refused, the second writer stored nothing; once the first is gone, resume works.
    (after,) = cli.backend.sql(tmp_path, f"SELECT count(*) FROM events WHERE run_id = '{run_id}'")
    assert after[0] == before[0][0] + 1 + 3 + 1  # run_start, 3 notices, run_end
    again = ok_json(cli.iteron("run", "--output-format", "json", "--resume", run_id,
                               home=tmp_path))  # fmt: skip
    assert again["run_id"] == run_id and again["success"]
    seqs = [
        s for (s,) in cli.backend.sql(tmp_path, f"SELECT seq FROM events WHERE run_id = '{run_id}'")
    ]
    assert sorted(seqs) == list(range(1, len(seqs) + 1))


def _other_process_takes(root: Path, run_id: str) -> bool:
    """Whether another process can take the run's lease now (it lets it go at once)."""
    code = (
        "import sys; from pathlib import Path; from scrubline.lease import RunBusy, RunLease\n"
        "try:\n    RunLease.take(Path(sys.argv[1]), sys.argv[2]).release()\n"
        "except RunBusy:\n    sys.exit(3)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, str(root), run_id], check=False)
    assert r.returncode in (0, 3), r
    return r.returncode == 0


def test_s8_a_run_stays_leased_until_its_last_lease_in_the_process_is_released(tmp_path):
    """Record locks belong to the process: an App Server run's lease and its store's
    claim are two leases of one lock. Releasing one (the old run of a resumed id
    retiring late) must leave the run leased to the other."""
    from scrubline.lease import RunLease

    one = RunLease.take(tmp_path, "run-1")
    two = RunLease.take(tmp_path, "run-1")  # the same process: not refused
    other = RunLease.take(tmp_path, "run-2")
    assert not _other_process_takes(tmp_path, "run-1")
    one.release()
    one.release()  # twice is once
    assert not _other_process_takes(tmp_path, "run-1")
    two.release()
    assert _other_process_takes(tmp_path, "run-1")
    assert not _other_process_takes(tmp_path, "run-2")
    other.release()
    assert _other_process_takes(tmp_path, "run-2")


@pytest.mark.postgres
def test_s8_claims_are_per_run_and_end_with_the_store(pg_backend, tmp_path):
    """PostgreSQL: two connections of one process are two writers (SQLite's lease is the
    process's: the command-line test above covers it)."""
    a, b = pg_backend.open(tmp_path), pg_backend.open(tmp_path)
    try:
        a.claim("run-1")
        a.claim("run-2")
        with pytest.raises(Exception) as e:
            b.claim("run-1")
        assert getattr(e.value, "code", None) == "run_busy"
        b.claim("run-3")
        a.close()
        b.claim("run-1")
    finally:
        b.close()


# -- S4: cursors belong to their store ------------------------------------------------


def test_s4_a_cursor_of_another_store_is_modified_and_one_store_serves_every_runner(cli, tmp_path):
    for _ in range(3):
        ok_json(cli.iteron("run", "--output-format", "json", home=tmp_path / "a"))
        ok_json(cli.iteron("run", "--output-format", "json", home=tmp_path / "b"))
    cursor = ok_json(cli.iteron("--sessions", "--session-limit", "1", home=tmp_path / "a"))
    cursor = cursor["next_cursor"]
    # Another store (same backend, and the other backend): the signature does not verify.
    r = cli.iteron("--sessions", "--session-cursor", cursor, home=tmp_path / "b")
    assert r.returncode == 65 and json.loads(r.stdout)["error"]["code"] == "cursor_modified"
    other = Cli(SqliteBackend() if isinstance(cli.backend, PostgresBackend) else cli.backend)
    if other.backend is not cli.backend:
        r = other.iteron("--sessions", "--session-cursor", cursor, home=tmp_path / "c")
        assert r.returncode == 65 and json.loads(r.stdout)["error"]["code"] == "cursor_modified"
    # Every invocation is its own process (its own connection, another runner): the
    # cursor one got pages on in the next.
    page = ok_json(cli.iteron("--sessions", "--session-cursor", cursor, home=tmp_path / "a"))
    assert len(page["sessions"]) == 2  # the other two of a's three


# -- S4 under real concurrency: N writer processes, M reader threads --------------------


def test_s4_concurrent_writers_and_readers_see_every_event_exactly_once(cli, tmp_path):
    writers, events_each, readers = 4, 300, 3
    home = tmp_path / "home"
    ok_json(cli.iteron("run", "--output-format", "json", home=home))  # the store exists
    trace = tmp_path / "t.jsonl"
    procs = []
    for w in range(writers):
        path = trace.with_name(f"t{w}.jsonl")
        lines = trace_lines(events_each, f"w{w}")
        path.write_bytes(b"".join(lines) + b'{"type": "run_end", "outcome": "done"}\n')
        procs.append(path)
    stop = threading.Event()
    failures: list[str] = []
    walks = [0] * readers

    def read(k: int) -> None:
        store = cli.backend.open(home)
        try:
            while not stop.is_set():
                expected = {s["run_id"] for s in store.sessions("default", None, None, 1000)}
                seen, cursor = [], None
                while True:
                    page = sessions.list_page(store, "default", version=8, limit=2, cursor=cursor)
                    seen += [s["run_id"] for s in page["sessions"]]
                    cursor = page["next_cursor"]
                    if cursor is None:
                        break
                if len(seen) != len(set(seen)) or not expected <= set(seen):
                    failures.append(f"list walk: {len(seen)} seen, {len(set(seen))} distinct")
                for run_id in seen[:3]:  # the newest runs: being written now
                    # What a walk starting now must see at least: one page holds it all.
                    whole = sessions.transcript_page(store, "default", run_id, version=8,
                                                     limit=1000)  # fmt: skip
                    want = {e["seq"] for e in whole["events"]}
                    got, cursor = [], None
                    while True:
                        page = sessions.transcript_page(
                            store, "default", run_id, version=8, limit=50, cursor=cursor
                        )
                        got += [e["seq"] for e in page["events"]]
                        cursor = page["older_cursor"]
                        if cursor is None:
                            break
                    if len(got) != len(set(got)) or not want <= set(got):
                        failures.append(f"transcript walk of {run_id}: {len(got)} seen")
                walks[k] += 1
        finally:
            store.close()

    threads = [threading.Thread(target=read, args=(k,)) for k in range(readers)]
    for t in threads:
        t.start()
    running = [
        cli.popen(
            ["run", "--output-format", "stream-json", "--replay", str(p)],
            home,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for p in procs
    ]
    outputs = [p.communicate(timeout=300) for p in running]
    time.sleep(0.2)
    stop.set()
    for t in threads:
        t.join(60)
    assert not failures, failures[:5]
    assert all(n > 0 for n in walks)
    assert all(p.returncode == 0 for p in running), [o[1] for o in outputs]
    # Every printed event is stored exactly once, under its run.
    for out, _err in outputs:
        lines = [json.loads(x) for x in out.splitlines()]
        run_id = lines[-1]["run_id"]
        rows = cli.backend.sql(home, f"SELECT seq FROM events WHERE run_id = '{run_id}'")
        stored = sorted(s for (s,) in rows)
        assert stored == list(range(1, events_each + 3))  # run_start, notices, run_end
        assert {x["seq"] for x in lines[:-1]} <= set(stored)
    listed = ok_json(cli.iteron("--sessions", "--session-limit", "100", home=home))["sessions"]
    assert len(listed) == writers + 1 == len({s["run_id"] for s in listed})


def test_s4_creation_numbers_become_visible_in_order_under_concurrent_creators(backend, tmp_path):
    """What keeps a keyset walk of sessions gap-free on a shared server: whatever a
    reader sees is always creation numbers 1..k, never k+1 before k (an identity column
    would not promise that)."""
    backend.open(tmp_path).close()
    creators, each = 4, 40
    stop = threading.Event()
    seen_holes: list[list[int]] = []
    reads = [0]

    def create() -> None:
        store = backend.open(tmp_path)
        try:
            for _ in range(each):
                run_id = new_run_id()
                store.create_run(run_id, "default")
        finally:
            store.close()

    def watch() -> None:
        store = backend.open(tmp_path)
        try:
            while not stop.is_set():
                ns = sorted(r["created_n"] for r in store.sessions("default", None, None, 10**6))
                if ns != list(range(1, len(ns) + 1)):
                    seen_holes.append(ns)
                reads[0] += 1
        finally:
            store.close()

    watcher = threading.Thread(target=watch)
    watcher.start()
    threads = [threading.Thread(target=create) for _ in range(creators)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    stop.set()
    watcher.join(60)
    assert not seen_holes, seen_holes[0]
    assert reads[0] > 1
    store = backend.open(tmp_path)
    try:
        ns = [r["created_n"] for r in store.sessions("default", None, None, 10**6)]
    finally:
        store.close()
    assert sorted(ns) == list(range(1, creators * each + 1))


# -- S12: choosing the store -----------------------------------------------------------


def test_s12_store_urls_choose_the_backend_and_the_flag_beats_the_variable(tmp_path):
    cli = Cli(SqliteBackend())
    db = tmp_path / "elsewhere" / "runs.db"
    made = ok_json(cli.iteron("run", "--output-format", "json", "--store", f"sqlite://{db}",
                              home=tmp_path / "home"))  # fmt: skip
    assert db.exists() and not (tmp_path / "home" / "iteron.db").exists()
    listed = ok_json(
        cli.iteron("--sessions", home=tmp_path / "home", ITERON_STORE=f"sqlite://{db}")
    )
    assert [s["run_id"] for s in listed["sessions"]] == [made["run_id"]]
    # --store wins over ITERON_STORE; an empty value is the default file.
    flag = cli.iteron("--sessions", "--store", f"sqlite://{db}", home=tmp_path / "home",
                      ITERON_STORE="mysql://nowhere")  # fmt: skip
    assert ok_json(flag)["sessions"] == listed["sessions"]
    default = ok_json(cli.iteron("--sessions", home=tmp_path / "home", ITERON_STORE=""))
    assert default["sessions"] == []
    r = cli.iteron("run", "--store", f"sqlite://{db}", home=tmp_path / "home")
    assert r.returncode == 0  # text output, the same store
    assert len(ok_json(cli.iteron("--sessions", "--store", f"sqlite://{db}",
                                  home=tmp_path))["sessions"]) == 2  # fmt: skip


# -- S9: the connection string is a secret ---------------------------------------------


def test_s9_url_secrets_cover_the_url_and_its_password_in_every_spelling():
    url = "postgresql://alice:p%40ss-w0rd!x@db.example:5432/iteron?sslmode=require"
    assert url_secrets(url) == [url, "p%40ss-w0rd!x", "p@ss-w0rd!x"]
    kv = "postgresql:///iteron?host=/run/pg&password=s3cret-Value"
    assert "s3cret-Value" in url_secrets(kv)


def test_s9_a_bad_store_url_never_echoes_it(tmp_path):
    secret = "pw-Zk3mQ8vR2xL7"
    cli = Cli(SqliteBackend())
    for url in (f"mysql://root:{secret}@h/db", f"postgresql://u:{secret}@127.0.0.1:1/db"):
        for args in (["--sessions", "--store", url], ["run", "--output-format", "json",
                                                       "--store", url]):  # fmt: skip
            r = cli.iteron(*args, home=tmp_path)
            assert r.returncode == 1, r.stderr
            assert secret.encode() not in r.stdout + r.stderr
            assert "store_unavailable" in r.stderr.decode()
            assert r.stderr.decode().count("\n") == 1
        r = cli.iteron("--sessions", home=tmp_path, ITERON_STORE=url)
        assert r.returncode == 1 and secret.encode() not in r.stdout + r.stderr


@pytest.mark.postgres
def test_s9_a_wrong_password_or_database_is_unavailable_without_the_url(pg_server, tmp_path):
    cli = Cli(SqliteBackend())
    wrong = pg_server.url("postgres").replace(pg_server.password, "wrong-" + pg_server.password)
    missing = pg_server.url("no_such_database")
    for url in (wrong, missing):
        r = cli.iteron("run", "--output-format", "json", home=tmp_path, ITERON_STORE=url)
        assert r.returncode == 1
        assert json.loads(r.stdout)["error"]["code"] == "store_unavailable"
        assert pg_server.password.encode() not in r.stdout + r.stderr
        assert b"Traceback" not in r.stderr
    assert (
        b"password authentication failed"
        in cli.iteron("--sessions", home=tmp_path, ITERON_STORE=wrong).stderr
    )


@pytest.mark.postgres
def test_s9_an_agent_printing_the_store_url_is_redacted_in_stdout_and_record(
    pg_server, pg_backend, tmp_path
):
    backend = pg_backend
    cli = Cli(backend)
    url = backend.location(tmp_path)
    trace = tmp_path / "t.jsonl"
    events = [{"type": "assistant_delta", "text": f"connecting to {url} now"},
              {"type": "assistant_delta", "text": f"password {pg_server.password}"},
              {"type": "run_end", "outcome": "done"}]  # fmt: skip
    trace.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    r = cli.iteron("run", "--output-format", "stream-json", "--replay", str(trace), home=tmp_path)
    assert r.returncode == 0, r.stderr  # (Cli checked stdout and stderr)
    for (body,) in backend.sql(tmp_path, "SELECT body FROM events"):
        assert pg_server.password.encode() not in body
    (result,) = backend.sql(tmp_path, "SELECT result FROM runs")[0]
    assert pg_server.password.encode() not in result


# -- S10: the connection lost mid-run ---------------------------------------------------


@pytest.mark.postgres
def test_s10_connection_killed_mid_run_fails_retryable_and_loses_nothing_printed(
    pg_server, pg_backend, tmp_path
):
    backend = pg_backend
    cli = Cli(backend)
    url = backend.location(tmp_path)
    proc = streaming(cli, tmp_path)
    printed = feed(proc, trace_lines(20))
    dbname = url.rsplit("/", 1)[1]
    killed = pg_server.admin.execute(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
        " WHERE application_name = 'iteron' AND datname = %s",
        (dbname,),
    ).fetchone()[0]
    assert killed == 1
    # The next batch cannot be committed: it is not printed; the run ends, one result.
    proc.stdin.write(b'{"type": "notice", "text": "after the kill"}\n')
    proc.stdin.flush()
    out, err = proc.communicate(timeout=60)
    rest = [json.loads(x) for x in out.splitlines()]
    assert proc.returncode == 1
    assert [x["type"] for x in rest] == ["result"]
    assert rest[0]["outcome"] == "failed" and rest[0]["error"]["code"] == "store_failed"
    assert rest[0]["error"]["message"].endswith("(retryable)")
    assert b"Traceback" not in err and pg_server.password.encode() not in out + err
    assert err.decode().count("store_failed") == 1
    stored = {s for (s,) in backend.sql(tmp_path, "SELECT seq FROM events")}
    assert {x["seq"] for x in printed} <= stored
    assert "after the kill" not in json.dumps([list(r) for r in backend.sql(
        tmp_path, "SELECT convert_from(body, 'UTF8') FROM events")])  # fmt: skip
    # Its end reached the store over a new connection: the session says failed.
    run_id = rest[0]["run_id"]
    [(outcome, result)] = backend.sql(tmp_path, "SELECT outcome, result FROM runs")
    assert outcome == "failed" and json.loads(result) == rest[0]
    # The run can be resumed by another runner at once: the lost connection let go.
    again = ok_json(cli.iteron("run", "--output-format", "json", "--resume", run_id,
                               home=tmp_path))  # fmt: skip
    assert again["run_id"] == run_id and again["success"]


# -- S11: a versioned schema, created on first use --------------------------------------


@pytest.mark.postgres
def test_s11_first_use_by_many_runners_at_once_migrates_once(pg_server, pg_backend, tmp_path):
    backend = pg_backend
    cli = Cli(backend)
    procs = [
        cli.popen(["--sessions"], tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(6)
    ]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert json.loads(out)["sessions"] == []
    meta = dict(backend.sql(tmp_path, "SELECT name, value FROM store_meta"))
    assert meta["schema_version"] == str(len(MIGRATIONS)).encode()
    assert len(meta["cursor_key"]) == 32


@pytest.mark.postgres
def test_s11_a_store_from_a_newer_iteron_is_refused(pg_server, pg_backend, tmp_path):
    backend = pg_backend
    url = backend.location(tmp_path)
    open_store(url).close()
    with psycopg.connect(url) as db:
        db.execute("UPDATE store_meta SET value = '99' WHERE name = 'schema_version'")
    with pytest.raises(StoreError) as e:
        open_store(url)
    assert "schema version 99" in str(e.value) and pg_server.password not in str(e.value)


def test_s11_runs_and_events_keep_their_types(backend, tmp_path):
    store = backend.open(tmp_path)
    try:
        run_id = new_run_id()
        store.claim(run_id)
        store.create_run(run_id, "acme", tag="t")
        body = json.dumps({"seq": 1, "turn": 1, "type": "notice", "text": "é\\\n\t"}).encode()
        store.append(run_id, [(1, 1, "notice", body), (2 << 40, 7, "notice", body)])
        store.commit()
        assert list(store.events(run_id)) == [(1, 1, "notice", body), (2 << 40, 7, "notice", body)]
        assert store.position(run_id) == (2 << 40, 8)
        assert store.run(run_id, "other") is None and store.run(run_id, "acme")["turns"] == 0
    finally:
        store.close()


# -- A5 across runners: PostgreSQL keeps the content -------------------------------------


@pytest.mark.postgres
def test_a5_a_runner_sharing_the_store_reopens_another_runners_artifact(
    pg_server, pg_backend, tmp_path
):
    backend = pg_backend
    url = backend.location(tmp_path / "runner-a")
    cli = Cli(backend)
    trace = tmp_path / "t.jsonl"
    events = [{"type": "artifact", "schema": "report", "producer": "w", "effect_id": "e1",
               "path": "r.md", "content_text": "made on runner a\n"},
              {"type": "run_end", "outcome": "done"}]  # fmt: skip
    trace.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    r = cli.iteron("run", "--output-format", "stream-json", "--replay", str(trace),
                   home=tmp_path / "runner-a")  # fmt: skip
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    h = next(x for x in lines if x["type"] == "artifact_produced")["artifact"]["hash"]
    assert not (tmp_path / "runner-a" / "artifacts").exists()  # nothing on the runner's disk
    # Another runner: its own ITERON_HOME (nothing there), the same store.
    other = Cli(SqliteBackend())
    opened = other.iteron("--artifact-open", h, home=tmp_path / "runner-b", ITERON_STORE=url)
    assert opened.returncode == 0 and opened.stdout == b"made on runner a\n"
    listed = other.iteron("--artifacts", lines[-1]["run_id"], home=tmp_path / "runner-b",
                          ITERON_STORE=url)  # fmt: skip
    assert [a["hash"] for a in json.loads(listed.stdout)["artifacts"]] == [h]
