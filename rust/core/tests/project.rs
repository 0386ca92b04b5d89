//! The run boundary (docs/contract.md §3–4, docs/projection.md): golden fixtures shared with the
//! Python tests (tests/fixtures/traces), bad input as typed errors, and the redaction
//! property over random traces with credentials split across deltas.
//!
//! `UPDATE_GOLDEN=1 cargo test -p scrubline-core --test project` rewrites the expected
//! files; review the diff before committing it.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use scrubline_core::{Boundary, BoundaryConfig, Error, Finish, RuleSet, SchemaVersion, Step};
use serde_json::Value;

fn traces_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/traces")
}

/// A CLI stream version, or 7: the resident App Server's.
fn schema(version: u8) -> SchemaVersion {
    match version {
        7 => SchemaVersion::resident(7).unwrap(),
        v => SchemaVersion::new(v as i64).unwrap(),
    }
}

fn boundary(version: u8, max_turn_tokens: Option<u64>) -> Boundary {
    Boundary::new(BoundaryConfig {
        version: schema(version),
        run_id: "RUN".into(),
        rules: RuleSet::builtin(),
        max_turn_tokens,
    })
}

/// Drive a whole trace through a boundary as `scrubline project` does; returns stdout
/// and the stored records.
fn run(trace: &[u8], version: u8, max: Option<u64>) -> (Vec<u8>, Vec<Vec<u8>>) {
    let mut b = boundary(version, max);
    let mut out = Vec::new();
    let mut records = Vec::new();
    let mut finish = Finish::default();
    for (i, line) in trace.split(|&c| c == b'\n').enumerate() {
        match b.admit(line, i as u64 + 1) {
            Ok(step) => {
                out.extend(step.out);
                records.extend(step.records.into_iter().map(|r| r.body));
            }
            Err(Error::Trace { line, reason }) => {
                finish.outcome = Some("failed".into());
                finish.error = Some(("bad_input".into(), reason, Some(line)));
                finish.exit_code = Some(65);
                break;
            }
            Err(e) => panic!("{e}"),
        }
        if b.stopped() {
            break;
        }
    }
    let (step, _) = b.finish(finish);
    out.extend(step.out);
    records.extend(step.records.into_iter().map(|r| r.body));
    (out, records)
}

/// The volatile values of a result (latencies, run id) set to fixed ones: the test
/// normalizes, the engine never omits.
fn normalize(out: &[u8]) -> String {
    let mut lines: Vec<String> = String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    if let Some(last) = lines.last_mut() {
        let mut v: Value = serde_json::from_str(last).unwrap();
        v["run_id"] = "RUN".into();
        if let Some(k) = v.get_mut("kernel_tax") {
            for f in [
                "admission_latency_us",
                "broker_latency_us",
                "record_fsync_latency_us",
            ] {
                k[f] = 0.into();
            }
        }
        *last = serde_json::to_string(&v).unwrap();
    }
    lines.join("\n") + "\n"
}

fn case_options() -> Value {
    let p = traces_dir().join("options.json");
    std::fs::read(p)
        .map(|b| serde_json::from_slice(&b).unwrap())
        .unwrap_or(Value::Null)
}

#[test]
fn e6_golden_fixtures_every_version() {
    let opts = case_options();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut cases = 0;
    for entry in std::fs::read_dir(traces_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(case) = name.strip_suffix(".trace.jsonl") else {
            continue;
        };
        if opts[case]["store"] == true {
            continue; // needs an artifact store: tests/test_iteron.py checks it
        }
        cases += 1;
        let max = opts[case]["max_turn_tokens"].as_u64();
        let trace = std::fs::read(&path).unwrap();
        for v in SchemaVersion::SUPPORTED.into_iter().chain([7]) {
            let (out, _) = run(&trace, v, max);
            let got = normalize(&out);
            let golden = traces_dir().join(format!("{case}.v{v}.jsonl"));
            if update {
                std::fs::write(&golden, &got).unwrap();
            }
            let want = std::fs::read_to_string(&golden)
                .unwrap_or_else(|_| panic!("missing {golden:?}: run with UPDATE_GOLDEN=1"));
            assert_eq!(got, want, "{case} v{v} differs from {golden:?}");
        }
    }
    assert!(cases >= 5, "only {cases} golden cases found");
}

