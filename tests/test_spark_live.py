"""Live streams (docs/spark.md, "Live streams"): the per-key step without Spark, under
hypothesis, then ``scrub_live`` on a real local Spark reading files micro-batch by
micro-batch, stopped and restarted from its checkpoint. The property throughout: a
stream's released rows, in sequence order, concatenate to the single-process scrub of
its whole text, whatever the batches and their order (K8-K11)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("SCRUBLINE_REQUIRE_SPARK"):  # `make test` requires it
    pytest.importorskip("pyarrow")
import pyarrow as pa

from scrubline.fleet import REDACTIONS, RuleSet, scrub_table
from scrubline.live import LATE, LiveRow, LiveScrubber, LiveState
from test_spark import LITERAL, SECRETS
from test_spark import corpus as batch_corpus

RULES = RuleSet(literals=(LITERAL,))
# Two workers: a stream's state moves between them as it would between executors.
HERE, THERE = LiveScrubber(RULES), LiveScrubber(RULES)
WHOLE = RULES.scrubber()


def scrub(text: str) -> str:
    return WHOLE.scrub(text)


def chunked(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c for c in cuts if 0 < c < len(text)})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


def in_order(rows: list[LiveRow]) -> list[LiveRow]:
    return sorted(rows, key=lambda r: (r.seq, r.final))


# -- the per-key step, without Spark -------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    text=st.lists(st.sampled_from([*"ab =:\n", "password=", *SECRETS]), max_size=30).map("".join),
    cuts=st.lists(st.integers(0, 300), max_size=10),
    batch_of=st.lists(st.integers(0, 5), min_size=12, max_size=12),
    order=st.randoms(use_true_random=False),
    nulls=st.sets(st.integers(0, 12), max_size=3),
    marked_end=st.booleans(),
)
def test_k8_k10_any_batches_in_any_order_give_the_whole_scrub(
    text, cuts, batch_of, order, nulls, marked_end
):
    chunks = chunked(text, cuts) or [""]
    rows = [(i, None if i in nulls and c == "" else c, False) for i, c in enumerate(chunks)]
    if marked_end:
        rows[-1] = (*rows[-1][:2], True)
    batches: dict[int, list] = {}
    for i, row in enumerate(rows):
        batches.setdefault(batch_of[i % len(batch_of)], []).append(row)
    arrival = list(batches.values())
    order.shuffle(arrival)
    state, out, workers = LiveState(), [], [HERE, THERE]
    for n, batch in enumerate(arrival):
        order.shuffle(batch)
        out += workers[n % 2].advance(state, batch)
    emitted = list(out)
    out += HERE.expire(state)

    assert [r.seq for r in emitted] == list(range(len(rows)))  # released in order, once
    assert all(r.gap == 0 for r in out)
    assert "".join(r.text for r in out) == scrub(text)
    assert sum(r.redactions for r in out) == scrub(text).count("[REDACTED:")
    if marked_end:
        # Row for row what the batch scrub gives, and nothing more at expiry.
        table = pa.table({"k": ["k"] * len(rows), "seq": [r[0] for r in rows],
                          "chunk": pa.array([r[1] for r in rows], pa.string())})  # fmt: skip
        batch = scrub_table(table, key="k", seq="seq", text="chunk", rules=RULES)
        assert [r.text for r in out] == batch.column("chunk").to_pylist()
        assert [r.redactions for r in out] == batch.column(REDACTIONS).to_pylist()
        assert [r.final for r in out] == [False] * (len(rows) - 1) + [True]
    else:
        assert out[-1] == LiveRow(len(rows) - 1, out[-1].text, out[-1].redactions, 0, True)
        assert [r.final for r in out].count(True) == 1
    assert state == LiveState(next_seq=len(rows))


def test_k9_a_row_waits_for_the_ones_before_it():
    state = LiveState()
    assert HERE.advance(state, [(2, LITERAL[5], False), (1, "b " + LITERAL[:5], False)]) == []
    assert sorted(state.held) == [1, 2] and state.snapshot is None
    out = HERE.advance(state, [(0, "a ", False)])
    assert [r.seq for r in out] == [0, 1, 2]
    assert "a b ".startswith("".join(r.text for r in out))  # the literal's head is held back
    out += HERE.advance(state, [(3, LITERAL[6:] + "!", True)])
    assert "".join(r.text for r in out) == "a b [REDACTED:literal-secret]!"
    assert out[-1].final and state.snapshot is None and not state.held


def test_k11_expiry_gives_up_on_a_gap_and_flushes_the_tail():
    """A missing row that never comes: on expiry the rows behind it are released in
    order, the gap recorded, then the tail; a row arriving after that is scrubbed alone."""
    state = LiveState()
    out = HERE.advance(state, [(0, "x " + LITERAL[:9], False), (3, LITERAL[9:] + " y", False)])
    assert [r.seq for r in out] == [0]
    out += HERE.expire(state)
    assert [(r.seq, r.gap, r.final) for r in out] == [(0, 0, False), (3, 2, False), (3, 0, True)]
    # The stream goes on across the gap, as if the missing rows were empty.
    assert "".join(r.text for r in out) == scrub("x " + LITERAL + " y")
    late = HERE.advance(state, [(1, "pw " + LITERAL, False)])
    assert late == [LiveRow(1, "pw [REDACTED:literal-secret]", 1, LATE, False)]


def test_k9_the_reorder_buffer_is_bounded():
    live = LiveScrubber(RULES, max_held=2)
    state = LiveState()
    assert live.advance(state, [(5, "e", False), (6, "f", False)]) == []
    out = live.advance(state, [(7, "g", False)])  # a third row waiting: give up on 0..4
    assert [(r.seq, r.gap) for r in out] == [(5, 5), (6, 0), (7, 0)]
    assert [r.gap for r in live.advance(state, [(2, "b", False), (2, "b", False)])] == [LATE] * 2
    more = live.advance(state, [(8, "h", False), (8, "h2", False)])
    assert LiveRow(8, "h2", 0, LATE) in more and [r.seq for r in more] == [8, 8]
    out += more
    out += live.expire(state)
    assert "".join(r.text for r in out if r.gap != LATE) == "efgh"


def test_k11_a_one_row_stream_and_a_null_row():
    state = LiveState()
    out = HERE.advance(state, [(0, None, False)])
    out += HERE.advance(state, [(1, "token " + SECRETS[0], False)])
    out += HERE.expire(state)
    assert [r.text for r in out] == ["", "token ", "[REDACTED:github-pat]"]
    assert out[-1] == LiveRow(1, "[REDACTED:github-pat]", 1, 0, True)
    one = LiveState()
    assert HERE.advance(one, [(0, LITERAL, True)]) == [
        LiveRow(0, "[REDACTED:literal-secret]", 1, 0, True)
    ]
    assert HERE.expire(one) == []
    assert HERE.advance(one, [(None, "x " + LITERAL, False)]) == [
        LiveRow(None, "x [REDACTED:literal-secret]", 1, LATE)
    ]


# -- a real Spark, reading files micro-batch by micro-batch --------------------------------


def corpus(streams: int, seed: int) -> tuple[dict[str, list[tuple[int, str | None]]], dict]:
    """The batch tests' streams (credentials straddle rows), numbered densely from 0 as
    live streams are: each stream's rows (seq, chunk) and its whole text."""
    rows, texts = batch_corpus(streams, seed)
    chunks: dict[str, list[str | None]] = {}
    for run_id, _, chunk in sorted(rows, key=lambda r: (r[0], r[1])):
        chunks.setdefault(run_id, []).append(chunk)
    return {k: list(enumerate(v)) for k, v in chunks.items()}, texts


