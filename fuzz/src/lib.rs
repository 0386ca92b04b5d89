//! Oracles shared by the fuzz targets : the scrubber's split invariance and the
//! run boundary's output contract, stated once so every target checks the same things.
//! Every check panics with a message naming what broke; libFuzzer reports the panic
//! and saves the input under fuzz/artifacts/<target>/.

use std::sync::Arc;

use scrubline_core::{Boundary, BoundaryConfig, Error, Finish, RuleSet, SchemaVersion, Scrubber};
use serde_json::{Map, Value};

/// A credential with nothing around it that could change how it is matched: a GitHub
/// classic PAT (`ghp_` + 36 alphanumerics), planted between spaces.
pub const TOKEN: &[u8] = b"ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e";
/// What must never reach the output once the token was planted: its first 12 bytes.
pub const NEEDLE: &[u8] = b"ghp_R7kQ2mX9";

pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// `text` with ` TOKEN ` inserted at `at` (clamped to the text).
pub fn plant(text: &[u8], at: usize) -> Vec<u8> {
    let at = at.min(text.len());
    [&text[..at], b" ", TOKEN, b" ", &text[at..]].concat()
}

/// Feed `text` to `s` in chunks of `sizes` (cycled; a 0 feeds an empty chunk first, then
/// one byte), then flush. Returns what it wrote.
pub fn feed_in_chunks(s: &mut Scrubber, text: &[u8], sizes: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut i = 0;
    while !rest.is_empty() {
        let size = sizes[i % sizes.len()];
        i += 1;
        if size == 0 {
            s.feed(b"", &mut out);
        }
        let n = size.clamp(1, rest.len());
        s.feed(&rest[..n], &mut out);
        rest = &rest[n..];
    }
    s.flush(&mut out);
    out
}

/// D2: streamed in `sizes` == whole, and a scrubber reused after `flush` (a new stream)
/// gives the same again. Returns the whole output.
pub fn check_split_invariance(set: &Arc<RuleSet>, text: &[u8], sizes: &[usize]) -> Vec<u8> {
    let whole = scrubline_core::scrub(set, text);
    let mut s = Scrubber::new(Arc::clone(set));
    let streamed = feed_in_chunks(&mut s, text, sizes);
    if streamed != whole {
        panic!(
            "D2 broken: streamed != whole\n sizes {sizes:?}\n text     {:?}\n whole    {:?}\n streamed {:?}",
            String::from_utf8_lossy(text),
            String::from_utf8_lossy(&whole),
            String::from_utf8_lossy(&streamed)
        );
    }
    assert_eq!(s.held(), 0, "bytes still held after flush");
    // The same scrubber, a second stream, the chunk sizes rotated.
    let mut rotated = sizes.to_vec();
    rotated.rotate_left(1);
    let again = feed_in_chunks(&mut s, text, &rotated);
    if again != whole {
        panic!(
            "a scrubber reused after flush differs from a fresh one\n sizes {rotated:?}\n text  {:?}\n whole {:?}\n again {:?}",
            String::from_utf8_lossy(text),
            String::from_utf8_lossy(&whole),
            String::from_utf8_lossy(&again)
        );
    }
    whole
}

/// Published types every version may emit (E1), and those of some versions only.
const ALL_VERSIONS: [&str; 18] = [
    "assistant_text",
    "thinking",
    "phase",
    "tool_start",
    "tool_end",
    "approval_request",
    "steer_applied",
    "notice",
    "turn_end",
    "run_done",
    "workflow_start",
    "workflow_plan",
    "workflow_phase",
    "workflow_agent_start",
    "workflow_agent_activity",
    "workflow_agent_end",
    "workflow_end",
    // listed here, checked below: v5+ only
    "input_attachment",
];
const V8_ONLY: [&str; 5] = [
    "approval_resolved",
    "steer_submission_applied",
    "control_submission_applied",
    "submission_rejected",
    "artifact_produced",
];

/// One published line: a JSON object with `type` and `schema_version` (E2), `seq` and
/// `turn` on events, a type its version publishes (E1, E3, E4, E5).
fn check_event_line(line: &[u8], version: u8) -> Map<String, Value> {
    let obj = parse_object(line, version);
    let ty = obj["type"].as_str().unwrap();
    let allowed = (ALL_VERSIONS.contains(&ty) && (ty != "input_attachment" || version >= 5))
        || (V8_ONLY.contains(&ty) && version == 8);
    assert!(
        allowed,
        "v{version} published a {ty:?} event: {}",
        lossy(line)
    );
    for k in ["seq", "turn"] {
        assert!(
            obj.get(k).is_some_and(Value::is_u64),
            "published {ty} without an integer {k:?}: {}",
            lossy(line)
        );
    }
    if ty == "turn_end" {
        let has = obj["context"].get("components").is_some();
        assert_eq!(
            has,
            version >= 6,
            "turn_end components in v{version}: {}",
            lossy(line)
        );
    }
    obj
}

