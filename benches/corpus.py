"""Agent-like text for the Python benchmarks: code, test logs, prose, JSON tool output
and base64 blobs, clean or with a credential planted every `every` bytes. Seeded, so
every run measures the same text (the Rust benches use the same recipe)."""

from __future__ import annotations

import math
import random

PLANTED = (
    "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
    "AKIAQ3ZP7XK2M5RT9WLA",
    "xoxb-2614539803-3817653278-aBcDeFgHiJkLmNoPqRsTuVwX",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "npm_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
    "glpat-aB3dE5gH7jK9mN1pQ3sT",
)
CODE = '''def load_config(path: str) -> dict:
    """Read the service configuration and apply defaults."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data.setdefault("timeout", 30)
    for key, value in data.items():
        logger.debug("config %s=%r", key, value)
    return data

'''
LOG = (
    "tests/test_api.py::test_create_user PASSED                        [ 42%]\n"
    "tests/test_api.py::test_delete_user FAILED                        [ 43%]\n"
    "E   AssertionError: expected status 204, got 500 (request id 7f3a9c2e)\n"
    "2026-11-30T04:46:06.123Z INFO  worker-3 processed batch 1842 in 12.4ms\n"
)
PROSE = (
    "I looked at the failing test and the stack trace points to the session middleware: "
    "the cookie is parsed before the request body is read, so the handler sees an empty "
    "form. I will move the parsing step after the body is loaded and add a regression test "
    "that posts a form with a large attachment.\n"
)
JSON = (
    '{"type":"tool_result","tool":"bash","exit_code":0,"output":"total 48\\ndrwxr-xr-x  '
    '6 dev dev 4096 Nov 30 04:46 .\\n-rw-r--r--  1 dev dev 1204 README.md\\n",'
    '"duration_ms":38}\n'
)
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def filler(rng: random.Random) -> str:
    """One piece of agent output: code, a test log, prose, JSON tool output or a blob."""
    kind = rng.randrange(5)
    if kind < 4:
        return (CODE, LOG, PROSE, JSON)[kind]
    blob = "".join(rng.choices(B64, k=300))
    return "\n".join(blob[i : i + 76] for i in range(0, 300, 76)) + "\n"


def corpus(size: int, every: int | None = None, seed: int = 7) -> tuple[str, int]:
    """About `size` characters of agent output and the number of credentials planted."""
    rng = random.Random(seed)
    parts: list[str] = []
    length = planted = 0
    next_plant = every or math.inf  # clean: never
    while length < size:
        piece = filler(rng)
        parts.append(piece)
        length += len(piece)
        if length >= next_plant:
            piece = f"export TOKEN_VALUE={PLANTED[planted % len(PLANTED)]}\n"
            parts.append(piece)
            length += len(piece)
            planted += 1
            next_plant += every or 0
    return "".join(parts), planted
