//! The text of a run: one stateful stream per delta source (assistant, thinking, each
//! tool call's output, D2) and the scrubber for whole field values (D1).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::version::bounded;
use crate::scrub::{RuleSet, Scrubber};

/// `tool_end.output` keeps at most this many bytes of the call's scrubbed output.
pub const TOOL_OUTPUT_MAX: usize = 64 << 10;

/// One stream of text: its scrubber plus bytes of a character split by the scrubber's
/// release point (they wait for the rest of the character).
#[derive(Debug)]
pub(super) struct Stream {
    scrubber: Scrubber,
    partial: Vec<u8>,
}

impl Stream {
    pub(super) fn new(rules: &Arc<RuleSet>) -> Stream {
        Stream {
            scrubber: Scrubber::new(Arc::clone(rules)),
            partial: Vec::new(),
        }
    }

    fn text(&mut self, released: Vec<u8>, end: bool) -> String {
        let mut bytes = std::mem::take(&mut self.partial);
        bytes.extend_from_slice(&released);
        if !end {
            if let Err(e) = std::str::from_utf8(&bytes) {
                if e.error_len().is_none() {
                    self.partial = bytes.split_off(e.valid_up_to());
                }
            }
        }
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }
    }

    pub(super) fn feed(&mut self, text: &str) -> String {
        let mut out = Vec::with_capacity(text.len());
        self.scrubber.feed(text.as_bytes(), &mut out);
        self.text(out, false)
    }

    pub(super) fn flush(&mut self) -> String {
        let mut out = Vec::new();
        self.scrubber.flush(&mut out);
        self.text(out, true)
    }
}

#[derive(Debug)]
pub(super) struct ToolCall {
    pub(super) stream: Stream,
    pub(super) output: String,
    pub(super) truncated: bool,
}

impl ToolCall {
    pub(super) fn gather(&mut self, text: &str) {
        let room = TOOL_OUTPUT_MAX.saturating_sub(self.output.len());
        let kept = bounded(text, room);
        self.output.push_str(kept);
        if kept.len() < text.len() {
            self.truncated = true;
        }
    }
}

/// Scrubs whole field values (everything but the streams): one scrubber, fed one value
/// and flushed, again and again, so no value costs a scrubber of its own.
#[derive(Debug)]
pub(super) struct FieldScrubber {
    pub(super) scrubber: Scrubber,
    pub(super) out: Vec<u8>,
}

impl FieldScrubber {
    /// Scrub every string value of an event in place (keys and numbers are kept).
    pub(super) fn map(&mut self, obj: &mut Map<String, Value>) {
        obj.values_mut().for_each(|v| self.value(v));
    }

    fn value(&mut self, v: &mut Value) {
        match v {
            Value::String(s) => {
                if !self.scrubber.has_keyword(s.as_bytes()) {
                    return; // nothing a rule could start at: unchanged
                }
                self.out.clear();
                self.scrubber.feed(s.as_bytes(), &mut self.out);
                self.scrubber.flush(&mut self.out);
                if self.out != s.as_bytes() {
                    *s = String::from_utf8_lossy(&self.out).into_owned();
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| self.value(i)),
            Value::Object(m) => m.values_mut().for_each(|i| self.value(i)),
            _ => {}
        }
    }
}
