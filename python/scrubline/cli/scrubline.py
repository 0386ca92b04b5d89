"""``scrubline``: the engine as a Unix filter (docs/contract.md §8, D6).

    scrubline scrub [FILE] [--literal-env VAR]... [--rules FILE] [--stats] [--sample]
    scrubline project [FILE] [--output-schema-version N] [--literal-env VAR]... [--from F]
    scrubline rules [--families] [--json]
    scrubline spark scrub|project --input PATH --output PATH --key COL --seq COL …

``scrub`` streams FILE (or stdin) to stdout in bounded memory: it reads whatever is
available (at most 64 KiB at a time), writes what is safe at once, and flushes at the
end. ``project`` runs a runtime trace (JSONL) through the run boundary: redacted,
projected onto the selected schema version, ending with the result; no store. Both show
a progress line on stderr when it is a terminal (``--progress``/``--no-progress``).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import warnings
from importlib import resources
from typing import BinaryIO

from scrubline import exits
from scrubline.cli import spark as spark_cli
from scrubline.cli.argv import (
    Parser,
    UsageError,
    add_literal_env,
    add_output_schema_version,
    schema_version,
)
from scrubline.errors import ScrublineError
from scrubline.foreign import FROM_CHOICES
from scrubline.progress import Progress, wanted
from scrubline.scrubber import DEFAULT_REPLACEMENT, Scrubber, families, rules

CHUNK = 64 * 1024

EXAMPLES = """\
examples:
  scrubline scrub --sample                       the bundled sample, redacted
  make test 2>&1 | scrubline scrub > ci.log      a CI log without credentials
  scrubline scrub --literal-env DB_PASSWORD --stats < out.txt
  scrubline project trace.jsonl --output-schema-version 6
  claude -p "..." --output-format stream-json | scrubline project --from claude-code

exit codes: 0 ok, 64 usage or configuration error, 65 bad trace line (project),
66 input file missing; otherwise project exits with the result's exit code."""


