//! The output boundary of one run: trace lines in; redacted canonical records (for the
//! store) and the selected version's published lines (for stdout) out; the terminal
//! result at the end. One object per run holds the per-stream scrubbers (D2) and what
//! the result needs (R1–R6). See docs/projection.md.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::json::{parse_flat, ObjWriter};
use super::text::{FieldScrubber, Stream, ToolCall};
use super::validate::{bad, check_turn_end, portable_numbers, text_field};
use super::version::{bounded, project_into, project_text_delta, At, Fields, SchemaVersion};
use crate::scrub::{scrub, RuleSet, Scrubber};
use crate::{Error, ExitCode};

/// A trace line is at most this many bytes (its newline excluded).
pub const MAX_LINE: usize = 8 << 20;
/// A trace error's message keeps at most this many bytes.
const ERROR_MAX: usize = 300;
/// Record types only the engine may write.
const ENGINE_ONLY: [&str; 1] = ["artifact_produced"];
/// The result's `assistant_text` keeps at most this many bytes (memory stays bounded).
pub const ANSWER_MAX: usize = 16 << 20;

#[derive(Clone, Debug)]
pub struct BoundaryConfig {
    pub version: SchemaVersion,
    pub run_id: String,
    pub rules: Arc<RuleSet>,
    /// `limits.turnTokens`: a `turn_end` whose input + output exceeds it stops the run.
    pub max_turn_tokens: Option<u64>,
}

/// One stored record: `(seq, turn, type, body)`; `body` is the record's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub seq: u64,
    pub turn: u64,
    pub kind: String,
    pub body: Vec<u8>,
}

/// What one admission produced: records to store, then lines to publish.
#[derive(Clone, Debug, Default)]
pub struct Step {
    pub records: Vec<Record>,
    pub out: Vec<u8>,
    /// The caller keeps no records (`scrubline project`): only the published lines are
    /// written (the same bytes), `records` stays empty, and a record no version
    /// publishes (tool output) costs no serialization at all.
    pub no_records: bool,
}

/// The newlines in `block` (the lines of a read, before they are admitted).
pub fn count_lines(block: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', block).count()
}

/// How the run ended, as the caller knows it (a signal, bad input, a dead runtime).
/// `None` fields fall back to what the trace said.
#[derive(Clone, Debug, Default)]
pub struct Finish {
    pub outcome: Option<String>,
    pub reason: Option<String>,
    /// `(code, message, line)`
    pub error: Option<(String, String, Option<u64>)>,
    pub exit_code: Option<i64>,
    pub admission_latency_us: u64,
    pub record_fsync_latency_us: u64,
    pub failed_runs: Option<u64>,
}

/// The boundary of one run.
#[derive(Debug)]
pub struct Boundary {
    cfg: BoundaryConfig,
    seq: u64,
    turn: u64,
    /// The first turn of this invocation (1, or the next turn of a resumed run).
    first_turn: u64,
    /// The last turn that saw runtime activity (0: none yet).
    active_turn: u64,
    assistant: Stream,
    thinking: Stream,
    tools: HashMap<String, ToolCall>,
    /// Redactions made by the streams of tool calls that have ended.
    ended_tool_redactions: u64,
    attachments: u64,
    artifacts_refused: u64,
    answer: String,
    cost: Option<Value>,
    /// A `cost` whose `status` is `estimated`: never the result's `cost_usd` (R4), only
    /// named in its `cost_reason` (`usd`, `source`).
    cost_estimate: Option<(Value, String)>,
    estimated_tokens: u64,
    /// `run_end` as the trace said it: outcome, reason, error.
    end: Option<(String, Value, Value)>,
    limit: Option<u64>,
    broker_ns: u128,
    finished: bool,
    fields: FieldScrubber,
    /// The size of the line being admitted: buffers are sized from it.
    size_hint: usize,
    /// The caller stores artifacts: a declaration waits in `pending` for its witness.
    artifact_store: bool,
    pending: Option<PendingArtifact>,
    /// Text deltas take the borrowed path (`admit_delta`); false only in tests.
    fast: bool,
}

