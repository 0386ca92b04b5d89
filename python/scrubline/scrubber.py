"""The Python face of the scrubber: rules files, literal secrets from the environment,
and the ``Scrubber`` users construct. The work is done by ``scrubline._core``."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from scrubline import _core
from scrubline.errors import ConfigError, ScrublineWarning

DEFAULT_REPLACEMENT: str = _core.DEFAULT_REPLACEMENT
MIN_LITERAL_LEN: int = _core.MIN_LITERAL_LEN
_RULE_KEYS = frozenset(
    {"id", "pattern", "keywords", "description", "max_len", "left_guard", "right_guard", "overflow"}
)


class Rule(NamedTuple):
    id: str
    tier: str
    description: str
    #: The provider or family whose file defines the rule; ``literal-secret`` (the
    #: secrets registered at run time) belongs to none and has "".
    family: str = ""
    #: The literals whose occurrence starts a possible match: ASCII case ignored, unless
    #: the pattern spells the keyword one way only (then only that spelling can match).
    keywords: tuple[str, ...] = ()
    #: The regular expression (Rust ``regex`` syntax) matched from a keyword; what it
    #: matches is redacted, or only its ``secret`` group where it has one. Guards and
    #: validators on top of it are in the rule's source file. "" for ``literal-secret``.
    pattern: str = ""


class Family(NamedTuple):
    name: str
    #: Where the shapes come from: the provider's documentation of the format.
    source: str
    #: The tiers of its rules, in the order they first appear.
    tiers: tuple[str, ...]
    #: Its rule IDs, in priority order.
    rules: tuple[str, ...]


def rules() -> list[Rule]:
    """The built-in rules, in priority order."""
    family = {rule: name for name, _, ids in _core.families() for rule in ids}
    return [
        Rule(i, tier, about, family.get(i, ""), tuple(keywords), pattern)
        for i, tier, about, keywords, pattern in _core.rules()
    ]


def families() -> list[Family]:
    """The built-in rule families (one file each in the core), in priority order."""
    tier = {r.id: r.tier for r in rules()}
    return [
        Family(name, source, tuple(dict.fromkeys(tier[i] for i in ids)), tuple(ids))
        for name, source, ids in _core.families()
    ]


def scrub(text: str) -> str:
    """Scrub a whole text with the built-in rules."""
    return _core.scrub(text)


def load_rules_file(path: str | os.PathLike[str]) -> list[dict[str, object]]:
    """Read custom rules from a TOML file: an array of tables named ``rule``.

    Raises ``ConfigError`` for an unreadable file, bad TOML or an unknown key; the core
    raises ``RuleError`` (naming the rule) for a pattern or class that does not compile.
    """
    import tomllib  # only when a rules file is given: not on every start

    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"rules file {str(path)!r}: {e.strerror or e}") from e
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"rules file {str(path)!r}: not valid TOML: {e}") from e
    extra = set(data) - {"rule"}
    if extra:
        raise ConfigError(f"rules file {str(path)!r}: unknown top-level key(s) {sorted(extra)}")
    found = data.get("rule", [])
    if not isinstance(found, list) or not all(isinstance(r, dict) for r in found):
        raise ConfigError(f"rules file {str(path)!r}: 'rule' must be an array of tables")
    for i, rule in enumerate(found, 1):
        name = rule.get("id", f"#{i}")
        unknown = set(rule) - _RULE_KEYS
        if unknown:
            raise ConfigError(f"rule {name!r}: unknown key(s) {sorted(unknown)}")
        for key in ("id", "pattern", "keywords"):
            if key not in rule:
                raise ConfigError(f"rule {name!r}: missing {key!r}")
        if not isinstance(rule["keywords"], list) or not all(
            isinstance(k, str) for k in rule["keywords"]
        ):
            raise ConfigError(f"rule {name!r}: 'keywords' must be a list of strings")
    return found


def env_literals(names: Iterable[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of the named environment variables that can be used as literal secrets.

    An unset variable, or one whose value is shorter than 8 bytes, is skipped with a
    ``ScrublineWarning`` naming the variable (never its value).
    """
    env = os.environ if environ is None else environ
    values = []
    for name in names:
        value = env.get(name)
        if value is None:
            warnings.warn(f"--literal-env {name}: not set, skipped", ScrublineWarning, stacklevel=2)
        elif len(value.encode("utf-8", "surrogatepass")) < MIN_LITERAL_LEN:
            warnings.warn(
                f"--literal-env {name}: value shorter than {MIN_LITERAL_LEN} bytes, skipped",
                ScrublineWarning,
                stacklevel=2,
            )
        else:
            values.append(value)
    return values


