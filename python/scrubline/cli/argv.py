"""What the three front ends share about their command lines: one parser class whose
errors are usage errors (exit 64, one line on stderr, nothing on stdout), the options
they have in common under one name each (the runtime source, ``--output-format``,
``--output-schema-version``, ``--literal-env``), and the check that refuses an option
given to an operation it does not apply to."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Iterable
from typing import NoReturn

from scrubline import agent, exits
from scrubline._core import DEFAULT_SCHEMA_VERSION, RESIDENT_PROTOCOL_VERSION, SCHEMA_VERSIONS
from scrubline.agent import ModelRuntime
from scrubline.errors import UsageError
from scrubline.foreign import (
    EXECUTABLE,
    FOREIGN,
    FROM_CHOICES,
    AgentProcess,
    Foreign,
    agent_argv,
)
from scrubline.runtime import Child, Replay

EXIT_USAGE = exits.USAGE
FORMATS = ("text", "json", "stream-json")
SUPPORTED = ", ".join(map(str, SCHEMA_VERSIONS))

__all__ = ["RESIDENT_PROTOCOL_VERSION", "UsageError"]


class Parser(argparse.ArgumentParser):
    """argparse with usage errors raised (the front end prints one line and exits 64),
    no abbreviated options (``--api-key`` must never be taken for ``--api-key-env``),
    and help that keeps the examples' line breaks."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def add_output_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--output-format",
        default="text",
        metavar="FORMAT",
        help="text (default, for people), json (one result object) or stream-json (JSONL)",
    )


def add_output_schema_version(p: argparse.ArgumentParser, *aliases: str, **kw) -> None:
    p.add_argument(
        "--output-schema-version",
        *aliases,
        default=None,
        metavar="N",
        help=f"the published JSON shape: {SUPPORTED} (default {DEFAULT_SCHEMA_VERSION})",
        **kw,
    )


def add_literal_env(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--literal-env",
        action="append",
        default=[],
        metavar="VAR",
        help="also redact the value of environment variable VAR (repeatable)",
    )


def add_run_options(p: argparse.ArgumentParser, config_file: str) -> None:
    """What every run takes besides its source: approvals, config, tenant."""
    p.add_argument("--auto", action="store_true", help="approve tools that need a dialog")
    p.add_argument(
        "--config", default=None, metavar="FILE", help=f"TOML config (default ./{config_file})"
    )
    add_tenant(p)
    add_store(p)


def add_store(p: argparse.ArgumentParser, **kw) -> None:
    p.add_argument(
        "--store",
        default=None,
        metavar="URL",
        help="the session store: postgresql://… or sqlite:///PATH (default $ITERON_STORE,"
        " else the SQLite file under ITERON_HOME); prefer $ITERON_STORE for a URL with a"
        " password",
        **kw,
    )


def add_tenant(p: argparse.ArgumentParser, **kw) -> None:
    p.add_argument(
        "--tenant",
        default=None,
        metavar="TENANT",
        help="the tenant (default $ITERON_TENANT, else 'default')",
        **kw,
    )


def schema_version(fmt: str, raw: str | None) -> int:
    """O2/O3: the version to project onto; ``UsageError`` for anything unsupported."""
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
            f" supported: {SUPPORTED}"
        )
    if v not in SCHEMA_VERSIONS:
        raise UsageError(f"unsupported --output-schema-version {v}; supported: {SUPPORTED}")
    return v


