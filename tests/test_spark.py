"""Scrubbing and projection on a real local Spark (`local[2]`) and through the
engine-neutral Arrow functions under it (docs/spark.md). The one property throughout:
a stream's output, concatenated, equals the single-process result for the stream's
concatenated input, byte for byte, whatever the rows and their order (D2)."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

if not os.environ.get("SCRUBLINE_REQUIRE_SPARK"):  # `make test` requires it
    pytest.importorskip("pyarrow")
import pyarrow as pa
import pyarrow.parquet as pq

from scrubline.fleet import REDACTIONS, RuleSet, project_table, scrub_batches, scrub_table

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "tests" / "fixtures" / "traces"
LITERAL = "correct-horse-battery-staple"
SECRETS = [
    "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e",
    "AKIAL6O7XOD53ERXOLQB",
    "xoxb-815467859869-4970042357028-fbuvmHEdPXrW2EfY3ARlMvsn",
    "sk_live_51HqZx2Lr8Yc4Vb6Nm0Pq3Ws5Et7Ry9Uk",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    LITERAL,
]
WORDS = ["the", "build", "failed", "token", "export", "password:", "=", "\n", "ok", "→", "{", "}"]


def corpus(streams: int, seed: int) -> tuple[list[tuple[str, int, str | None]], dict[str, str]]:
    """Rows (run_id, seq, chunk) of ``streams`` streams, shuffled, and each stream's
    whole text. Every stream carries credentials; cuts fall inside them often."""
    rng = random.Random(seed)
    rows, texts = [], {}
    for i in range(streams):
        parts = []
        for _ in range(rng.randint(1, 4)):
            parts += rng.choices(WORDS, k=rng.randint(0, 12))
            parts.append(" " + rng.choice(SECRETS) + rng.choice([" ", "\n", "", "."]))
        text = " ".join(parts)
        cuts = sorted(rng.sample(range(1, len(text)), k=min(len(text) - 1, rng.randint(0, 10))))
        chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        run_id = f"run-{i:05d}"
        texts[run_id] = text
        # A sequence with gaps, as real producers leave them; an empty chunk now and then.
        seq = 0
        for chunk in chunks:
            seq += rng.randint(1, 3)
            rows.append((run_id, seq, chunk if chunk or rng.random() < 0.5 else None))
    rng.shuffle(rows)
    return rows, texts


_COMPILED: dict[RuleSet, object] = {}


def expected(text: str, rules: RuleSet) -> str:
    """The single-process scrub of a whole text under ``rules`` (compiled once)."""
    if rules not in _COMPILED:
        _COMPILED[rules] = rules.scrubber()
    return _COMPILED[rules].scrub(text)


def joined(rows) -> dict[str, str]:
    """Each stream's output chunks in sequence order, concatenated."""
    streams: dict[str, list[tuple[int, str]]] = {}
    for run_id, seq, chunk, _ in rows:
        streams.setdefault(run_id, []).append((seq, chunk))
    return {k: "".join(c for _, c in sorted(v)) for k, v in streams.items()}


# -- the Arrow functions, without Spark ----------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    text=st.lists(st.sampled_from([*"ab =:\n", "password=", *SECRETS]), max_size=40).map("".join),
    cuts=st.lists(st.integers(0, 400), max_size=12),
    seed=st.integers(0, 2**32),
)
def test_scrub_table_is_split_invariant(text, cuts, seed):
    """K1 without Spark: any cuts, any row order."""
    rules = RuleSet(literals=(LITERAL,))
    points = sorted({c for c in cuts if 0 < c < len(text)})
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    rows = [("k", i, c) for i, c in enumerate(chunks)]
    random.Random(seed).shuffle(rows)
    table = pa.table({
        "run_id": [r[0] for r in rows], "seq": [r[1] for r in rows], "chunk": [r[2] for r in rows],
    })  # fmt: skip
    out = scrub_table(table, key="run_id", seq="seq", text="chunk", rules=rules)
    assert out.column("seq").to_pylist() == sorted(r[1] for r in rows)
    assert "".join(out.column("chunk").to_pylist()) == expected(text, rules)
    assert sum(out.column(REDACTIONS).to_pylist()) == expected(text, rules).count("[REDACTED:")


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    streams=st.integers(1, 6),
    batch=st.integers(1, 9),
    large=st.booleans(),
    null_key=st.booleans(),
)
def test_streams_across_batches_equal_their_single_process_scrub(
    seed, streams, batch, large, null_key
):
    """K1, K2 for the batch path the scrubber takes (one core call per batch): streams
    that start and end anywhere in batches of any size, a null key as one more key,
    null text as empty, either string width, and batches that are slices of a buffer."""
    rules = RuleSet(literals=(LITERAL,))
    rows, texts = corpus(streams, seed)
    if null_key:
        rows = [(None if k == "run-00000" else k, q, c) for k, q, c in rows]
        texts[None] = texts.pop("run-00000")  # type: ignore[index]
    kind = pa.large_string() if large else pa.string()
    table = pa.table({
        "run_id": pa.array([r[0] for r in rows], kind),
        "seq": [r[1] for r in rows],
        "chunk": pa.array([r[2] for r in rows], kind),
        "n": list(range(len(rows))),
    })  # fmt: skip
    ordered = table.sort_by([("run_id", "ascending"), ("seq", "ascending")])
    # Batches after the first are slices of one buffer: their text starts past its head.
    batches = ordered.to_batches(max_chunksize=batch)
    assert len(batches) == 1 or batches[-1].column("chunk").offset > 0
    out = pa.Table.from_batches(
        list(scrub_batches(batches, key="run_id", text="chunk", rules=rules))
    )
    assert out.column("n").to_pylist() == ordered.column("n").to_pylist()
    assert out.schema.field("chunk").type == kind
    got: dict[object, str] = {}
    keys, chunks = out.column("run_id").to_pylist(), out.column("chunk").to_pylist()
    for k, chunk in zip(keys, chunks, strict=True):
        got[k] = got.get(k, "") + chunk
    assert got == {k: expected(t, rules) for k, t in texts.items()}
    total = sum(out.column(REDACTIONS).to_pylist())
    assert total == sum(expected(t, rules).count("[REDACTED:") for t in texts.values())


