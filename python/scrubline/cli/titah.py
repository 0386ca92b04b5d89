"""``titah run``: the same engine, store and boundary as ``iteron``, with the Titah result
(docs/contract.md §7: T1-T9).

    titah run [--output-format text|json|stream-json] [--json-schema FILE] [--auto]
              [--agent NAME] [--model NAME] [--replay FILE | --runtime-cmd CMD] "prompt"

stream-json is the engine's canonical event union (the redacted records), one per line,
then one ``{"type":"result",…}``; json is the result alone. Exit codes: 0 ok · 1 run
failed, retry may help · 2 output did not match the schema, change the prompt · 3
stopped at a limit · 64 usage · 65 bad input (130/143 on SIGINT/SIGTERM).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any, TextIO

import orjson

from scrubline import config, exits, schema
from scrubline.agent import ModelRuntime
from scrubline.cli.argv import (
    FORMATS,
    Parser,
    UsageError,
    add_literal_env,
    add_output_format,
    add_run_options,
    add_source,
    source,
    split_agent_args,
)
from scrubline.errors import ConfigError, StoreError
from scrubline.permissions import Permissions, allowlist
from scrubline.render import TextSink
from scrubline.run import RunOptions, execute
from scrubline.runtime import Child
from scrubline.scrubber import env_literals
from scrubline.sessions import SessionError, check_tenant
from scrubline.store import Record, home, open_store

EXAMPLES = """\
examples:
  titah run "summarize the repo"                           the bundled demo, as text
  titah run --output-format json "list the files"          one Titah result object
  titah run --json-schema shape.json --output-format json "count the tests"
  titah run --replay trace.jsonl --output-format stream-json "replay a run"

