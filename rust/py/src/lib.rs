//! The PyO3 binding of scrubline-core: converts arguments, calls the core, maps errors.
//! Nothing here decides anything about credentials.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyMemoryView, PySlice, PyString};
use scrubline_core::project::Record;
use scrubline_core::project::{MAX_LINE, RESIDENT_PROTOCOL_VERSION};
use scrubline_core::scrub::rules::FAMILIES;
use scrubline_core::scrub::{arrow_rows, DEFAULT_REPLACEMENT, MIN_LITERAL_LEN};
use scrubline_core::{BoundaryConfig, Error, ExitCode, Finish, RuleSet, RuleSpec, SchemaVersion};

pyo3::import_exception!(scrubline.errors, RuleError);
pyo3::import_exception!(scrubline.errors, LiteralError);
pyo3::import_exception!(scrubline.errors, ConfigError);
pyo3::import_exception!(scrubline.errors, TraceError);
pyo3::import_exception!(scrubline.errors, SnapshotError);

/// Chunks at least this long are scrubbed with the interpreter released.
const DETACH_AT: usize = 16 * 1024;
/// Slice size between two checks for a pending signal (Ctrl-C) on large chunks.
const SIGNAL_EVERY: usize = 8 << 20;

fn to_py(err: Error) -> PyErr {
    match &err {
        Error::Rule { .. } => RuleError::new_err(err.to_string()),
        Error::Literal { .. } => LiteralError::new_err(err.to_string()),
        Error::Config { .. } => ConfigError::new_err(err.to_string()),
        Error::Trace { line, .. } => TraceError::new_err((err.to_string(), *line)),
        Error::Snapshot { .. } => SnapshotError::new_err(err.to_string()),
    }
}

/// UTF-8 bytes of a str; strings with lone surrogates go through "surrogatepass".
fn str_bytes<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    match s.to_str() {
        Ok(t) => Ok(std::borrow::Cow::Borrowed(t.as_bytes())),
        Err(_) => {
            let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
            Ok(std::borrow::Cow::Owned(
                b.cast::<PyBytes>()?.as_bytes().to_vec(),
            ))
        }
    }
}

fn bytes_str<'py>(py: Python<'py>, out: &[u8]) -> PyResult<Bound<'py, PyString>> {
    // CPython validates while it decodes: one pass. Output that is not UTF-8 can only
    // come from input that was not (lone surrogates), so it goes back the same way.
    PyString::from_bytes(py, out).or_else(|_| {
        PyBytes::new(py, out)
            .call_method1("decode", ("utf-8", "surrogatepass"))
            .or_else(|_| PyBytes::new(py, out).call_method1("decode", ("utf-8", "replace")))?
            .cast_into::<PyString>()
            .map_err(Into::into)
    })
}

fn rule_spec(d: &Bound<'_, PyAny>) -> PyResult<RuleSpec> {
    let d = d
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("a rule must be a mapping"))?;
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> { d.get_item(k) };
    let id: String = get("id")?
        .ok_or_else(|| RuleError::new_err("a rule needs an 'id'"))?
        .extract()?;
    let missing = |k: &str| RuleError::new_err(format!("rule {id:?}: missing '{k}'"));
    let pattern: String = get("pattern")?
        .ok_or_else(|| missing("pattern"))?
        .extract()?;
    let keywords: Vec<String> = get("keywords")?
        .ok_or_else(|| missing("keywords"))?
        .extract()?;
    let mut spec = RuleSpec::custom(&id, &pattern, keywords);
    if let Some(v) = get("description")? {
        spec.description = v.extract()?;
    }
    if let Some(v) = get("max_len")? {
        spec.max_len = v.extract()?;
    }
    if let Some(v) = get("left_guard")? {
        spec.left_guard = v.extract()?;
    }
    if let Some(v) = get("right_guard")? {
        spec.right_guard = v.extract()?;
    }
    if let Some(v) = get("overflow")? {
        spec.overflow = v.extract()?;
    }
    Ok(spec)
}

fn literal_bytes(v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    let s = v
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("a literal must be str or bytes"))?;
    Ok(str_bytes(s)?.into_owned())
}