@pytest.mark.parametrize("project", [False, True])
def test_a_text_column_of_nulls_only_comes_out_as_text(project):
    """Arrow types a column with no value at all as null: it is text all the same."""
    table = pa.table({"run_id": ["a", "a", "b"], "seq": [1, 2, 1], "chunk": [None, None, None]})
    assert table.schema.field("chunk").type == pa.null()
    if project:
        out = project_table(
            table, key="run_id", seq="seq", line="chunk", version=8, rules=RuleSet()
        )
        assert out.schema.field("chunk").type == pa.string()
        assert out.num_rows == 3
    else:
        out = scrub_table(table, key="run_id", seq="seq", text="chunk", rules=RuleSet())
        assert out.column("chunk").to_pylist() == ["", "", ""]
        assert out.column(REDACTIONS).to_pylist() == [0, 0, 0]


def test_rule_set_pickles_and_a_live_scrubber_does_not():
    """K4."""
    rules = RuleSet(literals=(LITERAL,), rules=({"id": "ticket", "pattern": "TCK-[0-9]{6}",
                                                  "keywords": ["TCK-"]},))  # fmt: skip
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules
    assert LITERAL not in repr(rules) and LITERAL not in str(rules)
    assert again.scrubber().scrub(f"{LITERAL} TCK-123456") == (
        "[REDACTED:literal-secret] [REDACTED:ticket]"
    )
    with pytest.raises(TypeError):
        pickle.dumps(rules.scrubber())


def test_missing_columns_are_named():
    from scrubline.errors import ConfigError

    table = pa.table({"run_id": ["a"], "seq": [1]})
    with pytest.raises(ConfigError, match="'chunk'"):
        scrub_table(table, key="run_id", seq="seq", text="chunk", rules=RuleSet())
    with pytest.raises(ConfigError, match="'order'"):
        scrub_table(table, key="run_id", seq="order", text="seq", rules=RuleSet())


# -- a real Spark --------------------------------------------------------------------------


@pytest.mark.slow
def test_thousands_of_streams_on_spark_equal_the_single_process_scrub(spark):
    """K1, K2: 2000 shuffled streams whose credentials straddle rows."""
    from scrubline.spark import scrub_stream

    rules = RuleSet(literals=(LITERAL,))
    rows, texts = corpus(2000, seed=7)
    df = spark.createDataFrame(rows, "run_id string, seq long, chunk string")
    out = df.transform(scrub_stream(key="run_id", seq="seq", text="chunk", rules=rules))
    got = out.collect()
    assert sorted((r.run_id, r.seq) for r in got) == sorted((r[0], r[1]) for r in rows)
    streams = joined(got)
    assert streams.keys() == texts.keys()
    for run_id, text in texts.items():
        assert streams[run_id] == expected(text, rules), run_id
    for r in got:
        assert not any(s in (r.chunk or "") for s in SECRETS)
    redactions = sum(r[REDACTIONS] for r in got)
    assert redactions == sum(expected(t, rules).count("[REDACTED:") for t in texts.values())