/// An `artifact` declaration waiting for its durability witness (A2): the caller stores
/// the content, verifies its address, then calls [`Boundary::artifact_produced`] — or
/// refuses it with [`Boundary::notice`]. Text fields are already scrubbed (A4).
#[derive(Clone, Debug, PartialEq)]
pub struct PendingArtifact {
    pub content_b64: Option<String>,
    pub content_text: Option<String>,
    pub schema: Value,
    pub producer: Value,
    pub effect_id: Value,
    /// The declaration's `path`, scrubbed.
    pub locator: Value,
}

impl Boundary {
    pub fn new(cfg: BoundaryConfig) -> Boundary {
        let assistant = Stream::new(&cfg.rules);
        let fields = FieldScrubber {
            scrubber: Scrubber::new(Arc::clone(&cfg.rules)),
            out: Vec::new(),
        };
        let thinking = Stream::new(&cfg.rules);
        Boundary {
            cfg,
            seq: 0,
            turn: 1,
            first_turn: 1,
            active_turn: 0,
            assistant,
            thinking,
            tools: HashMap::new(),
            ended_tool_redactions: 0,
            attachments: 0,
            artifacts_refused: 0,
            answer: String::new(),
            cost: None,
            cost_estimate: None,
            estimated_tokens: 0,
            end: None,
            limit: None,
            broker_ns: 0,
            finished: false,
            size_hint: 0,
            fields,
            artifact_store: false,
            pending: None,
            fast: true,
        }
    }

    /// The caller keeps an artifact store: `artifact` declarations are handed over by
    /// [`Boundary::take_artifact`] instead of being refused.
    pub fn with_artifact_store(mut self) -> Boundary {
        self.artifact_store = true;
        self
    }

    /// The declaration admitted last, if it waits for a witness.
    pub fn take_artifact(&mut self) -> Option<PendingArtifact> {
        self.pending.take()
    }

    /// Record and publish the handle of an artifact whose content is stored and verified
    /// under `hash` (`sha256:<hex>`, never redacted, A4).
    pub fn artifact_produced(&mut self, hash: &str, a: &PendingArtifact) -> Step {
        let mut step = Step::default();
        let mut provenance = Map::new();
        provenance.insert("effect_id".into(), a.effect_id.clone());
        let mut handle = Map::new();
        handle.insert("hash".into(), Value::String(hash.to_string()));
        handle.insert("schema".into(), a.schema.clone());
        handle.insert("producer".into(), a.producer.clone());
        handle.insert("provenance".into(), Value::Object(provenance));
        handle.insert("locator".into(), a.locator.clone());
        let mut obj = Map::new();
        obj.insert("artifact".into(), Value::Object(handle));
        self.emit("artifact_produced", obj, &mut step);
        step
    }

    /// Record and publish an engine notice (its text scrubbed like any other).
    pub fn notice(&mut self, code: &str, text: &str) -> Step {
        let mut step = Step::default();
        let scrubbed = scrub(&self.cfg.rules, text.as_bytes());
        self.emit_notice(code, &String::from_utf8_lossy(&scrubbed), &mut step);
        step
    }

    /// Record and publish the server's rejection of a submission (its reason scrubbed):
    /// the lifecycle record of a submission still queued when the run ends, written even
    /// after the run stopped (a limit, a bad line) and before its result (P4).
    pub fn submission_rejected(&mut self, submission_id: &str, reason: &str) -> Step {
        let mut step = Step::default();
        let scrubbed = scrub(&self.cfg.rules, reason.as_bytes());
        let mut obj = Map::new();
        obj.insert("submission_id".into(), Value::String(submission_id.into()));
        let reason = String::from_utf8_lossy(&scrubbed).into_owned();
        obj.insert("reason".into(), Value::String(reason));
        self.emit("submission_rejected", obj, &mut step);
        step
    }

    /// Continue an existing run (`--resume`, `--continue`): records follow `last_seq`,
    /// and the first new turn is `next_turn`.
    pub fn continuing(mut self, last_seq: u64, next_turn: u64) -> Boundary {
        self.seq = last_seq;
        self.turn = next_turn.max(1);
        self.first_turn = self.turn;
        self
    }

    pub fn version(&self) -> SchemaVersion {
        self.cfg.version
    }

    /// True once the run has ended: `run_end` admitted or a limit reached. Further lines
    /// are not read.
    pub fn stopped(&self) -> bool {
        self.end.is_some() || self.limit.is_some() || self.finished
    }

