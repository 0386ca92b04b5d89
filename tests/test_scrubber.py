"""The Python API of the scrubber: D2 (split invariance), D3 (minimal hold-back), D4
(rule IDs, literals, custom rules), D5 (what is left alone), errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scrubline
from conftest import load_naughty, load_vectors
from scrubline import (
    ConfigError,
    LiteralError,
    RuleError,
    Scrubber,
    ScrublineError,
    ScrublineWarning,
    families,
    rules,
    scrub,
)

GHP = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
VECTORS = load_vectors()
POSITIVE_TEXTS = [v["text"] for v in VECTORS if v["text"] != v["expect"]] or [GHP]


def streamed(text: str, cuts: list[int], scrubber: Scrubber | None = None) -> str:
    s = scrubber or Scrubber()
    out, prev = [], 0
    for c in sorted(set(cuts)):
        out.append(s.feed(text[prev:c]))
        prev = c
    out.append(s.feed(text[prev:]))
    out.append(s.flush())
    return "".join(out)


def test_d4_replacement_names_the_rule():
    assert scrub(f"GITHUB_TOKEN={GHP}\n") == "GITHUB_TOKEN=[REDACTED:github-pat]\n"


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["rule"])
def test_d4_rule_vectors(vector):
    assert scrub(vector["text"]) == vector["expect"]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["rule"])
def test_d2_rule_vectors_one_character_at_a_time(vector):
    text = vector["text"]
    assert streamed(text, list(range(len(text)))) == vector["expect"]


@settings(max_examples=300, deadline=None)
@given(
    prefix=st.text(max_size=30),
    secret=st.sampled_from(POSITIVE_TEXTS),
    suffix=st.text(max_size=30),
    data=st.data(),
)
def test_d2_any_chunking_of_text_with_credentials_equals_whole(prefix, secret, suffix, data):
    text = prefix + secret + suffix
    cuts = data.draw(st.lists(st.integers(0, len(text)), max_size=12))
    assert streamed(text, cuts) == scrub(text)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=200), data=st.data())
def test_d2_any_chunking_of_any_text_equals_whole(text, data):
    cuts = data.draw(st.lists(st.integers(0, len(text)), max_size=20))
    whole = scrub(text)
    assert streamed(text, cuts) == whole
    whole.encode("utf-8")  # valid text in, valid text out: no surrogate was invented


def test_d2_one_character_chunks_never_expose_a_token_prefix():
    s = Scrubber()
    shown = "".join(s.feed(ch) for ch in f"key {GHP} end")
    assert "ghp_aB" not in shown
    assert shown + s.flush() == "key [REDACTED:github-pat] end"


def test_d3_clean_text_is_not_held():
    s = Scrubber()
    assert s.feed("All 12 tests passed in 0.3s.\n") == "All 12 tests passed in 0.3s.\n"
    assert s.held == 0


def test_unchanged_input_is_handed_back_as_is():
    """Clean text costs no new object: scrub() and feed() return their input itself when
    nothing was redacted or held; a changed text is a new object with the redaction."""
    clean = "def main():\n    print('hello, world')\n" * 2000  # > 64 KiB: several slices
    assert scrub(clean) is clean
    assert Scrubber().scrub(clean) is clean
    s = Scrubber()
    chunk = "nothing to see here.\n"
    assert s.feed(chunk) is chunk
    data = b"plain bytes, nothing held.\n"
    assert s.feed_bytes(data) is data
    assert scrubline._core.scrub_bytes(data) is data
    dirty = clean + f"GITHUB_TOKEN={GHP}\n" + clean
    out = scrub(dirty)
    assert out == clean + "GITHUB_TOKEN=[REDACTED:github-pat]\n" + clean
    # A chunk whose tail is held back is not the chunk: what is safe comes out.
    s = Scrubber()
    assert s.feed("see gh") == "see "
    assert s.feed("p_ no") + s.flush() == "ghp_ no"
    # An empty chunk, with nothing ever written or with a tail held, writes nothing and
    # loses nothing: the held tail is still there, and comes out at the end.
    s = Scrubber()
    assert s.feed_bytes(b"") == b"" and s.feed("") == ""
    assert s.feed_bytes(b"see gh") == b"see "
    assert s.feed_bytes(b"") == b"" and s.feed("") == "" and s.held == 2
    assert s.feed_bytes(b"p_ no") + s.flush_bytes() == b"ghp_ no"


def test_large_chunks_are_handed_back_or_scrubbed_whole():
    """A chunk longer than the binding's 8 MiB signal slice: handed back when clean,
    and when a credential sits past the first slice, the first slice (which went out
    unchanged, unwritten) comes out in front of the redaction."""
    line = "def main():\n    print('hello, world')\n"
    clean = line * (9 * 2**20 // len(line) + 1)
    s = Scrubber()
    assert s.feed(clean) is clean
    data = clean.encode()
    assert s.feed_bytes(data) is data
    dirty = clean + f"GITHUB_TOKEN={GHP}\n" + line
    want = clean + "GITHUB_TOKEN=[REDACTED:github-pat]\n" + line
    s = Scrubber()
    assert s.feed(dirty) + s.flush() == want
    s = Scrubber()
    assert (s.feed_bytes(dirty.encode()) + s.flush_bytes()).decode() == want


@settings(max_examples=60, deadline=None)
@given(
    unit=st.sampled_from(
        ["def main():\n    print('hi')\n", "naïve café, ünïcode: ok\n", "token_count = 3; see gh"]
    ),
    sizes=st.lists(st.integers(1, 20_000), min_size=1, max_size=8),
    plant=st.integers(0, 60_000),
)
def test_large_chunks_handed_back_in_parts_equal_whole(unit, sizes, plant):
    """From 4 KiB, what went out of an ASCII `str` chunk unchanged comes back as a slice
    of it (after the tail held before it); other chunks, and `bytes`, are built from the
    output. Every chunking equals `scrub()`, for both, held tails and a token included."""
    text = unit * (60_000 // len(unit))
    text = text[:plant] + f" GITHUB_TOKEN={GHP} " + text[plant:]
    chunks, at = [], 0
    for n in sizes * 10:
        chunks.append(text[at : at + n])
        at += n
    chunks.append(text[at:])
    whole = scrub(text)
    s = Scrubber()
    assert "".join([s.feed(c) for c in chunks] + [s.flush()]) == whole
    s = Scrubber()
    data = [c.encode() for c in chunks]
    assert b"".join([s.feed_bytes(c) for c in data] + [s.flush_bytes()]) == whole.encode()


@settings(max_examples=40, deadline=None)
@given(
    unit=st.sampled_from(["token_count = 3; see gh", "def main():\n    print('hi')\n"]),
    sizes=st.lists(st.integers(16_000, 70_000), min_size=1, max_size=4),
    plant=st.integers(0, 150_000),
)
def test_large_byte_chunks_joined_equal_whole(unit, sizes, plant):
    """From 16 KiB, `feed_bytes` has CPython join what was written (the tail held
    before) and a view of the chunk's unchanged part: each output is `bytes`, and every
    chunking equals `scrub_bytes()`, a token planted anywhere and tails held at cuts."""
    text = (unit * (200_000 // len(unit))).encode()
    text = text[:plant] + f" GITHUB_TOKEN={GHP} ".encode() + text[plant:]
    chunks, at = [], 0
    for n in sizes:
        chunks.append(text[at : at + n])
        at += n
    chunks.append(text[at:])
    s = Scrubber()
    outs = [s.feed_bytes(c) for c in chunks] + [s.flush_bytes()]
    assert all(type(out) is bytes for out in outs)
    assert b"".join(outs) == scrubline._core.scrub_bytes(text)


@given(st.text(alphabet="ghp_AKIsk-xob:/ \nab", max_size=60))
@settings(max_examples=200, deadline=None)
def test_d2_handing_back_the_input_keeps_split_invariance(text):
    s = Scrubber()
    out = [s.feed(text[i : i + 5]) for i in range(0, len(text), 5)]
    assert "".join(out) + s.flush() == scrub(text)


def test_d3_flush_releases_a_partial_keyword():
    s = Scrubber()
    assert s.feed("the prefix is gh") == "the prefix is "
    assert s.held == 2
    assert s.flush() == "gh"
    assert s.held == 0


def test_d3_a_tail_is_held_only_in_a_case_its_rule_can_match():
    """Slack's `xoxe.xoxp-` is found as written: `~xoxe.xoxp` may still become one and is
    held whole; in capitals only `XOXP` is held (a run a rule may read before its
    keyword). A literal secret's start is held only as written."""
    s = Scrubber()
    assert (s.feed("a ~xoxe.xoxp"), s.held) == ("a ", 10)
    s = Scrubber()
    assert (s.feed("a ~XOXE.XOXP"), s.held) == ("a ~XOXE.", 4)
    s = Scrubber(literals=["Pw:!Secret1"])
    assert (s.feed("a Pw:!"), s.held) == ("a ", 4)
    assert (s.feed(" b pw:!"), s.held) == ("Pw:! b pw:!", 0)


