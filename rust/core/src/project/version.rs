//! The published shapes: which record becomes which stdout line under schema v4, v5, v6
//! and v8 (docs/contract.md §4, docs/projection.md), and under v7, the resident App
//! Server's event stream (docs/app-server.md). Projection of one record is stateless, so
//! a stored run re-projects to any version.

use serde_json::{Map, Value};

use super::json::ObjWriter;
use crate::Error;

/// What one published schema version has, by name (E1-E5, R2). The one place that says
/// which version publishes what: the projection asks these, never `version >= n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// `input_attachment` events (E3).
    pub input_attachment: bool,
    /// `kernel_tax` in the result (R2).
    pub kernel_tax: bool,
    /// `turn_end.context.components` (E4).
    pub context_components: bool,
    /// The four submission lifecycle records as events of their own; without this each
    /// becomes a `notice` that claims nothing (E5).
    pub submission_records: bool,
    /// `artifact_produced` events (A1).
    pub artifacts: bool,
    /// Every event names its run (`run_id` after `schema_version`): several runs share
    /// one event queue (P3).
    pub names_run: bool,
}

/// Each version says what it adds to the one before.
const V4: Capabilities = Capabilities {
    input_attachment: false,
    kernel_tax: false,
    context_components: false,
    submission_records: false,
    artifacts: false,
    names_run: false,
};
const V5: Capabilities = Capabilities {
    input_attachment: true,
    kernel_tax: true,
    ..V4
};
const V6: Capabilities = Capabilities {
    context_components: true,
    ..V5
};
const V8: Capabilities = Capabilities {
    submission_records: true,
    artifacts: true,
    ..V6
};

/// The resident stream: v8's vocabulary, and the run named in every event.
const V7: Capabilities = Capabilities {
    names_run: true,
    ..V8
};

/// Every CLI stream version and what it has. Adding a version is adding a row.
const VERSIONS: [(u8, Capabilities); 4] = [(4, V4), (5, V5), (6, V6), (8, V8)];

/// The resident App Server protocol's number: never a CLI stream version (O3, O5).
pub const RESIDENT_PROTOCOL_VERSION: u8 = 7;
/// The resident protocol's event stream and what it has (only the App Server makes it).
const RESIDENT: (u8, Capabilities) = (RESIDENT_PROTOCOL_VERSION, V7);

/// A CLI stream schema version (O2), one of [`SchemaVersion::SUPPORTED`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaVersion(u8);

impl SchemaVersion {
    pub const SUPPORTED: [u8; VERSIONS.len()] = {
        let mut v = [0; VERSIONS.len()];
        let mut i = 0;
        while i < VERSIONS.len() {
            v[i] = VERSIONS[i].0;
            i += 1;
        }
        v
    };
    pub const DEFAULT: SchemaVersion = SchemaVersion(8);
    /// The App Server's event stream (docs/app-server.md): never made by
    /// [`SchemaVersion::new`] (a one-shot CLI stream refuses 7, O3).
    pub const RESIDENT: SchemaVersion = SchemaVersion(RESIDENT.0);

    /// The resident version, and nothing else.
    pub fn resident(v: i64) -> Result<SchemaVersion, Error> {
        if v == i64::from(RESIDENT.0) {
            return Ok(SchemaVersion::RESIDENT);
        }
        Err(Error::Config {
            reason: format!(
                "unsupported resident protocol version {v}; supported: {}",
                RESIDENT.0
            ),
        })
    }

    pub fn new(v: i64) -> Result<SchemaVersion, Error> {
        let supported = || {
            let names: Vec<String> = Self::SUPPORTED.iter().map(u8::to_string).collect();
            names.join(", ")
        };
        if let Some((n, _)) = VERSIONS.iter().find(|(n, _)| i64::from(*n) == v) {
            return Ok(SchemaVersion(*n));
        }
        let reason = if v == i64::from(RESIDENT_PROTOCOL_VERSION) {
            format!(
                "schema version {v} is the resident App Server protocol, not a CLI stream \
                 version; supported: {}",
                supported()
            )
        } else {
            format!("unsupported schema version {v}; supported: {}", supported())
        };
        Err(Error::Config { reason })
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// What this version publishes.
    pub fn has(self) -> Capabilities {
        VERSIONS
            .iter()
            .chain([&RESIDENT])
            .find(|(n, _)| *n == self.0)
            .map(|(_, c)| *c)
            .expect("a SchemaVersion is always in VERSIONS")
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

/// Where a published line sits: its run (named only by a version that names it), its
/// seq and its turn.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    pub run_id: &'a str,
    pub seq: u64,
    pub turn: u64,
}

/// Open a published line: its type, then the envelope every event has.
fn header<'o>(out: &'o mut Vec<u8>, published: &str, v: SchemaVersion, at: At) -> ObjWriter<'o> {
    let mut w = ObjWriter::new(out);
    w.str("type", published)
        .uint("schema_version", u64::from(v.get()));
    if v.has().names_run {
        w.str("run_id", at.run_id);
    }
    w.uint("seq", at.seq).uint("turn", at.turn);
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
    at: At,
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
    let mut w = header(out, published, v, at);
    match text_json {
        Some(json) => w.raw("text", json),
        None => w.str("text", text),
    };
    w.end();
    out.push(b'\n');
}

