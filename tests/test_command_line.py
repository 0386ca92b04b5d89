"""What the three commands share: one exit-code table (R6) from the core, one spelling of
each common option, help that reads well, options refused where they do not apply, the
progress line of the filters, and one exception hierarchy."""

from __future__ import annotations

import argparse
import fcntl
import importlib
import inspect
import os
import pkgutil
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import scrubline
from scrubline import _core, exits
from scrubline.cli import iteron, titah
from scrubline.cli import scrubline as scrubline_cli
from scrubline.errors import ScrublineError

GHP = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
PARSERS = {"iteron": iteron.parser, "titah": titah.parser, "scrubline": scrubline_cli._parser}
MAINS = {"iteron": iteron.main, "titah": titah.main, "scrubline": scrubline_cli.main}


@pytest.fixture(autouse=True)
def keep_sigpipe():
    """The commands' main() restores SIGPIPE's default (a filter dies quietly on a closed
    pipe); called in process here, that would make a later broken pipe kill pytest."""
    before = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, before)


def parsers(name: str):
    """The command's parser and every subcommand's parser at any depth, with names."""
    found = []

    def walk(where: str, p: argparse.ArgumentParser) -> None:
        found.append((where, p))
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    walk(f"{where} {sub}", child)

    walk(name, PARSERS[name]())
    return found


def test_exit_codes_are_the_documented_table():
    assert _core.EXIT_CODES == {
        "ok": 0, "failed": 1, "schema_mismatch": 2, "limit": 3, "usage": 64,
        "bad_input": 65, "no_input": 66, "interrupted": 130, "terminated": 143,
    }  # fmt: skip
    assert (exits.OK, exits.FAILED, exits.SCHEMA_MISMATCH, exits.LIMIT) == (0, 1, 2, 3)
    assert (exits.USAGE, exits.BAD_INPUT, exits.NO_INPUT) == (64, 65, 66)


def test_core_constants_are_not_restated():
    from scrubline import scrubber

    assert scrubber.DEFAULT_REPLACEMENT == _core.DEFAULT_REPLACEMENT == "[REDACTED:{rule}]"
    assert scrubber.MIN_LITERAL_LEN == _core.MIN_LITERAL_LEN == 8
    assert _core.MAX_LINE == 8 << 20


@pytest.mark.parametrize(("where", "parser"), [p for n in PARSERS for p in parsers(n)])
def test_help_names_every_option_in_the_domain(where, parser):
    """Every option has a one-line description; no metavar is an internal name."""
    for action in parser._actions:
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        assert action.help and "\n" not in action.help, (where, action.option_strings)
        if action.nargs != 0:  # takes a value: its name is chosen, not derived from a dest
            assert action.metavar is not None, (where, action.option_strings)
    text = parser.format_help()
    assert "TOP_" not in text and "FROM_" not in text, where
    assert "examples:" in text, where


