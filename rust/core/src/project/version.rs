//! The published shapes: which record becomes which stdout line under schema v4, v5, v6
//! and v8 (docs/contract.md §4, docs/projection.md). Projection of one record is stateless, so a
//! stored run re-projects to any version.

use serde_json::{Map, Value};

use super::json::{write_str, write_u64, write_value};
use crate::Error;

/// A CLI stream schema version (O2). 7 is the resident protocol, never a CLI stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaVersion(u8);

impl SchemaVersion {
    pub const SUPPORTED: [u8; 4] = [4, 5, 6, 8];
    pub const DEFAULT: SchemaVersion = SchemaVersion(8);

    pub fn new(v: i64) -> Result<SchemaVersion, Error> {
        match v {
            4 | 5 | 6 | 8 => Ok(SchemaVersion(v as u8)),
            7 => Err(Error::Config {
                reason: "schema version 7 is the resident App Server protocol, not a CLI \
                         stream version; supported: 4, 5, 6, 8"
                    .into(),
            }),
            _ => Err(Error::Config {
                reason: format!("unsupported schema version {v}; supported: 4, 5, 6, 8"),
            }),
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

/// Writes one JSON object field by field, in the order the shape publishes them.
pub(crate) struct ObjWriter<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> ObjWriter<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> ObjWriter<'a> {
        out.push(b'{');
        ObjWriter { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        write_str(self.out, k);
        self.out.push(b':');
    }

    pub(crate) fn value(&mut self, k: &str, v: &Value) -> &mut Self {
        self.key(k);
        write_value(self.out, v);
        self
    }

    /// Write a field; returns where its value's JSON lies in the output.
    pub(crate) fn value_at(&mut self, k: &str, v: &Value) -> std::ops::Range<usize> {
        self.key(k);
        let start = self.out.len();
        write_value(self.out, v);
        start..self.out.len()
    }

    pub(crate) fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        write_str(self.out, v);
        self
    }

    /// Write a string field; returns where its value's JSON lies in the output.
    pub(crate) fn str_at(&mut self, k: &str, v: &str) -> std::ops::Range<usize> {
        self.key(k);
        let start = self.out.len();
        write_str(self.out, v);
        start..self.out.len()
    }

    pub(crate) fn uint(&mut self, k: &str, v: u64) -> &mut Self {
        self.key(k);
        write_u64(self.out, v);
        self
    }

    pub(crate) fn raw(&mut self, k: &str, json: &[u8]) -> &mut Self {
        self.key(k);
        self.out.extend_from_slice(json);
        self
    }

    pub(crate) fn end(&mut self) {
        self.out.push(b'}');
    }
}

fn field<'a>(rec: &'a Map<String, Value>, k: &str) -> &'a Value {
    rec.get(k).unwrap_or(&Value::Null)
}

/// A record's fields, and, when the boundary has just written the record, each field's
/// JSON as it stands in the record body: the published line copies those bytes instead
/// of serializing (and escaping) every value a second time.
pub(crate) struct Fields<'a> {
    pub map: &'a Map<String, Value>,
    /// `(key, bytes of its value)` in record order, or empty (serialize on demand).
    pub written: Vec<(&'a str, &'a [u8])>,
}

impl Fields<'_> {
    fn put(&self, w: &mut ObjWriter, k: &str) {
        match self.written.iter().find(|(key, _)| *key == k) {
            Some((_, json)) => w.raw(k, json),
            None => w.value(k, field(self.map, k)),
        };
    }

    /// Every field but the envelope, in record order (workflow events).
    fn put_all(&self, w: &mut ObjWriter) {
        let skip = |k: &str| matches!(k, "seq" | "turn" | "type" | "schema_version");
        if self.written.is_empty() {
            for (k, v) in self.map {
                if !skip(k) {
                    w.value(k, v);
                }
            }
        } else {
            for (k, json) in &self.written {
                if !skip(k) {
                    w.raw(k, json);
                }
            }
        }
    }
}

