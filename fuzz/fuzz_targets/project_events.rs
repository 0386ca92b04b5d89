//! The run boundary fed well-formed traces : events of the known types
//! (docs/trace.md) with random text, built with `arbitrary`, so the fuzzer
//! explores the boundary's state (streams, tool calls, turns, limits, stops) instead of
//! the JSON parser.
//!
//! Oracles: those of `drive` (no panic; JSON lines with `type` and `schema_version`;
//! typed errors naming their line; one result line, last; records numbered without a
//! gap; the published `assistant_text` texts concatenate to the result's); and a GitHub
//! PAT planted between spaces in any text (scrubbed whole, or streamed and cut across
//! consecutive deltas of one stream) never shows its first 12 bytes on stdout or in a
//! record, unless the trace without it already contains them.
#![no_main]

use std::collections::HashMap;

use arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use scrubline_core::project::{COMPONENTS, WORKFLOW};
use scrubline_fuzz::{contains, drive, NEEDLE, TOKEN};
use serde_json::{json, Map, Value};

/// Fragments that start (or guard, or end) credentials, and bytes JSON and UTF-8 care
/// about.
const WORDS: &[&str] = &[
    "ghp_",
    "gho_",
    "github_pat_",
    "glpat-",
    "sk-",
    "sk-proj-",
    "sk-ant-api03-",
    "xoxb-",
    "xoxp-",
    "AKIA",
    "AIza",
    "sk_live_",
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9.",
    "password=",
    "PASSWORD: ",
    "\"password\": \"",
    "DB_PASSWORD=\"",
    "api_key=",
    "token: ",
    "secret=",
    "Authorization: Bearer ",
    "Authorization: Basic ",
    "-----BEGIN PRIVATE KEY-----\n",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n",
    "-----END PRIVATE KEY-----",
    "postgres://user:",
    "https://",
    "@db.example.com",
    "AccountKey=",
    "aws_secret_access_key = ",
    "machine api.example.com login me password ",
    "curl -u ",
    "Q~",
    "-us",
    ".atlasv1.",
    "AZDO",
    "${TOKEN}",
    "sha256:",
    "\n",
    "\r\n",
    "\t",
    "\\n",
    "\\",
    "\"",
    "'",
    " ",
    "=",
    ":",
    "é",
    "€",
    "😀",
    "\u{0}",
    "\u{7f}",
    "\u{2028}",
    "[REDACTED:github-pat]",
];

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
const HEX: &[u8] = b"0123456789abcdef";
const WORDY: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.";

#[derive(Arbitrary, Debug)]
enum Piece {
    Raw(String),
    Word(u8),
    /// `len` characters of one class, from a seed: material tokens are made of.
    Run {
        len: u8,
        seed: u16,
    },
    Plant,
}

#[derive(Arbitrary, Debug)]
struct Txt(Vec<Piece>);

impl Txt {
    /// The text; `planted` false renders the token as a single space (what the trace
    /// looks like without it: the token sits between spaces, so this changes no other
    /// byte's neighbourhood of non-space bytes).
    fn render(&self, planted: bool) -> String {
        let mut s = String::new();
        for p in &self.0 {
            match p {
                Piece::Raw(r) => s.push_str(r),
                Piece::Word(w) => s.push_str(WORDS[*w as usize % WORDS.len()]),
                Piece::Run { len, seed } => {
                    let class = [ALNUM, B64, HEX, WORDY][(*seed & 3) as usize];
                    let mut x = *seed as u32 | 1;
                    for _ in 0..*len {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        s.push(class[(x >> 16) as usize % class.len()] as char);
                    }
                }
                Piece::Plant => s.push_str(&plant(planted)),
            }
        }
        s
    }
}

fn plant(planted: bool) -> String {
    if planted {
        format!(" {} ", std::str::from_utf8(TOKEN).unwrap())
    } else {
        " ".into()
    }
}

