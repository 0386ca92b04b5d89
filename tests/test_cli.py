"""`scrubline scrub` / `scrubline rules` as a Unix filter (D6): streaming, bytes in and
out, exit codes, bounded memory on unbounded input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import scrubline

GHP = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
CLI = [sys.executable, "-m", "scrubline"]


def run(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None):
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, env=env, timeout=120, check=False
    )


def test_stdin_to_stdout():
    r = run("scrub", stdin=f"token={GHP}\n".encode())
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"token=[REDACTED:github-pat]\n"
    assert r.stderr == b""


def test_file_argument_and_stats(tmp_path):
    f = tmp_path / "log.txt"
    f.write_bytes(f"{GHP} {GHP} AKIAQ3ZP7XK2M5RT9WLA\n".encode())
    r = run("scrub", str(f), "--stats")
    assert r.returncode == 0
    assert r.stdout.count(b"[REDACTED:") == 3
    assert r.stderr.decode().splitlines() == ["aws-access-key-id\t1", "github-pat\t2", "total\t3"]


def test_missing_file_exit_66():
    r = run("scrub", "/nonexistent/input.log")
    assert r.returncode == 66
    assert r.stdout == b""
    assert b"/nonexistent/input.log" in r.stderr


def test_usage_error_exit_64():
    r = run("scrub", "--no-such-flag")
    assert r.returncode == 64
    assert r.stdout == b""


def test_bad_rules_file_exit_64(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text("[[rule]]\nid = 'broken'\nkeywords = ['k']\npattern = 'k('\n")
    r = run("scrub", "--rules", str(f), stdin=b"x")
    assert r.returncode == 64
    assert b"broken" in r.stderr
    assert r.stdout == b""


def test_empty_input():
    r = run("scrub")
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_invalid_utf8_passes_through_byte_for_byte():
    data = b"\xff\xfe\x00 half \xe2\x82 " + GHP.encode() + b" \xc0\xaf tail \xed\xa0\x80"
    r = run("scrub", stdin=data)
    assert r.returncode == 0
    assert r.stdout == data.replace(GHP.encode(), b"[REDACTED:github-pat]")


def test_literal_env_and_warning():
    env = {**os.environ, "MY_SECRET": "s3cr3t-value-123", "TINY": "abc"}
    r = run(
        "scrub",
        "--literal-env",
        "MY_SECRET",
        "--literal-env",
        "TINY",
        stdin=b"x s3cr3t-value-123 y",
        env=env,
    )
    assert r.returncode == 0
    assert r.stdout == b"x [REDACTED:literal-secret] y"
    assert b"TINY" in r.stderr and b"abc" not in r.stderr


def test_sample_is_scrubbed():
    r = run("scrub", "--sample", "--stats")
    assert r.returncode == 0
    assert b"ghp_" not in r.stdout and b"AKIA" not in r.stdout
    assert b"[REDACTED:github-pat]" in r.stdout


def test_rules_json():
    r = run("rules", "--json")
    found = json.loads(r.stdout)
    assert {"id", "tier", "description", "family", "keywords", "pattern"} == set(found[0])
    assert found == [{**r._asdict(), "keywords": list(r.keywords)} for r in scrubline.rules()]
    assert {"id": "github-pat", "family": "GitHub"}.items() <= found[
        [x["id"] for x in found].index("github-pat")
    ].items()


def test_rules_table_has_a_line_per_rule_and_its_family():
    lines = run("rules").stdout.decode().splitlines()
    found = scrubline.rules()
    assert len(lines) == len(found)
    for line, rule in zip(lines, found, strict=True):
        assert line.split()[:3] == [rule.id, rule.tier, (rule.family or "-").split()[0]]


def test_rules_families():
    fams = scrubline.families()
    assert json.loads(run("rules", "--families", "--json").stdout) == [
        {"name": f.name, "source": f.source, "tiers": list(f.tiers), "rules": list(f.rules)}
        for f in fams
    ]
    lines = run("rules", "--families").stdout.decode().splitlines()
    assert len(lines) == len(fams)
    assert lines[[f.name for f in fams].index("GitHub")].split()[1:3] == ["token", "github-pat"]


@pytest.mark.slow
def test_100_mb_single_line(tmp_path):
    f = tmp_path / "line.txt"
    chunk = b"x" * (1 << 20)
    with f.open("wb") as w:
        for i in range(100):
            w.write(chunk)
            if i % 10 == 5:
                w.write(b" " + GHP.encode() + b" ")
    r = subprocess.run(
        [*CLI, "scrub", str(f), "--stats"], capture_output=True, timeout=300, check=False
    )
    assert r.returncode == 0
    assert len(r.stdout) == f.stat().st_size - 10 * (len(GHP) - len("[REDACTED:github-pat]"))
    assert r.stdout.count(b"[REDACTED:github-pat]") == 10
    assert b"\n" not in r.stdout


# Runs in a fresh interpreter so that the filter is the only child being measured: a
# child forked from the (large) test process would count the parent's pages in its
# ru_maxrss until it execs.
_DRIVER = r"""
import json, resource, subprocess, sys, threading
GHP, rounds = sys.argv[1], int(sys.argv[2])
block = (
    "$ pytest -q\n....................................... [100%]\n"
    f"export GITHUB_TOKEN={GHP}\n"
    '{"tool": "read_file", "output": "def main():\\n    return 0\\n"}\n'
    "Lorem ipsum dolor sit amet, the password is kept in the vault.\n"
).encode()
per_mib = (1 << 20) // len(block)
mib = block * per_mib
proc = subprocess.Popen(
    [sys.executable, "-m", "scrubline", "scrub", "--stats"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
)
def write():
    for _ in range(rounds):
        proc.stdin.write(mib)
    proc.stdin.close()
writer = threading.Thread(target=write)
writer.start()
total = 0
while data := proc.stdout.read(1 << 20):
    total += len(data)
writer.join()
stats = proc.stderr.read().decode()
code = proc.wait()
print(json.dumps({
    "code": code, "total": total, "input": rounds * len(mib), "planted": rounds * per_mib,
    "stats": stats, "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
}))
"""


@pytest.mark.slow
def test_multi_gb_stream_in_bounded_memory():
    """D6: 2 GiB of agent-like output through a pipe; peak RSS of the filter < 100 MB."""
    rounds = 2048
    r = subprocess.run(
        [sys.executable, "-c", _DRIVER, GHP, str(rounds)],
        capture_output=True,
        timeout=600,
        check=True,
    )
    got = json.loads(r.stdout)
    assert got["code"] == 0, got["stats"]
    saved = len(GHP) - len("[REDACTED:github-pat]")
    assert got["input"] >= 2 * 10**9
    assert got["total"] == got["input"] - got["planted"] * saved
    assert f"github-pat\t{got['planted']}" in got["stats"]
    peak_mib = got["peak_kib"] / 1024
    assert peak_mib < 100, f"peak RSS {peak_mib:.1f} MiB"
