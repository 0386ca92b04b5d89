"""scrubline: streaming credential redaction for the output of AI coding agents.

``scrub(text)`` scrubs a whole text; ``Scrubber`` scrubs a stream chunk by chunk, with
the guarantee that a credential split across chunks is never exposed. ``Boundary`` is one
run's output boundary: trace lines in, redacted records and versioned JSONL out
(docs/projection.md); ``project`` re-projects a stored record.
"""

from scrubline._core import Boundary, __version__, project
from scrubline.errors import (
    ConfigError,
    LiteralError,
    RuleError,
    RunBusy,
    ScrublineError,
    ScrublineWarning,
    SnapshotError,
    StoreError,
    StoreFailed,
    TraceError,
)
from scrubline.scrubber import DEFAULT_REPLACEMENT, Family, Rule, Scrubber, families, rules, scrub

__all__ = [
    "DEFAULT_REPLACEMENT",
    "Boundary",
    "ConfigError",
    "Family",
    "LiteralError",
    "Rule",
    "RuleError",
    "RunBusy",
    "Scrubber",
    "ScrublineError",
    "ScrublineWarning",
    "SnapshotError",
    "StoreError",
    "StoreFailed",
    "TraceError",
    "__version__",
    "families",
    "project",
    "rules",
    "scrub",
]
