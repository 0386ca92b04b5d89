"""The resident face of ``iteron``: ``iteron app-server`` serves many runs to one client
over JSON-RPC lines on stdio, with the v7 event stream and exact submission receipts
(docs/app-server.md). ``protocol`` defines the messages, ``framing`` reads request lines,
``gate`` owns a run's receipts, ``server`` the connection and its runs.
"""

from __future__ import annotations

import signal
import sys

from scrubline import config
from scrubline.cli.argv import Parser
from scrubline.errors import UsageError


def parser() -> Parser:
    p = Parser(prog="iteron app-server", description="Serve resident runs on stdio (v7).")
    p.add_argument("--max-runs", type=int, default=8, help="runs at once (8)")
    p.add_argument(
        "--eq-capacity", type=int, default=4 << 20, help="bytes the outbox holds (4 MiB)"
    )
    p.add_argument(
        "--stall-timeout",
        type=float,
        default=30.0,
        help="seconds a run waits for a client that does not read before it is cancelled",
    )
    p.add_argument("--config", default=None, help="TOML config (default ./iteron.toml)")
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