/// Append the published line of one record (with its newline) to `out`, or nothing when
/// the version does not publish it. The record is already redacted.
pub(crate) fn project_into(ty: &str, at: At, src: &Fields, v: SchemaVersion, out: &mut Vec<u8>) {
    let rec = src.map;
    let has = v.has();
    let published: &str = match ty {
        "assistant_delta" | "thinking_delta" => {
            if matches!(field(rec, "text"), Value::String(s) if s.is_empty()) {
                return;
            }
            delta_type(ty).expect("a text delta")
        }
        "input_attachment" if !has.input_attachment => return,
        "approval_resolved"
        | "steer_submission_applied"
        | "control_submission_applied"
        | "submission_rejected"
            if !has.submission_records =>
        {
            "notice"
        }
        "artifact_produced" if !has.artifacts => return,
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
    let mut w = header(out, published, v, at);
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
            if !has.submission_records =>
        {
            w.str("code", "submission");
            w.str("text", &submission_notice(ty, rec).unwrap_or_default());
        }
        "approval_resolved" => copy(&mut w, &["request_id", "submission_id", "decision"]),
        "steer_submission_applied" => copy(&mut w, &["submission_id", "text"]),
        "control_submission_applied" => copy(&mut w, &["submission_id", "control"]),
        "submission_rejected" => copy(&mut w, &["submission_id", "reason"]),
        "notice" => copy(&mut w, &["code", "text"]),
        "turn_end" => turn_end(rec, has, &mut w),
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
fn turn_end(rec: &Map<String, Value>, has: Capabilities, w: &mut ObjWriter) {
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
        if has.context_components {
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
    project_run(record, version, "")
}

/// [`project`] for a record of the run `run_id` (a version that names the run needs it).
pub fn project_run(
    record: &[u8],
    version: SchemaVersion,
    run_id: &str,
) -> Result<Option<Vec<u8>>, Error> {
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
    project_into(ty, At { run_id, seq, turn }, &src, version, &mut out);
    Ok((!out.is_empty()).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::{SchemaVersion, RESIDENT_PROTOCOL_VERSION, VERSIONS};
    use crate::Error;

    #[test]
    fn the_supported_list_is_the_table() {
        assert_eq!(SchemaVersion::SUPPORTED, [4, 5, 6, 8]);
        assert!(SchemaVersion::SUPPORTED.contains(&SchemaVersion::DEFAULT.get()));
        assert!(!SchemaVersion::SUPPORTED.contains(&RESIDENT_PROTOCOL_VERSION));
        for v in SchemaVersion::SUPPORTED {
            assert_eq!(SchemaVersion::new(v.into()).unwrap().get(), v);
        }
    }

    #[test]
    fn a_capability_once_published_stays_published() {
        for pair in VERSIONS.windows(2) {
            let ((_, a), (_, b)) = (pair[0], pair[1]);
            assert!(!a.input_attachment || b.input_attachment);
            assert!(!a.kernel_tax || b.kernel_tax);
            assert!(!a.context_components || b.context_components);
            assert!(!a.submission_records || b.submission_records);
            assert!(!a.artifacts || b.artifacts);
        }
    }

    #[test]
    fn unsupported_versions_say_why() {
        let reason = |v: i64| match SchemaVersion::new(v) {
            Err(Error::Config { reason }) => reason,
            other => panic!("{v}: {other:?}"),
        };
        assert_eq!(
            reason(7),
            "schema version 7 is the resident App Server protocol, not a CLI stream \
             version; supported: 4, 5, 6, 8"
        );
        assert_eq!(
            reason(3),
            "unsupported schema version 3; supported: 4, 5, 6, 8"
        );
        assert_eq!(
            reason(9),
            "unsupported schema version 9; supported: 4, 5, 6, 8"
        );
    }
}
