"""The JSON-Schema subset of ``titah run --json-schema`` (T7).

Checked keywords: ``type`` (a name or a list of names; ``integer`` is a number without a
fraction, ``number`` includes integers, booleans are neither), ``required``,
``properties``, ``items`` (one schema for every element), ``enum``. Every other keyword
(``minLength``, ``format``, ``$ref``, ``patternProperties``, ``oneOf`` …) is skipped,
not failed: a schema written for the full spec still checks the parts understood here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scrubline.errors import ConfigError, ScrublineError

_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
_FENCE = re.compile(r"\A\s*```(?:json|JSON)?[ \t]*\n(.*?)\n?```\s*\Z", re.S)


class Mismatch(ScrublineError, ValueError):
    """The first place the value breaks the schema: a JSON path and the rule."""

    def __init__(self, path: str, rule: str) -> None:
        super().__init__(f"{path}: {rule}")
        self.path = path
        self.rule = rule


def load(path: str) -> dict[str, Any]:
    """A schema file: JSON, an object. Anything else is a ``ConfigError`` (exit 64)."""
    try:
        with open(path, "rb") as f:
            schema = json.load(f)
    except OSError as e:
        raise ConfigError(f"--json-schema {path}: {e.strerror}") from None
    except ValueError as e:
        raise ConfigError(f"--json-schema {path}: not JSON ({e})") from None
    if not isinstance(schema, dict):
        raise ConfigError(f"--json-schema {path}: a schema must be a JSON object")
    return schema


def instruction(schema: dict[str, Any]) -> str:
    """What is appended to the prompt (documented in docs/titah.md)."""
    return (
        "\n\nAnswer with one JSON value only, no prose around it, matching this JSON Schema"
        " (a single ```json fenced block is accepted):\n"
        + json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
    )


def parse_answer(text: str) -> Any:
    """The answer as JSON: the whole text, or the inside of a single ```json fence.
    Raises ``Mismatch`` at ``$`` when it is neither."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text
    try:
        return json.loads(body)
    except ValueError as e:
        raise Mismatch("$", f"the answer is not JSON ({e.msg} at line {e.lineno})") from None


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _is(value: Any, name: str) -> bool:
    actual = _type_name(value)
    return actual == name or (name == "number" and actual == "integer")


def check(value: Any, schema: Any, path: str = "$") -> None:
    """Raise ``Mismatch`` at the first violation (depth first, in schema order)."""
    if not isinstance(schema, dict):
        return  # `true`, `false` and other forms are outside the subset: skipped
    want = schema.get("type")
    if want is not None:
        names = [want] if isinstance(want, str) else want if isinstance(want, list) else []
        names = [n for n in names if n in _TYPES]
        if names and not any(_is(value, n) for n in names):
            expected = " or ".join(names)
            raise Mismatch(path, f"type: expected {expected}, got {_type_name(value)}")
    enum = schema.get("enum")
    if isinstance(enum, list) and not any(_same(value, option) for option in enum):
        shown = json.dumps(enum)[:120]
        raise Mismatch(path, f"enum: {json.dumps(value)[:60]} is not one of {shown}")
    if isinstance(value, dict):
        required = schema.get("required")
        if isinstance(required, list):
            for name in required:
                if isinstance(name, str) and name not in value:
                    raise Mismatch(path, f"required: missing property {name!r}")
        props = schema.get("properties")
        if isinstance(props, dict):
            for name, sub in props.items():
                if name in value:
                    check(value[name], sub, _child(path, name))
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            check(item, schema["items"], f"{path}[{i}]")


def _child(path: str, name: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return f"{path}.{name}"
    return f"{path}[{json.dumps(name)}]"


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 equals 1.0, but true is not 1 and "1" is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b
