"""pytest-benchmark: the scrubber through the Python API (`make bench`; disabled in
`make test`). Every benchmark checks its output before it counts."""

from __future__ import annotations

import pytest

from corpus import corpus
from scrubline import Scrubber, scrub

SIZE = 8 << 20
CORPORA = {"clean": corpus(SIZE), "dense": corpus(SIZE, every=4096)}


def stream(chunks: list[str]) -> list[str]:
    """What a consumer of a stream does: feed each chunk as it comes, flush at the end.
    (Slicing the text and joining the output are the harness's work, done untimed.)"""
    s = Scrubber()
    feed = s.feed
    out = [feed(c) for c in chunks]
    out.append(s.flush())
    return out


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
    chunks = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    out = "".join(benchmark.pedantic(stream, args=(chunks,), rounds=5, iterations=1))
    assert out.count("[REDACTED:") == planted
