"""The SQLite session store (the default): one database under ITERON_HOME (S7).

A run is one row of ``runs`` plus its append-only ``events`` (already-redacted canonical
records, docs/projection.md). WAL mode with ``synchronous=FULL``: a commit returns once
the write-ahead log is fsynced, so a record is durable before anything emits it.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from scrubline.artifacts import ContentStore
from scrubline.cursor import load_key
from scrubline.errors import RunBusy, StoreError, StoreFailed
from scrubline.lease import RunLease
from scrubline.store import SESSION_FIELDS, Record, home, now

#: ``PRAGMA user_version`` of the current schema (the migration in ``_migrate``).
SCHEMA_VERSION = 1

#: The columns of ``runs`` beyond the first release's (run_id, tenant, created_at,
#: updated_at, turns, outcome, exit_code, result): a store that lacks one gets it on open,
#: so legacy (untagged) sessions stay readable and listable (S5).
RUN_COLUMNS = (
    ("created_n", "INTEGER"),  # creation order: the keyset of session lists
    ("agent_definition_tag", "TEXT"),
    ("parent_run_id", "TEXT"),
    ("fork_point", "INTEGER"),
    ("agent", "TEXT"),
    ("model", "TEXT"),
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    turns INTEGER NOT NULL DEFAULT 0,
    outcome TEXT,
    exit_code INTEGER,
    result BLOB
);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    type TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS artifacts (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
"""

INDEXES = """
CREATE UNIQUE INDEX IF NOT EXISTS runs_n ON runs (created_n);
CREATE INDEX IF NOT EXISTS runs_list ON runs (tenant, created_n DESC);
CREATE INDEX IF NOT EXISTS runs_list_tag ON runs (tenant, agent_definition_tag, created_n DESC);
CREATE INDEX IF NOT EXISTS runs_recent ON runs (tenant, updated_at DESC, created_n DESC);
CREATE INDEX IF NOT EXISTS artifacts_by_hash ON artifacts (hash, run_id);
"""


