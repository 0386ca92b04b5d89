"""Foreign agent streams (docs/agents.md): Claude Code, Codex and Gemini CLI through the
boundary. Golden outputs per tool and schema version, the outcome table, credentials in
every field kind and split across adjacent lines (stdout, stderr and the store's bytes),
and the spawn path with a fake agent executable on PATH.

SCRUBLINE_REGEN_GOLDEN=1 pytest tests/test_agents.py   # rewrite the golden outputs
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrubline._core import Translator
from scrubline.foreign import Foreign
from scrubline.render import StreamSink
from scrubline.run import RunOptions, execute
from scrubline.runtime import Replay
from scrubline.store import NoStore

HERE = Path(__file__).parent
AGENTS = HERE / "fixtures" / "agents"
BIN = Path(sys.executable).parent
CREDENTIALS: dict[str, str] = json.loads((AGENTS / "credentials.json").read_text())
TOOLS = ("claude-code", "codex", "gemini")
VERSIONS = (4, 5, 6, 8)
FIXTURES = sorted(
    (tool, p.stem) for tool in TOOLS for p in (AGENTS / tool).glob("*.jsonl") if ".v" not in p.stem
)


def normalize(stdout: bytes) -> str:
    """The run id and the measured latencies vary between runs: they are blanked."""
    out = []
    for line in stdout.decode().splitlines():
        obj = json.loads(line)
        if obj.get("type") == "result":
            obj["run_id"] = "RUN"
            for k in ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us"):
                if "kernel_tax" in obj:
                    obj["kernel_tax"][k] = 0
        out.append(json.dumps(obj, ensure_ascii=False))
    return "\n".join(out) + "\n"


def project(tool: str, data: bytes, version: int = 8) -> subprocess.CompletedProcess:
    return subprocess.run(
        [BIN / "scrubline", "project", "--from", tool, "--output-schema-version", str(version)],
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )


def in_process(tool: str, data: bytes) -> tuple[bytes, int]:
    """The same run without a process (for the many-split tests)."""
    out = io.BytesIO()
    opts = RunOptions(source=Foreign(Replay(stream=io.BytesIO(data)), tool, []), prog="t")
    code = execute(opts, NoStore(), StreamSink(out)).exit_code
    return out.getvalue(), code


def leaks(*outputs: bytes) -> list[str]:
    """Names of planted credentials (or a 20-byte piece of one) found in the outputs."""
    found = []
    for name, cred in CREDENTIALS.items():
        for piece in (cred, cred[:20], cred[-20:]):
            if any(piece.encode() in o for o in outputs):
                found.append(name)
                break
    return found


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("tool", "name"), FIXTURES)
def test_e6_golden_output_per_tool_and_version(tool, name, version):
    r = project(tool, (AGENTS / tool / f"{name}.jsonl").read_bytes(), version)
    got = normalize(r.stdout)
    golden = AGENTS / tool / f"{name}.v{version}.jsonl"
    if os.environ.get("SCRUBLINE_REGEN_GOLDEN"):
        golden.write_text(got)
    assert got == golden.read_text()
    assert not leaks(r.stdout, r.stderr)
    result = json.loads(r.stdout.splitlines()[-1])
    assert r.returncode == result["exit_code"]
    assert ("kernel_tax" in result) == (version >= 5)


OUTCOMES = [
    # tool, fixture, outcome, reason, exit code
    ("claude-code", "full_run", "done", "completed", 0),
    ("claude-code", "partial_messages", "done", "completed", 0),
    ("claude-code", "noisy", "done", "completed", 0),
    ("claude-code", "api_error", "failed", "api_error", 1),
    ("claude-code", "max_turns", "limit", "max_turns", 3),
    ("claude-code", "max_budget", "limit", "max_budget_usd", 3),
    ("claude-code", "interrupted", "cancelled", "claude-code stopped: aborted_streaming", 1),
    ("claude-code", "killed", "failed", "no_terminal_event", 1),
    ("claude-code", "cut_mid_line", "failed", "no_terminal_event", 1),
    ("codex", "full_run", "done", "completed", 0),
    ("codex", "noisy", "done", "completed", 0),
    ("codex", "turn_failed", "failed", "turn_failed", 1),
    ("codex", "usage_limit", "limit", "codex_usage_limit", 3),
    ("codex", "interrupted", "failed", "no_terminal_event", 1),
    ("codex", "legacy", "failed", "no_terminal_event", 1),
    ("gemini", "full_run", "done", "completed", 0),
    ("gemini", "noisy", "done", "completed", 0),
    ("gemini", "max_turns", "limit", "max_session_turns", 3),
    ("gemini", "error", "failed", "FatalAuthenticationError", 1),
    ("gemini", "cut_mid_line", "failed", "no_terminal_event", 1),
]


@pytest.mark.parametrize(("tool", "name", "outcome", "reason", "code"), OUTCOMES)
def test_r3_r6_outcome_from_the_evidence(tool, name, outcome, reason, code):
    r = project(tool, (AGENTS / tool / f"{name}.jsonl").read_bytes())
    result = json.loads(r.stdout.splitlines()[-1])
    assert (result["outcome"], result["reason"], r.returncode) == (outcome, reason, code)
    assert result["success"] == (outcome == "done")
    if outcome == "limit":  # T5: a notice names the limit
        notices = [json.loads(x) for x in r.stdout.splitlines() if b'"code":"limit"' in x]
        assert notices, "a limit stop says which limit"


def test_r4_cost_only_billed_is_a_number_and_an_estimate_is_named():
    billed = project("claude-code", (AGENTS / "claude-code" / "full_run.jsonl").read_bytes())
    result = json.loads(billed.stdout.splitlines()[-1])
    assert (result["cost_usd"], result["cost_status"], result["cost_reason"]) == (
        0.0421,
        "reported",
        None,
    )
    sub = project("claude-code", (AGENTS / "claude-code" / "max_turns.jsonl").read_bytes())
    result = json.loads(sub.stdout.splitlines()[-1])
    assert result["cost_usd"] is None and result["cost_status"] == "unknown"
    assert "estimate, not a bill" in result["cost_reason"]
    for tool in ("codex", "gemini"):
        r = project(tool, (AGENTS / tool / "full_run.jsonl").read_bytes())
        assert json.loads(r.stdout.splitlines()[-1])["cost_usd"] is None


def test_t4_a_failed_command_in_a_completed_run_is_a_tool_outcome():
    r = project("codex", (AGENTS / "codex" / "full_run.jsonl").read_bytes())
    ends = {
        e["call_id"]: (e["status"], e["outcome"])
        for e in map(json.loads, r.stdout.splitlines())
        if e["type"] == "tool_end"
    }
    assert ends["item_3"] == ("completed", "failed")
    assert json.loads(r.stdout.splitlines()[-1])["outcome"] == "done"
    r = project("claude-code", (AGENTS / "claude-code" / "full_run.jsonl").read_bytes())
    ends = {
        e["call_id"]: (e["status"], e["outcome"])
        for e in map(json.loads, r.stdout.splitlines())
        if e["type"] == "tool_end"
    }
    assert ends["toolu_3"] == ("denied", "failed")  # permission not granted
    assert ends["toolu_4"] == ("completed", "failed")  # ran, exit code 2


def test_r5_subagent_and_thinking_text_stay_out_of_the_answer():
    r = project("claude-code", (AGENTS / "claude-code" / "full_run.jsonl").read_bytes())
    events = [json.loads(x) for x in r.stdout.splitlines()]
    answer = events[-1]["assistant_text"]
    assert "One use, in src/app.py." not in answer  # the subagent's own text
    assert "do not print" not in answer  # thinking
    kinds = {e["type"] for e in events}
    assert {"workflow_agent_start", "workflow_agent_activity", "workflow_agent_end"} <= kinds


def test_repeated_text_is_published_once():
    # Claude's whole block after its partial deltas; Codex's growing aggregated_output.
    r = project("claude-code", (AGENTS / "claude-code" / "partial_messages.jsonl").read_bytes())
    result = json.loads(r.stdout.splitlines()[-1])
    assert result["assistant_text"] == "The key is [REDACTED:github-pat], rotate it."
    thinking = "".join(
        e["text"] for e in map(json.loads, r.stdout.splitlines()) if e["type"] == "thinking"
    )
    assert thinking == "Check the env first."
    r = project("codex", (AGENTS / "codex" / "full_run.jsonl").read_bytes())
    end = next(
        e
        for e in map(json.loads, r.stdout.splitlines())
        if e["type"] == "tool_end" and e["call_id"] == "item_2"
    )
    assert end["output"] == "Logged in\ntoken: [REDACTED:github-pat]\ndone\n"


def test_dirty_lines_are_bounded_scrubbed_notices_not_exit_65():
    banner = b"x" * 100_000 + b" " + CREDENTIALS["text"].encode() + b"\n"
    data = banner + (AGENTS / "codex" / "full_run.jsonl").read_bytes()
    r = project("codex", data)
    assert r.returncode == 0
    notices = [
        e for e in map(json.loads, r.stdout.splitlines()) if e.get("code") == "foreign_output"
    ]
    assert len(notices) == 1 and len(notices[0]["text"]) < 5000
    assert not leaks(r.stdout, r.stderr)


def test_unknown_foreign_events_are_kept_on_the_record_not_published(tmp_path):
    home = tmp_path / "home"
    fixture = AGENTS / "claude-code" / "full_run.jsonl"
    r = iteron("run", "--from", "claude-code", "--replay", str(fixture), home=home)
    assert r.returncode == 0
    assert b"vcs_state_changed" not in r.stdout
    run_id = json.loads(r.stdout.splitlines()[-1])["run_id"]
    t = iteron("--transcript", run_id, home=home)
    assert t.returncode == 0
    store = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
    assert b"vcs_state_changed" in store  # kept, scrubbed
    assert not leaks(store, r.stdout, r.stderr)


def iteron(*args: str, home: Path, env: dict | None = None, timeout: float = 60):
    if args and args[0] == "run":
        args = ("run", "--output-format", "stream-json", *args[1:])
    return subprocess.run(
        [BIN / "iteron", *args],
        capture_output=True,
        timeout=timeout,
        env={**os.environ, "ITERON_HOME": str(home), **(env or {})},
        check=False,
    )


def test_s7_no_credential_in_the_store_bytes(tmp_path):
    home = tmp_path / "home"
    outs = []
    for tool, name in FIXTURES:
        r = iteron(
            "run", "--from", tool, "--replay", str(AGENTS / tool / f"{name}.jsonl"), home=home
        )
        outs += [r.stdout, r.stderr]
    store = [p.read_bytes() for p in home.rglob("*") if p.is_file()]
    assert store
    assert not leaks(*store, *outs)


# A credential split across every pair of adjacent foreign lines, at every position.
CRED = CREDENTIALS["text"]


def _claude_split(a: str, b: str) -> bytes:
    ev = [
        {"type": "system", "subtype": "init", "model": "m", "apiKeySource": "none"},
        {"type": "stream_event", "event": {"type": "message_start", "message": {"id": "m1"}}},
        {
            "type": "stream_event",
            "event": {"type": "content_block_delta", "delta": {"type": "text_delta", "text": a}},
        },
        {
            "type": "stream_event",
            "event": {"type": "content_block_delta", "delta": {"type": "text_delta", "text": b}},
        },
        {"type": "assistant", "message": {"id": "m1", "content": [{"type": "text", "text": "x"}]}},
        {"type": "result", "subtype": "success", "is_error": False, "result": a + b},
    ]
    return b"\n".join(json.dumps(e).encode() for e in ev) + b"\n"


def _claude_blocks(a: str, b: str) -> bytes:
    ev = [
        {"type": "system", "subtype": "init", "model": "m"},
        {
            "type": "assistant",
            "message": {"id": "m1", "content": [{"type": "thinking", "thinking": a}]},
        },
        {
            "type": "assistant",
            "message": {"id": "m1", "content": [{"type": "thinking", "thinking": b}]},
        },
        {"type": "result", "subtype": "success", "is_error": False},
    ]
    return b"\n".join(json.dumps(e).encode() for e in ev) + b"\n"


def _codex_split(a: str, b: str) -> bytes:
    def upd(out: str, ev: str = "item.updated") -> dict:
        item = {"id": "i", "type": "command_execution", "command": "env", "aggregated_output": out}
        return {"type": ev, "item": {**item, "exit_code": None, "status": "in_progress"}}

    ev = [
        {"type": "thread.started", "thread_id": "t"},
        upd("TOKEN=" + a),
        upd("TOKEN=" + a + b),
        {"type": "item.completed", "item": {**upd("TOKEN=" + a + b)["item"], "exit_code": 0}},
        {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
    ]
    return b"\n".join(json.dumps(e).encode() for e in ev) + b"\n"


def _gemini_split(a: str, b: str) -> bytes:
    ev = [
        {"type": "init", "model": "auto"},
        {"type": "message", "role": "assistant", "content": "key " + a, "delta": True},
        {"type": "message", "role": "assistant", "content": b + " end", "delta": True},
        {"type": "result", "status": "success", "stats": {}},
    ]
    return b"\n".join(json.dumps(e).encode() for e in ev) + b"\n"


@pytest.mark.parametrize(
    ("tool", "make"),
    [
        ("claude-code", _claude_split),
        ("claude-code", _claude_blocks),
        ("codex", _codex_split),
        ("gemini", _gemini_split),
    ],
)
def test_d2_a_credential_split_across_adjacent_lines_never_leaks(tool, make):
    for cut in range(1, len(CRED)):
        out, _ = in_process(tool, make(CRED[:cut], CRED[cut:]))
        assert CRED.encode() not in out and CRED[:20].encode() not in out, cut
        assert CRED[-20:].encode() not in out, cut


def test_d2_a_credential_split_across_every_pair_of_adjacent_lines_of_a_run():
    """Every adjacent pair of a real-shaped run: the credential's halves end one line's
    streamed text and start the next one's (same stream: answer deltas)."""
    lines = (AGENTS / "gemini" / "full_run.jsonl").read_bytes().splitlines()
    for i in range(1, len(lines) - 1):
        a = {"type": "message", "role": "assistant", "content": "k " + CRED[:15], "delta": True}
        b = {"type": "message", "role": "assistant", "content": CRED[15:] + " e", "delta": True}
        data = b"\n".join([*lines[:i], json.dumps(a).encode(), json.dumps(b).encode(), *lines[i:]])
        out, _ = in_process("gemini", data + b"\n")
        assert CRED.encode() not in out and CRED[:15].encode() + b"\\" not in out


