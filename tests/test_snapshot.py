"""A scrubber's stream moved to another process through snapshot/restore (K6, K7):
the output is that of one unbroken stream, and a foreign, damaged or newer snapshot is
refused with ``SnapshotError`` before anything of it is used."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_vectors
from scrubline import Scrubber as PyScrubber
from scrubline import ScrublineError, SnapshotError
from scrubline._core import Scrubber

LITERAL = "correct-horse-battery"
ACME = {"id": "acme-key", "pattern": "acme_[a-z0-9]{12}", "keywords": ["acme_"]}
OPTIONS = {"literals": [LITERAL], "rules": [ACME]}
VECTORS = load_vectors()
PIECES = [v["text"] for v in VECTORS] + [LITERAL, "acme_0123456789ab", "ghp_", "password="]


# Two scrubbers standing for two processes: the rules are compiled once per process,
# and a stream moves from one to the other with ``resume``.
HERE, THERE, ALONE = Scrubber(**OPTIONS), Scrubber(**OPTIONS), Scrubber(**OPTIONS)
FRESH = HERE.snapshot()


def one_pass(text: str) -> tuple[str, dict[str, int]]:
    s = ALONE
    s.resume(FRESH)
    out = s.feed(text) + s.flush()
    return out, s.counts


def resumed(text: str, cuts: list[int]) -> tuple[str, dict[str, int]]:
    a, b = HERE, THERE
    a.resume(FRESH)
    out, at = [], 0
    for cut in sorted(cuts):
        cut = min(max(cut, at), len(text))
        out.append(a.feed(text[at:cut]))
        at = cut
        b.resume(a.snapshot())
        a, b = b, a
    out.append(a.feed(text[at:]))
    out.append(a.flush())
    return "".join(out), a.counts


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["rule"])
def test_k6_every_vector_at_every_split_point(vector):
    text = vector["text"]
    want = one_pass(text)
    for cut in range(len(text) + 1):
        assert resumed(text, [cut]) == want, cut
        first = Scrubber()
        head = first.feed(text[:cut])
        second = Scrubber.restore(first.snapshot())
        assert head + second.feed(text[cut:]) + second.flush() == vector["expect"], cut


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=8),
    cuts=st.lists(st.integers(min_value=0, max_value=600), max_size=5),
)
def test_k6_resumed_at_any_cuts_equals_one_pass(parts, cuts):
    text = "".join(parts)
    assert resumed(text, cuts) == one_pass(text)


def test_k6_bytes_streams_and_the_wrapper_and_the_rule_set():
    pytest.importorskip("pyarrow")  # scrubline.fleet comes with the spark extra
    from scrubline.fleet import RuleSet

    rules = RuleSet(literals=(LITERAL,), rules=(ACME,))
    s = rules.scrubber()
    head = s.feed_bytes(b"key: correct-horse-bat")
    assert s.held > 0
    data = s.snapshot()
    assert isinstance(data, bytes)
    r = rules.restore(data)
    assert (
        head + r.feed_bytes(b"tery done") + r.flush_bytes()
        == b"key: [REDACTED:literal-secret] done"
    )

    w = PyScrubber(literals=[LITERAL])
    head = w.feed("pw " + LITERAL[:5])
    w2 = PyScrubber.restore(w.snapshot(), literals=[LITERAL])
    assert isinstance(w2, PyScrubber)
    assert head + w2.feed(LITERAL[5:] + "!") + w2.flush() == "pw [REDACTED:literal-secret]!"
    assert w2.counts == {"literal-secret": 1}


def busy() -> bytes:
    s = Scrubber(**OPTIONS)
    s.feed(f"a {LITERAL} b ghp_aB3dE5gH7jK9mN1pQ3s")
    assert s.held > 0
    return s.snapshot()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"literals": [LITERAL]},
        {"literals": [LITERAL + "x"], "rules": [ACME]},
        {**OPTIONS, "replacement": "***"},
    ],
)
def test_k7_other_rules_are_refused(options):
    with pytest.raises(SnapshotError, match="other rules"):
        Scrubber.restore(busy(), **options)


def test_k7_damaged_snapshots_are_refused():
    data = busy()
    for n in range(len(data)):
        with pytest.raises(SnapshotError):
            THERE.resume(data[:n])
    for i in range(len(data)):
        bad = bytearray(data)
        bad[i] ^= 0x01
        with pytest.raises(SnapshotError):
            THERE.resume(bytes(bad))
    target = Scrubber(**OPTIONS)
    target.feed("pw " + LITERAL[:4])
    before = target.snapshot()
    with pytest.raises(SnapshotError):
        target.resume(data[:-1])
    assert target.snapshot() == before  # a refusal leaves the scrubber as it was
    newer = bytearray(data)
    newer[8] += 1
    with pytest.raises(SnapshotError, match="newer"):
        Scrubber.restore(bytes(newer), **OPTIONS)
    assert issubclass(SnapshotError, ScrublineError) and issubclass(SnapshotError, ValueError)


def test_k4_a_live_scrubber_still_does_not_pickle():
    with pytest.raises(TypeError):
        pickle.dumps(Scrubber(**OPTIONS))
    with pytest.raises(TypeError, match="snapshot"):
        pickle.dumps(PyScrubber(literals=[LITERAL]))