    /// Redactions made so far in every stream and field of the run (text still held
    /// back is not counted until it is released).
    pub fn redactions(&self) -> u64 {
        let live: u64 = self.tools.values().map(|c| c.stream.redactions()).sum();
        self.assistant.redactions()
            + self.thinking.redactions()
            + self.fields.scrubber.redactions()
            + self.ended_tool_redactions
            + live
    }

    /// Time spent inside the boundary so far, in microseconds.
    pub fn broker_latency_us(&self) -> u64 {
        (self.broker_ns / 1000) as u64
    }

    /// Admit one trace line (`line_no` is 1-based, for errors). Blank lines are skipped.
    pub fn admit(&mut self, line: &[u8], line_no: u64) -> Result<Step, Error> {
        let mut step = Step::default();
        self.admit_into(line, line_no, &mut step)?;
        Ok(step)
    }

    /// Admit one line, appending its records and lines to `step`. A refused line adds
    /// nothing to it.
    pub fn admit_into(&mut self, line: &[u8], line_no: u64, step: &mut Step) -> Result<(), Error> {
        let t0 = Instant::now();
        let (records, out) = (step.records.len(), step.out.len());
        let r = self.admit_inner(line, line_no, step).map_err(|e| match e {
            // A message may quote the trace: it is scrubbed like any text that leaves
            // the boundary (D1), stderr included, and then bounded. In that order: a
            // cut through a credential leaves a fragment no rule recognises.
            Error::Trace { line, reason } => {
                let scrubbed = scrub(&self.cfg.rules, reason.as_bytes());
                let scrubbed = String::from_utf8_lossy(&scrubbed);
                Error::Trace {
                    line,
                    reason: bounded(&scrubbed, ERROR_MAX).to_string(),
                }
            }
            other => other,
        });
        if r.is_err() {
            step.records.truncate(records);
            step.out.truncate(out);
        }
        self.broker_ns += t0.elapsed().as_nanos();
        r
    }

    /// Admit consecutive lines (the first is `first_line_no`) into one step. Stops after
    /// the line that ends the run or leaves an artifact waiting for its witness, or at a
    /// bad line; returns how many lines were consumed (a bad line is not) and the error.
    pub fn admit_many<L: AsRef<[u8]>>(
        &mut self,
        lines: &[L],
        first_line_no: u64,
        step: &mut Step,
    ) -> (usize, Option<Error>) {
        // The published lines are about as long as the trace lines: grow once.
        step.out
            .reserve(lines.iter().map(|l| l.as_ref().len()).sum::<usize>() + 64);
        for (i, line) in lines.iter().enumerate() {
            match self.admit_next(line.as_ref(), first_line_no + i as u64, step) {
                Err(e) => return (i, Some(e)),
                Ok(false) => return (i + 1, None),
                Ok(true) => {}
            }
        }
        (lines.len(), None)
    }

    /// Admit the lines of `block` (each ended by `\n`; the last may lack it), the first
    /// numbered `first_line_no`, stopping where [`Boundary::admit_many`] stops. Returns
    /// how many lines and how many bytes of `block` were consumed (a bad line is not),
    /// and the error: the caller resumes from there.
    pub fn admit_block(
        &mut self,
        block: &[u8],
        first_line_no: u64,
        step: &mut Step,
    ) -> (u64, usize, Option<Error>) {
        step.out.reserve(block.len() + 64);
        let (mut n, mut at) = (0, 0);
        while at < block.len() {
            let end = memchr::memchr(b'\n', &block[at..]).map_or(block.len(), |i| at + i);
            match self.admit_next(&block[at..end], first_line_no + n, step) {
                Err(e) => return (n, at, Some(e)),
                Ok(more) => {
                    n += 1;
                    at = (end + 1).min(block.len());
                    if !more {
                        break;
                    }
                }
            }
        }
        (n, at, None)
    }

    /// Admit one line of a batch; false when the batch must stop after it (the run
    /// ended, or an artifact waits for its witness).
    fn admit_next(&mut self, line: &[u8], line_no: u64, step: &mut Step) -> Result<bool, Error> {
        self.admit_into(line, line_no, step)?;
        Ok(!(self.stopped() || self.pending.is_some()))
    }