def test_translator_names_the_foreign_line():
    t = Translator("gemini")
    t.translate(
        b'{"type":"init","model":"a"}\n\n{"type":"message","role":"user","content":"x"}\n', 7
    )
    assert t.origin(0) == 9  # run_start, made when the prompt echo (line 9) arrived


# The spawn path: a fake agent executable on PATH replays a fixture.

FAKE = """#!{python}
import os, signal, sys, time
if sys.stdin.read():  # stdin is closed: this returns at once, empty
    sys.exit(99)
sys.stderr.write("warning: token {secret} in the environment\\n")
sys.stderr.flush()
lines = open({fixture!r}, "rb").read().splitlines(keepends=True)
mode = {mode!r}
if mode == "hang":
    def on_int(signum, frame):
        sys.stdout.buffer.write(lines[-1] if lines[-1].endswith(b"\\n") else lines[-1] + b"\\n")
        sys.stdout.flush()
        sys.exit(130)
    signal.signal(signal.SIGINT, on_int)
    signal.signal(signal.SIGTERM, on_int)
    for line in lines[:-1]:
        sys.stdout.buffer.write(line)
    sys.stdout.flush()
    open({ready!r}, "w").close()
    time.sleep(60)
for line in lines:
    sys.stdout.buffer.write(line)
sys.stdout.flush()
with open({argv_file!r}, "w") as f:
    f.write("\\n".join(sys.argv[1:]))
if mode.startswith("signal:"):
    os.kill(os.getpid(), int(mode.split(":")[1]))
sys.exit(int(mode) if mode.lstrip("-").isdigit() else 0)
"""


