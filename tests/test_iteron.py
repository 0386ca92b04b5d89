"""`iteron run` end to end (docs/contract.md §1-4): golden stdout per version (E6), selectors
(O2-O5), the stdout/stderr split (O6), results and exit codes (R1-R6), the durable
record (S7), runtime processes and signals."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

TRACES = Path(__file__).parent / "fixtures" / "traces"
CASES = sorted(p.name.removesuffix(".trace.jsonl") for p in TRACES.glob("*.trace.jsonl"))
OPTIONS = json.loads((TRACES / "options.json").read_text())
VERSIONS = (4, 5, 6, 8)
ITERON = [sys.executable, "-m", "scrubline.cli.iteron"]
GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"


def iteron(*args: str, home: Path, stdin: bytes = b"", timeout: float = 60, **env: str):
    return subprocess.run(
        [*ITERON, *args],
        input=stdin,
        capture_output=True,
        env={**os.environ, "ITERON_HOME": str(home), **env},
        timeout=timeout,
        check=False,
    )


def normalize(stdout: bytes) -> str:
    """The volatile values of the result (run id, latencies) set to the golden ones."""
    lines = stdout.decode().splitlines()
    result = json.loads(lines[-1])
    result["run_id"] = "RUN"
    for k in ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us"):
        if "kernel_tax" in result:
            assert isinstance(result["kernel_tax"][k], int) and result["kernel_tax"][k] >= 0
            result["kernel_tax"][k] = 0
    lines[-1] = json.dumps(result, separators=(",", ":"), ensure_ascii=False)
    return "\n".join(lines) + "\n"


def stored(home: Path, run_id: str) -> list[dict]:
    db = sqlite3.connect(home / "iteron.db")
    rows = db.execute("SELECT seq, body FROM events WHERE run_id = ? ORDER BY seq", (run_id,))
    out = [{"seq": seq, **json.loads(body)} for seq, body in rows]
    db.close()
    return out


def write_trace(path: Path, events: list[dict | str | bytes]) -> Path:
    lines = []
    for e in events:
        if isinstance(e, dict):
            lines.append(json.dumps(e).encode())
        elif isinstance(e, str):
            lines.append(e.encode())
        else:
            lines.append(e)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("version", VERSIONS)
def test_e6_golden_stdout(case, version, tmp_path):
    args = ["run", "--replay", str(TRACES / f"{case}.trace.jsonl")]
    args += ["--output-format", "stream-json", "--output-schema-version", str(version)]
    if limit := OPTIONS.get(case, {}).get("max_turn_tokens"):
        args += ["--max-turn-tokens", str(limit)]
    r = iteron(*args, home=tmp_path)
    golden = TRACES / f"{case}.v{version}.jsonl"
    if os.environ.get("UPDATE_GOLDEN") and OPTIONS.get(case, {}).get("store"):
        # Cases that need the store are written from here (the others by cargo test).
        golden.write_text(normalize(r.stdout))
    want = golden.read_text()
    assert normalize(r.stdout) == want
    assert r.returncode == json.loads(want.splitlines()[-1])["exit_code"]


def test_s7_every_emitted_line_is_in_the_store_and_no_secret_on_disk(tmp_path):
    r = iteron("run", "--output-format", "stream-json", home=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    result = lines[-1]
    events = stored(tmp_path, result["run_id"])
    seqs = {e["seq"] for e in events}
    assert {x["seq"] for x in lines[:-1]} <= seqs
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    db_bytes = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert GHP[:12].encode() not in db_bytes
    assert b"AKIAQ3EGRSTUV5WX7Y2Z" not in db_bytes
    assert b"[REDACTED:github-pat]" in db_bytes
    row = sqlite3.connect(tmp_path / "iteron.db").execute(
        "SELECT outcome, exit_code, turns, agent, model, result FROM runs WHERE run_id = ?",
        (result["run_id"],),
    )
    outcome, code, turns, agent, model, stored_result = row.fetchone()
    assert (outcome, code, turns, agent, model) == ("done", 0, 2, "iteron-demo", "demo-coder-1")
    assert json.loads(stored_result) == result
    mode = sqlite3.connect(tmp_path / "iteron.db").execute("PRAGMA journal_mode").fetchone()
    assert mode == ("wal",)


def test_demo_is_the_default_source_and_text_is_readable(tmp_path):
    r = iteron("run", home=tmp_path)
    assert r.returncode == 0, r.stderr
    text = r.stdout.decode()
    assert "\x1b[" not in text  # not a TTY: no colours
    assert "The test failed because `load_config`" in text
    assert "  ✓ bash: Run the failing test (completed)" in text
    assert "! tests/.env.test holds credentials" in text
    assert "GITHUB_TOKEN=[REDACTED:github-pat]" in text
    assert "The test name says" not in text  # thinking is not part of the text
    assert r.stderr == b""


def test_o5_machine_contract_is_provider_free(tmp_path):
    home = tmp_path / "home"
    r = iteron("--machine-contract", home=home)
    assert r.returncode == 0
    assert json.loads(r.stdout) == {
        "type": "machine_contract",
        "cli_stream_versions": [4, 5, 6, 8],
        "default_cli_stream_version": 8,
        "resident_protocol_version": 7,
    }
    assert not home.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--output-format", "json", "--output-schema-version", "7"],
        ["--output-format", "json", "--output-schema-version", "3"],
        ["--output-format", "stream-json", "--output-schema-version", "9"],
        ["--output-format", "json", "--output-schema-version", "eight"],
        ["--output-format", "json", "--output-schema-version", ""],
        ["--output-format", "text", "--output-schema-version", "8"],
        ["--output-schema-version", "8"],
        ["--output-format", "xml"],
        ["--bogus-flag"],
        ["--max-turn-tokens", "0"],
    ],
)
def test_o3_unsupported_selector_exits_64_before_the_store(args, tmp_path):
    # A store that exists already must be byte-identical afterwards.
    iteron("run", "--output-format", "json", home=tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    r = iteron("run", *args, home=tmp_path)
    assert r.returncode == 64
    assert r.stdout == b""
    assert len(r.stderr.decode().strip().splitlines()) == 1
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_o3_fresh_home_is_not_created(tmp_path):
    r = iteron(
        "run", "--output-format", "json", "--output-schema-version", "7", home=tmp_path / "h"
    )
    assert r.returncode == 64
    assert not (tmp_path / "h").exists()


# -- the O6 matrix: every format x version x outcome -------------------------------


def outcome_traces(tmp_path: Path) -> dict[str, tuple[list[str], int]]:
    delta = {"type": "assistant_delta", "text": f"answer with {GHP} inside"}
    turn = {"type": "turn_end", "usage": {"input": 900, "output": 300}}
    mk = lambda name, evs: str(write_trace(tmp_path / f"{name}.jsonl", evs))  # noqa: E731
    return {
        "done": (["--replay", mk("done", [delta, {"type": "run_end", "outcome": "done"}])], 0),
        "drained": (["--replay", mk("dr", [delta, {"type": "run_end", "outcome": "drained"}])], 0),
        "failed": (["--replay", mk("f", [delta, {"type": "run_end", "outcome": "failed"}])], 1),
        "cancelled": (["--replay", mk("c", [{"type": "run_end", "outcome": "cancelled"}])], 1),
        "no_run_end": (["--replay", mk("n", [delta])], 1),
        "limit": (["--replay", mk("l", [delta, turn]), "--max-turn-tokens", "1000"], 3),
        "bad_input": (["--replay", mk("b", [delta, "{not json"])], 65),
    }


@pytest.mark.parametrize("fmt", ["json", "stream-json", "text"])
def test_o6_r6_every_format_version_and_outcome(fmt, tmp_path):
    for name, (args, code) in outcome_traces(tmp_path).items():
        for version in VERSIONS if fmt != "text" else (None,):
            sel = ["--output-schema-version", str(version)] if version else []
            r = iteron("run", "--output-format", fmt, *sel, *args, home=tmp_path)
            assert r.returncode == code, (name, version, r.stderr)
            assert GHP[:12].encode() not in r.stdout
            if fmt == "text":
                continue
            lines = [json.loads(x) for x in r.stdout.splitlines()]  # every line is JSON
            if fmt == "json":
                assert len(lines) == 1
            results = [x for x in lines if x.get("type") == "result"]
            assert len(results) == 1 and lines[-1] is results[0]
            res = results[0]
            assert list(res)[:2] == ["schema_version", "type"]
            keys = ["outcome", "reason", "success", "assistant_text", "run_id", "cost_usd"]
            keys += ["cost_status", "cost_reason", "turns"]
            keys += ["kernel_tax"] if version >= 5 else []
            assert list(res)[2:] == [*keys, "exit_code", "error"]
            assert res["exit_code"] == code and res["schema_version"] == version
            assert res["success"] == (code == 0)
            assert all(x["schema_version"] == version for x in lines)
            assert all("turn" in x for x in lines[:-1])
            if version >= 5:
                kt = res["kernel_tax"]
                assert all(isinstance(v, int) and v >= 0 for v in kt.values())
                assert kt["broker_latency_us"] > 0 and kt["admission_latency_us"] > 0
            want = {"done": "done", "drained": "drained", "limit": "limit"}
            assert res["outcome"] == want.get(
                name, "cancelled" if name == "cancelled" else "failed"
            )


def test_bad_input_names_the_line_and_keeps_what_came_before(tmp_path):
    big = b'{"type":"notice","text":"' + b"x" * (8 << 20) + b'"}'
    for bad, why in [
        (b"{not json", "not valid JSON"),
        (b'{"text":"no type"}', 'no "type"'),
        (b'{"type":"notice","text":"\xff\xfe"}', "invalid UTF-8"),
        (big, "exceeds 8388608 bytes"),
    ]:
        trace = write_trace(
            tmp_path / "t.jsonl",
            [{"type": "phase", "phase": "one"}, {"type": "notice", "text": "two"}, bad],
        )
        r = iteron("run", "--output-format", "stream-json", "--replay", str(trace), home=tmp_path)
        assert r.returncode == 65
        assert "line 3" in r.stderr.decode() and why in r.stderr.decode()
        result = json.loads(r.stdout.splitlines()[-1])
        assert result["success"] is False and result["error"]["line"] == 3
        assert result["error"]["code"] == "bad_input"
        kinds = [e["type"] for e in stored(tmp_path, result["run_id"])]
        assert kinds == ["phase", "notice", "run_end"]


def test_limit_from_a_config_file(tmp_path):
    trace = write_trace(
        tmp_path / "t.jsonl",
        [{"type": "turn_end", "usage": {"input": 400001, "output": 0}}, {"type": "run_end"}],
    )
    cfg = tmp_path / "iteron.toml"
    cfg.write_text("[limits]\nturnTokens = 400000\n")
    args = ["run", "--output-format", "stream-json", "--replay", str(trace)]
    r = iteron(*args, "--config", str(cfg), home=tmp_path)
    assert r.returncode == 3
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    notice = [x for x in lines if x["type"] == "notice"]
    assert notice[0]["text"] == "Stopped at limits.turnTokens (400000). Raise it or split the work."
    assert lines[-1]["outcome"] == "limit" and lines[-1]["reason"] == "limits.turnTokens"
    cfg.write_text("[limits]\nturnTokens = 'many'\n")
    r = iteron(*args, "--config", str(cfg), home=tmp_path)
    assert r.returncode == 64 and r.stdout == b""


# -- runtime processes --------------------------------------------------------------

RUNTIME = textwrap.dedent(
    """
    import json, sys, time
    mode = sys.argv[1]
    def say(**e):
        sys.stdout.write(json.dumps(e) + "\\n"); sys.stdout.flush()
    say(type="run_start", agent="child")
    say(type="assistant_delta", text="working on it ")
    if mode == "crash":
        sys.exit(3)
    if mode == "garbage":
        print("Traceback (most recent call last): oops", flush=True)
        time.sleep(5)
    if mode == "hang":
        time.sleep(60)
    if mode == "ok":
        say(type="run_end", outcome="done")
    """
)


def runtime_cmd(tmp_path: Path, mode: str) -> str:
    script = tmp_path / "runtime.py"
    script.write_text(RUNTIME)
    return f"{sys.executable} {script} {mode}"


@pytest.mark.parametrize(
    ("mode", "code", "error"),
    [
        ("ok", 0, None),
        ("crash", 1, "runtime_failed"),
        ("garbage", 1, "runtime_bad_output"),
        ("hang", 1, "runtime_timeout"),
    ],
)
def test_runtime_cmd_outcomes(mode, code, error, tmp_path):
    cmd = runtime_cmd(tmp_path, mode)
    args = ["run", "--output-format", "stream-json", "--runtime-cmd", cmd, "--timeout", "2"]
    t0 = time.monotonic()
    r = iteron(*args, home=tmp_path)
    assert time.monotonic() - t0 < 20
    assert r.returncode == code, r.stderr
    result = json.loads(r.stdout.splitlines()[-1])
    assert result["exit_code"] == code
    assert (result["error"] or {}).get("code") == error
    assert result["assistant_text"] == "working on it "
    assert result["kernel_tax"]["failed_runs"] == (0 if code == 0 else 1)


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_mid_run_is_cancelled_with_a_result(sig, code, tmp_path):
    cmd = runtime_cmd(tmp_path, "hang")
    proc = subprocess.Popen(
        [*ITERON, "run", "--output-format", "stream-json", "--runtime-cmd", cmd],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "ITERON_HOME": str(tmp_path)},
    )
    first = proc.stdout.readline()  # the first delta is out: the run is under way
    assert json.loads(first)["type"] == "assistant_text"
    proc.send_signal(sig)
    rest, _ = proc.communicate(timeout=20)
    assert proc.returncode == code
    result = json.loads(rest.splitlines()[-1])
    assert result["outcome"] == "cancelled" and result["exit_code"] == code
    assert result["reason"] == f"interrupted by {signal.Signals(sig).name}"


@pytest.mark.parametrize("broken", ["home_is_a_file", "db_is_not_sqlite"])
def test_an_unopenable_store_fails_the_run_with_one_result(broken, tmp_path):
    if broken == "home_is_a_file":
        home = tmp_path / "file"
        home.write_text("not a directory")
        home = home / "sub"
    else:
        home = tmp_path / "h"
        home.mkdir()
        (home / "iteron.db").write_bytes(b"this is not an SQLite database" * 100)
    for fmt in ("json", "stream-json", "text"):
        r = iteron("run", "--output-format", fmt, home=home)
        assert r.returncode == 1
        assert len(r.stderr.decode().strip().splitlines()) == 1
        assert "store_unavailable" in r.stderr.decode()
        if fmt == "text":
            assert r.stdout == b""
        else:
            (line,) = r.stdout.splitlines()  # exactly one object, the result (O6)
            result = json.loads(line)
            assert (result["type"], result["outcome"], result["exit_code"]) == (
                "result",
                "failed",
                1,
            )
            assert result["error"]["code"] == "store_unavailable"
    r = iteron("--sessions", home=home)
    assert r.returncode == 1
    assert json.loads(r.stdout)["error"]["code"] == "store_unavailable"
