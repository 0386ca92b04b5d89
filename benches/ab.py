"""Two builds of the extension in one process, timed alternately on the same text: the
way to tell a change of a few per cent from the host's noise, which moves runs of one
build in separate processes by more than that.

    python benches/ab.py BEFORE/_core.abi3.so AFTER/_core.abi3.so [--rounds 9] [--size 16]
                         [--inputs FILE ...]

Each round feeds the corpus of ``compare.py`` (clean, then a credential every 4 KiB)
through ``Scrubber.feed_bytes`` in 64 KiB chunks, and its first 2 MiB in 32-byte
writes, with each build in turn; prints the median MB/s of each build and case.
``--inputs`` times those files instead of the dense corpus, in 64 KiB chunks only
(the adversarial inputs ``worst`` writes with ``DUMP=DIR``, beside clean text).
``--first KIB`` times ``scrub_bytes`` of each text's first KIB KiB instead, the whole
of a short stream (a scrubber made, fed and flushed per call), repeated to a
millisecond or so; it prints the µs a call too.
Before any is timed, each text is scrubbed whole by both builds, and their outputs
must be equal: a change timed so changes no output.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).parent))
from compare import agent_text


def load(path: str) -> ModuleType:
    """The extension at ``path`` as a module of its own (its init name is ``_core``)."""
    sys.modules.pop("_core", None)
    spec = importlib.util.spec_from_file_location("_core", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rate(core: ModuleType, data: bytes, chunk: int) -> float:
    pieces = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    scrubber = core.Scrubber()
    start = time.perf_counter()
    for piece in pieces:
        scrubber.feed_bytes(piece)
    scrubber.flush()
    return len(data) / (time.perf_counter() - start) / 1e6


def whole_rate(core: ModuleType, data: bytes) -> float:
    """MB/s of ``scrub_bytes(data)``, repeated until ~1 ms has passed."""
    scrub, reps, elapsed = core.scrub_bytes, 0, 0.0
    start = time.perf_counter()
    while elapsed < 1e-3:
        for _ in range(64):
            scrub(data)
        reps += 64
        elapsed = time.perf_counter() - start
    return len(data) * reps / elapsed / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--size", type=int, default=16, help="corpus size in MiB")
    parser.add_argument("--inputs", nargs="*", type=Path, default=[])
    parser.add_argument("--first", type=int, default=0, help="KiB scrubbed whole instead")
    args = parser.parse_args()
    builds = {"before": load(args.before), "after": load(args.after)}
    assert builds["before"] is not builds["after"]
    kinds = (("clean", None),) if args.inputs else (("clean", None), ("dense", 4096))
    texts = {name: agent_text(args.size << 20, every).text.encode() for name, every in kinds}
    texts.update((path.name, path.read_bytes()) for path in args.inputs)
    if args.first:
        texts = {name: data[: args.first << 10] for name, data in texts.items()}
    for core in builds.values():  # compile the rules each text meets, untimed
        for data in texts.values():
            rate(core, data[: 1 << 20], 65536)
            assert core.scrub_bytes(data) == builds["before"].scrub_bytes(data)
    results: dict[tuple[str, int, str], list[float]] = {}
    for _ in range(args.rounds):
        for name, data in texts.items():
            if args.first:
                for build, core in builds.items():
                    results.setdefault((name, 0, build), []).append(whole_rate(core, data))
                continue
            writes = () if args.inputs else ((32, data[: 2 << 20]),)
            for chunk, part in ((65536, data), *writes):
                for build, core in builds.items():
                    results.setdefault((name, chunk, build), []).append(rate(core, part, chunk))
    for (name, chunk, build), xs in sorted(results.items()):
        median = statistics.median(xs)
        call = f"  {len(texts[name]) / median:.2f} µs a call" if args.first else ""
        size = f"{chunk:6} B" if chunk else "   whole"
        print(
            f"{name:5} {size} {build:6}: median {median:7.0f} MB/s"
            f"  [{min(xs):.0f}-{max(xs):.0f}]{call}"
        )


if __name__ == "__main__":
    main()
