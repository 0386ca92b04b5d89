"""`titah run` (docs/contract.md §7): the result (T3, T4), budget notices (T5), nothing human on
stdout (T6), --json-schema (T7), exit codes in every format (T8), permissions (T9), and
the seed's pipeline verbatim."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scrubline import schema

TITAH = [sys.executable, "-m", "scrubline.cli.titah"]
FORMATS = ("text", "json", "stream-json")
GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"
SHAPE = {
    "type": "object",
    "required": ["failures"],
    "properties": {
        "failures": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"file": {"type": "string"}, "reason": {"type": "string"}},
            },
        }
    },
}


def titah(*args: str, home: Path, cwd: Path | None = None, **env: str):
    return subprocess.run(
        [*TITAH, "run", *args],
        capture_output=True,
        env={**os.environ, "ITERON_HOME": str(home), **env},
        cwd=cwd,
        timeout=60,
        check=False,
    )


def trace(tmp_path: Path, events: list[dict], name: str = "t.jsonl") -> str:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    return str(path)


def answer(text: str, outcome: str = "done", **turn) -> list[dict]:
    return [
        {"type": "run_start", "agent": "build", "model": "9router/ant"},
        {"type": "thinking_delta", "text": "private reasoning"},
        {"type": "assistant_delta", "text": text},
        {
            "type": "turn_end",
            "usage": turn.get("usage", {"input": 100, "output": 20}),
            "context": {"estimated_tokens": 120},
        },
        {"type": "run_end", "outcome": outcome},
    ]


def result_of(r) -> dict:
    lines = r.stdout.splitlines()
    assert lines, r.stderr
    objs = [json.loads(x) for x in lines]  # T6: every stdout line is JSON
    assert objs[-1]["type"] == "result"
    assert sum(o.get("type") == "result" for o in objs) == 1
    return objs[-1]


def test_t3_t4_result_of_the_demo(tmp_path):
    r = titah("--output-format", "json", "fix it", home=tmp_path)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)  # exactly one object
    assert list(res) == ["type", "session", "ok", "agent", "model", "text", "tools", "usage",
                         "notices"]  # fmt: skip
    assert res["ok"] is True and res["agent"] == "iteron-demo"
    assert "The test name says" not in res["text"]  # the answer only, never reasoning
    assert "[REDACTED:github-pat]" in res["text"] and GHP not in r.stdout.decode()
    assert res["usage"] == {"input": 18342 + 19602, "output": 1216 + 188, "context": 19790}
    tools = {t["title"]: t for t in res["tools"]}
    assert tools["Run the failing test"] == {
        "tool": "bash", "title": "Run the failing test", "status": "completed", "outcome": "failed",
    }  # fmt: skip
    # needs_approval without --auto: denied, and said so (T9).
    assert tools["Show the test environment"]["status"] == "denied"
    assert "outcome" not in tools["Show the test environment"]
    assert any(n.startswith("Denied bash (Show the test environment)") for n in res["notices"])
    auto = json.loads(titah("--output-format", "json", "--auto", home=tmp_path).stdout)
    assert {t["status"] for t in auto["tools"]} == {"completed"}
    assert not any(n.startswith("Denied") for n in auto["notices"])


def test_t4_task_with_every_tool_denied_is_completed_but_failed(tmp_path):
    events = [
        {"type": "tool_start", "call_id": "t1", "tool": "task", "title": "qc"},
        {"type": "tool_end", "call_id": "t1", "status": "completed", "outcome": "failed"},
        *answer("qc could not run anything"),
    ]
    res = json.loads(titah("--output-format", "json", "--replay", trace(tmp_path, events),
                           home=tmp_path).stdout)  # fmt: skip
    assert res["tools"] == [
        {"tool": "task", "title": "qc", "status": "completed", "outcome": "failed"}
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_t5_t8_budget_stop_names_the_limit(fmt, tmp_path):
    (tmp_path / "titah.toml").write_text("[limits]\nturnTokens = 400000\n")
    events = answer("partial", usage={"input": 400000, "output": 1})
    r = titah("--output-format", fmt, "--replay", trace(tmp_path, events), home=tmp_path,
              cwd=tmp_path)  # fmt: skip
    assert r.returncode == 3
    text = "Stopped at limits.turnTokens (400000). Raise it or split the work."
    if fmt == "text":
        assert text in r.stdout.decode()
    else:
        res = result_of(r)
        assert res["ok"] is False and text in res["notices"]


# -- T7 --json-schema --------------------------------------------------------------------


def test_t7_seed_pipeline_verbatim(tmp_path):
    (tmp_path / "shape.json").write_text(json.dumps(SHAPE))
    body = {"failures": [{"file": "tests/test_a.py", "reason": "x"}, {"file": "tests/b.py"}]}
    src = trace(tmp_path, answer("```json\n" + json.dumps(body, indent=2) + "\n```"))
    # The seed's two lines, verbatim.
    script = (
        "set -e\n"
        'result=$(titah run --output-format json --auto --json-schema shape.json "…")\n'
        "echo \"$result\" | jq -r '.output.failures[].file'\n"
    )
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "titah").write_text(f"#!/bin/sh\nexec {sys.executable} -m scrubline.cli.titah "
                                  f'"$@" --replay {src}\n')  # fmt: skip
    (bindir / "titah").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "ITERON_HOME": str(tmp_path)}
    r = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                       timeout=60, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == ["tests/test_a.py", "tests/b.py"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_t7_t8_mismatch_is_exit_2_with_path_and_rule(fmt, tmp_path):
    (tmp_path / "shape.json").write_text(json.dumps(SHAPE))
    src = trace(tmp_path, answer(json.dumps({"failures": [{"file": 7}]})))
    r = titah("--output-format", fmt, "--json-schema", "shape.json", "--replay", src,
              home=tmp_path, cwd=tmp_path)  # fmt: skip
    assert r.returncode == 2
    want = "Output does not match --json-schema at $.failures[0].file: type: expected string"
    if fmt == "text":
        assert want in r.stderr.decode()
    else:
        res = result_of(r)
        assert res["ok"] is False and "output" not in res
        assert any(n.startswith(want) for n in res["notices"])


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "42"])
def test_t7_a_schema_that_is_not_a_json_object_is_exit_64_before_the_run(content, tmp_path):
    (tmp_path / "shape.json").write_text(content)
    r = titah("--output-format", "json", "--json-schema", "shape.json", home=tmp_path / "h",
              cwd=tmp_path)  # fmt: skip
    assert r.returncode == 64 and r.stdout == b""
    assert not (tmp_path / "h").exists()  # the run never started


CHECKS = [
    ({"type": "integer"}, 3, None),
    ({"type": "integer"}, 3.0, None),
    ({"type": "integer"}, 3.5, "type: expected integer, got number"),
    ({"type": "number"}, 3, None),
    ({"type": "integer"}, True, "type: expected integer, got boolean"),
    ({"type": "null"}, None, None),
    ({"type": ["string", "null"]}, None, None),
    ({"type": ["string", "null"]}, 1, "type: expected string or null, got integer"),
    ({"enum": ["a", 1]}, "a", None),
    ({"enum": ["a", 1]}, True, "enum: true is not one of"),
    ({"enum": [1]}, 1.0, None),
    ({"required": ["x"]}, {}, "required: missing property 'x'"),
    ({"items": {"type": "string"}}, ["a", 2], "type: expected string, got integer"),
    ({"properties": {"a b": {"type": "string"}}}, {"a b": 1}, "type"),
]


@pytest.mark.parametrize(("shape", "value", "error"), CHECKS)
def test_t7_subset_rules(shape, value, error):
    if error is None:
        schema.check(value, shape)
    else:
        with pytest.raises(schema.Mismatch) as e:
            schema.check(value, shape)
        assert e.value.rule.startswith(error)
    if shape.get("properties"):
        with pytest.raises(schema.Mismatch) as e:
            schema.check(value, shape)
        assert e.value.path == '$["a b"]'


def test_t7_unknown_keywords_are_skipped_not_failed():
    full = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": "#/$defs/nothing",
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": 100, "format": "email", "pattern": "^z"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        },
        "patternProperties": {"^x": {"type": "integer"}},
        "oneOf": [{"required": ["nothing"]}],
        "additionalProperties": False,
    }
    schema.check({"name": "a", "tags": ["x", "x"], "xtra": "s"}, full)
    with pytest.raises(schema.Mismatch) as e:
        schema.check({"tags": []}, full)
    assert (e.value.path, e.value.rule) == ("$", "required: missing property 'name'")


def test_t7_answer_parsing():
    assert schema.parse_answer('  {"a": 1}\n') == {"a": 1}
    assert schema.parse_answer('```json\n{"a": 1}\n```') == {"a": 1}
    assert schema.parse_answer("```\n[1]\n```\n") == [1]
    with pytest.raises(schema.Mismatch):
        schema.parse_answer('Here you go: {"a": 1}')
    with pytest.raises(schema.Mismatch):
        schema.parse_answer('```json\n{"a": 1}\n```\n```json\n{"b": 2}\n```')


# -- T8 exit codes, every format; T9 with a runtime process ----------------------------

RUNTIME = textwrap.dedent(
    """
    import json, os, sys
    def say(**e):
        sys.stdout.write(json.dumps(e) + "\\n"); sys.stdout.flush()
    first = json.loads(sys.stdin.readline())
    say(type="run_start", agent="child", prompt=os.environ.get("SCRUBLINE_PROMPT"),
        stdin_prompt=first.get("text"))
    say(type="tool_start", call_id="c1", tool="bash", title="npm test",
        input={"command": "npm test"}, needs_approval=True)
    decision = json.loads(sys.stdin.readline())
    status = "completed" if decision["decision"] == "approved" else "denied"
    say(type="tool_end", call_id="c1", status=status)
    say(type="notice", text="runtime got " + decision["decision"])
    say(type="assistant_delta", text='{"failures": []}')
    say(type="run_end", outcome="done")
    """
)


@pytest.mark.parametrize(
    ("extra", "config", "decision"),
    [
        ([], "", "denied"),
        (["--auto"], "", "approved"),
        ([], '[permission]\nallowlist = ["bash(npm test)"]\n', "approved"),
        ([], '[permission]\nallowlist = ["bash(npm run *)", "read"]\n', "denied"),
    ],
)
def test_t9_decisions_reach_the_runtime(extra, config, decision, tmp_path):
    (tmp_path / "runtime.py").write_text(RUNTIME)
    (tmp_path / "titah.toml").write_text(config)
    (tmp_path / "shape.json").write_text(json.dumps(SHAPE))
    r = titah("--output-format", "stream-json", "--json-schema", "shape.json", *extra,
              "--runtime-cmd", f"{sys.executable} runtime.py", "list failures",
              home=tmp_path / "h", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    start = next(x for x in lines if x["type"] == "run_start")
    # T7: the shape reached the runtime with the prompt, both ways.
    assert start["prompt"] == start["stdin_prompt"]
    assert start["prompt"].startswith("list failures\n\nAnswer with one JSON value only")
    assert '"required":["failures"]' in start["prompt"]
    res = lines[-1]
    assert f"runtime got {decision}" in res["notices"]
    assert res["tools"][0]["status"] == ("completed" if decision == "approved" else "denied")
    assert res["output"] == {"failures": []}
    assert all({"seq", "turn", "type"} <= set(x) for x in lines[:-1])  # T2: the records


@pytest.mark.parametrize("fmt", FORMATS)
def test_t8_every_exit_code_in_every_format(fmt, tmp_path):
    (tmp_path / "shape.json").write_text(json.dumps({"type": "object"}))
    cases = {
        0: ["--replay", trace(tmp_path, answer("{}"), "ok.jsonl")],
        1: ["--replay", trace(tmp_path, answer("{}", outcome="failed"), "f.jsonl")],
        2: ["--json-schema", "shape.json", "--replay", trace(tmp_path, answer("[]"), "s.jsonl")],
        3: [
            "--replay",
            trace(tmp_path, answer("{}", usage={"input": 10**6, "output": 0}), "l.jsonl"),
        ],
        64: ["--output-schema-version", "8"],
        65: [
            "--replay",
            trace(tmp_path, [{"type": "assistant_delta", "text": "a"}, "x"], "b.jsonl"),
        ],
    }
    (tmp_path / "titah.toml").write_text("[limits]\nturnTokens = 1000\n")
    for code, args in cases.items():
        r = titah("--output-format", fmt, *args, home=tmp_path / "h", cwd=tmp_path)
        assert r.returncode == code, (code, r.stderr)
        if code == 64:
            assert r.stdout == b""
        elif fmt != "text":
            res = result_of(r)
            assert res["ok"] is (code == 0)
            if fmt == "json":
                assert len(r.stdout.splitlines()) == 1
