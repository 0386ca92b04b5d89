"""Artifacts (docs/contract.md §6): a durability witness before the event (A2), the per-run
ceiling and duplicates refused and counted (A3), the address kept and the locator
scrubbed (A4), list and reopen by hash (A5)."""

from __future__ import annotations

import hashlib
import json
import random
import signal
import subprocess
from pathlib import Path

import pytest

GHP = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e"


def declaration(i: int, text: str | None = None, path: str | None = None) -> dict:
    return {
        "type": "artifact",
        "schema": "report",
        "producer": "writer",
        "effect_id": f"eff_{i}",
        "path": path or f"reports/r{i}.md",
        "content_text": text if text is not None else f"report number {i}\n",
    }


def run_trace(
    cli, tmp_path: Path, events: list[dict], *extra: str, version: int = 8, env: dict | None = None
):
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join(json.dumps(e) for e in [*events, {"type": "run_end",
                     "outcome": "done"}]) + "\n")  # fmt: skip
    r = cli.iteron("run", "--output-format", "stream-json", "--output-schema-version", str(version),
               "--replay", str(trace), *extra, home=tmp_path / "home", **(env or {}))  # fmt: skip
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def sha(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def test_a3_300_declarations_256_accepted_44_refused_and_counted(cli, tmp_path):
    lines = run_trace(cli, tmp_path, [declaration(i) for i in range(300)])
    produced = [x for x in lines if x["type"] == "artifact_produced"]
    refused = [x for x in lines if x["type"] == "notice"]
    assert len(produced) == 256 and len(refused) == 44
    assert {x["code"] for x in refused} == {"artifact_refused_limit"}
    assert refused[-1]["text"].endswith("; 44 refused for this reason so far.")
    assert [x["artifact"]["provenance"]["effect_id"] for x in produced] == [
        f"eff_{i}" for i in range(256)
    ]
    run_id = lines[-1]["run_id"]
    home = tmp_path / "home"
    # The counts are on the durable record: the transcript shows the notices.
    page = json.loads(
        cli.iteron("--transcript", run_id, "--transcript-limit", "1000", home=home).stdout
    )
    assert sum(e["type"] == "notice" for e in page["events"]) == 44
    # A5: the list pages through all 256, in declaration order.
    seen, cursor = [], None
    while True:
        args = ["--artifacts", run_id, "--artifacts-limit", "100"]
        page = json.loads(cli.iteron(*args, *(["--artifacts-cursor", cursor] if cursor else []),
                                 home=home).stdout)  # fmt: skip
        assert page["type"] == "artifact_list_page"
        seen += [a["hash"] for a in page["artifacts"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == [x["artifact"]["hash"] for x in produced]


def test_a3_duplicates_refused_counted_and_a4_address_survives_locator_scrubbed(cli, tmp_path):
    secret_path = f"/home/dev/ci/{GHP}/out.md"
    content = f"token in content {GHP}\n"
    lines = run_trace(
        cli,
        tmp_path,
        [declaration(0, content, secret_path), declaration(1, content), declaration(2, content)],
    )
    produced = [x for x in lines if x["type"] == "artifact_produced"]
    notices = [x for x in lines if x["type"] == "notice"]
    assert len(produced) == 1
    assert [n["code"] for n in notices] == ["artifact_refused_duplicate"] * 2
    assert notices[1]["text"].endswith("; 2 refused for this reason so far.")
    handle = produced[0]["artifact"]
    assert handle["hash"] == sha(content.encode())  # byte for byte
    assert GHP not in handle["locator"] and "[REDACTED:github-pat]" in handle["locator"]
    assert handle["hash"] in notices[0]["text"]  # the address is never redacted (D5)
    # Stored as produced by default: the product itself, its address verifiable.
    r = cli.iteron("--artifact-open", handle["hash"], home=tmp_path / "home")
    assert r.returncode == 0 and r.stdout == content.encode()


def test_scrub_artifacts_scrubs_content_before_hashing(cli, tmp_path):
    content = f"token {GHP}\n"
    lines = run_trace(cli, tmp_path, [declaration(0, content)], "--scrub-artifacts")
    handle = next(x for x in lines if x["type"] == "artifact_produced")["artifact"]
    r = cli.iteron("--artifact-open", handle["hash"], home=tmp_path / "home")
    assert r.stdout == b"token [REDACTED:github-pat]\n"
    assert handle["hash"] == sha(r.stdout)
    stored = cli.backend.contents(tmp_path / "home")
    assert stored == [r.stdout] and all(GHP.encode() not in c for c in stored)


def test_scrub_artifacts_uses_the_runs_literals(cli, tmp_path):
    # D7: every scrub of a run uses that run's full rule set, literals included.
    secret = "plain-literal-Vq83mZkP"
    content = f"db password is {secret} and {GHP}\n"
    lines = run_trace(
        cli,
        tmp_path,
        [declaration(0, content)],
        "--scrub-artifacts",
        "--literal-env",
        "APP_SECRET",
        env={"APP_SECRET": secret},
    )
    handle = next(x for x in lines if x["type"] == "artifact_produced")["artifact"]
    r = cli.iteron("--artifact-open", handle["hash"], home=tmp_path / "home")
    assert r.stdout == b"db password is [REDACTED:literal-secret] and [REDACTED:github-pat]\n"
    assert handle["hash"] == sha(r.stdout)
    stored = cli.backend.contents(tmp_path / "home")
    assert stored == [r.stdout] and all(secret.encode() not in c for c in stored)


@pytest.mark.parametrize("version", [4, 5, 6])
def test_below_v8_no_artifact_produced_but_refusals_are_published(version, cli, tmp_path):
    lines = run_trace(cli, tmp_path, [declaration(0), declaration(0)], version=version)
    assert not any(x["type"] == "artifact_produced" for x in lines)
    assert [x["code"] for x in lines if x["type"] == "notice"] == ["artifact_refused_duplicate"]


def test_a2_a_failing_write_is_refused_and_no_event_names_missing_content(cli, tmp_path):
    good, bad = b"stored fine\n", b"cannot be stored\n"
    home = tmp_path / "home"
    # A real write failure (SQLite: a directory where the file must go, so the rename
    # fails; PostgreSQL: the server raises on the insert).
    cli.backend.block(home, sha(bad))
    lines = run_trace(cli, tmp_path, [declaration(0, good.decode()), declaration(1, bad.decode())])
    produced = [x["artifact"]["hash"] for x in lines if x["type"] == "artifact_produced"]
    assert produced == [sha(good)]
    notice = next(x for x in lines if x["type"] == "notice")
    assert notice["code"] == "artifact_refused_unwitnessed"
    assert "1 refused for this reason so far" in notice["text"]
    assert cli.backend.sql(home, "SELECT hash FROM artifacts") == [(sha(good),)]


def test_a5_open_verifies_and_is_tenant_scoped(cli, tmp_path):
    lines = run_trace(cli, tmp_path, [declaration(0, "the report\n")])
    h = next(x for x in lines if x["type"] == "artifact_produced")["artifact"]["hash"]
    home = tmp_path / "home"
    other = cli.iteron("--artifact-open", h, "--tenant", "other", home=home)
    unknown = cli.iteron("--artifact-open", "sha256:" + "0" * 64, home=home)
    assert other.returncode == unknown.returncode == 65
    assert other.stdout == unknown.stdout == b""
    assert cli.iteron("--artifact-open", "md5:abc", home=home).returncode == 64
    # Corrupt the stored file: detected on open, nothing on stdout.
    cli.backend.tamper(home, h, b"the report, tampered\n")
    r = cli.iteron("--artifact-open", h, home=home)
    assert r.returncode == 65 and r.stdout == b""
    assert "does not match its hash" in r.stderr.decode()


def test_fork_lists_the_parents_artifacts(cli, tmp_path):
    lines = run_trace(cli, tmp_path, [declaration(0), declaration(1)])
    home = tmp_path / "home"
    child = json.loads(cli.iteron("--fork", lines[-1]["run_id"], home=home).stdout)["child_run_id"]
    listed = json.loads(cli.iteron("--artifacts", child, home=home).stdout)["artifacts"]
    assert [a["provenance"]["effect_id"] for a in listed] == ["eff_0", "eff_1"]


@pytest.mark.slow
def test_a2_sigkill_between_write_and_append_leaves_no_event_without_content(cli, tmp_path):
    events = [declaration(i, f"artifact body {i}\n" * 50) for i in range(200)]
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    home = tmp_path / "home"
    rng = random.Random(11)
    for _ in range(15):
        proc = cli.popen(
            ["run", "--output-format", "stream-json", "--replay", str(trace)],
            home,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(rng.randrange(1, 150)):
            if not proc.stdout.readline():
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    if cli.backend.name == "sqlite":
        assert cli.backend.sql(home, "PRAGMA integrity_check") == [("ok",)]
    rows = cli.backend.sql(home, "SELECT body FROM events WHERE type = 'artifact_produced'")
    assert rows
    for (body,) in rows:
        h = json.loads(body)["artifact"]["hash"]
        assert sha(cli.backend.content_of(home, h)) == h
