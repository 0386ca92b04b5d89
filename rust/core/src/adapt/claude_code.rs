//! Claude Code's `claude -p --output-format stream-json --verbose`: one JSON object per
//! line, one line per content block, a single terminal `result`. Field reference: the
//! Agent SDK's `types.py` / `message_parser.py` (anthropics/claude-agent-sdk-python).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

use super::{get_str, get_u64, title_of, Dialect, Ending, Exit, Out, Tool, ACTIVITY_MAX};

/// One top-level text stream (the answer, or thinking): whether text was written, and
/// the message its last block came from.
#[derive(Default)]
struct TextStream {
    written: bool,
    msg: String,
}

impl TextStream {
    /// The separator before a whole block of message `msg`: blocks of one message are
    /// contiguous text, blocks of separate messages are separated.
    fn block(&mut self, msg: &str, text: &str) -> &'static str {
        let sep = if self.written && self.msg != msg {
            "\n\n"
        } else {
            ""
        };
        if !text.is_empty() {
            self.written = true;
            msg.clone_into(&mut self.msg);
        }
        sep
    }
}

#[derive(Default)]
pub(crate) struct ClaudeCode {
    started: bool,
    /// `init.apiKeySource`: `none` is a subscription (OAuth) login.
    api_key_source: Option<String>,
    /// The top-level answer and thinking text.
    answer: TextStream,
    thinking: TextStream,
    /// Messages whose text arrived as partial deltas: their whole blocks are repeats.
    streamed: HashSet<String>,
    /// The top-level message being streamed, and whether its next text block needs a
    /// separator.
    streaming: Option<String>,
    sep_pending: bool,
    think_sep_pending: bool,
    /// Subagent task id by the tool call that launched it.
    tasks: HashMap<String, String>,
    /// Workflow (launching call) by task id.
    workflows: HashMap<String, String>,
    result: Option<Map<String, Value>>,
}

const TERMINAL: &str = "result";

/// The common lines (top-level content blocks, tool results, token counters) read
/// without building a tree: what is not named here is skipped, strings without escapes
/// are borrowed. Any other shape takes the general path (a `Value`), which does the same.
#[derive(Deserialize)]
struct Hot<'a> {
    #[serde(rename = "type", borrow)]
    ty: Cow<'a, str>,
    #[serde(default, borrow)]
    subtype: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    message: Option<HotMessage<'a>>,
    #[serde(default, borrow)]
    parent_tool_use_id: Option<Cow<'a, str>>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default, rename = "isSynthetic")]
    synthetic: Option<bool>,
}

#[derive(Deserialize)]
struct HotMessage<'a> {
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<Vec<HotBlock<'a>>>,
}

#[derive(Deserialize)]
struct HotBlock<'a> {
    #[serde(rename = "type", borrow)]
    ty: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    thinking: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    input: Option<&'a RawValue>,
    #[serde(default, borrow)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<HotContent<'a>>,
    #[serde(default)]
    is_error: Option<bool>,
}

/// A tool result's content: a string (borrowed when it can be), or blocks.
enum HotContent<'a> {
    Text(Cow<'a, str>),
    Blocks(Value),
}

