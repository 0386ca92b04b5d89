"""What Spark costs on top of the scrubber (docs/spark.md): MB/s of the batch transform
``scrub_stream`` on ``local[1]`` and ``local[2]`` against the single-process scrubber on the
same streams, and rows/s of the live job (``scrub_live``, file source, RocksDB state).

    .venv/bin/python benches/spark.py            # about four minutes on 2 cores

Each Spark master runs in its own process (a JVM has one master). Every measurement
checks its output equals the single-process scrub before it counts."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import corpus
from scrubline.fleet import RuleSet, scrub_table

STREAMS, CHUNK, LIVE_CHUNK = 256, 4096, 1024


def streams(size: int, chunk: int = CHUNK) -> tuple[pa.Table, dict[str, str]]:
    """``size`` characters of agent output (a credential every 16 KiB) cut into
    ``STREAMS`` streams of ``chunk``-character rows, and each stream's whole text."""
    text, _ = corpus(size, every=16 * 1024)
    per = len(text) // STREAMS
    ids, seqs, chunks, whole = [], [], [], {}
    for i in range(STREAMS):
        part = text[i * per : (i + 1) * per if i < STREAMS - 1 else len(text)]
        run_id = f"run-{i:04d}"
        whole[run_id] = part
        for seq, at in enumerate(range(0, len(part), chunk)):
            ids.append(run_id)
            seqs.append(seq)
            chunks.append(part[at : at + chunk])
    table = pa.table({"run_id": ids, "seq": pa.array(seqs, pa.int64()), "chunk": chunks})
    return table, whole


def check(got: dict[str, str], whole: dict[str, str]) -> None:
    scrubber = RuleSet().scrubber()
    for run_id, text in whole.items():
        if got.get(run_id) != scrubber.scrub(text):
            raise SystemExit(f"wrong output for {run_id}")


def joined(rows) -> dict[str, str]:
    out: dict[str, list[tuple[int, bool, str]]] = {}
    for run_id, seq, final, chunk in rows:
        out.setdefault(run_id, []).append((seq, final, chunk))
    return {k: "".join(c for _, _, c in sorted(v)) for k, v in out.items()}


def single_process(table: pa.Table, whole: dict[str, str], rounds: int) -> dict:
    """The baseline: ``scrub_table`` in this process (one scrubber, Arrow in and out)."""
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        out = scrub_table(table, key="run_id", seq="seq", text="chunk", rules=RuleSet())
        times.append(time.perf_counter() - t)
    rows = zip(*(out.column(c).to_pylist() for c in ("run_id", "seq", "chunk")), strict=True)
    check(joined((k, s, False, c) for k, s, c in rows), whole)
    return {"seconds": statistics.median(times), "all": times}


