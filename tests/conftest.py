"""Shared test data: the rule vectors (shared with the Rust tests) and the naughty strings."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def load_vectors() -> list[dict[str, str]]:
    path = FIXTURES / "rules" / "vectors.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def load_naughty() -> list[str]:
    return json.loads((FIXTURES / "naughty_strings.json").read_text("utf-8"))["strings"]


@pytest.fixture(scope="session")
def vectors() -> list[dict[str, str]]:
    return load_vectors()


@pytest.fixture(autouse=True)
def _keep_sigpipe():
    """A command's ``main()`` called in-process sets SIGPIPE to its default (a CLI ends
    quietly on a closed pipe); the test process must not inherit that, or a later test's
    in-process server writing to a closed socket kills the whole run."""
    old = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, old)


# -- the session store backends (the conformance suite runs on both) ---------------------


@pytest.fixture(scope="session")
def pg_server():
    """One PostgreSQL server for the session (tests/pgserver.py). Missing binaries fail
    the suite under ``make test`` (SCRUBLINE_REQUIRE_POSTGRES=1), else skip."""
    from stores import PgServer, server_bin

    bindir = server_bin()
    if bindir is None:
        message = "no PostgreSQL server binaries (make postgres-server installs them)"
        if os.environ.get("SCRUBLINE_REQUIRE_POSTGRES"):
            pytest.fail(message)
        pytest.skip(message)
    # fsync=off: each test's databases are dropped after it, and DROP DATABASE forces a
    # checkpoint (about 1 s each with fsync). What the suite checks (commit before print,
    # a killed client, a killed connection) does not rest on the server's fsync.
    server = PgServer(bindir, extra_options=" -c fsync=off")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request):
    """Each store backend in turn: ``env(home)`` for a subprocess, ``open(home)`` for an
    in-process store, ``sql(home, query)`` to inspect what it holds."""
    from stores import PostgresBackend, SqliteBackend

    if request.param == "sqlite":
        yield SqliteBackend()
        return
    backend = PostgresBackend(request.getfixturevalue("pg_server"))
    yield backend
    backend.drop()


@pytest.fixture
def pg_backend(pg_server):
    """The PostgreSQL backend alone, for what only it has (its databases dropped after)."""
    from stores import PostgresBackend

    backend = PostgresBackend(pg_server)
    yield backend
    backend.drop()


@pytest.fixture
def cli(backend):
    """``iteron`` subprocesses on ``backend`` (tests/stores.py)."""
    from stores import Cli

    return Cli(backend)


@pytest.fixture(scope="session")
def spark():
    """One local Spark (`local[2]`) for every Spark test; the RocksDB state store is set
    for the live streams. Skipped without pyspark unless SCRUBLINE_REQUIRE_SPARK is set
    (as `make test` does)."""
    if not os.environ.get("SCRUBLINE_REQUIRE_SPARK"):
        pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    from scrubline.spark import ROCKSDB

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
