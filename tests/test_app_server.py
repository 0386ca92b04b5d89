"""`iteron app-server` driven as a real subprocess over its stdio (docs/app-server.md):
bootstrap (P1, P2), the v7 stream and its golden fixtures (P3, E6), exact receipts
(P4, P5), concurrent runs (P6), sessions (P8), bad input (P9), a client that stops
reading (P10), shutdown, a vanished client and SIGTERM (P11), the generated schemas
(P12). The runtime processes are scripts written by the tests (foreign programs).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

TRACES = Path(__file__).parent / "fixtures" / "traces"
CASES = sorted(p.name.removesuffix(".trace.jsonl") for p in TRACES.glob("*.trace.jsonl"))
OPTIONS = json.loads((TRACES / "options.json").read_text())
SERVER = [sys.executable, "-m", "scrubline.cli.iteron", "app-server"]
GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"
LIFECYCLE = {
    "steer_submission_applied",
    "control_submission_applied",
    "approval_resolved",
    "submission_rejected",
}
BOOT = {"client": {"name": "pytest", "version": "1"}, "protocol_version": 7}


class Client:
    """A client of one server process: writes request lines, and a thread collects
    every line the server writes (unless ``reading`` is off: a client that stalls)."""

    def __init__(self, home: Path, *args: str, reading: bool = True, **env: str) -> None:
        self.proc = subprocess.Popen(
            [*SERVER, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "ITERON_HOME": str(home), **env},
        )
        self.messages: list[dict] = []
        self.raw: list[bytes] = []
        self.cond = threading.Condition()
        self.next_id = 0
        self.reading = threading.Event()
        if reading:
            self.reading.set()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        self.reading.wait()
        for line in self.proc.stdout:
            msg = json.loads(line)  # every stdout line is one JSON object
            with self.cond:
                self.raw.append(line)
                self.messages.append(msg)
                self.cond.notify_all()

    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def request(self, method: str, params: dict | None = None) -> int:
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.write(json.dumps(msg).encode() + b"\n")
        return self.next_id

    def wait(self, pred, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for m in self.messages:
                    if pred(m):
                        return m
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; got {self.messages[-5:]}"
                self.cond.wait(left)

    def response(self, rid) -> dict:
        return self.wait(lambda m: "method" not in m and m.get("id") == rid)

    def call(self, method: str, params: dict | None = None) -> dict:
        return self.response(self.request(method, params))

    def ok(self, method: str, params: dict | None = None) -> dict:
        r = self.call(method, params)
        assert "result" in r, r
        return r["result"]

    def result_of(self, run_id: str, timeout: float = 30.0) -> dict:
        m = self.wait(
            lambda m: m.get("method") == "run/result" and m["params"]["run_id"] == run_id,
            timeout,
        )
        return m["params"]

    def nth_result(self, run_id: str, n: int) -> dict:
        """The run's n-th result (1-based): a resumed run ends once per invocation."""

        def seen(_m) -> bool:
            return len(self.results(run_id)) >= n

        self.wait(seen)
        return self.results(run_id)[n - 1]

    def results(self, run_id: str) -> list[dict]:
        return [
            m["params"]
            for m in self.messages
            if m.get("method") == "run/result" and m["params"]["run_id"] == run_id
        ]

    def events(self, run_id: str) -> list[dict]:
        with self.cond:
            return [
                m["params"]
                for m in self.messages
                if m.get("method") == "run/event" and m["params"]["run_id"] == run_id
            ]

    def close(self, timeout: float = 30.0) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        rc = self.proc.wait(timeout)
        self.thread.join(5)
        return rc


@pytest.fixture(autouse=True)
def _survive_a_closed_pipe():
    """The test is the client: a server that has gone is an EPIPE here, not a signal
    that ends the test run (an in-process CLI test may have restored SIGPIPE)."""
    old = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    yield
    signal.signal(signal.SIGPIPE, old)


@pytest.fixture
def client(tmp_path):
    c = Client(tmp_path)
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def booted(c: Client) -> Client:
    c.ok("bootstrap", BOOT)
    return c


def write_runtime(path: Path, body: str) -> str:
    """A scripted runtime process: canonical trace on stdout, submissions on stdin."""
    head = """\
        import json, sys
        def out(**e):
            sys.stdout.write(json.dumps(e) + "\\n"); sys.stdout.flush()
        """
    path.write_text(textwrap.dedent(head) + textwrap.dedent(body))
    return f"{sys.executable} {path}"


