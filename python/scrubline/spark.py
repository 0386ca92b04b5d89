"""scrubline on Apache Spark (docs/spark.md): DataFrame transforms that scrub or project
every stream of a table where it is stored, split-safely across rows.

    df.transform(scrubline.spark.scrub_stream(key="run_id", seq="seq", text="chunk"))
    df.transform(scrubline.spark.project_stream(key="run_id", seq="seq", line="event"))

Both put each stream (the rows sharing ``key``) in one partition in ``seq`` order and
call the engine-neutral functions of ``scrubline.fleet`` on its Arrow batches
(``mapInArrow``: one call per partition, one compiled scrubber for all its streams).
Needs the ``spark`` extra (pyspark 4, pyarrow) on the driver and the executors, and
Java 17 or 21."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql.types import LongType, StringType, StructField, StructType

from scrubline._core import DEFAULT_SCHEMA_VERSION
from scrubline.errors import ConfigError
from scrubline.fleet import REDACTIONS, RuleSet, project_batches, scrub_batches

__all__ = ["RuleSet", "project_stream", "scrub_stream"]


def _schema(df: DataFrame, key: str, seq: str, column: str) -> StructType:
    names = df.schema.fieldNames()
    for name in (key, seq, column):
        if name not in names:
            raise ConfigError(f"no column {name!r}; the DataFrame has {names}")
    if not isinstance(df.schema[column].dataType, StringType):
        raise ConfigError(f"column {column!r} must be a string, not {df.schema[column].dataType}")
    if REDACTIONS in names:
        raise ConfigError(f"the DataFrame already has a column {REDACTIONS!r}")
    return StructType([*df.schema.fields, StructField(REDACTIONS, LongType(), False)])


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