class ExitNow(Exception):
    """Stop with this exit code; the reason is already on stderr."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _add_input(p: argparse.ArgumentParser, what: str, replay: bool = False) -> None:
    p.add_argument("file", nargs="?", metavar="FILE", help=f"{what} (default: stdin)")
    if replay:
        p.add_argument("--replay", metavar="FILE", help="the same as FILE (as in iteron, titah)")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress line on stderr (default: only when stderr is a terminal)",
    )


def _parser() -> Parser:
    p = Parser(
        prog="scrubline",
        description="Streaming credential scrubber and JSONL projection for agent output.",
        epilog=EXAMPLES,
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")
    s = sub.add_parser(
        "scrub",
        help="scrub FILE (or stdin) to stdout",
        description="Scrub text to stdout in bounded memory; credentials become "
        "[REDACTED:rule-id].",
        epilog=EXAMPLES,
    )
    _add_input(s, "the text to scrub")
    s.add_argument(
        "--sample",
        action="store_true",
        help="scrub the bundled sample of agent output instead of FILE/stdin",
    )
    add_literal_env(s)
    s.add_argument("--rules", metavar="FILE", help="TOML file of custom rules")
    s.add_argument(
        "--replacement",
        default=DEFAULT_REPLACEMENT,
        metavar="TEMPLATE",
        help="replacement template; {rule} is the rule ID (default: %(default)s)",
    )
    s.add_argument("--stats", action="store_true", help="print redactions per rule on stderr")
    pj = sub.add_parser(
        "project",
        help="project a runtime trace (FILE or stdin) to stdout",
        description="Run a runtime trace through the output boundary: redacted JSONL in "
        "the selected schema version, ending with the result. Nothing is stored.",
        epilog=EXAMPLES,
    )
    _add_input(pj, "the runtime trace", replay=True)
    add_output_schema_version(pj, "--schema-version")
    add_literal_env(pj)
    pj.add_argument(
        "--from",
        dest="from_",
        choices=FROM_CHOICES,
        default="trace",
        metavar="FORMAT",
        help=f"the input's format: {', '.join(FROM_CHOICES)} (default trace; docs/agents.md)",
    )
    spark_cli.add_parser(sub, Parser)
    r = sub.add_parser(
        "rules",
        help="list the built-in rules",
        description="List the built-in rules: ID, tier, family and what each one finds;"
        " or, with --families, each family: its tiers, its rules and where its format is"
        " documented.",
        epilog=EXAMPLES,
    )
    r.add_argument(
        "--families", action="store_true", help="a line per family instead of a line per rule"
    )
    r.add_argument("--json", action="store_true", help="one JSON array instead of a table")
    return p


def _open_input(args: argparse.Namespace) -> BinaryIO:
    if getattr(args, "replay", None) is not None:
        if args.file is not None:
            raise UsageError("FILE and --replay FILE are the same input: give one")
        args.file = args.replay
    if getattr(args, "sample", False):
        if args.file:
            raise UsageError("--sample and FILE exclude each other")
        return resources.files("scrubline.data").joinpath("sample_agent_output.txt").open("rb")
    if args.file in (None, "-"):
        return sys.stdin.buffer
    try:
        return open(args.file, "rb")
    except OSError as e:
        print(f"scrubline: {args.file}: {e.strerror}", file=sys.stderr)
        raise ExitNow(exits.NO_INPUT) from None


def _scrub(args: argparse.Namespace) -> int:
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
            return exits.USAGE
    for w in caught:
        print(f"scrubline: warning: {w.message}", file=sys.stderr)
    src = _open_input(args)
    out = sys.stdout.buffer
    read = getattr(src, "read1", src.read)
    feed = scrubber.feed_bytes
    progress = Progress("scrub", lambda: scrubber.redactions) if wanted(args.progress) else None
    try:
        while chunk := read(CHUNK):
            if data := feed(chunk):
                out.write(data)
                out.flush()
            if progress is not None:
                progress.update(len(chunk))
        out.write(scrubber.flush_bytes())
        out.flush()
    finally:
        if progress is not None:
            progress.close()
        if src is not sys.stdin.buffer:
            src.close()
    if args.stats:
        counts = scrubber.counts
        for rule_id in sorted(counts):
            print(f"{rule_id}\t{counts[rule_id]}", file=sys.stderr)
        print(f"total\t{sum(counts.values())}", file=sys.stderr)
    return exits.OK


def _project(args: argparse.Namespace) -> int:
    from scrubline.foreign import Foreign
    from scrubline.render import StreamSink
    from scrubline.run import RunOptions, execute
    from scrubline.runtime import Replay
    from scrubline.scrubber import env_literals
    from scrubline.store import NoStore

    version = schema_version("stream-json", args.output_schema_version)
    src = _open_input(args)
    literals = env_literals(args.literal_env)
    trace: Replay | Foreign = Replay(stream=src)
    if args.from_ != "trace":
        trace = Foreign(trace, args.from_, literals)
    opts = RunOptions(source=trace, version=version, literals=literals, prog="scrubline")
    progress = None
    if wanted(args.progress):
        boundary = []  # the run's, once it has admitted something

        def observe(b, records):  # counts what the boundary admitted (redacted bytes)
            boundary[:] = [b]
            progress.update(sum(len(r[3]) for r in records))

        progress = Progress("project", lambda: boundary[0].redactions if boundary else 0)
        opts.observe = observe
    try:
        return execute(opts, NoStore(), StreamSink(sys.stdout.buffer)).exit_code
    finally:
        if progress is not None:
            progress.close()
        if src is not sys.stdin.buffer:
            src.close()


def _rules(args: argparse.Namespace) -> int:
    if args.families:
        fams = families()
        if args.json:
            print(json.dumps([f._asdict() for f in fams], indent=2))
            return exits.OK
        width = max(len(f.name) for f in fams)
        for f in fams:
            print(f"{f.name:<{width}}  {','.join(f.tiers):<13} {' '.join(f.rules)}")
        return exits.OK
    found = rules()
    if args.json:
        print(json.dumps([r._asdict() for r in found], indent=2))
        return exits.OK
    width = max(len(r.id) for r in found)
    family = max(len(r.family) for r in found)
    for r in found:
        print(f"{r.id:<{width}}  {r.tier:<8} {r.family or '-':<{family}}  {r.description}")
    return exits.OK


def main(argv: list[str] | None = None) -> int:
    # A closed pipe (`scrubline scrub | head`) ends us quietly, like any filter.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        args = _parser().parse_args(argv)
        if args.command == "scrub":
            return _scrub(args)
        if args.command == "project":
            return _project(args)
        if args.command == "spark":
            return spark_cli.main(args)
        return _rules(args)
    except UsageError as e:
        print(f"scrubline: {e}", file=sys.stderr)
        return exits.USAGE
    except ExitNow as e:
        return e.code


if __name__ == "__main__":
    sys.exit(main())