impl<'de: 'a, 'a> Deserialize<'de> for HotContent<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = HotContent<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or content blocks")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(HotContent::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(HotContent::Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(HotContent::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                let v = Value::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                Ok(HotContent::Blocks(v))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Dialect for ClaudeCode {
    fn raw(&mut self, line: &[u8], out: &mut Out) -> bool {
        if !self.started {
            return false;
        }
        // One UTF-8 check of the whole line: the parser then trusts its strings.
        let Ok(line) = std::str::from_utf8(line) else {
            return false;
        };
        let Ok(h) = serde_json::from_str::<Hot>(line) else {
            return false;
        };
        let top = h.parent_tool_use_id.is_none();
        match (h.ty.as_ref(), h.subtype.as_deref()) {
            ("system", Some("thinking_tokens")) => true,
            ("assistant", _) if top && h.error.as_ref().is_none_or(Value::is_null) => {
                let Some(HotMessage {
                    id,
                    content: Some(blocks),
                }) = h.message
                else {
                    return false;
                };
                if !blocks
                    .iter()
                    .all(|b| matches!(b.ty.as_ref(), "text" | "thinking" | "tool_use"))
                {
                    return false;
                }
                let repeated = self.streamed.contains(id.as_deref().unwrap_or(""));
                for b in blocks {
                    match b.ty.as_ref() {
                        "text" if !repeated => self.text_block(
                            id.as_deref().unwrap_or(""),
                            b.text.as_deref().unwrap_or(""),
                            out,
                        ),
                        "thinking" if !repeated => self.thinking_block(
                            id.as_deref().unwrap_or(""),
                            b.thinking.as_deref().unwrap_or(""),
                            out,
                        ),
                        "tool_use" => {
                            out.tool_start_raw(b.id.as_deref(), b.name.as_deref(), b.input)
                        }
                        _ => {}
                    }
                }
                true
            }
            ("user", _) if top && h.synthetic != Some(true) => {
                let Some(HotMessage {
                    content: Some(blocks),
                    ..
                }) = h.message
                else {
                    return false;
                };
                if !blocks.iter().all(|b| b.ty == "tool_result") {
                    return false;
                }
                for b in blocks {
                    let text = match &b.content {
                        Some(HotContent::Text(t)) => Cow::Borrowed(t.as_ref()),
                        Some(HotContent::Blocks(v)) => Cow::Owned(result_text(Some(v))),
                        None => Cow::Borrowed(""),
                    };
                    let call = b.tool_use_id.as_deref().unwrap_or("");
                    tool_result(call, &text, b.is_error.unwrap_or(false), out);
                }
                true
            }
            _ => false,
        }
    }

    fn line(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
        if !(self.started
            || ty == "system" && obj.get("subtype").and_then(Value::as_str) == Some("init"))
        {
            self.start(None, out);
        }
        match ty {
            "system" => self.system(obj, out),
            "assistant" => self.assistant(obj, out),
            "user" => self.user(obj, out),
            "stream_event" => self.stream_event(&obj, out),
            "rate_limit_event" => {
                let info = obj.get("rate_limit_info").cloned().unwrap_or(Value::Null);
                let status = get_str(&info, "status").unwrap_or("unknown");
                if status != "allowed" {
                    let kind = get_str(&info, "rateLimitType").unwrap_or("unknown");
                    let text = format!(
                        "claude-code rate limit {status} ({kind}), resets at {}",
                        info.get("resetsAt").unwrap_or(&Value::Null)
                    );
                    out.notice("rate_limit", &text);
                }
            }
            "control_request" => {
                let req = obj.get("request").cloned().unwrap_or(Value::Null);
                if get_str(&req, "subtype") == Some("can_use_tool") {
                    out.event(
                        "approval_request",
                        json!({
                            "request_id": obj.get("request_id").cloned().unwrap_or(Value::Null),
                            "call_id": req.get("tool_use_id").cloned().unwrap_or(Value::Null),
                            "tool": req.get("tool_name").cloned().unwrap_or(Value::Null),
                            "input": req.get("input").cloned().unwrap_or(Value::Null),
                        }),
                    );
                } else {
                    out.foreign(obj);
                }
            }
            "result" => self.result(obj, out),
            _ => out.foreign(obj),
        }
    }

    fn end(&mut self, exit: Exit, cut: bool, out: &mut Out) -> Ending {
        if !self.started {
            self.start(None, out);
        }
        let Some(r) = &self.result else {
            return Ending::no_terminal(Tool::ClaudeCode, TERMINAL, exit, cut);
        };
        let r = Value::Object(r.clone());
        let subtype = get_str(&r, "subtype").unwrap_or("");
        let terminal = get_str(&r, "terminal_reason").unwrap_or("");
        let is_error = r.get("is_error").and_then(Value::as_bool).unwrap_or(false);
        if terminal.starts_with("aborted") {
            return Ending::cancelled(
                format!("claude-code stopped: {terminal}"),
                exit.interrupted().unwrap_or(1),
            );
        }
        if let Some(code) = exit.interrupted() {
            return Ending::cancelled(
                format!("claude-code was interrupted ({})", exit.describe()),
                code,
            );
        }
        if let Some(limit) = limit_of(subtype, terminal) {
            return Ending::limit(limit);
        }
        if is_error || subtype != "success" {
            let reason = [terminal, subtype]
                .into_iter()
                .find(|s| !s.is_empty() && *s != "success")
                .unwrap_or("api_error");
            return Ending::failed(reason.to_string(), "claude_code_error", error_text(&r));
        }
        match (exit.signal, exit.code) {
            (Some(_), _) | (_, Some(1..)) => Ending::failed(
                "exit_after_success",
                "runtime_failed",
                format!(
                    "claude-code reported success, then ended with {}",
                    exit.describe()
                ),
            ),
            _ => Ending::done(if terminal.is_empty() {
                "completed"
            } else {
                terminal
            }),
        }
    }
}

