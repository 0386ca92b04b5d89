//! Foreign agent streams in (docs/agents.md): a JSONL line of Claude Code, Codex or
//! Gemini CLI becomes zero or more canonical trace events, which the run boundary then
//! admits like any trace. One stateful dialect per tool; this module owns what they
//! share: dirty lines, the written events, and the end-of-run evidence.

mod claude_code;
mod codex;
mod gemini;

use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::project::bounded;
use crate::scrub::{scrub, RuleSet};

/// A run of non-JSON lines is held up to this many bytes, then published as one notice
/// (a credential spread over lines, a PEM block, is scrubbed whole).
const JUNK_HOLD: usize = 64 << 10;
/// A notice made from foreign text keeps at most this many bytes (after scrubbing).
pub const NOTICE_MAX: usize = 4 << 10;
/// Subagent activity text keeps at most this many bytes (after scrubbing).
pub const ACTIVITY_MAX: usize = 2 << 10;

/// The tools whose streams are translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    ClaudeCode,
    Codex,
    Gemini,
}

impl Tool {
    pub fn parse(name: &str) -> Option<Tool> {
        match name {
            "claude-code" => Some(Tool::ClaudeCode),
            "codex" => Some(Tool::Codex),
            "gemini" => Some(Tool::Gemini),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tool::ClaudeCode => "claude-code",
            Tool::Codex => "codex",
            Tool::Gemini => "gemini",
        }
    }
}

/// How the foreign process ended, as the caller saw it (both `None` for a replay).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exit {
    pub code: Option<i32>,
    pub signal: Option<i32>,
}

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

impl Exit {
    /// The process was interrupted: killed by SIGINT/SIGTERM or exited 130/143.
    fn interrupted(self) -> Option<i64> {
        match (self.signal, self.code) {
            (Some(SIGINT), _) | (_, Some(130)) => Some(130),
            (Some(SIGTERM), _) | (_, Some(143)) => Some(143),
            _ => None,
        }
    }

    fn describe(self) -> String {
        match (self.signal, self.code) {
            (Some(s), _) => format!("killed by signal {s}"),
            (None, Some(c)) => format!("exit status {c}"),
            (None, None) => "no exit status (a replayed stream)".into(),
        }
    }
}

/// The outcome the evidence gives: the fields of the boundary's `Finish`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub outcome: String,
    pub reason: String,
    /// `(code, message)`
    pub error: Option<(String, String)>,
    pub exit_code: i64,
}

impl Ending {
    pub(crate) fn done(reason: &str) -> Ending {
        Ending::new("done", reason, None, 0)
    }

    pub(crate) fn failed(
        reason: impl Into<String>,
        code: &str,
        message: impl Into<String>,
    ) -> Ending {
        Ending::new("failed", reason, Some((code.into(), message.into())), 1)
    }

    pub(crate) fn limit(reason: &str) -> Ending {
        Ending::new("limit", reason, None, 3)
    }

    pub(crate) fn cancelled(reason: impl Into<String>, exit_code: i64) -> Ending {
        Ending::new("cancelled", reason, None, exit_code)
    }

    fn new(
        outcome: &str,
        reason: impl Into<String>,
        error: Option<(String, String)>,
        exit_code: i64,
    ) -> Ending {
        Ending {
            outcome: outcome.into(),
            reason: reason.into(),
            error,
            exit_code,
        }
    }

    /// A stream that stopped without its terminal event: an interrupt is `cancelled`,
    /// anything else `failed`, whatever the exit status.
    pub(crate) fn no_terminal(tool: Tool, terminal: &str, exit: Exit, cut: bool) -> Ending {
        if let Some(code) = exit.interrupted() {
            return Ending::cancelled(
                format!("{} was interrupted ({})", tool.name(), exit.describe()),
                code,
            );
        }
        let cut = if cut {
            "; its last line was cut mid-line"
        } else {
            ""
        };
        let message = format!(
            "the {} stream ended without its terminal {terminal} event ({}{cut})",
            tool.name(),
            exit.describe()
        );
        Ending::failed("no_terminal_event", "no_terminal_event", message)
    }
}

/// What one stateful dialect does: a parsed foreign object in, events out; at the end,
/// the outcome from the last events and the exit evidence.
pub(crate) trait Dialect {
    /// The common lines, read without building a tree: true when `line` was handled.
    /// False leaves it to [`Dialect::line`], before anything was written.
    fn raw(&mut self, _line: &[u8], _out: &mut Out) -> bool {
        false
    }
    fn line(&mut self, obj: Map<String, Value>, out: &mut Out);
    fn end(&mut self, exit: Exit, cut: bool, out: &mut Out) -> Ending;
}

