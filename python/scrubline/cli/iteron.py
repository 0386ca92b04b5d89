"""``iteron``: one-shot runs with versioned machine output (CONTRACT §2-4).

Selectors are validated before anything touches the store (O3): a bad one is exit 64,
one line on stderr, nothing on stdout. In ``json`` and ``stream-json`` stdout carries
only JSON (O6); every diagnostic goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import BinaryIO, NoReturn

import orjson

from scrubline import config
from scrubline._core import DEFAULT_SCHEMA_VERSION, SCHEMA_VERSIONS
from scrubline.errors import ConfigError
from scrubline.render import TextSink
from scrubline.run import RunOptions, execute
from scrubline.runtime import Child, Replay
from scrubline.scrubber import env_literals
from scrubline.store import Record, Store

EXIT_USAGE = 64
#: The resident App Server protocol (not a CLI stream version, O5).
RESIDENT_PROTOCOL_VERSION = 7
FORMATS = ("text", "json", "stream-json")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class StreamSink:
    """stream-json: every projected line as it becomes durable, the result last."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        if data:
            self.out.write(b"".join(data))
            self.out.flush()

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.out.write(data)
        self.out.flush()


class JsonSink:
    """json: exactly one object, the result."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        pass

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.out.write(result + b"\n")
        self.out.flush()


def parser() -> _Parser:
    p = _Parser(prog="iteron", description=__doc__.split("\n\n")[0], add_help=True)
    p.add_argument(
        "--machine-contract",
        action="store_true",
        help="print the supported CLI stream versions as JSON (no runtime, no store)",
    )
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    run = sub.add_parser("run", help="run one task and write its output")
    run.add_argument("prompt", nargs="?", default=None, help="the task (passed to the runtime)")
    run.add_argument("--output-format", default="text", help="text (default), json, stream-json")
    run.add_argument("--output-schema-version", default=None, help="4, 5, 6 or 8 (default 8)")
    src = run.add_mutually_exclusive_group()
    src.add_argument("--replay", metavar="FILE", help="a recorded runtime trace ('-' = stdin)")
    src.add_argument("--runtime-cmd", metavar="CMD", help="a runtime process writing a trace")
    run.add_argument("--timeout", type=float, default=None, help="seconds for --runtime-cmd")
    run.add_argument("--max-turn-tokens", type=int, default=None, help="limits.turnTokens")
    run.add_argument("--config", default=None, help="TOML config (default ./iteron.toml)")
    run.add_argument("--tenant", default=None, help="tenant (default $ITERON_TENANT or default)")
    run.add_argument(
        "--literal-env",
        action="append",
        default=[],
        metavar="VAR",
        help="also redact the value of this environment variable (repeatable)",
    )
    return p


def machine_contract() -> dict:
    return {
        "type": "machine_contract",
        "cli_stream_versions": list(SCHEMA_VERSIONS),
        "default_cli_stream_version": DEFAULT_SCHEMA_VERSION,
        "resident_protocol_version": RESIDENT_PROTOCOL_VERSION,
    }


def schema_version(fmt: str, raw: str | None) -> int:
    """O2/O3: the version to project onto; UsageError for anything unsupported."""
    if fmt not in FORMATS:
        raise UsageError(f"--output-format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if raw is None:
        return DEFAULT_SCHEMA_VERSION
    if fmt == "text":
        raise UsageError("--output-schema-version applies to json and stream-json only")
    try:
        v = int(raw, 10)
    except ValueError:
        raise UsageError(f"--output-schema-version must be a number, not {raw!r}") from None
    if v == RESIDENT_PROTOCOL_VERSION:
        raise UsageError(
            "schema version 7 is the resident App Server protocol, not a CLI stream version;"
            " supported: 4, 5, 6, 8"
        )
    if v not in SCHEMA_VERSIONS:
        raise UsageError(f"unsupported --output-schema-version {v}; supported: 4, 5, 6, 8")
    return v


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except UsageError as e:
        print(f"iteron: {e}", file=sys.stderr)
        return EXIT_USAGE
    except ConfigError as e:
        print(f"iteron: {e}", file=sys.stderr)
        return EXIT_USAGE


def _main(argv: list[str] | None) -> int:
    args = parser().parse_args(argv)
    if args.machine_contract:
        if args.command:
            raise UsageError("--machine-contract takes no command")
        sys.stdout.buffer.write(orjson.dumps(machine_contract()) + b"\n")
        return 0
    if args.command != "run":
        raise UsageError("a command is required: run (or --machine-contract)")
    version = schema_version(args.output_format, args.output_schema_version)
    cfg = config.load("iteron", args.config)
    limit = args.max_turn_tokens if args.max_turn_tokens is not None else config.turn_tokens(cfg)
    if limit is not None and limit < 1:
        raise UsageError("--max-turn-tokens must be a positive integer")
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    if args.replay == "-":
        source: Replay | Child = Replay(stream=sys.stdin.buffer)
    elif args.replay:
        if not os.path.isfile(args.replay):
            raise UsageError(f"--replay {args.replay}: no such file")
        source = Replay(args.replay)
    elif args.runtime_cmd:
        source = Child(args.runtime_cmd, args.timeout)
    else:
        source = Replay.demo()
    tenant = args.tenant or os.environ.get("ITERON_TENANT") or "default"
    opts = RunOptions(
        source=source,
        version=version,
        tenant=tenant,
        max_turn_tokens=limit,
        literals=env_literals(args.literal_env),
    )
    out = sys.stdout.buffer
    if args.output_format == "stream-json":
        sink = StreamSink(out)
    elif args.output_format == "json":
        sink = JsonSink(out)
    else:
        sink = TextSink(sys.stdout)
    store = Store.open()
    try:
        return execute(opts, store, sink).exit_code
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