def session(master: str):
    from pyspark.sql import SparkSession

    from scrubline.spark import ROCKSDB

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", master.removeprefix("local[").rstrip("]"))
        .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
        .config("spark.sql.streaming.noDataMicroBatches.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_batch(master: str, size: int, rounds: int) -> dict:
    """``scrub_stream`` over a cached DataFrame, written to the no-op sink."""
    from scrubline.spark import scrub_stream

    table, whole = streams(size)
    spark = session(master)
    df = spark.createDataFrame(table.to_pandas()).cache()
    df.count()
    transform = scrub_stream(key="run_id", seq="seq", text="chunk")
    out = df.transform(transform).select("run_id", "seq", "chunk").collect()
    check(joined((r.run_id, r.seq, False, r.chunk) for r in out), whole)
    times, moved = [], []
    in_order = df.repartition("run_id").sortWithinPartitions("run_id", "seq")
    for _ in range(rounds):
        t = time.perf_counter()
        df.transform(transform).write.format("noop").mode("overwrite").save()
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        in_order.mapInArrow(passthrough, df.schema).write.format("noop").mode("overwrite").save()
        moved.append(time.perf_counter() - t)
    spark.stop()
    return {"seconds": statistics.median(times), "all": times,
            "moved": {"seconds": statistics.median(moved), "all": moved}}  # fmt: skip


def passthrough(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The same plan as ``scrub_stream`` without the scrub: what moving rows costs."""
    yield from batches


def spark_live(master: str, size: int, files: int) -> dict:
    """``scrub_live`` reading ``files`` JSON Lines files of shuffled rows, one per
    micro-batch (availableNow), into Parquet; rows/s over the whole run and per batch."""
    from scrubline.spark import scrub_live

    table, whole = streams(size, chunk=LIVE_CHUNK)
    rows = table.to_pylist()
    ends = {r["run_id"]: r["seq"] for r in rows}  # the last seq of each stream
    random.Random(1).shuffle(rows)
    spark = session(master)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        now = time.time() - 100
        for i in range(files):
            path = folder / f"part-{i:03d}.jsonl"
            with path.open("w") as f:
                for r in rows[i::files]:
                    r["last"] = r["seq"] == ends[r["run_id"]]
                    f.write(json.dumps({k: r[k] for k in ("run_id", "seq", "chunk", "last")}))
                    f.write("\n")
            os.utime(path, (now + i, now + i))
        source = (
            spark.readStream.schema("run_id string, seq long, chunk string, last boolean")
            .option("maxFilesPerTrigger", 1)
            .json(str(folder))
        )
        live = scrub_live(source, key="run_id", seq="seq", text="chunk", end="last", ttl=3600)
        t = time.perf_counter()
        query = (
            live.writeStream.format("parquet")
            .option("path", f"{tmp}/out")
            .option("checkpointLocation", f"{tmp}/checkpoint")
            .trigger(availableNow=True)
            .start()
        )
        query.awaitTermination()
        seconds = time.perf_counter() - t
        batches = [p["durationMs"]["triggerExecution"] / 1000 for p in query.recentProgress]
        out = spark.read.parquet(f"{tmp}/out").collect()
        check(joined((r.run_id, r.seq, r.final, r.chunk) for r in out), whole)
    spark.stop()
    return {"seconds": seconds, "rows": len(rows), "batches": batches}


def child(args: argparse.Namespace) -> None:
    if args.what == "batch":
        result = spark_batch(args.master, args.size, args.rounds)
    else:
        result = spark_live(args.master, args.size, args.files)
    print(json.dumps(result))


def run_child(what: str, master: str, args: argparse.Namespace, size: int) -> dict:
    command = [sys.executable, __file__, "--child", what, "--master", master, "--size",
               str(size), "--rounds", str(args.rounds), "--files", str(args.files)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(name: str, r: dict, base: dict, mb: float) -> None:
    rounds = ", ".join(f"{t:.2f}" for t in r["all"])
    ratio = base["seconds"] / r["seconds"]
    print(f"| {name} | {r['seconds']:.2f} s ({rounds}) | {mb / r['seconds']:.1f} | {ratio:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=32 << 20, help="characters scrubbed (batch)")
    parser.add_argument("--live-size", type=int, default=4 << 20, help="characters (live, x1, x4)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", type=int, default=4, help="micro-batches of the live job")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--child", choices=["batch", "live"])
    args = parser.parse_args()
    if args.child:
        args.what = args.child
        child(args)
        return

    print(f"load average before: {os.getloadavg()}")
    table, whole = streams(args.size)
    mb = sum(len(c.encode()) for c in table.column("chunk").to_pylist()) / 1e6
    print(f"batch: {mb:.1f} MB in {STREAMS} streams, {table.num_rows} rows of {CHUNK} chars")
    print("| | median (rounds) | MB/s | against one process |\n|---|---|---|---|")
    base = single_process(table, whole, args.rounds)
    row("single process, `scrub_table`", base, base, mb)
    for master in ("local[1]", "local[2]"):
        r = run_child("batch", master, args, args.size)
        row(f"Spark `{master}`, `scrub_stream`", r, base, mb)
        row(f"Spark `{master}`, the same plan without the scrub", r["moved"], base, mb)
    print(
        "| live, `local[2]` | rows per micro-batch | micro-batches (s) | rows/s after the first |"
    )
    print("|---|---|---|---|")
    for size in (args.live_size, 4 * args.live_size):
        r = run_child("live", "local[2]", args, size)
        steady = statistics.median(r["batches"][1:] or r["batches"])
        per_batch = r["rows"] / args.files
        batches = ", ".join(f"{b:.1f}" for b in r["batches"])
        print(f"| {r['rows']} rows | {per_batch:.0f} | {batches} | {per_batch / steady:.0f} |")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
