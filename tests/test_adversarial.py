"""Adversarial trace input for the run boundary (D6): typed errors or correct
output, never a crash, bounded memory; `scrubline project` as a streaming filter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrubline import TraceError
from scrubline._core import Boundary

PROJECT = [sys.executable, "-m", "scrubline", "project"]
GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"


def admit_all(lines: list[bytes], version: int = 8) -> tuple[list[dict], TraceError | None, bytes]:
    b = Boundary(version=version, run_id="r")
    out, err = b"", None
    for n, line in enumerate(lines, 1):
        try:
            out += b.admit(line, n)[1]
        except TraceError as e:
            err = e
            break
    kw = {"outcome": "failed", "error": ("bad_input", str(err), err.line)} if err else {}
    out += b.finish(**kw)[1]
    parsed = [orjson.loads(x) for x in out.splitlines()]  # every line is JSON
    assert parsed[-1]["type"] == "result"
    return parsed, err, out


@pytest.mark.parametrize(
    ("line", "expect"),
    [
        # Numbers are kept exactly as written when every consumer can read them back;
        # beyond 64-bit integers and finite doubles they are refused, not rounded.
        (b'{"type":"workflow_start","n":18446744073709551615,"m":-0.0,"k":5e-324}', "kept"),
        (b'{"type":"workflow_start","n":-9223372036854775808,"m":1.50,"k":1E2}', "kept"),
        (b'{"type":"workflow_start","n":123456789012345678901234567890}', "64-bit range"),
        (b'{"type":"workflow_start","n":[{"x":1e400}]}', "not a finite double"),
        (b'{"type":"turn_end","usage":{"input":18446744073709551616}}', "64-bit range"),
        (b'{"type":"turn_end","usage":{"input":1e3}}', "usage.input"),
        # Duplicate keys: the last wins.
        (b'{"type":"notice","text":"first","text":"second"}', "second"),
        # NUL: escaped it is text, raw it is not JSON.
        (b'{"type":"notice","text":"a\\u0000b"}', "a\x00b"),
        (b'{"type":"notice","text":"a\x00b"}', "not valid JSON"),
        # Lone surrogates and invalid UTF-8.
        (b'{"type":"notice","text":"\\udc00"}', "not valid JSON"),
        (b'{"type":"notice","text":"\xed\xa0\x80"}', "invalid UTF-8"),
        (b'\xef\xbb\xbf{"type":"notice","text":"bom"}', "not valid JSON"),
        # Deep nesting: a typed error, not a stack overflow.
        (b'{"type":"notice","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "not valid JSON"),
        (b'{"type":"notice","x":' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}", "JSON"),
    ],
)
def test_projection_edge_cases(line, expect):
    lines, err, raw = admit_all([line])
    if expect == "kept":
        # Published with the value the trace wrote (no float round trip on the way).
        assert err is None and lines[0]["type"] == "workflow_start"
        exact = {"parse_float": Decimal}
        published = json.loads(raw.splitlines()[0], **exact)
        for k, v in json.loads(line, **exact).items():
            if k != "type":
                assert (published[k] == v and str(published[k]) == str(v)) or k == "k", k
    elif err is not None:
        assert expect in str(err) and err.line == 1
        assert lines[-1]["success"] is False
    else:
        assert lines[0]["text"] == expect


def test_an_8_mib_line_is_admitted_and_one_byte_more_is_refused():
    pad = 8 * 1024 * 1024 - len(b'{"type":"notice","text":""}')
    ok = b'{"type":"notice","text":"' + b"x" * pad + b'"}'
    lines, err, _ = admit_all([ok])
    assert err is None and len(lines[0]["text"]) == pad
    lines, err, _ = admit_all([ok[:-2] + b'x"}'])
    assert err is not None and "bound is 8388608" in str(err)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.text(max_size=60), st.sampled_from([4, 5, 6, 8]))
def test_any_code_point_in_any_field_is_output_or_a_typed_error(a, b, version):
    """Any str (lone surrogates included, as JSON escapes) in text and in other fields:
    a TraceError or valid JSON lines; a planted token never survives."""
    events = [
        {"type": "assistant_delta", "text": a + " " + GHP[:20]},
        {"type": "assistant_delta", "text": GHP[20:] + " " + b},
        {"type": "tool_start", "call_id": a, "tool": b, "input": {a: b}},
        {"type": "notice", "text": b, "code": a},
        {"type": "run_end", "outcome": "done", "reason": a},
    ]
    lines = [json.dumps(e, ensure_ascii=True).encode() for e in events]
    out, err, _ = admit_all(lines, version)
    has_surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in a + b)
    assert (err is not None) == has_surrogate
    if err is None:
        assert GHP[:12] not in json.dumps(out)


def test_project_cli_matches_iteron_and_reports_bad_lines(tmp_path):
    trace = os.path.join(os.path.dirname(__file__), "fixtures", "traces", "demo.trace.jsonl")
    with open(trace, "rb") as f:
        r = subprocess.run([*PROJECT, "--output-schema-version", "6"], stdin=f, capture_output=True,
                           timeout=60, check=False)  # fmt: skip
    assert r.returncode == 0 and r.stderr == b""
    with open(trace.replace(".trace.jsonl", ".v6.jsonl"), "rb") as f:
        golden = f.read().splitlines()
    got = r.stdout.splitlines()
    assert got[:-1] == golden[:-1]  # events byte for byte; the result has a fresh run id
    result = json.loads(got[-1])
    assert result["kernel_tax"]["record_fsync_latency_us"] == 0  # no store
    r = subprocess.run([*PROJECT], input=b'{"type":"phase","phase":"x"}\n{oops\n',
                       capture_output=True, timeout=60, check=False)  # fmt: skip
    assert r.returncode == 65 and b"line 2" in r.stderr
    assert json.loads(r.stdout.splitlines()[-1])["error"]["line"] == 2
    r = subprocess.run([*PROJECT, "--output-schema-version", "7"], input=b"", capture_output=True,
                       timeout=60, check=False)  # fmt: skip
    assert r.returncode == 64 and r.stdout == b""


def test_project_cli_streams_each_line_as_it_arrives():
    """`scrubline project` is a streaming filter: a line written to a live pipe is
    published before the next one arrives (not held until a batch fills or stdin ends).
    The held-back credential tail is released by the next delta, as in any stream (D2)."""
    import select

    proc = subprocess.Popen([*PROJECT], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:

        def next_line(timeout: float = 20) -> dict:
            ready, _, _ = select.select([proc.stdout], [], [], timeout)
            assert ready, "no line within the timeout: the filter is holding its input"
            return json.loads(proc.stdout.readline())

        proc.stdin.write(b'{"type":"assistant_delta","text":"hello world.\\n"}\n')
        proc.stdin.flush()
        assert next_line()["text"] == "hello world.\n"
        proc.stdin.write(b'{"type":"assistant_delta","text":"token ' + GHP[:10].encode() + b'"}\n')
        proc.stdin.flush()
        assert next_line()["text"] == "token "  # the credential's start is held back
        proc.stdin.write(
            b'{"type":"assistant_delta","text":"' + GHP[10:].encode() + b' ok.\\n"}\r\n'
        )
        proc.stdin.flush()
        assert next_line()["text"] == "[REDACTED:github-pat] ok.\n"
        proc.stdin.write(b'{"type":"run_end","outcome":"done"}')  # no newline: ends at EOF
        proc.stdin.close()
        rest = proc.stdout.read().splitlines()
        assert [json.loads(x)["type"] for x in rest] == ["run_done", "result"]
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()


@pytest.mark.slow
def test_project_cli_a_million_events_in_bounded_memory(tmp_path):
    """10^6 tiny events (and 64 MiB of one tool's output) stream through in bounded
    memory: peak RSS of the filter stays under 150 MB."""
    driver = tmp_path / "drive.py"
    driver.write_text(
        "import resource, subprocess, sys\n"
        "p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)\n"
        "import threading\n"
        "counts = [0, b'']\n"
        "def read():\n"
        "    for line in p.stdout:\n"
        "        counts[0] += 1; counts[1] = line\n"
        "t = threading.Thread(target=read); t.start()\n"
        'ev = b\'{"type":"phase","phase":"p"}\\n\'\n'
        "for _ in range(1000):\n"
        "    p.stdin.write(ev * 1000)\n"
        'p.stdin.write(b\'{"type":"tool_start","call_id":"c","tool":"cat"}\\n\')\n'
        'head = b\'{"type":"tool_output_delta","call_id":"c","text":"\'\n'
        "chunk = head + b'y' * 65000 + b'\"}\\n'\n"
        "for _ in range(1000):\n"
        "    p.stdin.write(chunk)\n"
        'p.stdin.write(b\'{"type":"tool_end","call_id":"c","status":"completed"}\\n\')\n'
        'p.stdin.write(b\'{"type":"run_end","outcome":"done"}\\n\')\n'
        "p.stdin.close(); t.join(); p.wait()\n"
        "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(p.returncode, counts[0], rss, counts[1].decode().strip())\n"
    )
    r = subprocess.run([sys.executable, str(driver), *PROJECT], capture_output=True,
                       timeout=900, check=False)  # fmt: skip
    code, count, rss_kib, last = r.stdout.decode().split(" ", 3)
    assert code == "0", r.stderr
    assert int(count) == 1_000_000 + 4  # phases, tool_start, tool_end, run_done, result
    assert json.loads(last)["outcome"] == "done"
    assert int(rss_kib) < 150 * 1024, f"peak RSS {int(rss_kib) // 1024} MiB"
