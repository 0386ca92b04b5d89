"""A resident run's submission gate: it wraps the run's source (the run engine reads
through it) and owns the run's receipts. A submission is forwarded to a runtime that
takes them, or decided by the server; either way exactly one lifecycle record naming
its id reaches the run's trace, before the run ends. The gate also carries a client's
cancel (interrupt, disconnect, shutdown) into the source.
"""

from __future__ import annotations

import secrets
import signal
import threading
from collections.abc import Callable, Iterator

import orjson

from scrubline import exits
from scrubline._core import count_lines
from scrubline.foreign import Foreign
from scrubline.runtime import Batch, Child

#: The four lifecycle record types (E5); each names one submission.
LIFECYCLE = (
    "steer_submission_applied",
    "control_submission_applied",
    "approval_resolved",
    "submission_rejected",
)
#: Bytes that mark a line the gate must read (the rest pass untouched).
_MARKS = (b"submission", b"approval_resolved", b"run_end")
#: The prefix of the ids this server issues (never a recorded trace's own).
ID_PREFIX = "sq-"
#: The exit code in the result of a run the client (or the server) cancelled.
INTERRUPTED = exits.BY_SIGNAL[signal.SIGINT]


def new_submission_id() -> str:
    return ID_PREFIX + secrets.token_hex(12)


def _line(obj: dict) -> bytes:
    return orjson.dumps(obj) + b"\n"


def _split(block: bytes) -> list[bytes]:
    """The lines of a block, each with its ``\n`` (the last may lack it)."""
    lines = [x + b"\n" for x in block.split(b"\n")]
    lines[-1] = lines[-1][:-1]
    return [x for x in lines if x]


