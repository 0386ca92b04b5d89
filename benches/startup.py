"""What a command pays before its first output, whole processes, two builds of the
extension alternated (each copied into place in turn): the host's noise moves
separate runs of one build by more than a few milliseconds.

    python benches/startup.py BEFORE/_core.abi3.so AFTER/_core.abi3.so [--runs 11]

Times, per build, the median of ``--runs`` processes of: ``import scrubline`` and a
first ``Scrubber().feed``; ``iteron run`` of the bundled demo trace; ``scrubline
project`` of it; and, in one process, the median of twenty ``Scrubber(literals=…)``
(a rule set of its own each) after a first. The installed extension is put back
as it was.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Found, not imported: this process must not map the file it swaps.
_SPEC = importlib.util.find_spec("scrubline")
assert _SPEC is not None and _SPEC.submodule_search_locations
HERE = Path(next(iter(_SPEC.submodule_search_locations)))
BIN = Path(sys.executable).parent
DEMO = HERE / "data" / "demo.trace.jsonl"
COMMANDS = {
    "import, first Scrubber().feed": [
        sys.executable,
        "-c",
        "import scrubline; scrubline.Scrubber().feed('x')",
    ],
    "iteron run (demo trace)": [str(BIN / "iteron"), "run", "--output-format", "stream-json"],
    "scrubline project (demo trace)": [str(BIN / "scrubline"), "project", str(DEMO)],
}
LITERALS = """
import statistics, time, scrubline
scrubline.Scrubber(literals=['warm-up-secret-value'])
ts = []
for i in range(20):
    t = time.perf_counter()
    scrubline.Scrubber(literals=[f'correct-horse-battery-{i:03d}'])
    ts.append(time.perf_counter() - t)
print(statistics.median(ts))
"""


def put(build: Path, installed: Path) -> None:
    """``build`` in place of ``installed``, by a rename: a process that has the old
    file mapped keeps it."""
    staged = installed.with_suffix(".staged")
    shutil.copy2(build, staged)
    os.replace(staged, installed)


def run(argv: list[str]) -> float:
    with tempfile.TemporaryDirectory() as home:
        start = time.perf_counter()
        subprocess.run(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={"ITERON_HOME": home, "PATH": str(BIN)},
            check=True,
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    installed = next(HERE.glob("_core*.so"))
    with tempfile.TemporaryDirectory() as keep:
        saved = Path(keep) / installed.name
        shutil.copy2(installed, saved)
        times: dict[tuple[str, str], list[float]] = {}
        try:
            for _ in range(args.runs):
                for build in ("before", "after"):
                    put(Path(getattr(args, build)), installed)
                    for name, argv in COMMANDS.items():
                        times.setdefault((build, name), []).append(run(argv))
                    out = subprocess.run(
                        [sys.executable, "-c", LITERALS], capture_output=True, text=True, check=True
                    ).stdout
                    times.setdefault((build, "Scrubber(literals=…), in process"), []).append(
                        float(out)
                    )
        finally:
            put(saved, installed)
    for name in [*COMMANDS, "Scrubber(literals=…), in process"]:
        before = statistics.median(times[("before", name)])
        after = statistics.median(times[("after", name)])
        print(
            f"{name:34s} before {before * 1e3:7.1f} ms  after {after * 1e3:7.1f} ms"
            f"  ({before / after:.2f}x)"
        )


if __name__ == "__main__":
    main()