class SqliteStore:
    """The SQLite session database. Not thread-safe; one per process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._open = False
        self._leases: list[RunLease] = []
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA busy_timeout=5000")
            self._migrate()
        except StoreError:
            raise
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"cannot open the session store {path}: {e}") from None

    def _migrate(self) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the session store {self.path} has schema version {version}; this iteron"
                f" knows up to {SCHEMA_VERSION}"
            )
        self.db.execute("BEGIN IMMEDIATE")
        for stmt in SCHEMA.split(";"):
            if stmt.strip():
                self.db.execute(stmt)
        have = {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}
        for name, decl in RUN_COLUMNS:
            if name not in have:
                self.db.execute(f"ALTER TABLE runs ADD COLUMN {name} {decl}")
        if "created_n" not in have:
            # Legacy rows get their creation order from their creation time.
            self.db.execute(
                "UPDATE runs SET created_n = (SELECT count(*) FROM runs r2 WHERE"
                " r2.created_at < runs.created_at OR (r2.created_at = runs.created_at"
                " AND r2.run_id <= runs.run_id))"
            )
        for stmt in INDEXES.split(";"):
            if stmt.strip():
                self.db.execute(stmt)
        self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        self.db.execute("COMMIT")

    @classmethod
    def open(cls, root: Path | None = None) -> SqliteStore:
        return cls((root or home()) / "iteron.db")

    def close(self) -> None:
        if self._open:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            self._open = False
        self.db.close()
        for lease in self._leases:
            lease.release()
        self._leases.clear()

    def content_store(self, root: Path) -> ContentStore:
        """Artifact content: the content-addressed directory under ``root``."""
        return ContentStore(root)

    def cursor_key(self) -> bytes:
        """The store's cursor signing key: ``cursor.key`` beside the database."""
        return load_key(self.path.parent)

    def secrets(self) -> list[str]:
        return []

    def claim(self, run_id: str) -> None:
        """Become the run's one writer until ``close``, else ``RunBusy``: the run's lease
        (``lease.RunLease``, a record lock in ``runs.lock`` beside the database, dropped
        by the kernel when the process dies). Within one process a run is not refused
        twice: the App Server keeps its own runs apart."""
        try:
            self._leases.append(RunLease.take(self.path.parent, run_id))
        except RunBusy:
            raise RunBusy(f"run {run_id!r} has another writer (retryable)") from None
        except OSError as e:
            raise StoreFailed(f"cannot claim run {run_id!r}: {e.strerror or e}") from None

    def abandon(self) -> None:
        """Drop the open batch after a failed write (best effort: the database may be
        unusable); what was committed before stays."""
        if self._open:
            self._open = False
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")

    def _begin(self) -> None:
        if not self._open:
            self.db.execute("BEGIN IMMEDIATE")
            self._open = True

    def commit(self) -> int:
        """Commit what was appended; returns the microseconds the commit (fsync) took."""
        if not self._open:
            return 0
        t0 = time.perf_counter_ns()
        with _failing():
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
        with _failing():
            self._begin()
            self.db.execute(
                "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
                " agent_definition_tag, parent_run_id, fork_point) VALUES (?, ?, ?, ?,"
                " (SELECT coalesce(max(created_n), 0) + 1 FROM runs), ?, ?, ?)",
                (run_id, tenant, stamp, stamp, tag, parent_run_id, fork_point),
            )
        return self.commit()

    def append(self, run_id: str, records: Iterable[Record]) -> None:
        """Append records to the open batch; durable at the next ``commit``."""
        with _failing():
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
        with _failing():
            self._begin()
            self.db.execute(
                "UPDATE runs SET updated_at = ?, outcome = ?, exit_code = ?, turns = turns + ?,"
                " result = ?,"
                " agent = coalesce(?, agent), model = coalesce(?, model) WHERE run_id = ?",
                (now(), outcome, exit_code, turns, result, agent, model, run_id),
            )
        return self.commit()

    def salvage(self, run_id: str, *, outcome: str, exit_code: int, result: bytes) -> bool:
        """After a failed write: record the run's end in a transaction of its own (a
        full disk usually refuses this too). Best effort."""
        self.abandon()
        try:
            self.db.execute(
                "UPDATE runs SET updated_at = ?, outcome = ?, exit_code = ?, result = ?"
                " WHERE run_id = ?",
                (now(), outcome, exit_code, result, run_id),
            )
        except sqlite3.Error:
            return False
        return True

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

    # -- sessions (S1-S6) ----------------------------------------------------------------

    def sessions(
        self, tenant: str, tag: str | None, before: int | None, limit: int
    ) -> list[sqlite3.Row]:
        """A tenant's runs, newest first, created before keyset position ``before``."""
        sql = f"SELECT {SESSION_FIELDS} FROM runs WHERE tenant = ?"
        args: list[object] = [tenant]
        if tag is not None:
            sql += " AND agent_definition_tag = ?"
            args.append(tag)
        if before is not None:
            sql += " AND created_n < ?"
            args.append(before)
        sql += " ORDER BY created_n DESC LIMIT ?"
        args.append(limit)
        return self._rows(sql, args)

    def session_at(self, tenant: str, created_n: int) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM runs WHERE tenant = ? AND created_n = ?", (tenant, created_n)
        ).fetchone()
        return row is not None

    def events_before(self, run_id: str, before: int | None, limit: int) -> list[Record]:
        """Up to ``limit`` records of a run older than seq ``before``, newest first."""
        if before is None:
            sql = "SELECT seq, turn, type, body FROM events WHERE run_id = ? ORDER BY seq DESC"
            return self.db.execute(sql + " LIMIT ?", (run_id, limit)).fetchall()
        return self.db.execute(
            "SELECT seq, turn, type, body FROM events WHERE run_id = ? AND seq < ?"
            " ORDER BY seq DESC LIMIT ?",
            (run_id, before, limit),
        ).fetchall()

    def has_event(self, run_id: str, seq: int) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM events WHERE run_id = ? AND seq = ?", (run_id, seq)
        ).fetchone()
        return row is not None

    def latest_run(self, tenant: str) -> sqlite3.Row | None:
        rows = self._rows(
            "SELECT * FROM runs WHERE tenant = ? ORDER BY updated_at DESC, created_n DESC LIMIT 1",
            [tenant],
        )
        return rows[0] if rows else None

    def position(self, run_id: str) -> tuple[int, int]:
        """(last seq, next turn) of a run: where a resumed invocation continues."""
        seq, turn = self.db.execute(
            "SELECT coalesce(max(seq), 0),"
            " coalesce(max(CASE WHEN type != 'run_end' THEN turn END), 0)"
            " FROM events WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        return seq, turn + 1

    def fork(self, parent, child_id: str) -> int:
        """Create ``child_id`` holding the parent's records up to its last seq (the fork
        point), with its tenant, tag, agent and model; the parent is untouched."""
        stamp = now()
        self._begin()
        (point,) = self.db.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE run_id = ?", (parent["run_id"],)
        ).fetchone()
        self.db.execute(
            "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
            " agent_definition_tag, parent_run_id, fork_point, agent, model, turns)"
            " VALUES (?, ?, ?, ?, (SELECT coalesce(max(created_n), 0) + 1 FROM runs),"
            " ?, ?, ?, ?, ?, ?)",
            (
                child_id,
                parent["tenant"],
                stamp,
                stamp,
                parent["agent_definition_tag"],
                parent["run_id"],
                point,
                parent["agent"],
                parent["model"],
                parent["turns"],
            ),
        )
        for table, cols in (("events", "seq, turn, type, body"), ("artifacts", "seq, hash")):
            self.db.execute(
                f"INSERT INTO {table} (run_id, {cols}) SELECT ?, {cols} FROM {table}"
                " WHERE run_id = ? AND seq <= ?",
                (child_id, parent["run_id"], point),
            )
        self.commit()
        return point

    # -- artifacts (A1-A5) -------------------------------------------------------------

    def add_artifact(self, run_id: str, seq: int, hash_: str) -> None:
        """Index a declared artifact; in the batch of its ``artifact_produced`` record."""
        with _failing():
            self._begin()
            self.db.execute(
                "INSERT INTO artifacts (run_id, seq, hash) VALUES (?, ?, ?)", (run_id, seq, hash_)
            )

    def artifact_hashes(self, run_id: str) -> set[str]:
        rows = self.db.execute("SELECT hash FROM artifacts WHERE run_id = ?", (run_id,))
        return {h for (h,) in rows}

    def artifacts_after(self, run_id: str, after: int | None, limit: int) -> list[Record]:
        """The ``artifact_produced`` records of a run after seq ``after``, oldest first."""
        return self.db.execute(
            "SELECT e.seq, e.turn, e.type, e.body FROM artifacts a JOIN events e"
            " ON e.run_id = a.run_id AND e.seq = a.seq WHERE a.run_id = ? AND a.seq > ?"
            " ORDER BY a.seq LIMIT ?",
            (run_id, after or 0, limit),
        ).fetchall()

    def has_artifact(self, run_id: str, seq: int) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM artifacts WHERE run_id = ? AND seq = ?", (run_id, seq)
        ).fetchone()
        return row is not None

    def tenant_has_artifact(self, tenant: str, hash_: str) -> bool:
        row = self.db.execute(
            "SELECT 1 FROM artifacts a JOIN runs r ON r.run_id = a.run_id"
            " WHERE a.hash = ? AND r.tenant = ? LIMIT 1",
            (hash_, tenant),
        ).fetchone()
        return row is not None

    def _rows(self, sql: str, args: list[object]) -> list[sqlite3.Row]:
        self.db.row_factory = sqlite3.Row
        try:
            return self.db.execute(sql, args).fetchall()
        finally:
            self.db.row_factory = None


@contextlib.contextmanager
def _failing() -> Iterator[None]:
    """A write that fails (disk full, I/O error) is ``StoreFailed``."""
    try:
        yield
    except sqlite3.Error as e:
        raise StoreFailed(f"the session store failed: {e}") from None
