"""The cursor decoder (S4): only cursors this store signed, for this query, are
accepted; any other text is `cursor_modified`, whatever its shape."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from scrubline.cursor import CursorError, decode, encode, fingerprint

KEY = os.urandom(32)
QUERY = fingerprint("list", "default", None)
SIGNED = [encode(KEY, "list", QUERY, p) for p in (1, 7, 2**40)]


def code_of(token: str, key: bytes = KEY, kind: str = "list", query: str = QUERY) -> str:
    try:
        decode(key, token, kind, query)
    except CursorError as e:
        return e.code
    return "accepted"


@settings(max_examples=2000)
@given(st.text(max_size=600))
def test_arbitrary_text_is_never_accepted(text):
    assert code_of(text) == "cursor_modified" or text in SIGNED


@settings(max_examples=2000)
@given(
    st.sampled_from(SIGNED),
    st.integers(0, 200),
    st.sampled_from(["replace", "insert", "delete"]),
    st.characters(codec="utf-8"),
)
def test_every_edit_of_a_signed_cursor_is_modified(token, at, edit, char):
    i = at % len(token)
    if edit == "replace":
        if token[i] == char:
            return
        bad = token[:i] + char + token[i + 1 :]
    elif edit == "insert":
        bad = token[:i] + char + token[i:]
    else:
        bad = token[:i] + token[i + 1 :]
    assert code_of(bad) == "cursor_modified"


def test_signed_cursors_round_trip_and_are_tied_to_key_kind_and_query():
    for p, token in zip((1, 7, 2**40), SIGNED, strict=True):
        assert decode(KEY, token, "list", QUERY) == p
        assert len(token) <= 512
    token = SIGNED[0]
    assert code_of(token, key=os.urandom(32)) == "cursor_modified"  # another store
    assert code_of(token, kind="transcript") == "cursor_cross_query"
    assert code_of(token, query=fingerprint("list", "default", "tag")) == "cursor_cross_query"
    assert code_of(token, query=fingerprint("list", "acme", None)) == "cursor_cross_query"
    expired = encode(KEY, "list", QUERY, 3, now=0)
    assert code_of(expired) == "cursor_stale"