/// A JSON value of bounded depth; strings are `Txt`, keys plain strings.
#[derive(Debug)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Txt),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn gen(u: &mut Unstructured, depth: u32) -> Result<Json> {
        let top = if depth >= 4 { 5 } else { 7 };
        Ok(match u.choose_index(top)? {
            0 => Json::Null,
            1 => Json::Bool(u.arbitrary()?),
            2 => Json::Int(u.arbitrary()?),
            3 => Json::Float(u.arbitrary()?),
            4 => Json::Str(u.arbitrary()?),
            5 => {
                let n = u.int_in_range(0..=3)?;
                Json::Arr(
                    (0..n)
                        .map(|_| Json::gen(u, depth + 1))
                        .collect::<Result<_>>()?,
                )
            }
            _ => {
                let n = u.int_in_range(0..=3)?;
                Json::Obj(
                    (0..n)
                        .map(|_| Ok((u.arbitrary()?, Json::gen(u, depth + 1)?)))
                        .collect::<Result<_>>()?,
                )
            }
        })
    }

    fn value(&self, p: bool) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Int(i) => json!(i),
            // NaN and infinities are not JSON: null, as serde_json writes them.
            Json::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Json::Str(t) => Value::String(t.render(p)),
            Json::Arr(a) => Value::Array(a.iter().map(|j| j.value(p)).collect()),
            Json::Obj(o) => Value::Object(o.iter().map(|(k, j)| (k.clone(), j.value(p))).collect()),
        }
    }
}

impl<'a> Arbitrary<'a> for Json {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Json> {
        Json::gen(u, 0)
    }
}

#[derive(Arbitrary, Debug)]
enum ErrVal {
    Str(Txt),
    Obj(Json),
}

#[derive(Arbitrary, Debug)]
enum Ev {
    RunStart {
        agent: Option<Txt>,
        model: Option<Txt>,
        prompt: Option<Txt>,
    },
    Phase(Txt),
    Assistant(Txt),
    Thinking(Txt),
    ToolOutput {
        call: u8,
        text: Txt,
    },
    /// One text of one stream with the token planted in it, cut into consecutive deltas.
    Split {
        stream: u8,
        call: u8,
        before: Txt,
        after: Txt,
        cuts: Vec<u16>,
    },
    Attachment {
        media_type: Option<Txt>,
        data: Option<String>,
        filename: Option<Txt>,
    },
    ToolStart {
        call: u8,
        tool: Txt,
        title: Option<Txt>,
        input: Option<Json>,
        needs_approval: Option<bool>,
    },
    ToolEnd {
        call: u8,
        status: u8,
        outcome: Option<u8>,
    },
    ApprovalRequest {
        request: u8,
        call: u8,
    },
    ApprovalResolved {
        request: u8,
        submission: u8,
        decision: Txt,
    },
    SteerSubmission {
        submission: u8,
        text: Txt,
    },
    ControlSubmission {
        submission: u8,
        control: Txt,
    },
    SubmissionRejected {
        submission: u8,
        reason: Txt,
    },
    SteerApplied(Txt),
    Notice {
        code: Option<Txt>,
        text: Txt,
    },
    /// A valid `turn_end` (the estimate covers the components) unless `strict` is false.
    TurnEnd {
        usage: Option<(u16, u16)>,
        estimate: Option<u32>,
        components: Option<[u8; 9]>,
        strict: bool,
    },
    /// `turn_end` with any `usage` and `context` (mostly bad input).
    TurnEndOdd {
        usage: Json,
        context: Json,
    },
    Workflow {
        kind: u8,
        workflow_id: Txt,
        agent_id: Option<Txt>,
        text: Txt,
        extra: Option<Json>,
    },
    Artifact {
        schema: Txt,
        path: Txt,
        content: Txt,
    },
    ArtifactProduced {
        artifact: Json,
    },
    Cost {
        usd: Option<u16>,
        source: Txt,
    },
    Unknown {
        ty: u8,
        fields: Json,
    },
    RunEnd {
        outcome: u8,
        reason: Option<Txt>,
        error: Option<ErrVal>,
    },
    Blank,
}

#[derive(Arbitrary, Debug)]
struct Input {
    ctl: u8,
    events: Vec<Ev>,
}

fn opt(t: &Option<Txt>, p: bool) -> Value {
    t.as_ref()
        .map_or(Value::Null, |t| Value::String(t.render(p)))
}

fn call_id(c: u8) -> String {
    format!("call_{}", c % 4)
}