def fake_agent(tmp_path: Path, exe: str, fixture: Path, mode: str) -> dict:
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    path = bindir / exe
    path.write_text(
        FAKE.format(
            python=sys.executable,
            secret=CREDENTIALS["hook"],
            fixture=str(fixture),
            mode=mode,
            ready=str(tmp_path / "ready"),
            argv_file=str(tmp_path / "argv"),
        )
    )
    path.chmod(0o755)
    return {"PATH": f"{bindir}:{os.environ['PATH']}"}


SPAWN = [
    # runtime, executable, fixture, how it ends, outcome, exit code
    ("claude-code", "claude", "full_run", "0", "done", 0),
    ("claude-code", "claude", "api_error", "1", "failed", 1),
    ("claude-code", "claude", "killed", "0", "failed", 1),  # exit 0, no result: failed
    ("claude-code", "claude", "killed", "signal:9", "failed", 1),
    ("claude-code", "claude", "killed", "130", "cancelled", 130),
    ("codex", "codex", "turn_failed", "0", "failed", 1),  # turn.failed with exit 0
    ("codex", "codex", "interrupted", "signal:2", "cancelled", 130),
    ("codex", "codex", "interrupted", "signal:15", "cancelled", 143),
    ("gemini", "gemini", "full_run", "0", "done", 0),
    ("gemini", "gemini", "max_turns", "53", "limit", 3),
    ("gemini", "gemini", "error", "41", "failed", 1),
]


