"""Scrubbing and projecting many streams at once, engine-neutral: Arrow tables in, Arrow
tables out, one stream per key, ordered by a sequence column. ``scrubline.spark`` hands
these functions to Spark; any engine that can group rows by key can call them.

A live scrubber is never shipped between processes: a ``RuleSet`` (plain, picklable
configuration) is, and each worker builds its scrubbers from it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from scrubline import _core
from scrubline.errors import ConfigError, TraceError
from scrubline.scrubber import DEFAULT_REPLACEMENT, env_literals, load_rules_file

#: The column each function adds: redactions completed in that row.
REDACTIONS = "redactions"


@dataclass(frozen=True)
class RuleSet:
    """What a scrubber is made of: the built-in rules plus these literal secrets and
    custom rules, and the replacement template. Plain data, so it pickles to workers
    (the literal values travel with it: treat a pickled rule set as a secret; its repr
    never shows them, so a log line or a traceback does not either)."""

    literals: tuple[str, ...] = field(default=(), repr=False)
    rules: tuple[Mapping[str, object], ...] = field(default=())
    replacement: str = DEFAULT_REPLACEMENT

    @classmethod
    def from_options(
        cls,
        *,
        literal_env: Iterable[str] = (),
        rules_file: str | os.PathLike[str] | None = None,
        replacement: str = DEFAULT_REPLACEMENT,
    ) -> RuleSet:
        """The rule set of the command-line options, resolved on the driver."""
        rules = load_rules_file(rules_file) if rules_file is not None else []
        rule_set = cls(tuple(env_literals(literal_env)), tuple(rules), replacement)
        rule_set.scrubber()  # compile once here: a bad rule is the driver's error
        return rule_set

    def kwargs(self) -> dict[str, object]:
        return {
            "literals": list(self.literals),
            "rules": [dict(r) for r in self.rules],
            "replacement": self.replacement,
        }

    def scrubber(self) -> _core.Scrubber:
        """A new scrubber for one stream under these rules."""
        return _core.Scrubber(**self.kwargs())  # type: ignore[arg-type]

    def restore(self, data: bytes) -> _core.Scrubber:
        """The scrubber a ``snapshot()`` was taken from, continued under these rules
        (``SnapshotError`` when they are not the rules it was taken under)."""
        return _core.Scrubber.restore(data, **self.kwargs())  # type: ignore[arg-type]


def _check(schema: pa.Schema, *names: str) -> None:
    for name in names:
        if name not in schema.names:
            raise ConfigError(f"no column {name!r}; the table has {schema.names}")


def _texts(column: pa.Array | pa.ChunkedArray) -> list[str]:
    return ["" if t is None else t for t in column.to_pylist()]


class _Streams:
    """Rows in (key, seq) order, one stream after another, turned into output batches.

    A row's output is known when it is fed, but a stream's last row also gets the
    stream's held-back tail, and whether a row is the last of its stream is known only
    at the next row (maybe in the next batch). So the last row of each batch waits for
    the next batch, or for the end."""

    def __init__(self, key: str, column: str) -> None:
        self.key, self.column = key, column
        self.current: object = None
        self.started = False
        self.waiting: tuple[pa.RecordBatch, list[str], list[int]] | None = None

    def run(self, batches: Iterable[pa.RecordBatch], engine) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            _check(batch.schema, self.key, self.column)
            if batch.num_rows == 0:
                continue
            if isinstance(engine, _Scrubbing):
                out, counts = self._at_once(batch, engine)
            else:
                out, counts = self._row_by_row(batch, engine)
            if self.waiting is not None:
                yield self._batch(*self.waiting)
            last = batch.num_rows - 1
            if last > 0:
                yield self._batch(batch.slice(0, last), out[:last], counts[:last])
            # The row waits as plain values: its stream's tail may still join it.
            self.waiting = (batch.slice(last), _values(out[last:]), _values(counts[last:]))
        if self.waiting is not None:
            _, out, counts = self.waiting
            self._end_stream(engine, out, counts)
            yield self._batch(*self.waiting)

    def _row_by_row(self, batch: pa.RecordBatch, engine) -> tuple[list[str], list[int]]:
        out: list[str] = []
        counts: list[int] = []
        for k, item in zip(
            batch.column(self.key).to_pylist(), _texts(batch.column(self.column)), strict=True
        ):
            if not self.started or k != self.current:
                if self.started:
                    self._end_stream(engine, out, counts)
                engine.start(k)
                self.current, self.started = k, True
            released, n = engine.feed(item)
            out.append(released)
            counts.append(n)
        return out, counts

    def _at_once(self, batch: pa.RecordBatch, engine: _Scrubbing) -> tuple[pa.Array, pa.Array]:
        """The whole batch in one call to the core: the streams that end inside it are
        the rows whose next row has another key (null is a key like any other)."""
        keys = batch.column(self.key)
        if self.started and keys[0].as_py() != self.current:
            self._end_stream(engine, [], [])
        self.current, self.started = keys[-1].as_py(), True
        a, b = keys.slice(0, len(keys) - 1), keys.slice(1)
        differs = pc.if_else(
            pc.and_(pc.is_valid(a), pc.is_valid(b)),
            pc.not_equal(a, b),
            pc.xor(pc.is_null(a), pc.is_null(b)),
        )
        flags = pc.cast(differs, pa.uint8())
        inside = flags.buffers()[1].slice(flags.offset, len(flags)).to_pybytes() if len(a) else b""
        ends = inside + b"\0"  # the last row's stream may go on in the next batch
        return engine.rows(batch.column(self.column), ends)

    def _end_stream(self, engine, out: list[str], counts: list[int]) -> None:
        """The stream's tail goes to its last row: the latest in ``out``, or the waiting
        row when the stream ended with the previous batch."""
        tail, n = engine.end()
        if out:
            out[-1] += tail
            counts[-1] += n
        else:
            assert self.waiting is not None
            self.waiting[1][-1] += tail
            self.waiting[2][-1] += n

    def _batch(
        self, batch: pa.RecordBatch, out: list[str] | pa.Array, counts: list[int] | pa.Array
    ) -> pa.RecordBatch:
        i = batch.schema.get_field_index(self.column)
        kind = batch.schema.field(i).type
        if pa.types.is_null(kind):  # a column of nulls only: its output is text
            kind = pa.string()
        columns = list(batch.columns)
        columns[i] = out.cast(kind) if isinstance(out, pa.Array) else pa.array(out, kind)
        if not isinstance(counts, pa.Array):
            counts = pa.array(counts, pa.int64())
        names = [*batch.schema.names, REDACTIONS]
        return pa.RecordBatch.from_arrays([*columns, counts], names=names)


def _values(rows: list | pa.Array) -> list:
    return rows.to_pylist() if isinstance(rows, pa.Array) else rows


class _Scrubbing:
    """One scrubber for every stream of a partition: compiled once, flushed between
    streams (a flushed scrubber is ready for the next stream)."""

    def __init__(self, rules: RuleSet) -> None:
        self.scrubber = rules.scrubber()

    def start(self, key: object) -> None:
        pass

    def feed(self, chunk: str) -> tuple[str, int]:
        before = self.scrubber.redactions
        released = self.scrubber.feed(chunk)
        return released, self.scrubber.redactions - before

    def end(self) -> tuple[str, int]:
        before = self.scrubber.redactions
        tail = self.scrubber.flush()
        return tail, self.scrubber.redactions - before

    def rows(self, column: pa.Array, ends: bytes) -> tuple[pa.Array, pa.Array]:
        """Scrub a batch's text column in one call: its buffers go to the core as they
        are (one copy of the text, no object per row) and come back the same way. Null
        text is empty text. ``ends[i]`` ends a stream after row ``i``."""
        n = len(column)
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            column = column.cast(pa.large_string())  # string views; all-null (null type)
        if column.null_count:
            column = pc.fill_null(column, "")
        width = 8 if pa.types.is_large_string(column.type) else 4
        _, offsets, data = column.buffers()
        offsets = offsets.slice(column.offset * width, (n + 1) * width).to_pybytes()
        first, last = (
            int.from_bytes(offsets[i : i + width], "little", signed=True) for i in (0, n * width)
        )
        text = b"" if data is None else data.slice(first, last - first).to_pybytes()
        out, out_offsets, counts = self.scrubber.feed_rows(text, offsets, width, ends)
        scrubbed = pa.Array.from_buffers(
            pa.large_string(), n, [None, pa.py_buffer(out_offsets), pa.py_buffer(out)]
        )
        try:
            scrubbed.validate(full=True)
        except pa.ArrowInvalid:  # a redaction cut a character: as ``feed`` decodes it
            rows = pa.Array.from_buffers(
                pa.large_binary(), n, [None, pa.py_buffer(out_offsets), pa.py_buffer(out)]
            )
            scrubbed = pa.array([r.decode("utf-8", "replace") for r in rows.to_pylist()])
        return scrubbed, pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(counts)])


class _Projecting:
    """One run boundary per stream (the key is the run id); a bad line ends its run
    there, as in ``scrubline project``."""

    def __init__(self, version: int, rules: RuleSet) -> None:
        self.version, self.rules = version, rules
        self.boundary: _core.Boundary | None = None

    def start(self, key: object) -> None:
        self.boundary = _core.Boundary(version=self.version, run_id=str(key), **self.rules.kwargs())  # type: ignore[arg-type]
        self.finish: dict = {}
        self.n = 0

    def feed(self, line: str) -> tuple[str, int]:
        b = self.boundary
        assert b is not None
        self.n += 1
        before = b.redactions
        published = b""
        if not (self.finish or b.stopped):
            try:
                _, published = b.admit(line.encode("utf-8", "surrogatepass"), self.n)
            except TraceError as e:
                self.finish = {
                    "outcome": "failed",
                    "reason": "the runtime trace has a bad line",
                    "error": ("bad_input", str(e), e.line),
                    "exit_code": _core.EXIT_CODES["bad_input"],
                    "failed_runs": 1,
                }
        return published.decode("utf-8").rstrip("\n"), b.redactions - before

    def end(self) -> tuple[str, int]:
        b = self.boundary
        assert b is not None
        before = b.redactions
        _, tail, _ = b.finish(**self.finish)  # the run's last lines and its result
        text = tail.decode("utf-8").rstrip("\n")
        return ("\n" + text if text else ""), b.redactions - before


def scrub_batches(
    batches: Iterable[pa.RecordBatch], *, key: str, text: str, rules: RuleSet
) -> Iterator[pa.RecordBatch]:
    """Scrub the ``text`` column of rows sorted by (key, sequence) — all rows of one
    stream together, in order — split-safely across each stream's rows.

    Row ``i`` of a stream gets what is safe to emit after its first ``i`` chunks; the
    stream's last row also gets the held-back tail. So the concatenated output of a
    stream equals the scrub of its concatenated input (D2), whatever the rows' sizes,
    and a credential split across rows is never exposed. A ``redactions`` column counts
    the redactions completed in each row. Streams may span batches; memory is one
    batch and one stream's hold-back."""
    return _Streams(key, text).run(batches, _Scrubbing(rules))