    fn admit_inner(&mut self, line: &[u8], n: u64, step: &mut Step) -> Result<(), Error> {
        if self.stopped() {
            return Ok(());
        }
        if line.len() > MAX_LINE {
            return Err(bad(
                n,
                format!("line is {} bytes; the bound is {MAX_LINE}", line.len()),
            ));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        self.size_hint = line.len();
        if self.fast && self.admit_delta(line, step).is_some() {
            return Ok(());
        }
        let (ty, mut obj) = parse_event(line, n)?;
        // A turn counts once one of its events was admitted (a bad line adds nothing).
        let event_turn =
            (!matches!(ty.as_str(), "run_start" | "cost" | "run_end")).then_some(self.turn);
        match ty.as_str() {
            "assistant_delta" | "thinking_delta" => self.admit_text(Event { ty, obj, n }, step)?,
            "tool_output_delta" => self.admit_tool_output(Event { ty, obj, n }, step)?,
            "tool_end" => self.admit_tool_end(Event { ty, obj, n }, step),
            "input_attachment" => self.admit_attachment(Event { ty, obj, n }, step)?,
            "turn_end" => self.admit_turn_end(Event { ty, obj, n }, step)?,
            "artifact" => self.admit_artifact(Event { ty, obj, n }, step)?,
            "cost" => self.admit_cost(Event { ty, obj, n }, step),
            "run_end" => self.admit_run_end(Event { ty, obj, n }, step)?,
            _ => {
                self.fields.map(&mut obj);
                self.emit(&ty, obj, step);
            }
        }
        if let Some(turn) = event_turn {
            self.active_turn = turn;
        }
        Ok(())
    }

    /// `assistant_delta`, `thinking_delta`: through the stream's scrubber (D2).
    fn admit_text(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { ty, mut obj, n } = ev;
        let text = text_field(&obj, n, &ty, "text")?;
        obj.shift_remove("text");
        self.fields.map(&mut obj);
        let released = if ty == "assistant_delta" {
            let t = self.assistant.feed(&text);
            self.answer_push(&t);
            t
        } else {
            self.thinking.feed(&text)
        };
        obj.insert("text".into(), Value::String(released));
        self.emit(&ty, obj, step);
        Ok(())
    }

    /// `tool_output_delta`: through its call's scrubber, gathered for `tool_end.output`.
    fn admit_tool_output(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { ty, mut obj, n } = ev;
        let text = text_field(&obj, n, &ty, "text")?;
        obj.shift_remove("text");
        self.fields.map(&mut obj);
        let key = call_key(&obj);
        let call = self.tool(&key);
        let released = call.stream.feed(&text);
        call.gather(&released);
        obj.insert("text".into(), Value::String(released));
        self.emit(&ty, obj, step);
        Ok(())
    }

    /// `tool_end`: the call's stream ends; its gathered output goes into the event (E2a).
    fn admit_tool_end(&mut self, ev: Event, step: &mut Step) {
        let Event { ty, mut obj, .. } = ev;
        self.fields.map(&mut obj);
        let key = call_key(&obj);
        let (output, truncated) = match self.tools.remove(&key) {
            Some(mut call) => {
                let tail = call.stream.flush();
                self.ended_tool_redactions += call.stream.redactions();
                if !tail.is_empty() {
                    call.gather(&tail);
                    self.emit_delta("tool_output_delta", Some(&key), tail, step);
                }
                (call.output, call.truncated)
            }
            None => (String::new(), false),
        };
        obj.insert("output".into(), Value::String(output));
        obj.insert("output_truncated".into(), Value::Bool(truncated));
        self.emit(&ty, obj, step);
    }

    /// `input_attachment`: the bytes are counted and dropped (E3).
    fn admit_attachment(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { ty, mut obj, n } = ev;
        let encoded = match obj.shift_remove("data_b64") {
            Some(Value::String(s)) => s.len() as u64,
            None | Some(Value::Null) => 0,
            Some(_) => return Err(bad(n, "input_attachment.data_b64 must be a string")),
        };
        self.fields.map(&mut obj);
        self.attachments += 1;
        let mut rec = Map::new();
        rec.insert("ordinal".into(), self.attachments.into());
        rec.insert(
            "media_type".into(),
            obj.shift_remove("media_type").unwrap_or(Value::Null),
        );
        rec.insert("encoded_bytes".into(), encoded.into());
        rec.insert(
            "filename".into(),
            obj.shift_remove("filename").unwrap_or(Value::Null),
        );
        rec.extend(obj);
        self.emit(&ty, rec, step);
        Ok(())
    }

    /// `turn_end`: the text streams end, the context estimate is kept, a budget may stop
    /// the run (R3, T5).
    fn admit_turn_end(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { ty, mut obj, n } = ev;
        let (used, estimate) = check_turn_end(&obj, n)?;
        self.fields.map(&mut obj);
        self.end_text_streams(step);
        self.estimated_tokens = estimate;
        self.emit(&ty, obj, step);
        if let Some(max) = self.cfg.max_turn_tokens.filter(|m| used > *m) {
            self.limit = Some(max);
            let text = format!("Stopped at limits.turnTokens ({max}). Raise it or split the work.");
            self.emit_notice("limit", &text, step);
        }
        self.turn += 1;
        Ok(())
    }

    /// `artifact`: waits for its durability witness (A2), or is refused and counted
    /// when this boundary keeps no store (A3).
    fn admit_artifact(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { mut obj, n, .. } = ev;
        let content = |k: &str| match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(bad(n, format!("artifact.{k} must be a string"))),
        };
        let (b64, text) = (content("content_b64")?, content("content_text")?);
        if b64.is_some() == text.is_some() {
            return Err(bad(
                n,
                "artifact needs exactly one of content_b64 and content_text",
            ));
        }
        self.fields.map(&mut obj);
        if !self.artifact_store {
            self.artifacts_refused += 1;
            let text = format!(
                "Artifact refused: this boundary keeps no artifact store \
                 ({} refused so far).",
                self.artifacts_refused
            );
            self.emit_notice("artifact_refused", &text, step);
        } else {
            let field = |k: &str| obj.get(k).cloned().unwrap_or(Value::Null);
            self.pending = Some(PendingArtifact {
                content_b64: b64,
                content_text: text,
                schema: field("schema"),
                producer: field("producer"),
                effect_id: field("effect_id"),
                locator: field("path"),
            });
        }
        Ok(())
    }

