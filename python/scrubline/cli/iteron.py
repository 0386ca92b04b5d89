"""``iteron``: one-shot runs with versioned machine output, and the session operations
on what they recorded (docs/contract.md §2-6).

    iteron run [--output-format F] [--output-schema-version N] [--replay FILE |
               --runtime-cmd CMD | --model-url URL --model NAME [--auto] [--max-turns N]]
               [--resume RUN_ID | --continue] [--agent-definition-tag T]
    iteron --sessions [--session-limit N] [--session-cursor C] [--agent-definition-tag T]
    iteron --transcript RUN_ID [--transcript-cursor C] [--transcript-limit N]
    iteron --fork RUN_ID
    iteron --artifacts RUN_ID [--artifacts-cursor C] [--artifacts-limit N]
    iteron --artifact-open HASH          (the content on stdout, its hash re-verified)
    iteron --machine-contract
    iteron app-server [--max-runs N] [--eq-capacity BYTES] [--stall-timeout S]
                                         (resident runs over stdio: docs/app-server.md)

Selectors are validated before anything touches the store (O3): a bad one is exit 64,
one line on stderr, nothing on stdout. In ``json`` and ``stream-json`` stdout carries
only JSON (O6); every diagnostic goes to stderr. Session operations print one typed
object; a rejected cursor, tag or run id is a typed error object, one stderr line and
exit 65.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

import orjson

from scrubline import appserver, config, exits, sessions
from scrubline._core import DEFAULT_SCHEMA_VERSION, SCHEMA_VERSIONS, Boundary
from scrubline.agent import ModelRuntime
from scrubline.artifacts import ArtifactError, check_address
from scrubline.cli.argv import (
    RESIDENT_PROTOCOL_VERSION,
    Parser,
    UsageError,
    add_literal_env,
    add_output_format,
    add_output_schema_version,
    add_run_options,
    add_source,
    add_store,
    add_tenant,
    given,
    refuse_unused,
    schema_version,
    source,
    split_agent_args,
)
from scrubline.errors import ConfigError, StoreError
from scrubline.permissions import Permissions, allowlist
from scrubline.render import JsonSink, StreamSink, TextSink
from scrubline.run import RunOptions, execute
from scrubline.scrubber import env_literals
from scrubline.sessions import SessionError
from scrubline.store import SessionStore, home, new_run_id, open_store

EXAMPLES = """\
examples:
  iteron run --output-format stream-json                 the bundled demo, as JSONL
  iteron run --replay trace.jsonl --output-format json   one result object
  iteron run --runtime claude-code "fix the test" --output-format stream-json
  iteron --sessions --session-limit 5                    the five newest runs
  iteron --transcript RUN_ID                             a run's events, redacted