/// Cut `s` to at most `max` bytes at a character boundary.
pub(crate) fn bounded(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The text of the bounded notice a submission record becomes below v8 (E5): no
/// submission id, no claim that anything was applied.
fn submission_notice(ty: &str, rec: &Map<String, Value>) -> Option<String> {
    // At most `n` characters of a string field; anything else is "unknown".
    let text = |k: &str, n: usize| match field(rec, k) {
        Value::String(s) => s.chars().take(n).collect::<String>(),
        _ => "unknown".to_string(),
    };
    Some(match ty {
        "approval_resolved" => format!(
            "An approval decision was recorded: {}.",
            text("decision", 64)
        ),
        "steer_submission_applied" => {
            "A steering submission was received (schema 8 has the receipt).".to_string()
        }
        "control_submission_applied" => format!(
            "A control submission was received: {}.",
            text("control", 64)
        ),
        "submission_rejected" => format!("A submission was rejected: {}.", text("reason", 200)),
        _ => return None,
    })
}

/// Open a published line: its type, then the envelope every event has.
fn header<'o>(
    out: &'o mut Vec<u8>,
    published: &str,
    v: SchemaVersion,
    seq: u64,
    turn: u64,
) -> ObjWriter<'o> {
    let mut w = ObjWriter::new(out);
    w.str("type", published)
        .uint("schema_version", u64::from(v.get()))
        .uint("seq", seq)
        .uint("turn", turn);
    w
}

/// The published type of a text delta record (`None`: tool output, which only
/// `tool_end` publishes).
fn delta_type(ty: &str) -> Option<&'static str> {
    match ty {
        "assistant_delta" => Some("assistant_text"),
        "thinking_delta" => Some("thinking"),
        _ => None,
    }
}

/// The published line of a text delta record: what [`project_into`] writes for it,
/// without a field map. `text_json` is `text` as JSON when the record already holds it.
pub(crate) fn project_text_delta(
    ty: &str,
    seq: u64,
    turn: u64,
    text: &str,
    text_json: Option<&[u8]>,
    v: SchemaVersion,
    out: &mut Vec<u8>,
) {
    let Some(published) = delta_type(ty) else {
        return;
    };
    if text.is_empty() {
        return;
    }
    let mut w = header(out, published, v, seq, turn);
    match text_json {
        Some(json) => w.raw("text", json),
        None => w.str("text", text),
    };
    w.end();
    out.push(b'\n');
}

/// Append the published line of one record (with its newline) to `out`, or nothing when
/// the version does not publish it. The record is already redacted.
pub(crate) fn project_into(
    ty: &str,
    seq: u64,
    turn: u64,
    src: &Fields,
    v: SchemaVersion,
    out: &mut Vec<u8>,
) {
    let rec = src.map;
    let ver = v.get();
    let published: &str = match ty {
        "assistant_delta" | "thinking_delta" => {
            if matches!(field(rec, "text"), Value::String(s) if s.is_empty()) {
                return;
            }
            delta_type(ty).expect("a text delta")
        }
        "input_attachment" if ver < 5 => return,
        "approval_resolved"
        | "steer_submission_applied"
        | "control_submission_applied"
        | "submission_rejected"
            if ver < 8 =>
        {
            "notice"
        }
        "artifact_produced" if ver < 8 => return,
        "run_end" => "run_done",
        "input_attachment"
        | "phase"
        | "tool_start"
        | "tool_end"
        | "approval_request"
        | "approval_resolved"
        | "steer_submission_applied"
        | "control_submission_applied"
        | "submission_rejected"
        | "steer_applied"
        | "notice"
        | "turn_end"
        | "artifact_produced" => ty,
        t if WORKFLOW.contains(&t) => ty,
        _ => return,
    };
    let mut w = header(out, published, v, seq, turn);
    let copy = |w: &mut ObjWriter, keys: &[&str]| {
        for k in keys {
            src.put(w, k);
        }
    };
    match ty {
        "assistant_delta" | "thinking_delta" | "steer_applied" => copy(&mut w, &["text"]),
        "input_attachment" => copy(&mut w, &["ordinal", "media_type", "encoded_bytes"]),
        "phase" => copy(&mut w, &["phase"]),
        "tool_start" => {
            copy(&mut w, &["call_id", "tool", "title"]);
            match rec.get("input") {
                Some(v) if !v.is_null() => src.put(&mut w, "input"),
                _ => {
                    w.raw("input", b"{}");
                }
            };
            match rec.get("needs_approval") {
                Some(v @ Value::Bool(_)) => w.value("needs_approval", v),
                _ => w.raw("needs_approval", b"false"),
            };
        }
        "tool_end" => {
            copy(&mut w, &["call_id", "status", "outcome"]);
            match rec.get("output") {
                Some(Value::String(_)) => src.put(&mut w, "output"),
                _ => {
                    w.raw("output", b"\"\"");
                }
            };
            match rec.get("output_truncated") {
                Some(v @ Value::Bool(_)) => w.value("output_truncated", v),
                _ => w.raw("output_truncated", b"false"),
            };
        }
        "approval_request" => copy(&mut w, &["request_id", "call_id"]),
        "approval_resolved"
        | "steer_submission_applied"
        | "control_submission_applied"
        | "submission_rejected"
            if ver < 8 =>
        {
            w.str("code", "submission");
            w.str("text", &submission_notice(ty, rec).unwrap_or_default());
        }
        "approval_resolved" => copy(&mut w, &["request_id", "submission_id", "decision"]),
        "steer_submission_applied" => copy(&mut w, &["submission_id", "text"]),
        "control_submission_applied" => copy(&mut w, &["submission_id", "control"]),
        "submission_rejected" => copy(&mut w, &["submission_id", "reason"]),
        "notice" => copy(&mut w, &["code", "text"]),
        "turn_end" => turn_end(rec, ver, &mut w),
        "artifact_produced" => copy(&mut w, &["artifact"]),
        "run_end" => copy(&mut w, &["outcome", "reason"]),
        _ => src.put_all(&mut w), // workflow_*: every field after the envelope
    }
    w.end();
    out.push(b'\n');
}

