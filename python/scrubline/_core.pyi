"""Type stubs for the Rust extension ``scrubline._core`` (built by maturin from rust/py)."""

from collections.abc import Mapping, Sequence
from typing import final

__version__: str

@final
class Scrubber:
    """A compiled rule set plus the state of one stream (D2, D3).

    ``feed`` returns the text that is safe to emit now; ``flush`` ends the stream and
    returns the rest. For every way of splitting a text into chunks, the concatenation
    of all ``feed`` results and ``flush()`` equals ``scrub(text)`` under the same rules.
    After ``flush`` the object is ready for a new stream (counts are kept).

    ``rules`` are custom rules as mappings with keys ``id``, ``pattern``, ``keywords``
    and optionally ``description``, ``max_len``, ``left_guard``, ``right_guard``,
    ``overflow``. ``literals`` are secret values (at least 8 bytes each), also matched in
    their base64 (three alignments, and base64url), URL-encoded and JSON-escaped forms.
    ``replacement`` is a template in which ``{rule}`` is replaced by the rule ID.
    """

    def __new__(
        cls,
        *,
        literals: Sequence[str | bytes] = ...,
        rules: Sequence[Mapping[str, object]] = ...,
        replacement: str = ...,
    ) -> Scrubber: ...
    def snapshot(self) -> bytes:
        """The stream state as bytes, for ``restore`` in another process (K6). It holds
        the held-back tail, which may be the start of a credential: as secret as the
        stream."""
    @staticmethod
    def restore(
        data: bytes,
        *,
        literals: Sequence[str | bytes] = ...,
        rules: Sequence[Mapping[str, object]] = ...,
        replacement: str = ...,
    ) -> Scrubber:
        """A scrubber continuing the stream ``data`` was taken from. The rules must be
        those it was made under; a snapshot for other rules, a corrupt or truncated one
        or one from a newer format raises ``SnapshotError`` (K7)."""
    def resume(self, data: bytes) -> None:
        """Replace this scrubber's stream state (counts included) with a snapshot's,
        under this scrubber's compiled rules: ``restore`` without compiling them again.
        On ``SnapshotError`` the scrubber is left as it was."""
    def feed(self, chunk: str) -> str:
        """Scrub the next chunk of a text stream; return what can be emitted now."""
    def flush(self) -> str:
        """End the stream: return everything still held back, scrubbed."""
    def feed_bytes(self, chunk: bytes) -> bytes:
        """Like ``feed`` for a byte stream; invalid UTF-8 passes through unchanged."""
    def flush_bytes(self) -> bytes:
        """Like ``flush`` for a byte stream."""
    def feed_rows(
        self, data: bytes, offsets: bytes, width: int, ends: bytes
    ) -> tuple[bytes, bytes, bytes]:
        """Rows of consecutive streams in Arrow's string layout, in one call (what
        ``scrubline.fleet`` uses): ``offsets`` holds ``n + 1`` little-endian offsets of
        ``width`` bytes (4 or 8) into ``data``; a non-zero ``ends[i]`` ends a stream after
        row ``i``. Returns the output rows' data, their ``n + 1`` offsets (int64) and the
        redactions per row (int64)."""
    def scrub(self, text: str) -> str:
        """Scrub a whole text with this rule set (does not touch the stream state)."""
    @property
    def counts(self) -> dict[str, int]:
        """Redactions applied so far, per rule ID (rules with none are absent)."""
    @property
    def held(self) -> int:
        """Bytes currently held back (the tail that could still become a credential)."""
    @property
    def redactions(self) -> int:
        """Redactions applied so far, all rules together."""

def scrub(text: str) -> str:
    """Scrub a whole text with the built-in rules."""

def scrub_bytes(data: bytes) -> bytes:
    """Scrub a whole byte string with the built-in rules."""

def rules() -> list[tuple[str, str, str, list[str], str]]:
    """The built-in rules as ``(id, tier, description, keywords, pattern)``, in priority order."""

def families() -> list[tuple[str, str, list[str]]]:
    """The built-in families as ``(name, source, rule IDs)``, in priority order."""

#: (seq, turn, type, body): one redacted canonical record, ``body`` its JSON.
StoredRecord = tuple[int, int, str, bytes]
#: The CLI stream schema versions, and the default (O2).
SCHEMA_VERSIONS: list[int]
DEFAULT_SCHEMA_VERSION: int
#: The resident App Server protocol's version: never a CLI stream version (O3, O5); the
#: schema version of its event stream (docs/app-server.md).
RESIDENT_PROTOCOL_VERSION: int
#: Every exit code by name: ok, failed, schema_mismatch, limit, usage, bad_input,
#: no_input, interrupted, terminated (R6).
EXIT_CODES: dict[str, int]
#: The longest trace line admitted, in bytes.
MAX_LINE: int
#: The shortest literal secret accepted, in bytes.
MIN_LITERAL_LEN: int
#: The replacement template; ``{rule}`` is the rule ID.
DEFAULT_REPLACEMENT: str