/// The built-in rules, or a set compiled with custom rules, literals or a replacement.
fn rule_set(
    literals: &[Bound<'_, PyAny>],
    rules: &[Bound<'_, PyAny>],
    replacement: &str,
) -> PyResult<Arc<RuleSet>> {
    let literals = literals
        .iter()
        .map(literal_bytes)
        .collect::<PyResult<Vec<_>>>()?;
    let rules = rules.iter().map(rule_spec).collect::<PyResult<Vec<_>>>()?;
    if literals.is_empty() && rules.is_empty() && replacement == DEFAULT_REPLACEMENT {
        Ok(RuleSet::builtin())
    } else {
        Ok(Arc::new(
            RuleSet::new(&rules, &literals, replacement).map_err(to_py)?,
        ))
    }
}

#[pyclass(module = "scrubline._core")]
struct Scrubber {
    inner: scrubline_core::Scrubber,
    /// The last call's output, reused from call to call (no allocation per delta).
    out: Vec<u8>,
}

impl From<scrubline_core::Scrubber> for Scrubber {
    fn from(inner: scrubline_core::Scrubber) -> Scrubber {
        Scrubber {
            inner,
            out: Vec::new(),
        }
    }
}

/// Output buffers larger than this are not kept between calls.
const KEEP_OUT: usize = 1 << 20;

/// The unchanged part of a chunk from which `feed_bytes` has CPython join its output
/// (see there): about where the two ways meet. Timed from Python, `b"".join` of two
/// bytes and a memoryview slice of 16 KiB took 0.35 µs against 0.32 for a zeroed 16
/// KiB and a copy; at 4 KiB 0.28 against 0.22, at 64 KiB 1.65 against 2.6.
const JOIN_FROM: usize = 16 * 1024;

/// From this many unchanged bytes of an ASCII `str` chunk, `feed` hands them back as a
/// slice of the chunk (a copy) rather than decoding them from `out` (a copy and then
/// a decoding pass, 4.8 against 2.7 µs for 64 KiB with a held tail before them).
/// Below it, one `str` from `out` costs less than two objects joined, and chunks
/// shorter than this are fed the plain way (the lazy one's bookkeeping cost 6 % of a
/// 32-byte call).
const SLICE_FROM: usize = 4096;

impl Scrubber {
    /// Feed `chunk` (and flush when `end`): the output is `self.out` followed by
    /// `chunk[range]`, the range returned (what went out of the chunk unchanged, not
    /// copied: the caller builds its object from both, or hands back its input object
    /// when that range is all of it and `out` is empty). Large chunks are scrubbed
    /// with the interpreter released, a slice at a time, checking for Ctrl-C between
    /// slices.
    fn run(&mut self, py: Python<'_>, chunk: &[u8], end: bool) -> PyResult<Range<usize>> {
        if self.out.capacity() > KEEP_OUT {
            self.out = Vec::new();
        }
        let (inner, out) = (&mut self.inner, &mut self.out);
        out.clear();
        let mut lazy = 0..0;
        let mut step = |at: usize, piece: &[u8], out: &mut Vec<u8>| {
            let mark = out.len();
            // A short chunk's output is built from `out` whatever happens (see
            // `SLICE_FROM`): no bookkeeping of what could be left unwritten.
            let n = if piece.len() < SLICE_FROM {
                inner.feed(piece, out);
                0
            } else {
                inner.feed_lazy(piece, out)
            };
            if lazy.is_empty() {
                // Nothing left unwritten before: this slice's output is in order.
                lazy = at..at + n;
            } else if chunk[lazy.end..at] == out[mark..] {
                // All this slice wrote is the tail the one before held: the chunk's
                // bytes went out unchanged, on from where that one's stopped.
                out.truncate(mark);
                lazy = lazy.start..at + n;
            } else {
                // What the slice before left unwritten goes before this one's output.
                out.splice(mark..mark, chunk[lazy.clone()].iter().copied());
                lazy = at..at + n;
            }
        };
        if chunk.len() < DETACH_AT {
            step(0, chunk, out);
        } else {
            for (k, piece) in chunk.chunks(SIGNAL_EVERY).enumerate() {
                py.detach(|| step(k * SIGNAL_EVERY, piece, out));
                py.check_signals()?;
            }
        }
        if end {
            out.extend_from_slice(&chunk[lazy]);
            inner.flush(out);
            return Ok(0..0);
        }
        Ok(lazy)
    }

    /// The output of [`Scrubber::run`] as one byte string, in `self.out`; true when it
    /// equals `chunk` (the caller hands back its input object).
    fn written(&mut self, chunk: &[u8], lazy: Range<usize>) -> bool {
        if self.out.is_empty() && lazy.len() == chunk.len() {
            return true;
        }
        self.out.extend_from_slice(&chunk[lazy]);
        self.out[..] == *chunk
    }
}

#[pymethods]
impl Scrubber {
    #[new]
    #[pyo3(signature = (*, literals = Vec::new(), rules = Vec::new(), replacement = DEFAULT_REPLACEMENT.to_string()))]
    fn new(
        literals: Vec<Bound<'_, PyAny>>,
        rules: Vec<Bound<'_, PyAny>>,
        replacement: String,
    ) -> PyResult<Self> {
        let set = rule_set(&literals, &rules, &replacement)?;
        Ok(scrubline_core::Scrubber::new(set).into())
    }

    /// The stream state as bytes (held-back tail included: as secret as the stream).
    fn snapshot<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.snapshot())
    }

    /// A scrubber continuing the stream a snapshot was taken from, under these rules.
    #[staticmethod]
    #[pyo3(signature = (data, *, literals = Vec::new(), rules = Vec::new(), replacement = DEFAULT_REPLACEMENT.to_string()))]
    fn restore(
        data: &[u8],
        literals: Vec<Bound<'_, PyAny>>,
        rules: Vec<Bound<'_, PyAny>>,
        replacement: String,
    ) -> PyResult<Self> {
        let set = rule_set(&literals, &rules, &replacement)?;
        Ok(scrubline_core::Scrubber::restore(data, set)
            .map_err(to_py)?
            .into())
    }

    /// Replace this scrubber's stream state with a snapshot's, under its own rules
    /// (no compilation); on a refusal the scrubber is left as it was.
    fn resume(&mut self, data: &[u8]) -> PyResult<()> {
        let set = self.inner.rule_set().clone();
        self.inner = scrubline_core::Scrubber::restore(data, set).map_err(to_py)?;
        Ok(())
    }

    /// The scrubbed text that is now safe to emit: `chunk` itself when that is all of
    /// it, unchanged (clean text with nothing held back costs no new object).
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyString>> {
        let bytes = str_bytes(chunk)?;
        let lazy = self.run(py, &bytes, false)?;
        // One byte a character: the unchanged part is a slice of the chunk itself.
        let unwritten = self.out.is_empty();
        if lazy.len() >= SLICE_FROM
            && !(unwritten && lazy.len() == bytes.len())
            && chunk.len()? == bytes.len()
        {
            let part = if lazy.len() == bytes.len() {
                chunk.clone().into_any()
            } else {
                let (from, to) = (lazy.start as isize, lazy.end as isize);
                chunk.get_item(PySlice::new(py, from, to, 1))?
            };
            if unwritten {
                return Ok(part.cast_into::<PyString>()?);
            }
            return Ok(bytes_str(py, &self.out)?
                .add(part)?
                .cast_into::<PyString>()?);
        }
        if self.written(&bytes, lazy) {
            return Ok(chunk.clone());
        }
        bytes_str(py, &self.out)
    }

    fn flush<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.run(py, b"", true)?;
        bytes_str(py, &self.out)
    }

    /// `feed` for bytes: no decoding either way, and `chunk` itself when unchanged.
    fn feed_bytes<'py>(
        &mut self,
        py: Python<'py>,
        chunk: &Bound<'py, PyBytes>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = chunk.as_bytes();
        let lazy = self.run(py, data, false)?;
        let (head, part) = (&self.out[..], &data[lazy.clone()]);
        // Nothing written and all of it passed (an empty chunk too) is told without a
        // comparison: zero bytes compared at the output buffer's address, dangling while
        // nothing was ever written (a stream of empty chunks), are loaded by glibc's
        // AVX-512 `memcmp` with an empty mask, an assist of ~60 ns on this machine.
        if head.is_empty() && part.len() == data.len()
            || head.len() + part.len() == data.len()
                && data.starts_with(head)
                && data.ends_with(part)
        {
            return Ok(chunk.clone());
        }
        // A large output is joined by CPython from the written bytes and a view of the
        // chunk's unchanged part: `bytes.join` copies into an object it does not fill
        // first, where `PyBytes::new_with` zeroes it before the copy. Clean text in 64
        // KiB chunks nearly always holds a byte or two at a chunk's end (a keyword's
        // first bytes), so nearly every call made a new object so.
        if part.len() >= JOIN_FROM {
            let slice = PySlice::new(py, lazy.start as isize, lazy.end as isize, 1);
            let part = PyMemoryView::from(chunk.as_any())?.get_item(slice)?;
            let pieces = (PyBytes::new(py, head), part);
            let joined = PyBytes::new(py, b"").call_method1(intern!(py, "join"), (pieces,))?;
            return Ok(joined.cast_into::<PyBytes>()?);
        }
        // What was written, then the chunk's unchanged part: copied once, into the
        // new object (through `self.out` first, they were copied twice).
        PyBytes::new_with(py, head.len() + part.len(), |buf| {
            let (a, b) = buf.split_at_mut(head.len());
            a.copy_from_slice(head);
            b.copy_from_slice(part);
            Ok(())
        })
    }

    fn flush_bytes<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        self.run(py, b"", true)?;
        Ok(PyBytes::new(py, &self.out))
    }

    /// Rows of consecutive streams in Arrow's string layout, in one call (K1, K2):
    /// `offsets` holds `n + 1` little-endian offsets of `width` bytes into `data`;
    /// `ends[i]` non-zero ends a stream after row `i`. Returns the output rows' data,
    /// their offsets (`n + 1`, int64 little-endian) and the redactions per row (int64).
    fn feed_rows<'py>(
        &mut self,
        py: Python<'py>,
        data: &[u8],
        offsets: &[u8],
        width: usize,
        ends: &[u8],
    ) -> PyResult<(
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
    )> {
        let rows = arrow_rows(data, offsets, width).map_err(to_py)?;
        if ends.len() != rows.len() {
            return Err(PyValueError::new_err(format!(
                "{} rows but {} stream-end flags",
                rows.len(),
                ends.len()
            )));
        }
        let inner = &mut self.inner;
        let out = py.detach(|| inner.feed_rows(rows.into_iter().zip(ends.iter().map(|&e| e != 0))));
        let le = |v: &[i64]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        Ok((
            PyBytes::new(py, &out.data),
            PyBytes::new(py, &le(&out.offsets)),
            PyBytes::new(py, &le(&out.redactions)),
        ))
    }

    fn scrub<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyString>> {
        scrub_str(py, &self.inner.rule_set().clone(), text)
    }

    #[getter]
    fn counts(&self) -> std::collections::BTreeMap<String, u64> {
        self.inner
            .counts()
            .filter(|&(_, n)| n > 0)
            .map(|(id, n)| (id.to_string(), n))
            .collect()
    }

    #[getter]
    fn held(&self) -> usize {
        self.inner.held()
    }

    /// Redactions applied so far, all rules together.
    #[getter]
    fn redactions(&self) -> u64 {
        self.inner.redactions()
    }
}

