//! A scrubber's stream state as bytes, so a stream can continue in another process (K6,
//! K7): the snapshot format, the rule-set fingerprint it is bound to, and the checks
//! that refuse a snapshot whole rather than restore part of it.
//!
//! Layout (integers little-endian):
//!
//! ```text
//! magic        8 bytes  "SCRBSNAP"
//! version      u16      FORMAT_VERSION
//! fingerprint  32 bytes RuleSet::fingerprint() of the set it was made under
//! body length  u64
//! body         see `write_body` (its layout is described in docs/scrubber.md)
//! checksum     32 bytes SHA-256 of everything before it
//! ```
//!
//! A snapshot holds the bytes the stream has not yet emitted (the tail that may be the
//! start of a credential) and a few bytes before them: it is as sensitive as the stream.

use std::collections::VecDeque;
use std::sync::Arc;

use regex_automata::dfa::Automaton;
use regex_automata::util::primitives::StateID;
use sha2::{Digest, Sha256};

use super::ruleset::{RuleSet, RuleSpec};
use super::stream::{Candidate, Fate, Scrubber};
use crate::Error;

/// The first bytes of every snapshot.
pub const SNAPSHOT_MAGIC: &[u8; 8] = b"SCRBSNAP";
/// The format this build writes; it reads this one only (a newer one is refused).
pub const SNAPSHOT_FORMAT_VERSION: u16 = 1;

const HEADER: usize = 8 + 2 + 32 + 8;
const CHECKSUM: usize = 32;

/// The fingerprint of a rule set: SHA-256 over every rule's definition, each literal
/// secret's own SHA-256 (never its value), and the replacement template.
pub(crate) fn fingerprint(specs: &[RuleSpec], literals: &[Vec<u8>], replacement: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    let mut field = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    field(b"scrubline rule set v1");
    field(&(specs.len() as u64).to_le_bytes());
    for s in specs {
        field(s.id.as_bytes());
        field(format!("{:?}", s.tier).as_bytes());
        field(&(s.keywords.len() as u64).to_le_bytes());
        for k in &s.keywords {
            field(k.as_bytes());
        }
        field(s.pattern.as_bytes());
        match &s.before {
            None => field(b"-"),
            Some((class, min, max)) => field(format!("{class}\0{min}\0{max}").as_bytes()),
        }
        field(s.left_guard.as_bytes());
        field(s.right_guard.as_bytes());
        field(&(s.max_len as u64).to_le_bytes());
        field(s.overflow.as_bytes());
        field(&[u8::from(s.validator.is_some())]);
    }
    field(&(literals.len() as u64).to_le_bytes());
    for secret in literals {
        field(&Sha256::digest(secret));
    }
    field(replacement.as_bytes());
    h.finalize().into()
}

fn refuse(reason: impl Into<String>) -> Error {
    Error::Snapshot {
        reason: reason.into(),
    }
}