@pytest.mark.parametrize(("runtime", "exe", "name", "mode", "outcome", "code"), SPAWN)
def test_spawn_a_fake_agent_cli(runtime, exe, name, mode, outcome, code, tmp_path):
    env = fake_agent(tmp_path, exe, AGENTS / runtime / f"{name}.jsonl", mode)
    r = iteron(
        "run", "fix the tests", "--runtime", runtime, "--", "--model", "x",
        home=tmp_path / "home", env=env,
    )  # fmt: skip
    result = json.loads(r.stdout.splitlines()[-1])
    assert (result["outcome"], r.returncode) == (outcome, code), r.stderr
    assert b"warning: token" in r.stderr  # the agent's stderr reaches ours, scrubbed
    assert not leaks(r.stdout, r.stderr)
    argv = (tmp_path / "argv").read_text().split("\n") if (tmp_path / "argv").exists() else []
    if argv:
        assert "fix the tests" in argv and argv[argv.index("--model") + 1] == "x"


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_reaches_the_agent_and_its_result_is_kept(sig, code, tmp_path):
    env = fake_agent(tmp_path, "claude", AGENTS / "claude-code" / "full_run.jsonl", "hang")
    p = subprocess.Popen(
        [BIN / "iteron", "run", "go", "--runtime", "claude-code", "--output-format", "stream-json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "ITERON_HOME": str(tmp_path / "home"), **env},
    )
    deadline = time.monotonic() + 30
    while not (tmp_path / "ready").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    result = json.loads(out.splitlines()[-1])
    assert (result["outcome"], p.returncode) == ("cancelled", code), err
    assert b'"type":"turn_end"' in out  # the agent's own result, written after our signal
    assert not leaks(out, err)


def test_runtime_path_and_a_missing_cli(tmp_path):
    r = iteron(
        "run", "go", "--runtime", "gemini", "--runtime-path", str(tmp_path / "nope"),
        home=tmp_path / "home",
    )  # fmt: skip
    result = json.loads(r.stdout.splitlines()[-1])
    assert result["outcome"] == "failed" and r.returncode == 1
    assert "cannot start" in result["error"]["message"]


def test_titah_runs_an_agent_cli_with_its_result_shape(tmp_path):
    env = fake_agent(tmp_path, "gemini", AGENTS / "gemini" / "full_run.jsonl", "0")
    r = subprocess.run(
        [BIN / "titah", "run", "list repos", "--runtime", "gemini", "--output-format", "json"],
        capture_output=True,
        timeout=60,
        env={**os.environ, "ITERON_HOME": str(tmp_path / "home"), **env},
        check=False,
    )
    result = json.loads(r.stdout)
    assert r.returncode == 0 and result["ok"] is True and result["agent"] == "gemini"
    assert [(t["status"], t["outcome"]) for t in result["tools"]] == [
        ("completed", "ok"),
        ("denied", "failed"),
        ("failed", "failed"),
    ]
    assert not leaks(r.stdout, r.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["--from", "codex", "--runtime", "gemini"],
        ["--replay", "x.jsonl", "--", "--model", "m"],
        ["--runtime-path", "/bin/true"],
    ],
)
def test_o3_bad_agent_options_are_usage_errors(args, tmp_path):
    r = iteron("run", "go", *args, home=tmp_path / "home")
    assert r.returncode == 64 and r.stdout == b""


