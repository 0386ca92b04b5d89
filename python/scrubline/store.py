"""The session store: one SQLite database under ITERON_HOME (CONTRACT S7).

A run is one row of ``runs`` plus its append-only ``events`` (already-redacted canonical
records, docs/projection.md). WAL mode with ``synchronous=FULL``: a commit returns once
the write-ahead log is fsynced, so a record is durable before anything emits it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

#: A stored record: (seq, turn, type, body).
Record = tuple[int, int, str, bytes]

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    agent_definition_tag TEXT,
    parent_run_id TEXT,
    fork_point INTEGER,
    agent TEXT,
    model TEXT,
    turns INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    exit_code INTEGER,
    result BLOB
);
CREATE INDEX IF NOT EXISTS runs_by_tenant ON runs (tenant, created_at DESC, run_id DESC);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    type TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
"""


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


class Store:
    """The session database. Not thread-safe; one per process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)
        self._open = False

    @classmethod
    def open(cls, root: Path | None = None) -> Store:
        return cls((root or home()) / "iteron.db")

    def close(self) -> None:
        if self._open:
            self.db.execute("ROLLBACK")
            self._open = False
        self.db.close()

    def _begin(self) -> None:
        if not self._open:
            self.db.execute("BEGIN IMMEDIATE")
            self._open = True

    def commit(self) -> int:
        """Commit what was appended; returns the microseconds the commit (fsync) took."""
        if not self._open:
            return 0
        t0 = time.perf_counter_ns()
        self.db.execute("COMMIT")
        self._open = False
        return (time.perf_counter_ns() - t0) // 1000

    def create_run(
        self,
        run_id: str,
        tenant: str,
        *,
        tag: str | None = None,
        parent_run_id: str | None = None,
        fork_point: int | None = None,
    ) -> int:
        """Open a rollout (committed at once); returns the commit's microseconds."""
        stamp = now()
        self._begin()
        self.db.execute(
            "INSERT INTO runs (run_id, tenant, created_at, updated_at, agent_definition_tag,"
            " parent_run_id, fork_point) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run_id, tenant, stamp, stamp, tag, parent_run_id, fork_point),
        )
        return self.commit()

    def append(self, run_id: str, records: Iterable[Record]) -> None:
        """Append records to the open batch; durable at the next ``commit``."""
        self._begin()
        self.db.executemany(
            "INSERT INTO events (run_id, seq, turn, type, body) VALUES (?, ?, ?, ?, ?)",
            ((run_id, seq, turn, kind, body) for seq, turn, kind, body in records),
        )

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
    ) -> int:
        """Write the run's terminal state with the last records; returns commit µs."""
        self._begin()
        self.db.execute(
            "UPDATE runs SET updated_at = ?, outcome = ?, exit_code = ?, turns = ?, result = ?,"
            " agent = coalesce(?, agent), model = coalesce(?, model) WHERE run_id = ?",
            (now(), outcome, exit_code, turns, result, agent, model, run_id),
        )
        return self.commit()

    def run(self, run_id: str, tenant: str) -> sqlite3.Row | None:
        self.db.row_factory = sqlite3.Row
        try:
            return self.db.execute(
                "SELECT * FROM runs WHERE run_id = ? AND tenant = ?", (run_id, tenant)
            ).fetchone()
        finally:
            self.db.row_factory = None

    def events(self, run_id: str) -> Iterator[Record]:
        yield from self.db.execute(
            "SELECT seq, turn, type, body FROM events WHERE run_id = ? ORDER BY seq", (run_id,)
        )


class NoStore:
    """The store of ``scrubline project``: a filter keeps no record, so nothing to fsync."""

    def create_run(self, run_id: str, tenant: str, **_: object) -> int:
        return 0

    def append(self, run_id: str, records: Iterable[Record]) -> None:
        pass

    def commit(self) -> int:
        return 0

    def finish_run(self, run_id: str, **_: object) -> int:
        return 0
