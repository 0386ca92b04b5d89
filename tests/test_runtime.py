"""Runtime sources (docs/contract.md §1, trace.md bounds): a replayed or piped trace is split
into numbered lines exactly as a line reader would split it, whatever the reads bring,
with a line over the bound refused by its number and everything before it delivered."""

from __future__ import annotations

import io
import itertools
import json
import os
import signal
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from scrubline import TraceError
from scrubline.runtime import _lines, lines_of

PROJECT = [sys.executable, "-m", "scrubline", "project"]


def reference(data: bytes, max_line: int) -> tuple[list[tuple[int, bytes]], int | None]:
    """The plain line reader: readline, strip one \\n and one \\r before it."""
    f = io.BytesIO(data)
    out: list[tuple[int, bytes]] = []
    n = 0
    while line := f.readline(max_line + 2):
        n += 1
        if line.endswith(b"\n"):
            line = line[:-1]
            if line.endswith(b"\r"):
                line = line[:-1]
        if len(line) > max_line:
            return out, n
        out.append((n, line))
    return out, None


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


@given(
    data=st.lists(st.sampled_from([b"a", b"{}", b"\n", b"\r", b"\r\n", b"xyzw" * 3]), max_size=40),
    cuts=st.lists(st.integers(0, 200), max_size=12),
    max_line=st.integers(1, 16),
)
def test_lines_split_like_a_line_reader_whatever_the_reads(data, cuts, max_line):
    raw = b"".join(data)
    reads = iter([*chunked(raw, cuts), b""])
    got: list[tuple[int, bytes]] = []
    err = None
    try:
        for batch in _lines(lambda: next(reads), lambda: False, max_line):
            assert batch[1], "no empty batch"
            assert batch[0] == len(got) + 1, "batches are numbered consecutively"
            got.extend(lines_of(batch))
    except TraceError as e:
        err = e.line
    want, want_err = reference(raw, max_line)
    assert got == want
    assert err == want_err


def test_a_signal_ends_project_while_its_input_is_silent():
    """A live pipe is polled: SIGTERM ends the run with its result while the writer
    says nothing (exit 143), and what came before is published."""
    proc = subprocess.Popen(PROJECT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        proc.stdin.write(b'{"type":"phase","phase":"plan"}\n')
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["type"] == "phase"  # under way
        os.kill(proc.pid, signal.SIGTERM)
        rest, _ = proc.communicate(timeout=20)
        assert proc.returncode == 143
        result = json.loads(rest.splitlines()[-1])
        assert (result["outcome"], result["exit_code"]) == ("cancelled", 143)
    finally:
        proc.kill()
