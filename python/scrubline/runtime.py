"""Runtime sources: where a run's trace lines come from (docs/contract.md §1).

A source yields batches of ``(first_line_number, block)``: the whole lines available
now, so the run can make the whole batch durable with one commit before emitting it. Reads are
bounded (a line over 8 MiB is refused without being held), and a source polls a stop
flag so a signal ends a run promptly even while the runtime is silent.
"""

from __future__ import annotations

import io
import json
import os
import select
import shlex
import signal
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from scrubline import _core
from scrubline._core import count_lines
from scrubline.errors import ScrublineError, TraceError

#: The bound on one trace line, newline excluded (docs/trace.md), as the core keeps it.
MAX_LINE: int = _core.MAX_LINE
#: One read of a trace file: a batch is what one read brought (one commit each).
FILE_CHUNK = 1 << 18
#: One read of a pipe: what is available, at most this much.
PIPE_CHUNK = 1 << 16

#: ``(first_line_no, block)``: the whole lines one read brought, each ended by ``\n``
#: (only the input's last line may lack it), split by the boundary (``admit_block``).
Batch = tuple[int, bytes]


class RuntimeFailed(ScrublineError):
    """The runtime process died, hung or misbehaved; the run ends as failed (exit 1)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class RuntimeLimit(ScrublineError):
    """The runtime stopped at a budget of its own (``--max-turns``, the model's output
    limit); the run ends with outcome ``limit`` (exit 3) and this reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def too_long(max_line: int, line_no: int) -> TraceError:
    return TraceError(f"trace line {line_no}: line exceeds {max_line} bytes", line_no)


class Replay:
    """A recorded trace file (``--replay``), or the bundled demo."""

    def __init__(self, path: Path | None = None, stream: BinaryIO | None = None) -> None:
        self.path = path
        self.stream = stream
        self.label = str(path) if path else "stdin"

    @classmethod
    def demo(cls) -> Replay:
        from importlib import resources  # only for the demo: not on every start

        ref = resources.files("scrubline") / "data" / "demo.trace.jsonl"
        with resources.as_file(ref) as p:
            return cls(Path(p))

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        """Every complete line that has arrived, as soon as it has arrived: a live pipe
        is a stream (each read yields what it brought), a file is read in large reads
        (fewer, larger batches: fewer commits). The start of a line whose newline has
        not come is held, bounded by MAX_LINE."""
        f = self.stream if self.stream is not None else open(self.path, "rb")  # noqa: SIM115
        try:
            yield from _lines(_reader(f, stop), stop)
        finally:
            if self.stream is None:
                f.close()


def _reader(f: BinaryIO, stop: Callable[[], bool]) -> Callable[[], bytes]:
    """A read of what is available now (b"" at the end, or once ``stop`` is set). A
    pipe or terminal is read by its descriptor, polled, so a signal ends the run while
    the writer is silent (the stream must be unread: nothing is buffered in ``f``)."""
    read1 = getattr(f, "read1", f.read)
    try:
        fd = f.fileno()
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        regular = True  # no descriptor (an in-memory stream): it never blocks
    if regular:
        return lambda: read1(FILE_CHUNK)

    def read() -> bytes:
        while not stop():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                return os.read(fd, PIPE_CHUNK)
        return b""

    return read


def _lines(
    read: Callable[[], bytes], stop: Callable[[], bool], max_line: int = MAX_LINE
) -> Iterator[Batch]:
    n = 0  # lines yielded so far
    held: list[bytes] = []  # a line's start, its newline not yet read
    held_len = 0
    while chunk := read():
        if b"\n" not in chunk:
            held.append(chunk)
            held_len += len(chunk)
            if held_len > max_line + 1:  # one more byte could be the \r of \r\n
                raise too_long(max_line, n + 1)
            continue
        data = b"".join([*held, chunk]) if held else chunk
        # A line ends at \n; one \r before it goes too (a \r\n split across reads
        # meets again in ``data``, the held start has no \n).
        if b"\r" in data:  # rare: skip a byte-by-byte pass when there is none
            data = data.replace(b"\r\n", b"\n")
        cut = data.rfind(b"\n") + 1
        block, tail = (data, b"") if cut == len(data) else (data[:cut], data[cut:])
        held, held_len = ([tail], len(tail)) if tail else ([], 0)
        if len(block) > max_line:  # rare (a long read): is one of its lines too long?
            lines = block.split(b"\n")
            bad = next((i for i, x in enumerate(lines) if len(x) > max_line), None)
            if bad is not None:
                if bad:
                    yield n + 1, b"".join(x + b"\n" for x in lines[:bad])
                raise too_long(max_line, n + bad + 1)
        yield n + 1, block
        n += count_lines(block)
        if stop():
            return
        if held_len > max_line + 1:
            raise too_long(max_line, n + 1)
    if held and not stop():  # the end of the input, not a stop: the last line
        last = b"".join(held)
        if len(last) > max_line:
            raise too_long(max_line, n + 1)
        yield n + 1, last


def lines_of(batch: Batch) -> list[tuple[int, bytes]]:
    """A batch as numbered lines (for a caller that takes them one by one)."""
    first, block = batch
    lines = block.split(b"\n")
    if block.endswith(b"\n"):
        lines.pop()
    return list(enumerate(lines, first))


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

        def read() -> bytes:
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
                if ready:
                    return os.read(fd, PIPE_CHUNK)
            return b""

        yield from _lines(read, stop)

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
