//! Codex's `codex exec --json`: `thread.started`, `turn.*` and `item.*` events (schema:
//! codex-rs/exec/src/exec_events.rs). Items can grow (`item.updated` repeats the whole
//! `aggregated_output`): only the new suffix is written. An interrupted turn writes no
//! terminal event at all; the exit status decides then.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::{get_str, get_u64, Dialect, Ending, Exit, Out, Tool};

#[derive(Default)]
pub(crate) struct Codex {
    started: bool,
    /// Text already written per item id (messages, reasoning, command output, diffs).
    sent: HashMap<String, String>,
    /// Tool calls started (their `tool_start` written) and not yet ended; ended ones.
    open: HashSet<String>,
    ended: HashSet<String>,
    answered: bool,
    thought: bool,
    legacy_noted: bool,
    /// `turn.completed` (true) or `turn.failed` (false, with its message), the last one.
    terminal: Option<(bool, String)>,
}

impl Dialect for Codex {
    fn line(&mut self, obj: Map<String, Value>, out: &mut Out) {
        if !self.started {
            self.started = true;
            let thread = obj.get("thread_id").cloned().unwrap_or(Value::Null);
            out.event(
                "run_start",
                json!({"agent": "codex", "model": null, "source": {"tool": "codex", "thread_id": thread}}),
            );
        }
        let v = Value::Object(obj);
        match get_str(&v, "type") {
            Some("thread.started" | "turn.started") => {}
            Some("turn.completed") => {
                let usage = v.get("usage").cloned().unwrap_or(Value::Null);
                let input = get_u64(&usage, "input_tokens");
                out.event(
                    "turn_end",
                    json!({"usage": {"input": input, "output": get_u64(&usage, "output_tokens")},
                           "context": {"estimated_tokens": input}}),
                );
                self.terminal = Some((true, String::new()));
                self.answered = false;
                self.thought = false;
            }
            Some("turn.failed") => {
                let message = v
                    .get("error")
                    .and_then(|e| get_str(e, "message"))
                    .unwrap_or("the turn failed");
                self.terminal = Some((false, message.to_string()));
            }
            Some("error") => out.notice("codex_error", get_str(&v, "message").unwrap_or("")),
            Some("request_user_input") => out.notice(
                "codex_input_request",
                "codex asked for user input, which `codex exec` cannot answer",
            ),
            Some(ty @ ("item.started" | "item.updated" | "item.completed")) => {
                let item = v.get("item").cloned().unwrap_or(Value::Null);
                self.item(ty, &item, out);
            }
            _ => {
                if v.get("msg").is_some() && v.get("id").is_some() && !self.legacy_noted {
                    self.legacy_noted = true;
                    out.notice(
                        "codex_unsupported_version",
                        "unsupported codex version: this is the legacy {id,msg} protocol (codex before 0.44); its events are kept on the record only",
                    );
                }
                let Value::Object(m) = v else { unreachable!() };
                out.foreign(m);
            }
        }
    }

    fn end(&mut self, exit: Exit, cut: bool, out: &mut Out) -> Ending {
        if !self.started {
            self.started = true;
            out.event("run_start", json!({"agent": "codex", "model": null}));
        }
        if let Some(code) = exit.interrupted() {
            return Ending::cancelled(format!("codex was interrupted ({})", exit.describe()), code);
        }
        match &self.terminal {
            None => Ending::no_terminal(Tool::Codex, "turn.completed or turn.failed", exit, cut),
            Some((false, message)) => {
                if is_usage_limit(message) {
                    out.notice(
                        "limit",
                        &format!("Stopped at the codex usage limit: {message}"),
                    );
                    return Ending::limit("codex_usage_limit");
                }
                Ending::failed("turn_failed", "codex_turn_failed", message.clone())
            }
            // The exit status of codex is not trusted over its stream (turn.failed with
            // exit 0 is common), but a completed turn then a crash is not a success.
            Some((true, _)) => match (exit.signal, exit.code) {
                (Some(_), _) | (_, Some(1..)) => Ending::failed(
                    "exit_after_success",
                    "runtime_failed",
                    format!(
                        "codex completed its turn, then ended with {}",
                        exit.describe()
                    ),
                ),
                _ => Ending::done("completed"),
            },
        }
    }
}

fn is_usage_limit(message: &str) -> bool {
    let m = message.to_lowercase();
    m.contains("usage limit") || m.contains("usagelimitexceeded") || m.contains("quota exceeded")
}