@pytest.mark.parametrize(("tool", "name"), FIXTURES)
def test_the_adapter_equals_its_canonical_output_through_the_native_path(tool, name):
    """A foreign stream through the translator publishes what its canonical translation
    publishes through `--from trace` (ended by the same run_end)."""
    data = (AGENTS / tool / f"{name}.jsonl").read_bytes()
    t = Translator(tool)
    canonical = t.translate(data, 1)
    tail, outcome, reason, _error, _code = t.finish()
    end = json.dumps({"type": "run_end", "outcome": outcome, "reason": reason})
    native = subprocess.run(
        [BIN / "scrubline", "project"],
        input=canonical + tail + (end.encode() + b"\n" if outcome != "limit" else b""),
        capture_output=True,
        check=False,
    )
    foreign = project(tool, data)
    drop = (b'"type":"result"', b'"type":"run_done"')
    same = [
        [x for x in o.splitlines() if not any(d in x for d in drop)]
        for o in (native.stdout, foreign.stdout)
    ]
    assert same[0] == same[1]


def test_runtime_cmd_with_from_reads_the_foreign_stream(tmp_path):
    fixture = AGENTS / "codex" / "turn_failed.jsonl"
    r = iteron("run", "--from", "codex", "--runtime-cmd", f"cat {fixture}", home=tmp_path / "h")
    result = json.loads(r.stdout.splitlines()[-1])
    assert (result["outcome"], result["reason"], r.returncode) == ("failed", "turn_failed", 1)
    assert not leaks(r.stdout, r.stderr)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_batches_split_anywhere_between_lines_translate_the_same(data):
    tool, name = data.draw(st.sampled_from(FIXTURES))
    lines = (AGENTS / tool / f"{name}.jsonl").read_bytes().splitlines(keepends=True)
    whole = Translator(tool)
    expected = whole.translate(b"".join(lines), 1) + whole.finish()[0]
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(lines) - 1)), max_size=6)))
    t, got, first = Translator(tool), b"", 1
    for a, b in zip([0, *cuts], [*cuts, len(lines)], strict=True):
        got += t.translate(b"".join(lines[a:b]), first)
        first += b - a
    assert got + t.finish()[0] == expected


@settings(max_examples=40, deadline=None)
@given(
    tool=st.sampled_from(TOOLS),
    junk=st.lists(
        st.text(max_size=60).filter(lambda x: "\n" not in x and "\r" not in x), max_size=4
    ),
    at=st.integers(0, 30),
)
def test_any_junk_line_is_a_notice_never_exit_65(tool, junk, at):
    lines = (AGENTS / tool / "full_run.jsonl").read_bytes().splitlines()
    at = min(at, len(lines))
    noise = [f"{j} {CRED}".encode() for j in junk]
    out, code = in_process(tool, b"\n".join([*lines[:at], *noise, *lines[at:]]) + b"\n")
    assert code != 65
    assert CRED.encode() not in out and CRED[:20].encode() not in out
