"""Write the seed corpora of the fuzz targets from the test fixtures .

    python3 fuzz/make_seeds.py        # from the repository root; rewrites fuzz/corpus/*/seed-*

scrub_chunks: every text of tests/fixtures/rules/vectors.jsonl and every trace, behind
the target's header (control byte, chunk sizes, plant position). project_lines: every
trace of tests/fixtures/traces/*.trace.jsonl behind a control byte (schema version,
turn-token limit), and short traces that stream each rule's first vector as assistant
deltas cut inside the credential. project_events reads its input through `arbitrary`;
its seeds are the minimized corpus of a run (corpus/project_events/, not written here).
"""

import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
VERSIONS = [4, 5, 6, 8]


def write(target: str, data: bytes) -> None:
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{hashlib.sha1(data).hexdigest()[:16]}").write_bytes(data)


def scrub_header(i: int, text: bytes) -> bytes:
    sizes = [[1], [2], [7], [3, 1], [0x8F], [5, 11, 2], [0xF0], [1, 2, 3, 4]][i % 8]
    ctl = (len(sizes) - 1) | (8 if i % 3 else 0)
    at = (i * 7919) % (len(text) + 1)
    return bytes([ctl, *sizes]) + at.to_bytes(2, "little") + text


def main() -> None:
    for d in CORPUS.glob("*"):
        for f in d.glob("seed-*"):
            f.unlink()
    vectors = [json.loads(x) for x in (ROOT / "tests/fixtures/rules/vectors.jsonl").open()]
    traces = sorted((ROOT / "tests/fixtures/traces").glob("*.trace.jsonl"))
    options = json.loads((ROOT / "tests/fixtures/traces/options.json").read_text())
    limit = options.get("limit", {}).get("max_turn_tokens")

    for i, v in enumerate(vectors):
        write("scrub_chunks", scrub_header(i, v["text"].encode()))
    for i, t in enumerate(traces):
        write("scrub_chunks", scrub_header(i, t.read_bytes()))

    for i, t in enumerate(traces):
        ctl = i % 4
        if t.name.startswith("limit") and limit:
            # bit 2: limit (ctl >> 3) * 64 tokens
            ctl |= 4 | (max(1, limit // 64) << 3 & 0xF8)
        write("project_lines", bytes([ctl]) + t.read_bytes())
    seen = set()
    for i, v in enumerate(vectors):
        if v["rule"] in seen or v["text"] == v["expect"]:
            continue
        seen.add(v["rule"])
        text = v["text"]
        cut = len(text) // 2
        events = [
            {"type": "assistant_delta", "text": text[:cut]},
            {"type": "assistant_delta", "text": text[cut:]},
            {"type": "tool_output_delta", "call_id": "c1", "text": text},
            {"type": "tool_end", "call_id": "c1", "status": "completed"},
            {"type": "turn_end", "usage": {"input": 1, "output": 2}},
            {"type": "run_end", "outcome": "done"},
        ]
        trace = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
        write("project_lines", bytes([i % 4]) + trace.encode())


if __name__ == "__main__":
    main()
