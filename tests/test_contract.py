"""The repository stands alone: every requirement ID used in code, tests and docs is
defined in docs/contract.md, and nothing points at documents outside the repository or
at work history (the docs describe the present; git holds the past)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT_DOC = ROOT / "docs" / "contract.md"
#: A requirement ID: a family letter, a number, maybe a letter (E2a).
ID = re.compile(r"\b[A-Z][0-9]{1,2}[a-z]?\b")
#: The families docs/contract.md defines; other letter-digit words (a Slack team ID in a
#: fixture, a cache level in a CPU description) are not IDs.
FAMILIES = set("IUORESATDFMPK")
#: Rule vectors and generated reports quote third-party text, and proptest's saved seeds
#: are random text; they name no requirement.
NOT_PROSE = (
    "tests/fixtures/",
    "rust/core/src/scrub/rules/",
    "proptest-regressions",
    ".png",
    "Cargo.lock",
)


def tracked() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / n for n in names if not any(p in n for p in NOT_PROSE)]


def text_of(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
        return ""


def definitions() -> list[str]:
    """The IDs docs/contract.md defines, in order (one ``- **ID**`` item each)."""
    return re.findall(r"^- \*\*([A-Z][0-9]{1,2}[a-z]?)\*\*", CONTRACT_DOC.read_text(), re.M)


def defined() -> set[str]:
    return set(definitions())


def test_every_id_used_is_defined():
    known = defined()
    assert {"O1", "R6", "E2a", "S7", "A5", "T9", "D7", "F6", "M7", "I1", "U1"} <= known
    missing = {}
    for path in tracked():
        for found in ID.findall(text_of(path)):
            if found[0] in FAMILIES and found not in known:
                missing.setdefault(found, str(path.relative_to(ROOT)))
    assert missing == {}


def test_ids_are_defined_once():
    ids = definitions()
    assert len(ids) == len(set(ids))


OUTSIDE = re.compile(
    r"\.\./shared|shared/(?:spec|reference|seeds)|\bCONTRACT\b|\b[Ii]ssue [0-9]+|"
    r"\b[Ss]ession [0-9]+\b|(?<![\w.])/work/"
)


def test_nothing_points_outside_the_repository():
    me = Path(__file__).resolve()
    hits = []
    for path in tracked():
        if path == me:
            continue
        for n, line in enumerate(text_of(path).splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert hits == []