    /// `cost`: price evidence for the result (R4); an estimate is kept apart (F6).
    fn admit_cost(&mut self, ev: Event, step: &mut Step) {
        let Event { ty, mut obj, .. } = ev;
        self.fields.map(&mut obj);
        if let Some(usd) = obj
            .get("usd")
            .filter(|u| u.as_f64().is_some_and(|x| x >= 0.0))
        {
            if obj.get("status").and_then(Value::as_str) == Some("estimated") {
                let source = match obj.get("source") {
                    Some(Value::String(s)) => s.clone(),
                    _ => "the runtime".to_string(),
                };
                self.cost_estimate = Some((usd.clone(), source));
            } else {
                self.cost = Some(usd.clone());
            }
        }
        self.emit(&ty, obj, step);
    }

    /// `run_end`: validated before the streams end, so an error leaves no record behind.
    fn admit_run_end(&mut self, ev: Event, step: &mut Step) -> Result<(), Error> {
        let Event { ty, mut obj, n } = ev;
        self.fields.map(&mut obj);
        let outcome = match obj.get("outcome") {
            Some(Value::String(o))
                if matches!(o.as_str(), "done" | "drained" | "failed" | "cancelled") =>
            {
                o.clone()
            }
            Some(other) => {
                return Err(bad(
                    n,
                    format!("run_end.outcome {other} is not done, drained, failed or cancelled"),
                ))
            }
            None => return Err(bad(n, "run_end has no outcome")),
        };
        self.end_all_streams(step);
        let reason = obj.get("reason").cloned().unwrap_or(Value::Null);
        let error = obj.get("error").cloned().unwrap_or(Value::Null);
        self.end = Some((outcome, reason, error));
        self.emit(&ty, obj, step);
        Ok(())
    }

