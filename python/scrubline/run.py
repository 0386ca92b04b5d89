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
        if opts.resume is None:
            last_seq, next_turn = 0, 1
            fsync_us = store.create_run(run_id, opts.tenant, tag=opts.tag)
        else:
            last_seq, next_turn = store.position(run_id)
            fsync_us = 0
        accepted = set() if opts.content is None else store.artifact_hashes(run_id)
    except (RunBusy, StoreError) as e:
        return _not_started(opts, run_id, e, sink)
    # One rule set for every scrub of the run (D7): the boundary's streams and, with
    # --scrub-artifacts, the stored artifact content.
    rule_set = {"literals": opts.literals}
    boundary = Boundary(
        version=opts.version,
        run_id=run_id,
        max_turn_tokens=opts.max_turn_tokens,
        last_seq=last_seq,
        next_turn=next_turn,
        artifact_store=opts.content is not None,
        resident=opts.resident,
        **rule_set,
    )
    gate = (
        Declarations(
            opts.content,
            accepted,
            Scrubber(**rule_set) if opts.scrub_artifacts else None,
        )
        if opts.content is not None
        else None
    )
    admission_ns = 0
    finish: dict = {}
    run_start: bytes | None = None
    # A source may wrap another (the App Server's submission gate, ``inner``): how the
    # run ends is judged by the source it wraps.
    base = getattr(opts.source, "inner", opts.source)
    replayed = isinstance(base, Replay) or (isinstance(base, Foreign) and base.child is None)

    def emit(records: list[Record], data: list[bytes]) -> None:
        nonlocal fsync_us
        fsync_us += store.commit()
        sink.batch(records, data)

    def declare(records: list[Record], data: list[bytes]) -> None:
        """An artifact waits for its witness: store it, or refuse it (A2, A3)."""
        if gate is not None and (pending := boundary.take_artifact()):
            recs, lines, hash_ = gate.declare(boundary, pending)
            if hash_ is not None:
                store.add_artifact(run_id, recs[0][0], hash_)
            records.extend(recs)
            data.append(lines)

    def admit_batch(batch: Batch, records: list[Record], data: list[bytes]) -> None:
        """The whole batch through the boundary in as few calls as its artifacts allow.
        Line numbers in a batch are consecutive."""
        nonlocal admission_ns
        first, block = batch
        while block and not (boundary.stopped or halt()):
            t0 = time.perf_counter_ns()
            n, used, recs, out, err = boundary.admit_block(block, first, records=keep)
            first += n
            block = block[used:]
            records.extend(recs)
            if out:
                data.append(out)
            declare(records, data)
            admission_ns += time.perf_counter_ns() - t0
            if err is not None:
                line = err[0]
                if isinstance(base, Foreign):
                    line = base.foreign_line(line)
                raise TraceError(err[1], line)

    def admit_lines(batch: Batch, records: list[Record], data: list[bytes]) -> None:
        """Line by line, for an observer that must see each record as it comes."""
        nonlocal admission_ns
        for line_no, line in lines_of(batch):
            t0 = time.perf_counter_ns()
            before = len(records)
            try:
                recs, lines = boundary.admit(line, line_no)
            finally:
                admission_ns += time.perf_counter_ns() - t0
            t0 = time.perf_counter_ns()
            records.extend(recs)
            data.append(lines)
            declare(records, data)
            if len(records) > before and opts.observe is not None:
                extra = opts.observe(boundary, records[before:])
                if extra is not None:
                    records.extend(extra[0])
                    data.append(extra[1])
            admission_ns += time.perf_counter_ns() - t0
            if boundary.stopped or halt():
                break

    keep = not isinstance(store, NoStore)
    durable = True
    with _Stop() as stop:
        # A foreign child gets our signal and a grace to write its last lines first.
        halt = base.halted(stop) if isinstance(base, Foreign) else stop
        try:
            for batch in opts.source.batches(halt):
                records: list[Record] = []
                data: list[bytes] = []
                try:
                    if opts.observe is None:
                        admit_batch(batch, records, data)
                    else:
                        admit_lines(batch, records, data)
                finally:
                    if records:
                        t0 = time.perf_counter_ns()
                        store.append(run_id, records)
                        admission_ns += time.perf_counter_ns() - t0
                        if run_start is None:
                            run_start = next((r[3] for r in records if r[2] == "run_start"), None)
                    emit(records, data)
                if boundary.stopped or halt():
                    break
            if stop():
                finish = _cancelled(stop.signum)
            elif base is not opts.source and opts.source.ending is not None:
                finish = opts.source.ending  # the wrapper ended the run (a client's cancel)
            elif isinstance(base, Foreign):
                finish = base.ending or {}
            elif isinstance(base, Child) and not boundary.stopped:
                status = base.exit_status()
                finish = {
                    "outcome": "failed",
                    "reason": f"the runtime exited with status {status} before run_end",
                    "error": ("runtime_failed", "the runtime ended without run_end", None),
                    "failed_runs": 1,
                }
        except TraceError as e:
            if replayed:
                finish = {
                    "outcome": "failed",
                    "reason": "the runtime trace has a bad line",
                    "error": ("bad_input", str(e), e.line),
                    "exit_code": exits.BAD_INPUT,
                    "failed_runs": 1,
                }
            else:
                finish = {
                    "outcome": "failed",
                    "reason": "the runtime wrote a line that is not a trace event",
                    "error": ("runtime_bad_output", str(e), e.line),
                    "failed_runs": 1,
                }
            print(f"{opts.prog}: {e}", file=sys.stderr)
        except RuntimeLimit as e:
            finish = {"outcome": "limit", "reason": e.reason}
        except RuntimeFailed as e:
            finish = {
                "outcome": "failed",
                "reason": e.reason,
                "error": (e.code, e.reason, None),
                "failed_runs": 1,
            }
            print(f"{opts.prog}: {e.reason}", file=sys.stderr)
        except StoreError as e:
            # The store failed mid-run (disk full, the server connection lost): nothing
            # more can be made durable, so nothing more is emitted but the result (O6).
            store.abandon()
            durable = False
            finish = {
                "outcome": "failed",
                "reason": "the session store failed",
                "error": ("store_failed", f"{e} (retryable)", None),
            }
            print(f"{opts.prog}: store_failed: {e}", file=sys.stderr)
        finally:
            if not replayed:
                opts.source.stop()
        if stop() and not finish:
            finish = _cancelled(stop.signum)
        # A source that still holds queued submissions (the App Server's gate, when a
        # limit or a bad line stopped the run before its source ended) has each rejected
        # now: their records go before the run's end, with it.
        late: list[Record] = []
        late_lines = b""
        if durable and (unsettled := getattr(opts.source, "unsettled", None)) is not None:
            for sid, why in unsettled():
                r, out = boundary.submission_rejected(sid, why)
                late += r
                late_lines += out
        recs, lines, result = boundary.finish(
            admission_latency_us=admission_ns // 1000,
            record_fsync_latency_us=fsync_us,
            **finish,
        )
        recs, lines = late + recs, late_lines + lines
        parsed = orjson.loads(result)
        agent = model = None
        if run_start is not None:
            head = orjson.loads(run_start)
            agent, model = head.get("agent"), head.get("model")
        if durable:
            try:
                store.append(run_id, recs)
                store.finish_run(
                    run_id,
                    outcome=parsed["outcome"],
                    exit_code=parsed["exit_code"],
                    turns=parsed["turns"],
                    result=result,
                    agent=agent if isinstance(agent, str) else None,
                    model=model if isinstance(model, str) else None,
                )
            except StoreError as e:
                store.abandon()
                durable = False
                print(f"{opts.prog}: store_failed: {e}", file=sys.stderr)
        if durable:
            sink.end(recs, lines, result)
        else:
            # The session should not look unfinished: its end goes to the store by
            # another way when there is one (a new connection), else stays unrecorded.
            store.salvage(run_id, outcome=parsed["outcome"], exit_code=parsed["exit_code"],
                          result=result)  # fmt: skip
            sink.end([], result + b"\n", result)
    return RunOutcome(run_id, parsed["exit_code"], parsed)


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
    boundary = Boundary(version=opts.version, run_id=run_id)
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
