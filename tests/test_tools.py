"""The built-in runtime's tools (M3): output bounded at a character boundary, a command
that runs too long is killed with its process group, paths outside the working
directory need approval."""

from __future__ import annotations

import time
from pathlib import Path

from scrubline import tools


def never() -> bool:
    return False


def test_bash_output_is_bounded_and_says_what_was_left_out(tmp_path: Path):
    call = tools.check("bash", {"command": "python3 -c \"print('é' * 100001, end='')\""})
    out = tools.run(call, tmp_path, never)
    assert out.ok
    body, note = out.text.split("\n[output cut at", 1)
    assert len(body.encode()) <= tools.MAX_OUTPUT
    assert set(body) == {"é"}  # no half character
    assert "more bytes not shown" in note


def test_a_command_past_its_timeout_is_killed_with_its_children(tmp_path: Path):
    call = tools.check("bash", {"command": "sleep 30 & sleep 30; echo never"})
    t0 = time.monotonic()
    out = tools.run(call, tmp_path, never, timeout=0.5)
    assert time.monotonic() - t0 < 5
    assert not out.ok and "timed out after 0.5 s" in out.text and "never" not in out.text


def test_a_stop_ends_a_running_command(tmp_path: Path):
    start = time.monotonic()
    out = tools.run(
        tools.check("bash", {"command": "sleep 30"}),
        tmp_path,
        lambda: time.monotonic() > start + 0.3,
    )
    assert not out.ok and "stopped by a signal" in out.text


def test_exit_status_and_working_directory(tmp_path: Path):
    out = tools.run(tools.check("bash", {"command": "pwd; exit 3"}), tmp_path, never)
    assert not out.ok and out.text == f"{tmp_path}\n[exit status 3]"


def test_approval_rules(tmp_path: Path):
    (tmp_path / "in.txt").write_text("x")
    assert tools.check("bash", {"command": "ls"}).needs_approval(tmp_path)
    assert tools.check("write_file", {"path": "a", "content": ""}).needs_approval(tmp_path)
    assert not tools.check("read_file", {"path": "in.txt"}).needs_approval(tmp_path)
    assert tools.check("read_file", {"path": "../x"}).needs_approval(tmp_path)
    assert tools.check("read_file", {"path": "/etc/passwd"}).needs_approval(tmp_path)
    (tmp_path / "link").symlink_to("/etc")
    assert tools.check("read_file", {"path": "link/passwd"}).needs_approval(tmp_path)


def test_bad_calls_are_errors_for_the_model(tmp_path: Path):
    assert tools.check("rm_rf", {}).error.startswith("unknown tool")
    assert tools.check("bash", []).error == "the arguments are not a JSON object"
    assert "'command'" in tools.check("bash", {"cmd": "ls"}).error
    out = tools.run(tools.check("read_file", {"path": "missing"}), tmp_path, never)
    assert not out.ok and out.text.startswith("error: ")