type Records<'py> = Vec<(u64, u64, String, Bound<'py, PyBytes>)>;

fn records<'py>(py: Python<'py>, recs: Vec<Record>) -> Records<'py> {
    recs.into_iter()
        .map(|r| (r.seq, r.turn, r.kind, PyBytes::new(py, &r.body)))
        .collect()
}

/// A batch's records (none when the caller keeps none) and published lines.
fn step_to_py(py: Python<'_>, step: scrubline_core::Step) -> (Records<'_>, Bound<'_, PyBytes>) {
    (records(py, step.records), PyBytes::new(py, &step.out))
}

/// A batch's error as `(line_no, message)`; `at` is the line it stopped at.
fn batch_error(error: Option<Error>, at: u64) -> Option<(u64, String)> {
    error.map(|e| match e {
        Error::Trace { line, .. } => (line, e.to_string()),
        other => (at, other.to_string()),
    })
}

/// How many lines `block` holds: its newlines (counted a word at a time).
#[pyfunction]
fn count_lines(block: &[u8]) -> usize {
    scrubline_core::project::count_lines(block)
}

/// The output boundary of one run (docs/projection.md).
#[pyclass(module = "scrubline._core")]
struct Boundary {
    inner: scrubline_core::Boundary,
    /// The declaration handed out by `take_artifact`, waiting for its witness.
    artifact: Option<scrubline_core::project::PendingArtifact>,
}

