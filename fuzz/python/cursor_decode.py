"""atheris (libFuzzer for Python) on the cursor decoder (S4): whatever the text
— arbitrary, a signed cursor with edits, two cursors spliced — `decode` accepts exactly
the cursors this key signed for this query, and rejects everything else with one of the
three cursor codes; it never raises anything else.

    python fuzz/python/cursor_decode.py -max_total_time=60 fuzz/corpus/cursor_decode
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from scrubline.cursor import CursorError, decode, encode, fingerprint

KEY = bytes(range(32))
QUERY = fingerprint("list", "default", None)
OTHER = fingerprint("transcript", "default", "run-1")
SIGNED = [encode(KEY, "list", QUERY, p) for p in (0, 1, 99, 2**31, 2**62)]
FOREIGN = [encode(bytes(32), "list", QUERY, 5), encode(KEY, "transcript", OTHER, 5)]
CODES = {"cursor_modified", "cursor_stale", "cursor_cross_query"}


def candidate(fdp: atheris.FuzzedDataProvider) -> str:
    mode = fdp.ConsumeIntInRange(0, 3)
    if mode == 0:
        return fdp.ConsumeUnicode(700)
    base = fdp.PickValueInList(SIGNED + FOREIGN)
    if mode == 1:  # edits of a signed cursor
        chars = list(base)
        for _ in range(fdp.ConsumeIntInRange(1, 4)):
            at = fdp.ConsumeIntInRange(0, len(chars))
            op = fdp.ConsumeIntInRange(0, 2)
            ch = fdp.ConsumeUnicode(1) or "A"
            if op == 0 and at < len(chars):
                chars[at] = ch
            elif op == 1:
                chars.insert(at, ch)
            elif at < len(chars):
                del chars[at]
        return "".join(chars)
    if mode == 2:  # a payload of one cursor with the mac of another
        other = fdp.PickValueInList(SIGNED + FOREIGN)
        return base.split(".")[0] + "." + other.split(".")[1]
    return base  # a genuine one, of this query or another


def test_one_input(data: bytes) -> None:
    token = candidate(atheris.FuzzedDataProvider(data))
    try:
        decode(KEY, token, "list", QUERY)
    except CursorError as e:
        assert e.code in CODES, e.code
        assert token not in SIGNED, f"a signed cursor was refused: {token!r}"
        return
    assert token in SIGNED, f"an unsigned cursor was accepted: {token!r}"


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
