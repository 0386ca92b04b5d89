//! The stream state of one scrubbed text (D2, D3).
//!
//! Bytes arrive in arbitrary chunks. A byte is emitted once no credential can cover it
//! whatever bytes come next: everything before the earliest *live candidate* (a keyword
//! hit whose rule may still match) and before the *tail* that could still grow into a
//! keyword (or into the run before a mid-string keyword). Every decision depends on the
//! bytes alone, never on where a chunk ended, so the output of a stream is the same
//! however it was split; `scrub(text)` is simply one chunk and a flush.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::Arc;

use regex_automata::dfa::{dense, Automaton};
use regex_automata::util::primitives::StateID;

use super::guard::{is_filler, is_placeholder};
use super::opening::NOT_SEEN;
use super::prefilter::{same_run, Hit, Kill, Run, Scratch, KILL_READS};
use super::rules::Tier;
use super::ruleset::{BeforeRun, ByteClass, Reading, Rule, RuleSet, RunsAt, SecretCache};
use super::swallow::Swallow;

/// The most bytes taken into the buffer at once (see [`Scrubber::feed`]).
const SLICE: usize = 64 * 1024;

/// Where [`Scrubber::feed_into`] writes: `out`, or, while what went out of the chunk
/// went out unchanged, only what was held before it (`unwritten` is the chunk, of
/// which the first `passed` bytes went out so, after `out`; the first other output
/// writes them first).
struct Lazy<'o, 'c> {
    out: &'o mut Vec<u8>,
    unwritten: Option<&'c [u8]>,
    passed: usize,
    /// The stream offset of the chunk's first byte.
    start: u64,
}

impl<'o> Lazy<'o, '_> {
    fn written(out: &'o mut Vec<u8>) -> Lazy<'o, 'static> {
        Lazy {
            out,
            unwritten: None,
            passed: 0,
            start: 0,
        }
    }

    /// `bytes`, the stream's from offset `from`, went out unchanged. Those held before
    /// the chunk are written; the chunk's are counted, not written, while they follow
    /// the ones passed before them (an overflow's swallow drops bytes unwritten: then
    /// what was passed is written, and these after it).
    fn emit(&mut self, from: u64, bytes: &[u8]) {
        if self.unwritten.is_some() {
            let before = (self.start.saturating_sub(from) as usize).min(bytes.len());
            if (from + before as u64).saturating_sub(self.start) == self.passed as u64 {
                self.out.extend_from_slice(&bytes[..before]);
                self.passed += bytes.len() - before;
                return;
            }
        }
        self.vec().extend_from_slice(bytes);
    }

    /// The output, the bytes passed so far written into it first.
    fn vec(&mut self) -> &mut Vec<u8> {
        if let Some(chunk) = self.unwritten.take() {
            self.out.extend_from_slice(&chunk[..self.passed]);
        }
        self.out
    }
}

/// The shortest slice fed without a copy when nothing is held (see
/// [`Scrubber::feed_idle`]): below it the copy costs less than the bookkeeping.
const IDLE_MIN: usize = 4096;

/// How far into a slice the hit of a rule not compiled yet must lie for
/// [`Scrubber::die_in_place`] to ask its gate there: past what a gate reads before a
/// keyword (its left guard, two bytes), with room to spare.
const IN_PLACE_BACK: usize = 64;

/// The most bytes [`Scrubber::candidates_die_in`] reads of a candidate: one that lives
/// longer is read with its slice buffered, the usual way.
const SETTLE_MOST: usize = 512;

/// The most followers of a candidate [`Scrubber::candidates_die_in`] reads, each up
/// to [`SETTLE_MOST`] bytes: a slice after `eyJ-eyJ-…` (thousands of followers) is
/// buffered the usual way rather than read again for each (a word storm's held copies
/// are four or five).
const SETTLE_FOLLOWERS: u64 = 16;

/// The most hits a slice may hold for [`Scrubber::die_in_place`] to be asked: clean
/// agent output holds ~4 a 64 KiB slice that get that far, while a storm's slice
/// holds hundreds, one of which lives (each walked in vain before it).
const IN_PLACE_HITS: usize = 32;

/// The most bytes held back for [`Scrubber::feed_idle`] to still read the next slice
/// in place (a keyword's first bytes, or a run that may come before one).
const HELD_MAX: usize = 256;

/// Bytes past its keyword a new candidate is fed when it is found (see
/// [`Scrubber::add_keyword_candidate`]).
const EAGER: u64 = 8;

/// Bytes of a candidate fed before its DFA's path is recorded or compared with its
/// rule's trail (see [`Trail`]).
const WARM: u64 = 16;

/// The longest path a [`Memo`] keeps, and how many it keeps (per rule; a path is no
/// longer than its rule's `max_len` and two bytes, so the built-in rules' memos hold
/// ~170 KB at most). Tokens of 100 to 250 bytes printed back to back (an Atlassian API
/// token, a Bedrock key) run on into the next one and die there, 130 to 250 bytes from
/// their keyword; a private key or an AWS session token printed again and again is a
/// match of 300 to 600 bytes. With paths of 128 bytes at most, each copy was read again
/// by its rule's DFA (a tenth to a quarter of clean text's speed).
const MEMO: usize = 1024;

/// The longest match a [`Verdict`] keeps: a credential printed again and again (an AWS
/// session token of ~300 bytes in every line of a log) is judged once, not each time
/// through its `secret` group's backtracker (~150 instructions a byte).
const VERDICT_MAX: usize = 1024;
const PATHS: usize = 4;

/// The longest distance between a candidate's followers (see [`Follow`]): the
/// longest period the prefilter copies hits over.
const FOLLOW_MAX: u64 = 1024;

/// The most bytes past its first period through which [`Scrubber::dead_followers`]
/// looks for a candidate's DFA to repeat its state.
const JOIN_MAX: u64 = 512;

/// The hits after which a scan stops, at the end of the prefilter's block that
/// reached them (or its storm part, up to four blocks), to resolve what it found
/// before it reads on. In a storm whose
/// every repetition matches (`pwd=pwd=…`), the first candidate overflows and the rest
/// of the slice is swallowed: before, all of its ~16,000 hits were found and queued
/// first, and only then dropped.
const MOST: usize = 256;

/// The hits a prefilter pass may read with their rule's DFA to teach the memo (see
/// [`learn`]): enough for the keywords of a storm, little waste where hits are
/// credentials that all differ.
const LEARN: u32 = 16;

/// A hit [`learn`] found dead within this many bytes gives the pass two more to learn:
/// while kills come cheap, learning goes on. In a storm the memo cannot know (`eyJ`
/// and a random byte, again and again: its paths never repeat), the first [`LEARN`]
/// hits of a pass were learned and the rest each made a candidate, queued and fed to
/// die there (44 against 88 MB/s). A learn that reads more, or finds the hit alive,
/// only spends the budget: where hits live on, learning stops as it did.
const LEARN_CHEAP: u64 = 32;

/// The hits of a rule that come as far as its run cap in a stream before they are
/// asked it, where its keyword's gate is not built yet (see [`Scrubber::capped`]): a
/// stream that meets a keyword now and then builds no gate for it (~0.2 ms each). A
/// gate built already, by a dense block or another stream, is asked at once.
const CAP_AFTER: u32 = 32;

/// The most redactions one period of repeating text may hold for [`Scrubber::replay`]
/// to copy it (the last `2 * REPEAT` are kept).
const REPEAT: usize = 4;

/// The most bytes before `emitted` kept for [`Scrubber::replay`] to compare the text
/// of the next chunk with.
const REPEAT_KEPT: u64 = 16 * 1024;

/// The longest period of text without a redaction that [`Scrubber::skip_clean`]
/// looks for, and the bytes it compares to find one.
const CLEAN_PERIOD: u64 = 4096;
const PROBE: u64 = 32;

/// A stream is busy (see [`Scrubber::skip_clean`]) while its last [`BUSY_SPAN`]
/// bytes or more held a keyword hit every `BUSY_EVERY` bytes or more often.
const BUSY_EVERY: u64 = 128;
const BUSY_SPAN: u64 = 4096;

/// A redaction applied, as [`Scrubber::replay`] reads it: made from `from` (where
/// the redaction before it stopped: no candidate then started earlier), it replaced
/// `span` by `label`'s replacement and went out to `stop`; deciding it read no byte
/// at or past `reach` (nor before `from` less the rule set's `context`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Applied {
    from: u64,
    span: (u64, u64),
    stop: u64,
    label: u32,
    reach: u64,
}

impl Applied {
    /// The same redaction `d` bytes later (reach aside).
    fn shifted(&self, d: u64) -> Applied {
        Applied {
            from: self.from + d,
            span: (self.span.0 + d, self.span.1 + d),
            stop: self.stop + d,
            ..*self
        }
    }
}

/// How a candidate ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// Still undecided: more bytes are needed.
    Live,
    /// Decided: `Some(end)` is the match end, `None` no match.
    Done(Option<u64>),
    /// Still growing past the rule's `max_len`: redacted up to `pos`, rest swallowed.
    Overflow,
}

/// A possible match of one rule starting at one byte. Positions are absolute offsets.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) rule: u32,
    pub(super) start: u64,
    /// Next byte to feed to the DFA.
    pub(super) pos: u64,
    pub(super) state: StateID,
    /// The last match end seen, if its right guard held.
    pub(super) best: Option<u64>,
    pub(super) fate: Fate,
    /// The candidates of its rule `d`, `2d`, … bytes later, not made yet (see
    /// [`Follow`]).
    pub(super) follow: Option<Follow>,
}

/// `n` candidates of a candidate's rule, at `start + d`, `start + 2d`, …, `start +
/// n * d` (hits of a keyword `len` bytes long), held as a count instead of one by one:
/// the copies of a hit of a period the prefilter reported as a run, or hits that go
/// on with one's distance. Each is a candidate in every respect but its making, which
/// waits until the one it follows leaves the queue (see [`Scrubber::release`]): until
/// then that one starts earlier, so it holds back their bytes and is decided first.
///
/// In `eyJ-eyJ-…` 2,000 times then `!`, each `eyJ` is a JWT candidate alive to the
/// `!`; made one by one, they cost ~80 ns each (0.02x of clean text's speed), though
/// they all die at the `!` with the first.
///
/// Only a rule with no run before its keyword has followers (see
/// [`Scrubber::followable`]): a follower starts at its hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Follow {
    d: u64,
    n: u64,
    /// The keyword of the hits (of the first; see [`Scrubber::capped`]).
    k: u32,
}

/// State kept per rule, each rule's made at the first write to it: until then it reads
/// as its default. A stream of clean text writes none, and made for each of the
/// built-in rules at once (a clone each), these had been most of [`Scrubber::new`]'s
/// ~8 µs, which [`scrub`] pays at every call.
#[derive(Clone, Debug)]
pub(super) struct PerRule<T> {
    /// Empty until the first write to any rule's.
    items: Vec<Option<T>>,
    n: usize,
    /// What a rule's reads as before it is made.
    blank: T,
}

impl<T: Default> PerRule<T> {
    fn new(n: usize) -> PerRule<T> {
        PerRule {
            items: Vec::new(),
            n,
            blank: T::default(),
        }
    }

    #[cold]
    #[inline(never)]
    fn make(&mut self) {
        self.items = (0..self.n).map(|_| None).collect();
    }

    /// Each rule's item in order (tests).
    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        (0..self.n).map(|i| &self[i])
    }

    /// How many rules' items were made (tests).
    #[cfg(test)]
    pub(super) fn made(&self) -> usize {
        self.items.iter().filter(|item| item.is_some()).count()
    }
}

impl<T> std::ops::Index<usize> for PerRule<T> {
    type Output = T;

    #[inline]
    fn index(&self, i: usize) -> &T {
        match self.items.get(i) {
            Some(Some(item)) => item,
            Some(None) => &self.blank,
            None if self.items.is_empty() && i < self.n => &self.blank,
            None => panic!("rule {i} of {}", self.n),
        }
    }
}

impl<T: Default> std::ops::IndexMut<usize> for PerRule<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        if self.items.is_empty() {
            self.make();
        }
        self.items[i].get_or_insert_with(T::default)
    }
}

/// A streaming scrubber: a shared [`RuleSet`] plus the state of one stream.
#[derive(Debug, Clone)]
pub struct Scrubber {
    pub(super) set: Arc<RuleSet>,
    /// Recent bytes: `context` bytes before `emitted`, then everything not yet decided.
    pub(super) buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    pub(super) base: u64,
    /// Every byte before this offset has been written out (or redacted).
    pub(super) emitted: u64,
    /// The prefilter has reported every keyword hit that ends at or before this offset.
    pub(super) scanned: u64,
    /// Live and decided candidates, sorted by `(start, rule)`.
    pub(super) cands: VecDeque<Candidate>,
    /// After an overflow: the rule whose `overflow` class is swallowed at `emitted`.
    pub(super) swallow: Option<u32>,
    /// `(scanned, from)`: the hold-back computed at `scanned` found that no keyword or
    /// literal form straddling `scanned` can start before `from`, so the next scan
    /// starts there rather than a whole keyword length back.
    pub(super) resume: Option<(u64, u64)>,
    pub(super) counts: Vec<u64>,
    /// The sum of `counts` (read once per row by `feed_rows`).
    pub(super) total: u64,
    pub(super) work: u64,
    pub(super) hits: Vec<Hit>,
    /// Space for merging the runs of `hits` (see [`sort_runs`]).
    pub(super) merged: Vec<Hit>,
    /// Space the prefilter reuses from scan to scan.
    pub(super) prefilter_space: Scratch,
    /// The `before` runs at the last hold-back (see [`RunsAt`]).
    pub(super) before_at: RunsAt,
    /// New candidates starting here or later are fed a few bytes when found (see
    /// [`Scrubber::add_keyword_candidate`]); a speed heuristic, the output is the same.
    pub(super) eager_from: u64,
    /// Whether the last scan ended among dense keyword hits (the prefilter's engine).
    pub(super) dense: bool,
    /// Per rule, the path its DFA took in the last run that did not join an earlier
    /// one (see [`Trail`]).
    pub(super) trails: PerRule<Trail>,
    pub(super) eager_trail: Trail,
    /// Per rule, the last [`Head`] recorded.
    pub(super) heads: Vec<Head>,
    /// Per rule, its hits that came as far as its run cap (past the left guard and
    /// the memo), counted up to [`CAP_AFTER`] (see [`Scrubber::capped`]).
    pub(super) keyword_cands: Vec<u32>,
    /// Per rule, the states its DFA loops in (see [`Loops`]).
    pub(super) loops: PerRule<Loops>,
    /// Per rule, the bytes of the last candidates whose DFA died (see [`Memo`]).
    pub(super) memos: PerRule<Memo>,
    /// Per rule with a run before its keyword, the last run measured: `(hit, run)`
    /// (see [`Scrubber::run_before`]).
    pub(super) runs: Vec<(u64, usize)>,
    /// Per rule, the last match judged (see [`Verdict`]).
    pub(super) verdicts: PerRule<Verdict>,
    /// The space that finds `secret…` groups, of the last rule that used it.
    pub(super) secret: Option<SecretCache>,
    pub(super) scratch: Vec<StateID>,
    /// The held bytes and the start of the next slice (see [`Scrubber::feed_idle`]).
    pub(super) bridge: Vec<u8>,
    /// The last redactions applied one after another (see [`Scrubber::replay`]).
    pub(super) applied: VecDeque<Applied>,
    /// `(n, d)`: the last `n` of them repeat the `n` before them `d` bytes later (see
    /// [`Scrubber::note`]).
    pub(super) period: Option<(usize, u64)>,
    /// One past the last byte read by the candidates dropped since the last
    /// redaction (see [`Applied::reach`]).
    pub(super) read_to: u64,
    /// Where the last redaction, or an overflow's swallow, stopped.
    pub(super) last_stop: u64,
    /// Keyword hits taken, bytes let out unread by [`Scrubber::skip_clean`], and
    /// `(end, hits, unread)` when [`Scrubber::busy`] was last set.
    pub(super) hits_taken: u64,
    pub(super) unread: u64,
    pub(super) busy_mark: (u64, u64, u64),
    /// Whether the stream is dense with hits (see [`BUSY_EVERY`]).
    pub(super) busy: bool,
    /// `(end, from, n)`: the last scan, of `from..end`, found that its last `n` bytes
    /// could still become a keyword (and nothing before them; see [`Scrubber::tail_hold`]).
    pub(super) pending: Option<(u64, u64, usize)>,
    /// Per rule, whether its candidates may have followers (see [`Follow`]).
    pub(super) followable: Vec<bool>,
    /// The last candidate given followers, or whose followers grew: `(start, rule)`.
    pub(super) leader: (u64, u32),
    /// Space for the DFA states of [`Scrubber::dead_followers`].
    pub(super) cycle: Vec<StateID>,
    /// Space for the candidates with followers leaving the queue at once (see
    /// [`Scrubber::remove_front`]).
    pub(super) led: Vec<Candidate>,
    /// Tests only: every candidate is fed byte by byte through its DFA (no memo, trail,
    /// eager feeding or rejection at the hit) and every scan reads to the end, the
    /// reference the shortcuts must equal.
    #[cfg(test)]
    pub(super) plain: bool,
    /// Tests only: every slice is buffered before it is read ([`Scrubber::feed_idle`]
    /// off), the reference the idle path must equal call by call.
    #[cfg(test)]
    pub(super) buffered: bool,
    /// Tests only: scans that stopped early (see [`MOST`]).
    #[cfg(test)]
    pub(super) stops: usize,
    /// Tests only: the periods copied (see [`Scrubber::replay`]).
    #[cfg(test)]
    pub(super) copied: u64,
    /// Tests only: the bytes let out unread (see [`Scrubber::skip_clean`]).
    #[cfg(test)]
    pub(super) skipped: u64,
    /// Tests only: the candidates queued.
    #[cfg(test)]
    pub(super) made: u64,
    /// Tests only: the slices with hits read where they lie, every hit dead in them
    /// (see [`Scrubber::die_in_place`]).
    #[cfg(test)]
    pub(super) in_place: u64,
    /// Tests only: the slices read where they lie up to a hit that does not die in
    /// them, and the usual way from there.
    #[cfg(test)]
    pub(super) in_place_up_to: u64,
    /// Tests only: the slices whose held candidates were read ahead (see
    /// [`Scrubber::candidates_die_in`]).
    #[cfg(test)]
    pub(super) read_ahead: u64,
}

/// The states one candidate's DFA passed through, byte by byte: `states[i]` is the
/// state after the byte at `from + i`. A later candidate of the same rule that reaches
/// the same state at the same byte reads the same bytes from there on, so it meets the
/// same match ends and dies (or stops) where this one did: it takes that outcome instead
/// of feeding the bytes again. Without it, `eyJ-eyJ-…` (2,000 times) then `!` fed every
/// one of the 2,000 JWT candidates the ~8,000 bytes to the `!` (1,000 DFA steps per
/// byte); with it each joins the first one's path within ~20 bytes.
#[derive(Clone, Debug, Default)]
pub(super) struct Trail {
    /// The start of the candidate that made it (candidates that start earlier may
    /// overflow inside it: they do not join).
    start: u64,
    from: u64,
    states: Vec<StateID>,
    /// Whether the DFA died at the byte `from + states.len()`.
    dead: bool,
    /// The last byte at which it reached a match state, and the `best` that set.
    last_match: Option<(u64, Option<u64>)>,
}

/// The state a candidate's DFA was in after its first [`WARM`] bytes, fed from its
/// start with no match and no death on the way, and the candidate's start. A later
/// candidate of the same rule whose first [`WARM`] bytes are the same runs the same DFA
/// from the same start state through the same states: it takes that state after one
/// comparison instead of [`WARM`] steps. In `eyJ-eyJ-…` every candidate lives on (a
/// JWT's alphabet holds the storm) and read its first 16 bytes step by step before it
/// could join the trail of the one before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Head {
    start: u64,
    state: StateID,
}

/// For one rule's DFA, the bytes on which a state goes back to itself, for the states
/// a candidate was seen to loop in. A long token's body and a PEM block's lines are
/// such runs: after one byte that kept the state, the bytes that follow are tested
/// against the state's class until one is not in it, with no transition and no
/// dependency between one byte's test and the next, 32 at once after the first 32
/// where the CPU has AVX2 (see [`Swallow`]; about half the bytes candidates read in
/// the dense corpus of `benches/compare.py`). Made for the first [`LOOPS`] states that
/// ask; a state past them is read step by step.
#[derive(Clone, Debug, Default)]
pub(super) struct Loops {
    states: Vec<(StateID, Box<Swallow>)>,
    /// Tests only: the bytes read by the classes for candidates.
    #[cfg(test)]
    read: u64,
    /// Tests only: the bytes read by the classes for hits learned.
    #[cfg(test)]
    learned: u64,
}

/// The shortest run a candidate reads in one state whose states are not recorded for
/// its rule's trail (see [`run`]).
const LONG_LOOP: usize = 256;

/// The most states a rule keeps a [`Loops`] table for.
const LOOPS: usize = 16;

impl Loops {
    /// The bytes on which `state` goes back to itself in `dfa`, or `None` when the rule
    /// has tables for [`LOOPS`] other states.
    fn table(&mut self, dfa: &dense::DFA<Vec<u32>>, state: StateID) -> Option<&Swallow> {
        let i = match self.states.iter().position(|(s, _)| *s == state) {
            Some(i) => i,
            None if self.states.len() == LOOPS => return None,
            None => {
                let class = ByteClass::looping(dfa, state);
                self.states.push((state, Box::new(Swallow::new(class))));
                self.states.len() - 1
            }
        };
        Some(&self.states[i].1)
    }
}

impl Head {
    /// None recorded (no candidate starts at `u64::MAX`).
    pub(super) const NONE: Head = Head {
        start: u64::MAX,
        state: StateID::ZERO,
    };
}

/// The bytes one candidate's DFA read from its start up to the byte that killed it, and
/// the match end it had then (from its start). A later candidate of the same rule that
/// starts with the same bytes runs the same DFA from the same start state: it dies at
/// the same byte with the same match, and takes that outcome after one comparison
/// instead of a DFA step per byte. In a storm every candidate reads what the one before
/// it read (`TOKENTOKEN…`: each lives ~37 bytes through a counted repetition, whose
/// states differ by the count, so no [`Trail`] is ever joined).
/// A few such paths are kept per rule, the oldest replaced first: in a storm of
/// `secret_access_key` one rule's candidates start at `secret` and at `access_key`
/// in turn.
///
/// A path whose match its rule then rejected (a placeholder, filler, a failed
/// validator) is kept as one without a match, except for a token's rule: a rejected
/// match is as good as none, and `token = new_token_value1` repeated no longer sends
/// every hit on to be matched and judged again (the verdict was kept, the hit was not
/// dropped). A token's match may still name a context match (see `label`).
///
/// A path's first bytes (up to 8) are also kept as a word, so a comparison is a load, a
/// mask and a compare for paths of up to 8 bytes: most paths of a storm
/// (`sk-sk-`, `G` of `GSK_`), which [`Scrubber::add_keyword_candidate`] checks at each
/// start before a candidate exists.
#[derive(Clone, Debug)]
pub(super) struct Memo {
    paths: [(Vec<u8>, Option<u64>); PATHS],
    /// Per path: its first bytes (up to 8) as a little-endian word, and their mask;
    /// an empty slot's can equal no word (`(u64::MAX, 0)`).
    heads: [(u64, u64); PATHS],
    next: usize,
    /// Paths kept so far (a [`Begun`] is of the paths as they were).
    kept: u64,
    /// The last candidate [`Memo::begins`] found on a path.
    begun: Option<Begun>,
    /// The last bytes [`learn`] fed a candidate of the rule without its DFA dying: a
    /// hit whose bytes are the same, or the first of them, is not learned again (in
    /// `eyJ-eyJ-…` every JWT candidate lives past the bytes a dense block's kill reads,
    /// and each pass learned that of up to [`LEARN`] of them).
    lives: Vec<u8>,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            paths: Default::default(),
            heads: [(u64::MAX, 0); PATHS],
            next: 0,
            kept: 0,
            begun: None,
            lives: Vec::new(),
        }
    }
}

/// What [`Memo::begins`] found of a candidate: on a path (or at its end, decided), and
/// the bytes compared; or on none, and whether its bytes may begin with a whole path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnPath {
    On(u64),
    Off { whole: bool },
}

/// A candidate whose bytes from `start` up to `to` are the first of the memo's path in
/// `slot`, as the paths were after `kept` of them (see [`Memo::begins`]): asked again
/// as more bytes arrive, only those are compared.
#[derive(Clone, Copy, Debug)]
struct Begun {
    start: u64,
    to: u64,
    slot: usize,
    kept: u64,
}

/// The first 8 bytes of `text` as a little-endian word (zeros past its end).
#[inline]
pub(super) fn head(text: &[u8]) -> u64 {
    match text.first_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => {
            let mut w = [0u8; 8];
            w[..text.len()].copy_from_slice(text);
            u64::from_le_bytes(w)
        }
    }
}

/// The mask of a [`head`] word's first `n` bytes (all 8 from `n = 8` on).
#[inline]
pub(super) fn head_mask(n: usize) -> u64 {
    match n {
        0 => 0,
        1..=7 => (1u64 << (8 * n)) - 1,
        _ => u64::MAX,
    }
}

impl Memo {
    /// The path `text` begins with, if any: its slot. (At most one can: a path ends
    /// where the DFA died, so no path extends another.)
    #[inline]
    fn slot(&self, text: &[u8]) -> Option<usize> {
        let word = head(text);
        self.heads
            .iter()
            .zip(&self.paths)
            .position(|(&(w, mask), (path, _))| {
                // A longer path is compared at its last byte first, the one that killed
                // the DFA: in a storm the text there usually differs (`eyJ-eyJ-…!`).
                let n = path.len();
                word & mask == w
                    && text.len() >= n
                    && (n <= 8 || (text[n - 1] == path[n - 1] && text[8..n] == path[8..]))
            })
    }

    /// The path `text` begins with, if any: its length and match end.
    #[inline]
    fn recall(&self, text: &[u8]) -> Option<(usize, Option<u64>)> {
        let (path, best) = &self.paths[self.slot(text)?];
        Some((path.len(), *best))
    }

    /// Whether a candidate starting at `text` (bytes that arrived from its start) dies
    /// without a match: the outcome [`Memo::decide`] would give, which drops it.
    #[inline]
    fn kills(&self, text: &[u8]) -> bool {
        matches!(self.recall(text), Some((_, None)))
    }

    /// Whether a candidate starting at `text` (all the bytes a kill may read) lives
    /// through them: they are the first of bytes [`learn`] fed one that lived.
    #[inline]
    fn lives_on(&self, text: &[u8]) -> bool {
        !text.is_empty() && self.lives.starts_with(text)
    }