def test_d5_identifiers_and_hashes_left_alone():
    text = (
        "commit c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b "
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "
        "--hash=sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "
        "image@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "
        "run 123e4567-e89b-12d3-a456-426614174000 "
        "the password is stored in the vault; rotate the token weekly. "
        "password=os.environ['DB_PASSWORD'] password: ${DB_PASSWORD} def get_password(self):"
    )
    assert scrub(text) == text


@pytest.mark.parametrize("naughty", load_naughty())
def test_naughty_strings_pass_unchanged(naughty):
    assert scrub(naughty) == naughty
    assert streamed(naughty, list(range(len(naughty)))) == naughty


def test_lone_surrogates_survive():
    text = "a\udc80b " + GHP + " \ud800"
    assert scrub(text) == "a\udc80b [REDACTED:github-pat] \ud800"
    assert streamed(text, [1, 2, 9]) == scrub(text)


def test_counts_per_rule():
    s = Scrubber()
    s.feed(f"{GHP} and {GHP} and AKIAQ3ZP7XK2M5RT9WLA ")
    s.flush()
    assert s.counts == {"github-pat": 2, "aws-access-key-id": 1}


def test_literal_and_its_encodings():
    s = Scrubber(literals=["correct-horse-battery"], replacement="<{rule}>")
    text = "a correct-horse-battery b Y29ycmVjdC1ob3JzZS1iYXR0ZXJ5 c correct%2Dhorse"
    assert s.scrub(text) == "a <literal-secret> b <literal-secret> c correct%2Dhorse"