/// The trace lines of one event (a `Split` is several), with the token or without it.
/// `streams` gathers each stream's text (to know whether the needle is already there).
fn lines(ev: &Ev, p: bool, streams: &mut HashMap<String, String>) -> Vec<String> {
    let mut stream = |key: String, text: &str| streams.entry(key).or_default().push_str(text);
    let v = match ev {
        Ev::Blank => return vec![String::new()],
        Ev::RunStart {
            agent,
            model,
            prompt,
        } => json!({
            "type": "run_start", "agent": opt(agent, p), "model": opt(model, p), "prompt": opt(prompt, p)
        }),
        Ev::Phase(t) => json!({"type": "phase", "phase": t.render(p)}),
        Ev::Assistant(t) => {
            let text = t.render(p);
            stream("assistant".into(), &text);
            json!({"type": "assistant_delta", "text": text})
        }
        Ev::Thinking(t) => {
            let text = t.render(p);
            stream("thinking".into(), &text);
            json!({"type": "thinking_delta", "text": text})
        }
        Ev::ToolOutput { call, text } => {
            let text = text.render(p);
            stream(format!("tool {}", call_id(*call)), &text);
            json!({"type": "tool_output_delta", "call_id": call_id(*call), "text": text})
        }
        Ev::Split {
            stream: which,
            call,
            before,
            after,
            cuts,
        } => {
            let text = format!("{}{}{}", before.render(p), plant(p), after.render(p));
            let (ty, key) = match which % 3 {
                0 => ("assistant_delta", "assistant".to_string()),
                1 => ("thinking_delta", "thinking".to_string()),
                _ => ("tool_output_delta", format!("tool {}", call_id(*call))),
            };
            stream(key, &text);
            // Cut points at character boundaries (a JSON string carries whole characters).
            let mut at: Vec<usize> = cuts
                .iter()
                .map(|&c| text.floor_char_boundary(c as usize % (text.len() + 1)))
                .collect();
            at.push(0);
            at.push(text.len());
            at.sort_unstable();
            at.dedup();
            return at
                .windows(2)
                .map(|w| {
                    let mut m = Map::new();
                    m.insert("type".into(), ty.into());
                    if ty == "tool_output_delta" {
                        m.insert("call_id".into(), call_id(*call).into());
                    }
                    m.insert("text".into(), text[w[0]..w[1]].into());
                    Value::Object(m).to_string()
                })
                .collect();
        }
        Ev::Attachment {
            media_type,
            data,
            filename,
        } => json!({
            "type": "input_attachment", "media_type": opt(media_type, p),
            "data_b64": data, "filename": opt(filename, p)
        }),
        Ev::ToolStart {
            call,
            tool,
            title,
            input,
            needs_approval,
        } => json!({
            "type": "tool_start", "call_id": call_id(*call), "tool": tool.render(p),
            "title": opt(title, p), "input": input.as_ref().map(|j| j.value(p)),
            "needs_approval": needs_approval
        }),
        Ev::ToolEnd {
            call,
            status,
            outcome,
        } => json!({
            "type": "tool_end", "call_id": call_id(*call),
            "status": (["completed", "failed", "denied"][*status as usize % 3]),
            "outcome": outcome.map(|o| ["ok", "failed"][o as usize % 2])
        }),
        Ev::ApprovalRequest { request, call } => json!({
            "type": "approval_request", "request_id": format!("req_{}", request % 4),
            "call_id": call_id(*call)
        }),
        Ev::ApprovalResolved {
            request,
            submission,
            decision,
        } => json!({
            "type": "approval_resolved", "request_id": format!("req_{}", request % 4),
            "submission_id": format!("sub_{submission}"), "decision": decision.render(p)
        }),
        Ev::SteerSubmission { submission, text } => json!({
            "type": "steer_submission_applied", "submission_id": format!("sub_{submission}"),
            "text": text.render(p)
        }),
        Ev::ControlSubmission {
            submission,
            control,
        } => json!({
            "type": "control_submission_applied", "submission_id": format!("sub_{submission}"),
            "control": control.render(p)
        }),
        Ev::SubmissionRejected { submission, reason } => json!({
            "type": "submission_rejected", "submission_id": format!("sub_{submission}"),
            "reason": reason.render(p)
        }),
        Ev::SteerApplied(t) => json!({"type": "steer_applied", "text": t.render(p)}),
        Ev::Notice { code, text } => json!({
            "type": "notice", "code": opt(code, p), "text": text.render(p)
        }),
        Ev::TurnEnd {
            usage,
            estimate,
            components,
            strict,
        } => {
            let mut m = Map::new();
            m.insert("type".into(), "turn_end".into());
            if let Some((i, o)) = usage {
                m.insert("usage".into(), json!({"input": i, "output": o}));
            }
            let mut context = Map::new();
            let sum: u32 = components.map_or(0, |c| c.iter().map(|&x| x as u32).sum());
            let est = estimate.unwrap_or(0);
            if estimate.is_some() || components.is_some() {
                let est = if *strict { est.max(sum) } else { est };
                context.insert("estimated_tokens".into(), est.into());
            }
            if let Some(c) = components {
                let comps: Map<String, Value> = COMPONENTS
                    .iter()
                    .zip(c)
                    .map(|(k, &x)| (k.to_string(), x.into()))
                    .collect();
                context.insert("components".into(), Value::Object(comps));
            }
            if !context.is_empty() {
                m.insert("context".into(), Value::Object(context));
            }
            Value::Object(m)
        }
        Ev::TurnEndOdd { usage, context } => json!({
            "type": "turn_end", "usage": usage.value(p), "context": context.value(p)
        }),
        Ev::Workflow {
            kind,
            workflow_id,
            agent_id,
            text,
            extra,
        } => json!({
            "type": WORKFLOW[*kind as usize % WORKFLOW.len()], "workflow_id": workflow_id.render(p),
            "agent_id": opt(agent_id, p), "text": text.render(p),
            "extra": extra.as_ref().map(|j| j.value(p))
        }),
        Ev::Artifact {
            schema,
            path,
            content,
        } => json!({
            "type": "artifact", "schema": schema.render(p), "producer": "fuzz",
            "effect_id": "eff_1", "path": path.render(p), "content_text": content.render(p)
        }),
        Ev::ArtifactProduced { artifact } => json!({
            "type": "artifact_produced", "artifact": artifact.value(p)
        }),
        Ev::Cost { usd, source } => json!({
            "type": "cost", "usd": usd.map(|c| c as f64 / 100.0), "source": source.render(p)
        }),
        Ev::Unknown { ty, fields } => {
            let mut m = Map::new();
            m.insert("type".into(), format!("custom_{}", ty % 8).into());
            m.insert("fields".into(), fields.value(p));
            Value::Object(m)
        }
        Ev::RunEnd {
            outcome,
            reason,
            error,
        } => json!({
            "type": "run_end",
            "outcome": (["done", "drained", "failed", "cancelled", "bogus"][*outcome as usize % 5]),
            "reason": opt(reason, p),
            "error": match error {
                None => Value::Null,
                Some(ErrVal::Str(t)) => Value::String(t.render(p)),
                Some(ErrVal::Obj(j)) => j.value(p),
            }
        }),
    };
    vec![v.to_string()]
}