    /// The common line, admitted without a `Value` tree: a text delta whose fields are
    /// all strings (most of a trace). `None`, before any state changed, leaves the line
    /// to the general path, which writes the same record and line and names any error
    /// (a test holds the two paths to the same output).
    fn admit_delta(&mut self, line: &[u8], step: &mut Step) -> Option<()> {
        let mut kept = parse_flat(std::str::from_utf8(line).ok()?)?;
        let ty = match kept.iter().find(|(k, _)| k == "type")?.1.as_ref() {
            "assistant_delta" => "assistant_delta",
            "thinking_delta" => "thinking_delta",
            "tool_output_delta" => "tool_output_delta",
            _ => return None,
        };
        // In place: the engine's fields and the text leave, the rest is scrubbed whole.
        let mut text = Cow::Borrowed("");
        let scrubber = &mut self.fields;
        kept.retain_mut(|(k, v)| match k.as_ref() {
            "type" | "seq" | "turn" | "run_id" => false,
            "text" => {
                text = std::mem::take(v);
                false
            }
            _ => {
                if let Some(scrubbed) = scrubber.text(v) {
                    *v = Cow::Owned(scrubbed);
                }
                true
            }
        });
        let released = match ty {
            "assistant_delta" => {
                let t = self.assistant.feed(&text);
                self.answer_push(&t);
                t
            }
            "thinking_delta" => self.thinking.feed(&text),
            _ => {
                let key = kept.iter().find(|(k, _)| k == "call_id");
                let call = self.tool(key.map_or("", |(_, v)| v));
                let t = call.stream.feed(&text);
                call.gather(&t);
                t
            }
        };
        self.seq += 1;
        let (seq, turn, v) = (self.seq, self.turn, self.cfg.version);
        let at = At {
            run_id: &self.cfg.run_id,
            seq,
            turn,
        };
        if step.no_records {
            project_text_delta(ty, at, &released, None, v, &mut step.out);
        } else {
            let mut body = Vec::with_capacity(self.size_hint + 64);
            let mut w = ObjWriter::new(&mut body);
            w.uint("seq", seq).uint("turn", turn).str("type", ty);
            for (k, v) in &kept {
                w.str(k, v);
            }
            let span = w.str_at("text", &released);
            w.end();
            project_text_delta(ty, at, &released, Some(&body[span]), v, &mut step.out);
            step.records.push(self.record(ty, body));
        }
        self.active_turn = self.turn;
        Some(())
    }

    /// Admit every line by the general path only (tests compare the two paths).
    #[doc(hidden)]
    pub fn general_path_only(mut self) -> Boundary {
        self.fast = false;
        self
    }

    fn tool(&mut self, key: &str) -> &mut ToolCall {
        if !self.tools.contains_key(key) {
            let call = ToolCall {
                stream: Stream::new(&self.cfg.rules),
                output: String::new(),
                truncated: false,
            };
            self.tools.insert(key.to_string(), call);
        }
        self.tools.get_mut(key).expect("just inserted")
    }

    fn answer_push(&mut self, t: &str) {
        let room = ANSWER_MAX.saturating_sub(self.answer.len());
        self.answer.push_str(bounded(t, room));
    }

    /// Record `obj` as the next event and publish it. The record body is written once,
    /// field by field; the published line reuses each field's bytes.
    fn emit(&mut self, ty: &str, obj: Map<String, Value>, step: &mut Step) {
        self.seq += 1;
        let mut body = Vec::with_capacity(self.size_hint + 64);
        let mut spans = Vec::with_capacity(obj.len());
        {
            let mut w = ObjWriter::new(&mut body);
            w.uint("seq", self.seq)
                .uint("turn", self.turn)
                .str("type", ty);
            for (k, v) in &obj {
                spans.push((k.as_str(), w.value_at(k, v)));
            }
            w.end();
        }
        let written = spans.iter().map(|(k, r)| (*k, &body[r.clone()])).collect();
        let src = Fields { map: &obj, written };
        step.out.reserve(self.size_hint + 64);
        let at = At {
            run_id: &self.cfg.run_id,
            seq: self.seq,
            turn: self.turn,
        };
        project_into(ty, at, &src, self.cfg.version, &mut step.out);
        if !step.no_records {
            step.records.push(self.record(ty, body));
        }
    }

    /// The record of the event just numbered.
    fn record(&self, ty: &str, body: Vec<u8>) -> Record {
        Record {
            seq: self.seq,
            turn: self.turn,
            kind: ty.to_string(),
            body,
        }
    }

