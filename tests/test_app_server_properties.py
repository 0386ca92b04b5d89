"""Properties of the App Server's parsers and streams (docs/app-server.md): the request
line reader under any split of its input (P9), the submission gate's exactly-one
receipt whatever a runtime reports (P4), and the request handler answering every
request exactly once whatever the lines hold (P9)."""

from __future__ import annotations

import io
import os

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrubline.appserver import protocol as P
from scrubline.appserver.framing import LineReader, TooLong
from scrubline.appserver.gate import LIFECYCLE, SubmissionGate
from scrubline.appserver.server import Server
from scrubline.runtime import Replay

MAX = 16


def reference(data: bytes, max_line: int) -> list[bytes | TooLong]:
    """What a plain split says: each line without its newline and one ``\\r``; a line
    over the bound is its number."""
    parts = data.split(b"\n")
    out: list[bytes | TooLong] = []
    for i, raw in enumerate(parts, 1):
        if i == len(parts) and not raw:
            break
        line = raw[:-1] if raw.endswith(b"\r") else raw
        out.append(TooLong(i) if len(line) > max_line else line)
    return out


@given(
    st.lists(
        st.binary(max_size=2 * MAX).map(lambda b: b.replace(b"\n", b"")),
        max_size=12,
    ),
    st.booleans(),
    st.lists(st.integers(1, 40), min_size=1, max_size=30),
)
def test_p9_line_reader_equals_a_plain_split_under_any_reads(lines, last_nl, cuts):
    data = b"\n".join(lines) + (b"\n" if last_nl and lines else b"")
    reader = LineReader(MAX)
    got: list[bytes | TooLong] = []
    at, i = 0, 0
    while at < len(data):
        n = cuts[i % len(cuts)]
        got += reader.feed(data[at : at + n])
        at, i = at + n, i + 1
    got += reader.finish()
    assert got == reference(data, MAX)


# ── the gate ──

ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("receipt"), st.sampled_from(LIFECYCLE), st.integers(0, 5)),
        st.tuples(st.just("foreign"), st.sampled_from(LIFECYCLE), st.text(max_size=8)),
        st.tuples(st.just("text"), st.text(max_size=20)),
        st.tuples(
            st.just("garbage"),
            st.binary(min_size=1, max_size=12).map(
                lambda b: b.replace(b"\n", b"").replace(b"\r", b"")
            ),
        ),
    ),
    max_size=25,
)


@given(st.integers(0, 6), ACTIONS, st.booleans())
def test_p4_gate_lets_exactly_one_lifecycle_record_per_issued_id(n, actions, end):
    gate = SubmissionGate(None, "RUN")
    ids = []
    for _ in range(n):
        sid, _apply = gate.submit("steer", {"text": "x"})  # pending; the runtime answers
        ids.append(sid)
    lines = []
    for a in actions:
        if a[0] == "receipt" and ids:
            lines.append({"type": a[1], "submission_id": ids[a[2] % len(ids)], "reason": "r"})
        elif a[0] == "foreign":
            lines.append({"type": a[1], "submission_id": "x" + a[2]})  # a trace's own id
        elif a[0] == "text":
            lines.append({"type": "assistant_delta", "text": a[1]})
        elif a[0] == "garbage":
            lines.append(a[1])
    if end:
        lines.append({"type": "run_end", "outcome": "done"})
    data = b"".join((x if isinstance(x, bytes) else orjson.dumps(x)) + b"\n" for x in lines)
    gate.inner = Replay(stream=io.BytesIO(data))
    out = b"".join(block for _first, block in gate.batches(lambda: False))
    raws = [r for r in out.split(b"\n") if r]

    def parsed(raw: bytes):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            return None

    def ours(obj) -> bool:
        return isinstance(obj, dict) and (
            obj.get("submission_id") in ids or obj.get("code") == "submission_unmatched"
        )

    named = [
        e["submission_id"]
        for e in map(parsed, raws)
        if isinstance(e, dict) and e.get("type") in LIFECYCLE
    ]
    for sid in ids:
        assert named.count(sid) == 1, (sid, raws)
    # Everything else passes in order, untouched.
    inputs = [r for r in data.split(b"\n") if r and r.strip()]
    assert [r for r in raws if not ours(parsed(r)) and r.strip()] == [
        r for r in inputs if not ours(parsed(r))
    ]
    if end:  # every receipt comes before the run's end
        assert parsed(raws[-1]) == {"type": "run_end", "outcome": "done"}
    assert gate.pending() == 0


# ── the request handler ──

METHODS = [m for m in P.METHODS if m not in ("run/start", "run/resume", "shutdown")]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
    max_leaves=8,
)
REQUEST = st.fixed_dictionaries(
    {"id": st.integers(0, 10**6), "method": st.sampled_from([*METHODS, "nope", ""])},
    optional={
        "params": st.dictionaries(
            st.sampled_from(["run_id", "limit", "cursor", "text", "x"]), JSON, max_size=3
        )
        | JSON
    },
).map(orjson.dumps)
LINE = st.one_of(
    REQUEST, st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), JSON.map(orjson.dumps)
)


def drain(server: Server) -> list[dict]:
    server.outbox.end()
    out = []
    while (item := server.outbox.take()) is not None:
        out += [orjson.loads(x) for x in item.splitlines()]
    return out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(LINE, max_size=12))
def test_p9_every_request_is_answered_exactly_once(tmp_path, lines):
    saved = os.environ.get("ITERON_HOME")
    os.environ["ITERON_HOME"] = str(tmp_path)
    server = Server(max_runs=1, capacity=1 << 20, stall_timeout=1, cfg={})
    try:
        server.handle(orjson.dumps({"id": "boot", "method": "bootstrap", "params": {
            "client": {"name": "p", "version": "1"}, "protocol_version": 7}}))  # fmt: skip
        for line in lines:
            server.handle(line)
        answers = drain(server)
    finally:
        if server.store is not None:
            server.store.close()
        if saved is None:
            del os.environ["ITERON_HOME"]
        else:
            os.environ["ITERON_HOME"] = saved
    assert answers[0]["id"] == "boot" and "result" in answers[0]
    answers = answers[1:]
    want = []
    for line in lines:
        if not line.strip():
            continue  # blank: skipped
        try:
            msg = orjson.loads(line)
        except orjson.JSONDecodeError:
            want.append(None)  # a parse error, answered with id null
            continue
        if isinstance(msg, dict) and "id" not in msg:
            continue  # a notification: never answered
        ok_id = isinstance(msg, dict) and type(msg["id"]) in (int, str)
        want.append(msg["id"] if ok_id else None)
    assert [a["id"] for a in answers] == want
    for a in answers:
        assert ("result" in a) != ("error" in a)
        if "error" in a:
            assert set(a["error"]) == {"code", "message", "data"}
            assert a["error"]["data"]["code"] and isinstance(a["error"]["data"]["retryable"], bool)
