"""The resident protocol's messages, defined once: every request's params and result and
every notification is a pydantic model here; the server validates with them and the
JSON Schemas in docs/app-server-schema/ are generated from them (``python -m
scrubline.appserver.protocol --write DIR``; a test fails when the files are stale).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scrubline._core import RESIDENT_PROTOCOL_VERSION

#: The protocol a bootstrap must ask for; also the schema version of every EQ event
#: (the core's resident projection, which `iteron --machine-contract` reports).
PROTOCOL_VERSION = RESIDENT_PROTOCOL_VERSION

Label = Annotated[str, Field(min_length=1, max_length=128)]
RunId = Annotated[str, Field(min_length=1, max_length=128)]
Cursor = Annotated[str, Field(min_length=1, max_length=512)]


class Message(BaseModel):
    """Unknown fields are refused (a misspelt option must not be silently ignored)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Open(BaseModel):
    """A server-written object: consumers must ignore fields they do not know."""

    model_config = ConfigDict(extra="allow")


# ── client → server (SQ) ────────────────────────────────────────────────────────────


class ClientInfo(Message):
    name: Label
    version: Annotated[str, Field(min_length=1, max_length=64)]


class BootstrapParams(Message):
    """Must be the connection's first request; a refused one may be repeated."""

    client: ClientInfo
    protocol_version: int
    tenant: Label | None = Field(
        None, description="the tenant of every run and session (default $ITERON_TENANT)"
    )
    keep_runs_on_disconnect: bool = Field(
        False,
        description="false: the client's disconnect cancels its runs; true: they run to "
        "their end (their events are stored, not delivered)",
    )


class RunSource(Message):
    """Where a run's trace comes from: at most one of replay, runtime_cmd, runtime,
    model_url (none: the bundled demo trace). As `iteron run`'s options."""

    replay: Annotated[str, Field(min_length=1)] | None = Field(
        None, description="a recorded trace file (not '-': stdin is the protocol)"
    )
    runtime_cmd: Annotated[str, Field(min_length=1)] | None = None
    runtime: Literal["claude-code", "codex", "gemini"] | None = None
    runtime_path: str | None = None
    from_: Literal["trace", "claude-code", "codex", "gemini"] | None = Field(None, alias="from")
    model_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    max_turns: Annotated[int, Field(ge=1)] | None = None
    model_read_timeout: Annotated[float, Field(gt=0)] | None = None
    auto: bool = Field(False, description="approve tools that need a dialog (model runtime)")


class RunLimits(Message):
    max_turn_tokens: Annotated[int, Field(ge=1)] | None = None
    timeout_s: Annotated[float, Field(gt=0)] | None = None


class RunStartParams(Message):
    task: str | None = Field(None, description="the task, passed to the runtime")
    source: RunSource = Field(default_factory=RunSource)
    agent_definition_tag: Label | None = None
    limits: RunLimits = Field(default_factory=RunLimits)
    literal_env: list[Label] = Field(
        default_factory=list, max_length=64, description="also redact these variables' values"
    )


class RunResumeParams(RunStartParams):
    run_id: RunId


class RunRef(Message):
    run_id: RunId


class Attachment(Message):
    media_type: Annotated[str, Field(min_length=1, max_length=128)]
    data_b64: Annotated[str, Field(max_length=8 << 20)]
    filename: Annotated[str, Field(max_length=256)] | None = None


class TurnSubmitParams(Message):
    run_id: RunId
    text: Annotated[str, Field(max_length=1 << 20)]
    attachments: list[Attachment] = Field(default_factory=list, max_length=16)


class SteerParams(Message):
    run_id: RunId
    text: Annotated[str, Field(min_length=1, max_length=1 << 20)]


class ControlParams(Message):
    run_id: RunId
    control: Literal["interrupt", "compact"]


class ApprovalDecideParams(Message):
    run_id: RunId
    request_id: Annotated[str, Field(min_length=1, max_length=256)]
    decision: Literal["approved", "denied"]


class SessionsListParams(Message):
    limit: Annotated[int, Field(ge=1, le=100)] = 20
    cursor: Cursor | None = None
    agent_definition_tag: Label | None = None


class PageParams(Message):
    run_id: RunId
    limit: Annotated[int, Field(ge=1, le=1000)] = 100
    cursor: Cursor | None = None


class NoParams(Message):
    pass


# ── server → client: results ────────────────────────────────────────────────────────


class ServerInfo(Open):
    name: Literal["iteron"]
    version: str


class ServerLimits(Open):
    max_runs: int
    eq_capacity_bytes: int
    stall_timeout_s: float


class BootstrapResult(Open):
    protocol_version: Literal[7]
    schema_version: Literal[7]
    server: ServerInfo
    tenant: str
    keep_runs_on_disconnect: bool
    limits: ServerLimits


class RunStarted(Open):
    run_id: str
    status: Literal["started", "resumed"]


class SubmissionReceipt(Open):
    """Queued, never applied: the lifecycle event naming ``submission_id`` says what
    became of it (exactly one per submission)."""

    submission_id: str
    run_id: str
    status: Literal["queued"]


class Session(Open):
    run_id: str
    created_at: str
    updated_at: str
    agent_definition_tag: str | None
    parent_run_id: str | None
    fork_point: int | None
    turns: int | None
    outcome: str | None


class SessionListPage(Open):
    type: Literal["session_list_page"]
    schema_version: Literal[7]
    sessions: list[Session]
    next_cursor: str | None


class TranscriptPage(Open):
    type: Literal["session_transcript_page"]
    schema_version: Literal[7]
    run_id: str
    events: list[dict[str, Any]]
    older_cursor: str | None


