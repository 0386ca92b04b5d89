"""The progress line of the long filters (``scrubline scrub`` and ``project``): bytes,
rate and redactions on stderr. Drawn by tqdm, which already knows terminals (widths,
rates, rate smoothing); shown on a terminal, and on a pipe only when asked. tqdm is
imported when a line is first drawn: a filter on a pipe does not pay its import (~20 ms,
most of it asking the installed packages for its version)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between two refreshes of the redaction count (tqdm paces the rest).
REFRESH = 0.5


def wanted(flag: bool | None, stream: TextIO | None = None) -> bool:
    """``--progress`` / ``--no-progress`` when given, else whether ``stream`` (stderr) is
    a terminal."""
    if flag is not None:
        return flag
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """Bytes through a filter and the redactions so far, on one line of stderr."""

    def __init__(self, desc: str, redactions: Callable[[], int]) -> None:
        from tqdm import tqdm

        self.redactions = redactions
        self.bar = tqdm(
            desc=desc,
            file=sys.stderr,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            mininterval=REFRESH,
            dynamic_ncols=True,
        )
        self.shown_at = 0.0

    def update(self, n: int) -> None:
        self.bar.update(n)
        now = time.monotonic()
        if now - self.shown_at >= REFRESH:
            self.shown_at = now
            self.bar.set_postfix_str(f"{self.redactions()} redactions", refresh=False)

    def close(self) -> None:
        self.bar.set_postfix_str(f"{self.redactions()} redactions", refresh=False)
        self.bar.close()
