"""The built-in model runtime against a fake OpenAI-compatible server (a real HTTP server
on 127.0.0.1): SSE framing, deltas, tool calls, usage, every failure and its exit code,
the tool loop and its permissions, on `iteron run` and `titah run` (M1-M6)."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fake_openai import (
    DONE,
    FakeServer,
    Script,
    chunk,
    event,
    text_response,
    tool_response,
)

ITERON = [sys.executable, "-m", "scrubline.cli.iteron"]
TITAH = [sys.executable, "-m", "scrubline.cli.titah"]
GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"
KEY = "sk-local-test-key-0123456789abcdef"


def run(
    server: FakeServer,
    *args: str,
    home: Path,
    cli: list[str] = ITERON,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    task: str = "do the task",
):
    cmd = [*cli, "run", "--model-url", server.url, "--model", "fake", *args, task]
    if "--output-format" not in args:
        cmd[4:4] = ["--output-format", "stream-json"]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        env={**os.environ, "ITERON_HOME": str(home), **(env or {})},
        cwd=cwd or home,
        timeout=60,
        check=False,
    )
    lines = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    return proc, lines


def events(lines: list[dict], kind: str) -> list[dict]:
    return [x for x in lines if x.get("type") == kind]


def answer(lines: list[dict]) -> str:
    return "".join(x["text"] for x in events(lines, "assistant_text"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


# -- M1: SSE framing and deltas --------------------------------------------------------------


def test_a_streamed_answer_is_published_as_it_comes_and_agrees_with_the_result(home):
    usage = {"prompt_tokens": 12, "completion_tokens": 4, "total_tokens": 16}
    with FakeServer([text_response("Hello", ", ", "world", usage=usage)]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0, proc.stderr
    result = lines[-1]
    assert result["type"] == "result" and result["outcome"] == "done" and result["success"]
    assert answer(lines) == result["assistant_text"] == "Hello, world"
    (turn,) = events(lines, "turn_end")
    assert turn["usage"] == {"input": 12, "output": 4}
    assert result["cost_usd"] is None and result["cost_status"] == "unknown"
    assert result["cost_reason"]
    body = srv.requests[0]["body"]
    assert srv.requests[0]["path"] == "/v1/chat/completions"
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["model"] == "fake" and body["messages"][-1] == {
        "role": "user",
        "content": "do the task",
    }
    assert not events(lines, "notice")


def test_a_credential_split_across_two_sse_events_never_leaves(home):
    with FakeServer([text_response("token: ", GHP[:9], GHP[9:], " done")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0
    assert GHP not in proc.stdout.decode() and GHP[9:] not in proc.stdout.decode()
    assert answer(lines) == "token: [REDACTED:github-pat] done" == lines[-1]["assistant_text"]


FRAMED = "one two é€ [REDACTED:github-pat]"


def _framed_answer() -> bytes:
    """An answer with every framing feature: comments and keep-alives, an event name,
    a data field split over two lines, CRLF line ends, unknown fields, an empty event;
    non-ASCII text and a credential across two events."""
    return b"".join(
        [
            b": keep-alive\n\n",
            chunk({"role": "assistant", "content": ""}, system_fingerprint="x", obfuscation="y"),
            b'event: message\r\ndata: {"choices":[{"index":0,"delta":{"content":"one "},\r\n'
            b'data: "finish_reason":null}],"timings":{"a":1}}\r\n\r\n',
            b":\n",
            b"id: 7\nretry: 100\n\n",
            chunk({"content": "two é€ "}),
            chunk({"content": GHP[:12]}),
            chunk({"content": GHP[12:]}),
            chunk(finish="stop"),
            DONE,
        ]
    )


def test_framing_comments_multiline_data_crlf_and_unknown_fields(home):
    with FakeServer([Script([_framed_answer()])]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0, proc.stderr
    assert answer(lines) == FRAMED


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(min_value=1, max_value=400), min_size=1, max_size=12))
def test_any_split_of_the_byte_stream_publishes_the_same_answer(tmp_path_factory, cuts):
    raw = _framed_answer()
    points = sorted({c % len(raw) for c in cuts} - {0})
    writes: list[bytes | float] = [
        raw[a:b] for a, b in zip([0, *points], [*points, len(raw)], strict=True)
    ]
    with FakeServer([Script(writes)]) as srv:
        proc, lines = run(srv, home=tmp_path_factory.mktemp("h"))
    assert proc.returncode == 0
    assert answer(lines) == FRAMED
    assert GHP[:12] not in proc.stdout.decode()


def test_reasoning_is_thinking_and_never_the_answer(home):
    writes = [
        chunk({"reasoning_content": "I think "}),
        chunk({"reasoning": "hard"}),
        chunk({"content": "42"}),
        chunk(finish="stop"),
        DONE,
    ]
    with FakeServer([Script(writes)]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0
    assert "".join(x["text"] for x in events(lines, "thinking")) == "I think hard"
    assert lines[-1]["assistant_text"] == "42"


def test_no_usage_from_the_server_is_an_estimate_that_says_so(home):
    with FakeServer([text_response("short answer")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0
    (notice,) = events(lines, "notice")
    assert notice["code"] == "usage_estimated" and "estimated" in notice["text"]
    (turn,) = events(lines, "turn_end")
    assert turn["usage"]["input"] > 0 and turn["usage"]["output"] == 3  # 12 chars / 4
    # The stored record says where the numbers came from.
    proc2 = subprocess.run(
        [*ITERON, "--transcript", lines[-1]["run_id"]],
        capture_output=True,
        env={**os.environ, "ITERON_HOME": str(home)},
        check=True,
    )
    assert json.loads(proc2.stdout)["events"]


# -- M2: tool calls assembled by index ------------------------------------------------------


def test_tool_call_arguments_split_at_every_byte_assemble_to_one_call(home):
    (home / "notes.txt").write_text("alpha\n")
    args = json.dumps({"path": "notes.txt"})
    for pieces in (1, 2, 3, len(args)):
        with FakeServer(
            [tool_response("read_file", args, pieces=pieces), text_response("ok")]
        ) as srv:
            proc, lines = run(srv, home=home)
        assert proc.returncode == 0, proc.stderr
        (start,) = events(lines, "tool_start")
        assert start["tool"] == "read_file" and start["input"] == {"path": "notes.txt"}
        assert start["needs_approval"] is False
        (end,) = events(lines, "tool_end")
        assert end["status"] == "completed" and end["output"] == "alpha\n"
        second = srv.requests[1]["body"]["messages"]
        assert second[-2]["tool_calls"][0]["function"]["arguments"] == args
        assert second[-2]["tool_calls"][0]["id"] == "call_x"
        assert second[-1] == {"role": "tool", "tool_call_id": "call_x", "content": "alpha\n"}


def test_two_tool_calls_interleaved_by_index(home):
    (home / "a.txt").write_text("A")
    (home / "b.txt").write_text("B")

    def frag(i, **kw):
        return chunk({"tool_calls": [{"index": i, **kw}]})

    writes = [
        frag(0, id="c0", type="function", function={"name": "read_file", "arguments": '{"pa'}),
        frag(1, id="c1", type="function", function={"name": "read_file", "arguments": '{"path"'}),
        frag(0, function={"arguments": 'th": "a.txt"}'}),
        frag(1, function={"arguments": ': "b.txt"}'}),
        chunk(finish="tool_calls"),
        DONE,
    ]
    with FakeServer([Script(writes), text_response("done")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0, proc.stderr
    assert [e["output"] for e in events(lines, "tool_end")] == ["A", "B"]
    tool_msgs = [m for m in srv.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ["c0", "c1"]


def test_invalid_tool_arguments_fail_the_call_not_the_run(home):
    with FakeServer([tool_response("read_file", '{"path": '), text_response("sorry")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0
    (end,) = events(lines, "tool_end")
    assert end["status"] == "failed" and "not valid JSON" in end["output"]


# -- M3: permissions -----------------------------------------------------------------------


@pytest.mark.parametrize("cli", [ITERON, TITAH], ids=["iteron", "titah"])
def test_a_bash_command_from_the_model_is_denied_without_auto(home, cli):
    with FakeServer(
        [tool_response("bash", '{"command": "touch made"}'), text_response("ok")]
    ) as srv:
        proc, lines = run(srv, home=home, cli=cli)
    assert proc.returncode == 0, proc.stderr
    assert not (home / "made").exists()
    kinds = [x["type"] for x in lines]
    assert "approval_request" in kinds and "approval_resolved" in kinds
    resolved = next(x for x in lines if x["type"] == "approval_resolved")
    assert resolved["decision"] == "denied"
    end = next(x for x in lines if x["type"] == "tool_end")
    assert end["status"] == "denied"
    assert any(x.get("code") == "permission_denied" for x in events(lines, "notice"))
    assert "Denied" in srv.requests[1]["body"]["messages"][-1]["content"]
    if cli is TITAH:
        assert lines[-1]["tools"][0]["status"] == "denied"


@pytest.mark.parametrize("cli", [ITERON, TITAH], ids=["iteron", "titah"])
def test_auto_approves_and_the_tool_runs_in_the_working_directory(home, cli):
    cmd = json.dumps({"command": f"echo {GHP} > made; cat made"})
    with FakeServer([tool_response("bash", cmd), text_response("ok")]) as srv:
        proc, lines = run(srv, "--auto", home=home, cli=cli)
    assert proc.returncode == 0, proc.stderr
    assert (home / "made").read_text() == GHP + "\n"
    assert GHP not in proc.stdout.decode()
    end = next(x for x in lines if x["type"] == "tool_end")
    if cli is ITERON:
        assert end["status"] == "completed"
        assert end["output"] == "[REDACTED:github-pat]\n[exit status 0]"
    # The model gets the tool output scrubbed too.
    assert srv.requests[1]["body"]["messages"][-1]["content"] == (
        "[REDACTED:github-pat]\n[exit status 0]"
    )


@pytest.mark.parametrize(("cli", "name"), [(ITERON, "iteron"), (TITAH, "titah")])
def test_the_config_allowlist_approves_matching_commands_only(home, cli, name):
    (home / f"{name}.toml").write_text('[permission]\nallowlist = ["bash(echo *)"]\n')
    scripts = [
        tool_response("bash", '{"command": "echo fine"}'),
        tool_response("bash", '{"command": "touch nope"}'),
        text_response("ok"),
    ]
    with FakeServer(scripts) as srv:
        proc, lines = run(srv, home=home, cli=cli)
    assert proc.returncode == 0, proc.stderr
    decisions = [x["decision"] for x in events(lines, "approval_resolved")]
    assert decisions == ["approved", "denied"]
    assert not (home / "nope").exists()


def test_write_file_needs_approval_and_writes_with_it(home):
    args = json.dumps({"path": "out/new.txt", "content": "hello"})
    with FakeServer([tool_response("write_file", args), text_response("ok")]) as srv:
        proc, _ = run(srv, "--auto", home=home)
    assert proc.returncode == 0
    assert (home / "out" / "new.txt").read_text() == "hello"


def test_reading_outside_the_working_directory_needs_approval(home):
    work = home / "work"
    work.mkdir()
    (home / "secret.txt").write_text("content-from-outside-42")
    with FakeServer(
        [tool_response("read_file", '{"path": "../secret.txt"}'), text_response("ok")]
    ) as srv:
        proc, lines = run(srv, home=home, cwd=work)
    assert proc.returncode == 0
    assert events(lines, "tool_end")[0]["status"] == "denied"
    assert "content-from-outside-42" not in json.dumps(srv.requests[1]["body"])


# -- M4: limits ------------------------------------------------------------------------------


def test_a_model_that_loops_tool_calls_stops_at_max_turns(home):
    loop = tool_response("read_file", '{"path": "x"}')
    with FakeServer(repeat=loop) as srv:
        proc, lines = run(srv, "--max-turns", "3", home=home)
    assert proc.returncode == 3, proc.stderr
    assert len(srv.requests) == 3
    result = lines[-1]
    assert result["outcome"] == "limit" and result["exit_code"] == 3
    limit = [x for x in events(lines, "notice") if x["code"] == "limit"]
    assert limit and "--max-turns (3)" in limit[0]["text"]
    assert len(events(lines, "turn_end")) == 3


def test_turn_tokens_still_applies(home):
    usage = {"prompt_tokens": 900, "completion_tokens": 200}
    with FakeServer([text_response("big", usage=usage)]) as srv:
        proc, lines = run(srv, "--max-turn-tokens", "1000", home=home)
    assert proc.returncode == 3
    assert lines[-1]["outcome"] == "limit"


def test_finish_reason_length_is_a_limit(home):
    with FakeServer([text_response("cut sh", finish="length")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 3
    assert lines[-1]["outcome"] == "limit" and lines[-1]["assistant_text"] == "cut sh"


@pytest.mark.parametrize("finish", [None, "eos_token"])
def test_an_unknown_or_missing_finish_reason_is_said(home, finish):
    writes = [chunk({"content": "maybe"}), chunk(finish=finish), DONE]
    with FakeServer([Script(writes)]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 0
    codes = [x["code"] for x in events(lines, "notice")]
    assert "finish_unknown" in codes and lines[-1]["assistant_text"] == "maybe"


def test_finish_reason_content_filter_fails_the_run(home):
    with FakeServer([text_response("", finish="content_filter")]) as srv:
        proc, lines = run(srv, home=home)
    assert proc.returncode == 1
    assert lines[-1]["error"]["code"] == "model_content_filter"


# -- M5: failures (exit 1; retryable or not) --------------------------------------------------


def failed(proc, lines, code: str, retryable: bool) -> dict:
    assert proc.returncode == 1, proc.stderr
    result = lines[-1]
    assert result["type"] == "result" and result["outcome"] == "failed"
    assert result["error"]["code"] == code
    assert ("(retryable)" if retryable else "(not retryable)") in result["error"]["message"]
    assert result["kernel_tax"]["failed_runs"] == 1
    assert proc.stderr.decode().count("\n") >= 1
    return result


def test_a_stream_that_ends_without_done_fails_retryable(home):
    script = text_response("partial")
    script.writes.remove(DONE)
    with FakeServer([script]) as srv:
        proc, lines = run(srv, home=home)
    failed(proc, lines, "model_stream_truncated", True)
    assert lines[-1]["assistant_text"] == "partial"  # what was admitted is kept


def test_a_dropped_connection_mid_stream_fails_retryable(home):
    script = Script([chunk({"content": "half"}), 0.05], drop=True)
    with FakeServer([script]) as srv:
        proc, lines = run(srv, home=home)
    failed(proc, lines, "model_stream_truncated", True)


def test_a_stalled_stream_fails_retryable_after_the_read_timeout(home):
    script = Script([chunk({"content": "a"}), 3.0, chunk(finish="stop"), DONE])
    with FakeServer([script]) as srv:
        t0 = time.monotonic()
        proc, lines = run(srv, "--model-read-timeout", "0.5", home=home)
    assert time.monotonic() - t0 < 3.0
    failed(proc, lines, "model_stream_stalled", True)


@pytest.mark.parametrize(
    ("status", "code", "retryable"),
    [(429, "model_rate_limited", True), (500, "model_server_error", True),
     (503, "model_server_error", True), (400, "model_rejected", False),
     (404, "model_rejected", False)],
)  # fmt: skip
def test_http_errors(home, status, code, retryable):
    body = json.dumps({"error": {"message": f"bad request, your key {GHP} is wrong"}})
    script = Script([body.encode()], status=status, headers={"Content-Type": "application/json"})
    with FakeServer([script]) as srv:
        proc, lines = run(srv, home=home)
    result = failed(proc, lines, code, retryable)
    assert f"HTTP {status}" in result["error"]["message"]
    assert "bad request" in result["error"]["message"]
    assert GHP not in proc.stdout.decode() + proc.stderr.decode()


@pytest.mark.parametrize(
    "frame",
    [event({"error": {"message": "overloaded", "type": "server_error"}}),
     event('{"message": "boom"}', name="error")],
    ids=["payload", "event"],
)  # fmt: skip
def test_in_band_errors_fail_the_run(home, frame):
    with FakeServer([Script([chunk({"content": "x"}), frame, DONE])]) as srv:
        proc, lines = run(srv, home=home)
    result = failed(proc, lines, "model_stream_error", True)
    assert "overloaded" in result["error"]["message"] or "boom" in result["error"]["message"]


def test_a_response_that_is_not_an_event_stream_fails_not_retryable(home):
    script = Script([b'{"choices": []}'], headers={"Content-Type": "application/json"})
    with FakeServer([script]) as srv:
        proc, lines = run(srv, home=home)
    failed(proc, lines, "model_bad_response", False)


def test_an_event_that_is_not_json_fails_not_retryable(home):
    with FakeServer([Script([b"data: {nope\n\n"])]) as srv:
        proc, lines = run(srv, home=home)
    failed(proc, lines, "model_bad_response", False)


def test_an_event_that_never_ends_is_refused_in_bounded_memory(home):
    endless = [b"data: {"] + [b"x" * (1 << 20)] * 10  # 10 MiB, no line end
    with FakeServer([Script(endless)]) as srv:
        proc, lines = run(srv, home=home)
    result = failed(proc, lines, "model_bad_response", False)
    assert "over 8388608 bytes" in result["error"]["message"]


def test_no_server_at_the_url_fails_retryable(home):
    with FakeServer([]) as srv:
        pass  # closed: nothing listens on the port now
    proc, lines = run(srv, home=home)
    failed(proc, lines, "model_connect_failed", True)


def test_timeout_bounds_the_whole_run(home):
    script = Script([chunk({"content": "a"}), *([0.2, chunk({"content": "."})] * 20), DONE])
    with FakeServer([script]) as srv:
        proc, lines = run(srv, "--timeout", "1", home=home)
    failed(proc, lines, "runtime_timeout", True)


# -- M6: the key and signals ------------------------------------------------------------------


def test_the_api_key_is_sent_and_never_published_in_any_encoding(home):
    b64 = base64.b64encode(KEY.encode()).decode()
    writes = [chunk({"content": f"{KEY} / {b64} / {json.dumps(KEY)}"}), chunk(finish="stop"), DONE]
    with FakeServer([Script(writes)]) as srv:
        proc, lines = run(srv, "--api-key-env", "MY_KEY", home=home, env={"MY_KEY": KEY})
    assert proc.returncode == 0, proc.stderr
    assert srv.requests[0]["headers"]["Authorization"] == f"Bearer {KEY}"
    out = proc.stdout.decode() + proc.stderr.decode()
    assert KEY not in out and b64 not in out
    assert lines[-1]["assistant_text"].count("[REDACTED:") == 3


def test_the_key_is_never_accepted_on_argv(home):
    with FakeServer([]) as srv:
        proc, lines = run(srv, "--api-key", KEY, home=home)
    assert proc.returncode == 64 and lines == []
    assert KEY not in proc.stderr.decode()


def test_an_unset_key_variable_is_a_usage_error(home):
    with FakeServer([]) as srv:
        proc, lines = run(srv, "--api-key-env", "NOT_SET_ANYWHERE", home=home)
    assert proc.returncode == 64 and lines == []


def test_model_url_and_name_from_the_environment(home):
    with FakeServer([text_response("env")]) as srv:
        proc = subprocess.run(
            [*ITERON, "run", "--output-format", "json", "task"],
            capture_output=True,
            env={
                **os.environ,
                "ITERON_HOME": str(home),
                "ITERON_MODEL_URL": srv.url,
                "ITERON_MODEL": "from-env",
            },
            timeout=60,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["assistant_text"] == "env"
    assert srv.requests[0]["body"]["model"] == "from-env"


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_closes_the_stream_and_ends_the_run_cancelled(home, sig, code):
    script = Script([chunk({"content": "start"}), *([0.1, chunk({"content": "."})] * 100), DONE])
    with FakeServer([script]) as srv:
        cmd = [*ITERON, "run", "--output-format", "stream-json", "--model-url", srv.url,
               "--model", "m", "task"]  # fmt: skip
        # Unbuffered: communicate() reads the pipe itself, so a line read ahead into a
        # buffer by readline() would be missing from what it returns.
        proc = subprocess.Popen(
            cmd,
            bufsize=0,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "ITERON_HOME": str(home)},
        )
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the first delta is out: the stream is live
        assert json.loads(first)["type"] == "assistant_text"
        proc.send_signal(sig)
        rest, _ = proc.communicate(timeout=10)
        assert srv.closed.wait(5)  # the server saw the connection go
    lines = [json.loads(first), *(json.loads(x) for x in rest.decode().splitlines())]
    assert proc.returncode == code
    result = lines[-1]
    assert result["outcome"] == "cancelled" and result["exit_code"] == code
    assert result["assistant_text"] == answer(lines)


def test_a_credential_in_tool_arguments_split_at_every_byte_never_leaves(home):
    args = json.dumps({"path": "cfg.env", "content": f"TOKEN={GHP}\n"})
    scripts = [tool_response("write_file", args, pieces=len(args)), text_response("ok")]
    with FakeServer(scripts) as srv:
        proc, lines = run(srv, "--auto", home=home)
    assert proc.returncode == 0, proc.stderr
    assert (home / "cfg.env").read_text() == f"TOKEN={GHP}\n"  # the tool got the real value
    (start,) = events(lines, "tool_start")
    assert start["input"]["content"] == "TOKEN=[REDACTED:github-pat]\n"
    assert GHP not in proc.stdout.decode()


@pytest.mark.parametrize(
    "args",
    [["--model-url", "http://127.0.0.1:9/v1"],  # no --model
     ["--model-url", "ftp://x", "--model", "m"],
     ["--model-url", "http://127.0.0.1:9/v1", "--model", "m", "--replay", "t.jsonl"],
     ["--model-url", "http://127.0.0.1:9/v1", "--model", "m", "--max-turns", "0"],
     ["--max-turns", "3"],  # without a model
     ["--api-key-env", "sk-abc123456789"]],  # a value where a name goes: never echoed
)  # fmt: skip
@pytest.mark.parametrize("cli", [ITERON, TITAH], ids=["iteron", "titah"])
def test_bad_model_options_are_usage_errors(home, cli, args):
    proc = subprocess.run(
        [*cli, "run", "--output-format", "json", *args, "task"],
        capture_output=True,
        env={**os.environ, "ITERON_HOME": str(home)},
        timeout=60,
        check=False,
    )
    assert proc.returncode == 64, proc.stderr
    assert proc.stdout == b"" and proc.stderr.decode().count("\n") == 1
    assert b"sk-abc123456789" not in proc.stderr