/// The limit a result names: `--max-turns` or `--max-budget-usd`.
fn limit_of(subtype: &str, terminal: &str) -> Option<&'static str> {
    match (subtype, terminal) {
        ("error_max_turns", _) | (_, "max_turns") => Some("max_turns"),
        ("error_max_budget_usd", _) | (_, "budget_exhausted") => Some("max_budget_usd"),
        _ => None,
    }
}

fn error_text(r: &Value) -> String {
    if let Some(t) = get_str(r, "result").filter(|t| !t.is_empty()) {
        return t.to_string();
    }
    if let Some(Value::Array(errors)) = r.get("errors") {
        let texts: Vec<String> = errors
            .iter()
            .map(|e| e.as_str().map_or_else(|| e.to_string(), str::to_string))
            .collect();
        if !texts.is_empty() {
            return texts.join("; ");
        }
    }
    format!(
        "claude-code reported an error ({})",
        get_str(r, "subtype").unwrap_or("no subtype")
    )
}

impl ClaudeCode {
    fn start(&mut self, init: Option<&Map<String, Value>>, out: &mut Out) {
        self.started = true;
        let Some(init) = init else {
            out.event("run_start", json!({"agent": "claude-code", "model": null}));
            return;
        };
        let init = Value::Object(init.clone());
        let count = |k: &str| init.get(k).and_then(Value::as_array).map_or(0, Vec::len);
        let mcp: Vec<Value> = init
            .get("mcp_servers")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| json!({"name": s.get("name"), "status": s.get("status")}))
                    .collect()
            })
            .unwrap_or_default();
        self.api_key_source = get_str(&init, "apiKeySource").map(str::to_string);
        // The inventories (tools, slash commands, skills, plugins with their home-directory
        // paths, memory paths) are counted, not kept.
        out.event(
            "run_start",
            json!({
                "agent": "claude-code",
                "model": init.get("model"),
                "source": {
                    "tool": "claude-code",
                    "version": init.get("claude_code_version"),
                    "session_id": init.get("session_id"),
                    "permission_mode": init.get("permissionMode"),
                    "api_key_source": init.get("apiKeySource"),
                    "cwd": init.get("cwd"),
                    "tools": count("tools"),
                    "mcp_servers": mcp,
                    "plugins": count("plugins"),
                    "skills": count("skills"),
                    "agents": count("agents"),
                    "slash_commands": count("slash_commands"),
                },
            }),
        );
    }

    fn system(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let v = Value::Object(obj);
        let s = |k: &str| get_str(&v, k).unwrap_or("");
        match s("subtype") {
            "init" if !self.started => {
                let Value::Object(m) = &v else { unreachable!() };
                self.start(Some(m), out);
            }
            "thinking_tokens" | "status" => {}
            "task_started" => {
                let (call, task) = (s("tool_use_id").to_string(), s("task_id").to_string());
                self.tasks.insert(call.clone(), task.clone());
                self.workflows.insert(task.clone(), call.clone());
                out.event(
                    "workflow_agent_start",
                    json!({
                        "workflow_id": call, "agent_id": task, "text": v.get("description"),
                        "subagent_type": v.get("subagent_type"), "prompt": v.get("prompt"),
                    }),
                );
            }
            "task_progress" | "task_updated" => {
                let task = s("task_id").to_string();
                let call = self
                    .workflows
                    .get(&task)
                    .cloned()
                    .unwrap_or_else(|| s("tool_use_id").to_string());
                let text = match v.get("patch").and_then(|p| get_str(p, "status")) {
                    Some(status) => format!("status {status}"),
                    None => s("description").to_string(),
                };
                out.event(
                    "workflow_agent_activity",
                    json!({"workflow_id": call, "agent_id": task, "kind": "progress", "text": text,
                           "last_tool_name": v.get("last_tool_name")}),
                );
            }
            "task_notification" => {
                let task = s("task_id").to_string();
                let call = self
                    .workflows
                    .get(&task)
                    .cloned()
                    .unwrap_or_else(|| s("tool_use_id").to_string());
                out.event(
                    "workflow_agent_end",
                    json!({"workflow_id": call, "agent_id": task, "status": v.get("status"), "text": v.get("summary")}),
                );
            }
            "hook_started" | "hook_progress" | "hook_response" => {
                let mut text = format!(
                    "hook {} ({}) {}",
                    s("hook_name"),
                    s("hook_event"),
                    s("subtype").trim_start_matches("hook_")
                );
                if let Some(o) = v.get("outcome").and_then(Value::as_str) {
                    text.push_str(&format!(": {o}"));
                }
                if let Some(c) = v.get("exit_code").filter(|c| !c.is_null()) {
                    text.push_str(&format!(", exit code {c}"));
                }
                for k in ["stdout", "stderr", "output"] {
                    if let Some(t) = v.get(k).and_then(Value::as_str).filter(|t| !t.is_empty()) {
                        text.push_str(&format!("\n{k}: {t}"));
                    }
                }
                out.notice("hook", &text);
            }
            "api_retry" => {
                let text = format!(
                    "claude-code retries the API (attempt {} of {}) after {} {}",
                    v.get("attempt").unwrap_or(&Value::Null),
                    v.get("max_retries").unwrap_or(&Value::Null),
                    v.get("error_status").unwrap_or(&Value::Null),
                    s("error")
                );
                out.notice("api_retry", &text);
            }
            "compact_boundary" => {
                out.notice("compact_boundary", "claude-code compacted its context")
            }
            _ => {
                let Value::Object(m) = v else { unreachable!() };
                out.foreign(m);
            }
        }
    }

    fn assistant(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let msg = obj.get("message").cloned().unwrap_or(Value::Null);
        let id = get_str(&msg, "id").unwrap_or("").to_string();
        let blocks = msg
            .get("content")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(parent) = obj.get("parent_tool_use_id").and_then(Value::as_str) {
            for b in &blocks {
                let (kind, text) = match get_str(b, "type") {
                    Some("text") => ("text", get_str(b, "text").unwrap_or("").to_string()),
                    Some("thinking") => {
                        ("thinking", get_str(b, "thinking").unwrap_or("").to_string())
                    }
                    Some("tool_use") => (
                        "tool_use",
                        format!(
                            "{}: {}",
                            get_str(b, "name").unwrap_or("tool"),
                            b.get("input").unwrap_or(&Value::Null)
                        ),
                    ),
                    _ => continue,
                };
                self.activity(parent, kind, &text, out);
            }
            return;
        }
        // A synthetic message carrying an API error is not the answer.
        if obj.get("error").is_some_and(|e| !e.is_null()) {
            for b in &blocks {
                if let Some(t) = get_str(b, "text") {
                    out.notice("claude_api_error", t);
                }
            }
            return;
        }
        let repeated = self.streamed.contains(&id);
        for b in blocks {
            match get_str(&b, "type") {
                Some("text") if !repeated => {
                    self.text_block(&id, get_str(&b, "text").unwrap_or(""), out)
                }
                // The signature is opaque base64: dropped.
                Some("thinking") if !repeated => {
                    self.thinking_block(&id, get_str(&b, "thinking").unwrap_or(""), out)
                }
                Some("text" | "thinking") => {}
                Some("redacted_thinking") => out.notice(
                    "redacted_thinking",
                    "claude-code sent a redacted thinking block; its opaque data is not kept",
                ),
                Some("tool_use" | "server_tool_use") => tool_use(
                    b.get("id").cloned(),
                    b.get("name").cloned(),
                    b.get("input").cloned(),
                    out,
                ),
                _ => {
                    let mut m = Map::new();
                    m.insert("type".into(), Value::String("assistant_block".into()));
                    m.insert("block".into(), drop_bulk(b));
                    out.foreign(m);
                }
            }
        }
    }

    fn user(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let msg = obj.get("message").cloned().unwrap_or(Value::Null);
        let parent = obj
            .get("parent_tool_use_id")
            .and_then(Value::as_str)
            .map(str::to_string);
        let synthetic = obj
            .get("isSynthetic")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let blocks = match msg.get("content") {
            Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        };
        // `tool_use_result` repeats the tool result in another shape: dropped.
        for b in blocks {
            match (get_str(&b, "type"), &parent) {
                (Some("tool_result"), None) => {
                    let call = get_str(&b, "tool_use_id").unwrap_or("");
                    let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                    tool_result(call, &result_text(b.get("content")), is_error, out);
                }
                (Some("tool_result"), Some(p)) => {
                    let text = result_text(b.get("content"));
                    self.activity(p, "tool_result", &text, out);
                }
                (Some("text"), Some(p)) => {
                    self.activity(p, "prompt", get_str(&b, "text").unwrap_or(""), out)
                }
                (Some("text"), None) => {
                    let code = if synthetic {
                        "claude_injected"
                    } else {
                        "claude_user_text"
                    };
                    out.notice(code, get_str(&b, "text").unwrap_or(""));
                }
                (Some("image"), _) => out.notice("claude_image", &image_text(&b)),
                _ => {
                    let mut m = Map::new();
                    m.insert("type".into(), Value::String("user_block".into()));
                    m.insert("block".into(), drop_bulk(b));
                    out.foreign(m);
                }
            }
        }
    }

    /// A top-level text block: the answer (blocks of separate messages are separated).
    fn text_block(&mut self, msg: &str, text: &str, out: &mut Out) {
        out.text_event("assistant_delta", self.answer.block(msg, text), text);
    }

    fn thinking_block(&mut self, msg: &str, text: &str, out: &mut Out) {
        out.text_event("thinking_delta", self.thinking.block(msg, text), text);
    }

    fn activity(&mut self, parent: &str, kind: &str, text: &str, out: &mut Out) {
        let agent = self
            .tasks
            .get(parent)
            .cloned()
            .unwrap_or_else(|| parent.to_string());
        let text = out.scrubbed_bounded(text, ACTIVITY_MAX);
        out.event(
            "workflow_agent_activity",
            json!({"workflow_id": parent, "agent_id": agent, "kind": kind, "text": text}),
        );
    }

    fn stream_event(&mut self, obj: &Map<String, Value>, out: &mut Out) {
        if obj.get("parent_tool_use_id").is_some_and(|p| !p.is_null()) {
            return; // subagent partials: their whole blocks follow
        }
        let ev = obj.get("event").cloned().unwrap_or(Value::Null);
        match get_str(&ev, "type") {
            Some("message_start") => {
                self.streaming = ev
                    .get("message")
                    .and_then(|m| get_str(m, "id"))
                    .map(str::to_string);
            }
            Some("content_block_start") => {
                let kind = ev.get("content_block").and_then(|b| get_str(b, "type"));
                self.sep_pending = kind == Some("text") && self.answer.written;
                self.think_sep_pending = kind == Some("thinking") && self.thinking.written;
            }
            Some("content_block_delta") => {
                let delta = ev.get("delta").cloned().unwrap_or(Value::Null);
                let (ty, text, sep) = match get_str(&delta, "type") {
                    Some("text_delta") => (
                        "assistant_delta",
                        get_str(&delta, "text"),
                        &mut self.sep_pending,
                    ),
                    Some("thinking_delta") => (
                        "thinking_delta",
                        get_str(&delta, "thinking"),
                        &mut self.think_sep_pending,
                    ),
                    _ => return,
                };
                let text = text.unwrap_or("");
                let prefix = if std::mem::take(sep) { "\n\n" } else { "" };
                if ty == "assistant_delta" {
                    self.answer.written |= !text.is_empty();
                } else {
                    self.thinking.written |= !text.is_empty();
                }
                if let Some(id) = &self.streaming {
                    self.streamed.insert(id.clone());
                }
                out.event(ty, json!({"text": format!("{prefix}{text}")}));
            }
            _ => {}
        }
    }

    fn result(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let r = Value::Object(obj.clone());
        let subtype = get_str(&r, "subtype").unwrap_or("");
        let terminal = get_str(&r, "terminal_reason").unwrap_or("");
        // The foreign result, kept on the record (scrubbed); `modelUsage` and the
        // per-iteration usage are not kept.
        out.event(
            "foreign_result",
            json!({
                "tool": "claude-code",
                "subtype": r.get("subtype"), "is_error": r.get("is_error"),
                "terminal_reason": r.get("terminal_reason"), "stop_reason": r.get("stop_reason"),
                "api_error_status": r.get("api_error_status"), "num_turns": r.get("num_turns"),
                "duration_ms": r.get("duration_ms"), "session_id": r.get("session_id"),
                "result": r.get("result"), "errors": r.get("errors"),
                "structured_output": r.get("structured_output"),
                "total_cost_usd": r.get("total_cost_usd"),
            }),
        );
        if let Some(Value::Array(denials)) = r.get("permission_denials") {
            for d in denials {
                let text = format!(
                    "claude-code denied {} ({}): {}",
                    get_str(d, "tool_name").unwrap_or("a tool"),
                    get_str(d, "tool_use_id").unwrap_or("no id"),
                    d.get("tool_input").unwrap_or(&Value::Null)
                );
                out.notice("permission_denied", &text);
            }
        }
        match limit_of(subtype, terminal) {
            Some("max_turns") => out.notice(
                "limit",
                &format!("Stopped at claude-code --max-turns ({} turns). Raise it or split the work.", get_u64(&r, "num_turns")),
            ),
            Some(_) => out.notice(
                "limit",
                &format!("Stopped at claude-code --max-budget-usd ({} USD spent). Raise it or split the work.", r.get("total_cost_usd").unwrap_or(&Value::Null)),
            ),
            None => {}
        }
        if let Some(usd) = r
            .get("total_cost_usd")
            .filter(|u| u.as_f64().is_some_and(|x| x >= 0.0))
        {
            // A subscription login (apiKeySource "none", or no init seen) is billed by
            // plan: the figure is the CLI's list-price estimate, never a bill.
            let billed = self.api_key_source.as_deref().is_some_and(|s| s != "none");
            let (status, basis) = if billed {
                ("billed", "an API key login: billed per token")
            } else {
                (
                    "estimated",
                    "a subscription login (apiKeySource none): a list-price estimate, not a bill",
                )
            };
            out.event(
                "cost",
                json!({"usd": usd, "source": "claude-code result.total_cost_usd", "status": status, "basis": basis}),
            );
        }
        let usage = r.get("usage").cloned().unwrap_or(Value::Null);
        let input = get_u64(&usage, "input_tokens")
            + get_u64(&usage, "cache_read_input_tokens")
            + get_u64(&usage, "cache_creation_input_tokens");
        out.event(
            "turn_end",
            json!({"usage": {"input": input, "output": get_u64(&usage, "output_tokens")},
                   "context": {"estimated_tokens": input}}),
        );
        self.answer.written = false;
        self.thinking.written = false;
        self.result = Some(obj);
    }
}