# A runtime that applies what it is sent, as a real one would; `twice` reports one
# submission twice, `ignore` never answers, `leak` streams its text as answer deltas,
# `end` ends the run.
RECEIVER = """\
    out(type="run_start", agent="fake", model="m")
    for raw in sys.stdin:
        s = json.loads(raw)
        kind, sid = s.get("type"), s.get("submission_id")
        if kind == "prompt":
            out(type="assistant_delta", text="ready. ")
        elif kind == "steer" and s["text"] == "ignore":
            pass
        elif kind == "steer" and s["text"] == "over":
            out(type="turn_end", usage={"input": 5000, "output": 5000})
        elif kind == "steer" and s["text"] == "end":
            out(type="steer_submission_applied", submission_id=sid, text="end")
            out(type="turn_end", usage={"input": 1, "output": 1})
            out(type="run_end", outcome="done")
            break
        elif kind == "steer" and s["text"].startswith("leak:"):
            out(type="assistant_delta", text=s["text"][5:])
            out(type="steer_submission_applied", submission_id=sid, text="leak")
        elif kind in ("steer", "turn"):
            n = 2 if s.get("text") == "twice" else 1
            for _ in range(n):
                out(type="steer_submission_applied", submission_id=sid, text=s.get("text"))
            if kind == "turn":
                for i, a in enumerate(s.get("attachments", [])):
                    out(type="input_attachment", media_type=a["media_type"],
                        data_b64=a["data_b64"], filename=a.get("filename"))
        elif kind == "approval":
            out(type="approval_resolved", submission_id=sid, request_id=s["request_id"],
                decision=s["decision"])
        elif kind == "control":
            out(type="control_submission_applied", submission_id=sid, control=s["control"])
    """

# A runtime that talks until it is stopped.
FOREVER = """\
    import time
    out(type="run_start", agent="fake", model="m")
    i = 0
    while True:
        i += 1
        out(type="assistant_delta", text=f"tick {i}. ")
        time.sleep(0.02)
    """


