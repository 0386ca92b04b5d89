//! Gemini CLI's `gemini -p … --output-format stream-json`: `init`, `message`, `tool_use`,
//! `tool_result`, `error`, `result` (schema: packages/core/src/output/types.ts). The
//! assistant text comes as real deltas; a turn limit is an `error` followed by a
//! `result` that says success; fatal errors exit with documented codes (utils/errors.ts).

use serde_json::{json, Map, Value};

use super::{get_str, get_u64, title_of, Dialect, Ending, Exit, Out, Tool};

/// Gemini CLI's exit code for a turn limit (`FatalTurnLimitedError`).
const EXIT_TURN_LIMIT: i32 = 53;

#[derive(Default)]
pub(crate) struct Gemini {
    /// `init`, held until the prompt echo (or any other event) arrives.
    init: Option<Map<String, Value>>,
    started: bool,
    /// An `error` event said the session turn limit was reached.
    turn_limit: bool,
    result: Option<Map<String, Value>>,
}

impl Dialect for Gemini {
    fn line(&mut self, obj: Map<String, Value>, out: &mut Out) {
        let v = Value::Object(obj);
        let ty = get_str(&v, "type").unwrap_or("");
        if ty == "init" && !self.started {
            let Value::Object(m) = v else { unreachable!() };
            self.init = Some(m);
            return;
        }
        if ty == "message" && get_str(&v, "role") == Some("user") && !self.started {
            self.start(v.get("content").cloned(), out);
            return;
        }
        if !self.started {
            self.start(None, out);
        }
        match ty {
            "message" if get_str(&v, "role") == Some("assistant") => {
                out.event(
                    "assistant_delta",
                    json!({"text": get_str(&v, "content").unwrap_or("")}),
                );
            }
            "message" => out.notice("gemini_user_text", get_str(&v, "content").unwrap_or("")),
            "tool_use" => {
                let input = v.get("parameters").cloned().unwrap_or_else(|| json!({}));
                out.event(
                    "tool_start",
                    json!({"call_id": v.get("tool_id"), "tool": v.get("tool_name"), "title": title_of(&input), "input": input}),
                );
            }
            "tool_result" => {
                let call = v.get("tool_id").cloned().unwrap_or(Value::Null);
                let error = v.get("error").filter(|e| !e.is_null());
                let mut text = get_str(&v, "output").unwrap_or("").to_string();
                if let Some(m) = error.and_then(|e| get_str(e, "message")) {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(m);
                }
                if !text.is_empty() {
                    out.event("tool_output_delta", json!({"call_id": call, "text": text}));
                }
                let kind = error.and_then(|e| get_str(e, "type")).unwrap_or("");
                let (status, outcome) = match get_str(&v, "status") {
                    Some("success") => ("completed", "ok"),
                    _ if kind == "tool_not_registered"
                        || kind.contains("policy")
                        || kind.contains("denied") =>
                    {
                        ("denied", "failed")
                    }
                    _ => ("failed", "failed"),
                };
                out.event(
                    "tool_end",
                    json!({"call_id": call, "status": status, "outcome": outcome}),
                );
            }
            "error" => {
                let severity = get_str(&v, "severity").unwrap_or("error");
                let message = get_str(&v, "message").unwrap_or("");
                if message.to_lowercase().contains("maximum session turns") {
                    self.turn_limit = true;
                    out.notice(
                        "limit",
                        &format!(
                            "Stopped at the gemini session turn limit (maxSessionTurns): {message}"
                        ),
                    );
                } else {
                    out.notice(&format!("gemini_{severity}"), message);
                }
            }
            "result" => {
                let stats = v.get("stats").cloned().unwrap_or(Value::Null);
                out.event(
                    "foreign_result",
                    json!({"tool": "gemini", "status": v.get("status"), "error": v.get("error"),
                           "duration_ms": stats.get("duration_ms"), "tool_calls": stats.get("tool_calls")}),
                );
                let input = get_u64(&stats, "input_tokens");
                out.event(
                    "turn_end",
                    json!({"usage": {"input": input, "output": get_u64(&stats, "output_tokens")},
                           "context": {"estimated_tokens": input}}),
                );
                let Value::Object(m) = v else { unreachable!() };
                self.result = Some(m);
            }
            _ => {
                let Value::Object(m) = v else { unreachable!() };
                out.foreign(m);
            }
        }
    }

    fn end(&mut self, exit: Exit, cut: bool, out: &mut Out) -> Ending {
        if !self.started {
            self.start(None, out);
        }
        if let Some(code) = exit.interrupted() {
            return Ending::cancelled(
                format!("gemini was interrupted ({})", exit.describe()),
                code,
            );
        }
        let Some(r) = &self.result else {
            if exit.code == Some(EXIT_TURN_LIMIT) || self.turn_limit {
                if !self.turn_limit {
                    out.notice(
                        "limit",
                        "Stopped at the gemini session turn limit (exit status 53).",
                    );
                }
                return Ending::limit("max_session_turns");
            }
            if let Some(c) = exit.code.filter(|c| *c != 0) {
                let why = match c {
                    41 => "an authentication error",
                    42 => "an input error",
                    44 => "a sandbox error",
                    52 => "a configuration error",
                    54 => "a tool execution error",
                    55 => "an untrusted workspace",
                    _ => "an error",
                };
                return Ending::failed(
                    format!("gemini_exit_{c}"),
                    "gemini_error",
                    format!("gemini exited with status {c} ({why}) before its result event"),
                );
            }
            return Ending::no_terminal(Tool::Gemini, "result", exit, cut);
        };
        let r = Value::Object(r.clone());
        let error = r.get("error").cloned().unwrap_or(Value::Null);
        let kind = get_str(&error, "type").unwrap_or("");
        match get_str(&r, "status") {
            _ if kind.contains("Cancel") => {
                Ending::cancelled("gemini reported the run cancelled", 1)
            }
            _ if kind.contains("TurnLimited")
                || self.turn_limit
                || exit.code == Some(EXIT_TURN_LIMIT) =>
            {
                Ending::limit("max_session_turns")
            }
            Some("success") => match (exit.signal, exit.code) {
                (Some(_), _) | (_, Some(1..)) => Ending::failed(
                    "exit_after_success",
                    "runtime_failed",
                    format!(
                        "gemini reported success, then ended with {}",
                        exit.describe()
                    ),
                ),
                _ => Ending::done("completed"),
            },
            _ => {
                let message = get_str(&error, "message").unwrap_or("gemini reported an error");
                let reason = if kind.is_empty() {
                    "gemini_error"
                } else {
                    kind
                };
                Ending::failed(reason.to_string(), "gemini_error", message.to_string())
            }
        }
    }
}

impl Gemini {
    fn start(&mut self, prompt: Option<Value>, out: &mut Out) {
        self.started = true;
        let init = Value::Object(self.init.take().unwrap_or_default());
        out.event(
            "run_start",
            json!({
                "agent": "gemini",
                // The requested alias (`auto`…): the models used are in the result's stats.
                "model": init.get("model"),
                "prompt": prompt,
                "source": {"tool": "gemini", "session_id": init.get("session_id")},
            }),
        );
    }
}