    fn emit_delta(&mut self, ty: &str, call_id: Option<&str>, text: String, step: &mut Step) {
        let mut obj = Map::new();
        if let Some(id) = call_id {
            obj.insert("call_id".into(), Value::String(id.to_string()));
        }
        obj.insert("text".into(), Value::String(text));
        self.emit(ty, obj, step);
    }

    fn emit_notice(&mut self, code: &str, text: &str, step: &mut Step) {
        let mut obj = Map::new();
        obj.insert("code".into(), Value::String(code.into()));
        obj.insert("text".into(), Value::String(text.into()));
        self.emit("notice", obj, step);
    }

    /// The assistant and thinking streams end (a turn ended): release what they hold.
    fn end_text_streams(&mut self, step: &mut Step) {
        let tail = self.assistant.flush();
        if !tail.is_empty() {
            self.answer_push(&tail);
            self.emit_delta("assistant_delta", None, tail, step);
        }
        let tail = self.thinking.flush();
        if !tail.is_empty() {
            self.emit_delta("thinking_delta", None, tail, step);
        }
    }

    /// Every stream ends (the run ended): tool calls that never saw `tool_end` release
    /// their held output as records too.
    fn end_all_streams(&mut self, step: &mut Step) {
        self.end_text_streams(step);
        let mut open: Vec<String> = self.tools.keys().cloned().collect();
        open.sort();
        for key in open {
            if let Some(mut call) = self.tools.remove(&key) {
                let tail = call.stream.flush();
                self.ended_tool_redactions += call.stream.redactions();
                if !tail.is_empty() {
                    self.emit_delta("tool_output_delta", Some(&key), tail, step);
                }
            }
        }
    }

    /// End the run: release held text, write `run_end` if the trace did not, then the
    /// result. Returns the step (records and lines, the result line last) and the
    /// result object alone (for the store).
    pub fn finish(&mut self, how: Finish) -> (Step, Vec<u8>) {
        let t0 = Instant::now();
        let mut step = Step::default();
        if self.finished {
            return (step, Vec::new());
        }
        self.end_all_streams(&mut step);
        let (outcome, reason, error) = self.outcome(&how);
        if self.end.is_none() {
            let mut obj = Map::new();
            obj.insert("outcome".into(), Value::String(outcome.clone()));
            obj.insert("reason".into(), reason.clone());
            obj.insert("error".into(), error.clone());
            obj.insert("origin".into(), Value::String("engine".into()));
            self.emit("run_end", obj, &mut step);
        }
        self.finished = true;
        self.broker_ns += t0.elapsed().as_nanos();
        let result = self.result(&how, &outcome, &reason, &error);
        step.out.extend_from_slice(&result);
        step.out.push(b'\n');
        (step, result)
    }

    fn outcome(&self, how: &Finish) -> (String, Value, Value) {
        let scrubbed = |s: &str| {
            Value::String(
                String::from_utf8_lossy(&scrub(&self.cfg.rules, s.as_bytes())).into_owned(),
            )
        };
        let error = match &how.error {
            Some((code, message, line)) => {
                let mut e = Map::new();
                e.insert("code".into(), Value::String(code.clone()));
                e.insert("message".into(), scrubbed(message));
                e.insert("line".into(), line.map_or(Value::Null, Value::from));
                Value::Object(e)
            }
            None => match &self.end {
                Some((_, _, Value::Null)) | None => Value::Null,
                Some((_, _, e @ Value::Object(_))) => e.clone(),
                Some((_, _, e)) => {
                    let mut m = Map::new();
                    m.insert("code".into(), Value::String("runtime_error".into()));
                    m.insert(
                        "message".into(),
                        match e {
                            Value::String(_) => e.clone(),
                            other => Value::String(other.to_string()),
                        },
                    );
                    m.insert("line".into(), Value::Null);
                    Value::Object(m)
                }
            },
        };
        if let Some(o) = &how.outcome {
            let reason = how.reason.as_deref().map_or(Value::Null, scrubbed);
            return (o.clone(), reason, error);
        }
        if self.limit.is_some() {
            return (
                "limit".into(),
                Value::String("limits.turnTokens".into()),
                error,
            );
        }
        match &self.end {
            Some((o, r, _)) => (o.clone(), r.clone(), error),
            None => (
                "failed".into(),
                how.reason.as_deref().map_or(
                    Value::String("the runtime trace ended without run_end".into()),
                    scrubbed,
                ),
                error,
            ),
        }
    }

