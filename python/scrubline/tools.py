"""The built-in runtime's tools: ``bash``, ``read_file``, ``write_file``, run in the
working directory with bounded output and a timeout. Each returns what the model reads
back; whether a call may run at all is decided before (``scrubline.permissions``).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Output a tool hands back (to the model and to the trace), at most; the rest is counted.
MAX_OUTPUT = 64 << 10
#: A ``bash`` command runs at most this long (seconds) before its process group is killed.
BASH_TIMEOUT = 120.0

#: The tools as the model sees them (OpenAI ``tools`` parameter).
SPECS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a bash command in the working directory; returns its "
            "combined stdout and stderr and exit status.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file (a path relative to the working directory).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": "Create or overwrite a text file with the given content.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                "required": ["path", "content"],
            },
        },
    },
]
NAMES = frozenset(s["function"]["name"] for s in SPECS)


@dataclass
class Call:
    """A call the model asked for, checked: ``error`` is set when it cannot run as asked
    (unknown tool, arguments that are not a JSON object, a missing argument)."""

    tool: str
    input: dict[str, Any]
    error: str | None = None

    @property
    def title(self) -> str:
        """What the call does, in one line: the command or the path (what a
        ``permission.allowlist`` pattern is matched against)."""
        key = "command" if self.tool == "bash" else "path"
        value = self.input.get(key)
        return value if isinstance(value, str) else self.tool

    def needs_approval(self, cwd: Path) -> bool:
        """A command, a write, or a read outside the working directory needs a dialog."""
        if self.tool != "read_file":
            return True
        return not _inside(cwd, self.input.get("path"))


def check(tool: str, input_: Any) -> Call:
    if not isinstance(input_, dict):
        return Call(tool, {}, "the arguments are not a JSON object")
    if tool not in NAMES:
        return Call(
            tool, input_, f"unknown tool {tool!r}; the tools are {', '.join(sorted(NAMES))}"
        )
    spec = next(s["function"] for s in SPECS if s["function"]["name"] == tool)
    for name in spec["parameters"]["required"]:
        if not isinstance(input_.get(name), str):
            return Call(tool, input_, f"argument {name!r} (a string) is missing")
    return Call(tool, input_)


@dataclass
class Output:
    text: str
    ok: bool


def run(call: Call, cwd: Path, stop: Callable[[], bool], timeout: float = BASH_TIMEOUT) -> Output:
    """Run a checked call; its output bounded to MAX_OUTPUT bytes."""
    if call.error is not None:
        return Output(f"error: {call.error}", False)
    if call.tool == "bash":
        return _bash(call.input["command"], cwd, stop, timeout)
    path = cwd / call.input["path"]
    try:
        if call.tool == "read_file":
            with open(path, "rb") as f:
                data = f.read(MAX_OUTPUT + 1)
            return Output(_bounded(data, len(data) if len(data) <= MAX_OUTPUT else None), True)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = call.input["content"].encode("utf-8", "replace")
        path.write_bytes(data)
        return Output(f"wrote {len(data)} bytes to {call.input['path']}", True)
    except OSError as e:
        return Output(f"error: {e.strerror or e}: {call.input['path']}", False)


def _bash(command: str, cwd: Path, stop: Callable[[], bool], timeout: float) -> Output:
    try:
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as e:
        return Output(f"error: cannot run bash: {e}", False)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    kept: list[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    why = None
    while True:
        if stop():
            why = "stopped by a signal"
        elif time.monotonic() > deadline:
            why = f"timed out after {timeout:g} s"
        if why is not None:
            _kill(proc)
            break
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        if size < MAX_OUTPUT + 1:
            kept.append(chunk[: MAX_OUTPUT + 1 - size])
        size += len(chunk)
    proc.stdout.close()
    status = proc.wait()
    text = _bounded(b"".join(kept), size if size <= MAX_OUTPUT else None, size)
    if text and not text.endswith("\n"):
        text += "\n"
    if why is not None:
        return Output(f"{text}[{why}]", False)
    return Output(f"{text}[exit status {status}]", status == 0)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=1.0)
            return
        except subprocess.TimeoutExpired:
            continue


def _bounded(data: bytes, whole: int | None, total: int | None = None) -> str:
    """At most MAX_OUTPUT bytes as text, cut at a character boundary, with a note of what
    was left out."""
    if whole is not None:
        return data.decode("utf-8", "replace")
    text = data[:MAX_OUTPUT].decode("utf-8", "ignore")
    more = f"{total - MAX_OUTPUT} more bytes" if total is not None else "the rest"
    return f"{text}\n[output cut at {MAX_OUTPUT} bytes; {more} not shown]"


def _inside(cwd: Path, path: Any) -> bool:
    if not isinstance(path, str):
        return False
    try:
        return (cwd / path).resolve().is_relative_to(cwd.resolve())
    except (OSError, ValueError):
        return False
