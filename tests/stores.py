"""A real PostgreSQL server for the test suite, and the two store backends the
conformance suite runs on (docs/sessions.md, "Testing on PostgreSQL").

The server comes from Debian's ``postgresql`` package (``make postgres-server`` installs
it): ``initdb`` and ``pg_ctl`` on a free port of 127.0.0.1 with its data in a temporary
directory, as the ``postgres`` user when we are root (``pg_ctl`` refuses root). One
server per test session; one database per store a test makes. Password authentication
(scram-sha-256) over TCP, so every store URL carries a secret the tests can look for.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

from scrubline.store import SessionStore, open_store


def server_bin() -> Path | None:
    """The newest installed server's bin directory (Debian layout), else ``initdb`` on
    PATH."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """``initdb`` + ``pg_ctl start``; ``stop`` shuts it down and removes its files.
    ``extra_options`` go to the server's command line (``-c name=value`` …)."""

    def __init__(self, bindir: Path, extra_options: str = "") -> None:
        self.bindir = bindir
        root = os.geteuid() == 0
        # As root the server runs as `postgres`: its directory must be one it can reach
        # (not under a private TMPDIR).
        self.dir = Path(tempfile.mkdtemp(prefix="scrubline-pg-", dir="/tmp" if root else None))
        self.password = "pgpw-" + secrets.token_urlsafe(18)
        self.port = free_port()
        self._as: list[str] = []
        if root:
            shutil.chown(self.dir, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        pwfile = self.dir / "pw"
        pwfile.write_text(self.password + "\n")
        if self._as:
            shutil.chown(pwfile, "postgres")
        data = self.dir / "data"
        self._run(
            "initdb", "-D", str(data), "-U", "postgres", "--pwfile", str(pwfile),
            "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8",
            "--locale=C.UTF-8",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
            " -c max_connections=200 -c shared_buffers=64MB" + extra_options
        )
        self._run(
            "pg_ctl", "-D", str(data), "-w", "-t", "60", "-l", str(self.dir / "server.log"),
            "-o", options, "start",
        )  # fmt: skip
        self.data = data
        self.admin = psycopg.connect(self.url("postgres"), autocommit=True)
        self._databases = 0

    def _run(self, tool: str, *args: str) -> None:
        r = subprocess.run(
            [*self._as, str(self.bindir / tool), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        if r.returncode != 0:
            log = self.dir / "server.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed ({r.returncode}): {r.stderr}{r.stdout}{tail}")

    def url(self, database: str) -> str:
        return f"postgresql://postgres:{self.password}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        self._databases += 1
        name = f"store_{os.getpid()}_{self._databases}"
        self.admin.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        self.admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        try:
            self.admin.close()
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


class SqliteBackend:
    """The default store: the file under ITERON_HOME."""

    name = "sqlite"
    secret: str | None = None

    def env(self, home: Path) -> dict[str, str]:
        return {"ITERON_HOME": str(home), "ITERON_STORE": ""}

    def location(self, home: Path) -> str | None:
        return None

    def open(self, home: Path) -> SessionStore:
        return open_store(None, home)

    # Artifact content: the content-addressed directory under ITERON_HOME.

    def _path(self, home: Path, hash_: str) -> Path:
        return home / "artifacts" / "sha256" / hash_[7:9] / hash_[9:]

    def contents(self, home: Path) -> list[bytes]:
        root = home / "artifacts"
        return [p.read_bytes() for p in root.rglob("*") if p.is_file()]

    def content_of(self, home: Path, hash_: str) -> bytes:
        return self._path(home, hash_).read_bytes()

    def tamper(self, home: Path, hash_: str, data: bytes) -> None:
        self._path(home, hash_).write_bytes(data)

    def block(self, home: Path, hash_: str) -> None:
        """Make storing this content fail for real: a directory where it must go."""
        (self._path(home, hash_) / "blocker").mkdir(parents=True)

    def sql(self, home: Path, query: str) -> list[tuple]:
        import sqlite3

        db = sqlite3.connect(home / "iteron.db")
        try:
            return db.execute(query).fetchall()
        finally:
            db.close()


class PostgresBackend:
    """A database of the session's server per ITERON_HOME a test uses (content files
    stay under ITERON_HOME on both backends)."""

    name = "postgresql"

    def __init__(self, server: PgServer) -> None:
        self.server = server
        self.secret = server.password
        self._db: dict[Path, str] = {}

    def location(self, home: Path) -> str:
        if home not in self._db:
            self._db[home] = self.server.new_database()
        return self.server.url(self._db[home])

    def env(self, home: Path) -> dict[str, str]:
        return {"ITERON_HOME": str(home), "ITERON_STORE": self.location(home)}

    def drop(self) -> None:
        """Drop the databases this backend made (each is a few MB on disk)."""
        for name in self._db.values():
            self.server.drop_database(name)
        self._db.clear()

    def open(self, home: Path) -> SessionStore:
        return open_store(self.location(home), home)

    # Artifact content: the ``artifact_content`` table.

    def contents(self, home: Path) -> list[bytes]:
        return [c for (c,) in self.sql(home, "SELECT content FROM artifact_content")]

    def content_of(self, home: Path, hash_: str) -> bytes:
        [(content,)] = self.sql(
            home, f"SELECT content FROM artifact_content WHERE hash = '{hash_}'"
        )
        return content

    def tamper(self, home: Path, hash_: str, data: bytes) -> None:
        with psycopg.connect(self.location(home)) as db:
            db.execute("UPDATE artifact_content SET content = %s WHERE hash = %s", (data, hash_))

    def block(self, home: Path, hash_: str) -> None:
        """Make storing this content fail for real: the server raises on its insert."""
        self.open(home).close()  # the schema exists
        with psycopg.connect(self.location(home)) as db:
            db.execute(
                "CREATE FUNCTION refuse_content() RETURNS trigger LANGUAGE plpgsql AS $$"
                f" BEGIN IF NEW.hash = '{hash_}' THEN RAISE EXCEPTION 'no space left';"
                " END IF; RETURN NEW; END $$"
            )
            db.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON artifact_content"
                " FOR EACH ROW EXECUTE FUNCTION refuse_content()"
            )

    def sql(self, home: Path, query: str) -> list[tuple]:
        with psycopg.connect(self.location(home)) as db:
            return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
                    for row in db.execute(query).fetchall()]  # fmt: skip


ITERON = [sys.executable, "-m", "scrubline.cli.iteron"]


class Cli:
    """``iteron`` as a subprocess on one backend. Every call checks that the store's
    connection secret reached neither stdout nor stderr."""

    def __init__(self, backend: SqliteBackend | PostgresBackend) -> None:
        self.backend = backend

    def iteron(self, *args: str, home: Path, timeout: float = 120, **env: str):
        r = subprocess.run(
            [*ITERON, *args],
            capture_output=True,
            env={**os.environ, **self.backend.env(home), **env},
            timeout=timeout,
            check=False,
        )
        if self.backend.secret:
            assert self.backend.secret.encode() not in r.stdout + r.stderr
        return r

    def popen(self, args: list[str], home: Path, **kw) -> subprocess.Popen:
        env = {**os.environ, **self.backend.env(home)}
        return subprocess.Popen([*ITERON, *args], env=env, **kw)
