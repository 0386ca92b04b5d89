"""Content-addressed artifact storage with a durability witness (docs/contract.md §6: A1-A5).

With the SQLite store, content lives at ``$ITERON_HOME/artifacts/sha256/ab/cdef…``
(``ContentStore``). A write goes to a temporary file in the same directory, is fsynced,
renamed into place, and the directory fsynced; then the file is read back and its hash
checked. Only that witness lets the run append and emit ``artifact_produced``: a handle
never names content that is not readable. The PostgreSQL store keeps content in the
database instead (``store_postgres.DatabaseContent``), behind the same ``Content``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import Protocol

from scrubline.errors import ScrublineError

#: At most this many artifacts per run (A3).
MAX_PER_RUN = 256


class ArtifactError(ScrublineError):
    """The content could not be stored or does not verify; ``code`` names the case."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def address(content: bytes) -> str:
    return "sha256:" + hashlib.sha256(content).hexdigest()


def decode_content(content_b64: str | None, content_text: str | None) -> bytes:
    if content_text is not None:
        return content_text.encode("utf-8", "surrogatepass")
    try:
        return base64.b64decode(content_b64 or "", validate=True)
    except (binascii.Error, ValueError) as e:
        raise ArtifactError("invalid_content", f"content_b64 is not base64: {e}") from None


def check_address(hash_: str) -> str:
    """The hex digest of a ``sha256:<64 hex>`` address; ``ArtifactError`` otherwise."""
    algo, _, hexdigest = hash_.partition(":")
    if algo != "sha256" or len(hexdigest) != 64 or not _is_hex(hexdigest):
        raise ArtifactError("bad_hash", f"not a sha256 content address: {hash_!r}")
    return hexdigest


class Content(Protocol):
    """Where a store keeps artifact content: ``put`` returns the witnessed address (A2),
    ``verify`` the content re-hashed (A5); both raise ``ArtifactError``."""

    def put(self, content: bytes) -> str: ...
    def verify(self, hash_: str) -> bytes: ...


class ContentStore:
    def __init__(self, root: Path) -> None:
        self.root = root / "artifacts" / "sha256"

    def path(self, hash_: str) -> Path:
        hexdigest = check_address(hash_)
        return self.root / hexdigest[:2] / hexdigest[2:]

    def put(self, content: bytes) -> str:
        """Store ``content`` durably and return its address: the witness (A2). Raises
        ``ArtifactError`` when the content is not readable back under its address."""
        hash_ = address(content)
        final = self.path(hash_)
        try:
            final.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not final.exists():
                tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    view = memoryview(content)
                    while view:
                        view = view[os.write(fd, view) :]
                    os.fsync(fd)
                finally:
                    os.close(fd)
                os.replace(tmp, final)
                dfd = os.open(final.parent, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
            self.verify(hash_)
        except OSError as e:
            raise ArtifactError("write_failed", f"{hash_}: {e.strerror or e}") from None
        return hash_

    def verify(self, hash_: str) -> bytes:
        """The content stored under ``hash_``, re-hashed; ``ArtifactError`` otherwise."""
        path = self.path(hash_)
        try:
            content = path.read_bytes()
        except FileNotFoundError:
            raise ArtifactError("missing", f"{hash_}: no stored content") from None
        except IsADirectoryError:
            raise ArtifactError("corrupt", f"{hash_}: the stored content is unreadable") from None
        if address(content) != hash_:
            raise ArtifactError("corrupt", f"{hash_}: the stored content does not match its hash")
        return content


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)