class ArtifactListPage(Open):
    type: Literal["artifact_list_page"]
    schema_version: Literal[7]
    run_id: str
    artifacts: list[dict[str, Any]]
    next_cursor: str | None


class ForkResult(Open):
    type: Literal["session_fork_result"]
    schema_version: Literal[7]
    parent_run_id: str
    child_run_id: str
    fork_point: int
    status: Literal["created"]


class ShutdownResult(Open):
    runs_cancelled: int


# ── server → client: notifications (EQ) ─────────────────────────────────────────────


class RunEvent(Open):
    """One published v7 event of a run (docs/projection.md: the v8 vocabulary), seq
    gap-free per run."""

    type: str
    schema_version: Literal[7]
    run_id: str
    seq: Annotated[int, Field(ge=1)]
    turn: Annotated[int, Field(ge=0)]


class KernelTax(Open):
    admission_latency_us: Annotated[int, Field(ge=0)]
    broker_latency_us: Annotated[int, Field(ge=0)]
    record_fsync_latency_us: Annotated[int, Field(ge=0)]
    estimated_tokens: Annotated[int, Field(ge=0)]
    failed_runs: Annotated[int, Field(ge=0)]


class RunResult(Open):
    """The run's authoritative terminal result, exactly once, after its last event."""

    schema_version: Literal[7]
    type: Literal["result"]
    outcome: Literal["done", "drained", "limit", "failed", "cancelled"]
    reason: Any
    success: bool
    assistant_text: str
    run_id: str
    cost_usd: float | None
    cost_status: str
    cost_reason: str | None
    turns: int
    kernel_tax: KernelTax
    exit_code: int
    error: dict[str, Any] | None


class RunDetached(Open):
    """The client did not read the EQ for ``stall_timeout_s``: the run was cancelled;
    events after ``last_delivered_seq`` are in the store (sessions/transcript)."""

    run_id: str
    last_delivered_seq: int
    reason: str


class ErrorData(Open):
    code: str
    retryable: bool


class ErrorObject(Open):
    code: int
    message: str
    data: ErrorData


# ── the envelopes ───────────────────────────────────────────────────────────────────


class Request(Message):
    """One line client → server. Without ``id`` it is a notification: done, not
    answered."""

    jsonrpc: Literal["2.0"] = "2.0"
    id: int | str | None = None
    method: str
    params: dict[str, Any] = Field(default_factory=dict)


class Response(Open):
    """One line server → client answering the request with the same ``id`` (``null``
    when the request's id could not be read): ``result`` or ``error``, never both."""

    jsonrpc: Literal["2.0"]
    id: int | str | None
    result: dict[str, Any] | None = None
    error: ErrorObject | None = None


class Notification(Open):
    """One line server → client without ``id``: an EQ message (``NOTIFICATIONS``)."""

    jsonrpc: Literal["2.0"]
    method: Literal["run/event", "run/result", "run/detached"]
    params: dict[str, Any]


# ── the method table ────────────────────────────────────────────────────────────────

#: method → (params model, result model)
METHODS: dict[str, tuple[type[BaseModel], type[BaseModel]]] = {
    "bootstrap": (BootstrapParams, BootstrapResult),
    "run/start": (RunStartParams, RunStarted),
    "run/resume": (RunResumeParams, RunStarted),
    "run/fork": (RunRef, ForkResult),
    "turn/submit": (TurnSubmitParams, SubmissionReceipt),
    "steer": (SteerParams, SubmissionReceipt),
    "control": (ControlParams, SubmissionReceipt),
    "approval/decide": (ApprovalDecideParams, SubmissionReceipt),
    "sessions/list": (SessionsListParams, SessionListPage),
    "sessions/transcript": (PageParams, TranscriptPage),
    "artifacts/list": (PageParams, ArtifactListPage),
    "shutdown": (NoParams, ShutdownResult),
}

#: notification method → params model
NOTIFICATIONS: dict[str, type[BaseModel]] = {
    "run/event": RunEvent,
    "run/result": RunResult,
    "run/detached": RunDetached,
}

#: JSON-RPC error codes: the standard ones, then the server's (-32000..-32099). The
#: typed ``error.data.code`` names the case; ``retryable`` says whether the same
#: request may succeed later.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
NOT_BOOTSTRAPPED = -32001
UNSUPPORTED_PROTOCOL = -32002
ALREADY_BOOTSTRAPPED = -32003
RUN_NOT_FOUND = -32004
RUN_NOT_ACTIVE = -32005
OVERLOADED = -32006
RUN_BUSY = -32007
SHUTTING_DOWN = -32008
REJECTED = -32009
STORE_UNAVAILABLE = -32010


def schemas() -> dict[str, dict]:
    """Every message's JSON Schema, by file name."""
    out: dict[str, dict] = {}

    def put(name: str, model: type[BaseModel]) -> None:
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"scrubline:app-server/v{PROTOCOL_VERSION}/{name}"
        out[f"{name}.json"] = schema

    for method, (params, result) in METHODS.items():
        stem = method.replace("/", ".")
        put(f"{stem}.params", params)
        put(f"{stem}.result", result)
    for method, params in NOTIFICATIONS.items():
        put(f"{method.replace('/', '.')}.notification", params)
    put("error", ErrorObject)
    put("request", Request)
    put("response", Response)
    put("notification", Notification)
    return out


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Write the resident protocol's JSON Schemas.")
    p.add_argument("--write", metavar="DIR", required=True)
    args = p.parse_args(argv)
    root = Path(args.write)
    root.mkdir(parents=True, exist_ok=True)
    for old in root.glob("*.json"):
        old.unlink()
    for name, schema in schemas().items():
        (root / name).write_text(render(schema))
    return 0


if __name__ == "__main__":
    sys.exit(main())
