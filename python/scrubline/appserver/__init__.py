"""The resident face of ``iteron``: ``iteron app-server`` serves many runs to one client
over JSON-RPC lines on stdio, with the v7 event stream and exact submission receipts
(docs/app-server.md). ``protocol`` defines the messages, ``framing`` reads request lines,
``gate`` owns a run's receipts, ``server`` the connection and its runs.
"""

from __future__ import annotations

import argparse
import signal
import sys

from scrubline import config
from scrubline.cli.argv import Parser
from scrubline.errors import UsageError

EXAMPLES = """\
examples:
  iteron app-server                          one client on stdin/stdout
  iteron app-server --max-runs 4 --stall-timeout 10

The protocol (JSON-RPC lines; bootstrap first, protocol version 7): docs/app-server.md.

exit codes: 0 the client left or asked for shutdown (every run has its result stored),
64 usage, 130/143 SIGINT/SIGTERM (every run was cancelled with its result)."""


DESCRIPTION = (
    "Serve resident runs to one client over stdio: requests in, the runs' v7 events and"
    " results out."
)


def add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-runs", type=int, default=8, metavar="N", help="runs at once (8)")
    p.add_argument(
        "--eq-capacity",
        type=int,
        default=4 << 20,
        metavar="BYTES",
        help="bytes the outbox of events and answers holds (4 MiB)",
    )
    p.add_argument(
        "--stall-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a run waits for a client that does not read, then it is cancelled (30)",
    )
    p.add_argument("--config", default=None, metavar="FILE", help="TOML config (./iteron.toml)")


def parser() -> Parser:
    p = Parser(prog="iteron app-server", description=DESCRIPTION, epilog=EXAMPLES)
    add_options(p)
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if not 1 <= args.max_runs <= 256:
        raise UsageError("--max-runs must be between 1 and 256")
    if args.eq_capacity < 1024:
        raise UsageError("--eq-capacity must be at least 1024 bytes")
    if not args.stall_timeout > 0:
        raise UsageError("--stall-timeout must be a positive number of seconds")
    from scrubline.appserver.server import Server  # pydantic only for the server

    server = Server(
        max_runs=args.max_runs,
        capacity=args.eq_capacity,
        stall_timeout=args.stall_timeout,
        cfg=config.load("iteron", args.config),
    )

    def on_signal(signum: int, _frame: object) -> None:
        server.signum = signum

    # A client that vanishes is an EPIPE to handle, not a signal that kills us.
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for s in (signal.SIGTERM, signal.SIGINT):
        signal.signal(s, on_signal)
    return server.serve(sys.stdin.fileno(), sys.stdout.fileno())
