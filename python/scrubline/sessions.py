"""Session operations (docs/contract.md §5): list, transcript, fork; tag and tenant rules.

Each operation returns one typed JSON-ready object or raises ``SessionError`` with the
``error.code`` to report (exit 65). Another tenant's run is "not found", in the same
words as a run that does not exist (S6).
"""

from __future__ import annotations

import unicodedata

import orjson

from scrubline._core import RESIDENT_PROTOCOL_VERSION, project
from scrubline.cursor import CursorError, decode, encode, fingerprint
from scrubline.errors import ConfigError, ScrublineError
from scrubline.scrubber import scrub
from scrubline.store import SessionStore, new_run_id

MAX_TAG = 128
SESSION_LIMIT = (1, 100, 20)
TRANSCRIPT_LIMIT = (1, 1000, 100)


class SessionError(ScrublineError, ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def check_label(value: str, what: str, code: str) -> str:
    """S5 (and the tenant, bounded the same way): at most 128 UTF-8 bytes, not blank, no
    control characters, nothing the scrubber would redact."""
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise SessionError(code, f"{what} is not valid UTF-8") from None
    if size > MAX_TAG:
        raise SessionError(code, f"{what} is {size} bytes; at most {MAX_TAG}")
    if not value.strip():
        raise SessionError(code, f"{what} is blank")
    if any(unicodedata.category(c) == "Cc" for c in value):
        raise SessionError(code, f"{what} contains a control character")
    if scrub(value) != value:
        raise SessionError(code, f"{what} resembles a credential")
    return value


def check_tag(tag: str) -> str:
    return check_label(tag, "--agent-definition-tag", "invalid_tag")


def check_tenant(tenant: str) -> str:
    return check_label(tenant, "tenant", "invalid_tenant")


def not_found(run_id: str) -> SessionError:
    return SessionError("not_found", f"run {run_id!r} not found")


def _position(key: bytes, cursor: str | None, kind: str, query: str) -> int | None:
    if cursor is None:
        return None
    try:
        return decode(key, cursor, kind, query)
    except CursorError as e:
        raise SessionError(e.code, str(e)) from None


def _run_walk(
    store: SessionStore, tenant: str, run_id: str, kind: str, cursor: str | None
) -> tuple[bytes, str, int | None]:
    """The key, query fingerprint and keyset position of a page over one run's items
    (``transcript``: events by seq; ``artifacts``: declarations by seq)."""
    key = store.cursor_key()
    if store.run(run_id, tenant) is None:
        raise not_found(run_id)
    query = fingerprint(kind, tenant, run_id)
    position = _position(key, cursor, kind, query)
    exists = store.has_event if kind == "transcript" else store.has_artifact
    if position is not None and not exists(run_id, position):
        raise SessionError("cursor_stale", "the cursor's position no longer exists")
    return key, query, position


def session(row) -> dict:
    return {
        "run_id": row["run_id"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "agent_definition_tag": row["agent_definition_tag"],
        "parent_run_id": row["parent_run_id"],
        "fork_point": row["fork_point"],
        "turns": row["turns"],
        "outcome": row["outcome"],
    }


def list_page(
    store: SessionStore,
    tenant: str,
    *,
    version: int,
    limit: int,
    cursor: str | None = None,
    tag: str | None = None,
) -> dict:
    """S1: one page of a tenant's sessions, newest first (keyset on creation order)."""
    key = store.cursor_key()
    query = fingerprint("list", tenant, tag)
    before = _position(key, cursor, "list", query)
    if before is not None and not store.session_at(tenant, before):
        raise SessionError("cursor_stale", "the cursor's position no longer exists")
    rows = store.sessions(tenant, tag, before, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = encode(key, "list", query, rows[-1]["created_n"]) if more else None
    return {
        "type": "session_list_page",
        "schema_version": version,
        "sessions": [session(r) for r in rows],
        "next_cursor": next_cursor,
    }


def transcript_page(
    store: SessionStore,
    tenant: str,
    run_id: str,
    *,
    version: int,
    limit: int,
    cursor: str | None = None,
) -> dict:
    """S2: the newest page of a run's published events older than the cursor;
    chronological inside the page; projected to ``version`` from the stored records."""
    key, query, before = _run_walk(store, tenant, run_id, "transcript", cursor)
    events: list[tuple[int, bytes]] = []
    more = False
    scan = before
    while not more:
        batch = store.events_before(run_id, scan, max(64, 2 * limit))
        for seq, _turn, _kind, body in batch:
            line = _project(body, version, seq, run_id)
            if line is None:
                continue
            if len(events) == limit:
                more = True
                break
            events.append((seq, line))
        if len(batch) == 0 or more:
            break
        scan = batch[-1][0]
    events.reverse()
    older = encode(key, "transcript", query, events[0][0]) if more else None
    return {
        "type": "session_transcript_page",
        "schema_version": version,
        "run_id": run_id,
        "events": [orjson.loads(line) for _seq, line in events],
        "older_cursor": older,
    }


def _project(body: bytes | str, version: int, seq: int, run_id: str) -> bytes | None:
    # A store written by another tool may hold a record as TEXT rather than BLOB.
    raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    try:
        if version == RESIDENT_PROTOCOL_VERSION:  # the App Server's stream names the run
            return project(raw, version, run_id=run_id)
        return project(raw, version)
    except ConfigError as e:
        raise SessionError("store_corrupt", f"stored record {seq}: {e}") from None


def fork(store: SessionStore, tenant: str, run_id: str, *, version: int) -> dict:
    """S3: a new run holding the parent's transcript up to the fork point."""
    parent = store.run(run_id, tenant)
    if parent is None:
        raise not_found(run_id)
    child = new_run_id()
    point = store.fork(parent, child)
    return {
        "type": "session_fork_result",
        "schema_version": version,
        "parent_run_id": run_id,
        "child_run_id": child,
        "fork_point": point,
        "status": "created",
    }


def artifact_page(
    store: SessionStore,
    tenant: str,
    run_id: str,
    *,
    version: int,
    limit: int,
    cursor: str | None = None,
) -> dict:
    """A5: a run's artifact handles, in declaration order, cursor-paged (keyset seq)."""
    key, query, after = _run_walk(store, tenant, run_id, "artifacts", cursor)
    rows = store.artifacts_after(run_id, after, limit + 1)
    more = len(rows) > limit
    items = []
    for seq, turn, _kind, body in rows[:limit]:
        record = orjson.loads(body)
        items.append({"seq": seq, "turn": turn, **record["artifact"]})
    return {
        "type": "artifact_list_page",
        "schema_version": version,
        "run_id": run_id,
        "artifacts": items,
        "next_cursor": encode(key, "artifacts", query, items[-1]["seq"]) if more else None,
    }


def error_object(code: str, message: str, version: int) -> dict:
    return {
        "type": "error",
        "schema_version": version,
        "error": {"code": code, "message": message},
    }