def test_literal_env(monkeypatch):
    monkeypatch.setenv("SCRUBLINE_TEST_SECRET", "Tr0ub4dor&3-long")
    monkeypatch.setenv("SCRUBLINE_TEST_SHORT", "abc")
    monkeypatch.delenv("SCRUBLINE_TEST_UNSET", raising=False)
    with pytest.warns(ScrublineWarning) as caught:
        s = Scrubber(
            literal_env=["SCRUBLINE_TEST_SECRET", "SCRUBLINE_TEST_SHORT", "SCRUBLINE_TEST_UNSET"]
        )
    messages = " ".join(str(w.message) for w in caught)
    assert "SCRUBLINE_TEST_SHORT" in messages and "SCRUBLINE_TEST_UNSET" in messages
    assert "abc" not in messages
    assert s.scrub("pw=Tr0ub4dor&3-long;") == "pw=[REDACTED:literal-secret];"


def test_short_literal_is_an_error():
    with pytest.raises(LiteralError, match="at least 8 bytes"):
        Scrubber(literals=["short"])


def test_custom_rules_file(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text(
        '[[rule]]\nid = "acme-token"\ndescription = "ACME"\n'
        "keywords = [\"acme_\"]\npattern = 'acme_[a-z0-9]{16}'\n"
    )
    s = Scrubber(rules_file=path)
    assert s.scrub("t=acme_0123456789abcdef.") == "t=[REDACTED:acme-token]."
    assert s.scrub("t=acme_0123456789abcdefg.") == "t=acme_0123456789abcdefg."


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        (
            "[[rule]]\nid = 'x-y'\nkeywords = ['k']\npattern = 'k(['\n",
            RuleError,
            "(?s)x-y.*unclosed",
        ),
        ("[[rule]]\nid = 'Bad ID'\nkeywords = ['k']\npattern = 'k'\n", RuleError, "Bad ID"),
        ("[[rule]]\nid = 'no-kw'\nkeywords = []\npattern = 'k'\n", RuleError, "keyword"),
        ("[[rule]]\nid = 'github-pat'\nkeywords = ['k']\npattern = 'k1'\n", RuleError, "dupl"),
        ("[[rule]]\nid = 'empty'\nkeywords = ['k']\npattern = 'k*'\n", RuleError, "empty"),
        ("[[rule]]\nid = 'x'\nkeywords = ['k']\n", ConfigError, "missing 'pattern'"),
        (
            "[[rule]]\nid = 'x'\nkeywords = ['k']\npattern = 'k'\ncolour = 1\n",
            ConfigError,
            "colour",
        ),
        ("not toml ===", ConfigError, "TOML"),
    ],
)
def test_bad_rules_are_clear_errors(tmp_path, body, error, message):
    path = tmp_path / "rules.toml"
    path.write_text(body)
    with pytest.raises(error, match=message):
        Scrubber(rules_file=path)