class SubmissionGate:
    """The source of one resident run, as the run engine sees it (``inner`` is the
    source it wraps; ``ending`` is set when the gate ended the run)."""

    def __init__(self, inner, run_id: str) -> None:
        self.inner = inner
        self.run_id = run_id
        self.label = getattr(inner, "label", "")
        self.ending: dict | None = None
        self._lock = threading.Lock()
        #: submission id → kind, for every id issued to this run and not yet receipted.
        self._pending: dict[str, str] = {}
        self._receipted: set[str] = set()
        #: Lifecycle lines the server decided, waiting to enter the trace.
        self._decided: list[bytes] = []
        self._cancel: tuple[str, int] | None = None
        self._interrupt: str | None = None
        self._next_line = 1
        self.closed = False
        #: Submissions for a runtime not started yet, in order.
        self._started = False
        self._outgoing: list[bytes] = []

    # ── the server's side (any thread) ──

    @property
    def takes_submissions(self) -> bool:
        """A ``--runtime-cmd`` process reads submissions on its stdin; a recorded trace,
        an agent CLI's stream and the built-in model runtime do not."""
        return isinstance(self.inner, Child) and not isinstance(self.inner, Foreign)

    def submit(self, kind: str, payload: dict) -> tuple[str, Callable[[], None]]:
        """Issue a submission id (pending from now on) and what applies it: forward it to
        a runtime that takes submissions (the runtime writes the lifecycle record), or
        let the server decide (an interrupt is applied, anything else rejected). The
        caller runs the second only after the id's response is queued, so no lifecycle
        event can overtake the receipt."""
        sid = new_submission_id()
        with self._lock:
            if self.closed or self._cancel is not None:
                raise RuntimeError("the run has ended")
            self._pending[sid] = kind

        def apply() -> None:
            with self._lock:
                if sid not in self._pending:
                    return  # settled meanwhile (the run ended)
                if kind == "control" and payload.get("control") == "interrupt":
                    self._interrupt = sid
                    if self._cancel is None:
                        why = f"interrupted by the client (submission {sid})"
                        self._cancel = (why, INTERRUPTED)
                    return
                if not self.takes_submissions:
                    self._reject(sid, "this run's source takes no submissions")
                    return
                line = orjson.dumps({"type": kind, "submission_id": sid, **payload})
                if not self._started:  # the runtime starts on the run's thread
                    self._outgoing.append(line)
                    return
            self.inner.submit(line)

        return sid, apply

    def cancel(self, reason: str, exit_code: int = INTERRUPTED) -> None:
        """End the run: its source stops at the next poll, pending submissions are
        rejected, the result says ``cancelled`` with ``reason``."""
        with self._lock:
            if self._cancel is None:
                self._cancel = (reason, exit_code)

    @property
    def cancelled(self) -> bool:
        return self._cancel is not None

    # ── the run engine's side (the run's thread) ──

    def _reject(self, sid: str, reason: str) -> None:
        """Under the lock: the server's rejection of a pending submission."""
        self._pending.pop(sid, None)
        self._receipted.add(sid)
        self._decided.append(
            _line({"type": "submission_rejected", "submission_id": sid, "reason": reason})
        )

    def _take_decided(self) -> bytes:
        with self._lock:
            out, self._decided = b"".join(self._decided), []
        return out

    def _settle(self, why: str, interrupted: bool = False) -> bytes:
        """Every pending submission gets its lifecycle record now (the run ends); an
        interrupt is applied only when it is what ended the run."""
        with self._lock:
            if interrupted and self._interrupt in self._pending:
                sid = self._interrupt
                del self._pending[sid]
                self._receipted.add(sid)
                self._decided.append(
                    _line(
                        {
                            "type": "control_submission_applied",
                            "submission_id": sid,
                            "control": "interrupt",
                        }
                    )
                )
            for sid in list(self._pending):
                self._reject(sid, why)
            self.closed = True
        return self._take_decided()

    def _filter(self, block: bytes) -> bytes:
        """Lifecycle records of a live runtime: the first for an issued id passes, any
        other naming an id this server issued becomes a notice (exactly one receipt per
        submission). Before a ``run_end``, every pending submission is settled."""
        out: list[bytes] = []
        for raw in _split(block):
            if not any(m in raw for m in _MARKS):
                out.append(raw)
                continue
            try:
                obj = orjson.loads(raw)
            except orjson.JSONDecodeError:
                out.append(raw)  # the boundary names the bad line
                continue
            ty = obj.get("type") if isinstance(obj, dict) else None
            if ty == "run_end":
                out.append(self._settle("the run ended before the submission was applied"))
                out.append(raw)
                continue
            sid = obj.get("submission_id") if ty in LIFECYCLE else None
            if not (isinstance(sid, str) and sid.startswith(ID_PREFIX)):
                out.append(raw)  # a recorded trace's own history, or not a receipt
                continue
            with self._lock:
                first = sid in self._pending
                if first:
                    del self._pending[sid]
                    self._receipted.add(sid)
            if first:
                out.append(raw)
            else:
                text = f"The runtime reported {ty} for {sid}, which has its receipt already."
                if sid not in self._receipted:
                    text = f"The runtime reported {ty} for {sid}, which is not this run's."
                out.append(_line({"type": "notice", "code": "submission_unmatched", "text": text}))
        return b"".join(out)

    def batches(self, stop: Callable[[], bool]) -> Iterator[Batch]:
        def halted() -> bool:
            return stop() or self._cancel is not None

        try:
            if self.takes_submissions:
                if self.inner.proc is None:
                    self.inner.start()
                with self._lock:
                    self._started = True
                    for line in self._outgoing:
                        self.inner.submit(line)
                    self._outgoing = []
            for first, block in self.inner.batches(halted):
                if decided := self._take_decided():
                    yield first, decided
                if any(m in block for m in _MARKS):
                    block = self._filter(block)
                self._next_line = first + count_lines(block)
                yield first, block
                if self._cancel is not None:
                    break
        except Exception:
            # A source that fails still settles its submissions first.
            if settled := self._settle("the run failed before the submission was applied"):
                yield self._next_line, settled
            raise
        why = "the run ended before the submission was applied"
        if self._cancel is not None:
            why = f"the run was cancelled: {self._cancel[0]}"
        if settled := self._settle(why, interrupted=self._cancel is not None):
            yield self._next_line, settled
        if self._cancel is not None:
            reason, code = self._cancel
            self.ending = {"outcome": "cancelled", "reason": reason, "exit_code": code}

    def unsettled(self) -> list[tuple[str, str]]:
        """The submissions still pending when the run engine ends the run without asking
        its source (a limit, a bad line): each is rejected by the engine, with this."""
        why = "the run stopped before the submission was applied"
        with self._lock:
            out = [(sid, why) for sid in self._pending]
            self._receipted.update(self._pending)
            self._pending.clear()
            self.closed = True
        return out

    def stop(self) -> None:
        with self._lock:
            self.closed = True
        if hasattr(self.inner, "stop"):
            self.inner.stop()

    def pending(self) -> int:
        with self._lock:
            return len(self._pending)