#[pymethods]
impl Boundary {
    #[new]
    #[pyo3(signature = (*, version, run_id, max_turn_tokens = None, last_seq = 0, next_turn = 1, artifact_store = false, literals = Vec::new(), rules = Vec::new(), replacement = DEFAULT_REPLACEMENT.to_string(), resident = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        version: i64,
        run_id: String,
        max_turn_tokens: Option<u64>,
        last_seq: u64,
        next_turn: u64,
        artifact_store: bool,
        literals: Vec<Bound<'_, PyAny>>,
        rules: Vec<Bound<'_, PyAny>>,
        replacement: String,
        resident: bool,
    ) -> PyResult<Self> {
        let version = version_of(version, resident)?;
        let rules = rule_set(&literals, &rules, &replacement)?;
        let mut inner = scrubline_core::Boundary::new(BoundaryConfig {
            version,
            run_id,
            rules,
            max_turn_tokens,
        })
        .continuing(last_seq, next_turn);
        if artifact_store {
            inner = inner.with_artifact_store();
        }
        Ok(Boundary {
            inner,
            artifact: None,
        })
    }

    fn admit<'py>(
        &mut self,
        py: Python<'py>,
        line: &[u8],
        line_no: u64,
    ) -> PyResult<(Records<'py>, Bound<'py, PyBytes>)> {
        let inner = &mut self.inner;
        let step = if line.len() < DETACH_AT {
            inner.admit(line, line_no)
        } else {
            py.detach(|| inner.admit(line, line_no))
        }
        .map_err(to_py)?;
        Ok((records(py, step.records), PyBytes::new(py, &step.out)))
    }

    /// Admit the lines of one read in one call: `block` holds whole lines, each ended by
    /// a newline (the input's last line may lack it), split here. Returns `(lines,
    /// used, records, lines_out, error)`: the lines and bytes of `block` consumed, the
    /// records and published lines, and `(line_no, message)` for a bad line (not
    /// consumed). It stops after a line that ends the run or leaves an artifact waiting
    /// (`take_artifact`). `records=False` skips building the records. The caller resumes
    /// with `block[used:]`.
    #[pyo3(signature = (block, first_line_no, *, records = true))]
    fn admit_block<'py>(
        &mut self,
        py: Python<'py>,
        block: &[u8],
        first_line_no: u64,
        records: bool,
    ) -> (
        u64,
        usize,
        Records<'py>,
        Bound<'py, PyBytes>,
        Option<(u64, String)>,
    ) {
        let inner = &mut self.inner;
        let mut step = scrubline_core::Step {
            no_records: !records,
            ..Default::default()
        };
        let (n, used, error) = if block.len() < DETACH_AT {
            inner.admit_block(block, first_line_no, &mut step)
        } else {
            py.detach(|| inner.admit_block(block, first_line_no, &mut step))
        };
        let error = batch_error(error, first_line_no + n);
        let (recs, out) = step_to_py(py, step);
        (n, used, recs, out, error)
    }

    #[pyo3(signature = (*, outcome = None, reason = None, error = None, exit_code = None, admission_latency_us = 0, record_fsync_latency_us = 0, failed_runs = None))]
    #[allow(clippy::too_many_arguments)]
    fn finish<'py>(
        &mut self,
        py: Python<'py>,
        outcome: Option<String>,
        reason: Option<String>,
        error: Option<(String, String, Option<u64>)>,
        exit_code: Option<i64>,
        admission_latency_us: u64,
        record_fsync_latency_us: u64,
        failed_runs: Option<u64>,
    ) -> (Records<'py>, Bound<'py, PyBytes>, Bound<'py, PyBytes>) {
        let (step, result) = self.inner.finish(Finish {
            outcome,
            reason,
            error,
            exit_code,
            admission_latency_us,
            record_fsync_latency_us,
            failed_runs,
        });
        (
            records(py, step.records),
            PyBytes::new(py, &step.out),
            PyBytes::new(py, &result),
        )
    }

    /// The artifact declaration admitted last, if any: `(content_b64, content_text,
    /// fields)` with `fields` the JSON of its scrubbed schema, producer, effect_id and
    /// locator. It waits for `artifact_produced` or `notice`.
    fn take_artifact<'py>(
        &mut self,
        py: Python<'py>,
    ) -> Option<(Option<String>, Option<String>, Bound<'py, PyBytes>)> {
        let a = self.inner.take_artifact()?;
        let fields = serde_json::json!({
            "schema": a.schema,
            "producer": a.producer,
            "effect_id": a.effect_id,
            "locator": a.locator,
        });
        let out = (
            a.content_b64.clone(),
            a.content_text.clone(),
            PyBytes::new(py, fields.to_string().as_bytes()),
        );
        self.artifact = Some(a);
        Some(out)
    }

    /// Record and publish the handle of the taken artifact, stored under `hash`.
    fn artifact_produced<'py>(
        &mut self,
        py: Python<'py>,
        hash: &str,
    ) -> PyResult<(Records<'py>, Bound<'py, PyBytes>)> {
        let a = self
            .artifact
            .take()
            .ok_or_else(|| PyTypeError::new_err("no artifact is waiting for a witness"))?;
        let step = self.inner.artifact_produced(hash, &a);
        Ok((records(py, step.records), PyBytes::new(py, &step.out)))
    }

    /// Record and publish an engine notice (scrubbed); drops a waiting artifact.
    fn notice<'py>(
        &mut self,
        py: Python<'py>,
        code: &str,
        text: &str,
    ) -> (Records<'py>, Bound<'py, PyBytes>) {
        self.artifact = None;
        let step = self.inner.notice(code, text);
        (records(py, step.records), PyBytes::new(py, &step.out))
    }

    /// Record and publish the rejection of a submission still queued as the run ends.
    fn submission_rejected<'py>(
        &mut self,
        py: Python<'py>,
        submission_id: &str,
        reason: &str,
    ) -> (Records<'py>, Bound<'py, PyBytes>) {
        let step = self.inner.submission_rejected(submission_id, reason);
        (records(py, step.records), PyBytes::new(py, &step.out))
    }

    #[getter]
    fn stopped(&self) -> bool {
        self.inner.stopped()
    }

    /// Redactions applied so far in every stream of the run.
    #[getter]
    fn redactions(&self) -> u64 {
        self.inner.redactions()
    }

    #[getter]
    fn version(&self) -> u8 {
        self.inner.version().get()
    }
}

