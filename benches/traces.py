"""Seeded runtime traces (docs/trace.md) for the run-boundary benchmarks.

A run is turns of about 200 events each: thinking and assistant deltas of 20-200
characters, tool calls whose output streams in deltas (most a few hundred bytes, some
1-4 KiB), approvals, notices, workflow events and submissions, each turn closed by a
valid `turn_end`; the run ends with `cost` and `run_end`. Credentials are planted across
delta boundaries (two or three pieces) in the assistant, thinking and tool-output
streams, and whole in tool inputs, so a correct boundary redacts exactly `planted` of
them. The same seed gives the same bytes.

python benches/traces.py N OUT     # write an N-event trace to OUT (JSONL)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from corpus import filler

#: Planted credentials: none of them may reach a published line or the store.
CREDENTIALS = (
    "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e",
    "AKIAL6O7XOD53ERXOLQB",
    "xoxb-815467859869-4970042357028-fbuvmHEdPXrW2EfY3ARlMvsn",
    "sk_live_51HqZx2Lr8Yc4Vb6Nm0Pq3Ws5Et7Ry9Uk",
    "npm_Zx9Cv8Bn7Mm6Ll5Kk4Jj3Hh2Gg1Ff0Dd9Ss8",
)
CONTEXTS = ("GITHUB_TOKEN=", "the key ", "export AWS_ACCESS_KEY_ID=", "token: ", "`")
# fmt: off
ANSWER = (
    "The test failed because `load_config` used `setdefault`, which only fills a missing key. ",
    "I replaced it with an explicit `None` check in src/app/config.py and reran the suite. ",
    "The retry loop in `http/client.py` never resets its backoff, so the third attempt waits 8 s. ",
    "Café-grade fix: move the parsing step after the body is loaded → the handler sees the form. ",
    "All 128 tests pass now ✓; the flaky one was ordering-dependent (it read a global cache). ",
    "Next I will add a regression test that posts a form with a large attachment.\n\n",
    "```python\nif data.get(\"timeout\") is None:\n    data[\"timeout\"] = 30\n```\n",
    "- `src/app/config.py`: default applied when the value is null\n"
    "- `tests/test_config.py`: new case\n",
)
THOUGHT = (
    "The stack trace points at the session middleware; check the order of the parsers. ",
    "Maybe the cache key includes the tenant; read `cache.py` before changing anything. ",
    "Run only the failing test first, then the whole suite to see whether it is flaky. ",
    "If the fixture writes `timeout: null` the default never applies — that matches the log. ",
    "I should not print the environment file again; it had credentials in it last time. ",
)
COMMANDS = (
    "python -m pytest tests/test_config.py -x -q", "git diff --stat", "rg -n setdefault src/",
    "cat src/app/config.py", "ls -la", "python -m pytest -q", "git log --oneline -5",
)
TOOLS = ("bash", "read", "edit", "grep", "write")
WORKFLOW_STEPS = (
    "workflow_start", "workflow_plan", "workflow_phase", "workflow_agent_start",
    "workflow_agent_activity", "workflow_agent_end", "workflow_end",
)
COMPONENTS = (
    "stable_prefix_tokens", "instruction_tokens", "task_context_tokens", "memory_tokens",
    "transcript_tokens", "attachment_tokens", "tool_schema_tokens", "tool_result_tokens",
    "lsp_result_tokens",
)
# fmt: on
TURN_EVENTS = (150, 250)  # a turn_end every ~200 events
PNG_B64 = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def _stream(rng: random.Random, pool: tuple[str, ...]) -> Iterator[str]:
    """Endless text from sentences of `pool` (or agent output when pool is empty)."""
    while True:
        yield rng.choice(pool) if pool else filler(rng)


class _Text:
    """Pieces of a stream's text, cut at code points, of sizes the caller asks for."""

    def __init__(self, rng: random.Random, pool: tuple[str, ...]) -> None:
        self.src = _stream(rng, pool)
        self.buf = ""

    def take(self, n: int) -> str:
        while len(self.buf) < n:
            self.buf += next(self.src)
        piece, self.buf = self.buf[:n], self.buf[n:]
        return piece


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.answer = _Text(self.rng, ANSWER)
        self.thought = _Text(self.rng, THOUGHT)
        self.output = _Text(self.rng, ())
        self.planted = 0
        self.calls = 0
        self.workflow = 0
        self.submissions = 0
        self.cred = 0

    def credential(self) -> str:
        self.cred += 1
        self.planted += 1
        return CREDENTIALS[self.cred % len(CREDENTIALS)]

    def split_in(self, pieces: list[str]) -> list[str]:
        """Plant one credential across the boundary after a random piece, in two or three
        pieces (the middle one short), with a word boundary on both sides."""
        rng = self.rng
        cred = self.credential()
        i = rng.randrange(len(pieces) - 1)
        cuts = sorted(rng.sample(range(1, len(cred)), rng.choice((1, 2))))
        parts = [cred[a:b] for a, b in zip([0, *cuts], [*cuts, len(cred)], strict=True)]
        pieces[i] = f"{pieces[i]} {rng.choice(CONTEXTS)}{parts[0]}"
        tail = f"{parts[-1]} {pieces[i + 1]}"
        return [*pieces[: i + 1], *parts[1:-1], tail, *pieces[i + 2 :]]

    def deltas(self, kind: str, text: _Text, n: int, secret: float) -> list[dict]:
        pieces = [text.take(self.rng.randint(20, 200)) for _ in range(n)]
        if n >= 2 and self.rng.random() < secret:
            pieces = self.split_in(pieces)
        return [{"type": kind, "text": p} for p in pieces]

    def tool(self) -> list[dict]:
        rng = self.rng
        self.calls += 1
        cid = f"call_{self.calls}"
        command = rng.choice(COMMANDS)
        title = f"Run {command}"
        if rng.random() < 0.02:
            command = f"curl -H 'Authorization: token {self.credential()}' https://api.example"
            title = "Query the API"
        needs = rng.random() < 0.05
        evs: list[dict] = [
            {
                "type": "tool_start",
                "call_id": cid,
                "tool": rng.choice(TOOLS),
                "title": title,
                "input": {"command": command, "cwd": "/srv/app", "timeout_s": 120},
                "needs_approval": needs,
            }
        ]
        if needs:
            req = f"req_{self.calls}"
            self.submissions += 1
            evs.append({"type": "approval_request", "request_id": req, "call_id": cid})
            evs.append(
                {
                    "type": "approval_resolved",
                    "request_id": req,
                    "submission_id": f"sub_{self.submissions}",
                    "decision": "approved",
                }
            )
        pieces = []
        for _ in range(rng.randint(1, 10)):
            size = rng.randint(1024, 4096) if rng.random() < 0.15 else rng.randint(60, 600)
            pieces.append(self.output.take(size))
        if len(pieces) >= 2 and rng.random() < 0.15:
            pieces = self.split_in(pieces)
        evs += [{"type": "tool_output_delta", "call_id": cid, "text": p} for p in pieces]
        status = rng.choices(("completed", "failed"), (9, 1))[0]
        outcome = "ok" if status == "completed" else "failed"
        evs.append({"type": "tool_end", "call_id": cid, "status": status, "outcome": outcome})
        return evs

    def workflow_event(self) -> list[dict]:
        step = WORKFLOW_STEPS[self.workflow % len(WORKFLOW_STEPS)]
        wf = f"wf_{self.workflow // len(WORKFLOW_STEPS)}"
        self.workflow += 1
        ev: dict = {"type": step, "workflow_id": wf, "text": self.thought.take(60)}
        if "agent" in step:
            ev["agent_id"] = "tester-1"
        if step == "workflow_plan":
            ev["steps"] = ["tests/test_config.py", "tests/"]
        if step == "workflow_phase":
            ev["phase"] = "testing"
        if step.endswith("_end"):
            ev["status"] = "completed"
        return [ev]

    def submission(self) -> list[dict]:
        self.submissions += 1
        sub = f"sub_{self.submissions}"
        kind = self.rng.randrange(3)
        if kind == 0:
            text = "Don't edit the .env files; fix it in the loader."
            return [
                {"type": "steer_submission_applied", "submission_id": sub, "text": text},
                {"type": "steer_applied", "text": text},
            ]
        if kind == 1:
            return [
                {"type": "control_submission_applied", "submission_id": sub, "control": "pause"}
            ]
        reason = "steering arrived after the turn was sealed"
        return [{"type": "submission_rejected", "submission_id": sub, "reason": reason}]

    def block(self) -> list[dict]:
        """One burst of activity within a turn."""
        rng = self.rng
        kind = rng.choices(
            ("answer", "thought", "tool", "phase", "notice", "workflow", "submission", "attach"),
            (30, 14, 30, 2, 2, 4, 1, 0.2),
        )[0]
        if kind == "answer":
            return self.deltas("assistant_delta", self.answer, rng.randint(3, 20), 0.12)
        if kind == "thought":
            return self.deltas("thinking_delta", self.thought, rng.randint(3, 12), 0.06)
        if kind == "tool":
            return self.tool()
        if kind == "phase":
            return [{"type": "phase", "phase": rng.choice(("planning", "executing", "verifying"))}]
        if kind == "notice":
            text = "Context is 80% full; older tool results will be summarised."
            return [{"type": "notice", "code": "context", "text": text}]
        if kind == "workflow":
            return self.workflow_event()
        if kind == "submission":
            return self.submission()
        name = f"screenshot-{self.calls}.png"
        return [
            {"type": "input_attachment", "media_type": "image/png", "data_b64": PNG_B64,
             "filename": name}
        ]  # fmt: skip

    def turn_end(self) -> dict:
        rng = self.rng
        parts = [rng.randint(0, 3000) for _ in COMPONENTS]
        estimated = sum(parts) + rng.randint(0, 500)
        return {
            "type": "turn_end",
            "usage": {"input": estimated, "output": rng.randint(50, 2000)},
            "context": {
                "estimated_tokens": estimated,
                "components": dict(zip(COMPONENTS, parts, strict=True)),
            },
        }

    def fill(self) -> dict:
        return {"type": "assistant_delta", "text": self.answer.take(self.rng.randint(20, 200))}