    fn result(&self, how: &Finish, outcome: &str, reason: &Value, error: &Value) -> Vec<u8> {
        let success = matches!(outcome, "done" | "drained");
        let exit_code = how
            .exit_code
            .unwrap_or_else(|| ExitCode::for_outcome(outcome).code());
        let mut out = Vec::with_capacity(self.answer.len() + 512);
        let mut w = ObjWriter::new(&mut out);
        w.uint("schema_version", self.cfg.version.get() as u64)
            .str("type", "result")
            .str("outcome", outcome)
            .value("reason", reason)
            .value("success", &Value::Bool(success))
            .str("assistant_text", &self.answer)
            .str("run_id", &self.cfg.run_id);
        match &self.cost {
            Some(usd) => {
                w.value("cost_usd", usd)
                    .str("cost_status", "reported")
                    .value("cost_reason", &Value::Null);
            }
            None => {
                let reason = match &self.cost_estimate {
                    Some((usd, source)) => format!(
                        "{} reported {usd} USD as an estimate, not a bill",
                        bounded(source, 100)
                    ),
                    None => "no authoritative price evidence in the runtime trace".to_string(),
                };
                w.value("cost_usd", &Value::Null)
                    .str("cost_status", "unknown")
                    .str("cost_reason", &reason);
            }
        }
        // The turns this invocation ran (a resumed run counts its new turns).
        let turns = match self.active_turn {
            0 => 0,
            t => t + 1 - self.first_turn,
        };
        w.uint("turns", turns);
        if self.cfg.version.has().kernel_tax {
            let failed = how.failed_runs.unwrap_or(u64::from(outcome == "failed"));
            let mut k = Vec::new();
            ObjWriter::new(&mut k)
                .uint("admission_latency_us", how.admission_latency_us)
                .uint("broker_latency_us", self.broker_latency_us())
                .uint("record_fsync_latency_us", how.record_fsync_latency_us)
                .uint("estimated_tokens", self.estimated_tokens)
                .uint("failed_runs", failed)
                .end();
            w.raw("kernel_tax", &k);
        }
        w.value("exit_code", &Value::from(exit_code))
            .value("error", error)
            .end();
        out
    }
}

/// One admitted trace line: its type, its fields (without the engine's keys), its number.
struct Event {
    ty: String,
    obj: Map<String, Value>,
    n: u64,
}

/// One trace line as an event: its type and its fields, without the keys the engine
/// assigns. A line that is not a JSON object with a non-empty string `type` is an error
/// naming line `n`.
fn parse_event(line: &[u8], n: u64) -> Result<(String, Map<String, Value>), Error> {
    // serde_json checks the UTF-8 of every string it reads; the whole-line check only
    // runs to name the problem better when the parse failed.
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Err(match std::str::from_utf8(line) {
                Err(u) => bad(n, format!("invalid UTF-8 at byte {}", u.valid_up_to())),
                Ok(_) => bad(n, format!("not valid JSON: {e}")),
            })
        }
    };
    let Value::Object(mut obj) = value else {
        return Err(bad(n, "not a JSON object"));
    };
    for v in obj.values() {
        portable_numbers(v).map_err(|why| bad(n, why))?;
    }
    let ty = match obj.get("type") {
        // Only the engine writes these record types (a handle needs a durability witness,
        // A2): a trace that sends one is kept, under another type, and published as nothing.
        Some(Value::String(t)) if ENGINE_ONLY.contains(&t.as_str()) => {
            obj.insert("trace_type".into(), Value::String(t.clone()));
            "untrusted".to_string()
        }
        Some(Value::String(t)) if !t.is_empty() => t.clone(),
        Some(_) => return Err(bad(n, "\"type\" must be a non-empty string")),
        None => return Err(bad(n, "no \"type\"")),
    };
    // The engine assigns these; a trace's own values would only mislead.
    for k in ["type", "seq", "turn", "run_id"] {
        obj.shift_remove(k);
    }
    Ok((ty, obj))
}

fn call_key(obj: &Map<String, Value>) -> String {
    match obj.get("call_id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}