/// A foreign agent stream's translator (docs/agents.md): foreign JSONL lines in,
/// canonical trace lines out, for a `Boundary` to admit.
#[pyclass(module = "scrubline._core")]
struct Translator {
    inner: scrubline_core::adapt::Translator,
}

#[pymethods]
impl Translator {
    #[new]
    #[pyo3(signature = (tool, *, literals = Vec::new(), rules = Vec::new(), replacement = DEFAULT_REPLACEMENT.to_string()))]
    fn new(
        tool: &str,
        literals: Vec<Bound<'_, PyAny>>,
        rules: Vec<Bound<'_, PyAny>>,
        replacement: String,
    ) -> PyResult<Self> {
        let tool = scrubline_core::adapt::Tool::parse(tool)
            .ok_or_else(|| PyValueError::new_err(format!("unknown foreign tool {tool:?}")))?;
        let rules = rule_set(&literals, &rules, &replacement)?;
        Ok(Translator {
            inner: scrubline_core::adapt::Translator::new(tool, rules),
        })
    }

    /// The canonical lines of the foreign lines of `block` (whole lines, the first
    /// numbered `first_line_no`).
    fn translate<'py>(
        &mut self,
        py: Python<'py>,
        block: &[u8],
        first_line_no: u64,
    ) -> Bound<'py, PyBytes> {
        let inner = &mut self.inner;
        let out = if block.len() < DETACH_AT {
            inner.translate(block, first_line_no)
        } else {
            py.detach(|| inner.translate(block, first_line_no))
        };
        PyBytes::new(py, &out)
    }

    /// The foreign line number of canonical line `i` (0-based) of the last output.
    fn origin(&self, i: usize) -> Option<u64> {
        self.inner.origin(i)
    }

    /// The stream ended: `(lines, outcome, reason, error, exit_code)` from the last
    /// events and how the foreign process ended (`error` is `(code, message)` or None).
    #[pyo3(signature = (*, exit_code = None, signal = None))]
    #[allow(clippy::type_complexity)]
    fn finish<'py>(
        &mut self,
        py: Python<'py>,
        exit_code: Option<i32>,
        signal: Option<i32>,
    ) -> (
        Bound<'py, PyBytes>,
        String,
        String,
        Option<(String, String)>,
        i64,
    ) {
        let exit = scrubline_core::adapt::Exit {
            code: exit_code,
            signal,
        };
        let (out, e) = self.inner.finish(exit);
        (
            PyBytes::new(py, &out),
            e.outcome,
            e.reason,
            e.error,
            e.exit_code,
        )
    }

    #[getter]
    fn tool(&self) -> &'static str {
        self.inner.tool().name()
    }
}