@pytest.mark.parametrize("name", list(PARSERS))
def test_shared_options_are_spelled_once(name):
    """--literal-env on every command that redacts, --output-schema-version wherever a
    version is chosen, the runtime source under one set of names."""
    seen = {s for _, p in parsers(name) for a in p._actions for s in a.option_strings}
    assert "--literal-env" in seen
    if name != "titah":
        assert "--output-schema-version" in seen
    assert "--replay" in seen


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--artifacts-limit", "5", "run"], "--artifacts-limit"),
        (["--sessions", "--transcript-limit", "5"], "--transcript-limit"),
        (["--transcript", "r1", "--session-cursor", "x"], "--session-cursor"),
        (["--fork", "r1", "--agent-definition-tag", "t"], "--agent-definition-tag"),
        (["--artifact-open", "sha256:" + "0" * 64, "--output-schema-version", "6"], "--output"),
        (["--machine-contract", "--tenant", "acme"], "--tenant"),
        (["--sessions", "--fork", "r1"], "--sessions and --fork"),
    ],
)
def test_an_option_that_does_not_apply_is_refused(argv, named, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ITERON_HOME", str(tmp_path))
    assert iteron.main(argv) == 64
    out, err = capsys.readouterr()
    assert out == ""
    assert named in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing stored


def test_schema_version_alias_and_refusals(capsys):
    trace = str(Path(scrubline.__file__).parent / "data" / "demo.trace.jsonl")
    assert scrubline_cli.main(["project", trace, "--schema-version", "6"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith('{"schema_version":6,')
    assert scrubline_cli.main(["project", "--replay", trace, "--output-schema-version", "4"]) == 0
    assert '"schema_version":4' in capsys.readouterr().out
    assert scrubline_cli.main(["project", trace, "--output-schema-version", "7"]) == 64
    out, err = capsys.readouterr()
    assert out == "" and "resident App Server protocol" in err
    assert scrubline_cli.main(["project", trace, "--replay", trace]) == 64
    assert "give one" in capsys.readouterr().err


def test_titah_literal_env_redacts(tmp_path):
    secret = "correct-horse-battery-staple"
    trace = tmp_path / "t.jsonl"
    trace.write_text(
        '{"type":"assistant_delta","text":"the key is ' + secret + '"}\n'
        '{"type":"run_end","outcome":"done"}\n'
    )
    env = {**os.environ, "ITERON_HOME": str(tmp_path / "h"), "MY_SECRET": secret}
    cmd = [sys.executable, "-m", "scrubline.cli.titah", "run", "--replay", str(trace)]
    r = subprocess.run(
        [*cmd, "--output-format", "json", "--literal-env", "MY_SECRET", "go"],
        capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert secret.encode() not in r.stdout + r.stderr
    assert b"the key is [REDACTED:literal-secret]" in r.stdout


def _scrub(args: list[str], data: bytes, *, tty: bool = False):
    """`scrubline scrub` with stdin piped; stderr a pipe, or a terminal when ``tty``."""
    cmd = [sys.executable, "-m", "scrubline", "scrub", *args]
    if not tty:
        r = subprocess.run(cmd, input=data, capture_output=True, timeout=60, check=False)
        return r.returncode, r.stdout, r.stderr
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=secondary)
        os.close(secondary)
        out, _ = p.communicate(data, timeout=60)
        err = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # the terminal is gone once the child exits
                break
            if not chunk:
                break
            err += chunk
        return p.returncode, out, err
    finally:
        os.close(primary)


DATA = (f"token={GHP}\n" + "clean line of agent output\n" * 2000).encode()
EXPECTED = DATA.replace(GHP.encode(), b"[REDACTED:github-pat]")


def test_progress_on_a_terminal_only_by_default():
    code, out, err = _scrub([], DATA, tty=True)
    assert (code, out) == (0, EXPECTED)
    assert b"1 redactions" in err and b"B/s" in err
    code, out, err = _scrub([], DATA)
    assert (code, out, err) == (0, EXPECTED, b"")


def test_progress_forced_and_suppressed():
    code, out, err = _scrub(["--progress"], DATA)
    assert (code, out) == (0, EXPECTED)
    assert b"scrub" in err and b"1 redactions" in err
    code, out, err = _scrub(["--no-progress"], DATA, tty=True)
    assert (code, out, err) == (0, EXPECTED, b"")


def test_project_progress_leaves_stdout_alone():
    trace = str(Path(scrubline.__file__).parent / "data" / "demo.trace.jsonl")
    base = [sys.executable, "-m", "scrubline", "project", trace]
    plain = subprocess.run(base, capture_output=True, timeout=60, check=True)
    shown = subprocess.run([*base, "--progress"], capture_output=True, timeout=60, check=True)
    assert plain.stderr == b""
    assert b"project" in shown.stderr and b"redactions" in shown.stderr
    strip = re.compile(rb'"(?:run_id|\w+_latency_us)":("[^"]*"|\d+)')
    assert strip.sub(b"", shown.stdout) == strip.sub(b"", plain.stdout)


#: Imported only by what uses them: a filter on a pipe never draws a progress line, and
#: only a run with a model talks HTTP (docs/benchmarks.md, "Commands import httpx and
#: tqdm only when they use them").
LAZY = ("httpx", "httpx_sse", "httpcore", "tqdm")
LOADED = (
    "import runpy, sys\n"
    "code = None\n"
    "sys.argv = ['scrubline', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('scrubline', run_name='__main__')\n"
    "except SystemExit as e:\n"
    "    code = e.code\n"
    f"lazy = {{m.split('.')[0] for m in sys.modules}} & set({LAZY!r})\n"
    "print(code, sorted(lazy), file=sys.stderr)\n"
)


def test_a_command_that_talks_no_http_and_draws_no_bar_imports_neither():
    trace = str(Path(scrubline.__file__).parent / "data" / "demo.trace.jsonl")
    for argv in (["project", trace], ["scrub", "--no-progress"]):
        done = subprocess.run(
            [sys.executable, "-c", LOADED, *argv],
            input=DATA,
            capture_output=True,
            timeout=60,
            check=True,
        )
        assert done.stderr.decode().splitlines()[-1] == "0 []", (argv, done.stderr)
    code = "import sys, scrubline.cli.iteron, scrubline.cli.titah, scrubline.cli.scrubline\n"
    code += f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({LAZY!r})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert done.stdout == b"[]\n"
    # The same program sees them once a bar is drawn: the check can fail.
    shown = subprocess.run(
        [sys.executable, "-c", LOADED, "scrub", "--progress"],
        input=DATA,
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert shown.stderr.decode().splitlines()[-1] == "0 ['tqdm']"


def test_every_error_is_a_scrubline_error():
    """One hierarchy: every exception class the package defines derives from
    ScrublineError (private control-flow classes aside)."""
    stray = []
    for mod in pkgutil.walk_packages(scrubline.__path__, "scrubline."):
        if mod.name.endswith("__main__"):
            continue
        module = importlib.import_module(mod.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and obj.__module__ == module.__name__
                and issubclass(obj, Exception)
                and not issubclass(obj, ScrublineError | Warning)
                and not name.startswith("_")
                and obj.__module__.split(".")[1] != "cli"
            ):
                stray.append(f"{module.__name__}.{name}")
    assert stray == []
