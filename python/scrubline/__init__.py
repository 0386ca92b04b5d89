"""scrubline: streaming credential redaction for the output of AI coding agents.

``scrub(text)`` scrubs a whole text; ``Scrubber`` scrubs a stream chunk by chunk, with
the guarantee that a credential split across chunks is never exposed.
"""

from scrubline._core import __version__
from scrubline.errors import (
    ConfigError,
    LiteralError,
    RuleError,
    ScrublineError,
    ScrublineWarning,
)
from scrubline.scrubber import DEFAULT_REPLACEMENT, Rule, Scrubber, rules, scrub

__all__ = [
    "DEFAULT_REPLACEMENT",
    "ConfigError",
    "LiteralError",
    "Rule",
    "RuleError",
    "Scrubber",
    "ScrublineError",
    "ScrublineWarning",
    "__version__",
    "rules",
    "scrub",
]
