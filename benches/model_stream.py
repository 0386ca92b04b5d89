"""The built-in model runtime's latency against the fake OpenAI-compatible server
(tests/fake_openai.py, 127.0.0.1):

- time to first published byte: from the server writing its first content chunk to the
  first `assistant_text` line on `iteron run --output-format stream-json`'s stdout;
- added latency per streamed delta: from the server writing a delta to its published
  line, p50/p99, beside a baseline measured in the same run: a bare httpx + httpx-sse
  client reading the same stream (no boundary, no store).

Deltas are spaced (--gap ms) so each is read, admitted, fsynced and published alone:
the per-delta cost, not a batch's. Clocks: time.perf_counter_ns is CLOCK_MONOTONIC on
Linux, one clock for the server thread and the CLI process.

    .venv/bin/python benches/model_stream.py [--runs 20] [--deltas 200] [--gap 5] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import httpx_sse
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from fake_openai import DONE, FakeServer, Script, chunk

ITERON = [sys.executable, "-m", "scrubline.cli.iteron"]


def script(deltas: int, gap: float) -> Script:
    writes: list[bytes | float] = []
    for i in range(deltas):
        writes += [gap, chunk({"content": f"d{i} "})]
    return Script([*writes, chunk(finish="stop"), DONE])


def run_cli(deltas: int, gap: float, home: str) -> tuple[list[int], list[int]]:
    """(server write times, publish times) of each delta through iteron run."""
    srv = FakeServer([script(deltas, gap)])
    sent = _instrument(srv)
    with srv:
        proc = subprocess.Popen(
            [*ITERON, "run", "--output-format", "stream-json", "--model-url", srv.url,
             "--model", "bench", "task"],
            stdout=subprocess.PIPE,
            env={**os.environ, "ITERON_HOME": home},
        )  # fmt: skip
        assert proc.stdout is not None
        got: list[int] = []
        for line in proc.stdout:
            t = time.perf_counter_ns()
            if line.startswith(b'{"type":"assistant_text"'):
                got.append(t)
        proc.wait()
    return sent[: len(got)], got


def run_baseline(deltas: int, gap: float) -> tuple[list[int], list[int]]:
    """The same stream read by a bare httpx-sse client."""
    srv = FakeServer([script(deltas, gap)])
    sent = _instrument(srv)
    got: list[int] = []
    with srv, httpx.Client() as client:
        body = {"model": "bench", "messages": [], "stream": True}
        with httpx_sse.connect_sse(client, "POST", srv.url + "/chat/completions", json=body) as es:
            for ev in es.iter_sse():
                if ev.data == "[DONE]":
                    break
                c = orjson.loads(ev.data)
                if c["choices"][0]["delta"].get("content"):
                    got.append(time.perf_counter_ns())
    return sent[: len(got)], got


def _instrument(srv: FakeServer) -> list[int]:
    """Times at which the server wrote each content chunk."""
    sent: list[int] = []

    def noted(w: bytes) -> None:
        if b'"content": "d' in w:
            sent.append(time.perf_counter_ns())

    srv.on_write = noted
    return sent


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--deltas", type=int, default=200)
    ap.add_argument("--gap", type=float, default=5.0, help="ms between deltas")
    ap.add_argument("--home", default=None, help="where ITERON_HOME goes (default: a temp dir)")
    a = ap.parse_args()
    gap = a.gap / 1000
    first: list[float] = []
    cli: list[float] = []
    base: list[float] = []
    with tempfile.TemporaryDirectory(dir=a.home) as home:
        for _ in range(a.runs):
            sent, got = run_cli(a.deltas, gap, home)
            assert len(got) == a.deltas, (len(got), a.deltas)
            first.append((got[0] - sent[0]) / 1e3)
            cli += [(g - s) / 1e3 for s, g in zip(sent, got, strict=True)]
            sent, got = run_baseline(a.deltas, gap)
            assert len(got) == a.deltas
            base += [(g - s) / 1e3 for s, g in zip(sent, got, strict=True)]
    print(f"runs {a.runs} x {a.deltas} deltas, {a.gap:g} ms apart")
    print(f"time to first published byte (us): median {statistics.median(first):.0f}"
          f"  p99 {pct(first, 99):.0f}")  # fmt: skip
    for name, xs in (("iteron run (boundary + store)", cli), ("bare httpx-sse client", base)):
        print(f"{name:32s} per delta (us): p50 {pct(xs, 50):.0f}  p99 {pct(xs, 99):.0f}")
    print(f"added by the boundary (us): p50 {pct(cli, 50) - pct(base, 50):.0f}"
          f"  p99 {pct(cli, 99) - pct(base, 99):.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
