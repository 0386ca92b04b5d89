"""`iteron app-server` (docs/app-server.md): EQ events per second for 1 and 8 concurrent
replayed runs, and the latency from a runtime's delta to its EQ line.

Throughput: one server (fresh ITERON_HOME), bootstrap, then N `run/start` of the same
generated trace (benches/traces.py) at once; the clock runs from the first request to
the last `run/result`. Events/s = `run/event` lines received / wall time. The baseline,
measured in the same round, is `iteron run --replay TRACE --output-format stream-json`
(the one-shot CLI on the same trace, same store settings), events/s = its stdout lines /
wall time. Before a round counts, every run is `done` and every run's seqs arrive in
order.

Latency: a runtime process (`source.runtime_cmd`) writes an `assistant_delta` every 5 ms
holding its write time (`time.monotonic_ns`, the same clock in both processes); the
client notes the arrival of the EQ line carrying it. The first 20 deltas (the run's
start) are not counted. The baseline is the same runtime
under `iteron run --runtime-cmd … --output-format stream-json`.

python benches/app_server.py [--events 20000] [--rounds 3] [--deltas 1000] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from traces import generate

BIN = Path(sys.executable).parent
BOOT = {"client": {"name": "bench", "version": "1"}, "protocol_version": 7}


def server(home: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [str(BIN / "iteron"), "app-server", "--max-runs", "16"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=dict(os.environ, ITERON_HOME=str(home)),
    )


def send(proc: subprocess.Popen, rid: int, method: str, params: dict) -> None:
    proc.stdin.write(orjson.dumps({"id": rid, "method": method, "params": params}) + b"\n")
    proc.stdin.flush()


def eq_throughput(trace: Path, runs: int, home: Path) -> tuple[float, int]:
    proc = server(home)
    send(proc, 0, "bootstrap", BOOT)
    assert b"result" in proc.stdout.readline()
    t0 = time.perf_counter()
    for i in range(runs):
        send(proc, i + 1, "run/start", {"source": {"replay": str(trace)}})
    events, results, last = 0, 0, {}
    for line in proc.stdout:
        if line.startswith(b'{"jsonrpc":"2.0","method":"run/event"'):
            events += 1
            e = orjson.loads(line)["params"]
            assert e["seq"] > last.get(e["run_id"], 0)
            last[e["run_id"]] = e["seq"]
        elif b'"method":"run/result"' in line:
            assert orjson.loads(line)["params"]["outcome"] == "done"
            results += 1
            if results == runs:
                break
    wall = time.perf_counter() - t0
    proc.stdin.close()
    proc.wait()
    return events / wall, events


def cli_throughput(trace: Path, home: Path) -> float:
    cmd = [str(BIN / "iteron"), "run", "--replay", str(trace), "--output-format", "stream-json"]
    t0 = time.perf_counter()
    out = subprocess.run(
        cmd, capture_output=True, env=dict(os.environ, ITERON_HOME=str(home)), check=True
    ).stdout
    wall = time.perf_counter() - t0
    return (out.count(b"\n") - 1) / wall


TICKER = """\
import json, sys, time
print(json.dumps({"type": "run_start", "agent": "bench", "model": "m"}), flush=True)
for i in range(int(sys.argv[1])):
    t = time.monotonic_ns()
    print(json.dumps({"type": "assistant_delta", "text": f"<{t}> "}), flush=True)
    time.sleep(0.005)
print(json.dumps({"type": "run_end", "outcome": "done"}), flush=True)
"""


def _latencies(lines, n: int) -> list[float]:
    got = []
    for line in lines:
        now = time.monotonic_ns()
        if b"assistant_text" not in line:
            if b"run/result" in line or line.startswith(b'{"schema_version"'):
                break  # the result: the run is over
            continue
        text = orjson.loads(line)
        text = text.get("params", text)["text"]
        for part in text.split("<")[1:]:
            got.append((now - int(part.split(">")[0])) / 1000)
        if len(got) >= n:
            break
    return got


def eq_latency(script: Path, n: int, home: Path) -> list[float]:
    proc = server(home)
    send(proc, 0, "bootstrap", BOOT)
    proc.stdout.readline()
    cmd = f"{sys.executable} {script} {n}"
    send(proc, 1, "run/start", {"source": {"runtime_cmd": cmd}})
    got = _latencies(proc.stdout, n)
    proc.stdin.close()
    proc.wait()
    return got


def cli_latency(script: Path, n: int, home: Path) -> list[float]:
    cmd = [str(BIN / "iteron"), "run", "--runtime-cmd", f"{sys.executable} {script} {n}",
           "--output-format", "stream-json"]  # fmt: skip
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, env=dict(os.environ, ITERON_HOME=str(home))
    )
    got = _latencies(proc.stdout, n)
    proc.wait()
    return got


#: The first deltas of a run wait for its start (the runtime's first read): not counted.
WARMUP = 20


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--events", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--deltas", type=int, default=1000)
    p.add_argument("--home", default=None, help="where the stores go (e.g. /dev/shm)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(dir=args.home) as tmp:
        root = Path(tmp)
        trace = root / "trace.jsonl"
        lines, _planted = generate(args.events)
        trace.write_bytes(b"\n".join(lines) + b"\n")
        rows: dict[str, list[float]] = {"cli": [], "eq1": [], "eq8": []}
        for r in range(args.rounds):
            rows["cli"].append(cli_throughput(trace, root / f"c{r}"))
            rows["eq1"].append(eq_throughput(trace, 1, root / f"a{r}")[0])
            rows["eq8"].append(eq_throughput(trace, 8, root / f"b{r}")[0])
        med = {k: statistics.median(v) for k, v in rows.items()}
        print(f"trace: {args.events} events; median of {args.rounds} rounds")
        print(f"iteron run (baseline)   {med['cli']:>10,.0f} events/s")
        for k, label in (("eq1", "app-server, 1 run"), ("eq8", "app-server, 8 runs")):
            ratio = med[k] / med["cli"]
            print(f"{label:<23} {med[k]:>10,.0f} events/s  ({ratio:.2f}x)")
        script = root / "ticker.py"
        script.write_text(textwrap.dedent(TICKER))
        cli = cli_latency(script, args.deltas + WARMUP, root / "lc")[WARMUP:]
        eq = eq_latency(script, args.deltas + WARMUP, root / "le")[WARMUP:]
        for name, xs in (("iteron run (baseline)", cli), ("app-server EQ", eq)):
            p50, p99 = pct(xs, 0.5), pct(xs, 0.99)
            print(f"{name:<24} delta→line p50 {p50:>7.0f} µs  p99 {p99:>7.0f} µs  (n={len(xs)})")


if __name__ == "__main__":
    main()
