"""Sessions (docs/contract.md §5): list and transcript pages with signed cursors (S1, S2, S4),
fork (S3), tags (S5), tenants (S6), resume/continue (O4), and crash safety (S7)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from scrubline import sessions
from scrubline.cursor import decode, fingerprint
from scrubline.sessions import SessionError
from scrubline.store import new_run_id
from stores import ITERON, Cli, SqliteBackend

GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"


def ok_json(r) -> dict:
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def new_run(cli, home: Path, *extra: str, **env: str) -> dict:
    r = cli.iteron("run", "--output-format", "json", *extra, home=home, **env)
    return ok_json(r)


def rejected(r, code: str) -> dict:
    assert r.returncode == 65, r.stderr
    assert len(r.stderr.decode().strip().splitlines()) == 1
    assert code in r.stderr.decode()
    obj = json.loads(r.stdout)
    assert obj["type"] == "error" and obj["error"]["code"] == code
    return obj


# -- S1 list pages and S4 cursors ------------------------------------------------------


def test_s1_list_newest_first_and_a_cursor_walk_sees_each_once(cli, tmp_path):
    ids = [new_run(cli, tmp_path)["run_id"] for _ in range(5)]
    seen, cursor = [], None
    while True:
        args = ["--sessions", "--session-limit", "2"]
        page = ok_json(
            cli.iteron(*args, *(["--session-cursor", cursor] if cursor else []), home=tmp_path)
        )
        assert page["type"] == "session_list_page" and page["schema_version"] == 8
        seen += [s["run_id"] for s in page["sessions"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
        assert len(cursor) <= 512 and all(c.isalnum() or c in "-_." for c in cursor)
    assert seen == ids[::-1]
    s = ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"][0]
    assert list(s) == [
        "run_id", "created_at", "updated_at", "agent_definition_tag", "parent_run_id",
        "fork_point", "turns", "outcome",
    ]  # fmt: skip
    assert (s["turns"], s["outcome"], s["agent_definition_tag"]) == (2, "done", None)


@pytest.mark.parametrize("limit", ["0", "101", "-1", "x"])
def test_s1_limit_is_bounded(limit, tmp_path):
    r = Cli(SqliteBackend()).iteron("--sessions", "--session-limit", limit, home=tmp_path)
    assert r.returncode == 64 and r.stdout == b""


def test_s4_every_changed_byte_is_cursor_modified(cli, tmp_path):
    for _ in range(3):
        new_run(cli, tmp_path)
    cursor = ok_json(cli.iteron("--sessions", "--session-limit", "1", home=tmp_path))["next_cursor"]
    store = cli.backend.open(tmp_path)
    key = store.cursor_key()
    store.close()
    query = fingerprint("list", "default", None)
    assert decode(key, cursor, "list", query) >= 1
    for i in range(len(cursor)):
        for c in {"A", "_", "z"} - {cursor[i]}:
            bad = cursor[:i] + c + cursor[i + 1 :]
            with pytest.raises(Exception) as e:
                decode(key, bad, "list", query)
            assert getattr(e.value, "code", None) == "cursor_modified", (i, c)
    for bad in ["", ".", cursor + "A", cursor[:-1], "x" * 600, cursor.replace(".", "")]:
        r = cli.iteron("--sessions", "--session-cursor", bad, home=tmp_path)
        rejected(r, "cursor_modified")


def test_s4_stale_and_cross_query(cli, tmp_path):
    a = new_run(cli, tmp_path, "--agent-definition-tag", "team-a")
    new_run(cli, tmp_path, "--agent-definition-tag", "team-a")
    new_run(cli, tmp_path)
    page = ok_json(cli.iteron("--sessions", "--session-limit", "1", home=tmp_path))
    cursor = page["next_cursor"]
    # Another tag filter, another tenant, another kind: cross-query.
    r = cli.iteron("--sessions", "--session-cursor", cursor, "--agent-definition-tag", "team-a",
               home=tmp_path)  # fmt: skip
    rejected(r, "cursor_cross_query")
    r = cli.iteron("--sessions", "--session-cursor", cursor, "--tenant", "other", home=tmp_path)
    rejected(r, "cursor_cross_query")
    r = cli.iteron("--transcript", a["run_id"], "--transcript-cursor", cursor, home=tmp_path)
    rejected(r, "cursor_cross_query")
    # Expired.
    old = ok_json(cli.iteron("--sessions", "--session-limit", "1", home=tmp_path,
                         ITERON_CURSOR_TTL="-5"))["next_cursor"]  # fmt: skip
    rejected(cli.iteron("--sessions", "--session-cursor", old, home=tmp_path), "cursor_stale")
    # A transcript cursor is tied to its run.
    t = ok_json(cli.iteron("--transcript", a["run_id"], "--transcript-limit", "3", home=tmp_path))
    other = ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"][0]["run_id"]
    r = cli.iteron("--transcript", other, "--transcript-cursor", t["older_cursor"], home=tmp_path)
    rejected(r, "cursor_cross_query")


# -- S2 transcripts --------------------------------------------------------------------


@pytest.mark.parametrize("version", [4, 6, 8])
def test_s2_transcript_pages_rebuild_the_run_stdout(version, cli, tmp_path):
    r = cli.iteron("run", "--output-format", "stream-json", "--output-schema-version", str(version),
               home=tmp_path)  # fmt: skip
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    run_id = lines[-1]["run_id"]
    pages, cursor = [], None
    while True:
        args = ["--transcript", run_id, "--transcript-limit", "7"]
        args += ["--output-schema-version", str(version)]
        args += ["--transcript-cursor", cursor] if cursor else []
        page = ok_json(cli.iteron(*args, home=tmp_path))
        assert page["type"] == "session_transcript_page" and page["run_id"] == run_id
        seqs = [e["seq"] for e in page["events"]]
        assert seqs == sorted(seqs)  # chronological inside a page
        assert 1 <= len(seqs) <= 7
        pages.append(page["events"])
        cursor = page["older_cursor"]
        if cursor is None:
            break
    assert len(pages) > 1
    rebuilt = [e for page in reversed(pages) for e in page]  # newest page came first
    assert rebuilt == lines[:-1]
    blob = json.dumps(pages)
    assert GHP[:12] not in blob and "[REDACTED:github-pat]" in blob


def test_s6_other_tenant_is_byte_identical_to_not_found(cli, tmp_path):
    a = new_run(cli, tmp_path / "one", "--tenant", "acme")["run_id"]
    (tmp_path / "two").mkdir()
    for op in (["--transcript", a], ["--fork", a]):
        hidden = cli.iteron(*op, "--tenant", "other", home=tmp_path / "one")
        missing = cli.iteron(*op, "--tenant", "other", home=tmp_path / "two")
        rejected(hidden, "not_found")
        assert (hidden.stdout, hidden.stderr) == (missing.stdout, missing.stderr)
        assert cli.iteron(*op, "--tenant", "acme", home=tmp_path / "one").returncode == 0
    r = cli.iteron("run", "--resume", a, "--output-format", "json", "--tenant", "other",
               home=tmp_path / "one")  # fmt: skip
    rejected(r, "not_found")
    assert (
        ok_json(cli.iteron("--sessions", "--tenant", "other", home=tmp_path / "one"))["sessions"]
        == []
    )
    listed = ok_json(cli.iteron("--sessions", home=tmp_path / "one", ITERON_TENANT="acme"))
    assert [s["parent_run_id"] for s in listed["sessions"]] == [a, None]  # the fork, then a
    assert listed["sessions"][1]["run_id"] == a


# -- S3 fork, resume, continue ---------------------------------------------------------


def transcript(cli, home: Path, run_id: str) -> list[dict]:
    page = ok_json(cli.iteron("--transcript", run_id, "--transcript-limit", "1000", home=home))
    assert page["older_cursor"] is None
    return page["events"]


def test_s3_fork_holds_the_parent_up_to_the_fork_point(cli, tmp_path):
    parent = new_run(cli, tmp_path, "--agent-definition-tag", "team-a")["run_id"]
    before = transcript(cli, tmp_path, parent)
    fork = ok_json(cli.iteron("--fork", parent, home=tmp_path))
    assert fork["type"] == "session_fork_result" and fork["status"] == "created"
    assert fork["parent_run_id"] == parent and fork["fork_point"] == before[-1]["seq"]
    child = fork["child_run_id"]
    assert transcript(cli, tmp_path, child) == before
    # The child moves on; the parent does not.
    resumed = new_run(cli, tmp_path, "--resume", child)
    assert resumed["run_id"] == child
    assert transcript(cli, tmp_path, parent) == before
    grown = transcript(cli, tmp_path, child)
    assert grown[: len(before)] == before and len(grown) > len(before)
    # seq fork_point + 1 is the resumed trace's run_start (recorded, not published).
    assert grown[len(before)]["seq"] == fork["fork_point"] + 2
    assert grown[len(before)]["turn"] == 3  # the next turn after the parent's two
    # A fork of a fork, the tag inherited.
    grand = ok_json(cli.iteron("--fork", child, home=tmp_path))
    listed = {s["run_id"]: s for s in ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"]}
    g = listed[grand["child_run_id"]]
    assert (g["parent_run_id"], g["fork_point"]) == (child, grown[-1]["seq"])
    assert g["agent_definition_tag"] == "team-a" == listed[child]["agent_definition_tag"]
    assert listed[child]["turns"] == 4


def test_continue_appends_to_the_latest_run_and_tags_must_repeat(cli, tmp_path):
    first = new_run(cli, tmp_path, "--agent-definition-tag", "team-a")["run_id"]
    again = new_run(cli, tmp_path, "--continue")
    assert again["run_id"] == first and again["turns"] == 2
    assert (
        new_run(cli, tmp_path, "--continue", "--agent-definition-tag", "team-a")["run_id"] == first
    )
    r = cli.iteron("run", "--output-format", "json", "--continue",
                   "--agent-definition-tag", "team-b", home=tmp_path)  # fmt: skip
    rejected(r, "tag_mismatch")
    seqs = [e["seq"] for e in transcript(cli, tmp_path, first)]
    assert seqs == sorted(set(seqs))
    assert ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"][0]["turns"] == 6
    r = cli.iteron("run", "--output-format", "json", "--continue", home=tmp_path / "empty")
    rejected(r, "not_found")


# -- S5 tags ---------------------------------------------------------------------------

TAGS = [
    ("é" * 64, True),  # 128 bytes
    ("é" * 64 + "a", False),  # 129 bytes
    ("a" * 128, True),
    ("a" * 129, False),
    ("日本" * 21 + "ab", True),  # 126 + 2 bytes
    ("", False),
    ("   ", False),
    ("a\x1bb", False),
    ("a\tb", False),
    ("a\x00b", False),
    (GHP, False),
    ("reviewer/v2", True),
]


@pytest.mark.parametrize(("tag", "good"), TAGS)
def test_s5_tag_rules(tag, good):
    if good:
        assert sessions.check_tag(tag) == tag
    else:
        with pytest.raises(SessionError) as e:
            sessions.check_tag(tag)
        assert e.value.code == "invalid_tag"


@pytest.mark.parametrize(("tag", "good"), [t for t in TAGS if "\x00" not in t[0]])
def test_s5_tag_rules_at_the_cli(tag, good, cli, tmp_path):
    r = cli.iteron("run", "--output-format", "json", "--agent-definition-tag", tag, home=tmp_path)
    if good:
        assert json.loads(r.stdout)["success"] is True
        listed = ok_json(cli.iteron("--sessions", "--agent-definition-tag", tag, home=tmp_path))
        assert [s["agent_definition_tag"] for s in listed["sessions"]] == [tag]
    else:
        rejected(r, "invalid_tag")
        assert GHP[:12].encode() not in r.stdout + r.stderr
        assert not ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"]


def test_s5_legacy_untagged_store_is_migrated_and_readable(tmp_path):
    """SQLite only: stores from before tags exist only there."""
    cli = Cli(SqliteBackend())
    db = sqlite3.connect(tmp_path / "iteron.db")
    db.executescript(
        """
        CREATE TABLE runs (run_id TEXT PRIMARY KEY, tenant TEXT NOT NULL,
            created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            turns INTEGER NOT NULL DEFAULT 0, outcome TEXT, exit_code INTEGER, result BLOB);
        CREATE TABLE events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL,
            type TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
        INSERT INTO runs VALUES ('legacy-1', 'default', '2025-01-01T00:00:00.000000Z',
            '2025-01-01T00:00:00.000000Z', 1, 'done', 0, NULL);
        INSERT INTO runs VALUES ('legacy-2', 'default', '2025-02-01T00:00:00.000000Z',
            '2025-02-01T00:00:00.000000Z', 1, 'done', 0, NULL);
        INSERT INTO events VALUES ('legacy-1', 1, 1, 'assistant_delta',
            '{"seq":1,"turn":1,"type":"assistant_delta","text":"old answer"}');
        """
    )
    db.commit()
    db.close()
    fresh = new_run(cli, tmp_path)["run_id"]
    listed = ok_json(cli.iteron("--sessions", home=tmp_path))["sessions"]
    assert [s["run_id"] for s in listed] == [fresh, "legacy-2", "legacy-1"]
    assert listed[2]["agent_definition_tag"] is None
    assert transcript(cli, tmp_path, "legacy-1")[0]["text"] == "old answer"
    assert ok_json(cli.iteron("--fork", "legacy-1", home=tmp_path))["fork_point"] == 1


# -- S4 keyset pagination under concurrent inserts (hypothesis state machine) ----------


class PagingWhileWriting(RuleBasedStateMachine):
    """Walks of the session list and of one transcript, interleaved with new sessions
    and new events: every item that existed when a walk began is seen exactly once."""

    def __init__(self, backend) -> None:
        super().__init__()
        import tempfile

        self.backend = backend
        self.root = Path(tempfile.mkdtemp())
        self.store = backend.open(self.root)
        self.runs: list[str] = []
        self.main = self._new_run()
        self.events = 0
        for _ in range(5):
            self._append()
        self.list_walk: tuple[set[str], list[str], str | None] | None = None
        self.tx_walk: tuple[set[int], list[int], str | None] | None = None

    def _new_run(self) -> str:
        run_id = new_run_id()
        self.store.create_run(run_id, "default")
        self.runs.append(run_id)
        return run_id

    def _append(self) -> None:
        self.events += 1
        body = json.dumps({"seq": self.events, "turn": 1, "type": "notice", "text": "n"})
        self.store.append(self.main, [(self.events, 1, "notice", body.encode())])
        self.store.commit()

    @rule()
    def new_session(self) -> None:
        self._new_run()

    @rule()
    def new_event(self) -> None:
        self._append()

    @rule(limit=st.integers(1, 4))
    def list_page(self, limit: int) -> None:
        if self.list_walk is None:
            self.list_walk = (set(self.runs), [], None)
        expected, seen, cursor = self.list_walk
        page = sessions.list_page(self.store, "default", version=8, limit=limit, cursor=cursor)
        seen += [s["run_id"] for s in page["sessions"]]
        if page["next_cursor"] is None:
            assert len(seen) == len(set(seen)), "a duplicate"
            assert expected <= set(seen), "a gap"
            self.list_walk = None
        else:
            self.list_walk = (expected, seen, page["next_cursor"])

    @rule(limit=st.integers(1, 4))
    def transcript_page(self, limit: int) -> None:
        if self.tx_walk is None:
            self.tx_walk = (set(range(1, self.events + 1)), [], None)
        expected, seen, cursor = self.tx_walk
        page = sessions.transcript_page(self.store, "default", self.main, version=8,
                                        limit=limit, cursor=cursor)  # fmt: skip
        seen += [e["seq"] for e in page["events"]]
        if page["older_cursor"] is None:
            assert len(seen) == len(set(seen)), "a duplicate"
            assert expected <= set(seen), "a gap"
            self.tx_walk = None
        else:
            self.tx_walk = (expected, seen, page["older_cursor"])

    @invariant()
    def nothing_half_written(self) -> None:
        if self.backend.name == "sqlite":
            assert self.store.db.execute("PRAGMA quick_check").fetchone() == ("ok",)

    def teardown(self) -> None:
        self.store.close()


def test_s4_paging_while_writing(backend):
    run_state_machine_as_test(
        lambda: PagingWhileWriting(backend),
        settings=settings(max_examples=40, stateful_step_count=30, deadline=None),
    )


# -- S7 crash safety -------------------------------------------------------------------


@pytest.mark.slow
def test_s7_sigkill_at_random_points_loses_no_emitted_record(cli, tmp_path):
    lines = [json.dumps({"type": "run_start", "agent": "a"})]
    for i in range(20000):
        if i % 500 == 499:
            lines.append(json.dumps({"type": "turn_end", "usage": {"input": 1, "output": 1}}))
        else:
            lines.append(json.dumps({"type": "assistant_delta", "text": f"word {i} {GHP[:6]} "}))
    lines.append(json.dumps({"type": "run_end", "outcome": "done"}))
    trace = tmp_path / "long.jsonl"
    trace.write_text("\n".join(lines) + "\n")
    rng = random.Random(7)
    home = tmp_path / "home"
    emitted: dict[str, list[int]] = {}
    for _ in range(50):
        proc = cli.popen(
            ["run", "--output-format", "stream-json", "--replay", str(trace)],
            home,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        want = rng.randrange(1, 4000)
        got = []
        for _ in range(want):
            line = proc.stdout.readline()
            if not line:
                break
            got.append(json.loads(line))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if got and "run_id" in got[-1]:
            continue  # finished before the kill
        seqs = [g["seq"] for g in got]
        emitted[str(len(emitted))] = seqs
        # The run id is not on events: match by the newest run in the store below.
        sql = cli.backend.sql
        if cli.backend.name == "sqlite":
            assert sql(home, "PRAGMA integrity_check") == [("ok",)]
        [(run_id,)] = sql(home, "SELECT run_id FROM runs ORDER BY created_n DESC LIMIT 1")
        rows = sql(home, f"SELECT seq, body FROM events WHERE run_id = '{run_id}' ORDER BY seq")
        stored = []
        for seq, body in rows:
            record = json.loads(body)  # no half-written record
            assert record["seq"] == seq
            stored.append(seq)
        assert stored == list(range(1, len(stored) + 1))
        assert set(seqs) <= set(stored), "a line reached stdout before its record was durable"
    assert len(emitted) >= 40


def test_s7_store_failing_mid_run_emits_only_durable_lines_then_the_result(tmp_path):
    """A real write failure: the file size limit (RLIMIT_FSIZE) stops the database
    growing mid-run. Everything printed before is stored; the run ends with one result."""
    import resource

    lines = [
        json.dumps({"type": "notice", "text": f"event {i} " + "x" * 400}) for i in range(20000)
    ]
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join(lines) + "\n")
    home = tmp_path / "home"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2 << 20, 2 << 20))

    r = subprocess.run(
        [*ITERON, "run", "--output-format", "stream-json", "--replay", str(trace)],
        capture_output=True,
        env={**os.environ, **SqliteBackend().env(home)},
        preexec_fn=limit,
        timeout=120,
        check=False,
    )
    assert r.returncode == 1, r.stderr
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["type"] for x in out].count("result") == 1 and out[-1]["type"] == "result"
    assert out[-1]["error"]["code"] == "store_failed"
    assert "store_failed" in r.stderr.decode()
    printed = {x["seq"] for x in out[:-1]}
    assert 0 < len(printed) < 20000
    db = sqlite3.connect(home / "iteron.db")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    stored = {seq for (seq,) in db.execute("SELECT seq FROM events")}
    assert printed <= stored, "a line reached stdout that is not in the store"