fn parse_object(line: &[u8], version: u8) -> Map<String, Value> {
    let v: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => panic!("published line is not JSON ({e}): {}", lossy(line)),
    };
    let Value::Object(obj) = v else {
        panic!("published line is not a JSON object: {}", lossy(line));
    };
    assert!(
        obj.get("type").is_some_and(Value::is_string),
        "published line without a string \"type\": {}",
        lossy(line)
    );
    assert_eq!(
        obj.get("schema_version").and_then(Value::as_u64),
        Some(version as u64),
        "published line without schema_version {version}: {}",
        lossy(line)
    );
    obj
}

fn lossy(b: &[u8]) -> String {
    let s = String::from_utf8_lossy(b);
    if s.len() > 600 {
        format!("{}… ({} bytes)", &s[..s.floor_char_boundary(600)], s.len())
    } else {
        s.into_owned()
    }
}

/// What a boundary run produced, all checked.
pub struct Outcome {
    /// Everything written to stdout, the result line last.
    pub out: Vec<u8>,
    /// Stored record bodies, in order.
    pub records: Vec<Vec<u8>>,
    /// The trace error that ended admission, if any: (line, reason).
    pub error: Option<(u64, String)>,
    /// The result object.
    pub result: Map<String, Value>,
}

/// Drive `lines` through a boundary as `scrubline project` does (stop at the first bad
/// line or when the run stops), then finish; check the output contract on the way.
/// Lines after a stop are still offered: they must produce nothing.
pub fn drive<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    version: u8,
    max_turn_tokens: Option<u64>,
) -> Outcome {
    let mut b = Boundary::new(BoundaryConfig {
        version: SchemaVersion::new(version as i64).expect("a supported version"),
        run_id: "fuzz-run".into(),
        rules: RuleSet::builtin(),
        max_turn_tokens,
    });
    let mut out = Vec::new();
    let mut records = Vec::new();
    let mut seq = 0u64;
    let mut error = None;
    let mut finish = Finish::default();
    for (i, line) in lines.into_iter().enumerate() {
        let n = i as u64 + 1;
        if b.stopped() {
            let step = b.admit(line, n).expect("a line after the stop is not read");
            assert!(
                step.out.is_empty() && step.records.is_empty(),
                "line {n} after the run stopped produced output"
            );
            continue;
        }
        match b.admit(line, n) {
            Ok(step) => {
                check_step(&step, version, &mut seq);
                out.extend_from_slice(&step.out);
                records.extend(step.records.into_iter().map(|r| r.body));
            }
            Err(Error::Trace { line, reason }) => {
                assert_eq!(
                    line, n,
                    "trace error names line {line}, the bad line is {n}: {reason}"
                );
                finish.outcome = Some("failed".into());
                finish.error = Some(("bad_input".into(), reason.clone(), Some(line)));
                finish.exit_code = Some(65);
                error = Some((line, reason));
                break;
            }
            Err(e) => panic!("admit returned a non-trace error on line {n}: {e:?}"),
        }
    }
    let (step, result) = b.finish(finish);
    check_step_records(&step, &mut seq);
    // The finish step: events (released held text, an engine run_end), then exactly one
    // result line, last, equal to the result returned alone.
    assert!(
        step.out.ends_with(b"\n"),
        "finish output does not end with a newline"
    );
    let body = &step.out[..step.out.len() - 1];
    let (events, last) = match body.iter().rposition(|&c| c == b'\n') {
        Some(i) => (&step.out[..=i], &body[i + 1..]),
        None => (&b""[..], body),
    };
    assert_eq!(
        last,
        &result[..],
        "the last line of finish is not the result"
    );
    for line in events.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        check_event_line(line, version);
    }
    let result_obj = parse_object(&result, version);
    assert_eq!(
        result_obj["type"], "result",
        "finish's last line is not the result"
    );
    assert_eq!(
        result_obj.get("kernel_tax").is_some(),
        version >= 5,
        "kernel_tax in v{version}"
    );
    out.extend_from_slice(&step.out);
    records.extend(step.records.into_iter().map(|r| r.body));
    // Exactly once: a second finish writes nothing, and no other line is a result.
    let (again, again_result) = b.finish(Finish::default());
    assert!(again.out.is_empty() && again.records.is_empty() && again_result.is_empty());
    let results = out
        .split(|&c| c == b'\n')
        .filter(|l| contains(l, b"\"type\":\"result\"") && l.starts_with(b"{\"schema_version\""))
        .count();
    assert_eq!(results, 1, "{results} result lines");
    // R5: the published assistant_text texts concatenate to the result's.
    let mut answer = String::new();
    for line in out.split(|&c| c == b'\n').filter(|l| !l.is_empty()) {
        let v: Value = serde_json::from_slice(line).unwrap();
        if v["type"] == "assistant_text" {
            answer.push_str(v["text"].as_str().expect("assistant_text.text is a string"));
        }
    }
    let said = result_obj["assistant_text"]
        .as_str()
        .expect("result.assistant_text");
    if answer != said {
        panic!(
            "R5 broken: published assistant_text {:?} != result.assistant_text {:?} (error: {error:?})",
            answer, said
        );
    }
    Outcome {
        out,
        records,
        error,
        result: result_obj,
    }
}