fuzz_target!(|input: Input| {
    let version = [4, 5, 6, 8][(input.ctl & 3) as usize];
    let max = (input.ctl & 4 != 0).then_some((input.ctl >> 3) as u64 * 64);
    let mut streams = HashMap::new();
    let trace: Vec<String> = input
        .events
        .iter()
        .flat_map(|e| lines(e, true, &mut streams))
        .collect();
    let mut clean_streams = HashMap::new();
    let clean: Vec<String> = input
        .events
        .iter()
        .flat_map(|e| lines(e, false, &mut clean_streams))
        .collect();
    let run = drive(trace.iter().map(|l| l.as_bytes()), version, max);

    // The planted token: only when the trace without it has no needle anywhere (a line,
    // or a stream's text across deltas), the needle cannot come from anything but it.
    let already = clean.iter().any(|l| contains(l.as_bytes(), NEEDLE))
        || clean_streams
            .values()
            .any(|s| contains(s.as_bytes(), NEEDLE));
    if already {
        return;
    }
    if contains(&run.out, NEEDLE) {
        panic!(
            "planted token leaked to stdout\n trace {trace:#?}\n out {}",
            String::from_utf8_lossy(&run.out)
        );
    }
    if let Some(r) = run.records.iter().find(|r| contains(r, NEEDLE)) {
        panic!(
            "planted token leaked into a record\n trace {trace:#?}\n record {}",
            String::from_utf8_lossy(r)
        );
    }
    if let Some((line, reason)) = &run.error {
        if contains(reason.as_bytes(), NEEDLE) {
            panic!(
                "planted token in the error of line {line} (the CLI prints it to stderr)\n \
                 trace {trace:#?}\n error {reason}"
            );
        }
    }
});
