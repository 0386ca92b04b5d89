//! Foreign stream translators (docs/agents.md): the borrowed path equals the general
//! path, dirty lines become bounded scrubbed notices, and the end of a stream is judged
//! from the last events and the exit evidence.

use std::path::PathBuf;

use proptest::prelude::*;
use scrubline_core::adapt::{Exit, Tool, Translator};
use scrubline_core::RuleSet;
use serde_json::Value;

fn agents_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/agents")
}

fn fixtures(tool: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(agents_dir().join(tool))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            name.ends_with(".jsonl") && !name.contains(".v")
        })
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

fn translate(tool: Tool, data: &[u8], fast: bool, exit: Exit) -> (Vec<u8>, String) {
    let mut t = Translator::new(tool, RuleSet::builtin());
    if !fast {
        t = t.general_path_only();
    }
    let mut out = t.translate(data, 1);
    let (tail, ending) = t.finish(exit);
    out.extend_from_slice(&tail);
    (
        out,
        format!("{} {} {}", ending.outcome, ending.reason, ending.exit_code),
    )
}

fn events(out: &[u8]) -> Vec<Value> {
    out.split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

#[test]
fn the_borrowed_path_equals_the_general_path_on_every_fixture() {
    for (tool, name) in [
        (Tool::ClaudeCode, "claude-code"),
        (Tool::Codex, "codex"),
        (Tool::Gemini, "gemini"),
    ] {
        for (path, data) in fixtures(name) {
            let fast = translate(tool, &data, true, Exit::default());
            let general = translate(tool, &data, false, Exit::default());
            // Same events (the borrowed path writes a tool input as it came: compare trees).
            assert_eq!(events(&fast.0), events(&general.0), "{path}");
            assert_eq!(fast.1, general.1, "{path}");
        }
    }
}

fn claude_line() -> impl Strategy<Value = String> {
    let text = "[a-zA-Z0-9 \\n\"\\\\é✓]{0,40}";
    prop_oneof![
        (text, any::<bool>()).prop_map(|(t, think)| {
            let block = if think {
                serde_json::json!({"type": "thinking", "thinking": t, "signature": "EpY"})
            } else {
                serde_json::json!({"type": "text", "text": t})
            };
            serde_json::json!({"type": "assistant", "message": {"id": "m", "content": [block], "usage": {"input_tokens": 1}}, "parent_tool_use_id": null}).to_string()
        }),
        (text, 0u8..3).prop_map(|(t, k)| {
            let input = match k {
                0 => serde_json::json!({"command": t}),
                1 => serde_json::json!({"description": 7, "file_path": t}),
                _ => serde_json::json!(["not", "an", "object"]),
            };
            serde_json::json!({"type": "assistant", "message": {"id": "m", "content": [{"type": "tool_use", "id": "c1", "name": "Bash", "input": input}]}}).to_string()
        }),
        (text, any::<bool>(), any::<bool>()).prop_map(|(t, err, blocks)| {
            let content = if blocks { serde_json::json!([{"type": "text", "text": t}]) } else { Value::String(t) };
            serde_json::json!({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "c1", "content": content, "is_error": err}]}, "tool_use_result": {"stdout": "dup"}}).to_string()
        }),
        Just(r#"{"type":"system","subtype":"thinking_tokens","estimated_tokens":3}"#.to_string()),
        Just(r#"{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"a"}]},"message":{"id":"n","content":[]}}"#.to_string()),
    ]
}

proptest! {
    #[test]
    fn claude_borrowed_and_general_paths_agree(lines in prop::collection::vec(claude_line(), 1..12)) {
        let mut data = br#"{"type":"system","subtype":"init","model":"m"}"#.to_vec();
        for l in &lines {
            data.push(b'\n');
            data.extend_from_slice(l.as_bytes());
        }
        let fast = translate(Tool::ClaudeCode, &data, true, Exit::default());
        let general = translate(Tool::ClaudeCode, &data, false, Exit::default());
        prop_assert_eq!(events(&fast.0), events(&general.0));
    }
}

#[test]
fn a_prefix_glued_to_a_json_line_is_a_notice_and_the_rest_an_event() {
    let data = b"MCP issues detected.{\"type\":\"init\",\"model\":\"auto\"}\n{\"type\":\"result\",\"status\":\"success\"}\n";
    let (out, ending) = translate(Tool::Gemini, data, true, Exit::default());
    let ev = events(&out);
    // The banner waits for the run's start.
    assert_eq!(ev[0]["type"], "run_start");
    assert_eq!(ev[0]["model"], "auto");
    assert_eq!(ev[1]["type"], "notice");
    assert_eq!(ev[1]["text"], "MCP issues detected.");
    assert_eq!(ending, "done completed 0");
}

#[test]
fn a_long_junk_line_is_scrubbed_then_cut() {
    let cred = "ghp_R7kQ2mX9pL4vB8nT3wZ6yC1dF5gH0jK2sA4e";
    // The credential straddles the notice bound: scrubbed first, it cannot leave a piece.
    let line = format!("{} {cred} {}\n", "x".repeat(4080), "y".repeat(9000));
    let (out, _) = translate(Tool::Codex, line.as_bytes(), true, Exit::default());
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains("ghp_R7kQ"), "{}", &text[..200]);
    let ev = events(text.as_bytes());
    assert!(ev[1]["text"].as_str().unwrap().len() < 4200);
}

