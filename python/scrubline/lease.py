"""One writer per run: a run's lease, held by the process appending to it (``iteron run``,
``--resume``/``--continue``, or an App Server run) for as long as it writes.

A lease is a POSIX record lock on one byte of ``$ITERON_HOME/runs.lock``, at an offset
derived from the run id: no file per run, nothing to clean up, and the kernel drops it
when the process dies (a killed writer never leaves a run locked). Record locks belong to
the process, so one process's own runs are told apart by the App Server itself, and a
process's leases of one run are counted: the lock goes with the last of them.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import threading
from pathlib import Path

from scrubline.errors import RunBusy

__all__ = ["RunBusy", "RunLease"]


def _offset(run_id: str) -> int:
    return int.from_bytes(hashlib.sha256(run_id.encode()).digest()[:7], "big")


#: One descriptor per lock file for the whole process, never closed: closing any
#: descriptor of a file drops every record lock the process holds on it.
_FDS: dict[Path, int] = {}
_LOCK = threading.Lock()


def _fd(root: Path) -> int:
    path = (root / "runs.lock").resolve()
    with _LOCK:
        if path not in _FDS:
            root.mkdir(parents=True, exist_ok=True)
            _FDS[path] = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return _FDS[path]


#: Leases this process holds, per lock (descriptor, offset). The kernel keeps one lock
#: per byte and process, however many leases take it: the lock is let go with the last
#: of them (an App Server run's lease and its store's claim are two leases of one run,
#: and a run retiring late must not unlock its id resumed meanwhile).
_HELD: dict[tuple[int, int], int] = {}


class RunLease:
    def __init__(self, fd: int, offset: int) -> None:
        self._fd = fd
        self._offset: int | None = offset

    @classmethod
    def take(cls, root: Path, run_id: str) -> RunLease:
        """The run's lease, or ``RunBusy`` at once (never waits). Within one process a
        second lease of the same run is not refused: the caller keeps its own runs."""
        fd = _fd(root)
        offset = _offset(run_id)
        with _LOCK:
            held = _HELD.get((fd, offset), 0)
            if not held:
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
                except OSError as e:
                    if e.errno in (errno.EACCES, errno.EAGAIN):
                        msg = f"run {run_id!r} is being written by another process"
                        raise RunBusy(msg) from None
                    raise
            _HELD[(fd, offset)] = held + 1
        return cls(fd, offset)

    def release(self) -> None:
        """Let the lease go (once); the lock goes with the process's last lease of it."""
        if self._offset is None:
            return
        key = (self._fd, self._offset)
        self._offset = None
        with _LOCK:
            held = _HELD.pop(key, 1) - 1
            if held:
                _HELD[key] = held
                return
            with contextlib.suppress(OSError):
                fcntl.lockf(key[0], fcntl.LOCK_UN, 1, key[1])

    def __enter__(self) -> RunLease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
