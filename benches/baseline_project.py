"""The run boundary of docs/projection.md in plain Python and orjson: parse a trace line,
redact it, write its record, project the record onto a schema version, and end with the
result. A benchmark baseline for the Rust boundary and the oracle of its differential tests.

python benches/baseline_project.py [--schema-version N] [--max-turn-tokens N] < trace.jsonl
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, BinaryIO

import orjson

import scrubline

MAX_LINE = 8 * 1024 * 1024
MAX_DEPTH = 128
MAX_OUTPUT = 64 * 1024
VERSIONS = (4, 5, 6, 8)
# fmt: off
COMPONENTS = (
    "stable_prefix_tokens", "instruction_tokens", "task_context_tokens", "memory_tokens",
    "transcript_tokens", "attachment_tokens", "tool_schema_tokens", "tool_result_tokens",
    "lsp_result_tokens",
)
# fmt: on
# The submission records below v8 (E5): (notice text, the field in it, its bound in chars).
STEER_TEXT = "A steering submission was received (schema 8 has the receipt)."
E5_NOTICES = {
    "approval_resolved": ("An approval decision was recorded: {}.", "decision", 64),
    "steer_submission_applied": (STEER_TEXT, None, 0),
    "control_submission_applied": ("A control submission was received: {}.", "control", 64),
    "submission_rejected": ("A submission was rejected: {}.", "reason", 200),
}
WORKFLOW = frozenset(
    f"workflow_{t}"
    for t in ("start", "plan", "phase", "agent_start", "agent_activity", "agent_end", "end")
)
# Records published field by field: the fields, in order (absent: null or DEFAULTS).
FIELDS: dict[str, tuple[str, ...]] = {
    "assistant_delta": ("text",),
    "thinking_delta": ("text",),
    "input_attachment": ("ordinal", "media_type", "encoded_bytes"),
    "phase": ("phase",),
    "tool_start": ("call_id", "tool", "title", "input", "needs_approval"),
    "tool_end": ("call_id", "status", "outcome", "output", "output_truncated"),
    "approval_request": ("request_id", "call_id"),
    "steer_applied": ("text",),
    "notice": ("code", "text"),
    "approval_resolved": ("request_id", "submission_id", "decision"),
    "steer_submission_applied": ("submission_id", "text"),
    "control_submission_applied": ("submission_id", "control"),
    "submission_rejected": ("submission_id", "reason"),
    "run_end": ("outcome", "reason"),
}
RENAMED = {"assistant_delta": "assistant_text", "thinking_delta": "thinking", "run_end": "run_done"}
DEFAULTS = {"input": {}, "needs_approval": False}
ENGINE_KEYS = ("seq", "turn", "type")  # the engine assigns them; a trace's own are dropped
LATENCIES = ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us")
NOT_ACTIVITY = frozenset({"run_start", "cost", "run_end"})
OUTCOMES = frozenset({"done", "drained", "failed", "cancelled"})
EXIT_CODES = {"done": 0, "drained": 0, "failed": 1, "cancelled": 1, "limit": 3}
NO_PRICE = "no authoritative price evidence in the runtime trace"
NO_RUN_END = "the runtime trace ended without run_end"
BAD_LINE = "the runtime trace has a bad line"
LIMIT_TEXT = "Stopped at limits.turnTokens ({}). Raise it or split the work."
REFUSED_TEXT = "Artifact refused: this boundary keeps no artifact store ({} refused so far)."

Record = tuple[int, int, str, bytes]


def scrub_value(value: Any) -> Any:
    """Every string value scrubbed whole, at any depth; keys and numbers kept."""
    if isinstance(value, str):
        return scrubline.scrub(value)
    if isinstance(value, list):
        return [scrub_value(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub_value(v) for k, v in value.items()}
    return value


def nesting(value: Any) -> int:
    """How deep objects and arrays nest in `value` (a top-level object is 1)."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= MAX_DEPTH:
        v, depth = stack.pop()
        children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            stack.extend((c, depth + 1) for c in children)
    return deepest