def project_batches(
    batches: Iterable[pa.RecordBatch], *, key: str, line: str, version: int, rules: RuleSet
) -> Iterator[pa.RecordBatch]:
    """Run each stream of runtime trace lines (the ``line`` column, one trace event per
    row, docs/trace.md; rows sorted by key then sequence) through the run boundary:
    ``line`` becomes the row's published JSONL in schema ``version`` (newline-joined,
    maybe empty), and a stream's last row also carries the run's terminal result. The
    key is the run id. A bad line ends its run there, as ``scrubline project`` does:
    the rest of its rows publish nothing and the result says ``failed`` with the line's
    number (its position in the stream)."""
    return _Streams(key, line).run(batches, _Projecting(version, rules))


def _sorted(table: pa.Table, key: str, seq: str) -> pa.Table:
    """Rows by key, then sequence (stable: equal sequence numbers keep their order)."""
    _check(table.schema, key, seq)
    order = pc.sort_indices(table, sort_keys=[(key, "ascending"), (seq, "ascending")])
    return table.take(order)


def _table(batches: Iterable[pa.RecordBatch], like: pa.Table) -> pa.Table:
    found = list(batches)
    if found:
        return pa.Table.from_batches(found)
    schema = like.schema.append(pa.field(REDACTIONS, pa.int64()))
    return schema.empty_table()


def scrub_table(table: pa.Table, *, key: str, seq: str, text: str, rules: RuleSet) -> pa.Table:
    """``scrub_batches`` on a whole table in any row order: rows come back grouped by
    key, in sequence order."""
    _check(table.schema, text)
    ordered = _sorted(table, key, seq)
    return _table(scrub_batches(ordered.to_batches(), key=key, text=text, rules=rules), table)


def project_table(
    table: pa.Table, *, key: str, seq: str, line: str, version: int, rules: RuleSet
) -> pa.Table:
    """``project_batches`` on a whole table in any row order."""
    _check(table.schema, line)
    ordered = _sorted(table, key, seq)
    batches = project_batches(
        ordered.to_batches(), key=key, line=line, version=version, rules=rules
    )
    return _table(batches, table)
