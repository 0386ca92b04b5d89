"""The session store's interface and its selection (S7): ``SessionStore`` is
what the run loop and the session operations need; ``store_sqlite`` (the default, one
file under ITERON_HOME) and ``store_postgres`` (a shared server) implement it.

``open_store`` picks the backend from ``--store`` / ``ITERON_STORE``: a
``postgresql://`` (or ``postgres://``) URL, a ``sqlite:///path`` URL, else the SQLite
file under ITERON_HOME. A store URL is a secret: it is never echoed (``StoreError``
messages carry none of it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from scrubline.artifacts import Content
from scrubline.errors import RunBusy, StoreError, StoreFailed

__all__ = [
    "NoStore",
    "Record",
    "RunBusy",
    "SessionStore",
    "StoreError",
    "StoreFailed",
    "home",
    "new_run_id",
    "now",
    "open_store",
]

#: A stored record: (seq, turn, type, body).
Record = tuple[int, int, str, bytes]
#: A ``runs`` row by column name (sqlite3.Row or a dict).
Row = Mapping[str, Any]

#: The fields of a session list row.
SESSION_FIELDS = (
    "run_id, created_at, updated_at, agent_definition_tag, parent_run_id, fork_point,"
    " turns, outcome, created_n"
)


def home() -> Path:
    """ITERON_HOME, else ``$XDG_DATA_HOME/iteron``, else ``~/.local/share/iteron``."""
    explicit = os.environ.get("ITERON_HOME")
    if explicit:
        return Path(explicit)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "iteron"


def now() -> str:
    """UTC time with microseconds, ISO 8601; sorts as text."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_run_id() -> str:
    """A UUIDv7-shaped id: time-ordered, 74 random bits, not mistaken for a credential."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms << 80) | (0x7 << 76) | ((rand >> 68) & 0xFFF) << 64 | (0b10 << 62)
    value |= rand & ((1 << 62) - 1)
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


class SessionStore(Protocol):
    """What both backends implement, with the same observable behaviour (the
    conformance suite: tests/test_sessions.py, tests/test_artifacts.py).

    Writes go to an open batch that ``commit`` makes durable; a write that fails raises
    ``StoreFailed``. A run has one writer at a time: ``claim`` takes it (``RunBusy``
    otherwise) until ``close``. Reads never see another tenant's run.
    """

    def close(self) -> None: ...
    def abandon(self) -> None: ...
    def commit(self) -> int: ...
    def cursor_key(self) -> bytes: ...
    def content_store(self, root: Path) -> Content: ...
    def secrets(self) -> list[str]: ...
    def claim(self, run_id: str) -> None: ...
    def create_run(
        self,
        run_id: str,
        tenant: str,
        *,
        tag: str | None = None,
        parent_run_id: str | None = None,
        fork_point: int | None = None,
    ) -> int: ...
    def append(self, run_id: str, records: Iterable[Record]) -> None: ...
    def finish_run(
        self,
        run_id: str,
        *,
        outcome: str,
        exit_code: int,
        turns: int,
        result: bytes,
        agent: str | None = None,
        model: str | None = None,
    ) -> int: ...
    def salvage(self, run_id: str, *, outcome: str, exit_code: int, result: bytes) -> bool: ...
    def run(self, run_id: str, tenant: str) -> Row | None: ...
    def events(self, run_id: str) -> Iterator[Record]: ...
    def sessions(self, tenant: str, tag: str | None, before: int | None, limit: int) -> list: ...
    def session_at(self, tenant: str, created_n: int) -> bool: ...
    def events_before(self, run_id: str, before: int | None, limit: int) -> list[Record]: ...
    def has_event(self, run_id: str, seq: int) -> bool: ...
    def latest_run(self, tenant: str) -> Row | None: ...
    def position(self, run_id: str) -> tuple[int, int]: ...
    def fork(self, parent: Row, child_id: str) -> int: ...
    def add_artifact(self, run_id: str, seq: int, hash_: str) -> None: ...
    def artifact_hashes(self, run_id: str) -> set[str]: ...
    def artifacts_after(self, run_id: str, after: int | None, limit: int) -> list[Record]: ...
    def has_artifact(self, run_id: str, seq: int) -> bool: ...
    def tenant_has_artifact(self, tenant: str, hash_: str) -> bool: ...


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def open_store(location: str | None = None, root: Path | None = None) -> SessionStore:
    """The store ``location`` names (else ``ITERON_STORE``, else the SQLite file under
    ``root`` / ITERON_HOME; an empty value counts as unset). ``StoreError`` when it
    cannot be opened."""
    location = location or os.environ.get("ITERON_STORE") or None
    if location is None:
        from scrubline.store_sqlite import SqliteStore

        return SqliteStore.open(root or home())
    if is_postgres(location):
        from scrubline.store_postgres import PostgresStore

        return PostgresStore(location)
    if location.startswith("sqlite:///"):
        from scrubline.store_sqlite import SqliteStore

        return SqliteStore(Path(location[len("sqlite://") :]))
    # Never echo the value: it may be a connection string with a password in it.
    raise StoreError(
        "the store location is neither a postgresql:// nor a sqlite:/// URL"
        " (--store / ITERON_STORE)"
    )


class NoStore:
    """The store of ``scrubline project``: a filter keeps no record, so nothing to fsync."""

    def claim(self, run_id: str) -> None:
        pass

    def create_run(self, run_id: str, tenant: str, **_: object) -> int:
        return 0

    def append(self, run_id: str, records: Iterable[Record]) -> None:
        pass

    def commit(self) -> int:
        return 0

    def abandon(self) -> None:
        pass

    def finish_run(self, run_id: str, **_: object) -> int:
        return 0

    def add_artifact(self, run_id: str, seq: int, hash_: str) -> None:
        pass

    def salvage(self, run_id: str, **_: object) -> bool:
        return False


def __getattr__(name: str) -> object:
    # ``Store`` (the SQLite backend) under its first name, for callers that predate
    # the interface.
    if name == "Store":
        from scrubline.store_sqlite import SqliteStore

        return SqliteStore
    raise AttributeError(name)
