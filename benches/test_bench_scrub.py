"""pytest-benchmark: the scrubber through the Python API (`make bench`; disabled in
`make test`). Every benchmark checks its output before it counts."""

from __future__ import annotations

import pytest

from corpus import corpus
from scrubline import Scrubber, scrub

SIZE = 8 << 20
CORPORA = {"clean": corpus(SIZE), "dense": corpus(SIZE, every=4096)}


def stream(text: str, chunk: int) -> str:
    s = Scrubber()
    feed = s.feed
    out = [feed(text[i : i + chunk]) for i in range(0, len(text), chunk)]
    out.append(s.flush())
    return "".join(out)


@pytest.mark.parametrize("name", CORPORA)
def test_whole(benchmark, name):
    text, planted = CORPORA[name]
    benchmark.extra_info["bytes"] = len(text.encode())
    out = benchmark(scrub, text)
    assert out.count("[REDACTED:") == planted


@pytest.mark.parametrize("chunk", [32, 1024, 65536])
@pytest.mark.parametrize("name", CORPORA)
def test_stream(benchmark, name, chunk):
    text, planted = CORPORA[name]
    if chunk == 32:
        text = text[: SIZE // 8]
        planted = text.count("TOKEN_VALUE=")
    benchmark.extra_info["bytes"] = len(text.encode())
    out = benchmark.pedantic(stream, args=(text, chunk), rounds=5, iterations=1)
    assert out.count("[REDACTED:") == planted
