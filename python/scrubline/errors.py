"""The exceptions of scrubline: one hierarchy under ``ScrublineError``.

The Rust binding raises these (it imports them from here), so a caller catches one
family whatever layer failed. Errors that belong to one component are defined beside it
and derive from ``ScrublineError`` too: ``ArtifactError`` (artifacts), ``CursorError``
(cursor), ``SessionError`` (sessions), ``Mismatch`` (schema), ``RuntimeFailed`` and
``RuntimeLimit`` (runtime), ``ModelFailed`` (model).
"""


class ScrublineError(Exception):
    """Base class of every error scrubline raises on purpose."""


class RuleError(ScrublineError, ValueError):
    """A rule is invalid; the message names the rule and says why."""


class LiteralError(ScrublineError, ValueError):
    """A literal secret was refused (for example shorter than 8 bytes)."""


class ConfigError(ScrublineError, ValueError):
    """An option value, a config file or a rules file is invalid (exit 64)."""


class UsageError(ScrublineError, ValueError):
    """A bad command line: an unknown or misplaced option, a missing command (exit 64,
    before anything is read or stored)."""


class TraceError(ScrublineError, ValueError):
    """A runtime trace line was refused; ``line`` is its 1-based number."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class SnapshotError(ScrublineError, ValueError):
    """A scrubber snapshot was refused whole: not a snapshot, truncated or corrupt, made
    by a newer format, or made under other rules. Nothing of it was applied."""


class StoreError(ScrublineError, OSError):
    """The session store cannot be opened (a path that is not a directory, permissions,
    a database that is not SQLite, a PostgreSQL server that refuses the connection).
    The message never holds the store's connection string."""


class StoreFailed(StoreError):
    """The session store failed after it was opened (disk full, the connection to the
    server lost): nothing more can be made durable. Retrying the run may help."""


class RunBusy(ScrublineError):
    """Another writer holds the run (two runners resuming it at once); retry later."""

    code = "run_busy"


class ScrublineWarning(UserWarning):
    """Something was skipped that the caller asked for (an unset environment variable)."""
