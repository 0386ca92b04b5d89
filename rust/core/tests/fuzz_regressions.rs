//! Inputs the fuzz targets (fuzz/, `make fuzz`) found, minimized by hand, as
//! regression tests. Each names the target and the artifact under fuzz/artifacts/.
//!
//! A bug found by fuzzing gets its test here before the fix, stating the correct
//! behaviour.

use scrubline_core::{Boundary, BoundaryConfig, Error, Finish, RuleSet, SchemaVersion};
use serde_json::Value;

fn boundary(version: i64) -> Boundary {
    Boundary::new(BoundaryConfig {
        version: SchemaVersion::new(version).unwrap(),
        run_id: "RUN".into(),
        rules: RuleSet::builtin(),
        max_turn_tokens: None,
    })
}

/// Drive `trace` as `scrubline project` does (stop at the first bad line), then finish.
/// Returns stdout, the record sequence numbers and the trace error, if any.
fn run(trace: &str, version: i64) -> (String, Vec<u64>, Option<Error>) {
    let mut b = boundary(version);
    let mut out = Vec::new();
    let mut seqs = Vec::new();
    let mut finish = Finish::default();
    let mut error = None;
    for (i, line) in trace.split('\n').enumerate() {
        match b.admit(line.as_bytes(), i as u64 + 1) {
            Ok(step) => {
                out.extend(step.out);
                seqs.extend(step.records.iter().map(|r| r.seq));
            }
            Err(e) => {
                let Error::Trace { line, reason } = &e else {
                    panic!("not a trace error: {e:?}");
                };
                finish.outcome = Some("failed".into());
                finish.error = Some(("bad_input".into(), reason.clone(), Some(*line)));
                finish.exit_code = Some(65);
                error = Some(e);
                break;
            }
        }
        if b.stopped() {
            break;
        }
    }
    let (step, _) = b.finish(finish);
    out.extend(step.out);
    seqs.extend(step.records.iter().map(|r| r.seq));
    (String::from_utf8(out).unwrap(), seqs, error)
}

fn lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The published assistant text and the result's `assistant_text`.
fn answers(out: &str) -> (String, String) {
    let lines = lines(out);
    let published = lines
        .iter()
        .filter(|v| v["type"] == "assistant_text")
        .map(|v| v["text"].as_str().unwrap())
        .collect();
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    (
        published,
        result["assistant_text"].as_str().unwrap().to_string(),
    )
}

/// project_lines, fuzz/artifacts/project_lines/crash-4c9238c24d3eb61f0bd60025c40358f15a921de8
/// (and crash-run_end-bad-outcome-after-held-text, minimized): a `run_end` whose
/// outcome is bad, after a delta whose tail the scrubber holds (`gh` could become
/// `ghp_`). `run_end` flushes the streams before it checks the outcome, so the released
/// tail is recorded into a step the error then drops: record 2 is lost (seq goes 1, 3),
/// and the tail is in the result's `assistant_text` but was never published or stored.
#[test]
fn bad_run_end_after_held_text_loses_no_record() {
    let trace = "{\"type\":\"assistant_delta\",\"text\":\"Hi gh\"}\n\
                 {\"type\":\"run_end\",\"outcome\":\"ok\"}";
    for version in [4, 5, 6, 8] {
        let (out, seqs, error) = run(trace, version);
        assert!(
            matches!(error, Some(Error::Trace { line: 2, .. })),
            "{error:?}"
        );
        let want: Vec<u64> = (1..=seqs.len() as u64).collect();
        assert_eq!(seqs, want, "records numbered without a gap (v{version})");
        let (published, result) = answers(&out);
        assert_eq!(published, result, "R5 (v{version}): {out}");
    }
}