class Scrubber:
    """A streaming scrubber: ``feed`` chunks, ``flush`` at the end of the stream.

    For every split of a text into chunks, ``"".join(feed(c) for c in chunks) + flush()``
    equals ``scrub(text)`` under the same rules (D2); only the tail that could still
    become a credential is held back (D3). ``counts`` gives redactions per rule ID.

    ``snapshot()`` and ``Scrubber.restore(data, ...)`` move a stream to another process
    (K6, K7); a live scrubber itself never pickles.
    """

    __slots__ = ("_inner", "feed", "feed_bytes", "flush", "flush_bytes")

    def __init__(
        self,
        *,
        literals: Iterable[str | bytes] = (),
        literal_env: Iterable[str] = (),
        rules_file: str | os.PathLike[str] | None = None,
        replacement: str = DEFAULT_REPLACEMENT,
    ) -> None:
        custom = load_rules_file(rules_file) if rules_file is not None else []
        secrets = [*literals, *env_literals(literal_env)]
        self._bind(_core.Scrubber(literals=secrets, rules=custom, replacement=replacement))

    @classmethod
    def restore(
        cls,
        data: bytes,
        *,
        literals: Iterable[str | bytes] = (),
        literal_env: Iterable[str] = (),
        rules_file: str | os.PathLike[str] | None = None,
        replacement: str = DEFAULT_REPLACEMENT,
    ) -> Scrubber:
        """A scrubber continuing the stream a ``snapshot()`` was taken from, under the
        rules it was taken under (the same options as the constructor). Raises
        ``SnapshotError`` for a snapshot made under other rules, a corrupt or truncated
        one, or one from a newer format; nothing of a refused snapshot is applied."""
        custom = load_rules_file(rules_file) if rules_file is not None else []
        secrets = [*literals, *env_literals(literal_env)]
        self = cls.__new__(cls)
        self._bind(
            _core.Scrubber.restore(data, literals=secrets, rules=custom, replacement=replacement)
        )
        return self

    def _bind(self, inner: _core.Scrubber) -> None:
        self._inner = inner
        # Bound methods of the extension object: no Python frame per chunk.
        self.feed = self._inner.feed
        self.flush = self._inner.flush
        self.feed_bytes = self._inner.feed_bytes
        self.flush_bytes = self._inner.flush_bytes

    def snapshot(self) -> bytes:
        """The stream state as bytes, for ``Scrubber.restore`` in another process. It
        holds the held-back tail, which may be the start of a credential: store and send
        it as carefully as the stream itself."""
        return self._inner.snapshot()

    def resume(self, data: bytes) -> None:
        """Replace this scrubber's stream state (counts included) with a snapshot's, under
        this scrubber's rules, without compiling them again (one scrubber can carry many
        streams in turn). On ``SnapshotError`` the scrubber is left as it was."""
        self._inner.resume(data)

    def __reduce__(self) -> object:
        raise TypeError(
            "a live Scrubber cannot be pickled: send its snapshot() and rebuild it with "
            "Scrubber.restore(data, ...) under the same rules"
        )

    def scrub(self, text: str) -> str:
        """Scrub a whole text with this scrubber's rules (the stream is not touched)."""
        return self._inner.scrub(text)

    @property
    def counts(self) -> dict[str, int]:
        """Redactions applied so far, per rule ID."""
        return self._inner.counts

    @property
    def redactions(self) -> int:
        """Redactions applied so far, all rules together."""
        return self._inner.redactions

    @property
    def held(self) -> int:
        """Bytes currently held back."""
        return self._inner.held