/// A CLI stream version (4, 5, 6, 8), or with `resident` the App Server's (7).
fn version_of(version: i64, resident: bool) -> PyResult<SchemaVersion> {
    if resident {
        SchemaVersion::resident(version).map_err(to_py)
    } else {
        SchemaVersion::new(version).map_err(to_py)
    }
}

/// Project one stored record onto a schema version: its line, or None. `run_id` (the
/// record's run) selects the resident stream: version 7 only, which names the run.
#[pyfunction]
#[pyo3(signature = (record, version, *, run_id = None))]
fn project<'py>(
    py: Python<'py>,
    record: &[u8],
    version: i64,
    run_id: Option<&str>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let version = version_of(version, run_id.is_some())?;
    let line = scrubline_core::project_run(record, version, run_id.unwrap_or("")).map_err(to_py)?;
    Ok(line.map(|l| PyBytes::new(py, &l)))
}

#[pyfunction]
fn scrub<'py>(py: Python<'py>, text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
    scrub_str(py, &RuleSet::builtin(), text)
}

/// A whole text scrubbed with `set`: `text` itself when nothing in it changes.
fn scrub_str<'py>(
    py: Python<'py>,
    set: &Arc<RuleSet>,
    text: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyString>> {
    let bytes = str_bytes(text)?;
    match py.detach(|| scrubline_core::scrub_cow(set, &bytes)) {
        Cow::Borrowed(_) => Ok(text.clone()),
        Cow::Owned(out) => bytes_str(py, &out),
    }
}