def normalize(events: list[dict], result: dict) -> str:
    lines = []
    for e in events:
        assert e["run_id"] == result["run_id"]
        lines.append(json.dumps({**e, "run_id": "RUN"}, separators=(",", ":"), ensure_ascii=False))
    r = {**result, "run_id": "RUN"}
    for k in ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us"):
        assert isinstance(r["kernel_tax"][k], int) and r["kernel_tax"][k] >= 0
        r["kernel_tax"][k] = 0
    lines.append(json.dumps(r, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n"


# ── P1, P2: bootstrap ───────────────────────────────────────────────────────────────


def test_p1_p2_bootstrap_first_then_version_check_then_once(client, tmp_path):
    r = client.call("run/start", {})
    assert r["error"]["code"] == -32001
    assert r["error"]["data"] == {"code": "not_bootstrapped", "retryable": False}
    r = client.call("sessions/list", {})
    assert r["error"]["data"]["code"] == "not_bootstrapped"
    r = client.call("bootstrap", {**BOOT, "protocol_version": 8})
    assert r["error"]["code"] == -32002
    assert r["error"]["data"]["code"] == "unsupported_protocol_version"
    assert r["error"]["data"]["supported"] == [7]
    r = client.call("bootstrap", {"client": {"name": "x"}, "protocol_version": 7})
    assert r["error"]["code"] == -32602  # bad params: still not bootstrapped
    assert client.call("sessions/list")["error"]["data"]["code"] == "not_bootstrapped"
    boot = client.ok("bootstrap", {**BOOT, "tenant": "acme"})
    assert boot["protocol_version"] == 7 and boot["schema_version"] == 7
    assert boot["tenant"] == "acme" and boot["keep_runs_on_disconnect"] is False
    r = client.call("bootstrap", BOOT)
    assert r["error"]["data"]["code"] == "already_bootstrapped"
    # O5: the capability query reports the protocol this server serves.
    mc = subprocess.run(
        [sys.executable, "-m", "scrubline.cli.iteron", "--machine-contract"],
        capture_output=True,
        check=True,
        env={**os.environ, "ITERON_HOME": str(tmp_path)},
    )
    contract = json.loads(mc.stdout)
    assert contract["resident_protocol_version"] == boot["protocol_version"]
    assert 7 not in contract["cli_stream_versions"]
    assert client.close() == 0


def test_o3_one_shot_v7_stays_refused(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "scrubline.cli.iteron", "run", "--output-format",
         "stream-json", "--output-schema-version", "7"],
        capture_output=True, env={**os.environ, "ITERON_HOME": str(tmp_path)}, check=False,
    )  # fmt: skip
    assert r.returncode == 64 and r.stdout == b""
    assert b"resident App Server protocol" in r.stderr
    assert not (tmp_path / "iteron.db").exists()


# ── P3, E6: the v7 stream ───────────────────────────────────────────────────────────


@pytest.mark.parametrize("case", CASES)
def test_e6_p3_golden_v7_over_the_event_queue(case, tmp_path):
    c = booted(Client(tmp_path))
    params = {"source": {"replay": str(TRACES / f"{case}.trace.jsonl")}}
    if limit := OPTIONS.get(case, {}).get("max_turn_tokens"):
        params["limits"] = {"max_turn_tokens": limit}
    started = c.ok("run/start", params)
    assert started["status"] == "started"
    run_id = started["run_id"]
    result = c.result_of(run_id)
    events = c.events(run_id)
    got = normalize(events, result)
    golden = TRACES / f"{case}.v7.jsonl"
    if os.environ.get("UPDATE_GOLDEN") and OPTIONS.get(case, {}).get("store"):
        golden.write_text(got)  # the cases that need the store (the rest: cargo test)
    assert got == golden.read_text()
    # The answer came before the run's first event; the result after its last.
    with c.cond:
        order = [
            m for m in c.messages if m.get("id") == 1 or m.get("params", {}).get("run_id") == run_id
        ]
    assert "result" in order[0] and order[-1]["method"] == "run/result"
    assert c.close() == 0


# ── P4, P5: receipts ────────────────────────────────────────────────────────────────


def test_p4_p5_every_submission_gets_exactly_one_lifecycle_event(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", RECEIVER)
    run_id = client.ok("run/start", {"task": "t", "source": {"runtime_cmd": cmd}})["run_id"]
    client.wait(lambda m: m.get("params", {}).get("type") == "assistant_text")
    sent = {
        "plain": client.ok("steer", {"run_id": run_id, "text": "go left"}),
        "twice": client.ok("steer", {"run_id": run_id, "text": "twice"}),
        "ignored": client.ok("steer", {"run_id": run_id, "text": "ignore"}),
        "approval": client.ok(
            "approval/decide", {"run_id": run_id, "request_id": "r1", "decision": "denied"}
        ),
        "compact": client.ok("control", {"run_id": run_id, "control": "compact"}),
        "turn": client.ok(
            "turn/submit",
            {
                "run_id": run_id,
                "text": "look",
                "attachments": [
                    {
                        "media_type": "image/png",
                        "data_b64": "iVBORw0KGgo=",
                        "filename": "/home/me/secret.png",
                    }
                ],
            },
        ),
    }
    for receipt in sent.values():
        assert receipt["status"] == "queued" and receipt["run_id"] == run_id
    ids = {k: v["submission_id"] for k, v in sent.items()}
    assert len(set(ids.values())) == len(ids)
    for k, sid in ids.items():
        if k != "ignored":
            client.wait(lambda m, sid=sid: m.get("params", {}).get("submission_id") == sid)
    end = client.ok("steer", {"run_id": run_id, "text": "end"})
    result = client.result_of(run_id)
    # Each receipt's response is on the wire before anything names its id.
    with client.cond:
        wire = list(client.messages)
    for sid in [*ids.values(), end["submission_id"]]:
        answer = next(
            i for i, m in enumerate(wire) if m.get("result", {}).get("submission_id") == sid
        )
        named = next(
            i for i, m in enumerate(wire) if m.get("params", {}).get("submission_id") == sid
        )
        assert answer < named
    assert result["outcome"] == "done"
    events = client.events(run_id)
    naming = {}
    for e in events:
        if e["type"] in LIFECYCLE:
            naming.setdefault(e["submission_id"], []).append(e["type"])
    assert naming[ids["plain"]] == ["steer_submission_applied"]
    assert naming[ids["twice"]] == ["steer_submission_applied"]  # the second is a notice
    assert naming[ids["ignored"]] == ["submission_rejected"]  # never claimed applied
    assert naming[ids["approval"]] == ["approval_resolved"]
    assert naming[ids["compact"]] == ["control_submission_applied"]
    assert naming[ids["turn"]] == ["steer_submission_applied"]
    assert naming[end["submission_id"]] == ["steer_submission_applied"]
    assert set(naming) == {*ids.values(), end["submission_id"]}
    rejected = next(e for e in events if e.get("submission_id") == ids["ignored"])
    assert "ended before the submission was applied" in rejected["reason"]
    assert any(e["type"] == "notice" and e["code"] == "submission_unmatched" for e in events)
    # E3: the attachment is metadata only on the EQ.
    att = next(e for e in events if e["type"] == "input_attachment")
    assert set(att) == {"type", "schema_version", "run_id", "seq", "turn", "ordinal",
                        "media_type", "encoded_bytes"}  # fmt: skip
    assert b"secret.png" not in b"".join(client.raw)
    # A finished run takes no submission: an error, no submission id (nothing to receipt).
    r = client.call("steer", {"run_id": run_id, "text": "late"})
    assert r["error"]["code"] == -32005 and r["error"]["data"]["code"] == "run_not_active"
    r = client.call("steer", {"run_id": "no-such-run", "text": "x"})
    assert r["error"]["code"] == -32004 and r["error"]["data"]["code"] == "not_found"
    assert client.close() == 0


def test_p4_a_run_stopped_at_a_limit_still_receipts_what_was_queued(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", RECEIVER)
    params = {"source": {"runtime_cmd": cmd}, "limits": {"max_turn_tokens": 100}}
    run_id = client.ok("run/start", params)["run_id"]
    ignored = client.ok("steer", {"run_id": run_id, "text": "ignore"})["submission_id"]
    over = client.ok("steer", {"run_id": run_id, "text": "over"})["submission_id"]
    result = client.result_of(run_id)
    assert result["outcome"] == "limit"
    events = client.events(run_id)
    for sid in (ignored, over):
        named = [e for e in events if e.get("submission_id") == sid]
        assert [e["type"] for e in named] == ["submission_rejected"], events
        assert "stopped before the submission was applied" in named[0]["reason"]
    assert events[-1]["type"] == "run_done"  # the receipts come before the run's end


def test_p4_a_source_that_takes_no_submissions_rejects_them_once(client, tmp_path):
    """An agent CLI's stream (here a scripted Claude Code) reads no submissions: the
    server rejects a steer exactly once, and never claims it applied."""
    booted(client)
    script = """\
        import time
        sys.stdout.write(json.dumps({"type": "system", "subtype": "init", "session_id": "s",
                                     "model": "m"}) + "\\n")
        for i, text in enumerate(["hello", " there"]):
            sys.stdout.write(json.dumps({"type": "assistant", "message": {"id": f"m{i}",
                                         "content": [{"type": "text", "text": text}]}}) + "\\n")
        sys.stdout.flush()
        time.sleep(3)
        """
    cmd = write_runtime(tmp_path / "cc.py", script)
    src = {"runtime_cmd": cmd, "from": "claude-code"}
    run_id = client.ok("run/start", {"source": src})["run_id"]
    client.wait(lambda m: m.get("params", {}).get("type") == "assistant_text")
    sid = client.ok("steer", {"run_id": run_id, "text": "stop"})["submission_id"]
    client.result_of(run_id)
    naming = [e for e in client.events(run_id) if e.get("submission_id") == sid]
    assert [e["type"] for e in naming] == ["submission_rejected"]
    assert "takes no submissions" in naming[0]["reason"]


def test_p5_interrupt_is_applied_and_cancels_the_run(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    run_id = client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    client.wait(lambda m: m.get("params", {}).get("type") == "assistant_text")
    steer = client.ok("steer", {"run_id": run_id, "text": "x"})["submission_id"]
    sid = client.ok("control", {"run_id": run_id, "control": "interrupt"})["submission_id"]
    result = client.result_of(run_id)
    assert result["outcome"] == "cancelled" and sid in result["reason"]
    events = client.events(run_id)
    named = {e["submission_id"]: e for e in events if e["type"] in LIFECYCLE}
    assert named[sid]["type"] == "control_submission_applied"
    assert named[sid]["control"] == "interrupt"
    assert named[steer]["type"] in ("submission_rejected", "steer_submission_applied")
    assert events[-1]["type"] == "run_done"


def test_d2_a_credential_split_across_two_submissions_never_leaks(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", RECEIVER)
    run_id = client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    client.ok("steer", {"run_id": run_id, "text": "leak:token " + GHP[:17]})
    client.ok("steer", {"run_id": run_id, "text": "leak:" + GHP[17:] + " done"})
    client.ok("steer", {"run_id": run_id, "text": "end"})
    result = client.result_of(run_id)
    wire = b"".join(client.raw)
    assert GHP.encode() not in wire and GHP[10:30].encode() not in wire
    assert "[REDACTED:github-pat]" in result["assistant_text"]
    assert client.close() == 0
    db = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert GHP[10:30].encode() not in db


# ── P6: several runs ────────────────────────────────────────────────────────────────


def big_trace(path: Path, n: int, tag: str) -> Path:
    lines = [json.dumps({"type": "run_start", "agent": "a", "model": "m"})]
    for i in range(n):
        lines.append(json.dumps({"type": "assistant_delta", "text": f"{tag}{i} "}))
        if i % 100 == 99:
            lines.append(json.dumps({"type": "turn_end", "usage": {"input": 1, "output": 1}}))
    lines.append(json.dumps({"type": "run_end", "outcome": "done"}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_p6_concurrent_runs_interleave_with_gap_free_seqs(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    slow = client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    client.wait(lambda m: m.get("params", {}).get("run_id") == slow)
    traces = [big_trace(tmp_path / f"{k}.jsonl", 3000, k) for k in "ab"]
    fast = [client.ok("run/start", {"source": {"replay": str(t)}})["run_id"] for t in traces]
    for run_id in fast:
        assert client.result_of(run_id)["outcome"] == "done"
    client.ok("control", {"run_id": slow, "control": "interrupt"})
    assert client.result_of(slow)["outcome"] == "cancelled"
    with client.cond:
        order = [m["params"]["run_id"] for m in client.messages if m.get("method") == "run/event"]
    switches = sum(1 for x, y in itertools.pairwise(order) if x != y)
    assert switches >= 2  # the runs' events share the queue
    for run_id in [slow, *fast]:
        seqs = [e["seq"] for e in client.events(run_id)]
        assert seqs == sorted(set(seqs))
        # Gap-free: exactly the run's published events, as its transcript holds them.
        page = client.ok("sessions/transcript", {"run_id": run_id, "limit": 1000})
        walked = page["events"]
        while page["older_cursor"]:
            page = client.ok(
                "sessions/transcript",
                {"run_id": run_id, "limit": 1000, "cursor": page["older_cursor"]},
            )
            walked = page["events"] + walked
        assert walked == client.events(run_id)
    # Each run had its own scrubber and answer.
    a = client.result_of(fast[0])["assistant_text"]
    assert "a0 " in a and "b0 " not in a


def test_p6_run_limit_is_a_retryable_refusal(tmp_path):
    c = booted(Client(tmp_path, "--max-runs", "1"))
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    first = c.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    r = c.call("run/start", {"source": {"runtime_cmd": cmd}})
    assert r["error"]["code"] == -32006
    assert r["error"]["data"] == {"code": "too_many_runs", "retryable": True}
    c.ok("control", {"run_id": first, "control": "interrupt"})
    c.result_of(first)
    deadline = time.monotonic() + 10
    while "error" in (r := c.call("run/start", {})) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "result" in r
    assert c.close() == 0


# ── P8: sessions ────────────────────────────────────────────────────────────────────


def test_p8_sessions_list_transcript_fork_resume_artifacts(client, tmp_path):
    booted(client)
    run_id = client.ok("run/start", {"agent_definition_tag": "reviewer"})["run_id"]
    result = client.result_of(run_id)
    assert result["outcome"] == "done"
    page = client.ok("sessions/list", {"limit": 5})
    assert page["type"] == "session_list_page" and page["schema_version"] == 7
    assert page["sessions"][0]["run_id"] == run_id
    assert page["sessions"][0]["agent_definition_tag"] == "reviewer"
    assert client.ok("sessions/list", {"agent_definition_tag": "other"})["sessions"] == []
    t = client.ok("sessions/transcript", {"run_id": run_id})
    assert t["events"] == client.events(run_id)
    assert all(e["schema_version"] == 7 and e["run_id"] == run_id for e in t["events"])
    fork = client.ok("run/fork", {"run_id": run_id})
    assert fork["type"] == "session_fork_result" and fork["parent_run_id"] == run_id
    child = fork["child_run_id"]
    resumed = client.ok("run/resume", {"run_id": child, "agent_definition_tag": "reviewer"})
    assert resumed == {"run_id": child, "status": "resumed"}
    r2 = client.nth_result(child, 1)
    assert r2["outcome"] == "done"
    seqs = [e["seq"] for e in client.events(child)]
    assert seqs[0] > fork["fork_point"]
    r = client.call("run/resume", {"run_id": child, "agent_definition_tag": "other"})
    assert r["error"]["data"]["code"] == "tag_mismatch"
    arts = client.ok("artifacts/list", {"run_id": run_id})
    assert arts["type"] == "artifact_list_page" and arts["schema_version"] == 7
    r = client.call("sessions/transcript", {"run_id": run_id, "cursor": "x.y"})
    assert r["error"]["code"] == -32009 and r["error"]["data"]["code"] == "cursor_modified"
    r = client.call("sessions/transcript", {"run_id": "nope"})
    assert r["error"]["data"]["code"] == "not_found"
    assert client.close() == 0


def test_s6_another_tenants_run_is_not_found(tmp_path):
    a = booted(Client(tmp_path))
    run_id = a.ok("run/start", {})["run_id"]
    a.result_of(run_id)
    assert a.close() == 0
    b = Client(tmp_path)
    b.ok("bootstrap", {**BOOT, "tenant": "other"})
    assert b.call("sessions/transcript", {"run_id": run_id})["error"]["data"]["code"] == "not_found"
    assert b.call("run/resume", {"run_id": run_id})["error"]["data"]["code"] == "not_found"
    assert b.ok("sessions/list")["sessions"] == []
    assert b.close() == 0


# ── P9: bad input ───────────────────────────────────────────────────────────────────


def test_p9_bad_lines_get_typed_errors_and_the_connection_stays_usable(client):
    booted(client)
    client.write(b"not json\n")
    client.write(b"[1, 2]\n")
    client.write(b'{"id": {"x": 1}, "method": "sessions/list"}\n')
    client.write(b'{"id": 7, "method": 3}\n')
    client.write(b'{"id": 8, "method": "no/such", "params": {}}\n')
    client.write(b'{"id": 9, "method": "sessions/list", "params": {"limit": 0}}\n')
    client.write(b'{"id": 10, "method": "sessions/list", "params": {"bogus": 1}}\n')
    client.write(b'{"id": 11, "method": "run/start", "params": {"source": {"replay": "-"}}}\n')
    client.write(
        b'{"id": 12, "method": "run/start", "params": {"source": {"replay": "/no/file"}}}\n'
    )
    client.write(b'{"id": 13, "jsonrpc": "1.0", "method": "sessions/list"}\n')
    client.write(b"\xff\xfe\n")
    client.write(b"\n   \n")  # blank lines are skipped
    client.write(b'{"id": 14, "method": "sessions/list"}\r\n')
    last = client.response(14)
    assert last["result"]["type"] == "session_list_page"
    errors = [m for m in client.messages if "error" in m]
    codes = [(m["id"], m["error"]["code"], m["error"]["data"]["code"]) for m in errors]
    assert codes == [
        (None, -32700, "parse_error"),
        (None, -32600, "invalid_request"),
        (None, -32600, "invalid_request"),
        (7, -32600, "invalid_request"),
        (8, -32601, "method_not_found"),
        (9, -32602, "invalid_params"),
        (10, -32602, "invalid_params"),
        (11, -32602, "invalid_source"),
        (12, -32602, "invalid_source"),
        (13, -32600, "invalid_request"),
        (None, -32700, "parse_error"),
    ]
    assert client.response(10)["error"]["data"]["errors"][0]["loc"] == ["bogus"]
    assert client.close() == 0
    assert client.proc.stderr.read() == b""


def test_p9_an_oversized_line_is_refused_and_skipped(client):
    booted(client)
    client.write(b'{"id": 2, "method": "sessions/list", "params": {"x": "' + b"a" * (17 << 20))
    client.write(b'"}}\n{"id": 3, "method": "sessions/list"}\n')
    assert client.response(3)["result"]["type"] == "session_list_page"
    err = client.wait(
        lambda m: m.get("error", {}).get("data", {}).get("code") == "request_too_large"
    )
    assert err["id"] is None and err["error"]["code"] == -32600
    assert client.close() == 0


def test_p9_a_notification_is_done_and_not_answered(client, tmp_path):
    booted(client)
    client.write(b'{"method": "sessions/list"}\n{"method": "no/such"}\n')
    client.ok("sessions/list")
    assert len([m for m in client.messages if "id" in m]) == 2  # bootstrap + the call


# ── P10: a client that stops reading ────────────────────────────────────────────────


def wait_for_outcome(db: Path, outcome: str, seconds: float) -> bool:
    """Whether some run in the SQLite store at ``db`` ends with ``outcome`` in time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=1) as conn:
                    found = conn.execute("SELECT 1 FROM runs WHERE outcome = ?", (outcome,))
                    if found.fetchone():
                        return True
            except sqlite3.OperationalError:
                pass  # the table is not there yet, or the writer holds the lock
        time.sleep(0.1)
    return False


def test_p10_a_client_that_stops_reading_bounds_the_queue_then_cancels(tmp_path):
    c = Client(tmp_path, "--eq-capacity", "4096", "--stall-timeout", "1", reading=False)
    c.write(json.dumps({"id": 1, "method": "bootstrap", "params": BOOT}).encode() + b"\n")
    trace = big_trace(tmp_path / "big.jsonl", 20000, "x")
    c.write(
        json.dumps(
            {"id": 2, "method": "run/start", "params": {"source": {"replay": str(trace)}}}
        ).encode()
        + b"\n"
    )
    # The pipe (64 KiB) and the outbox (4 KiB) fill; the run pauses, then ends: read
    # again only once the store says so (a fixed sleep is too short on a loaded machine).
    assert wait_for_outcome(tmp_path / "iteron.db", "cancelled", 120)
    c.reading.set()
    run_id = c.response(2)["result"]["run_id"]
    result = c.result_of(run_id)
    detached = c.wait(lambda m: m.get("method") == "run/detached")["params"]
    assert detached["run_id"] == run_id and "did not read" in detached["reason"]
    assert result["outcome"] == "cancelled" and "did not read" in result["reason"]
    events = c.events(run_id)
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(set(seqs)) and seqs[-1] <= detached["last_delivered_seq"]
    assert len(events) < 20000  # it did not buffer the whole run
    # Nothing admitted is lost: the store holds the run to its end, gap-free.
    db = sqlite3.connect(tmp_path / "iteron.db")
    stored = [
        s for (s,) in db.execute("SELECT seq FROM events WHERE run_id = ? ORDER BY seq", (run_id,))
    ]
    assert stored == list(range(1, len(stored) + 1)) and stored[-1] >= seqs[-1]
    assert c.close() == 0


def test_p10_a_client_that_sends_but_never_reads_is_let_go(tmp_path):
    """Its answers fill the pipe and the outbox; after the stall bound the server stops
    reading it and exits 0 on its own, its stdin still open."""
    c = Client(tmp_path, "--eq-capacity", "1024", "--stall-timeout", "1", reading=False)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    c.write(json.dumps({"id": 0, "method": "bootstrap", "params": BOOT}).encode() + b"\n")
    start = {"id": 1, "method": "run/start", "params": {"source": {"runtime_cmd": cmd}}}
    c.write(json.dumps(start).encode() + b"\n")
    request = json.dumps({"id": 2, "method": "sessions/list"}).encode() + b"\n"
    try:
        for _ in range(2000):
            c.write(request)
    except BrokenPipeError:
        pass  # it stopped reading us: that is the point
    assert c.proc.wait(60) == 0
    db = sqlite3.connect(tmp_path / "iteron.db")
    assert db.execute("SELECT outcome FROM runs").fetchall() == [("cancelled",)]


# ── P11: shutdown, a vanished client, SIGTERM ───────────────────────────────────────


def test_p11_shutdown_cancels_runs_answers_then_exits_0(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    run_id = client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    client.wait(lambda m: m.get("params", {}).get("run_id") == run_id)
    rid = client.request("shutdown")
    assert client.response(rid)["result"] == {"runs_cancelled": 1}
    result = client.result_of(run_id)
    assert result["outcome"] == "cancelled" and "shutting down" in result["reason"]
    with client.cond:
        kinds = [m.get("method") or "response" for m in client.messages]
    assert kinds.index("run/result") < len(kinds) - 1 and kinds[-1] == "response"
    assert client.proc.wait(30) == 0


def _stored_run(home: Path, run_id: str) -> tuple[str, list[int]]:
    db = sqlite3.connect(home / "iteron.db")
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    (outcome,) = db.execute("SELECT outcome FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    seqs = [
        s for (s,) in db.execute("SELECT seq FROM events WHERE run_id = ? ORDER BY seq", (run_id,))
    ]
    return outcome, seqs


def test_p11_a_vanished_client_cancels_its_runs_durably(tmp_path):
    proc = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env={**os.environ, "ITERON_HOME": str(tmp_path)},
    )  # fmt: skip
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    proc.stdin.write(json.dumps({"id": 1, "method": "bootstrap", "params": BOOT}).encode() + b"\n")
    start = {"id": 2, "method": "run/start", "params": {"source": {"runtime_cmd": cmd}}}
    proc.stdin.write(json.dumps(start).encode() + b"\n")
    proc.stdin.flush()
    run_id, seen = None, 0
    while seen <= 5:
        m = json.loads(proc.stdout.readline())
        if m.get("id") == 2:
            run_id = m["result"]["run_id"]
        seen = max(seen, m.get("params", {}).get("seq", 0))
    # The client dies: both its pipe ends close at once.
    proc.stdin.close()
    proc.stdout.close()
    assert proc.wait(30) == 0
    outcome, seqs = _stored_run(tmp_path, run_id)
    assert outcome == "cancelled"
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] >= seen


def test_p11_sigterm_ends_every_run_with_its_result(client, tmp_path):
    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    runs = [client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"] for _ in range(2)]
    for run_id in runs:
        client.wait(lambda m, r=run_id: m.get("params", {}).get("run_id") == r)
    client.proc.send_signal(signal.SIGTERM)
    for run_id in runs:
        result = client.result_of(run_id)
        assert result["outcome"] == "cancelled" and "SIGTERM" in result["reason"]
        assert result["exit_code"] == 143
    assert client.proc.wait(30) == 143
    for run_id in runs:
        assert _stored_run(tmp_path, run_id)[0] == "cancelled"


def test_p11_keep_runs_on_disconnect_lets_them_finish(tmp_path):
    c = Client(tmp_path)
    c.ok("bootstrap", {**BOOT, "keep_runs_on_disconnect": True})
    script = """\
        import time
        out(type="assistant_delta", text="a")
        time.sleep(1)
        out(type="run_end", outcome="done")
        """
    cmd = write_runtime(tmp_path / "rt.py", script)
    run_id = c.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    c.proc.stdin.close()  # the client goes before the run ends
    assert c.proc.wait(30) == 0
    assert _stored_run(tmp_path, run_id)[0] == "done"


# ── P12: the generated schemas ──────────────────────────────────────────────────────


def test_p12_schema_files_are_generated_from_the_protocol_definition():
    from scrubline.appserver.protocol import render, schemas

    root = Path(__file__).parent.parent / "docs" / "app-server-schema"
    want = {name: render(s) for name, s in schemas().items()}
    have = {p.name: p.read_text() for p in root.glob("*.json")}
    assert have == want, (
        "stale: python -m scrubline.appserver.protocol --write docs/app-server-schema"
    )


def test_p12_every_message_on_the_wire_matches_its_model(client, tmp_path):
    """What the server wrote in a whole session validates against the definitions the
    schemas are generated from."""
    from scrubline.appserver import protocol as P

    booted(client)
    cmd = write_runtime(tmp_path / "rt.py", RECEIVER)
    run_id = client.ok("run/start", {"source": {"runtime_cmd": cmd}})["run_id"]
    client.ok("steer", {"run_id": run_id, "text": "end"})
    client.result_of(run_id)
    client.ok("sessions/list")
    client.call("nope")
    sent = {1: "bootstrap", 2: "run/start", 3: "steer", 4: "sessions/list"}
    for m in client.messages:
        if "method" in m:
            P.Notification.model_validate(m)
            P.NOTIFICATIONS[m["method"]].model_validate(m["params"])
        else:
            P.Response.model_validate(m)
            if "result" in m:
                P.METHODS[sent[m["id"]]][1].model_validate(m["result"])


# ── P13: one writer per run ─────────────────────────────────────────────────────────


def test_p13_a_second_writer_of_a_run_is_refused_retryably(client, tmp_path):
    booted(client)
    first = client.ok("run/start", {})["run_id"]
    client.result_of(first)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    assert client.ok("run/resume", {"run_id": first, "source": {"runtime_cmd": cmd}})
    client.wait(lambda m: m.get("params", {}).get("type") == "assistant_text"
                and m["params"]["run_id"] == first and "tick" in m["params"]["text"])  # fmt: skip
    env = {**os.environ, "ITERON_HOME": str(tmp_path)}
    cli = [sys.executable, "-m", "scrubline.cli.iteron", "run", "--resume", first,
           "--output-format", "stream-json"]  # fmt: skip
    r = subprocess.run(cli, capture_output=True, env=env, timeout=60, check=False)
    assert r.returncode == 1
    (line,) = r.stdout.splitlines()
    result = json.loads(line)
    # (Once, under load, this got `store_failed`: the result and stderr say why.)
    assert result["outcome"] == "failed", (result, r.stderr)
    assert result["error"]["code"] == "run_busy", (result, r.stderr)
    assert "retryable" in result["reason"]
    assert r.stderr.startswith(b"iteron: run_busy:")
    # Inside the server: the same run again is busy too.
    r2 = client.call("run/resume", {"run_id": first})
    assert r2.get("error", {}).get("code") == -32007, (r2, client.results(first), r.stderr)
    assert r2["error"]["data"]["retryable"] is True
    client.ok("control", {"run_id": first, "control": "interrupt"})
    assert client.nth_result(first, 2)["outcome"] == "cancelled"
    outcome, seqs = _stored_run(tmp_path, first)
    assert outcome == "cancelled" and seqs == list(range(1, len(seqs) + 1))
    # Released: the CLI may append now.
    r = subprocess.run(cli, capture_output=True, env=env, timeout=60, check=False)
    assert r.returncode == 0, r.stderr


def test_p13_a_run_the_cli_writes_is_busy_for_the_server(client, tmp_path):
    booted(client)
    first = client.ok("run/start", {})["run_id"]
    client.result_of(first)
    cmd = write_runtime(tmp_path / "rt.py", FOREVER)
    env = {**os.environ, "ITERON_HOME": str(tmp_path)}
    cli = subprocess.Popen(
        [sys.executable, "-m", "scrubline.cli.iteron", "run", "--resume", first,
         "--runtime-cmd", cmd, "--output-format", "stream-json"],
        stdout=subprocess.PIPE, env=env,
    )  # fmt: skip
    cli.stdout.readline()  # it is writing
    r = client.call("run/resume", {"run_id": first})
    assert r["error"]["code"] == -32007
    assert r["error"]["data"] == {"code": "run_busy", "retryable": True}
    cli.send_signal(signal.SIGTERM)
    assert cli.wait(30) == 143
    cli.stdout.close()
    assert client.ok("run/resume", {"run_id": first})["status"] == "resumed"
    assert client.nth_result(first, 2)["outcome"] == "done"


def test_the_store_is_the_one_iteron_uses(pg_backend, tmp_path):
    """S12 on the resident face: ITERON_STORE=postgresql://… holds the server's runs,
    and iteron reads them back from there."""
    env = pg_backend.env(tmp_path)
    c = Client(tmp_path, ITERON_STORE=env["ITERON_STORE"])
    try:
        booted(c)
        trace = tmp_path / "t.jsonl"
        trace.write_text(
            '{"type":"assistant_delta","text":"hello"}\n{"type":"run_end","outcome":"done"}\n'
        )
        run_id = c.ok("run/start", {"source": {"replay": str(trace)}})["run_id"]
        assert c.result_of(run_id)["outcome"] == "done"
    finally:
        c.proc.kill()
        c.proc.wait()
    store = pg_backend.open(tmp_path)
    try:
        assert store.run(run_id, "default") is not None
    finally:
        store.close()
    assert not (tmp_path / "iteron.db").exists()