#[test]
fn no_terminal_event_is_judged_by_the_exit_evidence() {
    let data = br#"{"type":"thread.started","thread_id":"t"}"#;
    let cases = [
        (
            Exit {
                code: Some(0),
                signal: None,
            },
            "failed no_terminal_event 1",
        ),
        (
            Exit {
                code: None,
                signal: Some(2),
            },
            "cancelled codex was interrupted (killed by signal 2) 130",
        ),
        (
            Exit {
                code: None,
                signal: Some(15),
            },
            "cancelled codex was interrupted (killed by signal 15) 143",
        ),
        (
            Exit {
                code: Some(130),
                signal: None,
            },
            "cancelled codex was interrupted (exit status 130) 130",
        ),
        (
            Exit {
                code: None,
                signal: Some(9),
            },
            "failed no_terminal_event 1",
        ),
    ];
    for (exit, want) in cases {
        assert_eq!(translate(Tool::Codex, data, true, exit).1, want);
    }
    let gemini = br#"{"type":"init","model":"auto"}"#;
    let limit = Exit {
        code: Some(53),
        signal: None,
    };
    assert_eq!(
        translate(Tool::Gemini, gemini, true, limit).1,
        "limit max_session_turns 3"
    );
    let auth = Exit {
        code: Some(41),
        signal: None,
    };
    assert_eq!(
        translate(Tool::Gemini, gemini, true, auth).1,
        "failed gemini_exit_41 1"
    );
}

#[test]
fn a_clean_result_then_a_crash_is_not_a_success() {
    let data = b"{\"type\":\"system\",\"subtype\":\"init\"}\n{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false}\n";
    let crash = Exit {
        code: None,
        signal: Some(11),
    };
    assert_eq!(
        translate(Tool::ClaudeCode, data, true, crash).1,
        "failed exit_after_success 1"
    );
    let ok = Exit {
        code: Some(0),
        signal: None,
    };
    assert_eq!(
        translate(Tool::ClaudeCode, data, true, ok).1,
        "done completed 0"
    );
}

/// A JSON value of any shape, small.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        Just(serde_json::from_str::<Value>("1e400").unwrap_or(Value::Null)),
        Just(serde_json::from_str::<Value>("123456789012345678901234567890").unwrap()),
        "[a-z_ \u{e9}\u{1F600}]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "type",
        "subtype",
        "message",
        "content",
        "text",
        "thinking",
        "id",
        "name",
        "input",
        "tool_use_id",
        "is_error",
        "parent_tool_use_id",
        "item",
        "aggregated_output",
        "exit_code",
        "status",
        "role",
        "delta",
        "tool_id",
        "parameters",
        "output",
        "error",
        "usage",
        "stats",
        "result",
        "event",
        "changes",
        "items",
        "receiver_thread_ids",
        "total_cost_usd",
        "terminal_reason",
        "task_id",
        "tool_name",
        "severity",
    ])
    .prop_map(str::to_string)
}

fn foreign_line() -> impl Strategy<Value = Vec<u8>> {
    let ty = prop::sample::select(vec![
        "system",
        "assistant",
        "user",
        "result",
        "stream_event",
        "control_request",
        "thread.started",
        "item.started",
        "item.updated",
        "item.completed",
        "turn.completed",
        "turn.failed",
        "error",
        "init",
        "message",
        "tool_use",
        "tool_result",
        "unknown",
    ]);
    prop_oneof![
        (ty, prop::collection::vec((key(), any_json()), 0..6)).prop_map(|(t, kv)| {
            let mut m: serde_json::Map<String, Value> = kv.into_iter().collect();
            m.insert("type".into(), Value::String(t.into()));
            serde_json::to_vec(&Value::Object(m)).unwrap()
        }),
        prop::collection::vec(any::<u8>(), 0..40),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Whatever a foreign tool writes, its translation is a valid trace: the boundary
    /// admits every line (never a bad-input error), and the run ends with one result.
    #[test]
    fn any_foreign_stream_translates_to_a_trace_the_boundary_admits(
        tool in prop::sample::select(vec![Tool::ClaudeCode, Tool::Codex, Tool::Gemini]),
        lines in prop::collection::vec(foreign_line(), 0..10),
        code in prop::option::of(0i32..200),
    ) {
        let mut data = Vec::new();
        for l in &lines {
            data.extend_from_slice(l);
            data.push(b'\n');
        }
        let (out, _) = translate(tool, &data, true, Exit { code, signal: None });
        let mut b = scrubline_core::Boundary::new(scrubline_core::BoundaryConfig {
            version: scrubline_core::SchemaVersion::new(8).unwrap(),
            run_id: "R".into(),
            rules: RuleSet::builtin(),
            max_turn_tokens: None,
        });
        for (i, line) in out.split(|c| *c == b'\n').enumerate() {
            let r = b.admit(line, i as u64 + 1);
            prop_assert!(r.is_ok(), "{:?} on {}", r.err(), String::from_utf8_lossy(line));
        }
        let (step, _) = b.finish(scrubline_core::Finish::default());
        prop_assert!(step.out.ends_with(b"\n"));
        // And both paths agree on it.
        let general = translate(tool, &data, false, Exit { code, signal: None });
        prop_assert_eq!(events(&out), events(&general.0));
    }
}