/// The same with no `outcome` at all, and through a thinking and a tool stream: every
/// held tail released at the bad `run_end` must be recorded.
#[test]
fn bad_run_end_after_held_text_in_every_stream() {
    let trace = "{\"type\":\"thinking_delta\",\"text\":\"sk\"}\n\
                 {\"type\":\"tool_output_delta\",\"call_id\":\"c\",\"text\":\"xox\"}\n\
                 {\"type\":\"assistant_delta\",\"text\":\"gh\"}\n\
                 {\"type\":\"run_end\"}";
    let (out, seqs, error) = run(trace, 8);
    assert!(
        matches!(error, Some(Error::Trace { line: 4, .. })),
        "{error:?}"
    );
    let want: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, want, "records numbered without a gap: {out}");
    let (published, result) = answers(&out);
    assert_eq!(published, result);
    assert_eq!(published, "gh");
}

/// project_events, fuzz/artifacts/project_events/crash-39db74132d891a20e516a085f302757db6620e37:
/// a `turn_end` whose `usage` is not an object. The trace error's reason quotes the
/// value unscrubbed; the result's `error.message` is scrubbed, but the reason is also
/// the `TraceError` text, which `scrubline project` and `iteron run` print on stderr
/// (`scrubline: trace line 1: turn_end.usage must be an object, not " ghp_… "`).
#[test]
fn trace_error_reason_never_carries_a_credential() {
    let token = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e";
    for field in ["usage", "context"] {
        let trace = format!("{{\"type\":\"turn_end\",\"{field}\":\" {token} \"}}");
        let (out, _, error) = run(&trace, 8);
        let Some(Error::Trace { line: 1, reason }) = error else {
            panic!("{error:?}");
        };
        assert!(!reason.contains("ghp_R7kQ2mX9"), "reason: {reason}");
        assert!(!out.contains("ghp_R7kQ2mX9"), "stdout: {out}");
    }
    let trace = format!("{{\"type\":\"turn_end\",\"context\":{{\"components\":[\" {token} \"]}}}}");
    let (_, _, error) = run(&trace, 8);
    let Some(Error::Trace { reason, .. }) = error else {
        panic!("{error:?}");
    };
    assert!(!reason.contains("ghp_R7kQ2mX9"), "reason: {reason}");
}

/// What the stdout side already gets right for the same input (kept green): the
/// result's `error.message` is scrubbed, one result line, last.
#[test]
fn trace_error_in_the_result_is_scrubbed() {
    let trace = "{\"type\":\"turn_end\",\"usage\":\" ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e \"}";
    let (out, seqs, error) = run(trace, 8);
    assert!(matches!(error, Some(Error::Trace { line: 1, .. })));
    assert!(!out.contains("ghp_R7kQ2mX9"), "{out}");
    assert_eq!(seqs, vec![1]);
    let lines = lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "run_done");
    assert_eq!(lines[1]["type"], "result");
    assert_eq!(lines[1]["error"]["line"], 1);
}

/// project_events, fuzz/artifacts/project_events/crash-800c9d5f2ca5221615c7a0d52d416d59450d05a5
/// (minimized by hand): the same refusal, with the credential where the 300-byte bound on
/// a trace error's message falls. The message was cut first and scrubbed after, so the
/// scrubber saw a token one character short, no credential, and let 39 of its 40
/// characters through to stderr and to the result's `error.message` (D1). Wherever the
/// cut falls, no recognisable part of the credential may leave.
#[test]
fn a_credential_cut_by_the_error_bound_never_leaves() {
    let token = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e";
    for pad in 200..320 {
        let trace = format!(
            "{{\"type\":\"turn_end\",\"usage\":\"{} {token} \"}}",
            "x".repeat(pad)
        );
        let (out, _, error) = run(&trace, 8);
        let Some(Error::Trace { line: 1, reason }) = error else {
            panic!("{error:?}");
        };
        assert!(
            reason.len() <= 300,
            "the message stays bounded: {}",
            reason.len()
        );
        assert!(
            !reason.contains("ghp_R7kQ2mX9"),
            "pad {pad}, reason: {reason}"
        );
        assert!(!out.contains("ghp_R7kQ2mX9"), "pad {pad}, stdout: {out}");
    }
}
