"""``scrubline``: the engine as a Unix filter (CONTRACT §8, D6).

    scrubline scrub [FILE] [--literal-env NAME]... [--rules FILE] [--stats] [--sample]
    scrubline project [FILE] [--schema-version N] [--literal-env NAME]... [--from TOOL]
    scrubline rules [--json]

``scrub`` streams FILE (or stdin) to stdout in bounded memory: it reads whatever is
available (at most 64 KiB at a time), writes what is safe at once, and flushes at the
end. ``project`` runs a runtime trace (JSONL) through the run boundary: redacted,
projected onto schema N (4, 5, 6, 8; default 8), ending with the result; no store.
Exit codes: 0 ok, 64 usage or configuration error, 65 bad trace line (``project``),
66 input file missing; otherwise ``project`` exits with the result's exit code.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import warnings
from importlib import resources
from typing import BinaryIO, NoReturn

from scrubline._core import SCHEMA_VERSIONS
from scrubline.errors import ScrublineError
from scrubline.scrubber import DEFAULT_REPLACEMENT, Scrubber, rules

EX_USAGE = 64
EX_NOINPUT = 66
CHUNK = 64 * 1024


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EX_USAGE)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="scrubline", description="Streaming credential scrubber for agent output.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("scrub", help="scrub FILE (or stdin) to stdout")
    s.add_argument("file", nargs="?", help="input file (default: stdin)")
    s.add_argument(
        "--sample",
        action="store_true",
        help="scrub the bundled sample of agent output instead of FILE/stdin",
    )
    s.add_argument(
        "--literal-env",
        action="append",
        default=[],
        metavar="NAME",
        help="redact the value of environment variable NAME (repeatable)",
    )
    s.add_argument("--rules", metavar="FILE", help="TOML file of custom rules")
    s.add_argument(
        "--replacement",
        default=DEFAULT_REPLACEMENT,
        help="replacement template; {rule} is the rule ID (default: %(default)s)",
    )
    s.add_argument("--stats", action="store_true", help="print redactions per rule on stderr")
    pj = sub.add_parser("project", help="project a runtime trace (FILE or stdin) to stdout")
    pj.add_argument("file", nargs="?", help="input trace (default: stdin)")
    pj.add_argument("--schema-version", type=int, default=8, help="4, 5, 6 or 8 (default 8)")
    pj.add_argument("--literal-env", action="append", default=[], metavar="NAME")
    pj.add_argument(
        "--from",
        dest="from_",
        choices=("trace", "claude-code", "codex", "gemini"),
        default="trace",
        help="the input's format: trace (default) or an agent CLI's stream (docs/agents.md)",
    )
    r = sub.add_parser("rules", help="list the built-in rules")
    r.add_argument("--json", action="store_true", help="one JSON array instead of a table")
    return p


def _open_input(args: argparse.Namespace) -> BinaryIO:
    if args.sample:
        return resources.files("scrubline.data").joinpath("sample_agent_output.txt").open("rb")
    if args.file in (None, "-"):
        return sys.stdin.buffer
    try:
        return open(args.file, "rb")
    except OSError as e:
        print(f"scrubline: {args.file}: {e.strerror}", file=sys.stderr)
        sys.exit(EX_NOINPUT)


def _scrub(args: argparse.Namespace) -> int:
    if args.sample and args.file:
        _parser().error("--sample and FILE exclude each other")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            scrubber = Scrubber(
                literal_env=args.literal_env,
                rules_file=args.rules,
                replacement=args.replacement,
            )
        except ScrublineError as e:
            print(f"scrubline: {e}", file=sys.stderr)
            return EX_USAGE
    for w in caught:
        print(f"scrubline: warning: {w.message}", file=sys.stderr)
    src = _open_input(args)
    out = sys.stdout.buffer
    read = getattr(src, "read1", src.read)
    feed = scrubber.feed_bytes
    try:
        while chunk := read(CHUNK):
            if data := feed(chunk):
                out.write(data)
                out.flush()
        out.write(scrubber.flush_bytes())
        out.flush()
    finally:
        if src is not sys.stdin.buffer:
            src.close()
    if args.stats:
        counts = scrubber.counts
        for rule_id in sorted(counts):
            print(f"{rule_id}\t{counts[rule_id]}", file=sys.stderr)
        print(f"total\t{sum(counts.values())}", file=sys.stderr)
    return 0


def _project(args: argparse.Namespace) -> int:
    from scrubline.foreign import Foreign
    from scrubline.render import StreamSink
    from scrubline.run import RunOptions, execute
    from scrubline.runtime import Replay
    from scrubline.scrubber import env_literals
    from scrubline.store import NoStore

    if args.schema_version not in SCHEMA_VERSIONS:
        _parser().error(
            f"unsupported --schema-version {args.schema_version}; supported: 4, 5, 6, 8"
        )
    args.sample = False
    src = _open_input(args)
    literals = env_literals(args.literal_env)
    trace: Replay | Foreign = Replay(stream=src)
    if args.from_ != "trace":
        trace = Foreign(trace, args.from_, literals)
    opts = RunOptions(
        source=trace,
        version=args.schema_version,
        literals=literals,
        prog="scrubline",
    )
    try:
        return execute(opts, NoStore(), StreamSink(sys.stdout.buffer)).exit_code
    finally:
        if src is not sys.stdin.buffer:
            src.close()


def _rules(args: argparse.Namespace) -> int:
    found = rules()
    if args.json:
        print(json.dumps([r._asdict() for r in found], indent=2))
    else:
        width = max(len(r.id) for r in found)
        for r in found:
            print(f"{r.id:<{width}}  {r.tier:<8} {r.description}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # A closed pipe (`scrubline scrub | head`) ends us quietly, like any filter.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if args.command == "scrub":
        return _scrub(args)
    if args.command == "project":
        return _project(args)
    return _rules(args)


if __name__ == "__main__":
    sys.exit(main())
