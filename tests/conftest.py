"""Shared test data: the rule vectors (shared with the Rust tests) and the naughty strings."""

from __future__ import annotations

import json
import os
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
    server = PgServer(bindir)
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request):
    """Each store backend in turn: ``env(home)`` for a subprocess, ``open(home)`` for an
    in-process store, ``sql(home, query)`` to inspect what it holds."""
    from stores import PostgresBackend, SqliteBackend

    if request.param == "sqlite":
        return SqliteBackend()
    return PostgresBackend(request.getfixturevalue("pg_server"))


@pytest.fixture
def cli(backend):
    """``iteron`` subprocesses on ``backend`` (tests/stores.py)."""
    from stores import Cli

    return Cli(backend)