def generate(n_events: int, seed: int = 1) -> tuple[list[bytes], int]:
    """An `n_events`-line trace (no newlines) and how many credentials it plants."""
    if n_events < 3:
        raise ValueError("a trace needs at least run_start, one event and run_end")
    g = _Gen(seed)
    events: list[dict] = [
        {"type": "run_start", "agent": "bench", "model": "bench-coder-1", "prompt": "Fix it."}
    ]
    body = n_events - 2  # run_start ... cost, run_end
    turn, next_end = 1, g.rng.randint(*TURN_EVENTS)
    while len(events) < body:
        if len(events) >= next_end:
            events.append(g.turn_end())
            turn += 1
            next_end = len(events) + g.rng.randint(*TURN_EVENTS)
            continue
        planted = g.planted
        block = g.block()
        if len(events) + len(block) > body:  # a block never straddles the end
            g.planted = planted
            events.append(g.fill())
        else:
            events += block
    events.append({"type": "cost", "usd": round(0.0004 * turn, 4), "source": "provider:bench"})
    events.append({"type": "run_end", "outcome": "done", "reason": "answered"})
    assert len(events) == n_events
    return [orjson.dumps(e) for e in events], g.planted


def make_trace(n_events: int, seed: int = 1) -> list[bytes]:
    """An `n_events`-line runtime trace as JSON lines without their newlines."""
    return generate(n_events, seed)[0]


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: python benches/traces.py N OUT")
    n, out = int(sys.argv[1]), Path(sys.argv[2])
    lines, planted = generate(n)
    out.write_bytes(b"\n".join(lines) + b"\n")
    size = out.stat().st_size
    print(f"{out}: {n} events, {size / 1e6:.1f} MB, {planted} credentials planted")


if __name__ == "__main__":
    main()