def test_error_hierarchy():
    assert issubclass(RuleError, ScrublineError) and issubclass(RuleError, ValueError)
    with pytest.raises(ConfigError):
        Scrubber(rules_file="/nonexistent/rules.toml")


def test_rules_listing():
    found = rules()
    ids = [r.id for r in found]
    assert len(ids) == len(set(ids))
    assert {"github-pat", "private-key-pem", "password-assignment", "literal-secret"} <= set(ids)
    assert {r.tier for r in found} <= {"token", "context", "literal"}
    assert all(r.description for r in found)


def test_every_builtin_rule_belongs_to_one_family_in_priority_order():
    found = rules()
    fams = families()
    # The families, in their order, hold the rules in theirs: the run-time literal rule
    # comes last and belongs to none.
    assert [i for f in fams for i in f.rules] == [r.id for r in found[:-1]]
    assert found[-1].id == "literal-secret" and found[-1].family == ""
    assert len({f.name for f in fams}) == len(fams)
    by_id = {r.id: r for r in found}
    for f in fams:
        assert f.rules and f.source
        assert all(by_id[i].family == f.name for i in f.rules)
        assert f.tiers == tuple(dict.fromkeys(by_id[i].tier for i in f.rules))
    # Every built-in rule starts at a keyword; the literal rule at a registered secret.
    assert all(r.keywords for r in found[:-1]) and found[-1].keywords == ()
    assert by_id["github-pat"].keywords == ("ghp_",)


def test_every_rule_shows_the_pattern_that_matches_its_vectors():
    # The listed pattern is the one the rule runs: it finds (Python `re` reads this
    # subset of the syntax alike) the redacted value of each of the rule's hit vectors.
    found = rules()
    by_id = {r.id: r for r in found}
    assert by_id["github-pat"].pattern == "ghp_[0-9A-Za-z]{36,255}"
    assert found[-1].id == "literal-secret" and found[-1].pattern == ""
    assert all(r.pattern for r in found[:-1])
    hits = [v for v in load_vectors() if v["expect"] != v["text"]]
    assert {v["rule"] for v in hits} == {r.id for r in found[:-1]}
    for v in hits:
        assert re.search(by_id[v["rule"]].pattern, v["text"]), v


def test_public_api():
    assert set(scrubline.__all__) >= {"scrub", "Scrubber", "rules", "ScrublineError"}
    assert scrubline.__version__