def project_cli(trace: Path, version: int) -> bytes:
    r = subprocess.run(
        [sys.executable, "-m", "scrubline", "project", str(trace),
         "--output-schema-version", str(version)],
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    return r.stdout


def normalized(published: bytes) -> list[dict]:
    lines = [json.loads(x) for x in published.splitlines() if x.strip()]
    result = lines[-1]
    assert result["type"] == "result"
    result["run_id"] = "RUN"
    for k in ("admission_latency_us", "broker_latency_us", "record_fsync_latency_us"):
        result.get("kernel_tax", {}).pop(k, None)
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("version", [4, 8])
def test_projection_on_spark_equals_scrubline_project(spark, version):
    """K3: every golden trace, its lines shuffled across rows."""
    from scrubline.spark import project_stream

    traces = sorted(TRACES.glob("*.trace.jsonl"))
    rows = []
    for trace in traces:
        for seq, line in enumerate(trace.read_text().split("\n")[:-1], 1):
            rows.append((trace.name, seq, line))
    random.Random(3).shuffle(rows)
    df = spark.createDataFrame(rows, "run_id string, seq long, event string")
    out = df.transform(project_stream(key="run_id", seq="seq", line="event", version=version))
    runs: dict[str, list[tuple[int, str]]] = {}
    for r in out.collect():
        runs.setdefault(r.run_id, []).append((r.seq, r.event))
    for trace in traces:
        published = "\n".join(e for _, e in sorted(runs[trace.name]) if e).encode()
        assert normalized(published) == normalized(project_cli(trace, version)), trace.name


# -- the command line ----------------------------------------------------------------------


def spark_cli(*args: str, env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "scrubline", "spark", *args, "--master", "local[2]"],
        capture_output=True, timeout=600, check=False, env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_cli_scrubs_parquet_and_jsonl(spark, tmp_path):
    """K1 through `scrubline spark scrub`, with a literal secret from the environment."""
    rows, texts = corpus(50, seed=11)
    table = pa.table({k: [r[i] for r in rows] for i, k in enumerate(("run_id", "seq", "chunk"))})
    pq.write_table(table, tmp_path / "in.parquet")
    env = {**os.environ, "MY_SECRET": LITERAL}
    common = ["--key", "run_id", "--seq", "seq", "--text", "chunk", "--literal-env", "MY_SECRET"]
    r = spark_cli("scrub", "--input", str(tmp_path / "in.parquet"),
                  "--output", str(tmp_path / "out.parquet"), *common, env=env)  # fmt: skip
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    assert r.stdout == b""
    got = pq.read_table(tmp_path / "out.parquet").to_pylist()
    streams = joined([(g["run_id"], g["seq"], g["chunk"], g[REDACTIONS]) for g in got])
    rules = RuleSet(literals=(LITERAL,))
    assert streams == {k: expected(t, rules) for k, t in texts.items()}

    with open(tmp_path / "in.jsonl", "w") as f:
        for run_id, seq, chunk in rows:
            f.write(json.dumps({"run_id": run_id, "seq": seq, "chunk": chunk}) + "\n")
    r = spark_cli("scrub", "--input", str(tmp_path / "in.jsonl"),
                  "--output", str(tmp_path / "out.jsonl"), *common, env=env)  # fmt: skip
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    got = [json.loads(x) for p in (tmp_path / "out.jsonl").glob("part-*") for x in p.open()]
    streams = joined([(g["run_id"], g["seq"], g.get("chunk") or "", 0) for g in got])
    assert streams == {k: expected(t, rules) for k, t in texts.items()}


def test_cli_refuses_before_starting_spark(tmp_path):
    """K5: a missing input is 66, an existing output without --overwrite is 64."""
    r = spark_cli("scrub", "--input", str(tmp_path / "nope.parquet"), "--output",
                  str(tmp_path / "o"), "--key", "k", "--seq", "s", "--text", "t")  # fmt: skip
    assert (r.returncode, r.stdout) == (66, b"")
    assert b"nope.parquet" in r.stderr
    (tmp_path / "in.jsonl").write_text("{}\n")
    (tmp_path / "out").mkdir()
    r = spark_cli("scrub", "--input", str(tmp_path / "in.jsonl"), "--output",
                  str(tmp_path / "out"), "--key", "k", "--seq", "s", "--text", "t")  # fmt: skip
    assert (r.returncode, r.stdout) == (64, b"")
    assert b"--overwrite" in r.stderr


@pytest.mark.slow
def test_cli_missing_column_is_a_usage_error(spark, tmp_path):
    """K5: named, exit 64, nothing written."""
    pq.write_table(pa.table({"run_id": ["a"], "seq": [1], "chunk": ["x"]}), tmp_path / "i.parquet")
    r = spark_cli("scrub", "--input", str(tmp_path / "i.parquet"), "--output",
                  str(tmp_path / "o.parquet"), "--key", "run_id", "--seq", "seq",
                  "--text", "body")  # fmt: skip
    assert (r.returncode, r.stdout) == (64, b"")
    assert b"'body'" in r.stderr
    assert not (tmp_path / "o.parquet").exists()