def write_file(folder: Path, name: str, rows: list[dict], mtime: float) -> None:
    """One JSON Lines file, written elsewhere and moved in whole (a reader never sees it
    half written), with an mtime that orders it after the files before it."""
    tmp = folder.parent / (name + ".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows))
    os.utime(tmp, (mtime, mtime))
    tmp.rename(folder / name)


SCHEMA = "run_id string, seq long, chunk string, last boolean"


def live_query(spark, folder: Path, *, ttl: float, end: str | None = "last"):
    from scrubline.spark import scrub_live

    source = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(folder))
    return scrub_live(source, key="run_id", seq="seq", text="chunk", end=end, rules=RULES, ttl=ttl)


CRASHING = """
import os, sys
from pathlib import Path
from pyspark.sql import SparkSession
from scrubline.spark import ROCKSDB
from test_spark_live import live_query

os.environ["PYSPARK_PYTHON"] = sys.executable
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.sql.streaming.stateStore.providerClass", ROCKSDB)
         .config("spark.sql.streaming.noDataMicroBatches.enabled", "false").getOrCreate())
folder, out, checkpoint = sys.argv[1:]
(live_query(spark, Path(folder), ttl=600).writeStream.format("parquet").option("path", out)
 .option("checkpointLocation", checkpoint).trigger(availableNow=True).start()
 .awaitTermination())
"""


