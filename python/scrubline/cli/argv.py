"""What the front ends share about their command lines: argparse errors become usage
errors (exit 64, one line on stderr, nothing on stdout), and the runtime source options
(``--replay``, ``--runtime-cmd``, ``--timeout``; the bundled demo when none is given)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

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
    p.add_argument("--timeout", type=float, default=None, help="seconds for --runtime-cmd")


def source(args: argparse.Namespace, prompt: str | None) -> Replay | Child:
    """The runtime source the options name; the bundled demo trace by default."""
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    if args.replay == "-":
        return Replay(stream=sys.stdin.buffer)
    if args.replay:
        if not os.path.isfile(args.replay):
            raise UsageError(f"--replay {args.replay}: no such file")
        return Replay(args.replay)
    if args.runtime_cmd:
        return Child(args.runtime_cmd, args.timeout, prompt)
    return Replay.demo()