impl Scrubber {
    /// The stream state as bytes: what [`Scrubber::restore`] needs to continue the stream
    /// exactly as this scrubber would (K6). The compiled rules are not in it, only their
    /// fingerprint. The held-back tail is: a snapshot is as secret as the stream.
    pub fn snapshot(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(64 + self.buf.len() + 40 * self.cands.len());
        self.write_body(&mut body);
        let mut out = Vec::with_capacity(HEADER + body.len() + CHECKSUM);
        out.extend_from_slice(SNAPSHOT_MAGIC);
        out.extend_from_slice(&SNAPSHOT_FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.set.fingerprint);
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// A scrubber that continues the stream `data` was taken from, under `set`. Refused
    /// whole (K7) when `data` is not a snapshot, is truncated or altered, comes from a
    /// newer format, or was made under rules other than `set`.
    pub fn restore(data: &[u8], set: Arc<RuleSet>) -> Result<Scrubber, Error> {
        if data.len() < SNAPSHOT_MAGIC.len() || &data[..8] != SNAPSHOT_MAGIC {
            return Err(refuse("not a scrubber snapshot (wrong magic bytes)"));
        }
        if data.len() < HEADER + CHECKSUM {
            return Err(refuse(format!(
                "truncated: {} bytes, a snapshot has at least {}",
                data.len(),
                HEADER + CHECKSUM
            )));
        }
        let version = u16::from_le_bytes([data[8], data[9]]);
        if version > SNAPSHOT_FORMAT_VERSION {
            return Err(refuse(format!(
                "format version {version} is newer than this scrubline reads \
                 ({SNAPSHOT_FORMAT_VERSION}); restore it with the version that made it"
            )));
        }
        if version != SNAPSHOT_FORMAT_VERSION {
            return Err(refuse(format!("unknown format version {version}")));
        }
        let body_len = u64::from_le_bytes(data[42..50].try_into().expect("8 bytes"));
        let expected = (HEADER + CHECKSUM) as u64 + body_len.min(u64::MAX / 2);
        if (data.len() as u64) < expected {
            return Err(refuse(format!(
                "truncated: {} bytes, the header announces {expected}",
                data.len()
            )));
        }
        if (data.len() as u64) > expected {
            return Err(refuse(format!(
                "{} bytes, the header announces {expected}: trailing bytes",
                data.len()
            )));
        }
        let (signed, sum) = data.split_at(data.len() - CHECKSUM);
        if Sha256::digest(signed).as_slice() != sum {
            return Err(refuse("checksum mismatch: the snapshot is corrupt"));
        }
        if data[10..42] != set.fingerprint {
            return Err(refuse(
                "made under other rules (built-in rules, custom rules, literal secrets or \
                 replacement differ): restore it with the rules it was made with",
            ));
        }
        let mut r = Reader {
            data: &signed[HEADER..],
        };
        let s = read_body(&mut r, set)?;
        if !r.data.is_empty() {
            return Err(refuse("corrupt: bytes left after the body"));
        }
        Ok(s)
    }

    fn write_body(&self, out: &mut Vec<u8>) {
        let u64_ = |out: &mut Vec<u8>, v: u64| out.extend_from_slice(&v.to_le_bytes());
        let opt = |out: &mut Vec<u8>, v: Option<u64>| match v {
            None => out.push(0),
            Some(v) => {
                out.push(1);
                out.extend_from_slice(&v.to_le_bytes());
            }
        };
        // The buffer from `context` bytes before `emitted`: what the stream reads
        // again (bytes kept before that only shortcut repeating text).
        let base = (self.emitted.saturating_sub(self.set.context as u64)).max(self.base);
        let buf = &self.buf[(base - self.base) as usize..];
        u64_(out, base);
        u64_(out, self.emitted);
        u64_(out, self.scanned);
        u64_(out, buf.len() as u64);
        out.extend_from_slice(buf);
        opt(out, self.swallow.map(u64::from));
        match self.resume {
            None => out.push(0),
            Some((at, from)) => {
                out.push(1);
                u64_(out, at);
                u64_(out, from);
            }
        }
        u64_(out, self.work);
        // Counts are sparse: most of the rules never fire in a stream.
        u64_(out, self.counts.len() as u64);
        let fired = || self.counts.iter().enumerate().filter(|&(_, &n)| n > 0);
        u64_(out, fired().count() as u64);
        for (rule, &n) in fired() {
            out.extend_from_slice(&(rule as u32).to_le_bytes());
            u64_(out, n);
        }
        // Candidates before `emitted` exist only while an overflow is swallowed, and
        // are dropped unused when it ends: they are left out.
        let live = self.queued();
        u64_(out, live.len() as u64);
        for c in &live {
            out.extend_from_slice(&c.rule.to_le_bytes());
            u64_(out, c.start);
            u64_(out, c.pos);
            opt(out, c.best);
            // The DFA state of a live candidate is not written: it is the state after
            // the bytes from `start` to `pos`, all in `buf`, and is recomputed on
            // restore (state IDs are an artefact of one build of the automaton).
            match c.fate {
                Fate::Live => out.push(0),
                Fate::Done(None) => out.push(1),
                Fate::Done(Some(e)) => {
                    out.push(2);
                    u64_(out, e);
                }
                Fate::Overflow => out.push(3),
            }
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64) -> Result<&'a [u8], Error> {
        if n > self.data.len() as u64 {
            return Err(refuse("corrupt: the body ends early"));
        }
        let (head, rest) = self.data.split_at(n as usize);
        self.data = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }

    fn opt(&mut self) -> Result<Option<u64>, Error> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(self.u64()?)),
            t => Err(refuse(format!("corrupt: option tag {t}"))),
        }
    }
}