fn tool_use(id: Option<Value>, name: Option<Value>, input: Option<Value>, out: &mut Out) {
    let input = input.unwrap_or_else(|| json!({}));
    out.event(
        "tool_start",
        json!({"call_id": id, "tool": name, "title": title_of(&input), "input": input}),
    );
}

/// A top-level tool result: its text as the call's output, then its end. An error
/// result is a refusal (`denied`) or a tool that ran and failed.
fn tool_result(call: &str, text: &str, is_error: bool, out: &mut Out) {
    let (status, outcome) = match (is_error, is_error && denied(text)) {
        (false, _) => ("completed", "ok"),
        (true, true) => ("denied", "failed"),
        (true, false) => ("completed", "failed"),
    };
    if !text.is_empty() {
        out.output_event(call, text);
    }
    out.tool_end(call, status, outcome);
}

/// A tool result's text: the string, or its text blocks joined; other blocks become a
/// short placeholder (an image is its media type and size, never its bytes).
fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| match get_str(b, "type") {
                Some("text") => get_str(b, "text").unwrap_or("").to_string(),
                Some("image") => image_text(b),
                Some("tool_reference") => format!(
                    "[tool reference: {}]",
                    get_str(b, "tool_name").unwrap_or("?")
                ),
                Some(other) => format!("[{other} block not kept]"),
                None => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn image_text(b: &Value) -> String {
    let src = b.get("source").cloned().unwrap_or(Value::Null);
    let size = get_str(&src, "data").map_or(0, str::len);
    format!(
        "[image: {}, {size} bytes of base64 not kept]",
        get_str(&src, "media_type").unwrap_or("unknown type")
    )
}

/// A block kept on the record without its bulk: base64 data becomes its size.
fn drop_bulk(mut b: Value) -> Value {
    if let Some(src) = b.get_mut("source").and_then(Value::as_object_mut) {
        if let Some(Value::String(d)) = src.get("data") {
            let n = d.len();
            src.insert(
                "data".into(),
                Value::String(format!("[{n} bytes of base64 not kept]")),
            );
        }
    }
    if let Some(m) = b.as_object_mut() {
        m.remove("signature");
        m.remove("data");
    }
    b
}

/// An error result that is a refusal (a hook block, a permission not granted), not a
/// tool that ran and failed.
fn denied(text: &str) -> bool {
    let t = text.to_lowercase();
    [
        "hook error",
        "blocked by",
        "requested permissions",
        "haven't granted",
        "doesn't want to proceed",
        "tool use was rejected",
        "permission to use",
    ]
    .iter()
    .any(|p| t.contains(p))
}
