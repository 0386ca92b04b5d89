"""Runtime sources: where a run's trace lines come from (CONTRACT §1).

A source yields batches of ``(line_number, line_bytes)``: what is available now, so the
run can make the whole batch durable with one commit before emitting it. Reads are
bounded (a line over 8 MiB is refused without being held), and a source polls a stop
flag so a signal ends a run promptly even while the runtime is silent.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import BinaryIO

from scrubline.errors import TraceError

#: The bound on one trace line, newline excluded (trace.md).
MAX_LINE = 8 << 20
#: Lines per batch when the source never blocks (a replayed file).
BATCH = 256

Batch = list[tuple[int, bytes]]


class RuntimeFailed(Exception):
    """The runtime process died, hung or misbehaved; the run ends as failed (exit 1)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def too_long(line_no: int) -> TraceError:
    return TraceError(f"trace line {line_no}: line exceeds {MAX_LINE} bytes", line_no)


class Replay:
    """A recorded trace file (``--replay``), or the bundled demo."""

    def __init__(self, path: Path | None = None, stream: BinaryIO | None = None) -> None:
        self.path = path
        self.stream = stream
        self.label = str(path) if path else "stdin"

    @classmethod
    def demo(cls) -> Replay:
        ref = resources.files("scrubline") / "data" / "demo.trace.jsonl"
        with resources.as_file(ref) as p:
            return cls(Path(p))

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        f = self.stream if self.stream is not None else open(self.path, "rb")  # noqa: SIM115
        try:
            n = 0
            batch: Batch = []
            while True:
                line = f.readline(MAX_LINE + 2)
                if not line:
                    break
                n += 1
                if line.endswith(b"\n"):
                    line = line[:-1]
                    if line.endswith(b"\r"):
                        line = line[:-1]
                if len(line) > MAX_LINE:
                    if batch:
                        yield batch
                    raise too_long(n)
                batch.append((n, line))
                if len(batch) >= BATCH:
                    yield batch
                    batch = []
                    if stop():
                        return
            if batch:
                yield batch
        finally:
            if self.stream is None:
                f.close()


class Child:
    """A runtime process (``--runtime-cmd``): trace on its stdout, submissions on its
    stdin, its stderr passed through to ours (diagnostics)."""

    def __init__(self, cmd: str, timeout: float | None, prompt: str | None = None) -> None:
        self.cmd = cmd
        self.timeout = timeout
        self.prompt = prompt
        self.label = cmd
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the runtime. The prompt reaches it twice: as ``SCRUBLINE_PROMPT`` in its
        environment and as the first submission on its stdin, ``{"type":"prompt",…}``."""
        env = dict(os.environ)
        if self.prompt is not None:
            env["SCRUBLINE_PROMPT"] = self.prompt
        try:
            self.proc = subprocess.Popen(
                shlex.split(self.cmd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                start_new_session=True,
            )
        except OSError as e:
            raise RuntimeFailed("runtime_failed", f"cannot start the runtime: {e}") from None
        if self.prompt is not None:
            self.submit(json.dumps({"type": "prompt", "text": self.prompt}).encode())

    def submit(self, line: bytes) -> None:
        """Write one submission line to the runtime's stdin (best effort: it may be gone)."""
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.rstrip(b"\n") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout if self.timeout else None
        buf = bytearray()
        n = 0
        while not stop():
            wait = 0.1
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeFailed(
                        "runtime_timeout",
                        f"the runtime did not finish within --timeout {self.timeout:g} s",
                    )
                wait = min(wait, left)
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                if buf:
                    n += 1
                    yield [(n, bytes(buf))]
                return
            buf += chunk
            batch: Batch = []
            start = 0
            while (nl := buf.find(b"\n", start)) >= 0:
                n += 1
                batch.append((n, bytes(buf[start:nl]).rstrip(b"\r")))
                start = nl + 1
            del buf[:start]
            if len(buf) > MAX_LINE:
                if batch:
                    yield batch
                raise too_long(n + 1)
            if batch:
                yield batch

    def exit_status(self, wait: float = 2.0) -> int | None:
        """The runtime's exit status once it has exited (waiting up to ``wait`` s)."""
        if self.proc is None:
            return None
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """End the runtime: SIGTERM to its process group, SIGKILL a second later."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for sig, grace in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                continue
