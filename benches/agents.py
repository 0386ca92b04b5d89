"""`scrubline project --from claude-code` against the same content in scrubline's own
trace format (docs/benchmarks.md, "Foreign streams").

The Claude Code stream is generated in the shape `claude -p --output-format stream-json
--verbose` writes: an `init` line, one `assistant` line per content block (thinking with
its signature, text, tool_use) each carrying the message envelope and its usage, `user`
tool results with the duplicate `tool_use_result`, `system/thinking_tokens` lines, and a
terminal `result`. The native trace is the translator's own output for that stream, so
both commands publish the same lines. Credentials are planted in text, thinking, tool
inputs and tool results; neither output may contain one.

python benches/agents.py [--events 100000] [--rounds 5] [--seed 1]
python benches/agents.py --write FOREIGN NATIVE   # only write the two traces
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from corpus import filler
from scrubline._core import Translator
from traces import ANSWER, COMMANDS, CREDENTIALS, THOUGHT

SCRUBLINE = Path(sys.executable).parent / "scrubline"
SESSION = "4e3453f9-129a-4da9-bc25-a287453d58d9"


def _usage(rng: random.Random) -> dict:
    return {
        "input_tokens": rng.randint(1, 9),
        "cache_creation_input_tokens": rng.randint(100, 8000),
        "cache_read_input_tokens": rng.randint(10000, 40000),
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 553},
        "output_tokens": rng.randint(1, 400),
        "service_tier": "standard",
        "inference_geo": "not_available",
    }


def claude_stream(events: int, seed: int) -> list[bytes]:
    """`events` lines of a Claude Code stream-json run (the last is its `result`)."""
    rng = random.Random(seed)
    n = 0
    lines: list[bytes] = []

    def put(obj: dict) -> None:
        nonlocal n
        n += 1
        obj.setdefault("session_id", SESSION)
        obj["uuid"] = f"{rng.getrandbits(128):032x}"
        lines.append(orjson.dumps(obj))

    def text(pool: tuple[str, ...], lo: int, hi: int) -> str:
        out = ""
        while len(out) < lo:
            out += rng.choice(pool) if pool else filler(rng)
        return out[: rng.randint(lo, hi)]

    def cred() -> str:
        return rng.choice(CREDENTIALS)

    def assistant(msg_id: str, block: dict, usage: dict) -> None:
        put(
            {
                "type": "assistant",
                "message": {
                    "model": "claude-sonnet-4-6",
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "content": [block],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage,
                    "context_management": None,
                },
                "parent_tool_use_id": None,
            }
        )

    put(
        {
            "type": "system",
            "subtype": "init",
            "cwd": "/srv/app",
            "tools": ["Task", "Bash", "Edit", "Read", "Write", "WebFetch"] * 5,
            "mcp_servers": [],
            "model": "claude-sonnet-4-6",
            "permissionMode": "bypassPermissions",
            "slash_commands": ["review", "debug"] * 8,
            "apiKeySource": "ANTHROPIC_API_KEY",
            "claude_code_version": "2.1.178",
            "plugins": [{"name": "p", "path": "/home/dev/.claude/plugins/p"}] * 4,
        }
    )
    calls = 0
    while n < events - 1:
        msg_id = f"msg_{rng.getrandbits(64):016x}"
        usage = _usage(rng)
        for _ in range(rng.randint(1, 3)):
            put({"type": "system", "subtype": "thinking_tokens", "estimated_tokens": 39})
        thought = text(THOUGHT, 80, 600)
        if rng.random() < 0.05:
            thought += f" GITHUB_TOKEN={cred()} "
        sig = "".join(rng.choice("ABCDEFabcdef0123456789+/") for _ in range(200))
        assistant(msg_id, {"type": "thinking", "thinking": thought, "signature": sig}, usage)
        answer = text(ANSWER, 40, 400)
        if rng.random() < 0.05:
            answer += f" the key {cred()} "
        assistant(msg_id, {"type": "text", "text": answer}, usage)
        calls += 1
        call = f"toolu_{calls:020d}"
        command = rng.choice(COMMANDS)
        if rng.random() < 0.05:
            command = f"curl -H 'Authorization: token {cred()}' https://api.example"
        block = {
            "type": "tool_use",
            "id": call,
            "name": "Bash",
            "input": {"command": command, "description": "Run the command"},
            "caller": {"type": "direct"},
        }
        assistant(msg_id, block, usage)
        output = text((), 60, 1500)
        if rng.random() < 0.05:
            output += f"\nexport AWS_ACCESS_KEY_ID={cred()}\n"
        put(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "tool_use_id": call,
                            "type": "tool_result",
                            "content": output,
                            "is_error": False,
                        }
                    ],
                },
                "parent_tool_use_id": None,
                "timestamp": "2026-06-25T00:24:00.721Z",
                "tool_use_result": {
                    "stdout": output,
                    "stderr": "",
                    "interrupted": False,
                    "isImage": False,
                },
            }
        )
    del lines[events - 1 :]  # the last cycle may overshoot: the result is line `events`
    put(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 19333,
            "num_turns": calls,
            "result": "Done.",
            "stop_reason": "end_turn",
            "total_cost_usd": 12.5,
            "usage": _usage(rng),
            "permission_denials": [],
            "terminal_reason": "completed",
        }
    )
    return lines


def write(events: int, seed: int, foreign: Path, native: Path) -> None:
    lines = claude_stream(events, seed)
    data = b"\n".join(lines) + b"\n"
    foreign.write_bytes(data)
    t = Translator("claude-code")
    body = t.translate(data, 1)
    # The translator leaves the end to the boundary (`Boundary.finish`); the native trace
    # says it itself.
    end = b'{"type":"run_end","outcome":"done","reason":"completed"}\n'
    native.write_bytes(body + t.finish()[0] + end)


def _output(args: list[str], path: Path) -> bytes:
    with path.open("rb") as f:
        return subprocess.run(args, stdin=f, capture_output=True, check=False).stdout


def _time(args: list[str], path: Path) -> float:
    """Wall time of one run, stdout to /dev/null (as the run-boundary benchmarks)."""
    with path.open("rb") as f:
        t0 = time.perf_counter()
        subprocess.run(args, stdin=f, stdout=subprocess.DEVNULL, check=False)
        return time.perf_counter() - t0


def runs(times: list[float]) -> str:
    return ", ".join(f"{t * 1000:.0f}" for t in times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", nargs=2, metavar=("FOREIGN", "NATIVE"))
    a = ap.parse_args()
    if a.write:
        write(a.events, a.seed, Path(a.write[0]), Path(a.write[1]))
        return
    with tempfile.TemporaryDirectory() as d:
        foreign, native = Path(d) / "claude.jsonl", Path(d) / "native.jsonl"
        write(a.events, a.seed, foreign, native)
        cmds = {
            "native": [str(SCRUBLINE), "project", "--schema-version", "8"],
            "claude-code": [
                str(SCRUBLINE),
                "project",
                "--schema-version",
                "8",
                "--from",
                "claude-code",
            ],
        }
        paths = {"native": native, "claude-code": foreign}
        outs = {k: _output(cmds[k], paths[k]) for k in cmds}  # warm-up and check
        strip = [ln for ln in outs["native"].splitlines() if b'"type":"result"' not in ln]
        assert strip == [
            ln for ln in outs["claude-code"].splitlines() if b'"type":"result"' not in ln
        ]
        for out in outs.values():
            assert not any(c.encode() in out for c in CREDENTIALS), "a credential leaked"
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(a.rounds):
            for k in cmds:  # interleaved: the same machine load for both
                times[k].append(_time(cmds[k], paths[k]))
        med = {k: statistics.median(v) for k, v in times.items()}
        size = {k: paths[k].stat().st_size for k in cmds}
        for k in cmds:
            print(
                f"{k:12} {a.events / med[k]:>10,.0f} events/s  {med[k] * 1000:8.1f} ms  "
                f"({size[k] / 1e6:.1f} MB in; runs {runs(times[k])} ms)"
            )
        print(
            "ratio claude-code / native (median wall time): "
            f"{med['claude-code'] / med['native']:.2f}x"
        )


if __name__ == "__main__":
    main()
