"""The output formats of a run (O1). ``stream-json`` writes every projected line once it
is durable; ``json`` writes only the result; ``text`` is the run for a person: the answer
as it streams, one line per finished tool, notices and the outcome, colours only on a
terminal. Text is rendered from the same redacted records the store holds, so it can show
nothing the store would not.
"""

from __future__ import annotations

from typing import BinaryIO, TextIO

import orjson

from scrubline.store import Record


class StreamSink:
    """stream-json: every projected line as it becomes durable, the result last."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        if data:
            self.out.write(data[0] if len(data) == 1 else b"".join(data))
            self.out.flush()

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.out.write(data)
        self.out.flush()


class JsonSink:
    """json: exactly one object, the result."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        pass

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.out.write(result + b"\n")
        self.out.flush()


_MARK = {"completed": "✓", "failed": "✗", "denied": "⊘"}


class TextSink:
    def __init__(self, out: TextIO, color: bool | None = None) -> None:
        self.out = out
        self.color = out.isatty() if color is None else color
        self.tools: dict[str, tuple[str, str]] = {}
        self.mid_line = False

    def _style(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def _line(self, text: str) -> None:
        if self.mid_line:
            self.out.write("\n")
            self.mid_line = False
        self.out.write(text + "\n")

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        for _seq, _turn, kind, body in records:
            self._record(kind, body)
        self.out.flush()

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.batch(records, [])
        r = orjson.loads(result)
        if self.mid_line:
            self.out.write("\n")
            self.mid_line = False
        if r["outcome"] not in ("done", "drained"):
            why = f": {r['reason']}" if r.get("reason") else ""
            self._line(self._style("1;31", f"run {r['outcome']}{why}"))
        self.out.flush()

    def _record(self, kind: str, body: bytes) -> None:
        if kind == "assistant_delta":
            text = orjson.loads(body).get("text") or ""
            if text:
                self.out.write(text)
                self.mid_line = not text.endswith("\n")
            return
        if kind not in ("tool_start", "tool_end", "notice", "approval_request", "run_end"):
            return
        ev = orjson.loads(body)
        if kind == "tool_start":
            self.tools[str(ev.get("call_id"))] = (str(ev.get("tool")), str(ev.get("title") or ""))
        elif kind == "tool_end":
            tool, title = self.tools.pop(str(ev.get("call_id")), ("tool", ""))
            status = str(ev.get("status"))
            mark = _MARK.get(status, "·")
            colour = "32" if status == "completed" else "33"
            label = f"{tool}: {title}" if title else tool
            self._line(self._style(colour, f"  {mark} {label} ({status})"))
        elif kind == "notice":
            self._line(self._style("33", f"! {ev.get('text')}"))
        elif kind == "approval_request":
            self._line(self._style("33", f"? approval requested for {ev.get('call_id')}"))