    /// Decide `c`, not fed yet, from the memo when the bytes from its start (in `buf`
    /// from offset `base` up to `known`) begin with a path. Returns the bytes compared.
    fn decide(&self, c: &mut Candidate, buf: &[u8], base: u64, known: u64) -> Option<u64> {
        if c.pos != c.start || c.start < base {
            return None;
        }
        let (len, best) = self.recall(&buf[(c.start - base) as usize..(known - base) as usize])?;
        Memo::ends(c, len, best);
        Some(len as u64)
    }

    /// Decide `c` as the path of `len` bytes with match end `best` (from its start)
    /// was: dead at its last byte.
    fn ends(c: &mut Candidate, len: usize, best: Option<u64>) {
        c.pos = c.start + len as u64 - 1;
        c.fate = Fate::Done(best.map(|b| c.start + b));
    }

    /// Whether `c`, not fed yet, has only the first bytes of a path the memo knows
    /// from its start (in `buf` from offset `base` up to `known`): it lives until the
    /// rest of that path arrives, where it is decided as [`Memo::decide`] decides it.
    /// Returns [`OnPath::On`] the bytes compared, if so: those since the last ask
    /// about the same candidate (see [`Begun`]), or all of them; or whether the bytes
    /// may begin with a path (what `decide` answers).
    fn begins(&mut self, c: &mut Candidate, buf: &[u8], base: u64, known: u64) -> OnPath {
        if c.pos != c.start || c.start < base || known <= c.start {
            return OnPath::Off { whole: true };
        }
        let at = |p: u64| (p - base) as usize;
        let n = (known - c.start) as usize;
        if let Some(b) = self
            .begun
            .take()
            .filter(|b| b.start == c.start && b.kept == self.kept)
        {
            let (path, best) = &self.paths[b.slot];
            let stop = known.min(c.start + path.len() as u64);
            let to = b.to.min(stop);
            if buf[at(to)..at(stop)] != path[(to - c.start) as usize..(stop - c.start) as usize] {
                // Off the path: on no other that it begins (none extends another),
                // but it may begin a shorter one that parts from this one there.
                return OnPath::Off { whole: true };
            }
            if n >= path.len() {
                // The whole path: decided.
                Memo::ends(c, path.len(), *best);
            } else {
                self.begun = Some(Begun { to: known, ..b });
            }
            return OnPath::On(stop - to);
        }
        // One pass over the paths' first words: most bytes (a storm that does not
        // repeat) begin none and are begun by none.
        let text = &buf[at(c.start)..at(known)];
        let (word, mut whole) = (head(text), false);
        for (slot, (&(w, mask), (path, _))) in self.heads.iter().zip(&self.paths).enumerate() {
            if n >= path.len() {
                whole |= word & mask == w;
            } else if (word ^ w) & mask & head_mask(n) == 0 && path.starts_with(text) {
                self.begun = Some(Begun {
                    start: c.start,
                    to: known,
                    slot,
                    kept: self.kept,
                });
                return OnPath::On(n as u64);
            }
        }
        OnPath::Off { whole }
    }

    /// The path `text` begins with, if it ends in a match `end` bytes long, is now
    /// one whose match was rejected: it kills as a path without one does.
    fn reject(&mut self, text: &[u8], end: u64) {
        if let Some(i) = self.slot(text) {
            let best = &mut self.paths[i].1;
            if *best == Some(end) {
                *best = None;
            }
        }
    }

    fn keep(&mut self, path: &[u8], best: Option<u64>) {
        let mask = head_mask(path.len());
        let word = head(path) & mask;
        // Words first: in a storm that does not repeat, most paths kept are new, and
        // a comparison of their bytes was a library call each.
        let known = (self.heads.iter().zip(&self.paths))
            .any(|(&(w, m), (p, _))| (w, m) == (word, mask) && p[..] == *path);
        if known {
            return;
        }
        let (bytes, b) = &mut self.paths[self.next];
        bytes.clear();
        bytes.extend_from_slice(path);
        *b = best;
        self.heads[self.next] = (word, mask);
        self.next = (self.next + 1) % PATHS;
        self.kept += 1;
    }
}

/// How the last match of a rule was judged: its bytes, the byte after it (`None` at
/// the end of what has arrived), and the span its secret group covers (from the match's
/// start), or `None` when a validator or guard rejected it. Finding the group and the
/// guards look at those bytes only, so a match with the same ones is judged alike
/// (`token = token_157985` repeated: every period matches, and the capture engine cost
/// ten times the rest of the scrubbing).
#[derive(Clone, Debug, Default)]
pub(super) struct Verdict {
    text: Vec<u8>,
    after: Option<u8>,
    span: Option<(u64, u64)>,
}

impl Scrubber {
    pub fn new(set: Arc<RuleSet>) -> Scrubber {
        let n = set.rules.len();
        let followable: Vec<bool> = (set.rules.iter())
            .map(|r| r.before.is_none() && r.has_pattern())
            .collect();
        let mut prefilter_space = Scratch::default();
        prefilter_space.runs.runnable = (set.keyword_rule.iter())
            .map(|&r| followable[r as usize])
            .collect();
        Scrubber {
            set,
            buf: Vec::new(),
            base: 0,
            emitted: 0,
            scanned: 0,
            cands: VecDeque::new(),
            swallow: None,
            resume: None,
            counts: vec![0; n],
            total: 0,
            work: 0,
            hits: Vec::new(),
            merged: Vec::new(),
            prefilter_space,
            before_at: RunsAt::default(),
            eager_from: 0,
            dense: false,
            trails: PerRule::new(n),
            eager_trail: Trail::default(),
            heads: vec![Head::NONE; n],
            keyword_cands: vec![0; n],
            loops: PerRule::new(n),
            memos: PerRule::new(n),
            runs: vec![(u64::MAX, 0); n],
            verdicts: PerRule::new(n),
            secret: None,
            scratch: Vec::new(),
            bridge: Vec::new(),
            applied: VecDeque::new(),
            period: None,
            read_to: 0,
            last_stop: 0,
            hits_taken: 0,
            busy_mark: (0, 0, 0),
            unread: 0,
            busy: false,
            pending: None,
            followable,
            leader: (u64::MAX, 0),
            cycle: Vec::new(),
            led: Vec::new(),
            #[cfg(test)]
            plain: false,
            #[cfg(test)]
            buffered: false,
            #[cfg(test)]
            stops: 0,
            #[cfg(test)]
            copied: 0,
            #[cfg(test)]
            skipped: 0,
            #[cfg(test)]
            made: 0,
            #[cfg(test)]
            in_place: 0,
            #[cfg(test)]
            in_place_up_to: 0,
            #[cfg(test)]
            read_ahead: 0,
        }
    }

    pub fn rule_set(&self) -> &Arc<RuleSet> {
        &self.set
    }

