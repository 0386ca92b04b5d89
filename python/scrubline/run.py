"""One run: runtime source → boundary (Rust: redaction, projection) → durable record →
stdout, ending with the authoritative result (docs/contract.md §1-4).

Every batch of records is committed (fsynced) before its lines are written, so whatever
reached stdout is in the store. Whatever ends the run — the trace's ``run_end``, a
limit, bad input, a dead or hung runtime, SIGINT/SIGTERM — the result is written once,
last.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import orjson

from scrubline import exits
from scrubline._core import Boundary, Scrubber
from scrubline.artifacts import MAX_PER_RUN, ArtifactError, Content, address, decode_content
from scrubline.errors import RunBusy, StoreError, TraceError
from scrubline.foreign import Foreign
from scrubline.runtime import Batch, Child, Replay, RuntimeFailed, RuntimeLimit, lines_of
from scrubline.store import NoStore, Record, SessionStore, new_run_id


@dataclass
class RunOptions:
    #: A recorded trace, a runtime process, a foreign agent stream, or the built-in
    #: model runtime (``scrubline.agent.ModelRuntime``): anything with ``batches(stop)``.
    source: Replay | Child | Foreign | Any
    version: int = 8
    tenant: str = "default"
    tag: str | None = None
    max_turn_tokens: int | None = None
    literals: list[str] = field(default_factory=list)
    prog: str = "iteron"
    #: ``--resume``/``--continue``: the run to append to (its id), else a fresh run.
    resume: str | None = None
    #: Where artifact content is stored (the store's ``content_store``; None: artifacts
    #: are refused, as in a filter).
    content: Content | None = None
    #: ``--scrub-artifacts``: scrub content before hashing and storing it.
    scrub_artifacts: bool = False
    #: Sees every admitted batch of records and may answer with engine records of its
    #: own (titah's permission decisions): ``(records, lines)`` or None.
    observe: Callable[[Boundary, list[Record]], tuple[list[Record], bytes] | None] | None = None
    #: A fresh run's id, chosen by the caller (the App Server answers with it before
    #: the run's first event), else a new one.
    run_id: str | None = None
    #: ``version`` is the resident App Server's (7), not a CLI stream version.
    resident: bool = False


@dataclass
class RunOutcome:
    run_id: str
    exit_code: int
    result: dict


class Sink(Protocol):
    """Where a run's output goes: the machine formats write ``data`` (projected lines),
    text mode renders ``records``. ``end`` gets the last batch and the result."""

    def batch(self, records: list[Record], data: list[bytes]) -> None: ...

    def end(self, records: list[Record], data: bytes, result: bytes) -> None: ...


class _Stop:
    """SIGINT/SIGTERM set a flag; the loop ends the run at the next line or poll."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._old: dict[int, object] = {}

    def __call__(self) -> bool:
        return self.signum is not None

    def _handle(self, signum: int, _frame: object) -> None:
        self.signum = signum

    def __enter__(self) -> _Stop:
        for s in exits.BY_SIGNAL:
            with contextlib.suppress(ValueError):  # not the main thread: no signals to catch
                self._old[s] = signal.signal(s, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for s, old in self._old.items():
            signal.signal(s, old)


def execute(opts: RunOptions, store: SessionStore | NoStore, sink: Sink) -> RunOutcome:
    """Run to the end; every batch is durable before ``sink`` sees it. The run has one
    writer: a run another writer holds ends at once, ``run_busy`` (retryable)."""
    run_id = (opts.run_id or new_run_id()) if opts.resume is None else opts.resume
    try:
        store.claim(run_id)
        run = _Run(opts, store, sink, run_id)
    except (RunBusy, StoreError) as e:
        return _not_started(opts, run_id, e, sink)
    return run.execute()


class _Run:
    """One run in progress: its boundary and artifact gate, and what the result
    measures (admission and fsync time, kernel_tax). ``execute`` pumps the source's
    batches through the boundary into the store and the sink, maps however the source
    ended to the run's finish, and closes the run with its one result."""

    def __init__(
        self, opts: RunOptions, store: SessionStore | NoStore, sink: Sink, run_id: str
    ) -> None:
        """Open the run (create it, or find where a resumed one stands): a ``StoreError``
        here means nothing was stored."""
        self.opts, self.store, self.sink, self.run_id = opts, store, sink, run_id
        if opts.resume is None:
            last_seq, next_turn = 0, 1
            self.fsync_us = store.create_run(run_id, opts.tenant, tag=opts.tag)
        else:
            last_seq, next_turn = store.position(run_id)
            self.fsync_us = 0
        accepted = set() if opts.content is None else store.artifact_hashes(run_id)
        # One rule set for every scrub of the run (D7): the boundary's streams and, with
        # --scrub-artifacts, the stored artifact content.
        rule_set = {"literals": opts.literals}
        self.boundary = Boundary(
            version=opts.version,
            run_id=self.run_id,
            max_turn_tokens=opts.max_turn_tokens,
            last_seq=last_seq,
            next_turn=next_turn,
            artifact_store=opts.content is not None,
            resident=opts.resident,
            **rule_set,
        )
        self.gate = (
            Declarations(
                opts.content,
                accepted,
                Scrubber(**rule_set) if opts.scrub_artifacts else None,
            )
            if opts.content is not None
            else None
        )
        self.admission_ns = 0
        self.run_start: bytes | None = None
        self.keep = not isinstance(store, NoStore)
        self.durable = True
        # A source may wrap another (the App Server's submission gate, ``inner``): how
        # the run ends is judged by the source it wraps.
        self.base = getattr(opts.source, "inner", opts.source)
        self.replayed = isinstance(self.base, Replay) or (
            isinstance(self.base, Foreign) and self.base.child is None
        )
        self.halt: Callable[[], bool] = lambda: False

    def execute(self) -> RunOutcome:
        with _Stop() as stop:
            # A foreign child gets our signal and a grace to write its last lines first.
            self.halt = self.base.halted(stop) if isinstance(self.base, Foreign) else stop
            finish = self._pump(stop)
            if stop() and not finish:
                finish = _cancelled(stop.signum)
            return self._close(finish)

    # -- reading ---------------------------------------------------------------------

    def _pump(self, stop: _Stop) -> dict:
        """Every batch of the source through the boundary, durable, then to the sink;
        how the run ended, as the arguments of ``Boundary.finish``."""
        opts, prog = self.opts, self.opts.prog
        try:
            for batch in opts.source.batches(self.halt):
                records: list[Record] = []
                data: list[bytes] = []
                try:
                    if opts.observe is None:
                        self._admit_batch(batch, records, data)
                    else:
                        self._admit_lines(batch, records, data)
                finally:
                    self._commit(records, data)
                if self.boundary.stopped or self.halt():
                    break
            return self._ending(stop)
        except TraceError as e:
            print(f"{prog}: {e}", file=sys.stderr)
            if self.replayed:
                return {
                    "outcome": "failed",
                    "reason": "the runtime trace has a bad line",
                    "error": ("bad_input", str(e), e.line),
                    "exit_code": exits.BAD_INPUT,
                    "failed_runs": 1,
                }
            return {
                "outcome": "failed",
                "reason": "the runtime wrote a line that is not a trace event",
                "error": ("runtime_bad_output", str(e), e.line),
                "failed_runs": 1,
            }
        except RuntimeLimit as e:
            return {"outcome": "limit", "reason": e.reason}
        except RuntimeFailed as e:
            print(f"{prog}: {e.reason}", file=sys.stderr)
            return {
                "outcome": "failed",
                "reason": e.reason,
                "error": (e.code, e.reason, None),
                "failed_runs": 1,
            }
        except StoreError as e:
            # The store failed mid-run (disk full, the server connection lost): nothing
            # more can be made durable, so nothing more is emitted but the result (O6).
            self.store.abandon()
            self.durable = False
            print(f"{prog}: store_failed: {e}", file=sys.stderr)
            return {
                "outcome": "failed",
                "reason": "the session store failed",
                "error": ("store_failed", f"{e} (retryable)", None),
            }
        finally:
            if not self.replayed:
                opts.source.stop()

    def _ending(self, stop: _Stop) -> dict:
        """How a source that stopped giving batches ended the run."""
        source, base = self.opts.source, self.base
        if stop():
            return _cancelled(stop.signum)
        if base is not source and source.ending is not None:
            return source.ending  # the wrapper ended the run (a client's cancel)
        if isinstance(base, Foreign):
            return base.ending or {}
        if isinstance(base, Child) and not self.boundary.stopped:
            status = base.exit_status()
            return {
                "outcome": "failed",
                "reason": f"the runtime exited with status {status} before run_end",
                "error": ("runtime_failed", "the runtime ended without run_end", None),
                "failed_runs": 1,
            }
        return {}

    def _admit_batch(self, batch: Batch, records: list[Record], data: list[bytes]) -> None:
        """The whole batch through the boundary in as few calls as its artifacts allow.
        Line numbers in a batch are consecutive."""
        boundary = self.boundary
        first, block = batch
        while block and not (boundary.stopped or self.halt()):
            t0 = time.perf_counter_ns()
            n, used, recs, out, err = boundary.admit_block(block, first, records=self.keep)
            first += n
            block = block[used:]
            records.extend(recs)
            if out:
                data.append(out)
            self._declare(records, data)
            self.admission_ns += time.perf_counter_ns() - t0
            if err is not None:
                line = err[0]
                if isinstance(self.base, Foreign):
                    line = self.base.foreign_line(line)
                raise TraceError(err[1], line)

    def _admit_lines(self, batch: Batch, records: list[Record], data: list[bytes]) -> None:
        """Line by line, for an observer that must see each record as it comes."""
        boundary, observe = self.boundary, self.opts.observe
        assert observe is not None
        for line_no, line in lines_of(batch):
            t0 = time.perf_counter_ns()
            before = len(records)
            try:
                recs, lines = boundary.admit(line, line_no)
            finally:
                self.admission_ns += time.perf_counter_ns() - t0
            t0 = time.perf_counter_ns()
            records.extend(recs)
            data.append(lines)
            self._declare(records, data)
            if len(records) > before:
                extra = observe(boundary, records[before:])
                if extra is not None:
                    records.extend(extra[0])
                    data.append(extra[1])
            self.admission_ns += time.perf_counter_ns() - t0
            if boundary.stopped or self.halt():
                break

    def _declare(self, records: list[Record], data: list[bytes]) -> None:
        """An artifact waits for its witness: store it, or refuse it (A2, A3)."""
        if self.gate is not None and (pending := self.boundary.take_artifact()):
            recs, lines, hash_ = self.gate.declare(self.boundary, pending)
            if hash_ is not None:
                self.store.add_artifact(self.run_id, recs[0][0], hash_)
            records.extend(recs)
            data.append(lines)

    def _commit(self, records: list[Record], data: list[bytes]) -> None:
        """A batch's records durable in the store, then its lines to the sink (S7)."""
        if records:
            t0 = time.perf_counter_ns()
            self.store.append(self.run_id, records)
            self.admission_ns += time.perf_counter_ns() - t0
            if self.run_start is None:
                self.run_start = next((r[3] for r in records if r[2] == "run_start"), None)
        self.fsync_us += self.store.commit()
        self.sink.batch(records, data)

    # -- the end ---------------------------------------------------------------------

    def _close(self, finish: dict) -> RunOutcome:
        """The run's last records and its one result: stored, then written last."""
        boundary, store = self.boundary, self.store
        # A source that still holds queued submissions (the App Server's gate, when a
        # limit or a bad line stopped the run before its source ended) has each rejected
        # now: their records go before the run's end, with it.
        late: list[Record] = []
        late_lines = b""
        if self.durable and (unsettled := getattr(self.opts.source, "unsettled", None)):
            for sid, why in unsettled():
                r, out = boundary.submission_rejected(sid, why)
                late += r
                late_lines += out
        recs, lines, result = boundary.finish(
            admission_latency_us=self.admission_ns // 1000,
            record_fsync_latency_us=self.fsync_us,
            **finish,
        )
        recs, lines = late + recs, late_lines + lines
        parsed = orjson.loads(result)
        agent = model = None
        if self.run_start is not None:
            head = orjson.loads(self.run_start)
            agent, model = head.get("agent"), head.get("model")
        if self.durable:
            try:
                store.append(self.run_id, recs)
                store.finish_run(
                    self.run_id,
                    outcome=parsed["outcome"],
                    exit_code=parsed["exit_code"],
                    turns=parsed["turns"],
                    result=result,
                    agent=agent if isinstance(agent, str) else None,
                    model=model if isinstance(model, str) else None,
                )
            except StoreError as e:
                store.abandon()
                self.durable = False
                print(f"{self.opts.prog}: store_failed: {e}", file=sys.stderr)
        if self.durable:
            self.sink.end(recs, lines, result)
        else:
            # The session should not look unfinished: its end goes to the store by
            # another way when there is one (a new connection), else stays unrecorded.
            store.salvage(self.run_id, outcome=parsed["outcome"],
                          exit_code=parsed["exit_code"], result=result)  # fmt: skip
            self.sink.end([], result + b"\n", result)
        return RunOutcome(self.run_id, parsed["exit_code"], parsed)


class Declarations:
    """A run's artifact declarations (A2, A3): at most 256 per run, one per content
    address, each admitted only with a durability witness; every refusal is a notice
    with the running count of its kind, never a silent drop."""

    REASONS: ClassVar[dict[str, str]] = {
        "limit": "the run already declared {max} artifacts",
        "duplicate": "this content address was already declared in this run",
        "unwitnessed": "its content could not be stored and verified",
        "invalid": "its content is not valid base64",
    }

    def __init__(self, content: Content, accepted: set[str], scrubber: Scrubber | None) -> None:
        self.content = content
        self.accepted = accepted
        #: ``--scrub-artifacts``: the run's scrubber (its literals included), else None.
        self.scrubber = scrubber
        self.refused = dict.fromkeys(self.REASONS, 0)

    def declare(self, boundary: Boundary, pending) -> tuple[list[Record], bytes, str | None]:
        b64, text, _fields = pending
        try:
            data = decode_content(b64, text)
        except ArtifactError as e:
            return (*self._refuse(boundary, "invalid", str(e)), None)
        if self.scrubber is not None:
            data = self.scrubber.feed_bytes(data) + self.scrubber.flush_bytes()
        if len(self.accepted) >= MAX_PER_RUN:
            return (*self._refuse(boundary, "limit", ""), None)
        hash_ = address(data)
        if hash_ in self.accepted:
            return (*self._refuse(boundary, "duplicate", hash_), None)
        try:
            witnessed = self.content.put(data)
        except ArtifactError as e:
            return (*self._refuse(boundary, "unwitnessed", f"{e.code}: {e}"), None)
        self.accepted.add(witnessed)
        recs, lines = boundary.artifact_produced(witnessed)
        return recs, lines, witnessed

    def _refuse(self, boundary: Boundary, kind: str, detail: str) -> tuple[list[Record], bytes]:
        self.refused[kind] += 1
        why = self.REASONS[kind].format(max=MAX_PER_RUN)
        detail = f" ({detail})" if detail else ""
        n = self.refused[kind]
        text = f"Artifact refused: {why}{detail}; {n} refused for this reason so far."
        return boundary.notice(f"artifact_refused_{kind}", text)


def _not_started(opts: RunOptions, run_id: str, err: Exception, sink: Sink) -> RunOutcome:
    """The result of a run that could not begin: another writer holds it (``run_busy``)
    or the store failed at its first write (``store_failed``). Nothing was stored."""
    code = err.code if isinstance(err, RunBusy) else "store_failed"
    boundary = Boundary(version=opts.version, run_id=run_id, resident=opts.resident)
    _, _, result = boundary.finish(
        outcome="failed",
        reason=(
            "another process is writing this run (retryable)"
            if code == "run_busy"
            else "the session store failed (retryable)"
        ),
        error=(code, str(err), None),
        failed_runs=0,
    )
    print(f"{opts.prog}: {code}: {err}", file=sys.stderr)
    sink.end([], result + b"\n", result)
    parsed = orjson.loads(result)
    return RunOutcome(run_id, parsed["exit_code"], parsed)


def _cancelled(signum: int | None) -> dict:
    name = signal.Signals(signum).name if signum else "a signal"
    return {
        "outcome": "cancelled",
        "reason": f"interrupted by {name}",
        "exit_code": exits.BY_SIGNAL.get(signum, exits.BY_SIGNAL[signal.SIGINT]),
    }
