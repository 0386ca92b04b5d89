"""Shared test data: the rule vectors (shared with the Rust tests) and the naughty strings."""

from __future__ import annotations

import json
import signal
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
