"""The PostgreSQL session store: the SQLite store's behaviour on a server that many
runners share (docs/sessions.md, "PostgreSQL"). Hand-written SQL on psycopg 3.

Ordering never rests on what PostgreSQL does not promise: a run's events are keyed by
the seq its one writer assigns (``claim``: a session advisory lock); a run's creation
number is taken under a transaction advisory lock, so creation numbers commit in their
order; timestamps come from ``clock_timestamp()`` (``CURRENT_TIMESTAMP`` is one value
per transaction) and order nothing but ``--continue``. The connection string is a
secret: every message from here has it (and its password) replaced.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from scrubline.artifacts import ArtifactError, address, check_address
from scrubline.errors import RunBusy, StoreError, StoreFailed
from scrubline.store import SESSION_FIELDS, Record

try:
    import psycopg
    from psycopg.rows import dict_row
except ImportError:  # the `postgres` extra is not installed
    psycopg = None  # type: ignore[assignment]

#: The advisory lock keys of this store (bigint space; run claims hash into the rest).
LOCK_MIGRATE = 0x6974_6572_6F6E_0001
LOCK_CREATE = 0x6974_6572_6F6E_0002
REDACTED = "[REDACTED:store-url]"

#: Numbered migrations: ``store_meta.schema_version`` says how many have been applied.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        run_id text PRIMARY KEY,
        tenant text NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        created_n bigint NOT NULL UNIQUE,
        turns bigint NOT NULL DEFAULT 0,
        outcome text,
        exit_code integer,
        result bytea,
        agent_definition_tag text,
        parent_run_id text,
        fork_point bigint,
        agent text,
        model text
    );
    CREATE TABLE events (
        run_id text NOT NULL,
        seq bigint NOT NULL,
        turn bigint NOT NULL,
        type text NOT NULL,
        body bytea NOT NULL,
        PRIMARY KEY (run_id, seq)
    );
    CREATE TABLE artifacts (
        run_id text NOT NULL,
        seq bigint NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (run_id, seq)
    );
    CREATE INDEX runs_list ON runs (tenant, created_n DESC);
    CREATE INDEX runs_list_tag ON runs (tenant, agent_definition_tag, created_n DESC);
    CREATE INDEX runs_recent ON runs (tenant, updated_at DESC, created_n DESC);
    CREATE INDEX artifacts_by_hash ON artifacts (hash, run_id);
    """,
    # 2: artifact content in the database, so every runner sharing the store can reopen it.
    """
    CREATE TABLE artifact_content (
        hash text PRIMARY KEY,
        content bytea NOT NULL
    );
    """,
)