    /// Scrub the next chunk; append to `out` every byte that is now safe to emit.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        self.feed_into(chunk, &mut Lazy::written(out));
    }

    /// Feed `chunk` as [`Scrubber::feed`] does. When nothing is held before it and all
    /// of it goes out unchanged with nothing held after it (clean text), nothing is
    /// appended to `out` and the result is true: the output is `chunk` itself, never
    /// copied. Otherwise the output is appended and the result is false.
    pub fn feed_through(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> bool {
        let mark = out.len();
        let n = self.feed_lazy(chunk, out);
        if out.len() == mark && n == chunk.len() {
            return true;
        }
        out.extend_from_slice(&chunk[..n]);
        false
    }

    /// Feed `chunk` as [`Scrubber::feed`] does, copying as little of it as it can: the
    /// output is what is appended to `out` followed by `chunk[..n]`, `n` returned.
    /// While nothing is redacted (clean text, keywords whose candidates die, a tail
    /// held back), only the bytes held before `chunk` are written: a caller that
    /// builds an object of the output copies `chunk`'s part once, not into `out`
    /// first.
    pub fn feed_lazy(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> usize {
        let mut lazy = Lazy {
            start: self.end(),
            out,
            unwritten: Some(chunk),
            passed: 0,
        };
        self.feed_into(chunk, &mut lazy);
        lazy.unwritten.map_or(0, |_| lazy.passed)
    }

    fn feed_into(&mut self, chunk: &[u8], out: &mut Lazy<'_, '_>) {
        // Large chunks are taken a slice at a time: the output is the same (that is the
        // point of the design), and the candidates in flight stay few and cache-warm.
        for piece in chunk.chunks(SLICE) {
            if !self.feed_idle(piece, out) {
                self.buf.extend_from_slice(piece);
                self.process_into(out, false);
            }
        }
    }

    /// Feed `piece` when nothing is held (the common case on clean text): the
    /// prefilter reads it where it lies, and without a hit it goes out up to its
    /// hold-back with no copy into the buffer first, the buffer keeping only the
    /// context and what is held. With hits it is buffered and they are taken as a scan
    /// takes them. The output and the state after are those of the usual way
    /// (buffer, scan, resolve, emit); false when the scrubber is not idle or `piece`
    /// too short to repay it (nothing done).
    fn feed_idle(&mut self, piece: &[u8], out: &mut Lazy<'_, '_>) -> bool {
        let start = self.end();
        let context = self.set.context;
        let held = (start - self.emitted) as usize;
        let idle = self.scanned == start && held <= HELD_MAX && self.swallow.is_none();
        #[cfg(test)]
        if self.buffered {
            return false;
        }
        let end = start + piece.len() as u64;
        // Held candidates are read ahead last, and only for a slice long enough to be
        // read in place: asked first, a stream written a byte at a time read them up
        // to 512 bytes on at every write (a repeated `AWS_BEARER_TOKEN_BEDROCK`, half
        // of its time).
        if !idle
            || piece.len() < IDLE_MIN.max(2 * context)
            || !self.shortcuts()
            || self.replayable(end)
            || self.busy
            || !(self.cands.is_empty() || self.candidates_die_in(piece))
        {
            return false;
        }
        let from = self.scan_from();
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        // What the scan would read before `piece` (a keyword's first bytes, held):
        // the hits starting there, found on it and enough of `piece` for any keyword
        // and the bytes a dense block's checks read past its start.
        let before = (start - from) as usize;
        if before > 0 {
            let reach = (self.set.prefilter.max_len() + KILL_READS).min(piece.len());
            let mut bridge = std::mem::take(&mut self.bridge);
            bridge.clear();
            bridge.extend_from_slice(&self.buf[(from - self.base) as usize..]);
            bridge.extend_from_slice(&piece[..reach]);
            self.prefilter_pass(&bridge, &mut hits, usize::MAX);
            self.bridge = bridge;
            // Its runs as hits (a few bytes' worth): the next pass reports its own.
            let runs = &mut self.prefilter_space.runs;
            hits.extend(runs.hits());
            runs.runs.clear();
            hits.retain(|&(_, at)| at < before);
        }
        let first = hits.len();
        let (pending, stopped) = self.prefilter_pass(piece, &mut hits, MOST);
        let upto = self.cut_at(&mut hits, first, stopped, piece.len());
        for hit in &mut hits[first..] {
            hit.1 += before;
        }
        for run in &mut self.prefilter_space.runs.runs {
            run.at += before;
        }
        self.pending = pending.map(|n| (end, start, n));
        self.scanned = start + upto as u64;
        // A piece whose hits would all start candidates that die unmatched within it
        // (or that `take_hits` drops) writes what one with no hit does: it is read so,
        // with no copy into the buffer and no candidate. In agent output nearly every
        // 64 KiB slice holds a few such hits (`token`, `secret` in code and logs), and
        // the copy cost clean text 6-9 % of its time.
        let runs = !self.prefilter_space.runs.runs.is_empty();
        let mut found = !hits.is_empty() || runs;
        let mut cut = 0;
        if found && !runs && self.scanned == end && hits.len() <= IN_PLACE_HITS {
            cut = self.die_in_place(piece, before, &hits);
            found = cut < piece.len();
        }
        if found && cut >= IDLE_MIN.max(2 * context) {
            // Every hit before `cut` dies where it lies: the piece is read in place up
            // to it, and the usual way from it on, only its hits from `context` bytes
            // past `cut` on taken (those before die; a hit's candidate starts at most
            // `context` bytes before it). In a word storm every slice ends in copies
            // whose run goes past its edge, and each slice had been buffered whole.
            self.cands.clear();
            let tail = before + cut + context;
            hits.retain(|&(_, at)| at >= tail);
            self.pass_up_to(start, piece, cut, out);
            self.take_hits(hits, from, start);
            self.process_into(out, false);
            #[cfg(test)]
            {
                self.in_place_up_to += 1;
            }
            return true;
        }
        if found || self.scanned < end {
            self.buf.extend_from_slice(piece);
            self.take_hits(hits, from, start);
            self.process_into(out, false);
            return true;
        }
        self.hits = hits;
        // The open candidates die unmatched within `piece` (see
        // `candidates_die_in`): gone, as reading it the usual way leaves them.
        self.cands.clear();
        // As `tail_hold` decides; a `before` run reaching the start of `piece` may
        // go on in the buffer: then the usual way.
        let hold = self
            .set
            .prefilter
            .partial_start(piece, pending)
            .unwrap_or(piece.len());
        let run = self.set.before_runs.longest(&piece[..hold]);
        if run == hold && hold > 0 {
            self.buf.extend_from_slice(piece);
            self.process_into(out, false);
            return true;
        }
        self.resume = Some((end, start + hold as u64));
        self.pass_up_to(start, piece, hold - run, out);
        self.compact();
        true
    }

    /// `piece` (from `start`) read in place up to `limit`: the bytes held before it
    /// and `piece[..limit]` go out, and the buffer keeps `context` bytes before
    /// `limit` and the rest of `piece`.
    fn pass_up_to(&mut self, start: u64, piece: &[u8], limit: usize, out: &mut Lazy<'_, '_>) {
        out.emit(
            self.emitted,
            &self.buf[(self.emitted - self.base) as usize..],
        );
        out.emit(start, &piece[..limit]);
        let keep = limit.saturating_sub(self.set.context);
        if keep > 0 {
            self.buf.clear();
            self.base = start + keep as u64;
        }
        self.buf.extend_from_slice(&piece[keep..]);
        self.emitted = start + limit as u64;
    }

    /// Whether every open candidate dies unmatched within `piece`, as [`run`] would
    /// read it: live, with no match met, its rule's DFA read on from where it stands
    /// (its held bytes, then `piece`) dies short of its cap, within [`SETTLE_MOST`]
    /// bytes, with no match on the way; and so do its followers, each read from its
    /// start. [`Scrubber::feed_idle`] then reads `piece` in place all the same. In a
    /// word storm (`token` and an alphanumeric byte, again and again) every slice ends
    /// in copies whose run goes past its edge: their candidate, held, had each slice
    /// buffered (64 KiB copied and read again), though they die a few dozen bytes on.
    fn candidates_die_in(&mut self, piece: &[u8]) -> bool {
        #[cfg(test)]
        {
            self.read_ahead += 1;
        }
        self.cands.iter().all(|c| {
            let rule = &self.set.rules[c.rule as usize];
            let (true, None, Some(m)) = (c.fate == Fate::Live, c.best, rule.matcher()) else {
                return false;
            };
            let dfa = &m.dfa;
            // The DFA in `state`, fed from `pos` on, dies unmatched short of the cap
            // of a candidate that starts at `start`.
            let dies = |mut state, pos: u64, start: u64| {
                let cap = start + rule.max_len as u64 + 2;
                let held = &self.buf[(pos - self.base) as usize..];
                for (pos, &b) in (pos..).zip(held.iter().chain(piece).take(SETTLE_MOST)) {
                    if pos >= cap {
                        return false;
                    }
                    state = dfa.next_state(state, b);
                    if dfa.is_special_state(state) {
                        if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                            return true;
                        }
                        if dfa.is_match_state(state) {
                            return false;
                        }
                    }
                }
                false
            };
            let followers = c.follow.map_or(0, |f| f.n);
            followers <= SETTLE_FOLLOWERS
                && dies(c.state, c.pos, c.start)
                && (1..=followers).all(|k| {
                    let at = c.start + k * c.follow.map_or(0, |f| f.d);
                    dies(m.start, at, at)
                })
        })
    }

    /// Whether every hit of `hits` (offsets from `before` bytes ahead of `piece`) is a
    /// keyword's that `take_hits` drops or whose candidate dies unmatched within
    /// `piece`, as told from the bytes at hand: its rule not compiled, its gate or its
    /// lazy DFA drops it (as [`Scrubber::dies_uncompiled`] asks; at least
    /// [`IN_PLACE_BACK`] bytes into `piece`, past what a gate reads before it); the run
    /// its rule needs before the keyword is shorter or longer than allowed (walked back
    /// as [`Scrubber::run_before`] walks, in the held bytes for a hit that starts
    /// there); or the candidate, from its start, dies unmatched within `piece` (its
    /// rule's DFA read there as [`learn`] reads it, which is how the candidate would
    /// read it; for a hit that starts in the held bytes, within them and the first
    /// bytes of `piece`: the bridge its hits were found on). False at the first that
    /// is not (a hit that starts in the held bytes of a rule not compiled yet is
    /// asked its run only): the piece is then buffered and read as usual. (A storm's
    /// keyword cut by the slice's edge had each of its slices buffered: 64 KiB
    /// copied and read again for one hit that dies three bytes on.)
    fn die_in_place(&mut self, piece: &[u8], before: usize, hits: &[Hit]) -> usize {
        let set = &*self.set;
        let mut cut = piece.len();
        for &(k, at) in hits {
            // A hit that does not die here: the piece is read the usual way from
            // `context` bytes before it (from its start where it starts in the held
            // bytes: all of it).
            let fails = at.saturating_sub(before).saturating_sub(set.context);
            if !set.prefilter.is_keyword(k) {
                cut = cut.min(fails);
                continue;
            }
            let rule = set.keyword_rule[k as usize];
            let r = &set.rules[rule as usize];
            // A hit that starts in the held bytes (a storm's keyword cut by the slice's
            // edge) is asked only its run, there.
            let held = &self.buf[..self.buf.len() - before + at.min(before)];
            let (off, text) = match at.checked_sub(before) {
                Some(off) => (off, &piece[..off]),
                None => (0, &[][..]),
            };
            // A run out of bounds drops the hit whether or not its gate would. A hit
            // that starts in the held bytes is read on them and the slice's first
            // bytes (the bridge its hits were found on).
            let (start, read) = match r.before.as_ref().map(|b| run_fails(b, held, text)) {
                None if at >= before => (off, piece),
                None => (at, &self.bridge[..]),
                Some((true, _)) => continue,
                Some((false, run)) if at >= before && run <= off => (off - run, piece),
                Some((false, run)) if at < before && run <= at => (at - run, &self.bridge[..]),
                _ => {
                    cut = cut.min(fails);
                    continue;
                }
            };
            if !r.compiled() {
                // As `dies_uncompiled` asks, well inside the slice (a gate reads back).
                let drops = || {
                    !set.prefilter.opens(k, piece, off)
                        || (r.before.is_none() && r.dies_uncompiled(&piece[off..]))
                };
                if off >= IN_PLACE_BACK && drops() {
                    continue;
                }
                // One that starts in the held bytes: its lazy DFA read on the bridge
                // (its gate, which may read back past the bridge, not asked).
                if at < before && r.before.is_none() && r.dies_uncompiled(&self.bridge[at..]) {
                    continue;
                }
                cut = cut.min(fails);
                continue;
            }
            let learned = (
                &mut self.memos[rule as usize],
                Some(&mut self.loops[rule as usize]),
            );
            let (dies, n) = learn(set, rule, learned, &read[start..]);
            self.work += n;
            if !dies {
                cut = cut.min(fails);
            }
        }
        #[cfg(test)]
        {
            self.in_place += u64::from(cut == piece.len());
        }
        cut
    }

    /// End the stream: append everything still held back, scrubbed. The scrubber is
    /// then ready for a new stream; counts are kept.
    pub fn flush(&mut self, out: &mut Vec<u8>) {
        self.process(out, true);
        self.base += self.buf.len() as u64;
        self.buf.clear();
        self.emitted = self.base;
        self.scanned = self.base;
        self.cands.clear();
        self.swallow = None;
        self.resume = None;
        self.forget();
    }

    /// Whether `text` holds any keyword or literal hit. A whole text without one cannot
    /// change when scrubbed (every candidate starts at a hit), so callers scrubbing many
    /// short values (the run boundary's fields) skip the stream machinery for it.
    pub fn has_keyword(&mut self, text: &[u8]) -> bool {
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        self.set
            .prefilter
            .find(text, &mut self.prefilter_space, &mut hits, &mut false);
        // A dense block may report its hits as runs (see [`Follow`]).
        let found = !hits.is_empty() || !self.prefilter_space.runs.runs.is_empty();
        self.prefilter_space.runs.runs.clear();
        hits.clear();
        self.hits = hits;
        found
    }

    /// Bytes currently held back.
    pub fn held(&self) -> usize {
        (self.base + self.buf.len() as u64 - self.emitted) as usize
    }

    /// Work done so far beyond the prefilter's pass: keyword hits examined plus bytes
    /// fed to candidate DFAs. Tests use it to state linear-time bounds without clocks.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Redactions applied so far, all rules together.
    pub fn redactions(&self) -> u64 {
        self.total
    }

    /// Redactions applied so far, per rule, in the rule set's order.
    pub fn counts(&self) -> impl Iterator<Item = (&str, u64)> {
        self.set
            .rules
            .iter()
            .zip(&self.counts)
            .map(|(r, &n)| (r.info.id.as_str(), n))
    }

    /// Whether the shortcuts that decide candidates without feeding them (memo, trail,
    /// eager feeding, rejection at the hit) and scans that stop early are on: always,
    /// but in the tests that compare them with plain feeding.
    #[inline]
    fn shortcuts(&self) -> bool {
        #[cfg(test)]
        if self.plain {
            return false;
        }
        true
    }

    fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    #[inline]
    fn byte(&self, at: u64) -> u8 {
        self.buf[(at - self.base) as usize]
    }

    fn slice(&self, from: u64, to: u64) -> &[u8] {
        &self.buf[(from - self.base) as usize..(to - self.base) as usize]
    }

    fn process(&mut self, out: &mut Vec<u8>, eof: bool) {
        self.process_into(&mut Lazy::written(out), eof);
    }

    /// [`Scrubber::process`], unchanged bytes emitted through `out` (see [`Lazy`]).
    fn process_into(&mut self, out: &mut Lazy<'_, '_>, eof: bool) {
        let end = self.end();
        // Repeating text goes on repeating: copied before a scan reads it.
        if self.period.is_some() || self.busy {
            self.repeat_on(out.vec(), end);
        }
        // A scan may stop short (see [`MOST`]): what it found is resolved before the
        // scan goes on (candidates from bytes not yet scanned are left waiting).
        loop {
            if !self.swallow_overflow(end, eof) {
                break;
            }
            if !self.cands.is_empty() && self.resolve(out, end, eof) {
                continue;
            }
            if self.scanned >= end {
                break;
            }
            self.scan(end);
        }
        let mut limit = self.cands.front().map_or(end, |c| c.start);
        if self.swallow.is_some() {
            limit = self.emitted;
        } else if !eof {
            limit = limit.min(self.tail_hold(end));
        }
        if limit > self.emitted {
            out.emit(self.emitted, self.slice(self.emitted, limit));
            self.emitted = limit;
        }
        self.note_busy(end);
        self.compact();
    }

    /// Before a chunk is scanned: [`Scrubber::replay`], or [`Scrubber::skip_clean`].
    /// Out of line: a 32-byte delta does neither.
    #[inline(never)]
    fn repeat_on(&mut self, out: &mut Vec<u8>, end: u64) {
        if self.replayable(end) {
            self.replay(out, end);
        } else if self.busy && self.swallow.is_none() && self.shortcuts() {
            self.skip_clean(out, end);
        }
    }

    /// Whether [`Scrubber::replay`] may copy a period of text that repeats, with the
    /// bytes up to `end` (the last redaction's reach lies before it).
    fn replayable(&self, end: u64) -> bool {
        self.swallow.is_none()
            && self.shortcuts()
            && self.period.is_some()
            && self.applied.back().is_some_and(|a| a.reach < end)
    }

    /// Swallow bytes of an overflowed rule's class. False while the swallow reaches the
    /// end of what has arrived (the stream must wait for more).
    fn swallow_overflow(&mut self, end: u64, eof: bool) -> bool {
        let Some(rule) = self.swallow else {
            return true;
        };
        // Read over the slice (a storm that overflows is swallowed whole, megabytes of
        // it), not a byte at a time through the stream's offsets.
        let swallows = &self.set.rules[rule as usize].overflow;
        let rest = &self.buf[(self.emitted - self.base) as usize..(end - self.base) as usize];
        let n = swallows.run(rest);
        self.emitted += n as u64;
        if self.emitted == end && !eof {
            self.scanned = self.scanned.max(end);
            return false;
        }
        self.swallow = None;
        let emitted = self.emitted;
        self.last_stop = emitted;
        let cut = self.cands.iter().take_while(|c| c.start < emitted).count();
        self.remove_front(cut, emitted, false);
        true
    }

    /// Report keyword hits in the bytes that arrived since the last scan.
    fn scan(&mut self, end: u64) {
        if self.scanned >= end {
            return;
        }
        let from = self.scan_from();
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        let buf = std::mem::take(&mut self.buf);
        let hay = &buf[(from - self.base) as usize..];
        // Plain feeding (tests) scans to the end: the reference for stopping early.
        let most = if self.shortcuts() { MOST } else { usize::MAX };
        let (pending, stopped) = self.prefilter_pass(hay, &mut hits, most);
        let upto = self.cut_at(&mut hits, 0, stopped, hay.len());
        self.buf = buf;
        self.pending = pending.map(|n| (end, from, n));
        let scanned = std::mem::replace(&mut self.scanned, from + upto as u64);
        if hits.is_empty() && self.prefilter_space.runs.runs.is_empty() {
            self.hits = hits;
            return;
        }
        self.take_hits(hits, from, scanned);
    }

    /// Where the next scan starts: where the last one left a keyword possibly
    /// arriving, or a keyword's length before its end; never before what went out.
    fn scan_from(&self) -> u64 {
        match self.resume {
            Some((at, from)) if at == self.scanned => from,
            _ => {
                let overlap = self.set.prefilter.max_len() as u64 - 1;
                self.scanned.saturating_sub(overlap)
            }
        }
        .max(self.base)
        .max(self.emitted)
    }

    /// The prefilter's hits in `hay` (into `hits`) and how much of its end could
    /// still become a keyword, when it knows.
    fn prefilter_pass(
        &mut self,
        hay: &[u8],
        hits: &mut Vec<Hit>,
        most: usize,
    ) -> (Option<usize>, Option<usize>) {
        // Plain feeding (tests) takes every hit, the gates' reference. A dense block
        // also drops a hit whose bytes begin with a path its rule's DFA died on
        // unmatched (as `add_keyword_candidate` would: it costs less there, before the
        // hit is stored, sorted and read back).
        //
        // A hit the memo does not know is read by its rule's DFA there, a few per pass,
        // more while they die cheaply (see [`learn`], [`LEARN_CHEAP`]): at the start
        // of a storm the memo is empty, and without it every hit of the first slice
        // (~13,000 in 64 KiB of `TOKEN`) went on to the scrubber, four times the time
        // of the fifteen slices after it.
        let gated = self.shortcuts();
        let set = &*self.set;
        let memos = RefCell::new((&mut self.memos, &mut self.loops));
        let (budget, fed) = (Cell::new(LEARN), Cell::new(0u64));
        // The run read after the last hit of a keyword whose gate has a cap: the
        // keyword, where the text starts, and the stretch of it known to be of the run's
        // class (see `RunCap::dies`).
        let seen = Cell::new((u32::MAX, 0usize, NOT_SEEN));
        let kill = |k: u32, text: &[u8], at: usize, run: Option<usize>| {
            // A hit whose rule reads a bounded run after its keyword (`quoted-key-value`'s
            // `token[A-Za-z0-9_.-]{0,32}`, then a quote) dies where its run ends, or runs
            // past the bound: in a storm of `token` and an alphanumeric byte, each of the
            // runs reaches through the next copies, and each hit so read to its end
            // (unlike the paths the memo knows) cost a candidate. The hits of one run
            // read its bytes once.
            if let Some(gate) = set.prefilter.gate(k).filter(|g| g.cap.is_some()) {
                let (key, from, mut stretch) = seen.get();
                if key != k || from != text.as_ptr() as usize {
                    stretch = NOT_SEEN;
                }
                let len = set.prefilter.keyword_len(k);
                let dies = gate.capped(text, at, len, &mut stretch);
                seen.set((k, text.as_ptr() as usize, stretch));
                if dies {
                    return true;
                }
            }
            let rule = set.keyword_rule[k as usize] as usize;
            // The candidate starts where `add_keyword_candidate` starts it: before
            // the run of its rule's class, when it reads one (its gate measured it).
            let start = match (&set.rules[rule].before, run) {
                (None, _) => at,
                (Some(_), Some(n)) => at - n,
                (Some(_), None) => return false,
            };
            // A dense block trusts a kill to read no further (see `prefilter::repeat`):
            // paths longer than that kill later, at the candidate's start.
            let text = &text[start..text.len().min(start + KILL_READS)];
            // Until the rule is compiled, its lazy DFA reads the hit (see
            // `Scrubber::dies_uncompiled`): one that dies compiles nothing.
            let r = &set.rules[rule];
            if !r.compiled() && r.before.is_none() && r.dies_uncompiled(text) {
                return true;
            }
            // The rule's pattern loosened (see `Rule::dies_loosened`) reads a hit
            // that dies about as fast as the memo answers, and knows the paths it never
            // saw: in a storm of `token` and a random byte every `quoted-key-value`
            // hit reads a new run of `[A-Za-z0-9_.-]{0,32}` to a byte that is no quote.
            // Once compiled: a hit no rule's DFA reads compiles none.
            if r.compiled() && r.dies_loosened(text) {
                return true;
            }
            let (memos, loops) = &mut *memos.borrow_mut();
            let memo = &mut memos[rule];
            if memo.kills(text) {
                return true;
            }
            if budget.get() == 0 || memo.lives_on(text) {
                return false;
            }
            budget.set(budget.get() - 1);
            let (dies, n) = learn(set, rule as u32, (memo, Some(&mut loops[rule])), text);
            fed.set(fed.get() + n);
            if dies && n <= LEARN_CHEAP {
                budget.set(budget.get() + 2);
            }
            dies
        };
        let found = set.prefilter.find_gated(
            hay,
            &mut self.prefilter_space,
            hits,
            &mut self.dense,
            (gated, gated.then_some(&kill as Kill<'_>), most),
        );
        self.work += fed.get();
        found
    }

    /// Candidates starting before this are all known: every byte up to `end` is
    /// scanned, or a hit yet to be found (by a scan from a keyword's length before
    /// `scanned`) starts a candidate no earlier than this (its keyword, or the run
    /// before it). Bytes are left unscanned by a scan that stops early (see
    /// [`MOST`]), and between a slice's arrival and its scan.
    fn complete(&self, end: u64) -> u64 {
        if self.scanned >= end {
            return u64::MAX;
        }
        let reach = (self.set.prefilter.max_len() + self.set.context) as u64;
        self.scanned.saturating_sub(reach)
    }

    /// Keep of `hits` (from index `first`; offsets from where `hay` starts) those
    /// that end by `stopped`, where a pass over `hay` stopped (see [`MOST`]): the rest
    /// are found again by the scan from there. Returns where hits are complete.
    fn cut_at(
        &mut self,
        hits: &mut Vec<Hit>,
        first: usize,
        stopped: Option<usize>,
        hay: usize,
    ) -> usize {
        let Some(at) = stopped else { return hay };
        #[cfg(test)]
        {
            self.stops += 1;
        }
        let pre = &self.set.prefilter;
        let mut i = first;
        for j in first..hits.len() {
            let (k, h) = hits[j];
            if h + pre.pattern(k).len() <= at {
                hits[i] = hits[j];
                i += 1;
            }
        }
        hits.truncate(i);
        // A run keeps the hits that end by the stop.
        self.prefilter_space.runs.runs.retain_mut(|r| {
            let len = pre.pattern(r.k).len();
            r.n = r.n.min((at + 1).saturating_sub(r.at + len).div_ceil(r.d));
            r.n > 0
        });
        at
    }

    /// Start the candidates of `hits`, found in the buffer from offset `from`; those
    /// ending by `scanned` were taken by an earlier scan.
    fn take_hits(&mut self, mut hits: Vec<Hit>, from: u64, scanned: u64) {
        let set = Arc::clone(&self.set);
        // Each searcher reports in order; several interleave. In order, candidates are
        // appended (no search per hit).
        sort_runs(&mut hits, &mut self.merged);
        // The prefilter's runs, merged with the hits by where they start.
        let mut runs = std::mem::take(&mut self.prefilter_space.runs.runs);
        if !runs.is_sorted_by_key(|r| r.at) {
            runs.sort_by_key(|r| r.at);
        }
        let mut next = runs.iter().peekable();
        self.work += (hits.len() + runs.len()) as u64;
        self.hits_taken += hits.len() as u64 + runs.iter().map(|r| r.n as u64).sum::<u64>();
        // Hits that go on with the followers of the candidate at `.0`, of rule `.1`:
        // the next one expected, the distance, and how many were counted (added to
        // its followers before anything else changes the queue).
        let mut streak: Option<(usize, u32, u64, u64, u64)> = None;
        for &(pattern, at) in &hits {
            let hit = from + at as u64;
            if let Some((_, rule, next, step, n)) = &mut streak {
                let keyword = set.prefilter.is_keyword(pattern);
                if keyword && hit == *next && set.keyword_rule[pattern as usize] == *rule {
                    let r = &set.rules[*rule as usize];
                    let taken = hit + set.prefilter.pattern(pattern).len() as u64 <= scanned;
                    if !taken && !self.blocked(r, hit) {
                        (*next, *n) = (hit + *step, *n + 1);
                        continue;
                    }
                }
                self.end_streak(streak.take());
            }
            while let Some(r) = next.next_if(|r| r.at <= at) {
                self.take_run(r, from, scanned);
            }
            let stop = hit + set.prefilter.pattern(pattern).len() as u64;
            if stop <= scanned {
                continue;
            }
            if set.prefilter.is_keyword(pattern) {
                let rule = set.keyword_rule[pattern as usize];
                // A rule not compiled yet is compiled for a hit that can open a
                // candidate, not for one its gate drops (see `Rule::compiled`).
                if !set.rules[rule as usize].compiled() && self.dies_uncompiled(pattern, hit) {
                    continue;
                }
                match self.follow_on(rule, (hit, 1, 0), pattern) {
                    Some(i) => {
                        let (c, f) = (&self.cands[i], self.cands[i].follow.expect("followers"));
                        streak = Some((i, rule, c.start + (f.n + 1) * f.d, f.d, 0));
                    }
                    None => {
                        self.add_keyword_candidate(rule, hit, pattern);
                    }
                }
            } else if hit >= self.emitted {
                self.add_candidate(Candidate {
                    rule: set.literal_rule,
                    start: hit,
                    pos: stop,
                    state: StateID::ZERO,
                    best: None,
                    fate: Fate::Done(Some(stop)),
                    follow: None,
                });
            }
        }
        self.end_streak(streak);
        for r in next {
            self.take_run(r, from, scanned);
        }
        runs.clear();
        self.prefilter_space.runs.runs = runs;
        self.hits = hits;
    }

    /// Whether keyword `pattern`'s hit at `hit` would make a candidate that dies
    /// unmatched in the bytes at hand, asked while its rule is not compiled (see
    /// `Rule::compiled`): its gate drops it, or, for a rule with no run before its
    /// keyword, the rule's lazy DFA dies reading on from it. Out of line: once every
    /// rule a stream meets is compiled, it is never called.
    #[cold]
    #[inline(never)]
    fn dies_uncompiled(&self, pattern: u32, hit: u64) -> bool {
        let at = (hit - self.base) as usize;
        let rule = &self.set.rules[self.set.keyword_rule[pattern as usize] as usize];
        !self.set.prefilter.opens(pattern, &self.buf, at)
            || (rule.before.is_none() && rule.dies_uncompiled(&self.buf[at..]))
    }

    /// Add the hits a streak counted (see [`Scrubber::take_hits`]) to the followers of
    /// its candidate.
    fn end_streak(&mut self, streak: Option<(usize, u32, u64, u64, u64)>) {
        if let Some((i, .., n)) = streak {
            let f = self.cands[i].follow.as_mut().expect("followers");
            f.n += n;
        }
    }

    /// Start the candidates of the run `r` (offsets from `from`), but those taken by an
    /// earlier scan (ending by `scanned`): as the followers of a candidate (see
    /// [`Follow`]).
    fn take_run(&mut self, r: &Run, from: u64, scanned: u64) {
        let rule = self.set.keyword_rule[r.k as usize];
        let len = self.set.prefilter.pattern(r.k).len() as u64;
        let (mut at, d, mut n) = (from + r.at as u64, r.d as u64, r.n as u64);
        if at + len <= scanned {
            let taken = ((scanned - at - len) / d + 1).min(n);
            (at, n) = (at + taken * d, n - taken);
        }
        if n == 0 {
            return;
        }
        if self.follow_on(rule, (at, n, d), r.k).is_none() {
            self.lead(rule, (at, n, d), r.k);
        }
    }

    /// Add the `n` hits of `rule` at `at`, `at + d`, … (of keyword `k`; `d` 0 for one
    /// hit) as followers (see [`Follow`]) of the candidate whose
    /// followers they go on from, or of the last candidate when they are its first
    /// (one hit: at any distance up to [`FOLLOW_MAX`]; a run: `d` after it): its index.
    /// `None` when they are not: the caller makes them (see [`Scrubber::lead`]).
    fn follow_on(&mut self, rule: u32, hits: (u64, u64, u64), k: u32) -> Option<usize> {
        if !self.followable[rule as usize] || !self.shortcuts() {
            return None;
        }
        // The last candidate, most often; or the last one given followers.
        let last = self.cands.len().checked_sub(1);
        // The leader is searched for only when it may go on: of this rule, before
        // the hits.
        let i = match last.filter(|&i| self.goes_on(i, rule, hits)) {
            Some(i) => i,
            None if self.leader.1 == rule && self.leader.0 < hits.0 => self
                .find(self.leader)
                .filter(|&i| self.goes_on(i, rule, hits))?,
            None => return None,
        };
        self.follow_from(i, hits, k).then_some(i)
    }

    /// Whether the hits of `rule` at `at`, `at + d`, … (`d` 0: one hit) go on from the
    /// candidate at `i` and its followers.
    fn goes_on(&self, i: usize, rule: u32, (at, _, d): (u64, u64, u64)) -> bool {
        let c = &self.cands[i];
        c.rule == rule
            && match c.follow {
                Some(f) => (d == 0 || d == f.d) && c.start + (f.n + 1) * f.d == at,
                None => c.start < at && (d == 0 || c.start + d == at),
            }
    }

    /// Give the candidate at `i` the hits at `at`, `at + d`, … (`n` of them, going on
    /// from it) as followers; false when one may not start (its left guard), or they
    /// lie too far apart.
    fn follow_from(&mut self, i: usize, (at, n, d): (u64, u64, u64), k: u32) -> bool {
        let c = &self.cands[i];
        let step = c.follow.map_or(at - c.start, |f| f.d);
        if step > FOLLOW_MAX || (d > 0 && d != step) {
            return false;
        }
        let rule = &self.set.rules[c.rule as usize];
        if rule.left_guard.is_some() && !self.all_start(rule, (at, n, step)) {
            return false;
        }
        let c = &mut self.cands[i];
        let f = c.follow.get_or_insert(Follow { d: step, n: 0, k });
        f.n += n;
        self.leader = (c.start, c.rule);
        true
    }

    /// Whether the left guard of `rule` lets a candidate start at each of `at`, `at +
    /// d`, … (`n` of them). What it asks of one (see [`Scrubber::blocked`]) reads
    /// the 2 bytes before it: where those of the others are the same bytes `d` apart,
    /// the first is asked for all.
    fn all_start(&self, rule: &Rule, (at, n, d): (u64, u64, u64)) -> bool {
        if n > 2 && at >= self.base + 2 {
            let from = at - 2;
            let (a, b) = ((from - self.base) as usize, (from + d - self.base) as usize);
            let len = ((at + (n - 1) * d) - (from + d)) as usize;
            if self.buf[a..a + len] == self.buf[b..b + len] {
                return !self.blocked(rule, at);
            }
        }
        (0..n).all(|j| !self.blocked(rule, at + j * d))
    }

    /// The index of the candidate `(start, rule)`, if it is queued.
    fn find(&self, (start, rule): (u64, u32)) -> Option<usize> {
        self.cands
            .binary_search_by_key(&(start, rule), |x| (x.start, x.rule))
            .ok()
    }

    /// Make the first candidate of the hits of `rule` at `at`, `at + d`, … (`n` of
    /// them; of keyword `k`) that a candidate is made of, and give it the rest as
    /// followers.
    fn lead(&mut self, rule: u32, (at, n, d): (u64, u64, u64), k: u32) {
        for i in 0..n {
            let start = at + i * d;
            if !self.add_keyword_candidate(rule, start, k) || i + 1 == n {
                continue;
            }
            let rest = (start + d, n - 1 - i, d);
            let made = self.find((start, rule)).expect("just made");
            if !self.goes_on(made, rule, rest) || !self.follow_from(made, rest, k) {
                // Not followers (a left guard blocks one): made one by one.
                for j in i + 1..n {
                    self.add_keyword_candidate(rule, at + j * d, k);
                }
            }
            return;
        }
    }

    /// Start the candidate of a hit of `rule_ix` at `hit` (of keyword `k`, or of another
    /// of the rule's, for a follower); false when none is queued (its rule's run before
    /// the keyword does not fit, its left guard blocks it, or it was decided unmatched on
    /// the spot).
    fn add_keyword_candidate(&mut self, rule_ix: u32, hit: u64, k: u32) -> bool {
        let start = match self.set.rules[rule_ix as usize].before {
            None => hit,
            Some(before) => {
                let run = self.run_before(rule_ix, hit, &before.class, before.max + 1);
                if run < before.min || run > before.max {
                    return false;
                }
                hit - run as u64
            }
        };
        let rule = &self.set.rules[rule_ix as usize];
        // A start the left guard blocks, or whose bytes begin with a path on which the
        // rule's DFA died with no match, is dropped before a candidate exists (in a
        // storm, nearly every hit: see [`Memo`]).
        if self.blocked(rule, start)
            || (self.shortcuts()
                && self.memos[rule_ix as usize].kills(&self.buf[(start - self.base) as usize..]))
        {
            return false;
        }
        // Or whose run after the keyword ends where it cannot match.
        if self.shortcuts() && self.capped(rule_ix, k, hit) {
            return false;
        }
        let rule = &self.set.rules[rule_ix as usize];
        let mut c = Candidate {
            rule: rule_ix,
            start,
            pos: start,
            state: rule.matcher().expect("keyword rules have a pattern").start,
            best: None,
            fate: Fate::Live,
            follow: None,
        };
        // In a storm (`sk-sk-…`) nearly every hit is dead a few bytes past its keyword:
        // fed those bytes now, it never enters the queue. Not within the reach of an
        // earlier candidate that was fed so and lived on: its match may cover this one
        // (`eyJeyJ…`), and the bytes would be fed for nothing. Either way the candidate
        // is decided alike; this only chooses when.
        if start >= self.eager_from && self.shortcuts() {
            let known = self.end();
            // Most candidates of a storm are decided by the memo (see [`Memo`]).
            if let Some(n) =
                self.memos[rule_ix as usize].decide(&mut c, &self.buf, self.base, known)
            {
                self.work += n;
                if c.fate == Fate::Done(None) {
                    return false;
                }
                self.add_candidate(c);
                return true;
            }
            let limit = (hit + self.set.prefilter.keyword_len(k) as u64 + EAGER).min(known);
            // A trail no one joins (nothing is recorded): the rule's is kept for the
            // candidates in the queue.
            let trail = &mut self.eager_trail;
            trail.start = u64::MAX;
            trail.states.clear();
            self.work += run(
                &self.set,
                &self.buf,
                self.base,
                &mut c,
                (
                    trail,
                    &mut self.memos[rule_ix as usize],
                    &mut self.heads[rule_ix as usize],
                    None,
                ),
                &mut self.scratch,
                limit,
                false,
            );
            match c.fate {
                Fate::Done(None) => return false,
                Fate::Live => self.eager_from = start + rule.max_len as u64 + 2,
                _ => {}
            }
        }
        self.add_candidate(c);
        true
    }

    /// Whether the hit at `hit` of keyword `k` (of rule `rule`) dies unmatched by its
    /// gate's run cap, in the bytes at hand (see `opening::RunCap`): asked at once
    /// where the gate is built (gates are the rule set's, shared by its streams), else
    /// once [`CAP_AFTER`] of the rule's hits came this far (the gate is built at the
    /// first ask), and only of a hit spelled as `k` (a follower may be another
    /// keyword's).
    fn capped(&mut self, rule: u32, k: u32, hit: u64) -> bool {
        let gate = match self.set.prefilter.gate_built(k) {
            Some(gate) => gate,
            None => {
                let made = &mut self.keyword_cands[rule as usize];
                if *made < CAP_AFTER {
                    *made += 1;
                    return false;
                }
                self.set.prefilter.gate(k)
            }
        };
        let Some(gate) = gate.filter(|g| g.cap.is_some()) else {
            return false;
        };
        let at = (hit - self.base) as usize;
        let keyword = self.set.prefilter.pattern(k);
        let spelled =
            (self.buf.get(at..at + keyword.len())).is_some_and(|b| b.eq_ignore_ascii_case(keyword));
        spelled && gate.capped(&self.buf, at, keyword.len(), &mut { NOT_SEEN })
    }

    fn add_candidate(&mut self, c: Candidate) {
        #[cfg(test)]
        {
            self.made += 1;
        }
        let key = (c.start, c.rule);
        // Hits mostly arrive in order (a storm of one keyword: all of them).
        if self.cands.back().is_none_or(|x| (x.start, x.rule) < key) {
            self.cands.push_back(c);
            return;
        }
        match self.cands.binary_search_by_key(&key, |x| (x.start, x.rule)) {
            // Two literal forms at one start: the longer one counts.
            Ok(i) => {
                if let (Fate::Done(Some(new)), Fate::Done(Some(old))) = (c.fate, self.cands[i].fate)
                {
                    if new > old {
                        self.cands[i] = c;
                    }
                }
            }
            Err(i) => self.cands.insert(i, c),
        }
    }

    /// Whether a candidate of `rule` may not start at `start`: inside what was emitted
    /// (or redacted), or right after a byte of its left guard.
    #[inline]
    fn blocked(&self, rule: &Rule, start: u64) -> bool {
        start < self.emitted
            || rule.left_guard.as_ref().is_some_and(|guard| {
                start > self.base
                    && guard.contains(self.byte(start - 1))
                    && !self.after_escape(start)
            })
    }

    /// True when `at` follows a `\n`, `\r` or `\t` escape (inside a JSON string the
    /// escape's letter is not part of the token that follows it).
    fn after_escape(&self, at: u64) -> bool {
        at >= self.base + 2
            && matches!(self.byte(at - 1), b'n' | b'r' | b't')
            && self.byte(at - 2) == b'\\'
    }

    /// Length of the run of `class` bytes ending at `at`, counting at most `limit`, for
    /// a keyword of rule `rule`. In a storm (`AZDOAZDO…`, a run of 76 before it) the
    /// run ending at the rule's last hit is extended by the bytes since, when they are
    /// all of the class, instead of being walked again: linear in the bytes, not in
    /// hits times the run.
    fn run_before(
        &mut self,
        rule: u32,
        at: u64,
        class: &super::ruleset::ByteClass,
        limit: usize,
    ) -> usize {
        let (last, run) = self.runs[rule as usize];
        if last >= self.base
            && last <= at
            && at - last < limit as u64
            && (last..at).all(|p| class.contains(self.byte(p)))
        {
            let n = (run + (at - last) as usize).min(limit);
            // Where a walk would stop at the buffer's start, it is walked.
            if at - n as u64 > self.base {
                self.runs[rule as usize] = (at, n);
                return n;
            }
        }
        let mut n = 0;
        let mut p = at;
        while n < limit && p > self.base && class.contains(self.byte(p - 1)) {
            p -= 1;
            n += 1;
        }
        self.runs[rule as usize] = (at, n);
        n
    }

    /// Decide candidates in order of their start. Returns true when an overflow was
    /// applied (the caller swallows, then comes back).
    fn resolve(&mut self, out: &mut Lazy<'_, '_>, end: u64, eof: bool) -> bool {
        let complete = self.complete(end);
        while let Some(head) = self.cands.front().map(|c| c.start) {
            if head >= complete {
                return false;
            }
            let group = self.cands.iter().take_while(|c| c.start == head).count();
            let mut undecided = false;
            for i in 0..group {
                self.advance(i, end, eof);
                undecided |= self.cands[i].fate == Fate::Live;
            }
            if undecided {
                return false;
            }
            let Some((c, stop, span)) = self.choose(group) else {
                self.drop_front(group, head);
                continue;
            };
            let Some(label) = self.label(&c, span, end, eof) else {
                return false;
            };
            self.drop_front(group, stop);
            let from = self.emitted;
            let out = out.vec();
            out.extend_from_slice(self.slice(from, c.start));
            out.extend_from_slice(self.slice(c.start, span.0));
            out.extend_from_slice(&self.set.rules[label as usize].replacement);
            out.extend_from_slice(self.slice(span.1, stop));
            self.counts[label as usize] += 1;
            self.total += 1;
            self.emitted = stop;
            // Counted from the front, not searched for: the candidates counted are
            // dropped, so the count costs one step per candidate, however many wait.
            let cut = self.cands.iter().take_while(|x| x.start < stop).count();
            self.drop_front(cut, stop);
            self.last_stop = stop;
            if c.fate == Fate::Overflow {
                self.forget();
                self.swallow = Some(c.rule);
                return true;
            }
            if self.shortcuts() {
                let reach = self.read_to.max(stop + self.unread_reach());
                self.read_to = 0;
                // What went out since the last redaction went out unchanged (an
                // overflow's swallow or a stream's end clears the list): that
                // redaction's stop is where this one was decided from.
                let from = self.applied.back().map_or(from, |a| a.stop);
                self.note(Applied {
                    from,
                    span,
                    stop,
                    label,
                    reach,
                });
                self.replay(out, end);
            }
        }
        false
    }

    /// Drop the first `n` candidates, noting how far they read (see
    /// [`Applied::reach`]): a candidate has read the bytes before its `pos`, and the
    /// byte there when that byte decided it. Their followers from `stop` on are
    /// released (see [`Scrubber::release`]).
    fn drop_front(&mut self, n: usize, stop: u64) {
        self.remove_front(n, stop, true);
    }

    /// [`Scrubber::drop_front`]; `reads`: whether to note how far they read.
    fn remove_front(&mut self, n: usize, stop: u64, reads: bool) {
        let mut led = std::mem::take(&mut self.led);
        for c in self.cands.drain(..n) {
            if reads {
                self.read_to = self.read_to.max(c.pos + 1);
            }
            if c.follow.is_some() {
                led.push(c);
            }
        }
        for c in led.drain(..) {
            self.release(&c, stop);
        }
        self.led = led;
    }

    /// `c`, with followers, left the queue: a redaction or what went out unread
    /// reaches `stop`, or it was decided with nothing applied (`stop` at most its
    /// start). Its followers before `stop` go as the bytes they start in did; while
    /// it was queued, none could be decided before it (it started earlier), so the
    /// first of the rest is made now, and leads the others.
    ///
    /// When `c` died unmatched, so did the followers that reached the state it was in
    /// at the same byte, with no match on the way (see
    /// [`Scrubber::dead_followers`]): they are dropped with it.
    fn release(&mut self, c: &Candidate, stop: u64) {
        let Some(f) = c.follow else { return };
        let mut first = 1;
        if stop > c.start {
            first = (stop - c.start).div_ceil(f.d).max(1);
        }
        if c.fate == Fate::Done(None) {
            first = first.max(self.dead_followers(c, f) + 1);
        }
        if first <= f.n {
            let at = c.start + first * f.d;
            self.lead(c.rule, (at, f.n - first + 1, f.d), f.k);
        }
    }

    /// How many of the first followers of `c` (with `f`), a candidate that died
    /// unmatched at `c.pos` (or was decided at the end of the stream there), die there
    /// unmatched too.
    ///
    /// Where the text repeats with the period `d` from `c.start`, follower `k` reads
    /// what `c` read `k * d` bytes before, through the same states. Let `j` be the
    /// first byte after which `c`'s DFA is in the state it was in `d` bytes before,
    /// with no match state on the way: from `j - d` on, its states repeat with the
    /// period too, while the text does. So follower `k` is, after the byte `j + (k -
    /// 1) * d`, in the state `c` is in there, having met no match: when that byte lies
    /// in the stretch that repeats (and before `c.pos`), it reads the same bytes as
    /// `c` from there through the same states. When those meet no match state either
    /// (stepped through past the stretch), it dies at `c.pos`, unmatched.
    fn dead_followers(&mut self, c: &Candidate, f: Follow) -> u64 {
        let Some(m) = self.set.rules[c.rule as usize].matcher() else {
            return 0;
        };
        let (dfa, d, dead, end) = (&m.dfa, f.d, c.pos, self.end());
        if c.start < self.base || dead > end {
            return 0;
        }
        let at = |p: u64| (p - self.base) as usize;
        let states = &mut self.cycle;
        states.clear();
        let mut state = m.start;
        let mut join = None;
        for p in c.start..dead.min(c.start + d + JOIN_MAX) {
            state = dfa.next_state(state, self.buf[at(p)]);
            if dfa.is_dead_state(state) || dfa.is_quit_state(state) || dfa.is_match_state(state) {
                return 0;
            }
            states.push(state);
            let i = states.len() - 1;
            if i >= d as usize && states[i - d as usize] == state {
                join = Some(p);
                break;
            }
        }
        let Some(j) = join else { return 0 };
        // The text repeats from `c.start + d` up to `repeats`.
        let (a, b) = (at(c.start), at(c.start + d));
        let same = same_run(&self.buf[b..at(dead)], &self.buf[a..at(dead - d)]);
        let repeats = c.start + d + same as u64;
        if repeats <= j || dead - repeats > JOIN_MAX {
            return 0;
        }
        // Past it, `c`'s DFA meets no match state before it dies either: then none of
        // the followers that joined its states does (its memo may hold a path whose
        // match was rejected as one that dies unmatched).
        let cycle = &states[states.len() - 1 - d as usize..states.len() - 1];
        let mut state = cycle[((repeats - 1 - (j - d)) % d) as usize];
        for p in repeats..dead {
            state = dfa.next_state(state, self.buf[at(p)]);
            if dfa.is_dead_state(state) || dfa.is_quit_state(state) || dfa.is_match_state(state) {
                return 0;
            }
        }
        let mut joined = ((repeats - 1 - j) / d + 1).min(f.n);
        // Where the text repeats up to the byte that killed `c`, a follower that had
        // not joined it by then is in the state `c` was in `k * d` bytes before (one of
        // those up to `j`, none a match state): when that byte kills it too, it dies
        // there unmatched (the last few before a break, which began within a period or
        // so of it).
        if repeats == dead && dead < end {
            let last = self.buf[at(dead)];
            while joined < f.n {
                let k = joined + 1;
                let Some(&before) = (dead - 1)
                    .checked_sub(c.start + k * d)
                    .and_then(|i| states.get(i as usize))
                else {
                    break;
                };
                let next = dfa.next_state(before, last);
                if !(dfa.is_dead_state(next) || dfa.is_quit_state(next)) {
                    break;
                }
                joined = k;
            }
        }
        joined
    }

    /// Past a redaction's stop, how far deciding it may have read without a
    /// candidate's `pos` telling: hits dropped before they became candidates (by a
    /// [`Memo`] path, a gate or [`learn`], at most [`MEMO`] bytes; or fed [`EAGER`]
    /// bytes past their keyword), a run before a keyword, the keyword itself.
    fn unread_reach(&self) -> u64 {
        let keyword = self.set.prefilter.max_len();
        (MEMO + KILL_READS + 2 * (self.set.context + keyword) + EAGER as usize + 2) as u64
    }

    /// Keep `a`, the last redaction applied, and find the shortest run of the last
    /// ones, `n` of them (up to [`REPEAT`]), that repeats the `n` before it `d` bytes
    /// later (the same rules, spans and stops): the period, `(n, d)`.
    fn note(&mut self, a: Applied) {
        if self.applied.len() == 2 * REPEAT {
            self.applied.pop_front();
        }
        self.applied.push_back(a);
        let k = self.applied.len();
        self.period = (1..=REPEAT.min(k / 2)).find_map(|n| {
            let (a, b) = (k - 2 * n, k - n);
            let d = self.applied[k - 1].stop - self.applied[b - 1].stop;
            (0..n)
                .all(|i| {
                    let (x, y) = (self.applied[a + i], self.applied[b + i]);
                    Applied {
                        reach: y.reach,
                        ..x.shifted(d)
                    } == y
                })
                .then_some((n, d))
        });
    }

    /// Forget the redactions applied (an overflow's swallow or the stream's end
    /// comes between them and the next).
    fn forget(&mut self) {
        self.applied.clear();
        self.period = None;
    }

    /// Copy the redactions of a text that repeats, a period at a time, instead of
    /// finding and deciding each again.
    ///
    /// Every decision reads the bytes alone. The last `n` redactions (see
    /// [`Scrubber::note`]), applied one after another from `from` to `stop`, were
    /// decided from the bytes between `from` less the rule set's `context` and the
    /// furthest [`Applied::reach`]: at `from` no candidate started earlier, and each
    /// next one was decided from the stop of the one before (what went out between
    /// went out unchanged). When those bytes equal the ones `d = stop - from` later,
    /// the same decisions are made from `stop`, `d` bytes on: the same rules, the same
    /// spans, the same output. So while the text repeats with period `d` (it is
    /// compared, not trusted), periods are copied whole: `k` periods when the bytes
    /// equal those `d` later up to `(k - 1) * d` past the furthest reach. The `n`
    /// redactions before must have the same shape: two periods are seen before one is
    /// copied, so text that does not repeat costs a few comparisons per redaction.
    ///
    /// What went out since `stop` went out unchanged: the first period's output
    /// begins past it (it must lie before the period's first redaction).
    fn replay(&mut self, out: &mut Vec<u8>, end: u64) {
        let Some((n, d)) = self.period else { return };
        let k = self.applied.len();
        let (b, last) = (k - n, self.applied[k - 1]);
        let first = self.applied[b];
        let skip = self.emitted - last.stop;
        if skip > first.span.0 - first.from {
            return;
        }
        let Some(from) =
            (first.from.checked_sub(self.set.context as u64)).filter(|&at| at >= self.base)
        else {
            return;
        };
        let reach = (b..k).map(|i| self.applied[i].reach).max().unwrap_or(end);
        let Some(periods) = self.periods((from, reach), d, end) else {
            return;
        };
        let write = |out: &mut Vec<u8>, skip: u64| {
            for (i, r) in self.applied.range(b..).enumerate() {
                let from = if i == 0 { r.from + skip } else { r.from };
                out.extend_from_slice(self.slice(from, r.span.0));
                out.extend_from_slice(&self.set.rules[r.label as usize].replacement);
                out.extend_from_slice(self.slice(r.span.1, r.stop));
            }
        };
        write(out, skip);
        if periods > 1 {
            // The period's whole output, doubled until it is there `periods - 1` times.
            let at = out.len();
            write(out, 0);
            let total = (out.len() - at) * (periods - 1) as usize;
            while out.len() - at < total {
                let more = (out.len() - at).min(total - (out.len() - at));
                out.extend_from_within(at..at + more);
            }
        }
        for i in b..k {
            self.counts[self.applied[i].label as usize] += periods;
        }
        self.total += periods * n as u64;
        #[cfg(test)]
        {
            self.copied += periods;
        }
        let shift = periods * d;
        for r in &mut self.applied {
            *r = Applied {
                reach: r.reach + shift,
                ..r.shifted(shift)
            };
        }
        self.emitted = last.stop + shift;
        self.last_stop = self.emitted;
        self.drop_passed();
    }

    /// How many whole periods of `d` bytes are decided as the one read from `from`
    /// to `reach` was (none: `None`): while the bytes up to `end` equal those `d`
    /// later, `k` periods when they do up to `(k - 1) * d` past `reach`.
    fn periods(&self, (from, reach): (u64, u64), d: u64, end: u64) -> Option<u64> {
        if reach + d > end {
            return None;
        }
        let equal = same_run(self.slice(from, end - d), self.slice(from + d, end));
        let repeats = from + equal as u64;
        (repeats >= reach).then(|| (repeats - reach) / d + 1)
    }

    /// Let text without a redaction that repeats go out unread, a period at a time.
    ///
    /// The argument of [`Scrubber::replay`] with no redaction in it: the `d` bytes
    /// before `emitted` went out unchanged after the last redaction had stopped, so
    /// every candidate starting among them was decided without a match, from the bytes
    /// between `context` before them and [`Scrubber::read_to`] or the furthest a hit
    /// dropped unread may reach. When those bytes equal the ones `d` later, the
    /// candidates starting `d` bytes later are decided alike: none matches, and the
    /// next `d` bytes go out unchanged, as many periods as the text repeats. `d` is
    /// found by the last time the [`PROBE`] bytes before `emitted` occurred, within
    /// [`CLEAN_PERIOD`]; only a [`Scrubber::busy`] stream looks (on text with few
    /// hits the scan costs less than looking), and only when two of the longest
    /// periods and that bound have arrived past `emitted`.
    fn skip_clean(&mut self, out: &mut Vec<u8>, end: u64) {
        let e = self.emitted;
        let context = self.set.context as u64;
        let unread = self.unread_reach();
        if end < e + 2 * CLEAN_PERIOD + unread || e < self.base + PROBE {
            return;
        }
        let lo = self.base.max(e.saturating_sub(CLEAN_PERIOD + PROBE));
        let probe = self.slice(e - PROBE, e);
        let window = self.slice(lo, e - 1);
        // The probe's last byte first: a reverse search has no vector prefilter, and
        // where the probe is not there (a stream held at the start of a long candidate,
        // `…eyJ-!` before it) it read the window at ~17 instructions a byte.
        if memchr::memrchr(probe[probe.len() - 1], window).is_none() {
            return;
        }
        let Some(at) = memchr::memmem::rfind(window, probe) else {
            return;
        };
        let d = e - PROBE - (lo + at as u64);
        let Some(from) = (e - d).checked_sub(context).filter(|&at| at >= self.base) else {
            return;
        };
        if self.last_stop > e - d {
            return;
        }
        let reach = self.read_to.max(e + unread);
        let Some(periods) = self.periods((from, reach), d, end) else {
            return;
        };
        let shift = periods * d;
        out.extend_from_slice(self.slice(e, e + shift));
        self.emitted = e + shift;
        // The reads of the candidates decided alike, `shift` bytes on.
        self.read_to += shift;
        self.unread += shift;
        #[cfg(test)]
        {
            self.skipped += shift;
        }
        self.drop_passed();
    }

    /// Drop the candidates that start before `emitted`, decided by a period copied
    /// or let out (their reads are those of the period before, `d` bytes on).
    fn drop_passed(&mut self) {
        let emitted = self.emitted;
        let cut = self.cands.iter().take_while(|x| x.start < emitted).count();
        self.remove_front(cut, emitted, false);
    }

    /// Note whether the stream is busy: hits taken every [`BUSY_EVERY`] bytes or more
    /// often in the bytes read since it was last noted, at least [`BUSY_SPAN`] bytes
    /// ago (bytes let out unread are not counted).
    fn note_busy(&mut self, end: u64) {
        let (at, hits, unread) = self.busy_mark;
        if end - at < BUSY_SPAN {
            return;
        }
        let read = (end - at).saturating_sub(self.unread - unread);
        if read >= BUSY_SPAN {
            self.busy = (self.hits_taken - hits) * BUSY_EVERY >= read;
            self.busy_mark = (end, self.hits_taken, self.unread);
        }
    }

    /// Among decided candidates with one start, the one that applies: an overflow, else
    /// the longest match that survives its guard (ties: rule order). Returns it with
    /// its end and the span to replace.
    fn choose(&mut self, group: usize) -> Option<(Candidate, u64, (u64, u64))> {
        let mut best: Option<(Candidate, u64, (u64, u64))> = None;
        for i in 0..group {
            let c = &self.cands[i];
            let (stop, overflow) = match c.fate {
                Fate::Overflow => (c.pos, true),
                Fate::Done(Some(e)) => (e, false),
                _ => continue,
            };
            if best
                .as_ref()
                .is_some_and(|(b, s, _)| b.fate == Fate::Overflow || *s >= stop)
                && !overflow
            {
                continue;
            }
            let rule = &self.set.rules[c.rule as usize];
            let (rule_ix, start) = (c.rule as usize, c.start);
            let after = (stop < self.end()).then(|| self.byte(stop));
            let fast = self.shortcuts();
            let reading = |r: Reading| if fast { r } else { Reading::Captures };
            let buf = (&self.buf[..], self.base);
            let space = &mut self.secret;
            let span = if overflow {
                let reading = reading(Reading::Cut);
                Self::secret_span((rule_ix, rule), buf, space, (start, stop), reading)
            } else {
                let at = |p: u64| (p - self.base) as usize;
                let text = &self.buf[at(start)..at(stop)];
                // The same bytes judged last time are judged alike (see [`Verdict`]).
                let known = &self.verdicts[rule_ix];
                let verdict =
                    if !known.text.is_empty() && known.text == text && known.after == after {
                        known.span
                    } else {
                        let reading = reading(Reading::Whole);
                        let span =
                            Self::secret_span((rule_ix, rule), buf, space, (start, stop), reading);
                        let value = &self.buf[at(span.0)..at(span.1)];
                        let rejected = rule.validator.is_some_and(|check| !check(value))
                            || (rule.info.tier == Tier::Context && is_placeholder(value, after))
                            || (rule.info.tier != Tier::Literal && is_filler(value));
                        let span = (!rejected).then(|| (span.0 - start, span.1 - start));
                        if text.len() <= VERDICT_MAX {
                            let v = &mut self.verdicts[rule_ix];
                            v.text.clear();
                            v.text.extend_from_slice(text);
                            (v.after, v.span) = (after, span);
                        }
                        span
                    };
                let Some((from, to)) = verdict else {
                    // Rejected: for a rule other than a token's (whose match may still
                    // name a context match: see `label`), as good as no match. The
                    // path that led to it is then one that kills (see [`Memo`]).
                    if rule.info.tier != Tier::Token {
                        let text = &self.buf[(start - self.base) as usize..];
                        self.memos[rule_ix].reject(text, stop - start);
                    }
                    continue;
                };
                (start + from, start + to)
            };
            let c = &self.cands[i];
            if best
                .as_ref()
                .is_some_and(|(b, s, _)| b.fate == Fate::Overflow && *s >= stop)
            {
                continue;
            }
            best = Some((c.clone(), stop, span));
        }
        best
    }

    /// The rule a redaction is reported under. A context match whose secret is exactly a
    /// fixed-format token (`GITHUB_TOKEN=ghp_…`) is named after the token's rule; `None`
    /// while that token candidate is still undecided (the answer must not depend on
    /// where the stream was split).
    fn label(&mut self, c: &Candidate, span: (u64, u64), end: u64, eof: bool) -> Option<u32> {
        if c.fate == Fate::Overflow || self.set.rules[c.rule as usize].info.tier != Tier::Context {
            return Some(c.rule);
        }
        // A token candidate at the secret may be one a scan has yet to find.
        if span.0 >= self.complete(end) {
            return None;
        }
        // A token candidate at the secret may be a follower: it is made now.
        self.make_follower(span.0);
        // The candidates before the secret lie in the match, dropped with it: counted
        // from the front (see `resolve`).
        let from = self.cands.iter().take_while(|x| x.start < span.0).count();
        let to = from
            + (self.cands.iter().skip(from))
                .take_while(|x| x.start == span.0)
                .count();
        let mut label = c.rule;
        for i in from..to {
            if self.set.rules[self.cands[i].rule as usize].info.tier != Tier::Token {
                continue;
            }
            self.advance(i, end, eof);
            match self.cands[i].fate {
                Fate::Live => return None,
                Fate::Done(Some(e)) if e == span.1 && label == c.rule => label = self.cands[i].rule,
                _ => {}
            }
        }
        Some(label)
    }

    /// The candidates queued from `emitted` on, followers made (see [`Follow`]: not
    /// fed yet), in order; where one is queued too, the queued one.
    pub(super) fn queued(&self) -> Vec<Candidate> {
        let mut all: Vec<(bool, Candidate)> = Vec::new();
        for c in self.cands.iter().filter(|c| c.start >= self.emitted) {
            let queued = Candidate {
                follow: None,
                ..c.clone()
            };
            let Some(f) = c.follow else {
                all.push((false, queued));
                continue;
            };
            // A follower as made: at its start, in its DFA's start state.
            let state = self.set.rules[c.rule as usize]
                .matcher()
                .expect("followers have a pattern")
                .start;
            let made = Candidate {
                state,
                best: None,
                fate: Fate::Live,
                ..queued.clone()
            };
            all.push((false, queued));
            all.extend((1..=f.n).map(|k| {
                let start = c.start + k * f.d;
                let pos = start;
                (
                    true,
                    Candidate {
                        start,
                        pos,
                        ..made.clone()
                    },
                )
            }));
        }
        all.sort_by_key(|(follower, c)| (c.start, c.rule, *follower));
        all.dedup_by_key(|(_, c)| (c.start, c.rule));
        all.into_iter().map(|(_, c)| c).collect()
    }

    /// Make the follower that starts at `at`, if a candidate before it has one there
    /// (see [`Follow`]); it leads the followers after it.
    fn make_follower(&mut self, at: u64) {
        let mut i = 0;
        while i < self.cands.len() && self.cands[i].start < at {
            let c = &self.cands[i];
            if let Some(f) = c.follow {
                let k = (at - c.start) / f.d;
                if (at - c.start).is_multiple_of(f.d) && k <= f.n {
                    let rule = c.rule;
                    self.cands[i].follow = (k > 1).then_some(Follow { n: k - 1, ..f });
                    self.lead(rule, (at, f.n - k + 1, f.d), f.k);
                }
            }
            i += 1;
        }
    }

    /// The part of the match of rule `r` (`rule`) at `start..stop` that is replaced:
    /// its first participating `secret…` group, or all of it. `space`: the scrubber's
    /// `secret`; `buf` from `base` on, its buffer; `reading`: whether `stop` ends the
    /// match or the rule's cap, and whether the splits may answer (plain feeding, the
    /// tests' reference, asks the capture engines alone: see `Secret::span`).
    fn secret_span(
        (r, rule): (usize, &Rule),
        (buf, base): (&[u8], u64),
        space: &mut Option<SecretCache>,
        (start, stop): (u64, u64),
        reading: Reading,
    ) -> (u64, u64) {
        if let Some(secret) = rule.matcher().and_then(|m| m.captures.as_ref()) {
            let text = &buf[(start - base) as usize..(stop - base) as usize];
            if let Some((from, to)) = secret.span(r, text, reading, space) {
                return (start + from as u64, start + to as u64);
            }
        }
        (start, stop)
    }

    /// Feed the candidate at `i` the bytes it has not seen, until it is decided.
    fn advance(&mut self, i: usize, end: u64, eof: bool) {
        let shortcuts = self.shortcuts();
        let c = &mut self.cands[i];
        if c.fate == Fate::Live {
            let memo = &mut self.memos[c.rule as usize];
            if shortcuts {
                // Not fed while its bytes are the first of a path the memo knows: in
                // one-byte writes of `sk-ant-api03-` again and again, every candidate
                // was stepped through the ~95 bytes each one reads before it dies,
                // seven DFA steps a byte, where the memo decides each from the first
                // one's path once its bytes have all arrived.
                let whole = match memo.begins(c, &self.buf, self.base, end) {
                    OnPath::On(n) if !eof || c.fate != Fate::Live => {
                        self.work += n;
                        return;
                    }
                    OnPath::On(_) => true,
                    OnPath::Off { whole } => whole,
                };
                if whole {
                    if let Some(n) = memo.decide(c, &self.buf, self.base, end) {
                        self.work += n;
                        return;
                    }
                }
            }
            let mut none = Head::NONE;
            let (trail, head, loops) = if shortcuts {
                (
                    &mut self.trails[c.rule as usize],
                    &mut self.heads[c.rule as usize],
                    Some(&mut self.loops[c.rule as usize]),
                )
            } else {
                // A trail no one joins (see `add_keyword_candidate`), no head, and
                // every byte stepped through.
                self.eager_trail.start = u64::MAX;
                self.eager_trail.states.clear();
                (&mut self.eager_trail, &mut none, None)
            };
            self.work += run(
                &self.set,
                &self.buf,
                self.base,
                c,
                (trail, memo, head, loops),
                &mut self.scratch,
                end,
                eof,
            );
        }
    }

    /// The earliest offset from which the tail could still become part of a credential
    /// (`end` when it cannot).
    fn tail_hold(&mut self, end: u64) -> u64 {
        let set = &self.set;
        let tail = &self.buf[(self.emitted - self.base) as usize..];
        // The last scan's walk already knows how much of its end could be a keyword's
        // start when it began at or after `emitted` (a scan starts where no keyword
        // can straddle it, so nothing before its start is pending either).
        let known = self
            .pending
            .filter(|&(at, from, _)| at == end && from >= self.emitted)
            .map(|(_, _, n)| n);
        let hold = match set.prefilter.partial_start(tail, known) {
            Some(j) => self.emitted + j as u64,
            None => end,
        };
        // A keyword hit starting before `emitted` starts no candidate, so the next scan
        // need not look before `hold`.
        if self.scanned == end {
            self.resume = Some((end, hold));
        }
        // A keyword that needs a run of bytes before it may arrive at `end` or at any
        // offset where a keyword may be arriving (all at or after `hold`). Such a run
        // either starts at or after `hold`, or runs through it: then it starts where
        // the run ending at `hold` does, and is no longer. So one run is measured.
        let run = set.before_runs.longest_at(
            &self.buf[..(hold - self.base) as usize],
            hold,
            &mut self.before_at,
        );
        (hold - run as u64).max(self.emitted)
    }

    /// Drop bytes no longer needed, keeping `context` bytes before `emitted`.
    fn compact(&mut self) {
        let context = self.set.context as u64;
        let mut keep_from = self.emitted.saturating_sub(context);
        // Text that repeats keeps the bytes its last period was decided from, for
        // the next chunk to be compared with (see [`Scrubber::replay`]); a period of
        // up to [`REPEAT_KEPT`] bytes.
        if let Some((n, _)) = self.period {
            let first = self.applied[self.applied.len() - n];
            let window = first.from.saturating_sub(context);
            keep_from = keep_from.min(window.max(self.emitted.saturating_sub(REPEAT_KEPT)));
        }
        // A busy stream keeps what [`Scrubber::skip_clean`] looks back over.
        if self.busy {
            let back = CLEAN_PERIOD + PROBE + context;
            keep_from = keep_from.min(self.emitted.saturating_sub(back));
        }
        let keep_from = keep_from.max(self.base);
        let drop = (keep_from - self.base) as usize;
        if drop > 0 && drop * 2 >= self.buf.len() {
            self.buf.drain(..drop);
            self.base = keep_from;
        }
    }
}

/// The run of `b`'s class that ends `held` then `text` (the buffer's bytes, then a
/// slice's before a hit), walked back as [`Scrubber::run_before`] walks: at most
/// `b.max + 1` bytes, and not past the buffer's start. With whether it is shorter or
/// longer than `b` allows, so that a keyword after it makes no candidate.
fn run_fails(b: &BeforeRun, held: &[u8], text: &[u8]) -> (bool, usize) {
    let limit = b.max + 1;
    let back = |t: &[u8], most: usize| {
        (t.iter().rev().take(most))
            .take_while(|&&c| b.class.contains(c))
            .count()
    };
    let mut run = back(text, limit);
    if run == text.len() {
        run += back(held, limit - run);
    }
    (run < b.min || run > b.max, run)
}

/// Feed a candidate of rule `rule` at the start of `text` (the bytes from its start on,
/// as many as the caller may read: a dense block's [`KILL_READS`]) as plain feeding
/// does (the steps of [`run`], with no trail or head to join) until it matches: then
/// it is no kill, and its candidate reads the bytes again (in a storm of `token` and
/// a random byte, one hit learned in seven matched, and was read on to its DFA's
/// death first). Where its DFA dies unmatched, `memo` keeps the path; where it lives
/// through them, the bytes (see [`Memo::lives_on`]). Returns whether it died
/// unmatched (the candidate is dropped: what [`Memo::kills`] answers from then on)
/// and the bytes fed.
fn learn(
    set: &RuleSet,
    rule: u32,
    (memo, mut loops): (&mut Memo, Option<&mut Loops>),
    text: &[u8],
) -> (bool, u64) {
    let r = &set.rules[rule as usize];
    let m = r.matcher().expect("keyword rules have a pattern");
    let (dfa, mut state, mut best) = (&m.dfa, m.start, None);
    // Alive at `max_len + 2` bytes, a candidate overflows (see [`run`]).
    let cap = (r.max_len + 2).min(text.len());
    let mut i = 0;
    while i < cap {
        let (b, before) = (text[i], state);
        state = dfa.next_state(state, b);
        if dfa.is_special_state(state) {
            if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                if i < MEMO {
                    memo.keep(&text[..=i], best);
                }
                return (best.is_none(), i as u64 + 1);
            }
            if dfa.is_match_state(state) {
                best = (!r.right_guard.is_some_and(|g| g.contains(b))).then_some(i as u64);
                // A hit that matches is not killed: its candidate reads it again.
                if best.is_some() {
                    return (false, i as u64 + 1);
                }
            }
        }
        i += 1;
        // A state that went back to itself (not a match: one that matched returned)
        // reads the bytes after it that do the same by its table, as [`run`] does
        // from `WARM` bytes on: a JWT's keyword and 4,000 bytes of its class had been
        // a step a byte. (Most hits learned die within their first bytes.)
        if state == before && i >= WARM as usize && i < cap && !dfa.is_match_state(state) {
            if let Some(table) = loops.as_deref_mut().and_then(|l| l.table(dfa, state)) {
                let k = table.run(&text[i..cap]);
                #[cfg(test)]
                if let Some(loops) = loops.as_deref_mut() {
                    loops.learned += k as u64;
                }
                i += k;
            }
        }
    }
    if cap == text.len() {
        memo.lives.clear();
        memo.lives.extend_from_slice(text);
    }
    (false, cap as u64)
}

/// Feed a live candidate the bytes of `buf` (whose first byte is at offset `base`)
/// from its `pos` up to `end`, until it is decided; at `eof`, decide it. `trail` is
/// its rule's (see [`Trail`]): followed from where the candidate joins it, extended
/// past its end, or replaced by this run's path when it never joins; `scratch` is
/// space for the path. `memo` is its rule's (see [`Memo`]; the callers consult it
/// first): a candidate whose DFA dies leaves its bytes in it. Returns the number of
/// bytes fed to the DFA.
#[allow(clippy::too_many_arguments)]
fn run(
    set: &RuleSet,
    buf: &[u8],
    base: u64,
    c: &mut Candidate,
    (trail, memo, head, mut loops): (&mut Trail, &mut Memo, &mut Head, Option<&mut Loops>),
    scratch: &mut Vec<StateID>,
    end: u64,
    eof: bool,
) -> u64 {
    let start = c.start;
    let at = |p: u64| (p - base) as usize;
    let rule = &set.rules[c.rule as usize];
    let dfa = &rule.matcher().expect("keyword rules have a pattern").dfa;
    let (mut state, mut pos, mut best) = (c.state, c.pos, c.best);
    let mut fate = Fate::Live;
    // A bounded pattern is dead by `max_len + 2` bytes (matches are reported one
    // byte late); a pattern still alive then is growing past its bound.
    let cap = start + rule.max_len as u64 + 2;
    // Only a trail made by an earlier start can be joined: every candidate that made
    // it reaches its cap before this one does.
    let joinable = trail.start < start;
    // A trail that starts at `u64::MAX` is never joined: nothing to record.
    let mut record = trail.start != u64::MAX;
    let trail_end = trail.from + trail.states.len() as u64;
    // The first bytes of a candidate are fed plainly (most are decided within them);
    // the trail is recorded and joined from `warm` on.
    let warm = start + WARM;
    let from = pos.max(warm);
    let (mut fed, mut died) = (0, false);
    // Whether the byte at `pos` killed the DFA, here or on the trail joined.
    let mut killed = false;
    let mut joined = false;
    // The period of the candidate's followers, if any, and whether states were copied
    // over bytes that repeat. `scratch` holds the states of the bytes just before
    // `pos`, one each (from `warm`, a join, or the last copy on).
    let d = c.follow.map_or(0, |f| f.d as usize);
    let mut skipped = false;
    // The last match end this run met: `(byte, best)`.
    let mut met: Option<(u64, Option<u64>)> = None;
    scratch.clear();
    // Read the byte at `pos` into `state`; true when it killed the DFA.
    let step = |state: &mut StateID, pos: u64, best: &mut Option<u64>, met: &mut Option<_>| {
        let b = buf[(pos - base) as usize];
        *state = dfa.next_state(*state, b);
        if dfa.is_special_state(*state) {
            if dfa.is_dead_state(*state) || dfa.is_quit_state(*state) {
                return true;
            }
            if dfa.is_match_state(*state) {
                // The guard judges the longest match only: no backing off to a
                // shorter one (`password=password)` is not `password=passwor`).
                *best = (!rule.right_guard.is_some_and(|g| g.contains(b))).then_some(pos);
                *met = Some((pos, *best));
            }
        }
        false
    };
    // Up to `warm`, bytes are fed plainly: nothing recorded, no trail looked at; or,
    // when they are the [`Head`]'s bytes, not fed at all.
    let plain = warm.min(end).min(cap);
    let whole = pos == start && plain == warm;
    if whole
        && head.start < start
        && head.start >= base
        && buf[at(head.start)..at(head.start + WARM)] == buf[at(start)..at(warm)]
    {
        (state, pos) = (head.state, warm);
        fed += 1;
    }
    while pos < plain {
        fed += 1;
        if step(&mut state, pos, &mut best, &mut met) {
            fate = Fate::Done(best);
            (died, killed) = (true, true);
            break;
        }
        pos += 1;
    }
    if whole && pos == warm && !died && met.is_none() {
        *head = Head { start, state };
    }
    if !died && pos >= cap {
        fate = Fate::Overflow;
        pos = start + rule.max_len as u64;
    }
    while fate == Fate::Live && pos < end {
        fed += 1;
        let before = state;
        if step(&mut state, pos, &mut best, &mut met) {
            fate = Fate::Done(best);
            (died, killed) = (true, true);
            break;
        }
        if record {
            scratch.push(state);
        }
        if !joined
            && joinable
            && (trail.from..trail_end).contains(&pos)
            && trail.states[(pos - trail.from) as usize] == state
        {
            // From here on this candidate reads what the trail read in the states it
            // passed: the same match ends, dead (or stopped) at the same byte.
            joined = true;
            scratch.clear();
            if let Some((at, b)) = trail.last_match.filter(|&(at, _)| at > pos) {
                best = b;
                met = Some((at, b));
            }
            pos = trail_end;
            if trail.dead {
                fate = Fate::Done(best);
                killed = true;
                break;
            }
            state = *trail.states.last().expect("the trail ends past this byte");
            continue;
        }
        pos += 1;
        if pos >= cap {
            fate = Fate::Overflow;
            pos = start + rule.max_len as u64;
            break;
        }
        // A state that went back to itself: the bytes after it that do the same are
        // read by its table (see [`Loops`]), up to the bytes a trail may be joined on
        // and short of the cap. Their states are recorded as stepping records them,
        // for the trail and a follower's period (below). A candidate with followers
        // reads by table only until it has a period of states: from there, a copy
        // (below) takes the period's repeats in one comparison, not a lookup a byte.
        if state == before {
            let mut stop = end.min(cap - 1);
            if joinable && !joined && trail_end > pos {
                stop = stop.min(trail.from.max(pos));
            }
            if d > 0 && record {
                stop = stop.min(pos + (d + 1).saturating_sub(scratch.len()) as u64);
            }
            let table = match loops.as_deref_mut() {
                Some(loops) if stop > pos => loops.table(dfa, state),
                _ => None,
            };
            if let Some(table) = table {
                let k = table.run(&buf[at(pos)..at(stop)]);
                if k > 0 {
                    // The state after each of these bytes is `state`; a match state
                    // sets `best` from the last one's (as `step` would).
                    let last = pos + k as u64 - 1;
                    if dfa.is_match_state(state) {
                        let b = buf[at(last)];
                        best = (!rule.right_guard.is_some_and(|g| g.contains(b))).then_some(last);
                        met = Some((last, best));
                    }
                    if record && d == 0 && k >= LONG_LOOP {
                        // Recorded a state a byte, a long run costs more than a later
                        // candidate's reading it again by the class: this run leaves
                        // the trail as it was (no follower's period needs its states).
                        (record, skipped) = (false, true);
                        scratch.clear();
                    } else if record {
                        table.repeat(scratch, state, k);
                    }
                    #[cfg(test)]
                    if let Some(loops) = loops.as_deref_mut() {
                        loops.read += k as u64;
                    }
                    fed += k as u64;
                    pos += k as u64;
                }
            }
        }
        // A candidate with followers (see [`Follow`]), in a state it was in `d` bytes
        // before with no match state since: while the text repeats with the period
        // `d`, so do its states (each is the one after the same byte from the same
        // state). They are copied, not stepped through.
        let n = scratch.len();
        if d > 0 && n > d && scratch[n - 1 - d] == state {
            let cycle = &scratch[n - d..];
            let limit = end.min(cap - 1);
            if limit > pos && cycle.iter().all(|&s| !dfa.is_match_state(s)) {
                let same = same_run(&buf[at(pos)..at(limit)], &buf[at(pos) - d..at(limit) - d]);
                if same > 0 {
                    // States after byte `pos + i` (`i < same`): those of `cycle`, in turn.
                    state = cycle[(same - 1) % d];
                    pos += same as u64;
                    fed += 1;
                    skipped = true;
                    scratch.clear();
                    scratch.push(state);
                }
            }
        }
    }
    if killed && start >= base && pos - start < MEMO as u64 {
        // Dead at the byte at `pos`: the bytes up to it decided this candidate.
        memo.keep(&buf[at(start)..=at(pos)], best.map(|b| b - start));
    }
    if fate == Fate::Live && eof {
        if dfa.is_match_state(dfa.next_eoi_state(state)) {
            best = Some(end);
        }
        fate = Fate::Done(best);
    }
    if skipped {
        // Its states were not all recorded: the trail stays as it was (it holds
        // another run's).
    } else if joined {
        // What this run read past the trail's end extends it; what lies before this
        // start is of no use to the later candidates that may join (dropped once it
        // is half the trail, so memory stays within twice the rule's cap).
        if !scratch.is_empty() || died {
            trail.states.append(scratch);
            trail.dead = died;
            trail.start = start;
            if met.is_some() {
                trail.last_match = met;
            }
            let useless = (start.saturating_sub(trail.from) as usize).min(trail.states.len());
            if useless > trail.states.len() / 2 {
                trail.states.drain(..useless);
                trail.from += useless as u64;
            }
        }
    } else if !scratch.is_empty() {
        let reach = if fate == Fate::Overflow { cap } else { pos };
        if trail.start == start && trail_end == from {
            // The same candidate going on (a new chunk arrived): its trail grows.
            trail.states.append(scratch);
            if met.is_some() {
                trail.last_match = met;
            }
            trail.dead = died;
        } else if trail.from <= from && trail_end >= reach && !trail.states.is_empty() {
            // The trail covers every byte this run read: it stays (a candidate that
            // never joined before the chunk ended must not cut it short).
        } else {
            std::mem::swap(&mut trail.states, scratch);
            trail.start = start;
            trail.from = from;
            trail.last_match = met;
            trail.dead = died;
        }
    }
    (c.state, c.pos, c.best, c.fate) = (state, pos, best, fate);
    fed
}

/// Sort `hits` by `(offset, pattern)`. The prefilter's engines each report in order, one
/// after another (the keywords block by block, then the two-byte keywords, then literal
/// forms), so `hits` is a few sorted runs: they are merged pairwise, a pass over the
/// hits per halving of the runs, through `space`. (A general sort, which finds the runs
/// too, cost ~80 instructions a hit in a storm that meets two engines: `GSK_GSK_…` is
/// `gsk_` and `SK` every four bytes.) Many runs, which no engine makes, are sorted.
fn sort_runs(hits: &mut Vec<Hit>, space: &mut Vec<Hit>) {
    const RUNS: usize = 8;
    let key = |&(p, at): &Hit| (at, p);
    // Run `k` is `hits[bounds[k]..bounds[k + 1]]`.
    let mut bounds = [0usize; RUNS + 1];
    let mut n = 1;
    for i in 1..hits.len() {
        if key(&hits[i]) < key(&hits[i - 1]) {
            if n == RUNS {
                hits.sort_unstable_by_key(key);
                return;
            }
            bounds[n] = i;
            n += 1;
        }
    }
    bounds[n] = hits.len();
    while n > 1 {
        space.clear();
        let mut merged = 0;
        for k in (0..n).step_by(2) {
            let (a, b) = (bounds[k], bounds[k + 1]);
            let c = if k + 1 < n { bounds[k + 2] } else { b };
            let (mut i, mut j) = (a, b);
            while i < b && j < c {
                if key(&hits[j]) < key(&hits[i]) {
                    space.push(hits[j]);
                    j += 1;
                } else {
                    space.push(hits[i]);
                    i += 1;
                }
            }
            space.extend_from_slice(&hits[i..b]);
            space.extend_from_slice(&hits[j..c]);
            merged += 1;
            bounds[merged] = c;
        }
        std::mem::swap(hits, space);
        n = merged;
    }
}

/// Scrub a whole text: one chunk and a flush.
pub fn scrub(set: &Arc<RuleSet>, text: &[u8]) -> Vec<u8> {
    scrub_cow(set, text).into_owned()
}

/// Scrub a whole text, borrowing it back when nothing in it changes (the common case
/// for clean text: no output buffer is built, so a caller can hand back its input).
/// The output is that of [`scrub`]; a slice that goes out unchanged is not copied (see
/// [`Scrubber::feed_through`]), others are compared with the input until the first
/// change, then copied from there on.
pub fn scrub_cow<'a>(set: &Arc<RuleSet>, text: &'a [u8]) -> Cow<'a, [u8]> {
    let mut s = Scrubber::new(Arc::clone(set));
    let mut piece = Vec::new();
    // Until `out` exists, the output so far is `text[..same]`.
    let mut same = 0usize;
    let mut out: Option<Vec<u8>> = None;
    let take = |piece: &[u8], same: &mut usize, out: &mut Option<Vec<u8>>| match out {
        Some(o) => o.extend_from_slice(piece),
        None if text[*same..].starts_with(piece) => *same += piece.len(),
        None => {
            let mut o = Vec::with_capacity(text.len() + 64);
            o.extend_from_slice(&text[..*same]);
            o.extend_from_slice(piece);
            *out = Some(o);
        }
    };
    for chunk in text.chunks(SLICE) {
        piece.clear();
        if out.is_some() {
            s.feed(chunk, &mut piece);
        } else if s.feed_through(chunk, &mut piece) {
            // Nothing held before it, nothing changed so far: `same` is where it starts.
            same += chunk.len();
            continue;
        }
        take(&piece, &mut same, &mut out);
    }
    piece.clear();
    s.flush(&mut piece);
    take(&piece, &mut same, &mut out);
    match out {
        Some(o) => Cow::Owned(o),
        None if same == text.len() => Cow::Borrowed(text),
        None => Cow::Owned(text[..same].to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scrub::prefilter::BLOCK;
    use crate::scrub::ruleset::RuleSpec;
    use proptest::prelude::*;

    fn scrubbed(text: &[u8], chunk: usize, plain: bool) -> Vec<u8> {
        scrubbed_by(RuleSet::builtin(), text, chunk, plain)
    }

    fn scrubbed_by(set: Arc<RuleSet>, text: &[u8], chunk: usize, plain: bool) -> Vec<u8> {
        scrubber_after(set, text, chunk, plain).1 .0
    }

    /// The scrubber that took `text` in `chunk`s, with its output and counts.
    fn scrubber_after(
        set: Arc<RuleSet>,
        text: &[u8],
        chunk: usize,
        plain: bool,
    ) -> (Scrubber, (Vec<u8>, Vec<u64>)) {
        let mut s = Scrubber::new(set);
        s.plain = plain;
        let mut out = Vec::new();
        for piece in text.chunks(chunk.max(1)) {
            s.feed(piece, &mut out);
        }
        s.flush(&mut out);
        let counts = s.counts.clone();
        (s, (out, counts))
    }

    /// Keywords and near-keywords of storms, values, breaks and whole credentials.
    const UNITS: [&str; 34] = [
        "sk-",
        "SK",
        "SK-",
        "authorization",
        "Authorization: Bearer ",
        "token",
        "GSK_",
        "gsk_",
        "--api-key ",
        "eyJ-",
        "eyJ",
        "ghp_",
        "a",
        "AKIA",
        "xoxb-",
        "-us",
        "api_key=",
        "abc12345",
        " ",
        "\n",
        "\"",
        "\\n",
        "_",
        "password=hunter2",
        "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",
        "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
        "SK0123456789abcdef0123456789abcdef",
        "AZDO",
        "Q~",
        "7Q~",
        "0123456789abcdef",
        "token = new_token_value1",
        "API_KEY=<your-api-key>",
        "password = \"<your-password>\"",
    ];

    /// Keywords of storms that do not repeat (see
    /// `storms_that_do_not_repeat_equal_plain_feeding`): of rules whose hits a storm
    /// drops in bulk, of rules with a run before the keyword, of longer keywords that
    /// start with another one, and found as written.
    const STORM_KEYWORDS: [&str; 12] = [
        "ghp_", "sk-", "eyJ", "AZDO", "token", "xoxb-", "glpat-", "AKIA", "sk-a", "GHP_", "eyJ0",
        "gsk_",
    ];

    /// The bytes after each keyword of such a storm: of the rules' classes, and breaks.
    const STORM_BYTES: &[u8] = b"aZ09_-.:= sSkKpPoOnNlL0rR/\\\"\n";

    /// Hits far apart (a candidate each, not a dense block's) whose run after the
    /// keyword outgrows their rule's bound make no candidate once [`CAP_AFTER`] of
    /// the rule's hits came that far: `token` and 100 alphanumerics, again and again,
    /// in 4 KiB writes (each `token` a hit of `secret-assignment`, dead at its next
    /// byte, and of `quoted-key-value`, whose run of up to 32 word bytes runs on).
    /// Besides the first of each rule, only a hit whose run a write's end cuts is a
    /// candidate (470 of the 1,250 hits were, without the cap).
    #[test]
    fn runs_past_their_cap_make_no_candidate() {
        let text = crate::scrub::prefilter::storm_between(b"token", 1 << 16, b"aZ09", 100);
        let (s, (out, _)) = scrubber_after(RuleSet::builtin(), &text, 4096, false);
        assert_eq!(out, text);
        let writes = text.len().div_ceil(4096) as u64;
        assert!(
            s.made <= 2 * u64::from(CAP_AFTER) + writes,
            "{} candidates",
            s.made
        );
    }

    /// The index of the rule `id` in `set`.
    fn rule_index(set: &RuleSet, id: &str) -> u32 {
        (set.rules.iter())
            .position(|r| r.info.id == id)
            .expect("the rule") as u32
    }

    /// Learning a hit stops at its first match: the hit is no kill, and the bytes
    /// after it are its candidate's to read. Nothing is kept of it.
    #[test]
    fn learning_stops_at_a_match() {
        let set = RuleSet::builtin();
        let rule = rule_index(&set, "secret-assignment");
        let mut memo = Memo::default();
        let text = b"token=abcd1234efgh5678ijkl9012 and then some more words after it";
        let (dies, fed) = learn(&set, rule, (&mut memo, None), text);
        assert!(!dies);
        // `abcd1` is the shortest value that matches (4 bytes, one not a letter), and
        // a DFA reports a match a byte late.
        assert_eq!(fed, "token=abcd12".len() as u64);
        assert_eq!(memo.recall(text), None);
        assert!(!memo.lives_on(&text[..8]));
    }

    /// Learning a hit reads a run its DFA's state loops on by the state's table, and
    /// learns what stepping through every byte does: a JWT's keyword and 4,000 bytes
    /// of its class, then a byte that ends it, dies at that byte, all but the first
    /// bytes read by the table.
    #[test]
    fn learning_reads_a_loop_by_its_table() {
        let set = RuleSet::builtin();
        let rule = rule_index(&set, "jwt");
        let text = [&b"eyJ"[..], &[b'a'; 4000], b"! and more"].concat();
        let (mut plain, mut tabled, mut loops) =
            (Memo::default(), Memo::default(), Loops::default());
        let want = learn(&set, rule, (&mut plain, None), &text);
        assert_eq!(want, (true, 4004));
        assert_eq!(
            learn(&set, rule, (&mut tabled, Some(&mut loops)), &text),
            want
        );
        assert!(
            loops.learned >= 3980,
            "{} bytes by the table",
            loops.learned
        );
    }

    /// A candidate on a path the memo knows is left unfed while its bytes arrive, and
    /// decided when the last of the path's does; once the path it was on is replaced,
    /// its bytes are compared with the paths anew.
    #[test]
    fn candidates_on_a_path_wait_for_its_end() {
        let mut memo = Memo::default();
        memo.keep(b"abcdefghij", Some(4));
        let mut c = Candidate {
            rule: 0,
            start: 100,
            pos: 100,
            state: StateID::ZERO,
            best: None,
            fate: Fate::Live,
            follow: None,
        };
        let buf = b"abcdefghijkl";
        let begins =
            |memo: &mut Memo, c: &mut Candidate, known: u64| memo.begins(c, buf, 100, known);
        assert_eq!(begins(&mut memo, &mut c, 103), OnPath::On(3));
        // Only the bytes since are compared.
        assert_eq!(begins(&mut memo, &mut c, 107), OnPath::On(4));
        assert_eq!((c.pos, c.fate), (100, Fate::Live));
        // The path's last byte: decided as `decide` would (dead at its last byte, the
        // match it met kept).
        assert_eq!(begins(&mut memo, &mut c, 112), OnPath::On(3));
        assert_eq!((c.pos, c.fate), (109, Fate::Done(Some(104))));
        // Bytes off the path: not on it, and no path as short as they are.
        let mut d = Candidate {
            pos: 100,
            fate: Fate::Live,
            ..c.clone()
        };
        assert_eq!(
            memo.begins(&mut d, b"abcX", 100, 104),
            OnPath::Off { whole: false }
        );
        // The path replaced (four more kept) by one that has the same bytes where the
        // candidate's next ones are: the candidate is on no path.
        let mut e = Candidate {
            pos: 100,
            fate: Fate::Live,
            ..c
        };
        assert_eq!(begins(&mut memo, &mut e, 105), OnPath::On(5));
        for path in [&b"q1"[..], b"q2", b"q3", b"qqqqqfgh"] {
            memo.keep(path, None);
        }
        assert_eq!(begins(&mut memo, &mut e, 107), OnPath::Off { whole: false });
        // A whole path the bytes begin with: `decide`'s to answer.
        memo.keep(b"abc", None);
        assert_eq!(begins(&mut memo, &mut e, 107), OnPath::Off { whole: true });
    }

    /// In a storm whose hits the memo cannot know (a keyword and a random byte), a
    /// dense block keeps learning while what it learns kills hits within a few bytes:
    /// they never become candidates. The first [`LEARN`] alone, the rest of each pass's
    /// hits were each made, queued and fed (`eyJ` 44 against 88 MB/s).
    #[test]
    fn storms_learned_dead_cheaply_are_learned_through() {
        // 16,384 hits of `eyJ`, a JWT's first bytes, each dead by the first break.
        let s = varied_storm_fed(b"eyJ", 16_384);
        assert!(s.made * 8 < 16_384, "{} of 16,384 hits made", s.made);
    }

    /// The built-in scrubber after `hits` copies of `unit` and a random byte in 64 KiB
    /// chunks, whose output was plain feeding's.
    fn varied_storm_fed(unit: &[u8], hits: usize) -> Scrubber {
        let text = crate::scrub::prefilter::varied_storm(unit, hits * (unit.len() + 1));
        let (s, (out, _)) = scrubber_after(RuleSet::builtin(), &text, 65536, false);
        assert_eq!(out, scrubbed(&text, text.len(), true));
        s
    }

    /// Storms of a keyword whose hits cannot match are dropped in bulk where the CPU
    /// has the sieve's byte tables, or AVX2 (without the sieve, once the first read
    /// of Teddy's four blocks and the first dense part, which finds the storm, are
    /// past: ~4,000 hits), and give what plain feeding gives.
    #[test]
    fn storms_that_do_not_repeat_are_dropped_in_bulk() {
        let s = varied_storm_fed(b"ghp_", 24_000);
        if s.set.prefilter.storms_in_bulk() {
            assert_read_in_bulk(&s, 24_000);
        }
    }

    /// A walked part whose hits are dropped one by one but whose storm part drops
    /// none in bulk (`sb_secret_` and an alphanumeric byte: one overflow, each copy's
    /// `secret` hits dropped by their run caps) tries a storm part again only after
    /// 1, 2, 4 … 16 walked parts: 1 MiB in 64 KiB slices, four tries (eight without
    /// the backoff, each a scan of its part for nothing).
    #[test]
    fn storm_parts_that_drop_nothing_back_off() {
        let text = crate::scrub::prefilter::storm_between(b"sb_secret_", 1 << 20, b"aZ09", 0);
        let (s, (out, _)) = scrubber_after(RuleSet::builtin(), &text, 1 << 16, false);
        assert_eq!(out, b"[REDACTED:supabase-token]");
        if s.set.prefilter.sieved() {
            let tries = s.prefilter_space.storm.tried.asked;
            assert!((1..=5).contains(&tries), "{tries} storm parts tried");
        }
    }

    /// A storm of a keyword and an alphanumeric byte (`token`, `password`, `secret`),
    /// whose rules' runs after it no byte ends but their run caps, is dropped in bulk
    /// by its storm parts' caps, the keyword's signature at its start or not (`oken`,
    /// `word`), and a longer keyword that ends with `token` by its own storm, which
    /// reads `token`'s rules too (each copy is as many hits of it as of `token`),
    /// and one that holds a shorter keyword ending before it (`sk-` in `sk-lf-`,
    /// `azdo` in `azdo_pat`) by its own storm, which reads that keyword's rules past
    /// the rest of it: more than three quarters of its places, 1 MiB in 64 KiB
    /// slices, and the output plain feeding gives (~0.05 → ~0.2-0.5x clean text).
    #[test]
    fn word_storms_are_dropped_in_bulk() {
        let set = RuleSet::builtin();
        if !set.prefilter.sieved() {
            return;
        }
        for word in [
            &b"token"[..],
            b"password",
            b"secret",
            b"ado_token",
            b"X-Auth-Token",
            b"sk_live_",
            b"sk-lf-",
            b"azdo_pat",
        ] {
            let text = crate::scrub::prefilter::storm_between(word, 1 << 20, b"aZ09", 0);
            let (s, (out, _)) = scrubber_after(set.clone(), &text, 1 << 16, false);
            let (_, (plain, _)) = scrubber_after(set.clone(), &text, 1 << 16, true);
            assert!(out == plain, "{}", String::from_utf8_lossy(word));
            assert_read_in_bulk(&s, text.len() / (word.len() + 1));
        }
    }

    /// A storm part whose drop leaves more hits than it drops is over (`token` and a
    /// random byte of `aZ09_-.:= `: six hits in ten left, each a lookup of the 19
    /// keywords that hold `oken`): 1 MiB in 64 KiB slices tries one part in 16 or
    /// so once the backoff is at its most (17 tries; 255, every part, were such a
    /// part not over).
    #[test]
    fn storm_parts_that_leave_most_hits_are_over() {
        let text = crate::scrub::prefilter::storm_between(b"token", 1 << 20, b"aZ09_-.:= ", 0);
        let (s, _) = scrubber_after(RuleSet::builtin(), &text, 1 << 16, false);
        if s.set.prefilter.sieved() {
            let tries = s.prefilter_space.storm.tried.asked;
            assert!(tries <= 32, "{tries} storm parts tried");
        }
    }

    /// A storm at a stream's start is read in bulk from its first block: where the
    /// probe holds a hit every 128 bytes, one keyword's (copies of `sk-` 40 and 80
    /// bytes apart), the rest of its block is a storm part (the probe's own copies
    /// are hits); where the probe is dense (word storms, copies two bytes apart), its
    /// hits name the storm, keywords of several rules spelled alike as one, and the
    /// block is a storm part from its start, none walked first. Before, the first 4
    /// KiB sent every copy of `sk-` 40 apart to the scrubber, and walked the first 512
    /// bytes of the others (each first block cost 2-4 times a later one).
    #[test]
    fn storms_at_a_streams_start_are_read_in_bulk() {
        use crate::scrub::prefilter::{storm_between, PROBE};
        let varied = &b"aZ09_-.:= "[..];
        let storms = [
            (&b"sk-"[..], varied, 40),
            (b"sk-", varied, 80),
            (b"sk-", varied, 2),
            (b"AZDO", varied, 2),
            (b"secret", b"aZ09", 0),
            (b"token", b"aZ09", 0),
        ];
        for (unit, between, gaps) in storms {
            let text = &storm_between(unit, 4096, between, gaps)[..4096];
            let (s, (out, _)) = scrubber_after(RuleSet::builtin(), text, 4096, false);
            assert_eq!(out, scrubbed(text, text.len(), true));
            if !s.set.prefilter.sieved() {
                continue;
            }
            let count = |text: &[u8]| {
                (text.windows(unit.len()))
                    .filter(|w| w.eq_ignore_ascii_case(unit))
                    .count()
            };
            // The probe's copies, where it is not dense, are hits one by one.
            let (copies, probed) = (count(text), count(&text[..PROBE]));
            let (bulk, taken) = (s.prefilter_space.storm.dropped, s.hits_taken as usize);
            let name = String::from_utf8_lossy(unit);
            assert!(
                bulk + probed + copies / 10 + 1 >= copies,
                "{name} {gaps}: {bulk} of {copies} in bulk"
            );
            assert!(
                taken * 8 <= copies + 8 * probed,
                "{name} {gaps}: {taken} of {copies} taken"
            );
        }
    }

    /// A hit whose keyword's gate is built (the rule set's, by this stream's dense
    /// blocks or another stream's) is asked its run cap at once: word storms of
    /// `secret`, `token` and `password` in 4 KiB slices, 32 KiB of them, make a dozen
    /// candidates, not the ~35 of waiting for `CAP_AFTER` of them (each read some 40
    /// bytes to die).
    #[test]
    fn run_caps_of_built_gates_are_asked_at_once() {
        use crate::scrub::prefilter::storm_between;
        for unit in [&b"secret"[..], b"token", b"password"] {
            let set = Arc::new(RuleSet::new(&[], &[], super::super::DEFAULT_REPLACEMENT).unwrap());
            let text = storm_between(unit, 32 * 1024, b"aZ09", 0);
            for _ in 0..2 {
                let (s, (out, _)) = scrubber_after(Arc::clone(&set), &text, 4096, false);
                assert_eq!(out, scrubbed(&text, text.len(), true));
                let name = String::from_utf8_lossy(unit);
                assert!(s.made <= 16, "{name}: {} candidates made", s.made);
            }
        }
    }

    /// More than three quarters of the `n` hits or places of the storm `s` read are
    /// dropped in bulk, or (without the sieve) told to be in the other case in bulk.
    fn assert_read_in_bulk(s: &Scrubber, n: usize) {
        let bulk = s.prefilter_space.storm.dropped;
        assert!(bulk * 4 > n * 3, "{bulk} of {n} read in bulk");
    }

    /// Whether storms are read by Teddy's passes and the AVX2 drop: a CPU with AVX2
    /// and no sieve.
    fn storms_through_teddy(set: &RuleSet) -> bool {
        !set.prefilter.sieved() && set.prefilter.storms_in_bulk()
    }

    /// Without the sieve, a storm of a keyword found as written, in the other case
    /// (`GHP_` for GitHub's `ghp_`), is read as a storm of it: Teddy stops at each of
    /// its hits, which no gate drops (they are no hits); its places are told apart
    /// as written in bulk, and none is (~220 against ~900 MB/s).
    #[test]
    fn storms_in_the_other_case_are_dropped_in_bulk_without_the_sieve() {
        if !storms_through_teddy(&RuleSet::builtin()) {
            return;
        }
        assert_read_in_bulk(&varied_storm_fed(b"GHP_", 24_000), 24_000);
    }

    /// Without the sieve, runs of `a` (Twitter's keyword is 21 `A`s, a hit at every
    /// byte of the lowercased copy Teddy reads, no hit as written) are read as a
    /// storm of that keyword, whose places as written are none: they are neither
    /// walked nor compared (~160 MB/s walked, ~780 now), and plain feeding gives the
    /// same output.
    #[test]
    fn runs_in_the_other_case_are_read_as_a_storm_without_the_sieve() {
        let set = RuleSet::builtin();
        if !storms_through_teddy(&set) {
            return;
        }
        let mut x = 0x510E_527F_ADE6_82D1u64;
        let mut text = Vec::new();
        while text.len() < 200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text.extend(std::iter::repeat_n(b'a', 150 + (x % 101) as usize));
            text.push(b"bcdefgh0123456789 "[(x >> 8) as usize % 18]);
        }
        let (s, (out, _)) = scrubber_after(set, &text, 65536, false);
        assert_eq!(out, scrubbed(&text, text.len(), true));
        assert_read_in_bulk(&s, text.len());
    }

    /// The units `unit` (indices into [`UNITS`]) repeated to `len(one's length)`
    /// bytes, with `UNITS[p]` inserted at each of `edits` (`(at, p)`, `at` wrapped).
    fn storm(unit: &[usize], len: impl Fn(usize) -> usize, edits: &[(usize, usize)]) -> Vec<u8> {
        let one: Vec<u8> = unit.iter().flat_map(|&i| UNITS[i].bytes()).collect();
        repeated(&one, len(one.len()), edits)
    }

    /// `one` repeated to `len` bytes, with `UNITS[p]` inserted at each of `edits`.
    fn repeated(one: &[u8], len: usize, edits: &[(usize, usize)]) -> Vec<u8> {
        let mut text: Vec<u8> = one.iter().copied().cycle().take(len).collect();
        for &(at, p) in edits {
            let at = at % (text.len() + 1);
            text.splice(at..at, UNITS[p].bytes());
        }
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Storms (a unit repeated) with edits: the shortcuts that drop hits before a
        /// candidate exists and decide candidates without feeding them give exactly
        /// what feeding every candidate its bytes gives, whole and in chunks.
        #[test]
        fn storms_with_edits_equal_plain_feeding(
            unit in proptest::collection::vec(0..UNITS.len(), 1..4),
            times in 1usize..300,
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..6),
            chunk in 1usize..300,
        ) {
            let text = storm(&unit, |one| one * times, &edits);
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, true), &plain);
        }

        /// Storms that do not repeat: a keyword, then one byte of an alphabet of
        /// class bytes and breaks, again and again, with credentials and near misses
        /// among them. Dense blocks read them by the sieve, dropping in bulk the hits
        /// that cannot match (see `prefilter::Dense::storm`): the output is exactly
        /// what feeding every candidate its bytes gives, whole and in chunks.
        #[test]
        fn storms_that_do_not_repeat_equal_plain_feeding(
            keyword in 0..STORM_KEYWORDS.len(),
            follows in proptest::collection::vec(0..STORM_BYTES.len(), 800..2400),
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..8),
            chunk in 1usize..9000,
        ) {
            let unit = STORM_KEYWORDS[keyword].as_bytes();
            let one: Vec<u8> = follows
                .iter()
                .flat_map(|&b| unit.iter().copied().chain([STORM_BYTES[b]]))
                .collect();
            let text = repeated(&one, one.len(), &edits);
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
        }

        /// Keywords whose rules read a bounded run of word bytes after them (`token`,
        /// `secret`, `password`, `api_key`: `quoted-key-value` reads up to 32, then a
        /// quote), one to three of them in turn, each followed by a run of 0 to 90
        /// word bytes and now and then a quote, a space, `=`, `:` or the rest of a
        /// match (all runs alike
        /// or not: hits a constant distance apart follow one another, one keyword's
        /// after another's): the hits a run cap drops, in dense blocks or as they
        /// would become candidates, leave exactly what feeding every candidate its
        /// bytes gives, whole and in chunks.
        #[test]
        fn runs_after_keywords_equal_plain_feeding(
            keywords in proptest::collection::vec(0usize..4, 1..4),
            runs in proptest::collection::vec((0usize..90, 0usize..12), 40..600),
            alike: bool,
            seed: u64,
            chunk in 1usize..9000,
        ) {
            const WORDS: [&str; 4] = ["token", "secret", "password", "api_key"];
            let mut x = seed | 1;
            let mut text = Vec::new();
            for (i, &(len, end)) in runs.iter().enumerate() {
                text.extend_from_slice(WORDS[keywords[i % keywords.len()]].as_bytes());
                let len = if alike { runs[0].0 } else { len };
                for _ in 0..len {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    text.push(b"aZ09_-.q"[(x % 8) as usize]);
                }
                // A quote, a space, an assignment; or what makes a match.
                let ends = ["\"", "'", " ", "=", ":", "\", \"v4lue!\"", "' , 'x9y8'", "=S3cr3t9"];
                if let Some(end) = ends.get(end) {
                    text.extend_from_slice(end.as_bytes());
                }
            }
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
        }

        /// Storms whose copies lie far apart: a keyword, then 20 to 300 bytes of the
        /// same alphabet, again and again, with credentials and near misses among
        /// them. Without the sieve, a block through Teddy that holds a hit every 160
        /// bytes, most of them one keyword's, starts a storm part (see
        /// `prefilter::Prefilter::spread_storm`): the output is exactly what feeding
        /// every candidate its bytes gives, whole and in chunks.
        #[test]
        fn spread_storms_equal_plain_feeding(
            keyword in 0..STORM_KEYWORDS.len(),
            between in 20usize..300,
            follows in proptest::collection::vec(0..STORM_BYTES.len(), 3000..9000),
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..8),
            chunk in 64usize..20_000,
        ) {
            let unit = STORM_KEYWORDS[keyword].as_bytes();
            let mut one = Vec::new();
            for (i, &b) in follows.iter().enumerate() {
                if i % between == 0 {
                    one.extend_from_slice(unit);
                }
                one.push(STORM_BYTES[b]);
            }
            let text = repeated(&one, 40_000, &edits);
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
        }

        /// Slices read where they lie when nothing is held ([`Scrubber::feed_idle`])
        /// give, call by call, the output and the hold-back of slices buffered first:
        /// clean text, credentials, storms and keyword halves at chunk ends, in chunks
        /// around [`IDLE_MIN`] and the context.
        #[test]
        fn idle_slices_equal_buffered_ones_call_by_call(
            unit in proptest::collection::vec(0..UNITS.len(), 1..4),
            filler in 0usize..600,
            times in 1usize..40,
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..6),
            chunks in proptest::collection::vec(1usize..12_000, 1..8),
        ) {
            let prose = b"The build passed; next, the docs (see README.md) and 42 tests.\n";
            let text = storm(&unit, |one| one * times, &edits);
            let text: Vec<u8> = prose.iter().copied().cycle().take(filler * 16)
                .chain(text.iter().copied())
                .chain(prose.iter().copied().cycle().take(filler * 8))
                .collect();
            fed_idle_as_buffered(&text, &chunks)?;
        }
    }

    /// Every keyword of the built-in rules, as their rules spell them.
    fn builtin_keywords() -> Vec<&'static str> {
        let mut all: Vec<&str> = (crate::scrub::rules::FAMILIES.iter())
            .flat_map(|f| f.rules.iter().flat_map(|r| r.keywords.iter().copied()))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The cases of a soak: `SCRUBLINE_SOAK_CASES` where set (a long run, see
    /// reliability.md), else `cases`.
    fn soak_cases(cases: u32) -> u32 {
        std::env::var("SCRUBLINE_SOAK_CASES").map_or(cases, |v| v.parse().expect("a count"))
    }

    /// A part of [`mixed_streams_equal_plain_feeding`]'s text: what it is (`kind`),
    /// which keyword or unit (`which`), how many copies or bytes (`n`), the bytes
    /// between copies (`between`), the alphabet (`alphabet`) and the keyword's case.
    type Part = (u8, prop::sample::Index, usize, usize, u8, u8);

    /// `part` (see [`Part`]) appended to `text`, its bytes drawn from `x`.
    fn push_part(text: &mut Vec<u8>, keywords: &[&str], part: &Part, x: &mut u64) {
        const ALPHABETS: [&[u8]; 4] = [
            b"aZ09_-.:= ",
            b"aZ09",
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
            STORM_BYTES,
        ];
        let mut next = |n: usize| {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % n as u64) as usize
        };
        let &(kind, which, n, between, alphabet, case) = part;
        let alphabet = ALPHABETS[alphabet as usize % ALPHABETS.len()];
        let spelled = |k: &str| -> Vec<u8> {
            match case % 3 {
                0 => k.as_bytes().to_vec(),
                1 => k.to_ascii_uppercase().into_bytes(),
                _ => k.to_ascii_lowercase().into_bytes(),
            }
        };
        match kind % 4 {
            // Prose.
            0 => text.extend(prose_lines(n / 40 + 1)),
            // A storm that does not repeat: a keyword, then `between` bytes of the
            // alphabet, `n` times.
            1 => {
                let word = spelled(keywords[which.index(keywords.len())]);
                for _ in 0..n {
                    text.extend_from_slice(&word);
                    for _ in 0..between {
                        text.push(alphabet[next(alphabet.len())]);
                    }
                }
            }
            // A credential, a near miss or a break.
            2 => text.extend_from_slice(UNITS[which.index(UNITS.len())].as_bytes()),
            // Bytes of the alphabet with a keyword among them every 16 to 31 bytes.
            _ => {
                for _ in 0..n {
                    let word = spelled(keywords[next(keywords.len())]);
                    text.extend_from_slice(&word);
                    for _ in 0..16 + next(16) {
                        text.push(alphabet[next(alphabet.len())]);
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(soak_cases(32)))]

        /// Streams of parts of every kind the shortcuts read apart: prose, storms of
        /// any built-in keyword in any case that do not repeat (copies 1 to 160 bytes
        /// apart, bytes of four alphabets between them, a storm at the stream's
        /// start or after others), credentials and near misses, and keywords every 16
        /// to 31 bytes. Fed whole and in chunks of sizes that change call by call
        /// (one byte to past a 64 KiB slice), through `feed`, `feed_lazy` and
        /// `feed_through` in turn, and moved to a scrubber restored from its snapshot
        /// every fourth call, the output is exactly what feeding every candidate its
        /// bytes gives. A soak runs it with
        /// `SCRUBLINE_SOAK_CASES` cases.
        #[test]
        fn mixed_streams_equal_plain_feeding(
            parts in proptest::collection::vec(
                (
                    0u8..4,
                    any::<prop::sample::Index>(),
                    1usize..1500,
                    prop_oneof![0usize..4, 4usize..40, 40usize..161],
                    0u8..4,
                    0u8..3,
                ),
                1..7,
            ),
            seed: u64,
            chunks in proptest::collection::vec(
                prop_oneof![1usize..64, 64usize..5000, 5000usize..70_000],
                1..6,
            ),
        ) {
            let keywords = builtin_keywords();
            let mut x = seed | 1;
            let mut text = Vec::new();
            for part in &parts {
                push_part(&mut text, &keywords, part, &mut x);
            }
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            let mut s = Scrubber::new(RuleSet::builtin());
            let mut out = Vec::new();
            let mut at = 0;
            // Each call by one of the three faces in turn, as the binding calls them.
            for (i, &chunk) in chunks.iter().cycle().enumerate() {
                if at >= text.len() {
                    break;
                }
                let piece = &text[at..(at + chunk).min(text.len())];
                match i % 3 {
                    0 => s.feed(piece, &mut out),
                    1 => {
                        let n = s.feed_lazy(piece, &mut out);
                        out.extend_from_slice(&piece[..n]);
                    }
                    _ => {
                        if s.feed_through(piece, &mut out) {
                            out.extend_from_slice(piece);
                        }
                    }
                }
                at += piece.len();
                // Moved to another scrubber now and then (`snapshot`, `restore`).
                if i % 4 == 3 {
                    s = Scrubber::restore(&s.snapshot(), RuleSet::builtin()).expect("restored");
                }
            }
            s.flush(&mut out);
            prop_assert_eq!(&out, &plain);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Slices whose hits all die are read where they lie ([`Scrubber::die_in_place`])
        /// and give, call by call, the output and the hold-back of slices buffered
        /// first: prose with keywords whose candidates die (`token_count = 3`, `secret.`)
        /// or live (assignments and tokens, whole or cut by a chunk's end), anywhere in
        /// slices of 1 to 20 KB.
        #[test]
        fn slices_whose_hits_die_equal_buffered_ones_call_by_call(
            words in proptest::collection::vec((0usize..DYING.len() + LIVING.len(), 0usize..3000), 1..40),
            chunks in proptest::collection::vec(1usize..20_000, 1..6),
        ) {
            let mut text = prose_lines(1200);
            for &(w, at) in &words {
                let word = DYING.iter().chain(LIVING.iter()).nth(w).expect("a word");
                let at = (at * 21) % text.len();
                text.splice(at..at, word.bytes());
            }
            fed_idle_as_buffered(&text, &chunks)?;
        }
    }

    /// Feeds `text` in `chunks` (cycled, 64 calls at most, then the rest) to a
    /// scrubber that reads idle slices where they lie and to one that buffers every
    /// slice first, and through `feed_through` and `feed_lazy`: the same output and
    /// hold-back call by call, and the same at the end.
    fn fed_idle_as_buffered(text: &[u8], chunks: &[usize]) -> Result<(), TestCaseError> {
        fed_idle_as_buffered_by(&RuleSet::builtin(), text, chunks)
    }

    /// [`fed_idle_as_buffered`] with the rules of `set`.
    fn fed_idle_as_buffered_by(
        set: &Arc<RuleSet>,
        text: &[u8],
        chunks: &[usize],
    ) -> Result<(), TestCaseError> {
        let (mut idle, mut buffered, mut through, mut lazy) = (
            Scrubber::new(set.clone()),
            Scrubber::new(set.clone()),
            Scrubber::new(set.clone()),
            Scrubber::new(set.clone()),
        );
        buffered.buffered = true;
        let mut at = 0;
        for &n in chunks.iter().cycle().take(64) {
            if at >= text.len() {
                break;
            }
            let piece = &text[at..(at + n).min(text.len())];
            at += piece.len();
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), b"before".to_vec());
            idle.feed(piece, &mut a);
            buffered.feed(piece, &mut b);
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(idle.held(), buffered.held());
            // Through: nothing written when the output is the piece itself.
            let same = buffered.held() == 0 && b == piece;
            if through.feed_through(piece, &mut c) {
                prop_assert!(same);
                prop_assert_eq!(&c, b"before");
            } else {
                prop_assert_eq!(&c[6..], &b[..]);
            }
            prop_assert_eq!(through.held(), buffered.held());
            // Lazy: what is written, then the piece's first `n` bytes.
            let mut d = b"before".to_vec();
            let n = lazy.feed_lazy(piece, &mut d);
            d.extend_from_slice(&piece[..n]);
            prop_assert_eq!(&d[6..], &b[..]);
            prop_assert_eq!(lazy.held(), buffered.held());
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        idle.feed(&text[at..], &mut a);
        buffered.feed(&text[at..], &mut b);
        idle.flush(&mut a);
        buffered.flush(&mut b);
        prop_assert_eq!(a, b);
        prop_assert_eq!(idle.redactions(), buffered.redactions());
        Ok(())
    }

    /// `n` lines of prose that do not repeat (numbered): text no period is read in.
    fn prose_lines(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| {
                format!(
                    "step {i}: the build passed in {} ms, see README.md\n",
                    i * 37 % 1000
                )
                .into_bytes()
            })
            .collect()
    }

    /// Words whose candidates die a few bytes on, and credentials (see
    /// `slices_whose_hits_die_equal_buffered_ones_call_by_call`).
    const DYING: [&str; 8] = [
        " token_count = 3; ",
        " password: see below ",
        " the secret. ",
        " api_key() ",
        " passwd was ",
        " Bearer tokens ",
        // Runs before `AZDO` too short and too long for its 76.
        " 3f9AZDOa1Kq ",
        " k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7k7AZDOq2W4 ",
    ];
    const LIVING: [&str; 5] = [
        " token=a8c78fb9b8d1e2f3a4b5 ",
        " ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 ",
        " password: hunter2hunter2 ",
        " AKIAIOSFODNN7EXAMPLE ",
        // A run before its keyword: the candidate starts 76 bytes before `AZDO`.
        " q7Rm2Kp9Xw4Lz8Nc3Vb6Ht1Jg5Df0Sa7Qe2Wr4Ty9Ui3Op8As1Dk6Fh2Gj5Lm0Zx7Cv4Bn9Mq3WeAZDOx7Kq ",
    ];

    /// Prose that does not repeat with a keyword whose candidate dies every ~1 KB:
    /// each 16 KiB slice is read where it lies, nothing copied into the buffer, and
    /// all goes out unchanged; with a credential in one slice, that slice is buffered
    /// and the credential redacted.
    #[test]
    fn slices_whose_hits_die_are_read_in_place() {
        let mut text = Vec::new();
        for (i, line) in prose_lines(1500)
            .split_inclusive(|&b| b == b'\n')
            .enumerate()
        {
            text.extend_from_slice(line);
            if i % 20 == 7 {
                text.extend_from_slice(DYING[i / 20 % DYING.len()].as_bytes());
            }
        }
        let read = |text: &[u8]| {
            let mut s = Scrubber::new(RuleSet::builtin());
            let mut out = Vec::new();
            for piece in text.chunks(16 * 1024) {
                s.feed(piece, &mut out);
            }
            s.flush(&mut out);
            (out, s.in_place, s.redactions())
        };
        let slices = text.len().div_ceil(16 * 1024) as u64;
        let (out, in_place, redactions) = read(&text);
        assert_eq!((out == text, redactions), (true, 0));
        assert_eq!(in_place, slices);
        let token = LIVING[1].as_bytes();
        let mut with = text.clone();
        with.splice(40_000..40_000, token.iter().copied());
        let (out, with_token, redactions) = read(&with);
        assert_eq!(redactions, 1);
        assert!(!out.windows(token.len()).any(|w| w == token));
        assert_eq!(with_token, with.len().div_ceil(16 * 1024) as u64 - 1);
    }

    /// Keywords cut by a slice's edge at every byte (a token whose rule needs a run
    /// before its keyword, `AZDO`, and runs too short and too long for it; an
    /// assignment, and a keyword whose candidate dies), each with prose around it,
    /// after credentials of those rules (their rules compiled): read as buffered
    /// slices are.
    #[test]
    fn keywords_cut_anywhere_by_a_slice_edge_equal_buffered_ones() {
        let prose = prose_lines(400);
        let first = [LIVING[0].as_bytes(), LIVING[4].as_bytes(), &prose[..8000]].concat();
        // Every rule compiled: `token` is a keyword of two rules, and a hit of a rule
        // not compiled is asked its gate only well inside a slice.
        let set = Arc::new(RuleSet::new(&[], &[], super::super::DEFAULT_REPLACEMENT).unwrap());
        set.compile_all().unwrap();
        for word in [LIVING[4], DYING[6], DYING[7], LIVING[0], DYING[0]] {
            let text = [&first, word.as_bytes(), &prose[8000..16_000]].concat();
            for cut in 0..=word.len() {
                let chunks = [first.len() + cut, 4096 + 64, 20_000];
                fed_idle_as_buffered_by(&RuleSet::builtin(), &text, &chunks).unwrap();
                fed_idle_as_buffered_by(&set, &text, &chunks).unwrap();
            }
        }
    }

    /// A storm of a keyword whose rule needs a run before it (`AZDO`, 76 alphanumerics),
    /// with a byte between copies that ends the run or not: every slice is read where it
    /// lies, a copy cut by a slice's edge (its first bytes held) included, and all goes
    /// out unchanged.
    #[test]
    fn storms_of_a_keyword_after_a_run_are_read_in_place() {
        // Twelve slices of 16 KiB less 2: most end within a copy of `AZDO`.
        let size = 16 * 1024 - 2;
        let text: Vec<u8> = (0..)
            .flat_map(|i: usize| [b'A', b'Z', b'D', b'O', b"aZ09_-.:= "[i * 7 % 11 % 10]])
            .take(12 * size)
            .collect();
        let mut s = Scrubber::new(RuleSet::builtin());
        let mut out = Vec::new();
        for piece in text.chunks(size) {
            s.feed(piece, &mut out);
        }
        s.flush(&mut out);
        assert_eq!((out == text, s.redactions()), (true, 0));
        // The first too: its probe is read again as a dense block, its hits asked
        // their gates (sent on to the scrubber as they were, they had it buffered).
        assert_eq!(s.in_place, 12);
    }

    /// A storm of a keyword whose rule reads no run before it (`sk-`, two random bytes
    /// between copies), every slice's edge cutting a copy after `sk` (its first bytes
    /// held): each slice is read where it lies too, the held copy's candidate read on
    /// the held bytes and the slice's first bytes, where it dies (before, the held
    /// copy had every slice buffered); all goes out unchanged. (Its rules compiled:
    /// the hit of a rule not compiled yet is asked its gate only well inside a slice.)
    #[test]
    fn storms_cut_by_a_slice_edge_are_read_in_place() {
        // Twelve slices of 16,380 bytes, five bytes a copy after three: each ends
        // with `sk`.
        let size = 16_380;
        let alphabet = b"aZ09_-.:= ";
        let copies = (0..).flat_map(|i: usize| {
            let [a, b] = [alphabet[i * 7 % 11 % 10], alphabet[i * 3 % 13 % 10]];
            [b's', b'k', b'-', a, b]
        });
        let text: Vec<u8> = b"ab "
            .iter()
            .copied()
            .chain(copies)
            .take(12 * size)
            .collect();
        let set = Arc::new(RuleSet::new(&[], &[], super::super::DEFAULT_REPLACEMENT).unwrap());
        set.compile_all().unwrap();
        let mut s = Scrubber::new(set);
        let mut out = Vec::new();
        for piece in text.chunks(size) {
            s.feed(piece, &mut out);
            assert_eq!(s.held(), 2);
        }
        s.flush(&mut out);
        assert_eq!((out == text, s.redactions()), (true, 0));
        // Each after the first, whose hits all go in the storm's drop (it goes out as
        // a slice with no hit does).
        assert_eq!(s.in_place, 11);
    }

    /// A word storm (`token` and an alphanumeric byte, again and again) in slices of 16
    /// KiB: every slice ends in copies whose candidates live past its edge, and begins
    /// with the ones held from the last. Each after the first is read where it lies up
    /// to its last copies (the held ones die within it), and the usual way from there:
    /// call by call the output and hold-back of slices buffered whole.
    #[test]
    fn word_storms_are_read_in_place_up_to_their_last_copies() {
        let mut text = crate::scrub::prefilter::storm_between(b"token", 12 << 14, b"aZ09", 0);
        text.truncate(12 << 14);
        fed_idle_as_buffered(&text, &[16 * 1024]).unwrap();
        let mut s = Scrubber::new(RuleSet::builtin());
        let mut out = Vec::new();
        for piece in text.chunks(16 * 1024) {
            s.feed(piece, &mut out);
        }
        s.flush(&mut out);
        assert_eq!((out == text, s.redactions()), (true, 0));
        assert!(s.in_place_up_to >= 10, "{} of 12", s.in_place_up_to);
    }

    /// Held candidates are read ahead only for a slice long enough to be read in place:
    /// a stream written a byte at a time, whose every write leaves a candidate held (a
    /// repeated `AWS_BEARER_TOKEN_BEDROCK`, a word storm of `token`), reads none ahead,
    /// while the word storm in slices of 16 KiB does (each begins with the candidates
    /// the last one held); the output is the same either way.
    #[test]
    fn short_writes_read_no_held_candidates_ahead() {
        let word_storm = crate::scrub::prefilter::storm_between(b"token", 4 << 14, b"aZ09", 0);
        let set = RuleSet::builtin();
        for text in [b"AWS_BEARER_TOKEN_BEDROCK".repeat(2048), word_storm] {
            let mut s = Scrubber::new(set.clone());
            let mut out = Vec::new();
            for b in &text[..8192] {
                s.feed(std::slice::from_ref(b), &mut out);
                assert!(s.held() > 0);
            }
            assert_eq!(s.read_ahead, 0);
            for piece in text[8192..].chunks(16 * 1024) {
                s.feed(piece, &mut out);
            }
            s.flush(&mut out);
            assert_eq!(out, scrub(&set, &text));
            if text.starts_with(b"token") {
                assert!(s.read_ahead > 0);
            }
        }
    }

    /// An overflow's swallow, begun in one chunk, drops bytes of the next without
    /// writing anything: what the lazy way passes after it must not count them.
    #[test]
    fn lazy_output_after_a_swallow_equals_plain() {
        let prose = b"The build passed; next, the docs (see README.md) and 42 tests.\n";
        let text = storm(&[24, 23], |one| one * 33, &[]);
        let text: Vec<u8> = prose
            .iter()
            .copied()
            .cycle()
            .take(48)
            .chain(text.iter().copied())
            .chain(prose.iter().copied().cycle().take(24))
            .collect();
        let (mut plain, mut lazy) = (
            Scrubber::new(RuleSet::builtin()),
            Scrubber::new(RuleSet::builtin()),
        );
        for piece in text.chunks(36) {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            plain.feed(piece, &mut a);
            let n = lazy.feed_lazy(piece, &mut b);
            b.extend_from_slice(&piece[..n]);
            assert_eq!(a, b);
        }
        assert!(plain.redactions() > 0);
    }

    /// A scan stops after the prefilter block in which its hits reach [`MOST`] and
    /// resolves them before it reads on: in storms whose every repetition matches
    /// (`pwd=` overflows), or dies (`sk-`), or holds no keyword, a keyword or
    /// credential placed across each byte of the first read's end (where the first
    /// scan stops) is redacted as plain feeding, which scans to the end, redacts it.
    /// The `before` run of `-us`, a context match whose secret is a token (named
    /// after the token's rule, which fails if the token's hit is not waited for) and
    /// a registered literal included. (A storm that repeats exactly has its hits
    /// reported as runs, each counted once: the scan that stops is the one of `pwd=`
    /// and a byte that varies, whose every hit its gate lets through.)
    #[test]
    fn scans_stopped_early_resolve_as_whole_ones() {
        let varied: String = (0..1000)
            .map(|i: usize| format!("pwd={}", ['a', 'Z', '0', '9'][i * 7 % 11 % 4]))
            .collect();
        let storms = [
            "pwd=",
            &varied,
            "token = token_157985 ",
            "API_KEY=<your-api-key>",
            "sk-",
            "ab ",
        ];
        let inserts = [
            "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
            "GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 ",
            " 0123456789abcdef0123456789abcdef-us21 ",
            " secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ",
            " a-registered-value-42 ",
        ];
        let literal = b"a-registered-value-42".to_vec();
        let set = Arc::new(RuleSet::new(&[], &[literal], "[REDACTED:{rule}]").unwrap());
        let first = set.prefilter.first_read();
        let mut stopped = 0;
        for storm in storms {
            let text: Vec<u8> = storm.bytes().cycle().take(first + 2 * BLOCK).collect();
            for insert in inserts {
                for back in 0..insert.len() + 8 {
                    let at = first - back;
                    let mut t = text.clone();
                    t.splice(at..at, insert.bytes());
                    let plain = scrubbed_by(set.clone(), &t, t.len(), true);
                    let mut s = Scrubber::new(set.clone());
                    let mut out = Vec::new();
                    s.feed(&t, &mut out);
                    stopped += s.stops;
                    s.flush(&mut out);
                    if out != plain {
                        let i = out.iter().zip(&plain).take_while(|(a, b)| a == b).count();
                        let near = |t: &[u8]| {
                            String::from_utf8_lossy(&t[i.saturating_sub(40)..(i + 60).min(t.len())])
                                .into_owned()
                        };
                        panic!(
                            "{storm:?} with {insert:?} at {at}: from byte {i}, {:?} where plain \
                             feeding gives {:?}",
                            near(&out),
                            near(&plain)
                        );
                    }
                }
            }
        }
        assert!(stopped > 0, "no scan stopped early");
    }

    /// A keyword or credential cut anywhere between two slices read in place: the
    /// second slice's scan starts in the first one's held tail, and every call's
    /// output and hold-back are those of buffered slices.
    #[test]
    fn idle_slices_cut_inside_keywords_equal_buffered_ones() {
        let prose = b"The build passed; next, the docs (see README.md) and 42 tests.\n";
        let filler = prose.repeat(80);
        for unit in UNITS {
            for cut in 0..=unit.len() {
                let first = [&filler[..], &unit.as_bytes()[..cut]].concat();
                let second = [&unit.as_bytes()[cut..], &b" done\n"[..], &filler[..]].concat();
                let (mut idle, mut buffered) = (
                    Scrubber::new(RuleSet::builtin()),
                    Scrubber::new(RuleSet::builtin()),
                );
                buffered.buffered = true;
                for piece in [&first, &second] {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    idle.feed(piece, &mut a);
                    buffered.feed(piece, &mut b);
                    assert!(a == b, "{unit:?} cut at {cut}: outputs differ");
                    assert_eq!(idle.held(), buffered.held(), "{unit:?} cut at {cut}");
                }
                assert_eq!(
                    idle.redactions(),
                    buffered.redactions(),
                    "{unit:?} cut at {cut}"
                );
            }
        }
    }

    /// A long match seen again (an AWS session token in every line) takes the verdict
    /// of the last one; one followed by another byte, or another token, is judged
    /// afresh: every line comes out as scrubbing it alone gives.
    #[test]
    fn long_matches_judged_again_are_judged_alike() {
        let token = |seed: u8| -> String {
            (0..280 + 20 * u32::from(seed))
                .map(|i| b"AbCd0123+/xyzQRS"[((i * 7 + u32::from(seed)) % 16) as usize] as char)
                .collect()
        };
        let lines = [
            format!("aws_session_token = {}\n", token(1)),
            format!("aws_session_token = {}\n", token(1)),
            format!("aws_session_token = {}\t\n", token(1)),
            format!("aws_session_token = {}\n", token(2)),
            format!("aws_session_token = {}\n", token(1)),
            "aws_session_token = short\n".to_string(),
        ];
        let text = lines.concat().repeat(5);
        let want: Vec<u8> = lines
            .iter()
            .flat_map(|line| scrubbed(line.as_bytes(), line.len(), true))
            .collect::<Vec<u8>>()
            .repeat(5);
        assert!(String::from_utf8_lossy(&want)
            .contains("aws_session_token = [REDACTED:aws-session-token]\n"));
        for chunk in [text.len(), 4096, 97, 7] {
            assert!(
                scrubbed(text.as_bytes(), chunk, false) == want,
                "chunks of {chunk}"
            );
        }
    }

    /// A scrubber makes a rule's state at the first write to it: a stream of clean
    /// text, and one whose keywords' candidates die, make none (a scrubber is made at
    /// every [`scrub`]); a stream with credentials makes some rules', and scrubs as a
    /// scrubber that had every rule's from the start.
    #[test]
    fn per_rule_state_is_made_at_its_first_write() {
        let made =
            |s: &Scrubber| s.memos.made() + s.loops.made() + s.trails.made() + s.verdicts.made();
        let set = RuleSet::builtin();
        let line = b"The build passed; next, the docs (see README.md) and 42 tests.\n";
        let mut s = Scrubber::new(set.clone());
        let mut out = Vec::new();
        s.feed(&line.repeat(2000), &mut out);
        s.flush(&mut out);
        assert_eq!(out, line.repeat(2000));
        assert_eq!(made(&s), 0);
        let died = b"the token is missing; see the secret docs and sk- prefixes\n".repeat(200);
        let mut s = Scrubber::new(set.clone());
        out.clear();
        s.feed(&died, &mut out);
        s.flush(&mut out);
        assert_eq!(out, died);
        assert_eq!(made(&s), 0);
        let text = b"token=ghp_0123456789abcdefghijABCDEFGHIJklmnopqr used\n".repeat(50);
        let mut s = Scrubber::new(set.clone());
        let mut lazy = Vec::new();
        s.feed(&text, &mut lazy);
        s.flush(&mut lazy);
        let some = made(&s);
        assert!(some > 0 && some < 4 * set.rules.len(), "{some} made");
        // Made at once, as before: the same output.
        let mut s = Scrubber::new(set.clone());
        for r in 0..set.rules.len() {
            let _ = (&mut s.memos[r], &mut s.loops[r]);
            let _ = (&mut s.trails[r], &mut s.verdicts[r]);
        }
        assert_eq!(made(&s), 4 * set.rules.len());
        let mut eager = Vec::new();
        s.feed(&text, &mut eager);
        s.flush(&mut eager);
        assert_eq!(lazy, eager);
        assert_eq!(lazy, scrub(&set, &text));
        assert!(!lazy.windows(4).any(|w| w == b"ghp_"));
    }

    /// Clean text goes through without a byte written; a credential in its second
    /// slice writes the first slice, unchanged, before its own output.
    #[test]
    fn clean_text_goes_through_unwritten() {
        // Slices end in `t`, `d`, `s` (keywords' first letters, held back), and the
        // slice after each takes them out.
        let line = b"The build passed; next, the docs (see README.md) and 42 tests.\n";
        let clean = line.repeat(150_000 / line.len());
        let mut s = Scrubber::new(RuleSet::builtin());
        let mut out = Vec::new();
        assert!(s.feed_through(&clean, &mut out));
        assert!(out.is_empty());
        // Cut in a word, the tail held back: the rest written, unchanged.
        let mut s = Scrubber::new(RuleSet::builtin());
        assert!(!s.feed_through(&clean[..100_001], &mut out));
        assert!(s.held() > 0);
        assert_eq!(&out[..], &clean[..100_001 - s.held()]);
        out.clear();
        // Lazily, the next slice writes only the tail held before it: the rest of its
        // output is its own first bytes.
        let held = s.held();
        let mut lazy = Vec::new();
        let n = s.feed_lazy(&clean[100_001..], &mut lazy);
        assert_eq!(&lazy[..], &clean[100_001 - held..100_001]);
        assert_eq!(n, clean.len() - 100_001);
        assert_eq!(s.held(), 0);
        // Keywords whose candidates die (no credential after them) write nothing either.
        let mut s3 = Scrubber::new(RuleSet::builtin());
        let mut lazy = Vec::new();
        assert!(!s3.feed_through(&clean[..100_001], &mut lazy));
        lazy.clear();
        let mut next = clean[100_001..].to_vec();
        next.splice(
            20_000..20_000,
            b" token_count = 3; password: see below ".iter().copied(),
        );
        let n = s3.feed_lazy(&next, &mut lazy);
        assert_eq!(&lazy[..], &clean[100_001 - held..100_001]);
        assert_eq!(n, next.len());
        // A credential in the slice: all of it written, none left to the caller.
        let token = b" ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 ";
        let mut s2 = Scrubber::new(RuleSet::builtin());
        let mut lazy = Vec::new();
        assert!(!s2.feed_through(&clean[..100_001], &mut lazy));
        lazy.clear();
        let mut next = clean[100_001..].to_vec();
        next.splice(20_000..20_000, token.iter().copied());
        assert_eq!(s2.feed_lazy(&next, &mut lazy), 0);
        assert!(lazy.windows(7).any(|w| w == b"[REDACT"));
        out.clear();
        let token = b" ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 ";
        let mut dirty = clean.clone();
        dirty.splice(90_000..90_000, token.iter().copied());
        let mut s = Scrubber::new(RuleSet::builtin());
        assert!(!s.feed_through(&dirty, &mut out));
        s.flush(&mut out);
        assert_eq!(out, scrubbed(&dirty, dirty.len(), true));
        assert_eq!(&out[..90_000], &clean[..90_000]);
        assert_ne!(out, dirty);
    }

    /// A match its rule rejects is as good as none, and the memo drops the next hit
    /// of the same bytes, but not a token's (see `label`): a context match whose
    /// secret is a token its own rule rejects (Twitch's 30 bytes, half of them `a`,
    /// are filler; with `oauth:` before them they are not) is still named after the
    /// token's rule, after the same token alone (followed by the same two bytes, so
    /// its DFA's path is the same) taught the memo it is rejected.
    #[test]
    fn a_rejected_token_still_names_a_context_match() {
        let token = "oauth:aaaaaaaaaaaaaaaa0123456789abcd";
        let text = format!("{token}\n\ntoken={token}\n\n").repeat(40);
        let want = format!("{token}\n\ntoken=[REDACTED:twitch-oauth-token]\n\n").repeat(40);
        for chunk in [1, 7, 64, text.len()] {
            for plain in [false, true] {
                let out = scrubbed(text.as_bytes(), chunk, plain);
                assert_eq!(String::from_utf8(out).unwrap(), want, "chunks of {chunk}");
            }
        }
    }

    /// A stream whose period is being copied keeps up to [`REPEAT_KEPT`] bytes before
    /// what went out; its snapshot holds only the `context` the stream reads again,
    /// and the stream restored from it goes on alike.
    #[test]
    fn a_snapshot_of_a_repeating_stream_holds_its_context_only() {
        // Four credentials a period.
        let text = [PERIODS[0], PERIODS[1], PERIODS[3]].concat().repeat(1_000);
        let (head, tail) = text.as_bytes().split_at(100_000);
        let set = RuleSet::builtin();
        let mut s = Scrubber::new(set.clone());
        let mut out = Vec::new();
        s.feed(head, &mut out);
        let (n, d) = s.period.unwrap();
        assert!(n == 4 && s.copied > 0);
        // The last period and the context before it.
        assert!(s.emitted - s.base > d, "{} bytes kept", s.emitted - s.base);
        let snap = s.snapshot();
        assert!(snap.len() < 400, "a snapshot of {} bytes", snap.len());
        let mut restored = Scrubber::restore(&snap, set).unwrap();
        let mut rest = out.clone();
        for (s, out) in [(&mut s, &mut out), (&mut restored, &mut rest)] {
            s.feed(tail, out);
            s.flush(out);
        }
        assert!(rest == out && restored.counts == s.counts);
        assert!(out == scrubbed(text.as_bytes(), text.len(), true));
    }

    /// Redactions of the same shape decided after different bytes are not a period:
    /// the first `key2462` follows a `7` and is redacted, every later one follows a
    /// `2`, its rule's left guard, and is not (the bytes a period's decisions were
    /// made after are compared too).
    #[test]
    fn a_period_is_compared_from_the_bytes_before_it() {
        let mut rule = RuleSpec::custom("tk", "key[0-9]{4}", vec!["key".into()]);
        rule.left_guard = "[2]".into();
        rule.right_guard = String::new();
        let set = Arc::new(RuleSet::new(&[rule], &[], "[{rule}]").unwrap());
        let text = format!("key1357{}", "key2462".repeat(3_000));
        let want = format!("[tk][tk]{}", "key2462".repeat(2_999));
        for chunk in [text.len(), 4_096] {
            for plain in [false, true] {
                let out = scrubbed_by(set.clone(), text.as_bytes(), chunk, plain);
                // Not `assert_eq!`: a failure would print 21 KB twice.
                assert!(out == want.as_bytes(), "chunks of {chunk}, plain {plain}");
            }
        }
    }

    /// `eyJ-` 2,000 times then `!`: each `eyJ` a JWT candidate alive to the `!`. The
    /// copies of a period's hit go on as followers of the first (see [`Follow`]), and
    /// die with it at the `!`: a few candidates are made a stretch, not 2,000 (those
    /// within the DFA's first period or so of the `!`, and the first). Edited (a JWT
    /// in the middle of a stretch, a stretch cut short), the output is plain feeding's.
    #[test]
    fn followers_die_with_their_leader() {
        let unit = format!("{}!", "eyJ-".repeat(2_000));
        let text = unit.repeat(32);
        for chunk in [65_536, 4_096, 1_000] {
            let (s, (out, _)) = scrubber_after(RuleSet::builtin(), text.as_bytes(), chunk, false);
            assert!(out == text.as_bytes(), "chunks of {chunk}: output changed");
            assert!(
                s.made <= 32 * 16,
                "chunks of {chunk}: {} candidates made",
                s.made
            );
        }
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        let edited = [
            format!("{}{jwt} {}", "eyJ-".repeat(1_500), "eyJ-".repeat(1_500)),
            format!("{}.{jwt}!", "eyJ-".repeat(3_000)),
            format!("{}{jwt}", "eyJ-".repeat(2_500)),
            format!("{}ey", "eyJ-".repeat(2_047)),
            "eyJ-".repeat(2_100),
        ];
        for unit in edited {
            let text = unit.repeat(4);
            let plain = scrubbed(text.as_bytes(), text.len(), true);
            for chunk in [text.len(), 65_536, 4_096, 1_013] {
                let out = scrubbed(text.as_bytes(), chunk, false);
                assert!(out == plain, "{}…, chunks of {chunk}", &unit[..24]);
            }
        }
    }

    /// Slices read where they lie when nothing is held (see [`Scrubber::feed_idle`]):
    /// the runs a slice's pass reports (see [`Follow`]) are placed where the slice
    /// starts, as its hits are (placed where the held bytes before it start, the JWTs
    /// of a slice went out in the clear), and the held bytes' pass's runs are taken as
    /// hits.
    #[test]
    fn runs_of_idle_slices_are_placed_where_the_slice_starts() {
        // A case `periods_with_edits_equal_plain_feeding` found.
        let one: Vec<u8> = [4, 7, 5].iter().flat_map(|&i| PERIODS[i].bytes()).collect();
        let edits = [
            (6_927_127_203_981_000_804, 3),
            (3_695_348_689_431_035_962, 6),
            (4_048_088_024_356_274_567, 32),
        ];
        let text = repeated(&one, 71_379, &edits);
        let plain = scrubbed_counted(&text, text.len(), true);
        let jwts = text.windows(8).filter(|w| *w == b"eyJhbGci").count() as u64;
        assert!(plain.1.iter().sum::<u64>() >= jwts);
        for chunk in [31_221, 20_000] {
            let got = scrubbed_counted(&text, chunk, false);
            assert!(got == plain, "chunks of {chunk}");
        }
    }

    /// A stream moved to another process while a candidate has followers: its
    /// snapshot holds them as candidates not fed yet, and the stream restored from it
    /// goes on as the first would have.
    #[test]
    fn followers_move_with_a_snapshot() {
        let set = RuleSet::builtin();
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        let (a, b, c) = (
            "eyJ-".repeat(3_000),
            "eyJ-".repeat(1_500),
            "eyJ-".repeat(100),
        );
        let text = format!("{a}!{b}{jwt} and {c}").into_bytes();
        let whole = scrubbed(&text, text.len(), true);
        for (cut, followed) in [
            (5_000, true),
            (12_001, false),
            (14_000, true),
            (18_000, false),
        ] {
            let mut first = Scrubber::new(set.clone());
            let mut out = Vec::new();
            first.feed(&text[..cut], &mut out);
            let follows = first.cands.iter().any(|c| c.follow.is_some());
            assert!(follows || !followed, "no followers at {cut}");
            let mut moved = Scrubber::restore(&first.snapshot(), set.clone()).unwrap();
            moved.feed(&text[cut..], &mut out);
            moved.flush(&mut out);
            assert!(out == whole, "cut at {cut}");
        }
        // Followers that outlive their leader: made after the move, they match at `Z`.
        let mut spec = RuleSpec::custom("tk", FOLLOWED[0], vec!["ab".into()]);
        (spec.left_guard, spec.right_guard) = (String::new(), String::new());
        let set = Arc::new(RuleSet::new(&[spec], &[], "[{rule}]").unwrap());
        let text = format!("{}Z and more", "ab".repeat(6_000)).into_bytes();
        let (_, (whole, _)) = scrubber_after(set.clone(), &text, text.len(), true);
        assert!(whole.ends_with(b"[tk] and more"));
        for cut in [9_000, 11_950, 11_990] {
            let mut first = Scrubber::new(set.clone());
            let mut out = Vec::new();
            first.feed(&text[..cut], &mut out);
            assert!(
                first.cands.iter().any(|c| c.follow.is_some()),
                "none at {cut}"
            );
            let mut moved = Scrubber::restore(&first.snapshot(), set.clone()).unwrap();
            moved.feed(&text[cut..], &mut out);
            moved.flush(&mut out);
            assert!(out == whole, "cut at {cut}");
        }
    }

    /// A leader that reads on past an edit, and dies later: the followers that read the
    /// edit before they reached its states take another way (here, to a `W` only they
    /// match at), and are made, not dropped with it. And a leader that dies at a break
    /// the followers that have not reached its states yet live through (to a `Y`).
    #[test]
    fn followers_that_read_an_edit_before_joining_are_made() {
        for (rule, edit, end) in [(5, "q", "W"), (6, "!", "Y")] {
            followers_past_an_edit(FOLLOWED[rule], edit, end);
        }
    }

    fn followers_past_an_edit(pattern: &str, edit: &str, end: &str) {
        let mut spec = RuleSpec::custom("tk", pattern, vec!["ab".into()]);
        (spec.left_guard, spec.right_guard) = (String::new(), String::new());
        spec.max_len = 4096;
        let set = Arc::new(RuleSet::new(&[spec], &[], "[{rule}]").unwrap());
        for (before, after) in [(300, 3), (1_500, 5), (2_000, 0)] {
            let stretch = format!("{}{edit}{}{end}", "ab-".repeat(before), "ab-".repeat(after));
            let text = stretch.repeat(3);
            let plain = scrubber_after(set.clone(), text.as_bytes(), text.len(), true).1;
            assert!(
                plain.1.iter().sum::<u64>() >= 3,
                "a match a stretch at least"
            );
            for chunk in [text.len(), 4_096, 1_000] {
                let (s, got) = scrubber_after(set.clone(), text.as_bytes(), chunk, false);
                // Not `assert_eq!`: a failure would print ~20 KB twice.
                assert!(got == plain, "{before}, {after}, chunks of {chunk}");
                assert!(s.made < 3 * 40, "{before}, {after}: {} made", s.made);
            }
        }
    }

    /// Rules of the shapes followers are made of (see [`Follow`]): bounded, so a leader
    /// dies early and its followers near an end match; with a cycle, and an end only
    /// the followers in step with it reach (an edit puts them out of the leader's
    /// step); with a cycle through two states; with a dead end a period may step
    /// over. And the units of their storms.
    const FOLLOWED: [&str; 7] = [
        "ab(?:[ab]{2}){60,70}Z",
        "ab[a-z-]{6,}\\.[a-z]{3}",
        "ab(?:[ab-]{3})*Z",
        "ab(?:cd|-)+(?:xy)?!",
        "ab[abc]*c[abc]{3}Y",
        "ab(?:[abq-]{20}[abq-]*Z|[ab-]{0,19}q[ab-]*W)",
        "ab(?:[ab-]{20}[ab-]*Z|[ab-]{0,19}!(?:ab-)*Y)",
    ];
    const FOLLOWED_UNITS: [&str; 17] = [
        "ab", "ab-", "abcd", "abab", "abc-", "Z", ".", ".xyz", "!", "xy!", "Y", " ", "cY", "c",
        "b", "q", "W",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Storms of token rules' keywords long enough for the prefilter's periods,
        /// with edits: followers (see [`Follow`]), made when their leader leaves the
        /// queue or dropped with it, give plain feeding's output and counts, whole and
        /// in chunks.
        #[test]
        fn followers_equal_plain_feeding(
            rule in 0..FOLLOWED.len(),
            unit in proptest::collection::vec(0..FOLLOWED_UNITS.len(), 1..3),
            times in 200usize..3_000,
            end in 0..FOLLOWED_UNITS.len(),
            reps in 1usize..4,
            edits in proptest::collection::vec((any::<usize>(), 0..FOLLOWED_UNITS.len()), 0..4),
            chunk in 300usize..70_000,
        ) {
            let mut spec = RuleSpec::custom("tk", FOLLOWED[rule], vec!["ab".into()]);
            (spec.left_guard, spec.right_guard) = (String::new(), String::new());
            spec.max_len = 4096;
            let set = Arc::new(RuleSet::new(&[spec], &[], "[{rule}]").unwrap());
            let one: Vec<u8> = unit.iter().flat_map(|&i| FOLLOWED_UNITS[i].bytes()).collect();
            let mut stretch = one.repeat(times);
            stretch.extend_from_slice(FOLLOWED_UNITS[end].as_bytes());
            let mut text = stretch.repeat(reps);
            for &(at, p) in &edits {
                let at = at % (text.len() + 1);
                text.splice(at..at, FOLLOWED_UNITS[p].bytes());
            }
            let plain = scrubber_after(set.clone(), &text, text.len(), true).1;
            prop_assert_eq!(&scrubber_after(set.clone(), &text, text.len(), false).1, &plain);
            prop_assert_eq!(&scrubber_after(set, &text, chunk, false).1, &plain);
        }
    }

    /// A candidate that would take its state after its first bytes from an earlier
    /// one reading the same bytes ([`Head`]) does not when those bytes made a match:
    /// each line's `keyw1` matches, and its candidate reads on through letters that
    /// differ from line to line after the first 16 bytes, and dies at `Y`.
    #[test]
    fn a_match_in_a_candidates_first_bytes_is_kept() {
        let rule = RuleSpec::custom("tk", "keyw[0-9](?:-[a-z]{20}X)?", vec!["keyw".into()]);
        let set = Arc::new(RuleSet::new(&[rule], &[], "[{rule}]").unwrap());
        let letters = |i: usize| -> String {
            (0..10)
                .map(|j| (b'a' + ((i * 7 + j * 3) % 26) as u8) as char)
                .collect()
        };
        let text: String = (0..50)
            .map(|i| format!("keyw1-abcdefghij{}Y\n", letters(i)))
            .collect();
        let want: String = (0..50)
            .map(|i| format!("[tk]-abcdefghij{}Y\n", letters(i)))
            .collect();
        for chunk in [1, 7, 64, text.len()] {
            for plain in [false, true] {
                let out = scrubbed_by(set.clone(), text.as_bytes(), chunk, plain);
                assert_eq!(String::from_utf8(out).unwrap(), want, "chunks of {chunk}");
            }
        }
    }

    /// Every built-in vector that redacts, set after a storm of each of its rule's
    /// keywords long enough for the prefilter's dense blocks, comes out as feeding
    /// every candidate gives, and (the last one) redacted as the vector expects: a
    /// gate never drops a hit that opens a real secret, the ones of rules with a run
    /// before their keyword (`Q~`, `-us`, `AZDO`) included. Set right after the storm,
    /// too: the storm's last hits, which read into the vector, are not taken for
    /// their repeats.
    #[test]
    fn vectors_after_storms_of_their_keywords_equal_plain_feeding() {
        let mut checked = 0;
        for v in crate::scrub::rules::vectors().filter(|v| v.text != v.expect) {
            for keyword in v.rule.keywords {
                let storm = keyword.repeat(20_000 / keyword.len());
                let text = [&storm, " ", v.text, "\n", &storm, " ", v.text, "\n"].concat();
                let want = [" ", v.expect, "\n"].concat();
                let plain = scrubbed(text.as_bytes(), text.len(), true);
                let gated = scrubbed(text.as_bytes(), text.len(), false);
                assert!(gated == plain, "{}: {keyword:?}", v.rule.id);
                checked += usize::from(gated.ends_with(want.as_bytes()));
                // Right after the storm: its last hits read into the vector.
                let text = [&storm, v.text, "\n", &storm, v.text].concat();
                let plain = scrubbed(text.as_bytes(), text.len(), true);
                let gated = scrubbed(text.as_bytes(), text.len(), false);
                assert!(gated == plain, "{}: {keyword:?}, no break", v.rule.id);
            }
        }
        // 780 of 788: a storm may read into its vector (`--password --password … x`
        // is one flag with the value `--password`).
        assert!(checked >= 780, "{checked} vectors redacted as expected");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Storms long enough for the prefilter's dense blocks (past its first 16 KiB),
        /// whose gates drop hits as they find them: the output is the one feeding every
        /// candidate gives, whole and in large chunks.
        #[test]
        fn long_storms_with_edits_equal_plain_feeding(
            unit in proptest::collection::vec(0..UNITS.len(), 1..3),
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..12),
            chunk in 600usize..70_000,
        ) {
            let text = storm(&unit, |_| 40_000, &edits);
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
        }

        /// Text that repeats with a keyword hit every 20 to 130 bytes (credentials
        /// printed again and again, whose hits a dense block copies on; tokens run
        /// into their next copy, dense by their period), with edits: the output is
        /// the one feeding every candidate gives, whole and in large chunks.
        #[test]
        fn repeated_lines_with_edits_equal_plain_feeding(
            line in 0..REPEATED.len(),
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..8),
            chunk in 600usize..70_000,
        ) {
            let text = repeated(REPEATED[line].as_bytes(), 40_000, &edits);
            let plain = scrubbed(&text, text.len(), true);
            prop_assert_eq!(&scrubbed(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed(&text, chunk, false), &plain);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Text without a credential repeated (keywords, near misses, a trace's
        /// `…_tokens` keys), edited here and there with keywords and credentials:
        /// letting periods out unread (see [`Scrubber::skip_clean`]) gives the output
        /// and counts of feeding every candidate.
        #[test]
        fn clean_periods_with_edits_equal_plain_feeding(
            lines in proptest::collection::vec(0..CLEAN.len(), 1..4),
            units in proptest::collection::vec(0..UNITS.len(), 0..4),
            len in 20_000usize..200_000,
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..4),
            chunk in 9_000usize..70_000,
        ) {
            let mut one: Vec<u8> = lines.iter().flat_map(|&i| CLEAN[i].bytes()).collect();
            one.extend(units.iter().flat_map(|&i| UNITS[i].bytes()));
            let text = repeated(&one, len, &edits);
            let plain = scrubbed_counted(&text, text.len(), true);
            prop_assert_eq!(&scrubbed_counted(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed_counted(&text, chunk, false), &plain);
        }

        /// Periods of one to four lines, one to three credentials each, over several
        /// slices, edited here and there: copied periods (see [`Scrubber::replay`])
        /// give the output and counts of feeding every candidate.
        #[test]
        fn periods_with_edits_equal_plain_feeding(
            lines in proptest::collection::vec(0..PERIODS.len(), 1..5),
            len in 2_000usize..150_000,
            edits in proptest::collection::vec((any::<usize>(), 0..UNITS.len()), 0..4),
            chunk in 1_000usize..70_000,
        ) {
            let one: Vec<u8> = lines.iter().flat_map(|&i| PERIODS[i].bytes()).collect();
            let text = repeated(&one, len, &edits);
            let plain = scrubbed_counted(&text, text.len(), true);
            prop_assert_eq!(&scrubbed_counted(&text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed_counted(&text, chunk, false), &plain);
        }
    }

    /// The output of `text` fed in `chunk`s, and the redactions per rule.
    fn scrubbed_counted(text: &[u8], chunk: usize, plain: bool) -> (Vec<u8>, Vec<u64>) {
        scrubber_after(RuleSet::builtin(), text, chunk, plain).1
    }

    #[test]
    fn repeating_periods_are_copied_until_an_edit() {
        // Two credentials a period; the fifth period's access key is one byte longer.
        let one = PERIODS[1].as_bytes();
        let mut text = one.repeat(2_000);
        let edit = 4 * one.len() + 40;
        text.insert(edit, b'Q');
        let plain = scrubbed_counted(&text, text.len(), true);
        for chunk in [text.len(), 65_536, 5_000] {
            let (s, got) = scrubber_after(RuleSet::builtin(), &text, chunk, false);
            assert_eq!(got, plain, "chunks of {chunk}");
            // The edit breaks the key it lands in.
            assert_eq!(got.1.iter().sum::<u64>(), 3_999, "chunks of {chunk}");
            // All but a few periods after the edit (two seen, then copies) and at
            // each slice's end (a reach of ~1,400 bytes, 12 periods, is decided).
            let slices = text.len().div_ceil(SLICE.min(chunk)) as u64;
            assert!(s.copied >= 2_000 - 8 - 16 * slices, "{} copied", s.copied);
        }
    }

    /// Lines without a credential, dense with keywords: an agent's run in the trace
    /// format (a period of 1,048 bytes, `token` every ~70), a token run into its
    /// next copy, code, a storm, near misses.
    const CLEAN: [&str; 5] = [
        concat!(
            "{\"type\":\"run_start\",\"agent\":\"iteron-demo\",\"model\":\"demo-coder-1\",\"prompt\":\"Reformat the codebase.\"}\n",
            "{\"type\":\"phase\",\"phase\":\"executing\"}\n",
            "{\"type\":\"tool_start\",\"call_id\":\"call_1\",\"tool\":\"bash\",\"title\":\"Format src/\",\"input\":{\"command\":\"ruff format src/\"}}\n",
            "{\"type\":\"tool_output_delta\",\"call_id\":\"call_1\",\"text\":\"41 files reformatted, 12 files left unchanged\\n",
            "\"}\n",
            "{\"type\":\"tool_end\",\"call_id\":\"call_1\",\"status\":\"completed\",\"outcome\":\"ok\"}\n",
            "{\"type\":\"notice\",\"code\":\"drain\",\"text\":\"Drain requested: finishing the admitted work and checkpointing.\"}\n",
            "{\"type\":\"assistant_delta\",\"text\":\"Formatted src/ (41 files). tests/ is left for the next run.\"}\n",
            "{\"type\":\"turn_end\",\"usage\":{\"input\":1500,\"output\":80},\"context\":{\"estimated_tokens\":1580,\"components\":{\"stable_prefix_tokens\":900,\"instruction_tokens\":0,\"task_context_tokens\":0,\"memory_tokens\":0,\"transcript_tokens\":400,\"attachment_tokens\":0,\"tool_schema_tokens\":0,\"tool_result_tokens\":120,\"lsp_result_tokens\":0}}}\n",
            "{\"type\":\"run_end\",\"outcome\":\"drained\",\"reason\":\"drain requested; checkpoint written after call_1\"}\n",
        ),
        "pull-request-3dec171ce124d3c1c36c3e2fd4f70608d9d9475a",
        "token = os.environ.get(\"GITHUB_TOKEN\") or secret_from(api_key_path)\n",
        "sk-sk-ghp_ghp_AKIA eyJ-eyJ- xoxb- password: ",
        "def authorization(self, bearer, token, key):\n    return self.secret\n",
    ];

    /// A candidate's DFA that loops in one state reads the run by its table (see
    /// [`Loops`]): all but the bytes before the loop and the one that leaves it; the
    /// match and where it ends are those of stepping through every byte.
    #[test]
    fn runs_a_state_loops_on_are_read_by_its_table() {
        let mut rule = RuleSpec::custom("tk", "tok_[a-z]{8,}[0-9]", vec!["tok_".into()]);
        rule.max_len = 4096;
        let set = Arc::new(RuleSet::new(&[rule], &[], "[{rule}]").unwrap());
        // Letters in turn (a run of one letter is filler, not a secret).
        let letters =
            |n: usize| -> String { (0..n).map(|i| (b'a' + (i % 26) as u8) as char).collect() };
        let text = format!("x tok_{}1 y tok_{}. z", letters(1000), letters(3000));
        let want = format!("x [tk] y tok_{}. z", letters(3000));
        for chunk in [text.len(), 4096, 100, 7] {
            for plain in [true, false] {
                let (s, (out, _)) = scrubber_after(set.clone(), text.as_bytes(), chunk, plain);
                assert!(out == want.as_bytes(), "chunks of {chunk}, plain: {plain}");
                let read: u64 = s.loops.iter().map(|l| l.read).sum();
                if plain {
                    assert_eq!(read, 0);
                } else {
                    // 4,000 letters, less for each candidate the 12 fed plainly
                    // (with `tok_`, its first WARM bytes) and the one stepped to see
                    // the state loop; less one for each chunk that arrives mid-run.
                    let most = 4000 - 2 * (WARM as usize - 4 + 1);
                    let least = most - text.len().div_ceil(chunk);
                    assert!(
                        (least..=most).contains(&(read as usize)),
                        "{read} in chunks of {chunk}"
                    );
                    if chunk == text.len() {
                        assert_eq!(read as usize, most);
                    }
                }
            }
        }
    }

    /// A candidate that reads a long run in one state (by its class) leaves its rule's
    /// trail as it was rather than record a state a byte: 3,000 letters after its
    /// keyword, arrived at once, put none of their states there; 200 all of them, up
    /// to where the candidate is.
    #[test]
    fn long_runs_in_one_state_are_not_recorded_for_the_trail() {
        let set = looping_rules();
        let rule = set.rules.iter().position(|r| r.info.id == "ka").unwrap();
        for (n, recorded) in [(3000, false), (200, true)] {
            let letters: String = (0..n)
                .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
                .collect();
            let text = format!("x kk_{letters}");
            let mut s = Scrubber::new(set.clone());
            s.feed(text.as_bytes(), &mut Vec::new());
            assert!(s.loops[rule].read as usize > n - 20, "{n} letters");
            let (c, trail) = (&s.cands[0], &s.trails[rule]);
            match recorded {
                true => assert_eq!(trail.from + trail.states.len() as u64, c.pos, "{n} letters"),
                false => assert!(trail.states.is_empty(), "{n} letters"),
            }
        }
    }

    /// Rules whose DFAs loop: on a class that holds their keywords' bytes (a later
    /// candidate starts inside an earlier one's loop, and joins its trail), with a
    /// digit to end on; in a match state, with a right guard (the match ends where
    /// the last byte of the run leaves it).
    fn looping_rules() -> Arc<RuleSet> {
        static SET: std::sync::OnceLock<Arc<RuleSet>> = std::sync::OnceLock::new();
        SET.get_or_init(|| {
            let mut a = RuleSpec::custom("ka", "kk_[a-z_]{6,}[0-9]", vec!["kk_".into()]);
            a.max_len = 65536;
            let mut b = RuleSpec::custom("kb", "qq_[a-z0-9]{4,}", vec!["qq_".into()]);
            b.right_guard = "[A-Z]".into();
            b.max_len = 65536;
            Arc::new(RuleSet::new(&[a, b], &[], "[{rule}]").unwrap())
        })
        .clone()
    }

    /// A candidate whose state loops, read by its table up to the end of what has
    /// arrived, leaves its rule's trail (see [`Trail`]) as stepping does: a state
    /// for every byte it read, each the one its DFA is in after that byte, so a later
    /// candidate that joins it takes the right outcome. (Chunks shorter than
    /// [`LONG_LOOP`]: a longer run in one state is not recorded.)
    #[test]
    fn a_trail_holds_the_states_a_table_read() {
        let set = looping_rules();
        let rule = set.rules.iter().position(|r| r.info.id == "ka").unwrap();
        let dfa = &set.rules[rule].matcher().unwrap().dfa;
        let letters: String = (0..3000)
            .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
            .collect();
        let text = format!("x kk_{letters}");
        for chunk in [LONG_LOOP - 1, 99, 37] {
            let mut s = Scrubber::new(set.clone());
            for piece in text.as_bytes().chunks(chunk) {
                s.feed(piece, &mut Vec::new());
            }
            assert!(
                s.loops[rule].read > 2000,
                "{} read by the table",
                s.loops[rule].read
            );
            let c = &s.cands[0];
            let trail = &s.trails[rule];
            assert_eq!(
                trail.from + trail.states.len() as u64,
                c.pos,
                "chunks of {chunk}"
            );
            let mut state = set.rules[rule].matcher().unwrap().start;
            for p in c.start..trail.from {
                state = dfa.next_state(state, text.as_bytes()[p as usize]);
            }
            for (i, &recorded) in trail.states.iter().enumerate() {
                state = dfa.next_state(state, text.as_bytes()[trail.from as usize + i]);
                assert_eq!(
                    recorded,
                    state,
                    "byte {}, chunks of {chunk}",
                    trail.from as usize + i
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Text of keywords, runs of the looping rules' classes and bytes that end
        /// or break them, in chunks: as feeding every byte through each candidate's
        /// DFA gives.
        #[test]
        fn loops_read_by_tables_equal_plain_feeding(
            pieces in proptest::collection::vec((0usize..9, 0usize..300), 1..40),
            chunk in 1usize..700,
        ) {
            const PIECES: [&str; 9] = ["kk_", "qq_", "abcxyz", "q_k", "7", " ", "Z", "_", "m0n"];
            let mut text = Vec::new();
            for (p, n) in pieces {
                text.extend_from_slice(PIECES[p].as_bytes());
                // A run of letters (and digits, for `qq_`) after it.
                text.extend((0..n % 120).map(|i| if p == 1 && i % 5 == 4 { b'3' } else { b'a' + ((i * 7 + n) % 26) as u8 }));
            }
            let plain = scrubbed_by(looping_rules(), &text, text.len(), true);
            prop_assert_eq!(&scrubbed_by(looping_rules(), &text, text.len(), false), &plain);
            prop_assert_eq!(&scrubbed_by(looping_rules(), &text, chunk, false), &plain);
        }

        /// Hits learned with the rules' loop tables learn what stepping through every
        /// byte does: whether they die, the bytes read, and what the memo answers
        /// after (texts as above, from any piece's start, for each looping rule).
        #[test]
        fn hits_learned_by_tables_equal_plain_learning(
            pieces in proptest::collection::vec((0usize..9, 0usize..300), 1..40),
            from in any::<prop::sample::Index>(),
        ) {
            const PIECES: [&str; 9] = ["kk_", "qq_", "abcxyz", "q_k", "7", " ", "Z", "_", "m0n"];
            let (mut text, mut starts) = (Vec::new(), Vec::new());
            for (p, n) in pieces {
                starts.push(text.len());
                text.extend_from_slice(PIECES[p].as_bytes());
                text.extend((0..n % 120).map(|i| if p == 1 && i % 5 == 4 { b'3' } else { b'a' + ((i * 7 + n) % 26) as u8 }));
            }
            // From a piece's start: a keyword's, where a hit is learned.
            let text = &text[*from.get(&starts)..];
            let set = looping_rules();
            for rule in (0..set.rules.len() as u32).filter(|&r| set.rules[r as usize].has_pattern()) {
                let (mut plain, mut tabled, mut loops) = (Memo::default(), Memo::default(), Loops::default());
                let want = learn(&set, rule, (&mut plain, None), text);
                prop_assert_eq!(learn(&set, rule, (&mut tabled, Some(&mut loops)), text), want);
                for n in [text.len(), text.len() / 2, 8.min(text.len())] {
                    prop_assert_eq!(tabled.recall(&text[..n]), plain.recall(&text[..n]));
                    prop_assert_eq!(tabled.kills(&text[..n]), plain.kills(&text[..n]));
                    prop_assert_eq!(tabled.lives_on(&text[..n]), plain.lives_on(&text[..n]));
                }
            }
        }
    }

    /// Rules whose DFAs count (no state repeats while they live, so a leader's
    /// followers are not dropped with it: see [`Scrubber::dead_followers`]): a fixed
    /// length, with a match state on the way for the second, and a match 5 bytes in
    /// that may go on to a longer one for the third.
    fn counting_rules() -> Arc<RuleSet> {
        static SET: std::sync::OnceLock<Arc<RuleSet>> = std::sync::OnceLock::new();
        SET.get_or_init(|| {
            let mut a = RuleSpec::custom("ca", "ka-[a-z0-9_-]{40}AA", vec!["ka-".into()]);
            let mut b = RuleSpec::custom("cb", "kb-[a-z-]{20}(?:[0-9]{3})?", vec!["kb-".into()]);
            // A match 5 bytes in that may go on to a longer one.
            let mut c = RuleSpec::custom("cc", "kc-[a-z]{2}(?:[a-z-]{20}Z)?", vec!["kc-".into()]);
            // No left guard: a storm's keywords each start a candidate.
            (a.left_guard, b.left_guard, c.left_guard) =
                (String::new(), String::new(), String::new());
            b.right_guard = "[0-9]".into();
            c.right_guard = String::new();
            Arc::new(RuleSet::new(&[a, b, c], &[], "[{rule}]").unwrap())
        })
        .clone()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Storms of the counting rules' keywords with edits (a break in the period,
        /// a match, a byte that kills), in small chunks: followers, made when their
        /// leader leaves the queue, write what feeding every byte writes, chunk by
        /// chunk (hold-back included).
        #[test]
        fn counting_followers_write_as_plain_feeding(
            unit in proptest::collection::vec(0usize..8, 1..4),
            times in 1usize..120,
            edits in proptest::collection::vec((any::<usize>(), 0usize..8), 0..4),
            chunk in 1usize..40,
        ) {
            const PIECES: [&str; 8] = ["ka-", "kb-", "xyz", "AA", "-", "123", " ", "ka-ab"];
            let one: String = unit.iter().map(|&p| PIECES[p]).collect();
            let mut text: Vec<u8> = one.bytes().cycle().take(one.len() * times).collect();
            for &(at, p) in &edits {
                let at = at % (text.len() + 1);
                text.splice(at..at, PIECES[p].bytes());
            }
            prop_assert_eq!(written_alike(counting_rules(), &text, chunk), Ok(()));
        }
    }

    /// Written in `chunk`s, a scrubber with its shortcuts and one feeding every byte
    /// write the same bytes after each chunk, and the same in all (hold-back
    /// included: a candidate taken alive where it died holds back what it should not).
    /// `Err` names the first chunk they differ after.
    fn written_alike(set: Arc<RuleSet>, text: &[u8], chunk: usize) -> Result<(), usize> {
        let (mut fast, mut plain) = (Scrubber::new(set.clone()), Scrubber::new(set));
        plain.plain = true;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (k, piece) in text.chunks(chunk.max(1)).enumerate() {
            fast.feed(piece, &mut a);
            plain.feed(piece, &mut b);
            if a != b {
                return Err(k);
            }
        }
        fast.flush(&mut a);
        plain.flush(&mut b);
        if a == b {
            Ok(())
        } else {
            Err(usize::MAX)
        }
    }

    /// A storm of a counting rule's keyword with a token's end (`AA`), a break (` `)
    /// or another keyword put at every offset of two periods, written a byte at a
    /// time and in chunks of 5: the token is redacted and the break ends the storm's
    /// candidates where feeding every byte does, write by write.
    #[test]
    fn counting_storms_with_an_edit_write_as_plain_feeding() {
        let storm = "ka-xyz".repeat(40);
        for edit in ["AA", " ", "kb-"] {
            for at in 150..162 {
                let text = [&storm[..at], edit, &storm[at..]].concat();
                for chunk in [1, 5] {
                    assert_eq!(
                        written_alike(counting_rules(), text.as_bytes(), chunk),
                        Ok(()),
                        "{edit:?} at {at}, chunks of {chunk}"
                    );
                }
            }
        }
        // Each `kc-xy` matches, and its candidate lives on 20 bytes for a longer
        // match: a follower made when it is decided meets its own match in its first
        // bytes.
        let storm = "kc-xy-".repeat(40);
        for chunk in [1, 5] {
            assert_eq!(
                written_alike(counting_rules(), storm.as_bytes(), chunk),
                Ok(()),
                "kc-xy- storm, chunks of {chunk}"
            );
        }
    }

    /// Every built-in vector that redacts, with a byte of it repeated 33 or 300
    /// times (a state that read it may loop on it, or leave), in one piece and in
    /// chunks of 7: as feeding every byte through each candidate's DFA gives. The
    /// tables read more than 100 bytes a text on average (see [`Loops`]).
    #[test]
    fn vectors_with_runs_lengthened_equal_plain_feeding() {
        let (mut read, mut checked) = (0, 0);
        for v in crate::scrub::rules::vectors().filter(|v| v.text != v.expect) {
            let t = v.text.as_bytes();
            for (n, k) in (0..t.len()).step_by(7).enumerate() {
                let repeat = if n % 2 == 0 { 33 } else { 300 };
                let text = [&t[..k], &vec![t[k]; repeat], &t[k..]].concat();
                for chunk in [7, text.len()] {
                    let plain = scrubbed(&text, chunk, true);
                    let (s, (gated, _)) = scrubber_after(RuleSet::builtin(), &text, chunk, false);
                    assert!(
                        gated == plain,
                        "{}: byte {k} x{repeat}, chunks of {chunk}",
                        v.rule.id
                    );
                    read += s.loops.iter().map(|l| l.read).sum::<u64>();
                    checked += 1;
                }
            }
        }
        assert!(checked > 5000, "{checked} texts");
        assert!(
            read > 100 * checked,
            "{read} bytes read by tables in {checked} texts"
        );
    }

    /// The demo's drained run, printed again and again (as a stream of runs would):
    /// its turn's usage counts tokens under ten `_tokens` keys in 300 bytes, each a
    /// keyword of two rules, and the run is ~1 KiB, past the periods copied. A 64 KiB
    /// slice is not read as dense blocks (the walk reads a byte a step: 3.5x the
    /// sieve's time here), whatever offset it starts at. A probe of 256 bytes that
    /// fell among the keys found them dense, and dense blocks, counting each key
    /// twice, stayed so to the slice's end.
    #[test]
    fn token_counts_of_agent_events_are_not_dense() {
        const RUN: &str = concat!(
            r#"{"type":"run_start","agent":"iteron-demo","model":"demo-coder-1","prompt":"Reformat the codebase."}"#,
            "\n",
            r#"{"type":"phase","phase":"executing"}"#,
            "\n",
            r#"{"type":"tool_start","call_id":"call_1","tool":"bash","title":"Format src/","input":{"command":"ruff format src/"}}"#,
            "\n",
            r#"{"type":"tool_output_delta","call_id":"call_1","text":"41 files reformatted, 12 files left unchanged\n"}"#,
            "\n",
            r#"{"type":"tool_end","call_id":"call_1","status":"completed","outcome":"ok"}"#,
            "\n",
            r#"{"type":"notice","code":"drain","text":"Drain requested: finishing the admitted work and checkpointing."}"#,
            "\n",
            r#"{"type":"assistant_delta","text":"Formatted src/ (41 files). tests/ is left for the next run."}"#,
            "\n",
            r#"{"type":"turn_end","usage":{"input":1500,"output":80},"context":{"estimated_tokens":1580,"components":{"stable_prefix_tokens":900,"instruction_tokens":0,"task_context_tokens":0,"memory_tokens":0,"transcript_tokens":400,"attachment_tokens":0,"tool_schema_tokens":0,"tool_result_tokens":120,"lsp_result_tokens":0}}}"#,
            "\n",
            r#"{"type":"run_end","outcome":"drained","reason":"drain requested; checkpoint written after call_1"}"#,
            "\n",
        );
        let text = RUN.repeat((1 << 20) / RUN.len() + 1).into_bytes();
        let keys = RUN.find("stable_prefix").expect("the counts");
        for lead in [0, keys - 100, keys, keys + 100, keys + 200] {
            let text = &text[lead..];
            let (s, (out, _)) = scrubber_after(RuleSet::builtin(), text, 65536, false);
            assert!(out == text, "changed from {lead}");
            let dense = s.prefilter_space.dense_bytes;
            assert!(
                dense <= text.len() / 16,
                "from {lead}: {dense} of {} bytes read as dense blocks",
                text.len()
            );
        }
    }

    #[test]
    fn clean_periods_go_out_unread_until_a_credential() {
        let mut text = CLEAN[0].repeat(2_000);
        let planted = 1_000 * CLEAN[0].len() + 17;
        let key = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5";
        text.insert_str(planted, &format!(" {key} "));
        let plain = scrubbed_counted(text.as_bytes(), text.len(), true);
        assert_eq!(plain.1.iter().sum::<u64>(), 1);
        for chunk in [text.len(), 65_536, 10_000] {
            let (s, got) = scrubber_after(RuleSet::builtin(), text.as_bytes(), chunk, false);
            assert!(got == plain, "chunks of {chunk}");
            // Most of the text, before the key and after it.
            assert!(
                s.skipped > text.len() as u64 / 2,
                "{} of {} unread",
                s.skipped,
                text.len()
            );
        }
    }

    /// Lines whose credentials a period holds: a context match named after its token,
    /// two credentials on one line, a run before a keyword, a private key, a match
    /// rejected as a placeholder, a JWT, a line with none, a line of none the sieve
    /// flags every few bytes.
    const PERIODS: [&str; 10] = [
        "GITHUB_TOKEN=ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5\n",
        "export AWS_ACCESS_KEY_ID=AKIAQWERTYUIOPASDFGH 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\n",
        "bFuBC4kI9TJLXsDG5pnIFaZv5xfxjMLypIbjRZHx5aGs5KN8HYJqJQQJ991A38u6GSZO1Xdrt6OvAZDOp6vJ ",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEADwt6DJm2EUfCt0Sr8vuZTawK7tzoZv/g8PHk+RsozxXLYDAO\n-----END RSA PRIVATE KEY-----\n",
        "password = \"<your-password>\" ",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U\n",
        "{\"ado_pat\": \"sdtw88zesxiu0nl5cfc69nbld4zp6iwk67dam8ac5650cxu9nlui\"}",
        "plain words, a token of nothing, sk- and ghp_ alone\n",
        "password=hunter2 ",
        // No keyword, flagged by the sieve every ~26 bytes.
        "pull-request-3dec171ce124d3c1c36c3e2fd4f70608d9d9475a",
    ];

    /// Lines printed again and again: credentials (redacted in every copy) and tokens
    /// run into their next copy (none).
    const REPEATED: [&str; 7] = [
        "API_KEY=<your-api-key>",
        "password = 'correct horse battery staple'",
        "{\"headers\": {\"Authorization\": \"token l4w3EMlu9tfsCZ2qqBkWsaAxQ3dmrKu8M\"}}\n",
        "AZURE_DEVOPS_EXT_PAT=bFuBC4kI9TJLXsDG5pnIFaZv5xfxjMLypIbjRZHx5aGs5KN8HYJqJQQJ991A38u6GSZO1Xdrt6OvAZDOp6vJ az\n",
        "sk-or-v1-BCNSMSPIPHLQUJRZKNGWJEHOWMJANUSJDJHDTGIXBREJZEYOQMTVCEXTEZRJXTVC",
        "pcsk_FQnpjy_VexrkbfDGPxTWsl0fbS4t4okZ9soPsyagY2d0CuGcY8iri8HYjkorID6kyGPqj",
        "_PKCS1_MARKER = (\"-----BEGIN RSA PRIVATE KEY-----\", \"-----END RSA PRIVATE KEY-----\")",
    ];
}
