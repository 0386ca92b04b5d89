"""The type stubs of the extension (python/scrubline/_core.pyi) agree with the module
that was built: every name, signature and constant, checked by mypy's stubtest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ALLOWLIST = Path(__file__).with_name("stubtest-allowlist.txt")


def test_core_stub_matches_the_built_extension():
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "scrubline._core", "--allowlist", str(ALLOWLIST)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
