"""What the front ends share about their command lines: argparse errors become usage
errors (exit 64, one line on stderr, nothing on stdout), and the runtime source options
(``--replay``, ``--runtime-cmd``, ``--timeout``; the bundled demo when none is given;
``--from`` and ``--runtime`` for the agent CLIs of docs/agents.md)."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from typing import NoReturn

from scrubline import agent
from scrubline.agent import ModelRuntime
from scrubline.foreign import (
    EXECUTABLE,
    FOREIGN,
    FROM_CHOICES,
    AgentProcess,
    Foreign,
    agent_argv,
)
from scrubline.runtime import Child, Replay

EXIT_USAGE = 64
FORMATS = ("text", "json", "stream-json")


class UsageError(Exception):
    """A bad command line: exit 64 before anything is read or stored."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def add_source(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group()
    src.add_argument("--replay", metavar="FILE", help="a recorded runtime trace ('-' = stdin)")
    src.add_argument("--runtime-cmd", metavar="CMD", help="a runtime process writing a trace")
    src.add_argument(
        "--runtime", choices=FOREIGN, help="start this agent CLI on the task (implies --from)"
    )
    src.add_argument(
        "--model-url", metavar="URL", help="an OpenAI-compatible server (or $ITERON_MODEL_URL)"
    )
    p.add_argument("--runtime-path", metavar="PATH", help="the agent CLI's executable")
    p.add_argument(
        "--from",
        dest="from_",
        choices=FROM_CHOICES,
        default=None,
        help="the input's format: trace (default), claude-code, codex, gemini",
    )
    p.add_argument("--timeout", type=float, default=None, help="seconds for the whole run")
    model = p.add_argument_group("the built-in model runtime (docs/runtime.md)")
    model.add_argument("--api-key-env", metavar="VAR", help="the variable holding the API key")
    model.add_argument("--max-turns", type=int, default=None, help="model calls at most")
    model.add_argument("--model-read-timeout", type=float, default=None, metavar="SECONDS")


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