exit codes: 0 ok, 1 failed (retry may help), 2 the answer did not match --json-schema
(change the prompt), 3 stopped at a limit, 64 usage, 65 bad input,
130/143 interrupted by SIGINT/SIGTERM."""


def parser() -> Parser:
    p = Parser(
        prog="titah",
        description="Run one Titah turn with script-friendly, redacted output.",
        epilog=EXAMPLES,
    )
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    run = sub.add_parser(
        "run",
        help="run one prompt",
        description="Run one prompt; json modes end with the Titah result object.",
        epilog=EXAMPLES,
    )
    run.add_argument("prompt", nargs="?", default="", help="the task")
    add_output_format(run)
    run.add_argument(
        "--json-schema",
        default=None,
        metavar="FILE",
        help="ask for an answer of this JSON Schema and check it (exit 2 on a mismatch)",
    )
    run.add_argument(
        "--agent", default=None, metavar="NAME", help="the agent's name for the result"
    )
    add_source(run)
    add_run_options(run, "titah.toml")
    add_literal_env(run)
    return p


class Collector:
    """What the Titah result needs, gathered from the records as they are emitted."""

    def __init__(self, permissions: Permissions) -> None:
        self.permissions = permissions
        self.tools: dict[str, dict[str, Any]] = {}
        self.usage = {"input": 0, "output": 0, "context": 0}
        self.notices: list[str] = []
        self.agent: str | None = None
        self.model: str | None = None

    def see(self, records: list[Record]) -> None:
        for _seq, _turn, kind, body in records:
            if kind not in ("tool_start", "tool_end", "turn_end", "notice", "run_start"):
                continue
            ev = orjson.loads(body)
            if kind == "run_start":
                self.agent, self.model = _str(ev.get("agent")), _str(ev.get("model"))
            elif kind == "tool_start":
                self.tools[str(ev.get("call_id"))] = {
                    "tool": ev.get("tool"),
                    "title": ev.get("title"),
                    "status": "started",
                }
            elif kind == "tool_end":
                entry = self.tools.setdefault(str(ev.get("call_id")), {"tool": None, "title": None})
                entry["status"] = ev.get("status")
                if ev.get("outcome") is not None:
                    entry["outcome"] = ev["outcome"]
            elif kind == "turn_end":
                usage = ev.get("usage") or {}
                self.usage["input"] += usage.get("input") or 0
                self.usage["output"] += usage.get("output") or 0
                context = ev.get("context") or {}
                self.usage["context"] = context.get("estimated_tokens") or 0
            elif kind == "notice" and isinstance(ev.get("text"), str):
                self.notices.append(ev["text"])

    def tool_list(self) -> list[dict[str, Any]]:
        out = []
        for call_id, entry in self.tools.items():
            if call_id in self.permissions.denied:
                # It never ran here: no outcome to report, whatever a replay says.
                entry = {k: v for k, v in entry.items() if k != "outcome"} | {"status": "denied"}
            out.append(entry)
        return out


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


class TitahSink:
    def __init__(self, fmt: str, out: TextIO, collector: Collector) -> None:
        self.fmt = fmt
        self.collector = collector
        self.text = TextSink(out) if fmt == "text" else None
        self.raw = out.buffer
        self.result: bytes | None = None

    def batch(self, records: list[Record], data: list[bytes]) -> None:
        self.collector.see(records)
        if self.text is not None:
            self.text.batch(records, data)
        elif self.fmt == "stream-json" and records:
            self.raw.write(b"".join(body + b"\n" for *_, body in records))
            self.raw.flush()

    def end(self, records: list[Record], data: bytes, result: bytes) -> None:
        self.batch(records, [])
        self.result = result
        if self.text is not None:
            self.text.end([], b"", result)


def build_result(
    collector: Collector,
    engine: dict[str, Any],
    args: argparse.Namespace,
    shape: dict[str, Any] | None,
) -> tuple[dict[str, Any], int]:
    """T3: the Titah result and the exit code (T8)."""
    code = engine["exit_code"]
    ok = bool(engine["success"])
    notices = list(collector.notices)
    if engine.get("error"):
        notices.append(f"Run failed: {engine['error'].get('message')}")
    elif not ok and engine.get("reason"):
        notices.append(f"Run {engine['outcome']}: {engine['reason']}")
    result: dict[str, Any] = {
        "type": "result",
        "session": engine["run_id"],
        "ok": ok,
        "agent": args.agent or collector.agent,
        "model": args.model or collector.model,
        "text": engine["assistant_text"],
        "tools": collector.tool_list(),
        "usage": collector.usage,
        "notices": notices,
    }
    if shape is not None and ok:
        try:
            value = schema.parse_answer(engine["assistant_text"])
            schema.check(value, shape)
            result["output"] = value
        except schema.Mismatch as e:
            result["ok"] = False
            notices.append(
                f"Output does not match --json-schema at {e.path}: {e.rule}."
                " Change the prompt (retrying the same prompt will not help)."
            )
            code = exits.SCHEMA_MISMATCH
    result["notices"] = notices
    return result, code


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        return _main(argv)
    except (UsageError, ConfigError) as e:
        print(f"titah: {e}", file=sys.stderr)
        return exits.USAGE


def _main(argv: list[str] | None) -> int:
    argv, agent_args = split_agent_args(argv)
    args = parser().parse_args(argv)
    if args.command != "run":
        raise UsageError("a command is required: run")
    if args.output_format not in FORMATS:
        raise UsageError(f"--output-format must be one of {', '.join(FORMATS)}")
    shape = schema.load(args.json_schema) if args.json_schema else None
    cfg = config.load("titah", args.config)
    limit = config.turn_tokens(cfg)
    allowed = allowlist(cfg)
    prompt = args.prompt + (schema.instruction(shape) if shape is not None else "")
    literals = env_literals(args.literal_env)
    src, key = source(args, prompt, cfg, agent_args, literals)
    runtime = src if isinstance(src, Child | ModelRuntime) else None
    permissions = Permissions(args.auto, allowed, runtime)
    collector = Collector(permissions)
    sink = TitahSink(args.output_format, sys.stdout, collector)
    try:
        tenant = check_tenant(args.tenant or os.environ.get("ITERON_TENANT") or "default")
    except SessionError as e:
        print(f"titah: {e.code}: {e}", file=sys.stderr)
        return exits.BAD_INPUT
    opts = RunOptions(
        source=src,
        tenant=tenant,
        max_turn_tokens=limit,
        literals=literals + key,
        prog="titah",
        observe=permissions,
    )
    try:
        store = open_store(args.store)
    except StoreError as e:
        print(f"titah: store_unavailable: {e}", file=sys.stderr)
        if args.output_format != "text":
            failed = {"type": "result", "session": None, "ok": False, "agent": args.agent,
                      "model": args.model, "text": "", "tools": [],
                      "usage": {"input": 0, "output": 0, "context": 0},
                      "notices": [f"Run failed: {e}"]}  # fmt: skip
            sys.stdout.buffer.write(orjson.dumps(failed) + b"\n")
        return exits.FAILED
    opts.literals += [s for s in store.secrets() if len(s.encode()) >= 8]
    opts.content = store.content_store(home())
    try:
        outcome = execute(opts, store, sink)
    finally:
        store.close()
    result, code = build_result(collector, outcome.result, args, shape)
    if args.output_format == "text":
        for notice in result["notices"][len(collector.notices) :]:
            print(notice, file=sys.stderr)
    else:
        sys.stdout.buffer.write(orjson.dumps(result) + b"\n")
        sys.stdout.buffer.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