def parse(line: bytes, line_no: int) -> dict[str, Any] | None:
    """One trace line as an event; None for a blank line; ValueError names the line."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ValueError(f"line {line_no}: longer than 8 MiB ({len(line)} bytes)")
    if not line.strip():
        return None
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"line {line_no}: not valid JSON: {e}") from None
    if not isinstance(event, dict):
        raise ValueError(f"line {line_no}: not a JSON object")
    if not isinstance(event.get("type"), str):
        raise ValueError(f"line {line_no}: no string type")
    if nesting(event) >= MAX_DEPTH:
        raise ValueError(f"line {line_no}: nested {MAX_DEPTH} levels or deeper")
    return event


def turn_numbers(event: dict[str, Any], line_no: int | None = None) -> dict[str, int]:
    """The usage, context and component counts of a turn_end (missing = 0), checked (E4)."""
    where = f"line {line_no}: turn_end" if line_no is not None else "turn_end"

    def obj(v: Any) -> Any:
        return {} if v is None else v  # null is as good as absent

    usage, context = obj(event.get("usage")), obj(event.get("context"))
    components = obj(context.get("components")) if isinstance(context, dict) else {}
    numbers: dict[str, int] = {}
    for name, obj, keys in (
        ("usage", usage, ("input", "output")),
        ("context", context, ("estimated_tokens",)),
        ("context.components", components, COMPONENTS),
    ):
        if not isinstance(obj, dict):
            raise ValueError(f"{where} {name} is not an object")
        for key in keys:
            value = obj.get(key, 0)
            if type(value) is not int or value < 0:
                raise ValueError(f"{where} {name}.{key} is not a non-negative integer")
            numbers[key] = value
    if sum(numbers[k] for k in COMPONENTS) > numbers["estimated_tokens"]:
        raise ValueError(f"{where} context components sum past context.estimated_tokens")
    return numbers


def submission_text(record: dict[str, Any]) -> str:
    """The E5 notice that stands for a submission record below v8: no id, no "applied"."""
    template, key, limit = E5_NOTICES[record["type"]]
    if key is None:
        return template
    value = record.get(key)
    return template.format(value[:limit] if isinstance(value, str) else "unknown")


def project(record: dict[str, Any], version: int) -> dict[str, Any] | None:
    """The published line of a record for `version`, or None. Stateless (docs/projection.md)."""
    kind, get = record["type"], record.get
    fields: dict[str, Any]
    if kind in ("assistant_delta", "thinking_delta") and not get("text"):
        return None  # nothing released: recorded, never published
    if kind == "input_attachment" and version < 5:
        return None  # E3: v4 stays as it was
    if kind in E5_NOTICES and version < 8:
        kind, fields = "notice", {"code": "submission", "text": submission_text(record)}
    elif kind in FIELDS:
        fields = {k: get(k, DEFAULTS.get(k)) for k in FIELDS[kind]}
        if kind == "tool_start":
            if fields["input"] is None:
                fields["input"] = {}
            if not isinstance(fields["needs_approval"], bool):
                fields["needs_approval"] = False
    elif kind == "turn_end":
        n = turn_numbers(record)
        context: dict[str, Any] = {"estimated_tokens": n["estimated_tokens"]}
        if version >= 6:
            context["components"] = {k: n[k] for k in COMPONENTS}
        fields = {"usage": {"input": n["input"], "output": n["output"]}, "context": context}
    elif kind in WORKFLOW:
        # A trace field that would collide with the line's own head is not published.
        fields = {k: v for k, v in record.items() if k not in (*ENGINE_KEYS, "schema_version")}
    else:  # run_start, cost, tool_output_delta, unknown types
        return None
    kind = RENAMED.get(kind, kind)
    head = {"type": kind, "schema_version": version, "seq": record["seq"], "turn": record["turn"]}
    return head | fields


class ToolStream:
    """One tool call's output: its scrubber and the gathered, bounded scrubbed text."""

    __slots__ = ("call_id", "parts", "scrubber", "size", "truncated")

    def __init__(self, call_id: Any) -> None:
        self.call_id = scrub_value(call_id)
        self.scrubber = scrubline.Scrubber()
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False

    def gather(self, text: str) -> None:
        if not text or self.truncated:
            return
        data = text.encode()
        room = MAX_OUTPUT - self.size
        if len(data) > room:
            # Cut at a character boundary: drop a partial UTF-8 sequence at the end.
            text = data[:room].decode("utf-8", "ignore")
            self.truncated = True
        self.parts.append(text)
        self.size += len(text.encode())