@final
class Boundary:
    """The output boundary of one run (docs/projection.md): per-stream scrubbers, the
    selected schema version and what the result needs. Compiled once, fed every line.

    ``version`` is 4, 5, 6 or 8 (anything else: ``ConfigError``), or 7 with ``resident``
    (the App Server's stream, which names the run in every event). ``max_turn_tokens`` is
    ``limits.turnTokens``. A resumed run passes its ``last_seq`` and ``next_turn``.
    ``literals``/``rules``/``replacement`` as for ``Scrubber``.
    """

    def __new__(
        cls,
        *,
        version: int,
        run_id: str,
        max_turn_tokens: int | None = None,
        last_seq: int = 0,
        next_turn: int = 1,
        artifact_store: bool = False,
        literals: Sequence[str | bytes] = ...,
        rules: Sequence[Mapping[str, object]] = ...,
        replacement: str = ...,
        resident: bool = ...,
    ) -> Boundary: ...
    def admit(self, line: bytes, line_no: int) -> tuple[list[StoredRecord], bytes]:
        """Admit one trace line: the records to store, then the published JSONL lines.
        A bad line raises ``TraceError`` (with ``.line``) and changes nothing."""
    def admit_block(
        self, block: bytes, first_line_no: int, *, records: bool = True
    ) -> tuple[int, int, list[StoredRecord], bytes, tuple[int, str] | None]:
        """Admit the whole lines of one read: ``block`` holds lines each ended by
        ``\n`` (the input's last line may lack it), split by the boundary. Returns
        ``(lines, used, records, lines_out, error)``: how many lines and bytes of
        ``block`` were consumed, the records and published lines, and ``(line_no,
        message)`` for a bad line (not consumed). It stops after a line that ends the run
        or leaves an artifact waiting (``take_artifact``); resume with ``block[used:]``.
        ``records=False`` (a caller that keeps none) writes only the published lines."""
    def take_artifact(self) -> tuple[str | None, str | None, bytes] | None:
        """The artifact declaration admitted last, if it waits for a witness:
        ``(content_b64, content_text, fields_json)``; then ``artifact_produced`` or
        ``notice``."""
    def artifact_produced(self, hash: str) -> tuple[list[StoredRecord], bytes]:
        """Record and publish the handle of the taken artifact, stored under ``hash``."""
    def notice(self, code: str, text: str) -> tuple[list[StoredRecord], bytes]:
        """Record and publish an engine notice (its text scrubbed)."""
    def submission_rejected(
        self, submission_id: str, reason: str
    ) -> tuple[list[StoredRecord], bytes]:
        """Record and publish the rejection of a submission still queued as the run ends
        (also after the run stopped; its reason scrubbed)."""
    def finish(
        self,
        *,
        outcome: str | None = None,
        reason: str | None = None,
        error: tuple[str, str, int | None] | None = None,
        exit_code: int | None = None,
        admission_latency_us: int = 0,
        record_fsync_latency_us: int = 0,
        failed_runs: int | None = None,
    ) -> tuple[list[StoredRecord], bytes, bytes]:
        """End the run: release held text, write ``run_end`` if the trace did not, then
        the result. Returns (records, lines with the result line last, the result)."""
    @property
    def stopped(self) -> bool:
        """True once ``run_end`` was admitted or a limit was reached."""
    @property
    def redactions(self) -> int:
        """Redactions applied so far in every stream of the run."""
    @property
    def version(self) -> int: ...

def count_lines(block: bytes) -> int:
    """The newlines in ``block`` (how many whole lines a read brought)."""

def project(record: bytes, version: int, *, run_id: str | None = None) -> bytes | None:
    """Project one stored record onto a schema version: its line, or None. With
    ``run_id`` (the record's run) the version is the resident one, 7."""

@final
class Translator:
    """A foreign agent stream's translator (docs/agents.md): Claude Code, Codex or
    Gemini CLI JSONL lines in, canonical trace lines out."""

    def __new__(
        cls,
        tool: str,
        *,
        literals: Sequence[str | bytes] = ...,
        rules: Sequence[Mapping[str, object]] = ...,
        replacement: str = ...,
    ) -> Translator: ...
    def translate(self, block: bytes, first_line_no: int) -> bytes: ...
    def origin(self, i: int) -> int | None: ...
    def finish(
        self, *, exit_code: int | None = None, signal: int | None = None
    ) -> tuple[bytes, str, str, tuple[str, str] | None, int]: ...
    @property
    def tool(self) -> str: ...
