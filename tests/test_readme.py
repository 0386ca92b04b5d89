"""The README is executable: its Python examples run as doctests, and its quick start
names exactly the two make targets that exist."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples_run():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, verbose=False)
    assert result.attempted >= 5
    assert result.failed == 0


def test_quick_start_is_two_make_targets():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    for target in ("demo", "test"):
        assert re.search(rf"^{target}:", makefile, re.M), target