#: The server's clock, in the SQLite store's text format (sorts as text).
NOW = """to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""


def url_secrets(url: str) -> list[str]:
    """The parts of a connection string never to print: the string itself and its
    password (as written and percent-decoded, in URL or ``password=`` form)."""
    found = [url]
    with contextlib.suppress(ValueError):
        password = urlsplit(url).password
        if password:
            found += [password, unquote(password)]
    found += re.findall(r"password=([^&\s]+)", url)
    return sorted({s for s in found if s}, key=len, reverse=True)


#: Connection settings the URL may override: a server that stops answering mid-run
#: fails the run within about 30 s (``store_failed``, retryable) instead of hanging.
CONNECTION_DEFAULTS = {
    "connect_timeout": "10",
    "application_name": "iteron",
    "keepalives": "1",
    "keepalives_idle": "10",
    "keepalives_interval": "5",
    "keepalives_count": "3",
    "tcp_user_timeout": "30000",
}


def connection_string(url: str) -> str:
    """``url`` with ``CONNECTION_DEFAULTS`` for what it does not set itself."""
    given = psycopg.conninfo.conninfo_to_dict(url)
    extra = {k: v for k, v in CONNECTION_DEFAULTS.items() if k not in given}
    return psycopg.conninfo.make_conninfo(url, **extra)


class PostgresStore:
    """One connection to the server. Not thread-safe; one per process."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._secrets = url_secrets(url)
        if psycopg is None:
            raise StoreError(
                "a postgresql:// store needs psycopg: pip install 'scrubline[postgres]'"
            )
        self._open = False
        self._key: bytes | None = None
        try:
            # prepare_threshold=None: no server-side prepared statements (a pooling
            # proxy in front of the server may hand us another server session).
            self.db = psycopg.connect(connection_string(url), prepare_threshold=None)
        except psycopg.Error as e:
            raise StoreError(f"cannot open the session store: {self.redact(str(e))}") from None
        try:
            self._migrate()
        except StoreError:
            self.db.close()
            raise
        except psycopg.Error as e:
            self.db.close()
            raise StoreError(f"cannot open the session store: {self.redact(str(e))}") from None

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return " ".join(text.split())  # the driver's message on one line

    def secrets(self) -> list[str]:
        return list(self._secrets)

    # -- schema ---------------------------------------------------------------------------

    def _version(self) -> int | None:
        try:
            row = self.db.execute(
                "SELECT convert_from(value, 'UTF8') FROM store_meta WHERE name = 'schema_version'"
            ).fetchone()
        except psycopg.errors.UndefinedTable:
            self.db.rollback()
            return None
        self.db.commit()
        return int(row[0]) if row else None

    def _migrate(self) -> None:
        """Apply the migrations the store lacks, once, whoever opens it first."""
        if self._version() == len(MIGRATIONS):
            return
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_MIGRATE,))
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS store_meta"
                " (name text PRIMARY KEY, value bytea NOT NULL)"
            )
            row = self.db.execute(
                "SELECT convert_from(value, 'UTF8') FROM store_meta WHERE name = 'schema_version'"
            ).fetchone()
            version = int(row[0]) if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"the session store has schema version {version}; this iteron knows up"
                    f" to {len(MIGRATIONS)}"
                )
            for sql in MIGRATIONS[version:]:
                self.db.execute(sql)
            self.db.execute(
                "INSERT INTO store_meta VALUES ('schema_version', convert_to(%s, 'UTF8'))"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (str(len(MIGRATIONS)),),
            )
            self.db.execute(
                "INSERT INTO store_meta VALUES ('cursor_key', %s) ON CONFLICT DO NOTHING",
                (os.urandom(32),),
            )

    # -- transactions ---------------------------------------------------------------------

    @contextlib.contextmanager
    def _failing(self) -> Iterator[None]:
        """A driver error (the connection lost, the server shut down) is ``StoreFailed``
        with the connection string redacted."""
        try:
            yield
        except psycopg.Error as e:
            raise StoreFailed(f"the session store failed: {self.redact(str(e))}") from None

    def _one(self, sql: str, args: tuple | list = ()) -> Any:
        with self._failing():
            row = self.db.execute(sql, args).fetchone()
            if not self._open:
                self.db.commit()  # a read ends its own transaction
        return row

    def _all(self, sql: str, args: tuple | list = (), rows: bool = False) -> list:
        with self._failing():
            cur = self.db.cursor(row_factory=dict_row) if rows else self.db.cursor()
            found = cur.execute(sql, args).fetchall()
            if not self._open:
                self.db.commit()
        return found

    def close(self) -> None:
        with contextlib.suppress(psycopg.Error):
            if self._open:
                self.db.rollback()
            # Claims are released here, not left to the server noticing the closed
            # connection (it does so a moment later: a writer claiming the run right
            # after this returned could still find it busy).
            self.db.execute("SELECT pg_advisory_unlock_all()")
            self.db.rollback()
        with contextlib.suppress(psycopg.Error):
            self.db.close()  # ends the session: anything left goes with it
        self._open = False

    def abandon(self) -> None:
        if self._open:
            self._open = False
            with contextlib.suppress(psycopg.Error):
                self.db.rollback()

    def commit(self) -> int:
        """Commit what was appended; returns the microseconds the commit took."""
        if not self._open:
            return 0
        t0 = time.perf_counter_ns()
        with self._failing():
            self.db.commit()
        self._open = False
        return (time.perf_counter_ns() - t0) // 1000

    def content_store(self, root: Path) -> DatabaseContent:
        """Artifact content: the ``artifact_content`` table (``root`` is not used)."""
        return DatabaseContent(self)

    def cursor_key(self) -> bytes:
        """The signing key every runner sharing this store uses (made with the schema)."""
        if self._key is None:
            (key,) = self._one("SELECT value FROM store_meta WHERE name = 'cursor_key'")
            self._key = bytes(key)
        return self._key

    def claim(self, run_id: str) -> None:
        """Become the run's one writer until ``close`` (or until the connection ends),
        else ``RunBusy``: a session advisory lock on a 64-bit hash of the run id."""
        (got,) = self._one("SELECT pg_try_advisory_lock(hashtextextended(%s, 7))", (run_id,))
        if not got:
            raise RunBusy(f"run {run_id!r} has another writer (retryable)")

    # -- writes ---------------------------------------------------------------------------

    def salvage(self, run_id: str, *, outcome: str, exit_code: int, result: bytes) -> bool:
        """After this connection failed mid-run: record the run's end over a new
        connection, unless another writer took the run meanwhile. Best effort."""
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(
                connection_string(self._url), prepare_threshold=None, autocommit=True
            ) as db,
        ):
            claim = "SELECT pg_try_advisory_lock(hashtextextended(%s, 7))"
            if db.execute(claim, (run_id,)).fetchone()[0]:
                db.execute(
                    f"UPDATE runs SET updated_at = {NOW}, outcome = %s, exit_code = %s,"
                    " result = %s WHERE run_id = %s",
                    (outcome, exit_code, result, run_id),
                )
                return True
        return False

    def create_run(
        self,
        run_id: str,
        tenant: str,
        *,
        tag: str | None = None,
        parent_run_id: str | None = None,
        fork_point: int | None = None,
    ) -> int:
        with self._failing():
            self._open = True
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_CREATE,))
            self.db.execute(
                "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
                " agent_definition_tag, parent_run_id, fork_point)"
                f" SELECT %s, %s, t, t, (SELECT coalesce(max(created_n), 0) + 1 FROM runs),"
                f" %s, %s, %s FROM (SELECT {NOW} AS t) now",
                (run_id, tenant, tag, parent_run_id, fork_point),
            )
        return self.commit()

    def append(self, run_id: str, records: Iterable[Record]) -> None:
        with self._failing():
            self._open = True
            cur = self.db.cursor()
            with cur.copy("COPY events (run_id, seq, turn, type, body) FROM STDIN") as copy:
                for seq, turn, kind, body in records:
                    copy.write_row((run_id, seq, turn, kind, body))

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
        with self._failing():
            self._open = True
            self.db.execute(
                f"UPDATE runs SET updated_at = {NOW}, outcome = %s, exit_code = %s,"
                " turns = turns + %s, result = %s, agent = coalesce(%s, agent),"
                " model = coalesce(%s, model) WHERE run_id = %s",
                (outcome, exit_code, turns, result, agent, model, run_id),
            )
        return self.commit()

    def fork(self, parent, child_id: str) -> int:
        """As the SQLite store: the child holds the parent's records up to its last
        committed seq; one transaction."""
        with self._failing():
            self._open = True
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_CREATE,))
            (point,) = self.db.execute(
                "SELECT coalesce(max(seq), 0) FROM events WHERE run_id = %s",
                (parent["run_id"],),
            ).fetchone()
            self.db.execute(
                "INSERT INTO runs (run_id, tenant, created_at, updated_at, created_n,"
                " agent_definition_tag, parent_run_id, fork_point, agent, model, turns)"
                " SELECT %s, %s, t, t, (SELECT coalesce(max(created_n), 0) + 1 FROM runs),"
                f" %s, %s, %s, %s, %s, %s FROM (SELECT {NOW} AS t) now",
                (
                    child_id,
                    parent["tenant"],
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
                    f"INSERT INTO {table} (run_id, {cols}) SELECT %s, {cols} FROM {table}"
                    " WHERE run_id = %s AND seq <= %s",
                    (child_id, parent["run_id"], point),
                )
        self.commit()
        return point

    def add_artifact(self, run_id: str, seq: int, hash_: str) -> None:
        with self._failing():
            self._open = True
            self.db.execute(
                "INSERT INTO artifacts (run_id, seq, hash) VALUES (%s, %s, %s)",
                (run_id, seq, hash_),
            )

    # -- reads ----------------------------------------------------------------------------

    def run(self, run_id: str, tenant: str) -> dict | None:
        rows = self._all(
            "SELECT * FROM runs WHERE run_id = %s AND tenant = %s", (run_id, tenant), rows=True
        )
        return rows[0] if rows else None

    def events(self, run_id: str) -> Iterator[Record]:
        yield from self._all(
            "SELECT seq, turn, type, body FROM events WHERE run_id = %s ORDER BY seq", (run_id,)
        )

    def sessions(self, tenant: str, tag: str | None, before: int | None, limit: int) -> list:
        sql = f"SELECT {SESSION_FIELDS} FROM runs WHERE tenant = %s"
        args: list[object] = [tenant]
        if tag is not None:
            sql += " AND agent_definition_tag = %s"
            args.append(tag)
        if before is not None:
            sql += " AND created_n < %s"
            args.append(before)
        sql += " ORDER BY created_n DESC LIMIT %s"
        args.append(limit)
        return self._all(sql, args, rows=True)

    def session_at(self, tenant: str, created_n: int) -> bool:
        row = self._one(
            "SELECT 1 FROM runs WHERE tenant = %s AND created_n = %s", (tenant, created_n)
        )
        return row is not None

    def events_before(self, run_id: str, before: int | None, limit: int) -> list[Record]:
        return self._all(
            "SELECT seq, turn, type, body FROM events WHERE run_id = %s AND seq < %s"
            " ORDER BY seq DESC LIMIT %s",
            (run_id, (1 << 62) if before is None else before, limit),
        )

    def has_event(self, run_id: str, seq: int) -> bool:
        row = self._one("SELECT 1 FROM events WHERE run_id = %s AND seq = %s", (run_id, seq))
        return row is not None

    def latest_run(self, tenant: str) -> dict | None:
        rows = self._all(
            "SELECT * FROM runs WHERE tenant = %s ORDER BY updated_at DESC, created_n DESC LIMIT 1",
            (tenant,),
            rows=True,
        )
        return rows[0] if rows else None

    def position(self, run_id: str) -> tuple[int, int]:
        seq, turn = self._one(
            "SELECT coalesce(max(seq), 0),"
            " coalesce(max(turn) FILTER (WHERE type <> 'run_end'), 0)"
            " FROM events WHERE run_id = %s",
            (run_id,),
        )
        return seq, turn + 1

    def artifact_hashes(self, run_id: str) -> set[str]:
        return {h for (h,) in self._all("SELECT hash FROM artifacts WHERE run_id = %s", (run_id,))}

    def artifacts_after(self, run_id: str, after: int | None, limit: int) -> list[Record]:
        return self._all(
            "SELECT e.seq, e.turn, e.type, e.body FROM artifacts a JOIN events e"
            " ON e.run_id = a.run_id AND e.seq = a.seq WHERE a.run_id = %s AND a.seq > %s"
            " ORDER BY a.seq LIMIT %s",
            (run_id, after or 0, limit),
        )

    def has_artifact(self, run_id: str, seq: int) -> bool:
        row = self._one("SELECT 1 FROM artifacts WHERE run_id = %s AND seq = %s", (run_id, seq))
        return row is not None

    def tenant_has_artifact(self, tenant: str, hash_: str) -> bool:
        row = self._one(
            "SELECT 1 FROM artifacts a JOIN runs r ON r.run_id = a.run_id"
            " WHERE a.hash = %s AND r.tenant = %s LIMIT 1",
            (hash_, tenant),
        )
        return row is not None


class DatabaseContent:
    """Artifact content in the PostgreSQL store (``artifact_content``, keyed by address).

    ``put`` writes the content in the run's open batch (a savepoint: a refused write
    leaves the batch intact) and reads it back and re-hashes it: the witness. The content
    then commits in the same transaction as its ``artifact_produced`` record, so no
    runner ever sees the record without the content.
    """

    def __init__(self, store: PostgresStore) -> None:
        self.store = store

    def put(self, content: bytes) -> str:
        hash_ = address(content)
        db = self.store.db
        try:
            if db.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
                db.execute("SELECT 1")  # open the batch: transaction() is then a savepoint
            self.store._open = True
            with db.transaction():
                db.execute(
                    "INSERT INTO artifact_content (hash, content) VALUES (%s, %s)"
                    " ON CONFLICT (hash) DO NOTHING",
                    (hash_, content),
                )
                row = db.execute(
                    "SELECT content FROM artifact_content WHERE hash = %s", (hash_,)
                ).fetchone()
        except psycopg.Error as e:
            message = self.store.redact(str(e))
            raise ArtifactError("write_failed", f"{hash_}: {message}") from None
        if row is None or address(bytes(row[0])) != hash_:
            raise ArtifactError("corrupt", f"{hash_}: the stored content does not match its hash")
        return hash_

    def verify(self, hash_: str) -> bytes:
        check_address(hash_)
        try:
            row = self.store._one("SELECT content FROM artifact_content WHERE hash = %s", (hash_,))
        except StoreFailed as e:
            raise ArtifactError("missing", f"{hash_}: {e}") from None
        if row is None:
            raise ArtifactError("missing", f"{hash_}: no stored content")
        content = bytes(row[0])
        if address(content) != hash_:
            raise ArtifactError("corrupt", f"{hash_}: the stored content does not match its hash")
        return content