/// The seven workflow event types (E1), published as recorded.
pub const WORKFLOW: [&str; 7] = [
    "workflow_start",
    "workflow_plan",
    "workflow_phase",
    "workflow_agent_start",
    "workflow_agent_activity",
    "workflow_agent_end",
    "workflow_end",
];

/// The nine context components of E4, in their published order.
pub const COMPONENTS: [&str; 9] = [
    "stable_prefix_tokens",
    "instruction_tokens",
    "task_context_tokens",
    "memory_tokens",
    "transcript_tokens",
    "attachment_tokens",
    "tool_schema_tokens",
    "tool_result_tokens",
    "lsp_result_tokens",
];

fn num(v: Option<&Value>, k: &str) -> u64 {
    v.and_then(|o| o.get(k))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// `turn_end`: the record was validated at admission (non-negative integers, components
/// within the estimate), so this only picks the published fields.
fn turn_end(rec: &Map<String, Value>, ver: u8, w: &mut ObjWriter) {
    let usage = rec.get("usage");
    let context = rec.get("context");
    let mut u = Vec::new();
    ObjWriter::new(&mut u)
        .uint("input", num(usage, "input"))
        .uint("output", num(usage, "output"))
        .end();
    w.raw("usage", &u);
    let mut c = Vec::new();
    {
        let mut cw = ObjWriter::new(&mut c);
        cw.uint("estimated_tokens", num(context, "estimated_tokens"));
        if ver >= 6 {
            let comps = context.and_then(|c| c.get("components"));
            let mut p = Vec::new();
            let mut pw = ObjWriter::new(&mut p);
            for k in COMPONENTS {
                pw.uint(k, num(comps, k));
            }
            pw.end();
            cw.raw("components", &p);
        }
        cw.end();
    }
    w.raw("context", &c);
}

/// Project one stored record (its JSON bytes) onto `version`: the published line with
/// its newline, or `None` when the version does not publish it.
pub fn project(record: &[u8], version: SchemaVersion) -> Result<Option<Vec<u8>>, Error> {
    let rec: Map<String, Value> = serde_json::from_slice(record).map_err(|e| Error::Config {
        reason: format!("stored record is not a JSON object: {e}"),
    })?;
    let Some(Value::String(ty)) = rec.get("type") else {
        return Ok(None);
    };
    let seq = rec.get("seq").and_then(Value::as_u64).unwrap_or(0);
    let turn = rec.get("turn").and_then(Value::as_u64).unwrap_or(0);
    let src = Fields {
        map: &rec,
        written: Vec::new(),
    };
    let mut out = Vec::new();
    project_into(ty, seq, turn, &src, version, &mut out);
    Ok((!out.is_empty()).then_some(out))
}
