"""The package as a user gets it: the wheel `pip install .` builds, installed with its
declared dependencies into a clean virtual environment (nothing from this checkout on
its path). Every console script must start, explain itself and run the demo."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "iteron": [[], ["run"]],
    "titah": [[], ["run"]],
    "scrubline": [[], ["scrub"], ["project"], ["rules"], ["spark"], ["spark", "scrub"]],
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel built from this checkout; its bin directory."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work), str(ROOT)],
        check=True, timeout=1800, capture_output=True,
    )  # fmt: skip
    (wheel,) = work.glob("scrubline-*.whl")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True, clear=True)
    bin_dir = env_dir / "bin"
    subprocess.run(
        [bin_dir / "python", "-m", "pip", "install", "-q", str(wheel)],
        check=True, timeout=900, capture_output=True,
    )  # fmt: skip
    return bin_dir


def clean_env(home: Path) -> dict[str, str]:
    """No PYTHONPATH or venv of the checkout: only what the wheel installed."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["ITERON_HOME"] = str(home)
    return env


def run(bin_dir: Path, argv: list[str], home: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(bin_dir / argv[0]), *argv[1:]],
        capture_output=True, env=clean_env(home), cwd=home, timeout=120, check=False,
    )  # fmt: skip


def test_the_package_comes_from_the_wheel(installed, tmp_path):
    code = "import scrubline, scrubline._core; print(scrubline.__file__)"
    r = subprocess.run(
        [installed / "python", "-c", code],
        capture_output=True, text=True, env=clean_env(tmp_path), cwd=tmp_path, check=True,
    )  # fmt: skip
    assert Path(r.stdout.strip()).is_relative_to(installed.parent)


@pytest.mark.parametrize(
    "argv", [[cmd, *sub, "--help"] for cmd, subs in COMMANDS.items() for sub in subs]
)
def test_every_command_explains_itself(installed, tmp_path, argv):
    r = run(installed, argv, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"usage: {' '.join(argv[:-1])}".encode()), r.stdout[:200]
    assert b"examples:" in r.stdout
    assert r.stderr == b""


def test_the_demo_runs_from_the_wheel(installed, tmp_path):
    r = run(installed, ["iteron", "run", "--output-format", "stream-json"], tmp_path)
    assert r.returncode == 0, r.stderr
    *events, result = [orjson.loads(line) for line in r.stdout.splitlines()]
    assert events and all(e["schema_version"] == 8 for e in events)
    assert (result["type"], result["outcome"], result["exit_code"]) == ("result", "done", 0)


def test_titah_and_scrubline_run_from_the_wheel(installed, tmp_path):
    r = run(installed, ["titah", "run", "--output-format", "json", "the demo"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert orjson.loads(r.stdout)["ok"] is True
    r = run(installed, ["scrubline", "scrub", "--sample"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert b"[REDACTED:" in r.stdout and r.stderr == b""
