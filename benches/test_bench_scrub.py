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


@pytest.mark.parametrize("chunk", [32, 65536])
def test_stream_bytes(benchmark, chunk):
    """The bytes face: no decode or encode; clean chunks come back as the same object."""
    text, _ = CORPORA["clean"]
    data = text.encode()[: SIZE // 8 if chunk == 32 else SIZE]
    benchmark.extra_info["bytes"] = len(data)
    chunks = [data[i : i + chunk] for i in range(0, len(data), chunk)]

    def run() -> bytes:
        s = Scrubber()
        feed = s.feed_bytes
        return b"".join([feed(c) for c in chunks]) + s.flush_bytes()

    assert benchmark.pedantic(run, rounds=5, iterations=1) == data


@pytest.mark.parametrize("face", ["str", "bytes"])
def test_empty_chunks(benchmark, face):
    """Empty deltas (a model stream's first and keep-alive ones), 100,000 of them: a call
    each, and each handed back as itself."""
    empty = "" if face == "str" else b""
    chunks = [empty] * 100_000

    def run() -> list:
        s = Scrubber()
        feed = s.feed if face == "str" else s.feed_bytes
        return [feed(c) for c in chunks]

    out = benchmark.pedantic(run, rounds=5, iterations=1)
    assert len(out) == len(chunks) and all(o is empty for o in out)


def test_scrub_lines(benchmark):
    """`scrub()` a line at a time, as a caller scrubbing log lines, messages or fields
    does: each call makes a scrubber of its own. 10,000 lines of the clean corpus, each
    handed back unchanged."""
    text, _ = CORPORA["clean"]
    lines = text.splitlines(keepends=True)[:10_000]
    benchmark.extra_info["bytes"] = sum(len(line.encode()) for line in lines)
    out = benchmark.pedantic(lambda: [scrub(line) for line in lines], rounds=5, iterations=1)
    assert out == lines


def test_new_scrubber_with_a_literal(benchmark):
    """A scrubber for one stream's literal secret (what a run with `--literal-env` makes):
    its own prefilter; the built-in rules' compiled matchers are the process's."""
    s = benchmark.pedantic(
        Scrubber, kwargs={"literals": ["correct-horse-battery-staple"]}, rounds=5, iterations=1
    )
    assert s.feed("a correct-horse-battery-staple b") + s.flush() == (
        "a [REDACTED:literal-secret] b"
    )


ADVERSARIAL = {
    "storm sk-": ("sk-", None),
    "storm ghp_": ("ghp_", None),
    "storm eyJ": ("eyJ", "[REDACTED:jwt]"),
    "storm xoxb-": ("xoxb-", None),
    "storm a": ("a", None),
}


@pytest.mark.parametrize("name", ADVERSARIAL)
def test_adversarial_stream(benchmark, name):
    """Keyword storms through the Python API at 64 KiB (1 MiB each), exact output checked;
    compare with test_stream[clean-65536]."""
    unit, expect = ADVERSARIAL[name]
    text = (unit * ((1 << 20) // len(unit) + 1))[: 1 << 20]
    benchmark.extra_info["bytes"] = len(text)
    chunks = [text[i : i + 65536] for i in range(0, len(text), 65536)]
    out = "".join(benchmark.pedantic(stream, args=(chunks,), rounds=3, iterations=1))
    assert out == (text if expect is None else expect)