def given(p: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    """The options set on the command line (their value differs from the default), by
    destination, each with the option string a user typed for it."""
    found = {}
    for action in p._actions:
        if not action.option_strings or action.dest == "help":
            continue
        if getattr(args, action.dest, action.default) != action.default:
            found[action.dest] = action.option_strings[0]
    return found


def refuse_unused(options: dict[str, str], allowed: Iterable[str], what: str) -> None:
    """``UsageError`` naming the first option in ``options`` that ``what`` does not take:
    an option that does not apply is refused, never silently ignored."""
    allowed = set(allowed)
    extra = [name for dest, name in options.items() if dest not in allowed]
    if extra:
        raise UsageError(f"{', '.join(extra)} does not apply to {what}")


def add_source(p: argparse.ArgumentParser) -> None:
    """Where a run's events come from: one of --replay, --runtime-cmd, --runtime,
    --model-url (the bundled demo trace when none is given)."""
    src = p.add_argument_group("runtime source (default: the bundled demo trace)")
    one = src.add_mutually_exclusive_group()
    one.add_argument("--replay", metavar="FILE", help="read a recorded trace ('-' = stdin)")
    one.add_argument(
        "--runtime-cmd", metavar="CMD", help="start CMD and read the trace it writes on stdout"
    )
    one.add_argument(
        "--runtime",
        choices=FOREIGN,
        metavar="AGENT",
        help=f"start this agent CLI on the task ({', '.join(FOREIGN)}; implies --from)",
    )
    one.add_argument(
        "--model-url",
        metavar="URL",
        help="run the built-in agent on an OpenAI-compatible server (or $ITERON_MODEL_URL)",
    )
    src.add_argument(
        "--runtime-path", metavar="PATH", help="the agent CLI's executable (with --runtime)"
    )
    src.add_argument(
        "--from",
        dest="from_",
        choices=FROM_CHOICES,
        default=None,
        metavar="FORMAT",
        help=f"the input's format: {', '.join(FROM_CHOICES)} (default trace; docs/agents.md)",
    )
    src.add_argument(
        "--timeout", type=float, default=None, metavar="SECONDS", help="limit the whole run"
    )
    model = p.add_argument_group("the built-in model runtime (with --model-url, docs/runtime.md)")
    model.add_argument(
        "--model", default=None, metavar="NAME", help="the model's name (or $ITERON_MODEL)"
    )
    model.add_argument("--api-key-env", metavar="VAR", help="the variable holding the API key")
    model.add_argument(
        "--max-turns", type=int, default=None, metavar="N", help="call the model at most N times"
    )
    model.add_argument(
        "--model-read-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give up on a response that sends nothing for this long",
    )


def split_agent_args(argv: list[str] | None) -> tuple[list[str], list[str]]:
    """The command line before ``--``, and what follows it (for the agent CLI, unchanged)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []


def source(
    args: argparse.Namespace,
    prompt: str | None,
    cfg: dict | None = None,
    agent_args: list[str] = (),  # type: ignore[assignment]
    literals: list[str] = (),  # type: ignore[assignment]
) -> tuple[Replay | Child | Foreign | ModelRuntime, list[str]]:
    """The runtime source the options name, and the literal secrets it adds to the run;
    the bundled demo trace by default. A foreign format (``--from``, or ``--runtime``) is
    read through its translator; ``--model-url`` starts the built-in model runtime."""
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    url = args.model_url
    if url is None and not (args.replay or args.runtime_cmd or args.runtime):
        url = os.environ.get("ITERON_MODEL_URL") or None
    if url is not None:
        if args.from_ and args.from_ != "trace":
            raise UsageError("--from applies to --replay, stdin and --runtime-cmd, not --model-url")
        return agent.from_options(
            url=url, model=args.model or os.environ.get("ITERON_MODEL"), prompt=prompt or "",
            api_key_env=args.api_key_env, read_timeout=args.model_read_timeout,
            max_turns=args.max_turns, timeout=args.timeout, config=cfg or {},
        )  # fmt: skip
    if args.api_key_env or args.max_turns is not None or args.model_read_timeout is not None:
        raise UsageError("--api-key-env, --max-turns, --model-read-timeout go with --model-url")
    tool = args.from_ or args.runtime or "trace"
    if args.runtime and tool != args.runtime:
        raise UsageError(f"--runtime {args.runtime} writes {args.runtime}, not --from {tool}")
    if agent_args and not args.runtime:
        raise UsageError("arguments after -- go to the agent CLI: they need --runtime")
    if args.runtime_path and not args.runtime:
        raise UsageError("--runtime-path needs --runtime")
    if args.runtime:
        exe = args.runtime_path or shutil.which(EXECUTABLE[tool]) or EXECUTABLE[tool]
        argv = agent_argv(tool, exe, prompt or "", list(agent_args))
        proc = AgentProcess(argv, args.timeout, list(literals))
        return Foreign(proc, tool, list(literals)), []
    base = _trace_source(args, prompt)
    if tool == "trace":
        return base, []
    if isinstance(base, Child):  # a foreign runtime speaks no submission protocol
        base = AgentProcess(shlex.split(base.cmd), args.timeout, list(literals), base.cmd)
    return Foreign(base, tool, list(literals)), []


def _trace_source(args: argparse.Namespace, prompt: str | None) -> Replay | Child:
    if args.replay == "-":
        return Replay(stream=sys.stdin.buffer)
    if args.replay:
        if not os.path.isfile(args.replay):
            raise UsageError(f"--replay {args.replay}: no such file")
        return Replay(args.replay)
    if args.runtime_cmd:
        return Child(args.runtime_cmd, args.timeout, prompt)
    return Replay.demo()
