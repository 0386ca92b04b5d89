"""The extension's SIMD code is compiled for the CPU features it was written for.

`pulp` enables a function's features for the function it is handed (`vectorize`), not
for what that function calls out of line: a helper kept out of the step loop
(`#[cold]`, `#[inline(never)]`) or a closure the compiler declines to inline is
compiled for the baseline CPU, and every intrinsic in it becomes a call of its own.
A storm's edge steps ran so, 146 calls each (see docs/benchmarks.md). This reads the
built extension's machine code for such calls.
"""

from __future__ import annotations

import functools
import platform
import re
import shutil
import subprocess
from collections import defaultdict

import pytest

from scrubline import _core

OBJDUMP = shutil.which("objdump")

pytestmark = [
    pytest.mark.skipif(OBJDUMP is None, reason="needs objdump (binutils)"),
    pytest.mark.skipif(platform.machine() != "x86_64", reason="the SIMD paths are x86-64's"),
]

FUNCTION = re.compile(r"^(?P<at>[0-9a-f]+) <(?P<name>.+)>:$")
CALL = re.compile(r"\scall\s+[0-9a-f]+ <(?P<name>[^>]+(?:>[^>]*)*)>$")
INTRINSIC = re.compile(r"^core::core_arch::x86::\w+::_mm\w*$")

# Closures that an edge step's pair compare calls out of line (see
# `StormTables::edge_drops`): rare steps, and written as macros instead, the step loop
# itself stopped inlining two of its closures. They may be called from one function
# (the edge steps'; several instances of one generic function share a name, so
# functions are told apart by address).
ALLOWED = {"scrubline_core::scrub::sieve::StormTables::drops::{{closure}}"}


@functools.cache
def calls() -> dict[str, set[tuple[str, str]]]:
    """Per callee, the callers (address, name) of the extension's call instructions."""
    text = subprocess.run(
        [OBJDUMP, "-d", "--no-show-raw-insn", "-C", _core.__file__],
        capture_output=True, text=True, check=True, timeout=300,
    ).stdout  # fmt: skip
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    caller = ("", "")
    for line in text.splitlines():
        if m := FUNCTION.match(line):
            caller = (m["at"], m["name"])
        elif m := CALL.search(line):
            found[m["name"]].add(caller)
    return found


def test_no_intrinsic_is_called_out_of_line():
    found = calls()
    out_of_line = sorted(
        (name, callee)
        for callee, callers in found.items()
        if INTRINSIC.match(callee)
        for _, name in callers
        if name not in ALLOWED
    )
    assert out_of_line == [], "intrinsics called, not inlined:\n" + "\n".join(
        f"{caller} -> {callee}" for caller, callee in out_of_line[:20]
    )
    # The allowed closures stay out of the step loop: one caller each.
    for name in ALLOWED:
        callers = found.get(name, set())
        assert len(callers) <= 1, f"{name} called from {sorted(callers)}"


def test_the_reader_sees_calls():
    """The parse finds calls at all (an objdump whose format it misreads passes the
    test above vacuously), the core's own functions among those called."""
    found = calls()
    assert sum(len(callers) for callers in found.values()) > 1000
    assert any(name.startswith("scrubline_core::") for name in found)
