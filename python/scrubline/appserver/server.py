"""``iteron app-server``: one client on stdio, many runs. Requests (the SQ) are read and
answered on the main thread; each run is the ordinary run engine (``run.execute``) on
its own thread with its own boundary and store connection, writing its v7 events into
the outbox; one writer thread drains the outbox (the EQ and the responses, in order) to
stdout. docs/app-server.md is the protocol.
"""

from __future__ import annotations

import argparse
import collections
import os
import select
import signal
import sys
import threading
import time
from importlib.metadata import PackageNotFoundError, version

import orjson
from pydantic import ValidationError

from scrubline import exits, sessions
from scrubline._core import Boundary
from scrubline.agent import ModelRuntime
from scrubline.appserver import protocol as P
from scrubline.appserver.framing import LineReader, TooLong
from scrubline.appserver.gate import SubmissionGate
from scrubline.cli.argv import source
from scrubline.errors import ConfigError, ScrublineError, StoreError, UsageError
from scrubline.lease import RunBusy, RunLease
from scrubline.permissions import Permissions, allowlist
from scrubline.run import RunOptions, execute
from scrubline.scrubber import env_literals
from scrubline.sessions import SessionError
from scrubline.store import Record, SessionStore, home, new_run_id, open_store

_EVENT = b'{"jsonrpc":"2.0","method":"run/event","params":'
_RESULT = b'{"jsonrpc":"2.0","method":"run/result","params":'


class RpcError(ScrublineError):
    """A request refused: its JSON-RPC code, typed ``data.code`` and whether a retry may help."""

    def __init__(self, code: int, kind: str, message: str, retryable: bool = False, **extra):
        super().__init__(message)
        self.code, self.kind, self.retryable, self.extra = code, kind, retryable, extra

    def obj(self) -> dict:
        data = {"code": self.kind, "retryable": self.retryable, **self.extra}
        return {"code": self.code, "message": str(self), "data": data}


class Outbox:
    """What goes to stdout, in order, bounded in bytes: a put waits while the outbox
    is full (the writer, and so the client, is behind), at most ``timeout`` seconds.
    ``force`` admits a terminal message past the bound (at most two per run)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: collections.deque[bytes | None] = collections.deque()
        self._size = 0
        self._cond = threading.Condition()
        self.broken = False

    def put(self, data: bytes, timeout: float | None = None, force: bool = False) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not (force or self.broken or self._size == 0) and (
                self._size + len(data) > self.capacity
            ):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            if not self.broken:
                self._items.append(data)
                self._size += len(data)
                self._cond.notify_all()
            return True

    def end(self) -> None:
        """The writer stops after what is queued now."""
        with self._cond:
            self._items.append(None)
            self._cond.notify_all()

    def take(self) -> bytes | None:
        with self._cond:
            while not self._items:
                self._cond.wait()
            item = self._items.popleft()
            if item is not None:
                self._size -= len(item)
                self._cond.notify_all()
            return item

    def fail(self) -> None:
        """The client is gone: nothing more is queued, nobody waits."""
        with self._cond:
            self.broken = True
            self._items.clear()
            self._items.append(None)
            self._size = 0
            self._cond.notify_all()


class ResidentRun:
    """One run of the server: the sink its engine writes to (``batch``/``end``)."""

    def __init__(self, server: Server, run_id: str, gate: SubmissionGate) -> None:
        self.server = server
        self.run_id = run_id
        self.gate = gate
        self.delivered_seq = 0
        self.detached = False
        self.finished = threading.Event()
        self.thread: threading.Thread | None = None
        self.lease: RunLease | None = None

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        if self.detached or not data:
            return
        lines = b"".join(data).split(b"\n")
        payload = b"".join(_EVENT + x + b"}\n" for x in lines if x)
        last = records[-1][0] if records else self.delivered_seq
        if self.server.outbox.put(payload, timeout=self.server.stall_timeout):
            self.delivered_seq = last
            return
        # The client stopped reading: the run pauses no longer than the stall bound.
        self.detached = True
        why = f"the client did not read the event queue for {self.server.stall_timeout:g} s"
        self.gate.cancel(why)
        note = {"run_id": self.run_id, "last_delivered_seq": self.delivered_seq, "reason": why}
        self.server.notify("run/detached", note, force=True)

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        events = data[: data.rfind(result)] if data.endswith(result + b"\n") else data
        self.batch(records, [events])
        # The run is stored whole: a client that has its result may resume it at once.
        self.retire()
        self.server.outbox.put(_RESULT + result + b"}\n", force=True)

    def retire(self) -> None:
        """Release the run's lease and its place among the active runs (once)."""
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        with self.server.lock:
            # Only this run's own entry: the run may already be resumed under its id.
            if self.server.runs.get(self.run_id) is self:
                del self.server.runs[self.run_id]