/// Read the body and check every offset and index against the rule set and the buffer,
/// so that a restored scrubber can never index outside them.
fn read_body(r: &mut Reader<'_>, set: Arc<RuleSet>) -> Result<Scrubber, Error> {
    let bad = |what: &str| refuse(format!("corrupt: {what}"));
    let n_rules = set.rules.len() as u64;
    let base = r.u64()?;
    let emitted = r.u64()?;
    let scanned = r.u64()?;
    let len = r.u64()?;
    let buf = r.take(len)?.to_vec();
    let end = base
        .checked_add(len)
        .ok_or_else(|| bad("buffer offset overflows"))?;
    if !(base <= emitted && emitted <= end && scanned <= end) {
        return Err(bad("offsets out of order"));
    }
    let swallow = match r.opt()? {
        None => None,
        Some(rule) if rule < n_rules => Some(rule as u32),
        Some(_) => return Err(bad("swallowed rule out of range")),
    };
    let resume = match r.u8()? {
        0 => None,
        1 => {
            let (at, from) = (r.u64()?, r.u64()?);
            if at > end || from > end {
                return Err(bad("resume offset out of range"));
            }
            Some((at, from))
        }
        t => return Err(bad(&format!("resume tag {t}"))),
    };
    let work = r.u64()?;
    if r.u64()? != n_rules {
        return Err(bad("rule count differs from the rule set"));
    }
    let mut counts = vec![0u64; n_rules as usize];
    let fired = r.u64()?;
    if fired > n_rules {
        return Err(bad("more counts than rules"));
    }
    let mut last = None;
    for _ in 0..fired {
        let (rule, n) = (r.u32()?, r.u64()?);
        if u64::from(rule) >= n_rules || last.is_some_and(|l| l >= rule) || n == 0 {
            return Err(bad("counts out of order or range"));
        }
        counts[rule as usize] = n;
        last = Some(rule);
    }
    let total = counts
        .iter()
        .try_fold(0u64, |t, &n| t.checked_add(n))
        .ok_or_else(|| bad("counts overflow"))?;
    let n_cands = r.u64()?;
    // Each candidate takes at least 22 bytes: a count beyond that is a lie, not a reason
    // to allocate.
    if n_cands > r.data.len() as u64 / 22 {
        return Err(bad("candidate count exceeds the body"));
    }
    let mut cands: VecDeque<Candidate> = VecDeque::with_capacity(n_cands as usize);
    for _ in 0..n_cands {
        let rule = r.u32()?;
        let (start, pos) = (r.u64()?, r.u64()?);
        let best = r.opt()?;
        let fate = match r.u8()? {
            0 => Fate::Live,
            1 => Fate::Done(None),
            2 => Fate::Done(Some(r.u64()?)),
            3 => Fate::Overflow,
            t => return Err(bad(&format!("candidate fate tag {t}"))),
        };
        if u64::from(rule) >= n_rules || !(emitted <= start && start <= pos && pos <= end) {
            return Err(bad("candidate out of range"));
        }
        // A match end lies after its start (no rule matches the empty string).
        let bad_end = |e: u64| e <= start || e > end;
        if best.is_some_and(bad_end) || matches!(fate, Fate::Done(Some(e)) if bad_end(e)) {
            return Err(bad("candidate end out of range"));
        }
        if cands
            .back()
            .is_some_and(|x| (x.start, x.rule) >= (start, rule))
        {
            return Err(bad("candidates out of order"));
        }
        let state = match fate {
            Fate::Live => {
                let matcher = set.rules[rule as usize]
                    .matcher()
                    .ok_or_else(|| bad("a literal candidate cannot be undecided"))?;
                let mut state = matcher.start;
                for &b in &buf[(start - base) as usize..(pos - base) as usize] {
                    state = matcher.dfa.next_state(state, b);
                    if matcher.dfa.is_dead_state(state) || matcher.dfa.is_quit_state(state) {
                        return Err(bad("an undecided candidate that cannot match"));
                    }
                }
                state
            }
            _ => StateID::ZERO,
        };
        cands.push_back(Candidate {
            rule,
            start,
            pos,
            state,
            best,
            fate,
            follow: None,
        });
    }
    let mut s = Scrubber::new(set);
    s.buf = buf;
    s.base = base;
    s.emitted = emitted;
    s.scanned = scanned;
    s.cands = cands;
    s.swallow = swallow;
    s.resume = resume;
    s.counts = counts;
    s.total = total;
    s.work = work;
    Ok(s)
}