class BaselineBoundary:
    """One run: `admit` each trace line, then `finish` once. Both return the records
    written, as (seq, turn, type, record JSON), and the published JSONL bytes."""

    def __init__(self, version: int, run_id: str, max_turn_tokens: int | None = None) -> None:
        if version not in VERSIONS:
            raise ValueError(f"unsupported schema version {version}")
        self.version, self.run_id, self.max_turn_tokens = version, run_id, max_turn_tokens
        self.seq, self.turn = 0, 1
        # One scrubber per stream; tool streams are keyed by the raw call_id (any JSON value).
        self.streams = {
            "assistant_delta": scrubline.Scrubber(),
            "thinking_delta": scrubline.Scrubber(),
        }
        self.tools: dict[bytes, ToolStream] = {}
        self.answer: list[str] = []
        self.active_turns: set[int] = set()
        self.attachments = self.refused = 0
        self.cost_usd: int | float | None = None
        self.estimated_tokens = 0
        # The run_end fields once written (trace run_end or a limit): later lines are ignored.
        self.end: dict[str, Any] | None = None
        self.finished = False
        self._records: list[Record] = []
        self._out = bytearray()

    def admit(self, line: bytes, line_no: int) -> tuple[list[Record], bytes]:
        if self.finished:
            raise RuntimeError("the run is finished")
        if self.end is None:
            event = parse(line, line_no)
            if event is not None:
                self._admit(event, line_no)
        return self._take()

    def finish(
        self,
        outcome: str | None = None,
        reason: str | None = None,
        error: dict[str, Any] | None = None,
        exit_code: int | None = None,
        kernel_tax: dict[str, int] | None = None,
    ) -> tuple[list[Record], bytes]:
        if self.finished:
            raise RuntimeError("the run is finished")
        self.finished = True
        if error is not None:
            error = {**error, "message": scrub_value(error.get("message"))}
        if self.end is None:
            if outcome is None:
                outcome, reason = "failed", NO_RUN_END if reason is None else reason
            message = error["message"] if error is not None else None
            self._end_run({"outcome": outcome, "reason": scrub_value(reason), "error": message})
        assert self.end is not None
        outcome = self.end["outcome"]
        if error is None and isinstance(self.end.get("error"), str):
            error = {"code": "runtime_error", "message": self.end["error"], "line": None}
        result: dict[str, Any] = {
            "schema_version": self.version,
            "type": "result",
            "outcome": outcome,
            "reason": self.end.get("reason"),
            "success": outcome in ("done", "drained"),
            "assistant_text": "".join(self.answer),
            "run_id": self.run_id,
            "cost_usd": self.cost_usd,
            "cost_status": "unknown" if self.cost_usd is None else "reported",
            "cost_reason": NO_PRICE if self.cost_usd is None else None,
            "turns": len(self.active_turns),
        }
        if self.version >= 5:
            result["kernel_tax"] = kernel_tax or dict.fromkeys(LATENCIES, 0) | {
                "estimated_tokens": self.estimated_tokens,
                "failed_runs": int(outcome == "failed"),
            }
        result["exit_code"] = EXIT_CODES[outcome] if exit_code is None else exit_code
        result["error"] = error
        self._out += orjson.dumps(result) + b"\n"
        return self._take()

    # -- admission -------------------------------------------------------------------------

    def _admit(self, event: dict[str, Any], line_no: int) -> None:
        kind = event["type"]
        if kind == "artifact_produced":  # only the engine writes handles (A2)
            event = {**event, "type": "untrusted", "trace_type": kind}
            kind = "untrusted"
        numbers = turn_numbers(event, line_no) if kind == "turn_end" else None
        if kind == "run_end" and event.get("outcome") not in OUTCOMES:
            raise ValueError(f"line {line_no}: run_end outcome is not one of {sorted(OUTCOMES)}")
        if kind not in NOT_ACTIVITY:
            self.active_turns.add(self.turn)
        fields = {k: v for k, v in event.items() if k not in ENGINE_KEYS}

        if kind in ("assistant_delta", "thinking_delta", "tool_output_delta"):
            text = fields.get("text")
            text = text if isinstance(text, str) else ""
            if kind == "tool_output_delta":
                tool = self._tool(fields.get("call_id"))
                released = tool.scrubber.feed(text)
                tool.gather(released)
            else:
                released = self.streams[kind].feed(text)
            fields = scrub_value({k: v for k, v in fields.items() if k != "text"})
            fields["text"] = released
            self._write(kind, fields)
        elif kind == "tool_end":
            tool = self.tools.pop(orjson.dumps(fields.get("call_id")), None)
            if tool is not None:
                self._release_tool(tool)
            fields = scrub_value(
                {k: v for k, v in fields.items() if k not in ("output", "output_truncated")}
            )
            output = "".join(tool.parts) if tool else ""
            self._write(
                kind, fields | {"output": output, "output_truncated": bool(tool and tool.truncated)}
            )
        elif kind == "input_attachment":
            self.attachments += 1
            data = fields.get("data_b64")
            if data is not None and not isinstance(data, str):
                raise ValueError(f"line {line_no}: input_attachment.data_b64 must be a string")
            rest = scrub_value(fields)
            head = {
                "ordinal": self.attachments,
                "media_type": rest.get("media_type"),
                "encoded_bytes": len(data.encode()) if isinstance(data, str) else 0,
                "filename": rest.get("filename"),
            }
            dropped = (*head, "data_b64")  # the bytes are never recorded, only their size
            self._write(kind, head | {k: v for k, v in rest.items() if k not in dropped})
        elif kind == "artifact":
            given = [k for k in ("content_b64", "content_text") if fields.get(k) is not None]
            if len(given) != 1 or not isinstance(fields[given[0]], str):
                raise ValueError(
                    f"line {line_no}: artifact needs exactly one of content_b64 and content_text"
                )
            self.refused += 1
            text = REFUSED_TEXT.format(self.refused)
            self._write("notice", {"code": "artifact_refused", "text": text})
        elif kind == "turn_end":
            assert numbers is not None
            self._end_turn_streams()
            self._write(kind, scrub_value(fields))
            self.estimated_tokens = numbers["estimated_tokens"]
            limit = self.max_turn_tokens
            over = limit is not None and numbers["input"] + numbers["output"] > limit
            if over:  # the notice belongs to the turn that went over
                self._write("notice", {"code": "limit", "text": LIMIT_TEXT.format(limit)})
            self.turn += 1
            if over:
                self._end_run({"outcome": "limit", "reason": "limits.turnTokens", "error": None})
        elif kind == "run_end":
            self._end_run(scrub_value(fields))
        else:
            if kind == "cost":
                usd = fields.get("usd")
                if isinstance(usd, int | float) and not isinstance(usd, bool) and usd >= 0:
                    self.cost_usd = usd
            self._write(kind, scrub_value(fields))

    def _tool(self, call_id: Any) -> ToolStream:
        key = orjson.dumps(call_id)
        if key not in self.tools:
            self.tools[key] = ToolStream(call_id)
        return self.tools[key]

    def _end_turn_streams(self) -> None:
        """End the assistant and thinking streams: their held text becomes engine records."""
        for kind, stream in self.streams.items():
            text = stream.flush()
            if text:
                self._write(kind, {"text": text})

    def _release_tool(self, tool: ToolStream) -> None:
        text = tool.scrubber.flush()
        if text:
            tool.gather(text)
            self._write("tool_output_delta", {"call_id": tool.call_id, "text": text})

    def _end_run(self, fields: dict[str, Any]) -> None:
        """Every stream ends, then the run_end record (the trace's or the engine's)."""
        self._end_turn_streams()
        for tool in self.tools.values():
            self._release_tool(tool)
        self.tools.clear()
        self._write("run_end", fields)
        self.end = fields

    def _write(self, kind: str, fields: dict[str, Any]) -> None:
        self.seq += 1
        record = {"seq": self.seq, "turn": self.turn, "type": kind} | fields
        self._records.append((self.seq, self.turn, kind, orjson.dumps(record)))
        if kind == "assistant_delta":
            self.answer.append(record["text"])  # the answer is exactly what was published
        line = project(record, self.version)
        if line is not None:
            self._out += orjson.dumps(line) + b"\n"

    def _take(self) -> tuple[list[Record], bytes]:
        records, out = self._records, bytes(self._out)
        self._records, self._out = [], bytearray()
        return records, out


def project_stream(
    infile: BinaryIO,
    outfile: BinaryIO,
    version: int,
    max_turn_tokens: int | None = None,
    run_id: str = "baseline",
) -> int:
    """Project a whole trace; returns the result's exit code. A bad line ends the run as
    failed with exit 65, keeping everything admitted before it."""
    boundary = BaselineBoundary(version, run_id, max_turn_tokens)
    for line_no, line in enumerate(infile, 1):
        try:
            _, out = boundary.admit(line, line_no)
        except ValueError as e:
            error = {"code": "bad_input", "message": str(e), "line": line_no}
            _, out = boundary.finish("failed", BAD_LINE, error=error, exit_code=65)
            outfile.write(out)
            return 65
        outfile.write(out)
        if boundary.end is not None:
            break
    _, out = boundary.finish()
    outfile.write(out)
    return orjson.loads(out.splitlines()[-1])["exit_code"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema-version", type=int, default=8, choices=VERSIONS)
    parser.add_argument("--max-turn-tokens", type=int, default=None)
    args = parser.parse_args()
    out = sys.stdout.buffer
    sys.exit(project_stream(sys.stdin.buffer, out, args.schema_version, args.max_turn_tokens))


if __name__ == "__main__":
    main()
