"""Run configuration files (TOML): an explicit ``--config FILE``, else ``./<name>.toml``,
else ``$XDG_CONFIG_HOME/<name>/config.toml``. The first file found is the only one read.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from scrubline.errors import ConfigError


def find(name: str, explicit: str | None = None) -> Path | None:
    if explicit:
        return Path(explicit)
    local = Path(f"{name}.toml")
    if local.is_file():
        return local
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    user = Path(base) / name / "config.toml"
    return user if user.is_file() else None


def load(name: str, explicit: str | None = None) -> dict[str, Any]:
    """The configuration as a dict ({} when there is no file). A file that cannot be read
    or parsed is a ``ConfigError`` naming it."""
    path = find(name, explicit)
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"config {path}: {e}") from e


def turn_tokens(config: dict[str, Any]) -> int | None:
    """``limits.turnTokens``: a positive integer, or None."""
    value = config.get("limits", {}).get("turnTokens")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"limits.turnTokens must be a positive integer, not {value!r}")
    return value