/// Where a dialect writes canonical events: JSONL, each line tagged with the foreign
/// line it came from.
pub struct Out {
    pub(crate) buf: Vec<u8>,
    /// Non-JSON lines held until the run of them ends: published as one notice before
    /// the next event (`run_start` excepted: a banner never comes before the run starts).
    junk: Vec<u8>,
    origin: Vec<u64>,
    line_no: u64,
    tool: Tool,
    rules: Arc<RuleSet>,
}

impl Out {
    /// Write one event: `type` first, then `fields` (an object) in their order.
    pub(crate) fn event(&mut self, ty: &str, fields: Value) {
        if ty != "run_start" {
            self.flush_junk();
        }
        let mut obj = Map::with_capacity(8);
        obj.insert("type".into(), Value::String(ty.into()));
        if let Value::Object(m) = fields {
            obj.extend(m);
        }
        let mut obj = Value::Object(obj);
        portable(&mut obj);
        let Value::Object(obj) = obj else {
            unreachable!()
        };
        serde_json::to_writer(&mut self.buf, &Value::Object(obj)).expect("a Value always writes");
        self.buf.push(b'\n');
        self.origin.push(self.line_no);
    }

    /// A text delta, written without a tree: `{"type":ty,"text":prefix+text}`.
    pub(crate) fn text_event(&mut self, ty: &str, prefix: &str, text: &str) {
        self.flush_junk();
        self.buf.extend_from_slice(b"{\"type\":\"");
        self.buf.extend_from_slice(ty.as_bytes());
        self.buf.extend_from_slice(b"\",\"text\":");
        if prefix.is_empty() {
            serde_json::to_writer(&mut self.buf, text).expect("a str always writes");
        } else {
            serde_json::to_writer(&mut self.buf, &format!("{prefix}{text}"))
                .expect("a str always writes");
        }
        self.buf.extend_from_slice(b"}\n");
        self.origin.push(self.line_no);
    }

    /// A tool's output delta, written without a tree.
    pub(crate) fn output_event(&mut self, call_id: &str, text: &str) {
        self.flush_junk();
        self.buf
            .extend_from_slice(b"{\"type\":\"tool_output_delta\",\"call_id\":");
        serde_json::to_writer(&mut self.buf, call_id).expect("a str always writes");
        self.buf.extend_from_slice(b",\"text\":");
        serde_json::to_writer(&mut self.buf, text).expect("a str always writes");
        self.buf.extend_from_slice(b"}\n");
        self.origin.push(self.line_no);
    }

    /// `tool_start` from a borrowed call: its input is written as the foreign line had it
    /// (valid JSON; the boundary parses it again).
    pub(crate) fn tool_start_raw(
        &mut self,
        id: Option<&str>,
        name: Option<&str>,
        input: Option<&RawValue>,
    ) {
        self.flush_junk();
        let input = input.map_or("{}", RawValue::get);
        if maybe_unportable(input) {
            // A number the boundary would refuse: the general path writes its text.
            let input: Value = serde_json::from_str(input).unwrap_or(Value::Null);
            let title = title_of(&input);
            let fields =
                serde_json::json!({"call_id": id, "tool": name, "title": title, "input": input});
            self.event("tool_start", fields);
            return;
        }
        // A struct also reads from an array (by position): only an object has a title.
        let title = if input.trim_start().starts_with('{') {
            serde_json::from_str::<Title>(input)
                .ok()
                .and_then(Title::first)
        } else {
            None
        };
        self.buf
            .extend_from_slice(b"{\"type\":\"tool_start\",\"call_id\":");
        serde_json::to_writer(&mut self.buf, &id).expect("writes");
        self.buf.extend_from_slice(b",\"tool\":");
        serde_json::to_writer(&mut self.buf, &name).expect("writes");
        self.buf.extend_from_slice(b",\"title\":");
        serde_json::to_writer(
            &mut self.buf,
            &title.map(|t| bounded(&t, TITLE_MAX).to_string()),
        )
        .expect("writes");
        self.buf.extend_from_slice(b",\"input\":");
        self.buf.extend_from_slice(input.as_bytes());
        self.buf.extend_from_slice(b"}\n");
        self.origin.push(self.line_no);
    }

    pub(crate) fn tool_end(&mut self, call_id: &str, status: &str, outcome: &str) {
        self.flush_junk();
        self.buf
            .extend_from_slice(b"{\"type\":\"tool_end\",\"call_id\":");
        serde_json::to_writer(&mut self.buf, call_id).expect("writes");
        for (k, v) in [("status", status), ("outcome", outcome)] {
            self.buf
                .extend_from_slice(format!(",\"{k}\":\"{v}\"").as_bytes());
        }
        self.buf.extend_from_slice(b"}\n");
        self.origin.push(self.line_no);
    }