def crash_after_one_batch(folder: Path, out: Path, checkpoint: Path) -> None:
    """Run the live query in another process and kill it (SIGKILL, its JVM with it) as
    soon as it has committed one micro-batch: the next one is under way."""
    commits = checkpoint / "commits"
    before = len(list(commits.glob("[0-9]*")))
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    child = subprocess.Popen(
        [sys.executable, "-c", CRASHING, str(folder), str(out), str(checkpoint)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while len(list(commits.glob("[0-9]*"))) == before and child.poll() is None:
            assert time.monotonic() < deadline, "no micro-batch committed"
            time.sleep(0.05)
        assert child.poll() is None  # still running: the kill lands in its second batch
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    assert len(list(commits.glob("[0-9]*"))) == before + 1


@pytest.mark.slow
def test_k8_k9_k10_restarted_from_its_checkpoint_the_output_is_the_batch_scrub(spark, tmp_path):
    """Files of shuffled rows, one per micro-batch; later files carry rows that precede
    rows already seen. Two files, stop; two more in another process killed (SIGKILL)
    after its first micro-batch; the last one: every row comes out once, and each
    stream's rows are the batch scrub's, row for row."""
    streams, texts = corpus(120, seed=5)
    rng = random.Random(9)
    files: list[list[dict]] = [[] for _ in range(5)]
    for run_id, rows in streams.items():
        for seq, chunk in rows:
            files[rng.randrange(5)].append(
                {"run_id": run_id, "seq": seq, "chunk": chunk, "last": seq == len(rows) - 1}
            )
    for f in files:
        rng.shuffle(f)
    seen: dict[str, int] = {}
    out_of_order = 0
    for f in files:
        out_of_order += any(r["seq"] < seen.get(r["run_id"], -1) for r in f)
        for r in f:
            seen[r["run_id"]] = max(seen.get(r["run_id"], -1), r["seq"])
    assert out_of_order >= 3  # the reorder buffer has work to do

    folder, out, checkpoint = tmp_path / "in", tmp_path / "out", tmp_path / "checkpoint"
    folder.mkdir()
    now = time.time() - 100
    spark.conf.set("spark.sql.streaming.noDataMicroBatches.enabled", "false")
    try:
        for phase, part in enumerate((files[:2], files[2:4], files[4:])):
            for f in part:
                now += 1
                write_file(folder, f"part-{now:.0f}.jsonl", f, now)
            if phase == 1:
                crash_after_one_batch(folder, out, checkpoint)
                continue
            query = (
                live_query(spark, folder, ttl=600)
                .writeStream.format("parquet")
                .option("path", str(out))
                .option("checkpointLocation", str(checkpoint))
                .trigger(availableNow=True)
                .start()
            )
            assert query.awaitTermination(300)
            assert query.exception() is None
    finally:
        spark.conf.unset("spark.sql.streaming.noDataMicroBatches.enabled")

    got = spark.read.parquet(str(out)).collect()
    keys = [(r.run_id, r.seq, r.final) for r in got]
    assert len(keys) == len(set(keys)) == sum(len(f) for f in files)  # no duplicate, no loss
    rows = [(r["run_id"], r["seq"], r["chunk"]) for f in files for r in f]
    table = pa.table({k: pa.array([r[i] for r in rows], t) for i, (k, t) in
                      enumerate((("run_id", pa.string()), ("seq", pa.int64()),
                                 ("chunk", pa.string())))})  # fmt: skip
    batch = scrub_table(table, key="run_id", seq="seq", text="chunk", rules=RULES).to_pylist()
    live = sorted((r.run_id, r.seq, r.chunk, r[REDACTIONS]) for r in got)
    assert live == [(b["run_id"], b["seq"], b["chunk"], b[REDACTIONS]) for b in batch]
    assert all(r.gap == 0 and r.final == (r.seq == len(streams[r.run_id]) - 1) for r in got)
    for run_id, text in texts.items():
        joined = "".join(r.chunk for r in sorted(got, key=lambda r: r.seq) if r.run_id == run_id)
        assert joined == scrub(text), run_id


def test_scrub_live_refuses_what_it_cannot_run(spark, tmp_path):
    from scrubline.errors import ConfigError
    from scrubline.spark import ROCKSDB, scrub_live

    source = spark.readStream.schema(SCHEMA).json(str(tmp_path))
    with pytest.raises(ConfigError, match="'body'"):
        scrub_live(source, key="run_id", seq="seq", text="body")
    with pytest.raises(ConfigError, match="ttl"):
        scrub_live(source, key="run_id", seq="seq", text="chunk", ttl=0)
    spark.conf.unset("spark.sql.streaming.stateStore.providerClass")
    try:
        with pytest.raises(ConfigError, match="RocksDB"):
            scrub_live(source, key="run_id", seq="seq", text="chunk")
    finally:
        spark.conf.set("spark.sql.streaming.stateStore.providerClass", ROCKSDB)


@pytest.mark.slow
def test_k11_an_idle_stream_is_flushed_after_its_ttl(spark, tmp_path):
    """No end markers: a continuously triggered query ends each stream a few seconds
    after its last row, with its tail in a `final` row; a row that never comes is
    given up on at that point, the gap recorded."""
    streams, texts = corpus(6, seed=2)
    streams["one-row"], texts["one-row"] = [(0, "pw " + LITERAL)], "pw " + LITERAL
    streams["null"], texts["null"] = [(0, None), (1, "ok " + SECRETS[1])], "ok " + SECRETS[1]
    lost = streams["run-00000"][1]  # never arrives
    rows = [{"run_id": k, "seq": s, "chunk": c, "last": False}
            for k, v in streams.items() for s, c in v
            if (k, s) != ("run-00000", lost[0])]  # fmt: skip
    rows.append({"run_id": "null", "seq": None, "chunk": "pw " + LITERAL, "last": False})
    random.Random(4).shuffle(rows)
    folder = tmp_path / "in"
    folder.mkdir()
    now = time.time() - 100
    for i, half in enumerate((rows[: len(rows) // 2], rows[len(rows) // 2 :])):
        write_file(folder, f"part-{i}.jsonl", half, now + i)
    query = (
        live_query(spark, folder, ttl=3, end=None)
        .writeStream.format("memory")
        .queryName("live_ttl")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(processingTime="1 second")
        .start()
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and query.exception() is None:
            finals = spark.sql("select count(*) from live_ttl where final").collect()[0][0]
            if finals >= len(streams):
                break
            time.sleep(1)
        assert query.exception() is None
        got = spark.table("live_ttl").collect()
    finally:
        query.stop()
    assert sorted(r.run_id for r in got if r.final) == sorted(streams)
    alone = [r for r in got if r.seq is None]
    assert [(r.run_id, r.chunk, r.gap) for r in alone] == [("null", scrub("pw " + LITERAL), LATE)]
    for run_id, text in texts.items():
        mine = [r for r in got if r.run_id == run_id and r.seq is not None]
        mine.sort(key=lambda r: (r.seq, r.final))
        assert mine[-1].final and mine[-1].seq == streams[run_id][-1][0]
        if run_id == "run-00000":
            assert [r.gap for r in mine] == [0] + [1] + [0] * (len(mine) - 2)
            kept = "".join(c or "" for s, c in streams[run_id] if s != lost[0])
            assert "".join(r.chunk for r in mine) == scrub(kept)
        else:
            assert "".join(r.chunk for r in mine) == scrub(text), run_id
            assert all(r.gap == 0 for r in mine)