fn lines(out: &[u8]) -> Vec<Value> {
    out.split(|&c| c == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("every stdout line is JSON (O6)"))
        .collect()
}

#[test]
fn o6_bad_input_is_a_typed_error_then_a_failed_result() {
    let good = br#"{"type":"assistant_delta","text":"hello "}"#;
    let deep = "[".repeat(100_000);
    let huge = vec![b'x'; scrubline_core::project::MAX_LINE + 1];
    let bad: Vec<(&[u8], &str)> = vec![
        (b"not json", "not valid JSON"),
        (b"[1,2]", "not a JSON object"),
        (br#"{"text":"x"}"#, "no \"type\""),
        (br#"{"type":7}"#, "non-empty string"),
        (b"{\"type\":\"x\",\"t\":\"\xff\"}", "invalid UTF-8"),
        (deep.as_bytes(), "not valid JSON"),
        (&huge, "bound is"),
        (br#"{"type":"notice","text":"\ud800"}"#, "not valid JSON"),
        (
            br#"{"type":"turn_end","usage":{"input":-1}}"#,
            "non-negative integer",
        ),
        (
            br#"{"type":"turn_end","context":{"estimated_tokens":5,"components":{"memory_tokens":6}}}"#,
            "E4",
        ),
        (br#"{"type":"run_end","outcome":"ok"}"#, "run_end.outcome"),
    ];
    for (line, why) in bad {
        for v in SchemaVersion::SUPPORTED {
            let mut b = boundary(v, None);
            let first = b.admit(good, 1).unwrap();
            let err = b.admit(line, 2).unwrap_err();
            let Error::Trace { line: n, reason } = &err else {
                panic!("{err:?}")
            };
            assert_eq!(*n, 2);
            assert!(reason.contains(why), "{reason:?} lacks {why:?}");
            let (end, result) = b.finish(Finish {
                outcome: Some("failed".into()),
                error: Some(("bad_input".into(), reason.clone(), Some(2))),
                exit_code: Some(65),
                ..Finish::default()
            });
            let mut all = first.out.clone();
            all.extend(&end.out);
            let ls = lines(&all);
            let r: Value = serde_json::from_slice(&result).unwrap();
            assert_eq!(ls.last().unwrap(), &r);
            assert_eq!(r["success"], false);
            assert_eq!(r["exit_code"], 65);
            assert_eq!(r["error"]["line"], 2);
            assert_eq!(r["assistant_text"], "hello ");
        }
    }
}

#[test]
fn r5_thinking_never_in_the_answer_and_unknown_types_are_kept_unpublished() {
    let trace = br#"{"type":"thinking_delta","text":"secret plan"}
{"type":"assistant_delta","text":"the answer"}
{"type":"future_thing","x":1}
{"type":"run_end","outcome":"drained","reason":"quiesced"}"#;
    for v in SchemaVersion::SUPPORTED {
        let (out, records) = run(trace, v, None);
        let ls = lines(&out);
        let r = ls.last().unwrap();
        assert_eq!(r["assistant_text"], "the answer");
        assert_eq!(r["outcome"], "drained");
        assert_eq!(r["success"], true);
        assert_eq!(r["exit_code"], 0);
        assert_eq!(r.get("kernel_tax").is_some(), v >= 5, "R2 v{v}");
        assert!(ls.iter().all(|l| l["type"] != "future_thing"));
        assert!(records
            .iter()
            .any(|r| r.windows(12).any(|w| w == b"future_thing")));
        assert!(ls.iter().all(|l| l["schema_version"] == v as u64));
    }
}

#[test]
fn a3_without_a_store_an_artifact_is_refused_and_counted() {
    let trace = br#"{"type":"artifact","schema":"report","path":"a.md","content_text":"x"}
{"type":"artifact","schema":"report","path":"b.md","content_b64":"eA=="}
{"type":"artifact_produced","artifact":{"hash":"sha256:00"}}
{"type":"run_end","outcome":"done"}"#;
    for v in SchemaVersion::SUPPORTED {
        let (out, records) = run(trace, v, None);
        let ls = lines(&out);
        let notices: Vec<&str> = ls
            .iter()
            .filter(|l| l["type"] == "notice")
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        assert_eq!(notices.len(), 2);
        assert!(
            notices[1].ends_with("(2 refused so far)."),
            "{}",
            notices[1]
        );
        assert!(ls.iter().all(|l| l["type"] != "artifact_produced"));
        // The forged handle is kept, as `untrusted`, and published as nothing.
        assert!(records
            .iter()
            .any(|r| String::from_utf8_lossy(r).contains(r#""type":"untrusted""#)));
    }
    let mut b = boundary(8, None);
    let err = b
        .admit(
            br#"{"type":"artifact","content_text":"x","content_b64":"eA=="}"#,
            1,
        )
        .unwrap_err();
    assert!(err.to_string().contains("exactly one of"), "{err}");
}

#[test]
fn tool_output_is_bounded_and_says_so() {
    let chunk = "y".repeat(10_000);
    let mut trace = String::from(r#"{"type":"tool_start","call_id":"c","tool":"cat"}"#);
    for _ in 0..10 {
        trace.push_str(&format!(
            "\n{{\"type\":\"tool_output_delta\",\"call_id\":\"c\",\"text\":\"{chunk}é\"}}"
        ));
    }
    trace.push_str("\n{\"type\":\"tool_end\",\"call_id\":\"c\",\"status\":\"completed\"}");
    let (out, _) = run(trace.as_bytes(), 8, None);
    let end = lines(&out)
        .into_iter()
        .find(|l| l["type"] == "tool_end")
        .unwrap();
    let output = end["output"].as_str().unwrap();
    assert!(output.len() <= scrubline_core::project::TOOL_OUTPUT_MAX);
    assert!(output.len() > scrubline_core::project::TOOL_OUTPUT_MAX - 4);
    assert_eq!(end["output_truncated"], true);
}

/// Credentials the property plants, one per family the scrubber must catch.
const SECRETS: [&str; 4] = [
    "ghp_Zq3xY8wV2uT6sR4pO0nM1lK9jH7gF5dEcB3a",
    "AKIAL6O7XOD53ERXOLQB",
    "sk-ant-api03-TxTgrMRH9oxmpAAMCVatSA_JWbh3ARtEAFTz6XGMKg2f-EPwqcyRhq04Ilv0I08t10sdwN8yQZ4kQvq7wNyuZwGtL6JC5AA",
    "xoxb-815467859869-4970042357028-fbuvmHEdPXrW2EfY3ARlMvsn",
];

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// D1/D2: whatever the split points, no planted credential reaches stdout or a
    /// record, in any version; and the answer equals scrubbing the whole answer.
    #[test]
    fn d2_no_credential_survives_any_split(
        which in 0..SECRETS.len(),
        prefix in "[a-z ]{0,12}",
        cuts in proptest::collection::vec(0usize..200, 1..5),
        tool_cut in 0usize..60,
        v in proptest::sample::select(SchemaVersion::SUPPORTED.to_vec()),
    ) {
        let secret = SECRETS[which];
        let answer = format!("{prefix}token {secret} done");
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (answer.len() + 1)).collect();
        points.push(0);
        points.push(answer.len());
        points.sort();
        points.dedup();
        let mut trace = String::new();
        for w in points.windows(2) {
            let piece = &answer[w[0]..w[1]];
            trace.push_str(&format!("{{\"type\":\"assistant_delta\",\"text\":{}}}\n", json_str(piece)));
            trace.push_str(&format!("{{\"type\":\"thinking_delta\",\"text\":{}}}\n", json_str(piece)));
        }
        let tool = format!("out {secret}\n");
        let t = tool_cut % (tool.len() + 1);
        trace.push_str("{\"type\":\"tool_start\",\"call_id\":\"c1\",\"tool\":\"bash\"}\n");
        for piece in [&tool[..t], &tool[t..]] {
            trace.push_str(&format!("{{\"type\":\"tool_output_delta\",\"call_id\":\"c1\",\"text\":{}}}\n", json_str(piece)));
        }
        trace.push_str(&format!("{{\"type\":\"notice\",\"text\":{}}}\n", json_str(&tool)));
        trace.push_str("{\"type\":\"tool_end\",\"call_id\":\"c1\",\"status\":\"completed\"}\n");
        trace.push_str("{\"type\":\"run_end\",\"outcome\":\"done\"}");
        let (out, records) = run(trace.as_bytes(), v, None);
        let needle = &secret[..12];
        let text = String::from_utf8(out.clone()).unwrap();
        prop_assert!(!text.contains(needle), "stdout leaks: {}", text);
        for r in &records {
            prop_assert!(!String::from_utf8_lossy(r).contains(needle));
        }
        let ls = lines(&out);
        let answer_out: String = ls.iter()
            .filter(|l| l["type"] == "assistant_text")
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        let whole = String::from_utf8(scrubline_core::scrub(&RuleSet::builtin(), answer.as_bytes())).unwrap();
        prop_assert_eq!(&answer_out, &whole);
        prop_assert_eq!(ls.last().unwrap()["assistant_text"].as_str().unwrap(), whole.as_str());
    }
}

/// One field of a generated trace line: its key and its value's JSON.
fn field_strategy() -> impl Strategy<Value = (String, String)> {
    let text = prop_oneof![
        "[a-z \n\"\\\\\u{e9}\u{1F600}\\x00-\\x1f]{0,30}",
        (0..SECRETS.len(), 0usize..60, "[a-z ]{0,8}").prop_map(|(i, cut, p)| {
            let s = format!("{p} {} x", SECRETS[i]);
            s[..cut.min(s.len())].to_string()
        }),
        (0..SECRETS.len(), 0usize..60).prop_map(|(i, cut)| {
            let s = format!("tail {} end", SECRETS[i]);
            s[cut.min(s.len())..].to_string()
        }),
    ];
    prop_oneof![
        6 => text.clone().prop_map(|t| ("text".to_string(), json_str(&t))),
        2 => text.prop_map(|t| {
            // The same text with every character \u-escaped (surrogate pairs included).
            let mut e = String::from("\"");
            for u in t.encode_utf16() {
                e.push_str(&format!("\\u{u:04x}"));
            }
            e.push('"');
            ("text".to_string(), e)
        }),
        2 => proptest::sample::select(vec!["c1", "c2", "c\\u0031"])
            .prop_map(|c| ("call_id".to_string(), format!("\"{c}\""))),
        1 => (0..SECRETS.len()).prop_map(|i| ("note".to_string(), json_str(&format!("key {}", SECRETS[i])))),
        1 => proptest::sample::select(vec![
            ("seq", "\"9\""), ("turn", "\"7\""), ("run_id", "\"r\""), ("n", "5"),
            ("obj", "{\"a\":\"b\"}"), ("text", "null"), ("text", "3"), ("call_id", "4"),
            ("t\\u0065xt", "\"esc key\""), ("stream", "\"stdout\""), ("output", "\"o\""),
        ]).prop_map(|(k, v)| (k.to_string(), v.to_string())),
    ]
}

fn line_strategy() -> impl Strategy<Value = String> {
    let ty = proptest::sample::select(vec![
        "\"assistant_delta\"",
        "\"assistant_delta\"",
        "\"thinking_delta\"",
        "\"tool_output_delta\"",
        "\"tool_output_delta\"",
        "\"tool_\\u006futput_delta\"",
        "\"phase\"",
        "\"\"",
        "7",
    ]);
    let delta = (
        ty,
        proptest::collection::vec(field_strategy(), 0..4),
        0usize..4,
        "[ \t]{0,1}",
    )
        .prop_map(|(ty, fields, at, ws)| {
            let mut parts: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("\"{k}\":{ws}{v}"))
                .collect();
            parts.insert(at.min(parts.len()), format!("\"type\"{ws}:{ty}"));
            format!("{ws}{{{}}}{ws}", parts.join(","))
        });
    prop_oneof![
        12 => delta,
        1 => Just("{\"type\":\"turn_end\",\"usage\":{\"input\":1,\"output\":2}}".to_string()),
        1 => proptest::sample::select(vec!["c1", "c2"])
            .prop_map(|c| format!("{{\"type\":\"tool_end\",\"call_id\":\"{c}\",\"status\":\"ok\"}}")),
        1 => Just("{\"type\":\"assistant_delta\",\"text\":\"cut".to_string()),
        1 => Just("{\"type\":\"assistant_delta\",\"text\":\"\u{e9}\"}".replace('\u{e9}', "\u{fffd}")),
    ]
}

/// What one admission gave: its records and published lines, or the error message.
type Admitted = Result<(Vec<Vec<u8>>, String), String>;

/// Admit `lines` (a bad line ends the run as the CLI ends it): every step's records
/// and lines, then the normalized result.
fn admit_all(mut b: Boundary, lines: &[Vec<u8>]) -> (Vec<Admitted>, String) {
    let mut steps = Vec::new();
    let mut finish = Finish::default();
    for (i, line) in lines.iter().enumerate() {
        match b.admit(line, i as u64 + 1) {
            Ok(step) => steps.push(Ok((
                step.records.into_iter().map(|r| r.body).collect(),
                String::from_utf8(step.out).unwrap(),
            ))),
            Err(e) => {
                steps.push(Err(e.to_string()));
                finish.outcome = Some("failed".into());
                break;
            }
        }
    }
    let (step, _) = b.finish(finish);
    (steps, normalize(&step.out))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The borrowed path for text deltas is an optimisation only: line by line, it
    /// writes the same records and published lines (and refuses the same lines with the
    /// same message) as the general path, in every version, whatever the fields, their
    /// order, their escapes, a credential split across deltas or invalid UTF-8.
    #[test]
    fn delta_fast_path_equals_the_general_path(
        lines in proptest::collection::vec(line_strategy(), 1..24),
        bad_utf8 in proptest::option::of(0usize..24),
        v in proptest::sample::select(SchemaVersion::SUPPORTED.to_vec()),
    ) {
        let mut bytes: Vec<Vec<u8>> = lines.iter().map(|l| l.clone().into_bytes()).collect();
        if let Some(i) = bad_utf8 {
            let i = i % bytes.len();
            let at = bytes[i].len() / 2;
            bytes[i].insert(at, 0xff);
        }
        let fast = admit_all(boundary(v, None), &bytes);
        let general = admit_all(boundary(v, None).general_path_only(), &bytes);
        prop_assert_eq!(&fast, &general);
        // A caller that keeps no records gets the same published lines.
        let mut b = boundary(v, None);
        let mut lean = Vec::new();
        for (i, line) in bytes.iter().enumerate() {
            let mut step = Step { no_records: true, ..Default::default() };
            match b.admit_many(std::slice::from_ref(line), i as u64 + 1, &mut step) {
                (_, None) => {
                    prop_assert!(step.records.is_empty());
                    lean.push(Ok(String::from_utf8(step.out).unwrap()));
                }
                (_, Some(e)) => {
                    lean.push(Err(e.to_string()));
                    break;
                }
            }
        }
        let published: Vec<Result<String, String>> = fast.0.iter()
            .map(|r| r.clone().map(|(_, out)| out))
            .collect();
        prop_assert_eq!(lean, published);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `admit_block` (a read's lines in one buffer, split by the boundary) admits
    /// exactly what `admit_many` admits over the same lines: the same records, lines,
    /// stop and error, and it reports where it stopped, so the caller resumes there.
    #[test]
    fn admit_block_equals_admit_many_over_its_lines(
        lines in proptest::collection::vec(prop_oneof![
            8 => line_strategy(),
            1 => Just(String::new()),
            1 => Just("{\"type\":\"run_end\",\"outcome\":\"done\"}".to_string()),
        ], 1..20),
        newline_at_end in any::<bool>(),
        v in proptest::sample::select(SchemaVersion::SUPPORTED.to_vec()),
    ) {
        let mut block = lines.join("\n").into_bytes();
        // A block ends with its last line's newline, or the line is not empty (a last
        // empty line without one is no line at all).
        if newline_at_end || lines.last().is_some_and(String::is_empty) {
            block.push(b'\n');
        }
        let (mut a, mut b) = (boundary(v, None), boundary(v, None));
        let (mut sa, mut sb) = (Step::default(), Step::default());
        let (n, used, ea) = a.admit_block(&block, 7, &mut sa);
        let (m, eb) = b.admit_many(&lines, 7, &mut sb);
        prop_assert_eq!(n as usize, m);
        prop_assert_eq!(ea.map(|e| e.to_string()), eb.map(|e| e.to_string()));
        prop_assert_eq!(&sa.out, &sb.out);
        prop_assert_eq!(&sa.records, &sb.records);
        // `used` bytes hold exactly the consumed lines (and their newlines).
        let consumed: usize = lines[..m].iter().map(|l| l.len() + 1).sum();
        prop_assert_eq!(used, consumed.min(block.len()));
    }
}

#[test]
fn r4_an_estimated_cost_is_never_cost_usd_and_is_named() {
    let trace = br#"{"type":"cost","usd":0.5,"source":"cli","status":"estimated"}
{"type":"run_end","outcome":"done"}"#;
    let (out, records) = run(trace, 8, None);
    let result = lines(&out).pop().unwrap();
    assert_eq!(result["cost_usd"], Value::Null);
    assert_eq!(result["cost_status"], "unknown");
    assert_eq!(
        result["cost_reason"],
        "cli reported 0.5 USD as an estimate, not a bill"
    );
    assert!(String::from_utf8_lossy(&records[0]).contains(r#""status":"estimated""#));
    let billed = br#"{"type":"cost","usd":0.5,"source":"cli","status":"billed"}
{"type":"run_end","outcome":"done"}"#;
    let result = lines(&run(billed, 8, None).0).pop().unwrap();
    assert_eq!(
        (result["cost_usd"].as_f64(), &result["cost_status"]),
        (Some(0.5), &Value::from("reported"))
    );
}

#[test]
fn o3_version_7_is_resident_only() {
    let err = SchemaVersion::new(7).unwrap_err().to_string();
    assert!(err.contains("resident App Server protocol"), "{err}");
    assert_eq!(SchemaVersion::resident(7).unwrap().get(), 7);
    for v in [4, 5, 6, 8, 9, -1] {
        assert!(SchemaVersion::resident(v).is_err(), "{v}");
    }
}

/// P-v7: the resident stream is the v8 vocabulary with `schema_version: 7` and the run
/// named in every event, right after `schema_version`; the result is v8's with 7.
#[test]
fn v7_is_v8_with_the_run_named_in_every_event() {
    let opts = case_options();
    for entry in std::fs::read_dir(traces_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(case) = name.strip_suffix(".trace.jsonl") else {
            continue;
        };
        if opts[case]["store"] == true {
            continue;
        }
        let max = opts[case]["max_turn_tokens"].as_u64();
        let trace = std::fs::read(&path).unwrap();
        let v7 = normalize(&run(&trace, 7, max).0);
        let v8 = normalize(&run(&trace, 8, max).0);
        let (v7, v8): (Vec<&str>, Vec<&str>) = (v7.lines().collect(), v8.lines().collect());
        assert_eq!(v7.len(), v8.len(), "{case}");
        for (a, b) in v7.iter().zip(&v8) {
            let mut want: serde_json::Map<String, Value> = serde_json::from_str(b).unwrap();
            want["schema_version"] = 7.into();
            let got: serde_json::Map<String, Value> = serde_json::from_str(a).unwrap();
            if want["type"] != "result" {
                assert_eq!(
                    got.keys().nth(2).map(String::as_str),
                    Some("run_id"),
                    "{case}"
                );
                assert_eq!(got["run_id"], "RUN");
                want.insert("run_id".into(), "RUN".into());
            }
            assert_eq!(Value::Object(got), Value::Object(want), "{case}");
        }
    }
}

/// P4: a submission still queued when a limit stops the run is rejected on the record,
/// scrubbed, after the stop and before the run's end.
#[test]
fn p4_a_rejection_after_a_limit_stop_comes_before_run_done() {
    let mut b = boundary(7, Some(10));
    b.admit(
        br#"{"type":"turn_end","usage":{"input":50,"output":50}}"#,
        1,
    )
    .unwrap();
    assert!(b.stopped());
    let step = b.submission_rejected(
        "sq-1",
        "stopped; token ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e",
    );
    let (end, _) = b.finish(Finish::default());
    let out = [step.out, end.out].concat();
    let events = lines(&out);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds[kinds.len() - 3..],
        ["submission_rejected", "run_done", "result"]
    );
    let rejected = &events[kinds.len() - 3];
    assert_eq!(rejected["submission_id"], "sq-1");
    assert_eq!(rejected["run_id"], "RUN");
    assert!(rejected["reason"]
        .as_str()
        .unwrap()
        .contains("[REDACTED:github-pat]"));
    let seqs: Vec<u64> = events[..events.len() - 1]
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
}