    /// The held non-JSON lines as one notice (scrubbed whole, then bounded).
    pub(crate) fn flush_junk(&mut self) {
        if self.junk.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&std::mem::take(&mut self.junk)).into_owned();
        self.notice("foreign_output", &text);
    }

    pub(crate) fn notice(&mut self, code: &str, text: &str) {
        let text = self.scrubbed_bounded(text, NOTICE_MAX);
        self.event("notice", serde_json::json!({"code": code, "text": text}));
    }

    /// A foreign event this translator does not map: kept on the record (the boundary
    /// scrubs every string of it) and published as nothing.
    pub(crate) fn foreign(&mut self, obj: Map<String, Value>) {
        let kind = foreign_type(&obj);
        let mut event = Value::Object(obj);
        portable(&mut event);
        self.event(
            "foreign_event",
            serde_json::json!({"tool": self.tool.name(), "foreign_type": kind, "event": event}),
        );
    }

    /// `text` scrubbed whole, then cut to `max` bytes (in that order: a cut through a
    /// credential would leave a fragment no rule recognises).
    pub(crate) fn scrubbed_bounded(&self, text: &str, max: usize) -> String {
        let scrubbed = scrub(&self.rules, text.as_bytes());
        let scrubbed = String::from_utf8_lossy(&scrubbed);
        if scrubbed.len() <= max {
            return scrubbed.into_owned();
        }
        let kept = bounded(&scrubbed, max);
        format!(
            "{kept}… ({} more bytes not kept)",
            scrubbed.len() - kept.len()
        )
    }
}

/// `type` (and `subtype`) of a foreign object, for the record.
fn foreign_type(obj: &Map<String, Value>) -> String {
    let s = |k: &str| obj.get(k).and_then(Value::as_str);
    match (s("type"), s("subtype")) {
        (Some(t), Some(st)) => format!("{t}/{st}"),
        (Some(t), None) => t.to_string(),
        _ => "untyped".into(),
    }
}