#[pyfunction]
fn scrub_bytes<'py>(py: Python<'py>, data: &Bound<'py, PyBytes>) -> Bound<'py, PyBytes> {
    let bytes = data.as_bytes();
    match py.detach(|| scrubline_core::scrub_cow(&RuleSet::builtin(), bytes)) {
        Cow::Borrowed(_) => data.clone(),
        Cow::Owned(out) => PyBytes::new(py, &out),
    }
}

/// The built-in rules in priority order: `(id, tier, description, keywords, pattern)`;
/// the run-time literal rule last, with no keywords and no pattern.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn rules() -> Vec<(
    String,
    &'static str,
    String,
    Vec<&'static str>,
    &'static str,
)> {
    let def = |id: &str| FAMILIES.iter().flat_map(|f| f.rules).find(|r| r.id == id);
    RuleSet::builtin()
        .rules()
        .into_iter()
        .map(|r| {
            let (keywords, pattern) =
                def(&r.id).map_or((Vec::new(), ""), |d| (d.keywords.to_vec(), d.pattern));
            (r.id, r.tier.as_str(), r.description, keywords, pattern)
        })
        .collect()
}

/// The built-in families in priority order: `(name, source of the format, rule IDs)`.
#[pyfunction]
fn families() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    FAMILIES
        .iter()
        .map(|f| (f.name, f.source, f.rules.iter().map(|r| r.id).collect()))
        .collect()
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Scrubber>()?;
    m.add_class::<Boundary>()?;
    m.add_class::<Translator>()?;
    m.add_function(wrap_pyfunction!(project, m)?)?;
    let versions: Vec<u32> = SchemaVersion::SUPPORTED.iter().map(|&v| v.into()).collect();
    m.add("SCHEMA_VERSIONS", versions)?;
    m.add("DEFAULT_SCHEMA_VERSION", SchemaVersion::DEFAULT.get())?;
    m.add("RESIDENT_PROTOCOL_VERSION", RESIDENT_PROTOCOL_VERSION)?;
    let exits = PyDict::new(m.py());
    for (name, code) in ExitCode::ALL {
        exits.set_item(name, code.code())?;
    }
    m.add("EXIT_CODES", exits)?;
    m.add("MAX_LINE", MAX_LINE)?;
    m.add("MIN_LITERAL_LEN", MIN_LITERAL_LEN)?;
    m.add("DEFAULT_REPLACEMENT", DEFAULT_REPLACEMENT)?;
    m.add_function(wrap_pyfunction!(scrub, m)?)?;
    m.add_function(wrap_pyfunction!(scrub_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(families, m)?)?;
    m.add_function(wrap_pyfunction!(count_lines, m)?)?;
    Ok(())
}
