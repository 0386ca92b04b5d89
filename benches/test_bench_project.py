"""pytest-benchmark: the run boundary (`scrubline._core.Boundary`) beside its pure-Python
baseline (benches/baseline_project.py) on one 10k-event generated trace (`make bench`;
disabled in `make test`). Each checks its output before it is timed: the two publish the
same lines, exactly the planted credentials are redacted, none leaks."""

from __future__ import annotations

import pytest

from project import baseline, check, rust
from traces import generate

EVENTS = 10_000
LINES, PLANTED = generate(EVENTS, seed=1)
LOOPS = {"boundary": rust, "baseline": baseline}
EXPECTED = check(rust(LINES)[1], PLANTED, EVENTS, "boundary")


@pytest.mark.benchmark(group="run boundary, 10k events")
@pytest.mark.parametrize("name", LOOPS)
def test_project(benchmark, name):
    loop = LOOPS[name]
    assert check(loop(LINES)[1], PLANTED, EVENTS, name) == EXPECTED
    benchmark.extra_info["events"] = EVENTS
    benchmark.extra_info["bytes"] = sum(len(x) + 1 for x in LINES)
    benchmark.pedantic(loop, args=(LINES,), rounds=5, iterations=1, warmup_rounds=1)
