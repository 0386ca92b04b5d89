"""``scrubline spark scrub|project``: the Spark transforms for people without a Spark
application (docs/spark.md). Parquet or JSON Lines in and out; a local Spark by default.

    scrubline spark scrub --input chunks.parquet --output clean.parquet \\
        --key run_id --seq seq --text chunk
    scrubline spark project --input events.jsonl --output published.jsonl \\
        --key run_id --seq seq --line event --output-schema-version 6
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from scrubline import exits
from scrubline.cli.argv import UsageError, add_literal_env, add_output_schema_version
from scrubline.errors import ScrublineError

FORMATS = ("parquet", "jsonl")

EXAMPLES = """\
examples:
  scrubline spark scrub --input chunks.parquet --output clean.parquet \\
      --key run_id --seq seq --text chunk
  scrubline spark project --input events.jsonl --output out.jsonl \\
      --key run_id --seq seq --line event --output-schema-version 6

The input holds many streams: rows sharing --key, ordered by --seq. Formats follow the
file names (.jsonl/.json: JSON Lines, anything else: Parquet) unless --format is given.
exit codes: 0 ok, 1 the Spark job failed, 64 usage (a missing column, no pyspark, an
existing --output without --overwrite), 66 the input does not exist."""


def add_parser(sub: argparse._SubParsersAction, parser_class: type) -> None:
    sp = sub.add_parser(
        "spark",
        help="scrub or project many streams on Apache Spark (the spark extra)",
        description="Scrub or project many streams where they are stored, on Spark.",
        epilog=EXAMPLES,
    )
    ops = sp.add_subparsers(dest="spark_command", required=True, parser_class=parser_class,
                            metavar="COMMAND")  # fmt: skip
    scrub = ops.add_parser(
        "scrub",
        help="scrub a text column, split-safely across each stream's rows",
        description="Scrub the --text column of every stream; adds a redactions column.",
        epilog=EXAMPLES,
    )
    _common(scrub)
    scrub.add_argument("--text", required=True, metavar="COLUMN", help="the text column")
    scrub.add_argument("--rules", metavar="FILE", help="TOML file of custom rules")
    project = ops.add_parser(
        "project",
        help="project trace events (one per row) to a schema version",
        description="Run each stream of trace events through the run boundary; --line "
        "becomes the row's published JSONL, the last row of a run also its result.",
        epilog=EXAMPLES,
    )
    _common(project)
    project.add_argument(
        "--line", required=True, metavar="COLUMN", help="the column of trace event lines"
    )
    add_output_schema_version(project)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input", required=True, metavar="PATH", help="Parquet or JSON Lines")
    p.add_argument("--output", required=True, metavar="PATH", help="where to write the result")
    p.add_argument("--key", required=True, metavar="COLUMN", help="the stream (run) id column")
    p.add_argument("--seq", required=True, metavar="COLUMN", help="the order within a stream")
    p.add_argument(
        "--format", choices=FORMATS, metavar="FORMAT", help="parquet or jsonl (default: by name)"
    )
    p.add_argument(
        "--master", default="local[*]", metavar="URL", help="the Spark master (local[*])"
    )
    p.add_argument("--overwrite", action="store_true", help="replace an existing --output")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Spark's progress bar on stderr (default: only when stderr is a terminal)",
    )
    add_literal_env(p)


def _format(path: str, given: str | None) -> str:
    if given:
        return given
    return "jsonl" if Path(path).suffix in (".jsonl", ".json") else "parquet"


def main(args: argparse.Namespace) -> int:
    from scrubline.progress import wanted

    if not os.path.exists(args.input):
        print(f"scrubline: {args.input}: no such file or directory", file=sys.stderr)
        return exits.NO_INPUT
    if os.path.exists(args.output) and not args.overwrite:
        raise UsageError(f"--output {args.output} exists; give --overwrite to replace it")
    try:
        from pyspark.sql import SparkSession

        from scrubline import spark
        from scrubline.fleet import REDACTIONS, RuleSet
    except ImportError as e:
        raise UsageError(f"scrubline spark needs the spark extra (pyspark, pyarrow): {e}") from None
    version = None
    if args.spark_command == "project":
        from scrubline.cli.argv import schema_version

        version = schema_version("stream-json", args.output_schema_version)
    try:
        rules = RuleSet.from_options(
            literal_env=args.literal_env, rules_file=getattr(args, "rules", None)
        )
    except ScrublineError as e:
        raise UsageError(str(e)) from None
    # Workers run this interpreter (with scrubline installed), not the system python.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master(args.master)
        .appName(f"scrubline spark {args.spark_command}")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", str(wanted(args.progress)).lower())
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    try:
        fmt_in, fmt_out = _format(args.input, args.format), _format(args.output, args.format)
        reader = session.read.parquet if fmt_in == "parquet" else session.read.json
        df = reader(args.input)
        if args.spark_command == "scrub":
            step = spark.scrub_stream(key=args.key, seq=args.seq, text=args.text, rules=rules)
        else:
            step = spark.project_stream(
                key=args.key, seq=args.seq, line=args.line, version=version, rules=rules
            )
        try:
            out = df.transform(step)
        except ScrublineError as e:
            raise UsageError(str(e)) from None
        writer = out.write.mode("overwrite" if args.overwrite else "errorifexists")
        (writer.parquet if fmt_out == "parquet" else writer.json)(args.output)
        if wanted(args.progress):
            written = (session.read.parquet if fmt_out == "parquet" else session.read.json)(
                args.output
            )
            n = written.agg({REDACTIONS: "sum"}).collect()[0][0] or 0
            print(f"scrubline spark: {n} redactions; written to {args.output}", file=sys.stderr)
    except UsageError:
        raise
    except Exception as e:  # a failed Spark job: one line, scrubbed (it may quote a row)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"scrubline spark: {rules.scrubber().scrub(first)}", file=sys.stderr)
        return exits.FAILED
    finally:
        session.stop()
    return exits.OK
