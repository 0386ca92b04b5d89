"""What the front ends share about their command lines: argparse errors become usage
errors (exit 64, one line on stderr, nothing on stdout), and the runtime source options
(``--replay``, ``--runtime-cmd``, ``--timeout``; the bundled demo when none is given)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from scrubline import agent
from scrubline.agent import ModelRuntime
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
        "--model-url", metavar="URL", help="an OpenAI-compatible server (or $ITERON_MODEL_URL)"
    )
    p.add_argument("--timeout", type=float, default=None, help="seconds for the whole run")
    model = p.add_argument_group("the built-in model runtime (docs/runtime.md)")
    model.add_argument("--api-key-env", metavar="VAR", help="the variable holding the API key")
    model.add_argument("--max-turns", type=int, default=None, help="model calls at most")
    model.add_argument("--model-read-timeout", type=float, default=None, metavar="SECONDS")


def source(
    args: argparse.Namespace, prompt: str | None, cfg: dict | None = None
) -> tuple[Replay | Child | ModelRuntime, list[str]]:
    """The runtime source the options name, and the literal secrets it adds to the run;
    the bundled demo trace by default."""
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    url = args.model_url
    if url is None and not (args.replay or args.runtime_cmd):
        url = os.environ.get("ITERON_MODEL_URL") or None
    if url is not None:
        return agent.from_options(
            url=url, model=args.model or os.environ.get("ITERON_MODEL"), prompt=prompt or "",
            api_key_env=args.api_key_env, read_timeout=args.model_read_timeout,
            max_turns=args.max_turns, timeout=args.timeout, config=cfg or {},
        )  # fmt: skip
    if args.api_key_env or args.max_turns is not None or args.model_read_timeout is not None:
        raise UsageError("--api-key-env, --max-turns, --model-read-timeout go with --model-url")
    return _trace_source(args, prompt), []


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
