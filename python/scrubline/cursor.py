"""Signed page cursors (S4).

A cursor is ``<payload>.<mac>``, both base64url without padding: the payload is compact
JSON ``{"k": kind, "q": query fingerprint, "p": keyset position, "e": expiry}`` and the
mac is HMAC-SHA256 under a per-store key (``cursor.key`` beside the database, 32 random
bytes, mode 0600, created on first use). The fingerprint hashes what the cursor is tied
to — the tenant and tag filter of a list, the tenant and run of a transcript — so a
cursor stays small (well under 512 bytes) and names neither.

Rejections, each with its own code: ``cursor_modified`` (anything that does not verify:
a changed byte, bad encoding, over-long), ``cursor_stale`` (expired, or its position is
gone), ``cursor_cross_query`` (a valid cursor of another kind, tenant, filter or run).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import time
from pathlib import Path

import orjson

from scrubline.errors import ScrublineError

#: The bound on a cursor's size (bytes of its text).
MAX_CURSOR = 512
#: How long a cursor stays valid, in seconds (ITERON_CURSOR_TTL overrides).
DEFAULT_TTL = 24 * 3600
KEY_FILE = "cursor.key"


class CursorError(ScrublineError, ValueError):
    """A rejected cursor; ``code`` is the ``error.code`` the caller reports."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_key(root: Path) -> bytes:
    """The store's cursor key, created (0600, exclusively) on first use."""
    path = root / KEY_FILE
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = os.urandom(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_bytes()
    with os.fdopen(fd, "wb") as f:
        f.write(key)
        f.flush()
        os.fsync(f.fileno())
    return key


def fingerprint(*parts: str | None) -> str:
    """What a cursor is tied to, hashed: 16 bytes of SHA-256 over the parts."""
    h = hashlib.sha256()
    for p in parts:
        data = b"\x00" if p is None else b"\x01" + p.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(4, "big") + data)
    return _b64(h.digest()[:16])


def ttl() -> int:
    raw = os.environ.get("ITERON_CURSOR_TTL")
    return int(raw) if raw and raw.lstrip("-").isdigit() else DEFAULT_TTL


def encode(key: bytes, kind: str, query: str, position: int, now: float | None = None) -> str:
    expiry = int((time.time() if now is None else now) + ttl())
    payload = orjson.dumps({"k": kind, "q": query, "p": position, "e": expiry})
    mac = hmac.new(key, payload, hashlib.sha256).digest()
    token = f"{_b64(payload)}.{_b64(mac)}"
    assert len(token) <= MAX_CURSOR
    return token


def decode(key: bytes, token: str, kind: str, query: str, now: float | None = None) -> int:
    """The keyset position of a cursor this store signed for this query, else
    ``CursorError``. Staleness of the position itself is the caller's check."""
    modified = CursorError("cursor_modified", "the cursor was modified or is not a cursor")
    if not isinstance(token, str) or len(token) > MAX_CURSOR or token.count(".") != 1:
        raise modified
    body, mac = token.split(".")
    try:
        payload, given = _unb64(body), _unb64(mac)
    except (binascii.Error, ValueError):
        raise modified from None
    # Re-encoding must give the same text: no second spelling of a signed cursor.
    if _b64(payload) != body or _b64(given) != mac:
        raise modified
    if not hmac.compare_digest(hmac.new(key, payload, hashlib.sha256).digest(), given):
        raise modified
    try:
        fields = orjson.loads(payload)
        k, q, p, e = fields["k"], fields["q"], fields["p"], fields["e"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        raise modified from None
    if not (isinstance(p, int) and isinstance(e, int)) or p < 0:
        raise modified
    if k != kind or q != query:
        raise CursorError(
            "cursor_cross_query",
            "the cursor belongs to another query (kind, tenant, filter or run)",
        )
    if e < (time.time() if now is None else now):
        raise CursorError("cursor_stale", "the cursor has expired; start again without it")
    return p
