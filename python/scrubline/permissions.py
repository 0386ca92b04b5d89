"""Tool permissions of a one-shot run (T9): no client is connected to show a dialog, so a
tool call that needs one is denied, unless ``--auto`` or an entry of
``permission.allowlist`` (titah.toml / iteron.toml) approves it.
"""

from __future__ import annotations

import fnmatch
from typing import Any, Protocol

import orjson

from scrubline._core import Boundary
from scrubline.errors import ConfigError
from scrubline.store import Record


class Runtime(Protocol):
    """A runtime that takes decisions (``--runtime-cmd`` child, the built-in runtime)."""

    def submit(self, line: bytes) -> None: ...


def allowlist(cfg: dict[str, Any]) -> list[str]:
    """``permission.allowlist`` of a config: a list of strings (else ``ConfigError``)."""
    entries = cfg.get("permission", {}).get("allowlist", [])
    if not isinstance(entries, list) or not all(isinstance(x, str) for x in entries):
        raise ConfigError("permission.allowlist must be a list of strings")
    return entries


class Permissions:
    """Decides each ``tool_start`` with ``needs_approval: true`` as the run admits it. The
    decision goes to the runtime as a submission, ``{"type":"approval","call_id",
    "decision","by"}`` (``by``: ``auto``, ``allowlist`` or ``no_client``); a denial is
    also a ``permission_denied`` notice."""

    def __init__(self, auto: bool, allowlist: list[str], runtime: Runtime | None) -> None:
        self.auto = auto
        self.allowlist = allowlist
        self.runtime = runtime
        self.denied: set[str] = set()

    def allowed(self, tool: str, ev: dict[str, Any]) -> bool:
        return self.deciding(tool, ev) != "no_client"

    def deciding(self, tool: str, ev: dict[str, Any]) -> str:
        """Who approves the call: ``auto``, ``allowlist``, or ``no_client`` (denied).
        Entries are ``tool`` or ``tool(glob)``, the glob matched against the call's
        ``input.command``, ``input.cmd`` or ``title``."""
        if self.auto:
            return "auto"
        inp = ev.get("input") if isinstance(ev.get("input"), dict) else {}
        subjects = [str(v) for v in (inp.get("command"), inp.get("cmd"), ev.get("title")) if v]
        for entry in self.allowlist:
            name, _, rest = entry.partition("(")
            if name.strip() != tool:
                continue
            if not rest:
                return "allowlist"
            pattern = rest.removesuffix(")")
            if any(fnmatch.fnmatchcase(s, pattern) for s in subjects):
                return "allowlist"
        return "no_client"

    def __call__(self, boundary: Boundary, records: list[Record]):
        out: tuple[list[Record], bytes] | None = None
        for _seq, _turn, kind, body in records:
            if kind != "tool_start":
                continue
            ev = orjson.loads(body)
            if ev.get("needs_approval") is not True:
                continue
            call_id, tool = str(ev.get("call_id")), str(ev.get("tool"))
            by = self.deciding(tool, ev)
            ok = by != "no_client"
            if self.runtime is not None:
                decision = "approved" if ok else "denied"
                submission = {"type": "approval", "call_id": call_id, "decision": decision}
                self.runtime.submit(orjson.dumps({**submission, "by": by}))
            if not ok:
                self.denied.add(call_id)
                title = f" ({ev['title']})" if ev.get("title") else ""
                text = (
                    f"Denied {tool}{title}: no client is connected to approve it;"
                    " pass --auto or add it to permission.allowlist."
                )
                recs, lines = boundary.notice("permission_denied", text)
                out = (out[0] + recs, out[1] + lines) if out else (recs, lines)
        return out