impl Codex {
    fn item(&mut self, ev: &str, item: &Value, out: &mut Out) {
        let id = get_str(item, "id").unwrap_or("").to_string();
        let done = ev == "item.completed";
        match get_str(item, "type") {
            Some("agent_message") => {
                let text = get_str(item, "text").unwrap_or("");
                self.grow(&id, text, "assistant_delta", None, out);
            }
            Some("reasoning") => {
                let text = get_str(item, "text").unwrap_or("");
                self.grow(&id, text, "thinking_delta", None, out);
            }
            Some("command_execution") => {
                let command = item.get("command").cloned().unwrap_or(Value::Null);
                self.start_tool(
                    &id,
                    "shell",
                    command.clone(),
                    json!({"command": command}),
                    out,
                );
                let output = get_str(item, "aggregated_output").unwrap_or("");
                self.grow(&id, output, "tool_output_delta", Some(&id), out);
                if done {
                    let exit_code = item.get("exit_code").and_then(Value::as_i64);
                    let (status, outcome) = match (get_str(item, "status"), exit_code) {
                        (Some("declined"), _) => ("denied", Value::from("failed")),
                        (_, Some(0)) => ("completed", Value::from("ok")),
                        // `failed` with an exit code means it ran and exited non-zero.
                        (_, Some(_)) => ("completed", Value::from("failed")),
                        (Some("failed"), None) => ("failed", Value::from("failed")),
                        // Still running when the turn ended: it ran, its use is unknown.
                        _ => ("completed", Value::Null),
                    };
                    self.end_tool(&id, status, outcome, json!({"exit_code": exit_code}), out);
                }
            }
            Some("file_change") => {
                let changes: Vec<Value> = item
                    .get("changes")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|c| json!({"path": c.get("path"), "kind": c.get("kind")}))
                            .collect()
                    })
                    .unwrap_or_default();
                let paths: Vec<&str> = changes.iter().filter_map(|c| get_str(c, "path")).collect();
                let title = Value::String(paths.join(", "));
                self.start_tool(&id, "apply_patch", title, json!({"changes": changes}), out);
                // Diffs (newer builds) stream as the call's output, never into its input.
                let diffs: Vec<&str> = item
                    .get("changes")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|c| get_str(c, "diff")).collect())
                    .unwrap_or_default();
                let diff = diffs.join("\n");
                self.grow(&id, &diff, "tool_output_delta", Some(&id), out);
                if done {
                    let (status, outcome) = match get_str(item, "status") {
                        Some("declined") => ("denied", "failed"),
                        Some("failed") => ("failed", "failed"),
                        _ => ("completed", "ok"),
                    };
                    self.end_tool(&id, status, Value::from(outcome), json!({}), out);
                }
            }
            Some("mcp_tool_call") => {
                let tool = format!(
                    "mcp:{}/{}",
                    get_str(item, "server").unwrap_or("?"),
                    get_str(item, "tool").unwrap_or("?")
                );
                let args = item.get("arguments").cloned().unwrap_or_else(|| json!({}));
                self.start_tool(
                    &id,
                    &tool,
                    item.get("tool").cloned().unwrap_or(Value::Null),
                    args,
                    out,
                );
                if done {
                    let mut text = String::new();
                    if let Some(result) = item.get("result").filter(|r| !r.is_null()) {
                        for c in result
                            .get("content")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                        {
                            match get_str(c, "type") {
                                Some("text") => text.push_str(get_str(c, "text").unwrap_or("")),
                                Some("image") => text.push_str(&format!(
                                    "[image: {}, {} bytes of base64 not kept]",
                                    get_str(c, "mimeType").unwrap_or("unknown type"),
                                    get_str(c, "data").map_or(0, str::len)
                                )),
                                Some(other) => {
                                    text.push_str(&format!("[{other} content not kept]"))
                                }
                                None => {}
                            }
                            text.push('\n');
                        }
                        if let Some(s) = result.get("structured_content").filter(|s| !s.is_null()) {
                            text.push_str(&s.to_string());
                        }
                    }
                    let error = item.get("error").and_then(|e| get_str(e, "message"));
                    if let Some(e) = error {
                        text.push_str(e);
                    }
                    self.grow(
                        &id,
                        text.trim_end_matches('\n'),
                        "tool_output_delta",
                        Some(&id),
                        out,
                    );
                    let failed = error.is_some() || get_str(item, "status") == Some("failed");
                    let (status, outcome) = if failed {
                        ("completed", "failed")
                    } else {
                        ("completed", "ok")
                    };
                    self.end_tool(&id, status, Value::from(outcome), json!({}), out);
                }
            }
            Some("web_search") => {
                let query = item.get("query").cloned().unwrap_or(Value::Null);
                self.start_tool(
                    &id,
                    "web_search",
                    query.clone(),
                    json!({"query": query}),
                    out,
                );
                if done {
                    self.end_tool(&id, "completed", Value::from("ok"), json!({}), out);
                }
            }
            Some("todo_list") => {
                let text: Vec<String> = item
                    .get("items")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|t| {
                                let mark =
                                    if t.get("completed").and_then(Value::as_bool) == Some(true) {
                                        "x"
                                    } else {
                                        " "
                                    };
                                format!("[{mark}] {}", get_str(t, "text").unwrap_or(""))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                out.event(
                    "workflow_plan",
                    json!({"workflow_id": id, "text": text.join("\n")}),
                );
            }
            Some("plan") => out.event(
                "workflow_plan",
                json!({"workflow_id": id, "text": item.get("text")}),
            ),
            Some("collab_tool_call") => {
                let agents: Vec<&str> = item
                    .get("receiver_thread_ids")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let agent = agents.join(",");
                let tool = get_str(item, "tool").unwrap_or("collab");
                let (ty, extra) = match (ev, tool) {
                    ("item.started", "spawn_agent") => {
                        ("workflow_agent_start", json!({"text": item.get("prompt")}))
                    }
                    ("item.completed", "close_agent") => {
                        ("workflow_agent_end", json!({"status": item.get("status")}))
                    }
                    _ => (
                        "workflow_agent_activity",
                        json!({"kind": tool, "text": item.get("prompt"), "status": item.get("status")}),
                    ),
                };
                let mut fields = json!({"workflow_id": id, "agent_id": agent});
                if let (Some(f), Value::Object(e)) = (fields.as_object_mut(), extra) {
                    f.extend(e);
                }
                out.event(ty, fields);
            }
            Some("error") => out.notice("codex_warning", get_str(item, "message").unwrap_or("")),
            _ => {
                let mut m = Map::new();
                m.insert(
                    "type".into(),
                    Value::String(format!(
                        "{ev}/{}",
                        get_str(item, "type").unwrap_or("untyped")
                    )),
                );
                m.insert("item".into(), item.clone());
                out.foreign(m);
            }
        }
    }

    /// Write only what is new in a snapshot of `id`'s text; a rewrite (not an extension)
    /// is said in a notice and written whole.
    fn grow(&mut self, id: &str, text: &str, ty: &str, call: Option<&str>, out: &mut Out) {
        let sent = self.sent.entry(id.to_string()).or_default();
        let new = if let Some(rest) = text.strip_prefix(sent.as_str()) {
            rest
        } else {
            out.notice(
                "codex_rewrite",
                "codex rewrote an item it had already sent; the new text follows whole",
            );
            text
        };
        if new.is_empty() {
            return;
        }
        let first = sent.is_empty();
        *sent = text.to_string();
        let mut piece = String::new();
        if first && call.is_none() {
            let flag = if ty == "assistant_delta" {
                &mut self.answered
            } else {
                &mut self.thought
            };
            if *flag {
                piece.push_str("\n\n");
            }
            *flag = true;
        }
        piece.push_str(new);
        match call {
            Some(c) => out.event(ty, json!({"call_id": c, "text": piece})),
            None => out.event(ty, json!({"text": piece})),
        }
    }

    fn start_tool(&mut self, id: &str, tool: &str, title: Value, input: Value, out: &mut Out) {
        if self.open.contains(id) || self.ended.contains(id) {
            return;
        }
        self.open.insert(id.to_string());
        out.event(
            "tool_start",
            json!({"call_id": id, "tool": tool, "title": title, "input": input}),
        );
    }

    fn end_tool(&mut self, id: &str, status: &str, outcome: Value, extra: Value, out: &mut Out) {
        if !self.open.remove(id) {
            return;
        }
        self.sent.remove(id);
        self.ended.insert(id.to_string());
        let mut fields = json!({"call_id": id, "status": status, "outcome": outcome});
        if let (Some(f), Value::Object(e)) = (fields.as_object_mut(), extra) {
            f.extend(e);
        }
        out.event("tool_end", fields);
    }
}
