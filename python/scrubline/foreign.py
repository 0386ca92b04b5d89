"""Foreign agent streams (docs/agents.md): ``--from claude-code|codex|gemini`` puts a
translator (``_core.Translator``, one per tool in the Rust core) between a source's lines
and the run boundary; ``--runtime`` starts the agent CLI itself in its streaming JSON mode.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

from scrubline._core import Scrubber, Translator
from scrubline.runtime import PIPE_CHUNK, Batch, Child, Replay, RuntimeFailed

FOREIGN = ("claude-code", "codex", "gemini")
FROM_CHOICES = ("trace", *FOREIGN)
#: The executable each ``--runtime`` looks for on PATH.
EXECUTABLE = {"claude-code": "claude", "codex": "codex", "gemini": "gemini"}
#: After our SIGINT/SIGTERM reached the agent, how long its last lines are still read.
GRACE_S = 5.0
#: Translated batches waiting for the boundary (the translator runs one batch ahead).
AHEAD = 4
_END = object()


def agent_argv(tool: str, path: str, prompt: str, extra: list[str]) -> list[str]:
    """The command line that runs ``tool`` on ``prompt`` in its streaming JSON mode;
    ``extra`` (what followed ``--``) goes to the CLI unchanged."""
    if tool == "claude-code":
        return [path, "-p", prompt, "--output-format", "stream-json", "--verbose", *extra]
    if tool == "codex":
        return [path, "exec", "--json", *extra, "--", prompt]
    if tool == "gemini":
        return [path, "-p", prompt, "--output-format", "stream-json", *extra]
    raise ValueError(f"unknown foreign tool {tool!r}")


class AgentProcess(Child):
    """A foreign agent CLI: its JSONL on stdout; stdin closed (no approval protocol is
    spoken); its stderr scrubbed as a stream before it reaches ours."""

    def __init__(
        self,
        argv: list[str],
        timeout: float | None,
        literals: list[str],
        label: str | None = None,
    ) -> None:
        super().__init__(label or " ".join(argv), timeout)
        self.argv = argv
        self.literals = literals
        self._stderr: threading.Thread | None = None

    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as e:
            raise RuntimeFailed("runtime_failed", f"cannot start {self.argv[0]}: {e}") from None
        self._stderr = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stderr.start()

    def _pump_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        scrubber = Scrubber(literals=self.literals)
        fd = self.proc.stderr.fileno()
        out = sys.stderr.buffer
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(fd, PIPE_CHUNK):
                if data := scrubber.feed_bytes(chunk):
                    out.write(data)
                    out.flush()
            out.write(scrubber.flush_bytes())
            out.flush()

    def exit_evidence(self, wait: float = 2.0) -> tuple[int | None, int | None]:
        """``(exit_code, signal)`` once the agent has exited; its stderr is drained."""
        status = self.exit_status(wait)
        if self._stderr is not None:
            self._stderr.join(timeout=1.0)
        if status is None:
            return None, None
        return (None, -status) if status < 0 else (status, None)


class Foreign:
    """A source of foreign lines (a replay, stdin, a ``--runtime-cmd`` child or an agent
    CLI) seen through its tool's translator: it yields canonical trace batches, and at
    the end the outcome the evidence gives (``ending``, for ``Boundary.finish``)."""

    def __init__(self, source: Replay | Child, tool: str, literals: list[str]) -> None:
        self.source = source
        self.tool = tool
        self.label = source.label
        self.translator = Translator(tool, literals=literals)
        self.ending: dict | None = None
        self._lines = 0  # canonical lines yielded so far
        self._batch_first = 1  # the canonical number of the last batch's first line
        self._signalled_at: float | None = None

    @property
    def child(self) -> Child | None:
        return self.source if isinstance(self.source, Child) else None

    def halted(self, stop: Callable[[], bool]) -> Callable[[], bool]:
        """When the run must stop reading. A child first gets our signal and GRACE_S to
        write its last lines (its own result); a replay stops at once."""
        if self.child is None:
            return stop

        def halt() -> bool:
            if not stop():
                return False
            if self._signalled_at is None:
                self._signalled_at = time.monotonic()
                self._forward(getattr(stop, "signum", None) or signal.SIGTERM)
            return time.monotonic() - self._signalled_at > GRACE_S

        return halt

    def _forward(self, signum: int) -> None:
        """Pass our SIGINT/SIGTERM on to the child's process group."""
        proc = self.child.proc if self.child is not None else None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signum)

    def foreign_line(self, canonical: int) -> int | None:
        """The foreign line a canonical line of the last batch came from."""
        return self.translator.origin(canonical - self._batch_first)

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        """The translated batches. Reading and translating run on their own thread (the
        core releases the interpreter), a few batches ahead of the boundary: the two
        overlap. Whatever the thread raises is raised here."""
        ahead: queue.Queue = queue.Queue(maxsize=AHEAD)
        closed = threading.Event()

        def put(item: object) -> bool:
            while not closed.is_set():
                try:
                    ahead.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        def produce() -> None:
            try:
                for batch in self._translated(stop):
                    if not put(batch):
                        return
                put(_END)
            except BaseException as e:
                put(e)

        worker = threading.Thread(target=produce, name="scrubline-translate", daemon=True)
        worker.start()
        try:
            while (item := ahead.get()) is not _END:
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            closed.set()

    def _translated(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        for first, block in self.source.batches(stop):
            if out := self.translator.translate(block, first):
                yield self._number(out)
        if stop():  # the grace ran out: no exit evidence to wait for
            exit_code, sig = None, None
        elif isinstance(self.child, AgentProcess):
            exit_code, sig = self.child.exit_evidence()
        elif self.child is not None:
            status = self.child.exit_status()
            exit_code, sig = (
                (None, -status) if status is not None and status < 0 else (status, None)
            )
        else:
            exit_code, sig = None, None
        out, outcome, reason, error, code = self.translator.finish(exit_code=exit_code, signal=sig)
        self.ending = {"outcome": outcome, "reason": reason, "exit_code": code}
        if error is not None:
            self.ending["error"] = (error[0], error[1], None)
        if outcome == "failed":
            self.ending["failed_runs"] = 1
        if out:
            yield self._number(out)

    def _number(self, block: bytes) -> Batch:
        first = self._lines + 1
        self._batch_first = first
        self._lines += block.count(b"\n")
        return first, block

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()
