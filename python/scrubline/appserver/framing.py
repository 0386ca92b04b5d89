"""The SQ's framing: one JSON message per ``\\n``-ended line, read in whatever pieces the
pipe brings, in bounded memory. A line longer than the bound is not held: it is
reported by its number and skipped to its newline, and the next line is read as usual.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The bound on one request line, newline excluded (a turn with attachments fits).
MAX_REQUEST = 16 << 20


@dataclass(frozen=True)
class TooLong:
    """A line over the bound (its bytes were dropped); ``number`` is 1-based."""

    number: int


class LineReader:
    """``feed`` the bytes of each read; get the complete lines (without ``\\n``; one
    ``\\r`` before it is dropped too) and ``TooLong`` markers, in order. ``finish`` at
    the end of the input returns the last line if it lacked its newline."""

    def __init__(self, max_line: int = MAX_REQUEST) -> None:
        self.max_line = max_line
        self._held: list[bytes] = []
        self._held_len = 0
        self._skipping = False  # inside a line over the bound
        self.lines = 0

    def feed(self, chunk: bytes) -> list[bytes | TooLong]:
        out: list[bytes | TooLong] = []
        start = 0
        while start < len(chunk):
            nl = chunk.find(b"\n", start)
            piece = chunk[start:] if nl < 0 else chunk[start:nl]
            if self._skipping:
                if nl >= 0:
                    self._skipping = False
                    self.lines += 1
            elif self._held_len + len(piece) > self.max_line + 1:  # + 1: a \r may go
                self._held, self._held_len = [], 0
                out.append(TooLong(self.lines + 1))
                if nl < 0:
                    self._skipping = True
                else:
                    self.lines += 1
            elif nl < 0:
                self._held.append(piece)
                self._held_len += len(piece)
            else:
                line = b"".join([*self._held, piece]) if self._held else piece
                self._held, self._held_len = [], 0
                self.lines += 1
                out.append(self._line(line))
            if nl < 0:
                break
            start = nl + 1
        return out

    def _line(self, line: bytes) -> bytes | TooLong:
        if line.endswith(b"\r"):
            line = line[:-1]
        return TooLong(self.lines) if len(line) > self.max_line else line

    def finish(self) -> list[bytes | TooLong]:
        if self._skipping or not self._held:
            return []
        line = b"".join(self._held)
        self._held, self._held_len = [], 0
        self.lines += 1
        return [self._line(line)]