/// Numbers every consumer reads back exactly (the boundary refuses others): an integer
/// outside 64 bits or a non-finite double becomes its text.
fn portable(v: &mut Value) {
    match v {
        Value::Number(n) => {
            let ok = n.as_i64().is_some()
                || n.as_u64().is_some()
                || n.as_f64().is_some_and(f64::is_finite);
            let text = n.to_string();
            if !ok
                || (!text.contains(['.', 'e', 'E']) && n.as_i64().is_none() && n.as_u64().is_none())
            {
                *v = Value::String(text);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(portable),
        Value::Object(m) => m.values_mut().for_each(portable),
        _ => {}
    }
}

/// True when `raw` JSON may hold a number outside what every consumer reads back (an
/// exponent, or 19 digits or more): cheap, and may say true for a string.
fn maybe_unportable(raw: &str) -> bool {
    let mut digits = 0;
    let mut prev_digit = false;
    for b in raw.bytes() {
        if b.is_ascii_digit() {
            digits += 1;
            if digits >= 19 {
                return true;
            }
            prev_digit = true;
        } else {
            if prev_digit && (b == b'e' || b == b'E') {
                return true;
            }
            digits = 0;
            prev_digit = false;
        }
    }
    false
}

/// One foreign stream's translator: lines in (in order), canonical trace lines out.
pub struct Translator {
    tool: Tool,
    dialect: Box<dyn Dialect + Send + Sync>,
    out: Out,
    /// The last non-blank line looked like JSON and did not parse.
    cut: bool,
    finished: bool,
    /// Common lines take the dialect's borrowed path (`Dialect::raw`); false only in tests.
    fast: bool,
}

impl Translator {
    pub fn new(tool: Tool, rules: Arc<RuleSet>) -> Translator {
        let dialect: Box<dyn Dialect + Send + Sync> = match tool {
            Tool::ClaudeCode => Box::new(claude_code::ClaudeCode::default()),
            Tool::Codex => Box::new(codex::Codex::default()),
            Tool::Gemini => Box::new(gemini::Gemini::default()),
        };
        Translator {
            tool,
            dialect,
            out: Out {
                buf: Vec::new(),
                junk: Vec::new(),
                origin: Vec::new(),
                line_no: 0,
                tool,
                rules,
            },
            cut: false,
            finished: false,
            fast: true,
        }
    }

    /// Translate every line by the general path only (tests compare the two paths).
    #[doc(hidden)]
    pub fn general_path_only(mut self) -> Translator {
        self.fast = false;
        self
    }

    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Translate the lines of `block` (each ended by `\n`, the last may lack it), the
    /// first numbered `first_line_no`. Returns the canonical lines; [`Translator::origin`]
    /// then names the foreign line of each.
    pub fn translate(&mut self, block: &[u8], first_line_no: u64) -> Vec<u8> {
        self.out.buf.clear();
        self.out.origin.clear();
        self.out.buf.reserve(block.len() + 64);
        let (mut n, mut at) = (first_line_no, 0);
        while at < block.len() {
            let end = memchr::memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i);
            self.line(&block[at..end], n);
            n += 1;
            at = end + 1;
        }
        std::mem::take(&mut self.out.buf)
    }

    /// The foreign line number of canonical line `i` (0-based) of the last output.
    pub fn origin(&self, i: usize) -> Option<u64> {
        self.out.origin.get(i).copied()
    }

    fn line(&mut self, line: &[u8], line_no: u64) {
        self.out.line_no = line_no;
        let t = line.trim_ascii();
        if t.is_empty() {
            return;
        }
        if t[0] == b'{' {
            if self.fast && self.dialect.raw(t, &mut self.out) {
                self.cut = false;
                return;
            }
            if let Ok(Value::Object(obj)) = serde_json::from_slice(t) {
                self.cut = false;
                self.dialect.line(obj, &mut self.out);
                return;
            }
            self.hold_junk(t);
            self.cut = true;
            return;
        }
        self.cut = false;
        // A prefix glued to a JSON line (a banner before `{"type"…`): the prefix is a
        // notice, the rest an event.
        if let Some(at) = memchr::memmem::find(t, b"{\"") {
            if let Ok(Value::Object(obj)) = serde_json::from_slice::<Value>(&t[at..]) {
                if obj.contains_key("type") {
                    self.hold_junk(&t[..at]);
                    self.dialect.line(obj, &mut self.out);
                    return;
                }
            }
        }
        self.hold_junk(t);
    }

    fn hold_junk(&mut self, text: &[u8]) {
        let junk = &mut self.out.junk;
        if !junk.is_empty() && junk.len() + text.len() > JUNK_HOLD {
            self.out.flush_junk();
        }
        let junk = &mut self.out.junk;
        if !junk.is_empty() {
            junk.push(b'\n');
        }
        junk.extend_from_slice(text);
    }

    /// The stream ended (EOF, the process exited): the last events, the outcome.
    pub fn finish(&mut self, exit: Exit) -> (Vec<u8>, Ending) {
        self.out.buf.clear();
        self.out.origin.clear();
        if self.finished {
            return (
                Vec::new(),
                Ending::failed("finished twice", "internal", "finish called twice"),
            );
        }
        self.finished = true;
        let ending = self.dialect.end(exit, self.cut, &mut self.out);
        self.out.flush_junk();
        (std::mem::take(&mut self.out.buf), ending)
    }
}

// Small readers of foreign objects, shared by the dialects.

pub(crate) fn get_str<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

pub(crate) fn get_u64(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

/// A tool call's title keeps at most this many bytes.
const TITLE_MAX: usize = 200;
/// Where a tool call's title comes from, in this order.
const TITLE_KEYS: [&str; 8] = [
    "description",
    "command",
    "file_path",
    "path",
    "url",
    "pattern",
    "query",
    "prompt",
];

/// A short title for a tool call from its input: a description, a command, a path …
pub(crate) fn title_of(input: &Value) -> Value {
    for k in TITLE_KEYS {
        if let Some(s) = get_str(input, k) {
            return Value::String(bounded(s, TITLE_MAX).to_string());
        }
    }
    Value::Null
}

/// [`title_of`] on a borrowed input: the raw values of `TITLE_KEYS`, other fields skipped.
#[derive(serde::Deserialize)]
struct Title<'a> {
    #[serde(default, borrow)]
    description: Option<&'a RawValue>,
    #[serde(default, borrow)]
    command: Option<&'a RawValue>,
    #[serde(default, borrow)]
    file_path: Option<&'a RawValue>,
    #[serde(default, borrow)]
    path: Option<&'a RawValue>,
    #[serde(default, borrow)]
    url: Option<&'a RawValue>,
    #[serde(default, borrow)]
    pattern: Option<&'a RawValue>,
    #[serde(default, borrow)]
    query: Option<&'a RawValue>,
    #[serde(default, borrow)]
    prompt: Option<&'a RawValue>,
}

impl Title<'_> {
    /// The first of `TITLE_KEYS` that holds a string (as [`title_of`] takes it).
    fn first(self) -> Option<String> {
        [
            self.description,
            self.command,
            self.file_path,
            self.path,
            self.url,
            self.pattern,
            self.query,
            self.prompt,
        ]
        .into_iter()
        .flatten()
        .find_map(|raw| serde_json::from_str::<String>(raw.get()).ok())
    }
}