fn check_step(step: &scrubline_core::Step, version: u8, seq: &mut u64) {
    check_step_records(step, seq);
    if step.out.is_empty() {
        return;
    }
    assert!(
        step.out.ends_with(b"\n"),
        "a step's output does not end with a newline"
    );
    let mut last_seq = 0;
    for line in step.out[..step.out.len() - 1].split(|&c| c == b'\n') {
        let obj = check_event_line(line, version);
        let s = obj["seq"].as_u64().unwrap();
        assert!(
            s > last_seq && s <= *seq,
            "published seq {s} is not a new record's"
        );
        last_seq = s;
    }
}

/// Records are numbered 1, 2, 3, … with no gap, each a JSON object.
fn check_step_records(step: &scrubline_core::Step, seq: &mut u64) {
    for r in &step.records {
        *seq += 1;
        assert_eq!(r.seq, *seq, "record seq {} where {} was next", r.seq, *seq);
        let v: Value = serde_json::from_slice(&r.body).expect("a record is JSON");
        assert!(v.is_object(), "a record is not an object");
        assert_eq!(v["seq"].as_u64(), Some(r.seq));
        assert_eq!(v["type"].as_str(), Some(r.kind.as_str()));
    }
}

/// One boundary over `lines`: each line's records and published bytes, or its error.
fn admit_each(mut b: Boundary, lines: &[&[u8]]) -> Vec<Result<(Vec<Vec<u8>>, Vec<u8>), String>> {
    let mut steps = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        match b.admit(line, i as u64 + 1) {
            Ok(step) => steps.push(Ok((
                step.records.into_iter().map(|r| r.body).collect(),
                step.out,
            ))),
            Err(e) => {
                steps.push(Err(e.to_string()));
                break;
            }
        }
        if b.stopped() {
            break;
        }
    }
    steps
}

/// The boundary's two ways in agree (docs/projection.md, "Two ways in, one output"):
/// the borrowed path for text deltas and the general path give the same records,
/// lines and errors, line by line; and `admit_block` over the lines joined by `\n`
/// gives what they give together.
pub fn check_paths(lines: &[&[u8]], version: u8) {
    let new = || {
        Boundary::new(BoundaryConfig {
            version: SchemaVersion::new(version as i64).expect("a supported version"),
            run_id: "fuzz-run".into(),
            rules: RuleSet::builtin(),
            max_turn_tokens: None,
        })
    };
    let fast = admit_each(new(), lines);
    let general = admit_each(new().general_path_only(), lines);
    assert_eq!(fast, general, "the borrowed and general paths differ");
    // A block cannot hold lines with a newline inside; `split` never makes one.
    let block = lines.join(&b'\n');
    let mut b = new();
    let mut step = scrubline_core::Step::default();
    let (n, _, err) = b.admit_block(&block, 1, &mut step);
    let ok = fast.iter().take_while(|s| s.is_ok()).count();
    let ended = fast.len() == ok && ok < lines.len(); // the run stopped before the end
                                                      // An empty last line after the last newline is no line of the block.
    let counted = if block.is_empty() {
        0
    } else {
        lines.len() - usize::from(lines.last().is_some_and(|l| l.is_empty()))
    };
    assert_eq!(
        n as usize,
        if ended { ok } else { ok.min(counted) },
        "admit_block consumed another count"
    );
    assert_eq!(
        err.map(|e| e.to_string()),
        fast.get(ok).and_then(|s| s.clone().err())
    );
    let out: Vec<u8> = fast.iter().flatten().flat_map(|(_, o)| o.clone()).collect();
    assert_eq!(step.out, out, "admit_block published other lines");
}
