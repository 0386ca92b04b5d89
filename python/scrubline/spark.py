"""scrubline on Apache Spark (docs/spark.md): DataFrame transforms that scrub or project
every stream of a table where it is stored, split-safely across rows.

    df.transform(scrubline.spark.scrub_stream(key="run_id", seq="seq", text="chunk"))
    df.transform(scrubline.spark.project_stream(key="run_id", seq="seq", line="event"))
    scrubline.spark.scrub_live(events, key="run_id", seq="seq", text="chunk", ttl=600)

The batch transforms put each stream (the rows sharing ``key``) in one partition in
``seq`` order and call the engine-neutral functions of ``scrubline.fleet`` on its Arrow batches
(``mapInArrow``: one call per partition, one compiled scrubber for all its streams).
``scrub_live`` scrubs streaming DataFrames: a ``StatefulProcessor`` keeps each stream's
scrubber snapshot and reorder buffer in Spark's state store (``scrubline.live``).
Needs the ``spark`` extra (pyspark 4, pyarrow) on the driver and the executors, and
Java 17 or 21."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator

import pandas as pd
import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql.streaming import StatefulProcessor, StatefulProcessorHandle
from pyspark.sql.streaming.stateful_processor import ExpiredTimerInfo, TimerValues
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    LongType,
    StringType,
    StructField,
    StructType,
)

from scrubline._core import DEFAULT_SCHEMA_VERSION
from scrubline.errors import ConfigError
from scrubline.fleet import REDACTIONS, RuleSet, project_batches, scrub_batches
from scrubline.live import LiveRow, LiveState, compiled

__all__ = ["ROCKSDB", "RuleSet", "project_stream", "scrub_live", "scrub_stream"]

#: The state store ``scrub_live`` needs (``spark.sql.streaming.stateStore.providerClass``).
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
#: The columns ``scrub_live`` adds after ``redactions`` (``scrubline.live.LiveRow``).
GAP, FINAL = "gap", "final"


def _schema(df: DataFrame, key: str, seq: str, column: str) -> StructType:
    names = df.schema.fieldNames()
    _require(df, key, seq, column)
    if not isinstance(df.schema[column].dataType, StringType):
        raise ConfigError(f"column {column!r} must be a string, not {df.schema[column].dataType}")
    if REDACTIONS in names:
        raise ConfigError(f"the DataFrame already has a column {REDACTIONS!r}")
    return StructType([*df.schema.fields, StructField(REDACTIONS, LongType(), False)])


def _require(df: DataFrame, *columns: str) -> None:
    names = df.schema.fieldNames()
    for name in columns:
        if name not in names:
            raise ConfigError(f"no column {name!r}; the DataFrame has {names}")


def _in_order(df: DataFrame, key: str, seq: str) -> DataFrame:
    """Every stream in one partition, its rows in sequence order, streams one after
    another: what the batch functions need, for one call per partition (not per key)."""
    return df.repartition(key).sortWithinPartitions(key, seq)


def scrub_stream(
    *, key: str, seq: str, text: str, rules: RuleSet | None = None
) -> Callable[[DataFrame], DataFrame]:
    """A transform that scrubs ``text`` in every stream (rows sharing ``key``) in ``seq``
    order. Each row gets what is safe after its chunk (the stream's last row also the
    held-back tail) and a ``redactions`` count: the concatenated output of a stream is
    the scrub of its concatenated input, whatever the rows' sizes (D2)."""
    rule_set = rules or RuleSet()

    def transform(df: DataFrame) -> DataFrame:
        schema = _schema(df, key, seq, text)

        def scrub(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            return scrub_batches(batches, key=key, text=text, rules=rule_set)

        return _in_order(df, key, seq).mapInArrow(scrub, schema)

    return transform


def project_stream(
    *,
    key: str,
    seq: str,
    line: str,
    version: int = DEFAULT_SCHEMA_VERSION,
    rules: RuleSet | None = None,
) -> Callable[[DataFrame], DataFrame]:
    """A transform that runs each stream of runtime trace lines (``line``, one event per
    row) through the run boundary: ``line`` becomes the row's published JSONL in schema
    ``version``; the stream's last row also carries the run's terminal result."""
    rule_set = rules or RuleSet()

    def transform(df: DataFrame) -> DataFrame:
        schema = _schema(df, key, seq, line)

        def project(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
            return project_batches(batches, key=key, line=line, version=version, rules=rule_set)

        return _in_order(df, key, seq).mapInArrow(project, schema)

    return transform


# -- live streams --------------------------------------------------------------------------

_STATE = StructType([
    StructField("snapshot", BinaryType()),
    StructField("next_seq", LongType(), False),
    StructField("held_seq", ArrayType(LongType())),
    StructField("held_text", ArrayType(StringType())),
    StructField("held_end", ArrayType(BooleanType())),
    StructField("deadline", LongType()),
    StructField("seen", LongType(), False),
])  # fmt: skip


class LiveScrub(StatefulProcessor):
    """The per-key processor of ``scrub_live``: one ``LiveState`` per stream in a
    ``ValueState``, a processing-time timer per stream that ends it when idle.

    The timer is not moved at every row (two more calls to the JVM per stream and
    micro-batch): the state keeps when the stream was last seen, and a timer that fires
    early for a stream seen since is set again for ``ttl`` after that."""

    def __init__(
        self,
        *,
        columns: list[str],
        seq: str,
        text: str,
        end: str | None,
        rules: RuleSet,
        ttl_ms: int,
        first_seq: int,
        max_held: int,
    ) -> None:
        self.columns, self.seq, self.text, self.end = columns, seq, text, end
        self.rules, self.ttl_ms, self.first_seq, self.max_held = rules, ttl_ms, first_seq, max_held

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.handle = handle
        self.state = handle.getValueState("stream", _STATE)
        self.live = compiled(self.rules, max_held=self.max_held)

    def handleInputRows(self, key, rows, timerValues: TimerValues) -> Iterator[pd.DataFrame]:
        state, deadline = self._load(self.state.get())
        batch: list[tuple[int | None, str | None, bool]] = []
        for frame in rows:
            ends = frame[self.end].tolist() if self.end else [False] * len(frame)
            texts = frame[self.text].astype(object).where(frame[self.text].notna(), None)
            seqs = [None if pd.isna(s) else int(s) for s in frame[self.seq].tolist()]
            batch += zip(seqs, texts.tolist(), ends, strict=True)
        out = self.live.advance(state, ((s, t, e is True) for s, t, e in batch))
        seen = timerValues.getCurrentProcessingTimeInMs()
        if deadline is None:
            deadline = seen + self.ttl_ms
            self.handle.registerTimer(deadline)
        self._save(state, deadline, seen)
        if out:  # an empty frame's columns have no types Spark can convert
            yield self._frame(key, out)

    def handleExpiredTimer(
        self, key, timerValues: TimerValues, expiredTimerInfo: ExpiredTimerInfo
    ) -> Iterator[pd.DataFrame]:
        stored = self.state.get()
        if stored is None:
            return
        state, _ = self._load(stored)
        seen = stored[-1]
        if seen + self.ttl_ms > timerValues.getCurrentProcessingTimeInMs():
            self.handle.registerTimer(seen + self.ttl_ms)  # rows came since it was set
            self._save(state, seen + self.ttl_ms, seen)
            return
        out = self.live.expire(state)
        self.state.clear()
        if out:  # an empty frame's columns have no types Spark can convert
            yield self._frame(key, out)

    def close(self) -> None:
        pass

    def _load(self, stored: tuple | None) -> tuple[LiveState, int | None]:
        if stored is None:
            return LiveState(next_seq=self.first_seq), None
        snapshot, next_seq, seqs, texts, ends, deadline, _ = stored
        held = {
            int(s): (t, bool(e))
            for s, t, e in zip(seqs or (), texts or (), ends or (), strict=True)
        }
        return LiveState(next_seq, None if snapshot is None else bytes(snapshot), held), deadline

    def _save(self, state: LiveState, deadline: int, seen: int) -> None:
        held = state.held
        self.state.update((
            state.snapshot, state.next_seq, list(held), [t for t, _ in held.values()],
            [e for _, e in held.values()], deadline, seen,
        ))  # fmt: skip

    def _frame(self, key: tuple, out: list[LiveRow]) -> pd.DataFrame:
        frame = pd.DataFrame(out, columns=self.columns[1:])
        frame.insert(0, self.columns[0], [key[0]] * len(out))
        return frame


def _ttl_ms(ttl: float | datetime.timedelta) -> int:
    seconds = ttl.total_seconds() if isinstance(ttl, datetime.timedelta) else float(ttl)
    if not seconds > 0:
        raise ConfigError(f"ttl must be a positive duration, not {ttl!r}")
    return max(1, round(seconds * 1000))


def scrub_live(
    df: DataFrame,
    *,
    key: str,
    seq: str,
    text: str,
    rules: RuleSet | None = None,
    ttl: float | datetime.timedelta = 600,
    end: str | None = None,
    first_seq: int = 0,
    max_held: int = 1024,
) -> DataFrame:
    """Scrub the live streams of a streaming DataFrame (docs/spark.md, "Live streams").

    A stream is the rows sharing ``key``, numbered ``first_seq``, ``first_seq + 1``, ...
    by ``seq``; its rows may arrive in any micro-batch in any order. Each row is
    released, scrubbed, once every row before it was, so the stream's output rows in
    sequence order concatenate to the scrub of its whole text (K9, K10). The result has
    the columns ``key``, ``seq``, ``text``, ``redactions``, ``gap`` and ``final`` (see
    ``scrubline.live.LiveRow``). A stream ends at a row whose boolean ``end`` column is
    true, or when no row came for ``ttl`` seconds: its held-back tail then comes out in
    a ``final`` row (K11). At most ``max_held`` rows wait behind a missing one; past that
    the missing numbers are given up on, as they are on expiry (``gap``).

    Needs the RocksDB state store (``spark.sql.streaming.stateStore.providerClass`` set
    to ``scrubline.spark.ROCKSDB``) and output mode ``append``."""
    rule_set = rules or RuleSet()
    _require(df, key, seq, text, *([end] if end else []))
    if not isinstance(df.schema[text].dataType, StringType):
        raise ConfigError(f"column {text!r} must be a string, not {df.schema[text].dataType}")
    provider = df.sparkSession.conf.get("spark.sql.streaming.stateStore.providerClass", None)
    if provider != ROCKSDB:
        raise ConfigError(
            "scrub_live keeps its state in RocksDB: set spark.sql.streaming.stateStore."
            f"providerClass to {ROCKSDB} before starting the query (it is {provider})"
        )
    if max_held < 0:
        raise ConfigError(f"max_held must be at least 0, not {max_held}")
    processor = LiveScrub(
        columns=[key, seq, text, REDACTIONS, GAP, FINAL], seq=seq, text=text, end=end,
        rules=rule_set, ttl_ms=_ttl_ms(ttl), first_seq=first_seq, max_held=max_held,
    )  # fmt: skip
    schema = StructType([
        StructField(key, df.schema[key].dataType),
        StructField(seq, LongType()),
        StructField(text, StringType(), False),
        StructField(REDACTIONS, LongType(), False),
        StructField(GAP, LongType(), False),
        StructField(FINAL, BooleanType(), False),
    ])  # fmt: skip
    columns = [key, seq, text, *([end] if end else [])]
    return (
        df.select(*columns)
        .groupBy(key)
        .transformWithStateInPandas(processor, schema, "Append", "ProcessingTime")
    )
