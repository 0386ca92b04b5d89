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

    /// The released bytes as text: after any bytes held from the last release, and
    /// without a character the release point cut (kept for the next one, unless `end`).
    fn text(&mut self, released: Vec<u8>, end: bool) -> String {
        let bytes = if self.partial.is_empty() {
            released
        } else {
            let mut joined = std::mem::take(&mut self.partial);
            joined.extend_from_slice(&released);
            joined
        };
        match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let cut = e.utf8_error();
                let mut bytes = e.into_bytes();
                if !end && cut.error_len().is_none() {
                    // Only the last character is incomplete: all before it is valid.
                    self.partial = bytes.split_off(cut.valid_up_to());
                }
                match String::from_utf8(bytes) {
                    Ok(s) => s,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                }
            }
        }
    }

    pub(super) fn feed(&mut self, text: &str) -> String {
        let mut out = Vec::with_capacity(text.len());
        self.scrubber.feed(text.as_bytes(), &mut out);
        self.text(out, false)
    }

    pub(super) fn redactions(&self) -> u64 {
        self.scrubber.redactions()
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

    /// One string value scrubbed: `None` when it is unchanged.
    pub(super) fn text(&mut self, s: &str) -> Option<String> {
        if !self.scrubber.has_keyword(s.as_bytes()) {
            return None; // nothing a rule could start at: unchanged
        }
        self.out.clear();
        self.scrubber.feed(s.as_bytes(), &mut self.out);
        self.scrubber.flush(&mut self.out);
        (self.out != s.as_bytes()).then(|| String::from_utf8_lossy(&self.out).into_owned())
    }

    fn value(&mut self, v: &mut Value) {
        match v {
            Value::String(s) => {
                if let Some(scrubbed) = self.text(s) {
                    *s = scrubbed;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| self.value(i)),
            Value::Object(m) => m.values_mut().for_each(|i| self.value(i)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stream;
    use crate::RuleSet;

    /// A release point inside a character: its first bytes wait for the rest; at the
    /// end of the stream they go out (replaced, never dropped silently).
    #[test]
    fn a_character_cut_by_a_release_waits_for_its_rest() {
        let mut s = Stream::new(&RuleSet::builtin());
        assert_eq!(s.text(b"caf\xc3".to_vec(), false), "caf");
        assert_eq!(s.text(b"\xa9 ok".to_vec(), false), "\u{e9} ok");
        assert_eq!(s.text(b"\xe2\x82".to_vec(), false), "");
        assert_eq!(s.text(Vec::new(), true), "\u{fffd}");
        assert_eq!(s.text(b"\xffx".to_vec(), false), "\u{fffd}x");
    }
}