exit codes: 0 done/drained, 1 failed (retry may help), 3 stopped at a limit,
64 usage, 65 bad input (malformed trace, rejected cursor, tag or run id),
130/143 interrupted by SIGINT/SIGTERM."""

#: Each session operation (the option that selects it) and the options it takes.
OPERATIONS: dict[str, tuple[str, ...]] = {
    "sessions": ("session_limit", "session_cursor", "top_tag", "top_tenant", "top_version"),
    "transcript": ("transcript_cursor", "transcript_limit", "top_tenant", "top_version"),
    "fork": ("top_tenant", "top_version"),
    "artifacts": ("artifacts_cursor", "artifacts_limit", "top_tenant", "top_version"),
    "artifact_open": ("top_tenant",),
}
#: What every session operation takes besides its own options.
EVERY_OPERATION = ("top_store",)


def parser() -> Parser:
    p = Parser(
        prog="iteron",
        description="One-shot agent runs with redacted, versioned JSON output; the sessions "
        "they recorded.",
        epilog=EXAMPLES,
    )
    p.add_argument(
        "--machine-contract",
        action="store_true",
        help="print the supported CLI stream versions as JSON (no runtime, no store)",
    )
    ops = p.add_argument_group("session operations (one typed JSON object each, no command)")
    ops.add_argument("--sessions", action="store_true", help="list sessions, newest first")
    ops.add_argument(
        "--session-limit", default=None, metavar="N", help="sessions per page, 1-100 (20)"
    )
    ops.add_argument(
        "--session-cursor", default=None, metavar="TOKEN", help="the next_cursor of a page"
    )
    ops.add_argument("--transcript", default=None, metavar="RUN_ID", help="a run's events")
    ops.add_argument(
        "--transcript-cursor", default=None, metavar="TOKEN", help="the older_cursor of a page"
    )
    ops.add_argument(
        "--transcript-limit", default=None, metavar="N", help="events per page, 1-1000 (100)"
    )
    ops.add_argument("--fork", default=None, metavar="RUN_ID", help="a new run from this one")
    ops.add_argument("--artifacts", default=None, metavar="RUN_ID", help="a run's artifacts")
    ops.add_argument(
        "--artifacts-cursor", default=None, metavar="TOKEN", help="the next_cursor of a page"
    )
    ops.add_argument(
        "--artifacts-limit", default=None, metavar="N", help="artifacts per page, 1-1000 (100)"
    )
    ops.add_argument(
        "--artifact-open", default=None, metavar="HASH", help="write an artifact's content"
    )
    ops.add_argument(
        "--agent-definition-tag",
        dest="top_tag",
        default=None,
        metavar="TAG",
        help="list only the sessions with this tag",
    )
    add_tenant(ops, dest="top_tenant")
    add_store(ops, dest="top_store")
    add_output_schema_version(ops, dest="top_version")
    sub = p.add_subparsers(dest="command", parser_class=Parser, metavar="COMMAND")
    # Listed for --help; `iteron app-server` is dispatched before this parser runs.
    resident = sub.add_parser(
        "app-server",
        help="serve resident runs over stdio (docs/app-server.md)",
        description=appserver.DESCRIPTION,
        epilog=appserver.EXAMPLES,
    )
    appserver.add_options(resident)
    run = sub.add_parser(
        "run",
        help="run one task and write its output",
        description="Run one task; its redacted events go to stdout and to the session store.",
        epilog=EXAMPLES,
    )
    run.add_argument("prompt", nargs="?", default=None, help="the task (passed to the runtime)")
    add_output_format(run)
    add_output_schema_version(run)
    add_source(run)
    add_run_options(run, "iteron.toml")
    run.add_argument(
        "--max-turn-tokens", type=int, default=None, metavar="N", help="limits.turnTokens"
    )
    again = run.add_mutually_exclusive_group()
    again.add_argument("--resume", default=None, metavar="RUN_ID", help="append to this run")
    again.add_argument(
        "--continue", dest="cont", action="store_true", help="append to the latest run"
    )
    run.add_argument(
        "--agent-definition-tag",
        default=None,
        metavar="TAG",
        help="record this tag with a new run (a resume may only repeat it)",
    )
    run.add_argument(
        "--scrub-artifacts",
        action="store_true",
        help="scrub artifact content before hashing and storing it (default: as produced)",
    )
    add_literal_env(run)
    return p


def machine_contract() -> dict:
    return {
        "type": "machine_contract",
        "cli_stream_versions": list(SCHEMA_VERSIONS),
        "default_cli_stream_version": DEFAULT_SCHEMA_VERSION,
        "resident_protocol_version": RESIDENT_PROTOCOL_VERSION,
    }


class Unavailable(Exception):
    """The store cannot be opened, or another process writes the run (exit 1: a retry
    may help)."""

    def __init__(
        self,
        err: Exception,
        version: int,
        machine: bool,
        run: bool,
        code: str = "store_unavailable",
        reason: str = "the session store cannot be opened",
    ) -> None:
        super().__init__(str(err))
        self.version, self.machine, self.run = version, machine, run
        self.code, self.reason = code, reason


def connect(location: str | None, version: int, machine: bool, run: bool) -> SessionStore:
    try:
        return open_store(location, home())
    except StoreError as e:
        raise Unavailable(e, version, machine, run) from None


class Rejected(Exception):
    """Bad input data (exit 65): reported as a typed error object in machine formats."""

    def __init__(self, err: SessionError, version: int, machine: bool) -> None:
        super().__init__(str(err))
        self.err, self.version, self.machine = err, version, machine


def main(argv: list[str] | None = None) -> int:
    # A closed pipe (`iteron run | head`) ends us quietly, like any filter; every line
    # already written was durable first.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        return _main(argv)
    except (UsageError, ConfigError) as e:
        print(f"iteron: {e}", file=sys.stderr)
        return exits.USAGE
    except Rejected as e:
        if e.machine:
            obj = sessions.error_object(e.err.code, str(e.err), e.version)
            sys.stdout.buffer.write(orjson.dumps(obj) + b"\n")
        print(f"iteron: {e.err.code}: {e.err}", file=sys.stderr)
        return exits.BAD_INPUT
    except Unavailable as e:
        # No rollout can be opened: the run fails (retry may help), and the machine
        # formats still end with their one terminal object (O6).
        if e.run:
            b = Boundary(version=e.version, run_id=new_run_id())
            _, _, result = b.finish(
                outcome="failed",
                reason=e.reason,
                error=(e.code, str(e), None),
                failed_runs=0,
            )
            if e.machine:
                sys.stdout.buffer.write(result + b"\n")
        else:
            obj = sessions.error_object(e.code, str(e), e.version)
            sys.stdout.buffer.write(orjson.dumps(obj) + b"\n")
        print(f"iteron: {e.code}: {e}", file=sys.stderr)
        return exits.FAILED


def bounded(raw: str | None, name: str, bounds: tuple[int, int, int]) -> int:
    low, high, default = bounds
    if raw is None:
        return default
    try:
        n = int(raw, 10)
    except ValueError:
        raise UsageError(f"{name} must be a number, not {raw!r}") from None
    if not low <= n <= high:
        raise UsageError(f"{name} must be between {low} and {high}, not {n}")
    return n


def tenant_of(explicit: str | None, version: int, machine: bool) -> str:
    tenant = explicit or os.environ.get("ITERON_TENANT") or "default"
    try:
        return sessions.check_tenant(tenant)
    except SessionError as e:
        raise Rejected(e, version, machine) from None


def session_op(args: argparse.Namespace, options: dict[str, str]) -> int:
    """--sessions, --transcript, --fork, --artifacts, --artifact-open: exactly one, with
    only the options it takes; one typed object on stdout."""
    chosen = [op for op in OPERATIONS if op in options]
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(options[op] for op in chosen)} exclude each other")
    op = chosen[0]
    takes = OPERATIONS[op] + EVERY_OPERATION
    refuse_unused({d: n for d, n in options.items() if d != op}, takes, options[op])
    version = schema_version("json", args.top_version)
    limit = bounded(args.session_limit, "--session-limit", sessions.SESSION_LIMIT)
    tlimit = bounded(args.transcript_limit, "--transcript-limit", sessions.TRANSCRIPT_LIMIT)
    alimit = bounded(args.artifacts_limit, "--artifacts-limit", sessions.TRANSCRIPT_LIMIT)
    tenant = tenant_of(args.top_tenant, version, True)
    root = home()
    store = connect(args.top_store, version, True, run=False)
    try:
        if args.sessions:
            tag = None if args.top_tag is None else sessions.check_tag(args.top_tag)
            obj = sessions.list_page(
                store, tenant, version=version, limit=limit,
                cursor=args.session_cursor, tag=tag,
            )  # fmt: skip
        elif args.transcript:
            obj = sessions.transcript_page(
                store, tenant, args.transcript, version=version, limit=tlimit,
                cursor=args.transcript_cursor,
            )  # fmt: skip
        elif args.artifacts:
            obj = sessions.artifact_page(
                store, tenant, args.artifacts, version=version, limit=alimit,
                cursor=args.artifacts_cursor,
            )  # fmt: skip
        elif args.artifact_open:
            return open_artifact(store, root, tenant, args.artifact_open)
        else:
            obj = sessions.fork(store, tenant, args.fork, version=version)
    except SessionError as e:
        raise Rejected(e, version, True) from None
    except StoreError as e:
        raise Unavailable(e, version, True, run=False) from None
    finally:
        store.close()
    sys.stdout.buffer.write(orjson.dumps(obj) + b"\n")
    return 0


def _main(argv: list[str] | None) -> int:
    argv, agent_args = split_agent_args(argv)
    if argv[:1] == ["app-server"] and not agent_args:
        return appserver.main(argv[1:])  # the resident face
    p = parser()
    args = p.parse_args(argv)
    top = given(p, args)
    if args.machine_contract:
        refuse_unused(top, ("machine_contract",), "--machine-contract")
        if args.command:
            raise UsageError("--machine-contract takes no command")
        sys.stdout.buffer.write(orjson.dumps(machine_contract()) + b"\n")
        return 0
    if args.command is None:
        if not any(op in top for op in OPERATIONS):
            raise UsageError(
                "a command is required: run, or one of --sessions, --transcript, --fork,"
                " --artifacts, --artifact-open, --machine-contract"
            )
        return session_op(args, top)
    # `run` takes its own options; the session operations' go before no command.
    refuse_unused(top, (), "`iteron run` (session options go before no command)")
    version = schema_version(args.output_format, args.output_schema_version)
    machine = args.output_format != "text"
    cfg = config.load("iteron", args.config)
    limit = args.max_turn_tokens if args.max_turn_tokens is not None else config.turn_tokens(cfg)
    if limit is not None and limit < 1:
        raise UsageError("--max-turn-tokens must be a positive integer")
    literals = env_literals(args.literal_env)
    src, key = source(args, args.prompt, cfg, agent_args, literals)
    tenant = tenant_of(args.tenant, version, machine)
    tag = args.agent_definition_tag
    if tag is not None:
        try:
            sessions.check_tag(tag)
        except SessionError as e:
            raise Rejected(e, version, machine) from None
    opts = RunOptions(
        source=src,
        version=version,
        tenant=tenant,
        tag=tag,
        max_turn_tokens=limit,
        literals=literals + key,
        scrub_artifacts=args.scrub_artifacts,
    )
    if isinstance(src, ModelRuntime):
        # The built-in runtime asks before a tool that needs a dialog (T9).
        opts.observe = Permissions(args.auto, allowlist(cfg), src)
    out = sys.stdout.buffer
    if args.output_format == "stream-json":
        sink = StreamSink(out)
    elif args.output_format == "json":
        sink = JsonSink(out)
    else:
        sink = TextSink(sys.stdout)
    store = connect(args.store, version, machine, run=True)
    # The store's connection string is a secret of the run: redacted wherever it shows.
    opts.literals += [s for s in store.secrets() if len(s.encode()) >= 8]
    opts.content = store.content_store(home())
    try:
        if args.resume or args.cont:
            try:
                opts.resume = resumable(store, tenant, args.resume, tag)
            except SessionError as e:
                raise Rejected(e, version, machine) from None
            except StoreError as e:
                raise Unavailable(e, version, machine, run=True) from None
        return execute(opts, store, sink).exit_code
    finally:
        store.close()


def open_artifact(store: SessionStore, root, tenant: str, hash_: str) -> int:
    """A5: the content on stdout after re-verifying its address; nothing on stdout when
    it is unknown to the tenant or does not verify (exit 65, one stderr line)."""
    content = store.content_store(root)
    try:
        check_address(hash_)
    except ArtifactError as e:
        raise UsageError(str(e)) from None
    if not store.tenant_has_artifact(tenant, hash_):
        print(f"iteron: not_found: artifact {hash_!r} not found", file=sys.stderr)
        return exits.BAD_INPUT
    try:
        data = content.verify(hash_)
    except ArtifactError as e:
        print(f"iteron: artifact_{e.code}: {e}", file=sys.stderr)
        return exits.BAD_INPUT
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0


def resumable(store: SessionStore, tenant: str, run_id: str | None, tag: str | None) -> str:
    """The run ``--resume RUN_ID`` / ``--continue`` appends to; a tag may only repeat the
    recorded one (S5)."""
    row = store.latest_run(tenant) if run_id is None else store.run(run_id, tenant)
    if row is None:
        if run_id is None:
            raise SessionError("not_found", "no run to continue for this tenant")
        raise sessions.not_found(run_id)
    if tag is not None and tag != row["agent_definition_tag"]:
        raise SessionError(
            "tag_mismatch",
            "--agent-definition-tag differs from the tag the run was created with",
        )
    return row["run_id"]


if __name__ == "__main__":
    sys.exit(main())