class Server:
    def __init__(self, *, max_runs: int, capacity: int, stall_timeout: float, cfg: dict) -> None:
        self.max_runs = max_runs
        self.stall_timeout = stall_timeout
        self.cfg = cfg
        self.outbox = Outbox(capacity)
        #: The active runs (a run leaves when its result is queued).
        self.runs: dict[str, ResidentRun] = {}
        self.started: list[ResidentRun] = []
        self.lock = threading.Lock()
        self.boot: P.BootstrapParams | None = None
        self.tenant = "default"
        self.closing = False
        self.signum: int | None = None
        self.store: SessionStore | None = None
        #: What a request starts once its answer is queued (a run's thread).
        self._after: list = []

    # ── output ──

    def send(self, obj: dict, force: bool = False) -> None:
        line = orjson.dumps({"jsonrpc": "2.0", **obj}) + b"\n"
        if not self.outbox.put(line, timeout=self.stall_timeout, force=force):
            # A client that reads nothing for the stall bound is treated as gone: its
            # runs are cancelled and no more requests are read (P10).
            self.closing = True
            why = f"the client did not read for {self.stall_timeout:g} s"
            self._end_runs(why, exits.BY_SIGNAL[signal.SIGINT])

    def notify(self, method: str, params: dict, force: bool = False) -> None:
        self.send({"method": method, "params": params}, force=force)

    def _writer(self, fd: int) -> None:
        while (item := self.outbox.take()) is not None:
            try:
                view = memoryview(item)
                while view:
                    view = view[os.write(fd, view) :]
            except OSError:
                # The client is gone (EPIPE): its runs end as a disconnect says.
                self.outbox.fail()
                self._disconnected()
                return

    # ── the loop ──

    def serve(self, rfd: int, wfd: int) -> int:
        # A daemon: a client that never reads again must not keep the process alive.
        writer = threading.Thread(target=self._writer, args=(wfd,), name="eq-writer", daemon=True)
        writer.start()
        reader = LineReader()
        try:
            while self.signum is None and not self.closing:
                ready, _, _ = select.select([rfd], [], [], 0.1)
                if not ready:
                    continue
                chunk = os.read(rfd, 1 << 16)
                items = reader.feed(chunk) if chunk else reader.finish()
                for item in items:
                    self.handle(item)
                    if self.closing:
                        break
                if not chunk:
                    break
        finally:
            if self.signum is not None:
                name = signal.Signals(self.signum).name
                self._end_runs(f"the server received {name}", exits.BY_SIGNAL[self.signum])
            elif not self.closing:
                self._disconnected()
            self._wait_runs()
            self.outbox.end()
            writer.join(self.stall_timeout)
            if self.store is not None:
                self.store.close()
        return exits.BY_SIGNAL.get(self.signum, exits.FAILED) if self.signum else exits.OK

    def _disconnected(self) -> None:
        """stdin ended or stdout broke: runs are cancelled unless the bootstrap kept them."""
        if not (self.boot and self.boot.keep_runs_on_disconnect):
            self._end_runs("the client disconnected", exits.BY_SIGNAL[signal.SIGINT])

    def _end_runs(self, reason: str, code: int) -> int:
        with self.lock:
            runs = list(self.runs.values())
        for run in runs:
            run.gate.cancel(reason, code)
        return len(runs)

    def _wait_runs(self) -> None:
        """Until every run started has queued its result and let go of the store."""
        with self.lock:
            runs = list(self.started)
        for run in runs:
            run.finished.wait()

    # ── requests ──

    def handle(self, item: bytes | TooLong) -> None:
        if isinstance(item, TooLong):
            err = RpcError(
                P.INVALID_REQUEST, "request_too_large", f"line {item.number} is over the bound"
            )
            self.send({"id": None, "error": err.obj()})
            return
        if not item.strip():
            return
        rid = None
        notification = False
        after: list = []
        try:
            try:
                msg = orjson.loads(item)
            except orjson.JSONDecodeError as e:
                raise RpcError(P.PARSE_ERROR, "parse_error", f"not JSON: {e}") from None
            notification = isinstance(msg, dict) and "id" not in msg
            if not isinstance(msg, dict):
                raise RpcError(
                    P.INVALID_REQUEST,
                    "invalid_request",
                    "a request is one JSON object (no batches)",
                )
            rid = msg.get("id")
            if rid is not None and (isinstance(rid, bool) or not isinstance(rid, int | str)):
                rid = None
                raise RpcError(
                    P.INVALID_REQUEST, "invalid_request", "id must be a string or an integer"
                )
            if msg.get("jsonrpc", "2.0") != "2.0":
                raise RpcError(P.INVALID_REQUEST, "invalid_request", 'jsonrpc must be "2.0"')
            method = msg.get("method")
            if not isinstance(method, str):
                raise RpcError(P.INVALID_REQUEST, "invalid_request", "method must be a string")
            if method not in P.METHODS:
                raise RpcError(
                    P.METHOD_NOT_FOUND, "method_not_found", f"unknown method {method[:64]!r}"
                )
            params_model, _ = P.METHODS[method]
            raw = msg.get("params", {})
            if raw is None:
                raw = {}
            if method != "bootstrap" and self.boot is None:
                raise RpcError(P.NOT_BOOTSTRAPPED, "not_bootstrapped", "bootstrap must come first")
            try:
                params = params_model.model_validate(raw)
            except ValidationError as e:
                errors = [
                    {"loc": [str(x) for x in d["loc"]], "msg": d["msg"]}
                    for d in e.errors(include_url=False, include_input=False)[:16]
                ]
                raise RpcError(
                    P.INVALID_PARAMS,
                    "invalid_params",
                    f"invalid params for {method}",
                    errors=errors,
                ) from None
            result = getattr(self, "on_" + method.replace("/", "_"))(params)
            if "id" in msg:
                self.send({"id": rid, "result": result})
            after, self._after = self._after, []
        except RpcError as e:
            if notification:  # never answered, not even with an error (JSON-RPC)
                print(f"iteron app-server: notification refused: {e}", file=sys.stderr)
            else:
                self.send({"id": rid, "error": e.obj()})
        except Exception as e:  # a bug: the connection stays usable
            print(f"iteron app-server: internal error: {e!r}", file=sys.stderr)
            err = RpcError(P.INTERNAL_ERROR, "internal_error", "internal error", retryable=True)
            if not notification:
                self.send({"id": rid, "error": err.obj()})
        finally:
            self._after = []
        for start in after:  # the answer is queued: now what it announced may happen
            start()

    def on_bootstrap(self, p: P.BootstrapParams) -> dict:
        if self.boot is not None:
            raise RpcError(
                P.ALREADY_BOOTSTRAPPED, "already_bootstrapped", "this connection is bootstrapped"
            )
        if p.protocol_version != P.PROTOCOL_VERSION:
            raise RpcError(
                P.UNSUPPORTED_PROTOCOL, "unsupported_protocol_version",
                f"protocol version {p.protocol_version} is not served; supported: 7",
                supported=[P.PROTOCOL_VERSION],
            )  # fmt: skip
        tenant = p.tenant or os.environ.get("ITERON_TENANT") or "default"
        try:
            self.tenant = sessions.check_tenant(tenant)
            self.store = open_store(None, home())
        except SessionError as e:
            raise RpcError(P.INVALID_PARAMS, e.code, str(e)) from None
        except StoreError as e:
            raise RpcError(
                P.STORE_UNAVAILABLE, "store_unavailable", str(e), retryable=True
            ) from None
        self.boot = p
        return {
            "protocol_version": P.PROTOCOL_VERSION,
            "schema_version": P.PROTOCOL_VERSION,
            "server": {"name": "iteron", "version": _version()},
            "tenant": self.tenant,
            "keep_runs_on_disconnect": p.keep_runs_on_disconnect,
            "limits": {
                "max_runs": self.max_runs,
                "eq_capacity_bytes": self.outbox.capacity,
                "stall_timeout_s": self.stall_timeout,
            },
        }

    def on_run_start(self, p: P.RunStartParams) -> dict:
        return self._start(p, resume=None)

    def on_run_resume(self, p: P.RunResumeParams) -> dict:
        from scrubline.cli.iteron import resumable

        with self.lock:
            if p.run_id in self.runs:
                raise RpcError(
                    P.RUN_BUSY, "run_busy", "the run is active in this server", retryable=True
                )
        try:
            run_id = resumable(self._store(), self.tenant, p.run_id, p.agent_definition_tag)
        except SessionError as e:
            raise _session_error(e) from None
        return self._start(p, resume=run_id)

    def _start(self, p: P.RunStartParams, resume: str | None) -> dict:
        if self.closing:
            raise RpcError(P.SHUTTING_DOWN, "shutting_down", "the server is shutting down")
        with self.lock:
            if len(self.runs) >= self.max_runs:
                raise RpcError(
                    P.OVERLOADED, "too_many_runs",
                    f"{self.max_runs} runs are active; retry when one has ended",
                    retryable=True,
                )  # fmt: skip
        if p.source.replay == "-":
            raise RpcError(
                P.INVALID_PARAMS, "invalid_source", "replay '-' (stdin) is the protocol here"
            )
        if p.agent_definition_tag is not None:
            try:
                sessions.check_tag(p.agent_definition_tag)
            except SessionError as e:
                raise _session_error(e) from None
        try:
            literals = env_literals(p.literal_env)
            src, key = source(_namespace(p), p.task, self.cfg, [], literals)
        except (UsageError, ConfigError) as e:
            raise RpcError(P.INVALID_PARAMS, "invalid_source", str(e)) from None
        try:
            store = open_store(None, home())
        except StoreError as e:
            raise RpcError(
                P.STORE_UNAVAILABLE, "store_unavailable", str(e), retryable=True
            ) from None
        run_id = resume or new_run_id()
        try:  # one writer per run: a CLI `--resume` may be appending to it
            lease = RunLease.take(home(), run_id)
        except RunBusy as e:
            store.close()
            raise RpcError(P.RUN_BUSY, e.code, str(e), retryable=True) from None
        gate = SubmissionGate(src, run_id)
        opts = RunOptions(
            source=gate, version=P.PROTOCOL_VERSION, resident=True, tenant=self.tenant,
            tag=p.agent_definition_tag, max_turn_tokens=p.limits.max_turn_tokens,
            literals=literals + key, prog="iteron app-server", resume=resume,
            content=store.content_store(home()), run_id=run_id,
        )  # fmt: skip
        if isinstance(src, ModelRuntime):
            opts.observe = Permissions(p.source.auto, allowlist(self.cfg), src)
        run = ResidentRun(self, run_id, gate)
        run.lease = lease
        with self.lock:
            self.runs[run_id] = run
            self.started.append(run)
        # The answer goes out before the run's first event: the thread starts after it.
        run.thread = threading.Thread(target=self._run, args=(run, opts, store), name=run_id)
        self._after.append(run.thread.start)
        return {"run_id": run_id, "status": "resumed" if resume else "started"}

    def _run(self, run: ResidentRun, opts: RunOptions, store: SessionStore) -> None:
        try:
            execute(opts, store, run)
        except Exception as e:  # a bug in the engine: the run still ends with a result
            print(f"iteron app-server: run {run.run_id} failed: {e!r}", file=sys.stderr)
            b = Boundary(version=P.PROTOCOL_VERSION, run_id=run.run_id, resident=True)
            _, _, result = b.finish(
                outcome="failed", reason="internal error",
                error=("internal_error", str(e), None), failed_runs=1,
            )  # fmt: skip
            self.outbox.put(_RESULT + result + b"}\n", force=True)
        finally:
            store.close()
            run.retire()
            run.finished.set()

    def on_run_fork(self, p: P.RunRef) -> dict:
        try:
            return sessions.fork(self._store(), self.tenant, p.run_id, version=P.PROTOCOL_VERSION)
        except SessionError as e:
            raise _session_error(e) from None

    def _submit(self, run_id: str, kind: str, payload: dict) -> dict:
        with self.lock:
            run = self.runs.get(run_id)
        if run is None or run.gate.closed or run.gate.cancelled:
            if self._store().run(run_id, self.tenant) is None:
                raise _session_error(sessions.not_found(run_id))
            raise RpcError(P.RUN_NOT_ACTIVE, "run_not_active", f"run {run_id!r} is not running")
        try:
            sid, apply = run.gate.submit(kind, payload)
        except RuntimeError:
            raise RpcError(
                P.RUN_NOT_ACTIVE, "run_not_active", f"run {run_id!r} has ended"
            ) from None
        self._after.append(apply)  # after the receipt is queued: nothing overtakes it
        return {"submission_id": sid, "run_id": run_id, "status": "queued"}

    def on_turn_submit(self, p: P.TurnSubmitParams) -> dict:
        attachments = [a.model_dump(exclude_none=True) for a in p.attachments]
        return self._submit(p.run_id, "turn", {"text": p.text, "attachments": attachments})

    def on_steer(self, p: P.SteerParams) -> dict:
        return self._submit(p.run_id, "steer", {"text": p.text})

    def on_control(self, p: P.ControlParams) -> dict:
        return self._submit(p.run_id, "control", {"control": p.control})

    def on_approval_decide(self, p: P.ApprovalDecideParams) -> dict:
        return self._submit(
            p.run_id, "approval", {"request_id": p.request_id, "decision": p.decision}
        )

    def on_sessions_list(self, p: P.SessionsListParams) -> dict:
        try:
            return sessions.list_page(
                self._store(), self.tenant, version=P.PROTOCOL_VERSION,
                limit=p.limit, cursor=p.cursor, tag=p.agent_definition_tag,
            )  # fmt: skip
        except SessionError as e:
            raise _session_error(e) from None

    def on_sessions_transcript(self, p: P.PageParams) -> dict:
        try:
            return sessions.transcript_page(
                self._store(), self.tenant, p.run_id, version=P.PROTOCOL_VERSION,
                limit=p.limit, cursor=p.cursor,
            )  # fmt: skip
        except SessionError as e:
            raise _session_error(e) from None

    def on_artifacts_list(self, p: P.PageParams) -> dict:
        try:
            return sessions.artifact_page(
                self._store(), self.tenant, p.run_id, version=P.PROTOCOL_VERSION,
                limit=p.limit, cursor=p.cursor,
            )  # fmt: skip
        except SessionError as e:
            raise _session_error(e) from None

    def on_shutdown(self, p: P.NoParams) -> dict:
        """Every run is cancelled and has written its result; then the answer; then the
        server exits 0."""
        self.closing = True
        n = self._end_runs("the server is shutting down", exits.BY_SIGNAL[signal.SIGINT])
        self._wait_runs()
        return {"runs_cancelled": n}

    def _store(self) -> SessionStore:
        assert self.store is not None  # opened by the bootstrap
        return self.store


def _session_error(e: SessionError) -> RpcError:
    if e.code == "not_found":
        return RpcError(P.RUN_NOT_FOUND, "not_found", str(e))
    return RpcError(P.REJECTED, e.code, str(e))


def _namespace(p: P.RunStartParams) -> argparse.Namespace:
    """The run-source options of `iteron run` (cli/argv.py), from the request."""
    s = p.source
    return argparse.Namespace(
        replay=s.replay, runtime_cmd=s.runtime_cmd, runtime=s.runtime,
        runtime_path=s.runtime_path, from_=s.from_, model_url=s.model_url, model=s.model,
        api_key_env=s.api_key_env, max_turns=s.max_turns,
        model_read_timeout=s.model_read_timeout, timeout=p.limits.timeout_s,
    )  # fmt: skip


def _version() -> str:
    try:
        return version("scrubline")
    except PackageNotFoundError:
        return "0"
