"""One live stream scrubbed across micro-batches: the rows that arrive for a key in each
batch, in any order, are put back in sequence order, fed to a scrubber resumed from the
stream's snapshot, and the snapshot is kept for the next batch. Engine-neutral and pure
(no Spark here): ``scrubline.spark.scrub_live`` keeps a ``LiveState`` per key in Spark's
state store and calls ``advance``/``expire`` (docs/spark.md, "Live streams")."""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from scrubline.fleet import RuleSet

#: ``gap`` of a row that has no place in its stream: its sequence number had passed when
#: it arrived (a duplicate, or one given up on), or it has none. It is scrubbed on its own.
LATE = -1


class LiveRow(NamedTuple):
    """One output row of a live stream.

    ``text`` is what is safe to emit after this row's chunk, in sequence order;
    ``redactions`` counts the redactions completed in it; ``gap`` is how many sequence
    numbers were given up on just before it (0 in an unbroken stream; ``LATE`` for a row
    scrubbed on its own); ``final`` marks the row that ends the stream and carries its
    held-back tail: the row with the end marker, or an extra row, with the sequence
    number of the last row released, when the stream expires."""

    seq: int | None
    text: str
    redactions: int
    gap: int = 0
    final: bool = False


@dataclass
class LiveState:
    """What a stream keeps between micro-batches. ``snapshot`` is the scrubber's state
    while the stream is open (a row was released since its start or its end marker),
    else None; ``next_seq`` is the sequence number it waits for; ``held`` are the rows
    that arrived ahead of it: sequence number -> (text, end marker)."""

    next_seq: int = 0
    snapshot: bytes | None = None
    held: dict[int, tuple[str | None, bool]] = field(default_factory=dict)


class LiveScrubber:
    """One compiled scrubber for every stream of a worker under one rule set, moved from
    stream to stream by snapshot (``resume``), never recompiled per key or batch."""

    def __init__(self, rules: RuleSet, *, max_held: int = 1024) -> None:
        if max_held < 0:
            raise ValueError(f"max_held must be at least 0, not {max_held}")
        self.scrubber = rules.scrubber()
        self.fresh = self.scrubber.snapshot()
        self.max_held = max_held

    def advance(
        self, state: LiveState, rows: Iterable[tuple[int | None, str | None, bool]]
    ) -> list[LiveRow]:
        """Take one micro-batch of a stream's rows (sequence number, text or None, end
        marker), in any order; return what is released, in order, and update ``state``.

        A row is released once every sequence number before it was; while more than
        ``max_held`` rows wait behind a missing one, the oldest missing numbers are given
        up on (recorded in ``gap``). A row whose place has passed (a duplicate, or one
        given up on), or one without a sequence number, is scrubbed on its own (``gap`` is
        ``LATE``). The released row with the end marker gets the stream's tail and
        ``final``."""
        out: list[LiveRow] = []
        for seq, text, end in sorted(rows, key=lambda r: -1 if r[0] is None else r[0]):
            if seq is None or seq < state.next_seq or seq in state.held:
                out.append(self._alone(seq, text))
            else:
                state.held[seq] = (text, bool(end))
        self._release(state, out, force=False)
        return out

    def expire(self, state: LiveState) -> list[LiveRow]:
        """The stream went idle: release every held row in order (giving up on the
        missing ones) and, if the stream is open, end it with a ``final`` row carrying
        its tail. The state is spent afterwards."""
        out: list[LiveRow] = []
        self._release(state, out, force=True)
        if state.snapshot is not None:
            self.scrubber.resume(state.snapshot)
            before = self.scrubber.redactions
            tail = self.scrubber.flush()
            out.append(
                LiveRow(state.next_seq - 1, tail, self.scrubber.redactions - before, 0, True)
            )
            state.snapshot = None
        return out

    def _release(self, state: LiveState, out: list[LiveRow], *, force: bool) -> None:
        held = state.held
        if state.next_seq not in held and not (held and (force or len(held) > self.max_held)):
            return
        s = self.scrubber
        s.resume(state.snapshot if state.snapshot is not None else self.fresh)
        is_open = state.snapshot is not None
        gap = 0
        while held:
            if state.next_seq not in held:
                if not (force or len(held) > self.max_held):
                    break
                first = min(held)
                gap, state.next_seq = first - state.next_seq, first
            text, end = held.pop(state.next_seq)
            before = s.redactions
            released = s.feed(text or "")
            if end:
                released += s.flush()
            out.append(LiveRow(state.next_seq, released, s.redactions - before, gap, end))
            is_open = not end
            gap = 0
            state.next_seq += 1
        state.snapshot = s.snapshot() if is_open else None

    def _alone(self, seq: int | None, text: str | None) -> LiveRow:
        s = self.scrubber
        s.resume(self.fresh)
        before = s.redactions
        released = s.feed(text or "") + s.flush()
        return LiveRow(seq, released, s.redactions - before, LATE, False)


_COMPILED: dict[tuple[bytes, int], LiveScrubber] = {}


def compiled(rules: RuleSet, *, max_held: int = 1024) -> LiveScrubber:
    """The worker's one ``LiveScrubber`` for ``rules`` (compiled on first use)."""
    key = (pickle.dumps(rules), max_held)
    if key not in _COMPILED:
        _COMPILED[key] = LiveScrubber(rules, max_held=max_held)
    return _COMPILED[key]
