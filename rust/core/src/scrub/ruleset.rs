//! Compiling rules once into a [`RuleSet`]: the keyword prefilter (one Aho-Corasick
//! automaton over every keyword and literal form), one anchored DFA per rule, and the
//! byte classes the stream consults. Compile once, feed many chunks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::hybrid;
use regex_automata::nfa::thompson::{self, backtrack};
use regex_automata::util::{captures::Captures, primitives::StateID, start, syntax};
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Hir, HirKind, Repetition};

use super::literal;
use super::opening::Prefixes;
use super::prefilter::{Prefilter, Source};
use super::rules::{builtin, RuleDef, Tier, Validator};
use super::span::Splits;
use super::swallow::Swallow;
use crate::Error;

/// The ID every literal secret (and its encodings) is redacted under.
pub const LITERAL_RULE_ID: &str = "literal-secret";
/// The default replacement template; `{rule}` becomes the rule ID.
pub const DEFAULT_REPLACEMENT: &str = "[REDACTED:{rule}]";
/// Longest `max_len` a rule may declare: the most a single candidate can hold back.
pub const MAX_RULE_LEN: usize = 1 << 20;
/// Longest `before` run a rule may declare.
pub const MAX_BEFORE: usize = 100;

/// An owned rule definition: the built-in table's rows, or a user's custom rule.
#[derive(Clone, Debug)]
pub struct RuleSpec {
    pub id: String,
    pub tier: Tier,
    pub description: String,
    pub keywords: Vec<String>,
    pub pattern: String,
    /// `(class, min, max)`: bytes of the match before its keyword.
    pub before: Option<(String, usize, usize)>,
    pub left_guard: String,
    pub right_guard: String,
    pub max_len: usize,
    pub overflow: String,
    /// Built-in rules only: a check of the value a pattern cannot make.
    pub validator: Option<Validator>,
}

impl RuleSpec {
    /// A custom rule with the defaults of the rules file: word-character guards on both
    /// sides, at most 256 bytes, nothing swallowed after an overflow.
    pub fn custom(id: &str, pattern: &str, keywords: Vec<String>) -> RuleSpec {
        RuleSpec {
            id: id.to_string(),
            tier: Tier::Custom,
            description: String::new(),
            keywords,
            pattern: pattern.to_string(),
            before: None,
            left_guard: "[A-Za-z0-9_]".to_string(),
            right_guard: "[A-Za-z0-9_]".to_string(),
            max_len: 256,
            overflow: String::new(),
            validator: None,
        }
    }
}

impl From<&RuleDef> for RuleSpec {
    fn from(d: &RuleDef) -> RuleSpec {
        RuleSpec {
            id: d.id.to_string(),
            tier: d.tier,
            description: d.description.to_string(),
            keywords: d.keywords.iter().map(|k| k.to_string()).collect(),
            pattern: d.pattern.to_string(),
            before: d.before.map(|b| (b.class.to_string(), b.min, b.max)),
            left_guard: d.left_guard.to_string(),
            right_guard: d.right_guard.to_string(),
            max_len: d.max_len,
            overflow: d.overflow.to_string(),
            validator: d.validator,
        }
    }
}

/// What `rules()` reports about a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    pub id: String,
    pub tier: Tier,
    pub description: String,
}

/// A set of bytes, from a regex bracket expression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ByteClass([u64; 4]);

impl ByteClass {
    /// The class of no byte.
    pub(crate) const EMPTY: ByteClass = ByteClass([0; 4]);

    /// The bytes `class` matches on its own, one at a time; `None` for the empty
    /// string (no class). A bracket expression, an escape like `\s` or a single byte
    /// is read from its parse (microseconds); anything else, and any error, from a
    /// regex compiled to match one byte and asked of all 256 (~40 µs: three classes
    /// a rule made that 8 ms of a rule set's build).
    pub(super) fn parse(id: &str, what: &str, class: &str) -> Result<Option<ByteClass>, Error> {
        if class.is_empty() {
            return Ok(None);
        }
        match ByteClass::parsed(class) {
            Some(set) if set.0 != [0; 4] => Ok(Some(set)),
            _ => ByteClass::compiled(id, what, class),
        }
    }

    /// The bytes of `class` as its parse holds them, when it parses to a set of bytes
    /// or to one byte.
    fn parsed(class: &str) -> Option<ByteClass> {
        use regex_syntax::hir::{Class, HirKind};
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .build()
            .parse(&format!("(?-u:{class})"))
            .ok()?;
        let mut set = ByteClass::default();
        match hir.kind() {
            HirKind::Class(Class::Bytes(bytes)) => {
                for r in bytes.iter() {
                    for b in r.start()..=r.end() {
                        set.0[usize::from(b >> 6)] |= 1 << (b & 63);
                    }
                }
            }
            HirKind::Literal(lit) if lit.0.len() == 1 => {
                let b = lit.0[0];
                set.0[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            _ => return None,
        }
        Some(set)
    }

    /// [`ByteClass::parse`] by a regex that matches one byte, asked of each byte.
    fn compiled(id: &str, what: &str, class: &str) -> Result<Option<ByteClass>, Error> {
        let re = regex::bytes::RegexBuilder::new(&format!("(?-u)\\A(?:{class})\\z"))
            .unicode(false)
            .build()
            .map_err(|e| Error::rule(id, format!("{what} {class:?} is not a byte class: {e}")))?;
        let mut set = ByteClass::default();
        for b in 0..=255u8 {
            if re.is_match(&[b]) {
                set.0[usize::from(b >> 6)] |= 1 << (b & 63);
            }
        }
        if set.0 == [0; 4] {
            return Err(Error::rule(id, format!("{what} {class:?} matches no byte")));
        }
        Ok(Some(set))
    }

    /// This class and the UTF-8 continuation bytes (0x80-0xbf): what an overflow
    /// swallows (a continuation byte goes with the character the overflow cut).
    pub(crate) fn with_continuations(mut self) -> ByteClass {
        self.0[2] = u64::MAX;
        self
    }

    /// The class of the bytes whose bits are set in `words` (bit `b % 64` of word
    /// `b / 64`).
    pub(crate) fn from_words(words: [u64; 4]) -> ByteClass {
        ByteClass(words)
    }

    /// The bytes on which `state` of `dfa` goes back to itself.
    pub(crate) fn looping(dfa: &dense::DFA<Vec<u32>>, state: StateID) -> ByteClass {
        let mut words = [0u64; 4];
        for b in 0..=255u8 {
            if dfa.next_state(state, b) == state {
                words[usize::from(b >> 6)] |= 1 << (b & 63);
            }
        }
        ByteClass(words)
    }

    /// Its bits, as [`ByteClass::from_words`] takes them.
    pub(crate) fn words(self) -> [u64; 4] {
        self.0
    }

    #[inline]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0
    }
}

/// The part of a match before its keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BeforeRun {
    pub class: ByteClass,
    pub min: usize,
    pub max: usize,
}

/// Every rule's `before` run, asked one question: how long is the run of some rule's
/// class, no longer than that rule's `max`, that ends at a given offset? (A keyword that
/// needs such a run before it may still arrive there.) Rules of one class share a run,
/// bounded by their largest `max`; the runs of up to 64 classes are measured in one walk
/// back, byte by byte, with a bit per class.
#[derive(Debug, Default)]
pub(crate) struct BeforeRuns {
    groups: Vec<RunGroup>,
    /// Every class's `max`, group after group.
    maxes: Vec<u16>,
}

#[derive(Debug)]
struct RunGroup {
    /// Per byte: the classes it belongs to (bit `k`: class `k`).
    member: Box<[u64; 256]>,
    every: u64,
    /// `over[n]`: the classes whose `max` is below `n` (a run of `n` is too long);
    /// past its end, every class.
    over: Vec<u64>,
}

/// Each class's run (see [`BeforeRuns`]) ending at a stream offset, carried from one
/// question to the next: a stream written a byte at a time is asked at every byte,
/// and in a storm of capitals the walk back ran the longest class's `max` (77
/// bytes) each time, half of a write's cost. From the offset it was left at, only
/// the bytes since are read (back, as far as the runs they end go; those that go
/// through all of them are extended).
#[derive(Clone, Debug, Default)]
pub(crate) struct RunsAt {
    /// The stream offset the runs end at; `None`: not carried.
    at: Option<u64>,
    /// Where the text they were measured on started: a run that reached it may go on
    /// before it, so they are not carried to a text that starts earlier.
    from: u64,
    /// The offset the last question was asked at.
    last: Option<u64>,
    /// Per class, group after group: its run's length, `max + 1` for a longer one.
    len: Vec<u16>,
    /// Whether some class's run was [`SHORT`] bytes or longer, within its `max`, where
    /// the runs were left.
    long: bool,
    /// Walks back that read further than [`SHORT`] bytes or failed there (tests).
    #[cfg(test)]
    walks: usize,
}

/// The most bytes read from where [`RunsAt`] was left; further, the runs are measured
/// back from the end without being carried. A word storm written a byte at a time
/// asks where its partial keyword starts, a keyword and a byte on each time (with
/// four, `secret` and a letter walked back the longest class's `max` twice a copy).
const FORWARD: u64 = 16;

/// The longest walk back [`BeforeRuns::longest_at`] tries before the runs carried.
const SHORT: usize = 12;

impl BeforeRuns {
    fn new(runs: impl Iterator<Item = BeforeRun>) -> BeforeRuns {
        let mut classes: Vec<(ByteClass, usize)> = Vec::new();
        for run in runs {
            match classes.iter_mut().find(|(c, _)| c.0 == run.class.0) {
                Some((_, max)) => *max = (*max).max(run.max),
                None => classes.push((run.class, run.max)),
            }
        }
        let groups = classes
            .chunks(64)
            .map(|group| {
                let mut member = Box::new([0u64; 256]);
                for (k, (class, _)) in group.iter().enumerate() {
                    for b in 0..=255u8 {
                        if class.contains(b) {
                            member[usize::from(b)] |= 1 << k;
                        }
                    }
                }
                let longest = group.iter().map(|&(_, max)| max).max().unwrap_or(0);
                let over = (0..=longest + 1)
                    .map(|n| {
                        group
                            .iter()
                            .enumerate()
                            .filter(|(_, &(_, max))| max < n)
                            .fold(0u64, |m, (k, _)| m | 1 << k)
                    })
                    .collect();
                RunGroup {
                    member,
                    every: u64::MAX >> (64 - group.len()),
                    over,
                }
            })
            .collect();
        let maxes = classes.iter().map(|&(_, max)| max as u16).collect();
        BeforeRuns { groups, maxes }
    }

    /// Each group with the place of its classes in the flat lists (`maxes`, and the
    /// runs of a [`RunsAt`]).
    fn grouped(&self) -> impl Iterator<Item = (&RunGroup, std::ops::Range<usize>)> {
        self.groups.iter().scan(0, |first, g| {
            let classes = *first..*first + g.every.count_ones() as usize;
            *first = classes.end;
            Some((g, classes))
        })
    }

    /// The longest run, of 1 byte or more, of some class ending at the end of `text`
    /// and no longer than that class's `max`; 0 when there is none.
    pub(crate) fn longest(&self, text: &[u8]) -> usize {
        self.longest_within(text, usize::MAX)
            .expect("a walk with no bound ends")
    }

    /// [`BeforeRuns::longest`], or `None` when some class's run is still going
    /// `most` bytes back from the end of `text` (and `text` is longer).
    #[inline]
    fn longest_within(&self, text: &[u8], most: usize) -> Option<usize> {
        let mut best = 0;
        for g in &self.groups {
            let mut alive = g.every;
            let mut n = 0;
            for &b in text.iter().rev() {
                if n == most {
                    return None;
                }
                let m = g.member[usize::from(b)];
                if alive & !m != 0 && n > 0 {
                    // Some class's run ends here, `n` bytes long (within its `max`:
                    // the others were dropped).
                    best = best.max(n);
                }
                alive &= m;
                n += 1;
                alive &= !g.over.get(n).copied().unwrap_or(u64::MAX);
                if alive == 0 {
                    break;
                }
            }
            if alive != 0 {
                best = best.max(n);
            }
        }
        Some(best)
    }

    /// [`BeforeRuns::longest`] of `text`, the stream's bytes up to offset `end`, with
    /// the runs `runs` carried from an earlier question (and left at `end`).
    #[inline]
    pub(crate) fn longest_at(&self, text: &[u8], end: u64, runs: &mut RunsAt) -> usize {
        let start = end - text.len() as u64;
        // A question may come at an end before the last (the test's do).
        let near = |at: Option<u64>| {
            at.is_some_and(|at| at >= start && end.checked_sub(at).is_some_and(|d| d <= FORWARD))
        };
        let last = runs.last.replace(end);
        let kept = |runs: &RunsAt| {
            near(runs.at) && start >= runs.from && runs.len.len() == self.maxes.len()
        };
        // Ordinary text's runs end within a word: walked back, they cost less than
        // the runs carried. Not where the runs carried were long at the last
        // question: a word storm written a byte at a time (`secret` and a letter,
        // again and again) walked back in vain at each byte.
        if !runs.long || !kept(runs) {
            if let Some(best) = self.longest_within(text, SHORT) {
                return best;
            }
            #[cfg(test)]
            {
                runs.walks += 1;
            }
        }
        if kept(runs) {
            // (Asked again at the same end, as a partial keyword grows: as they were.)
            let at = runs.at.expect("near");
            if at < end {
                self.advance(&mut runs.len, &text[(at - start) as usize..]);
            }
        } else if near(last) {
            // Asked again a few bytes on: the runs are measured, to be carried.
            #[cfg(test)]
            {
                runs.walks += 1;
            }
            runs.len.clear();
            runs.len.resize(self.maxes.len(), 0);
            self.advance(&mut runs.len, text);
            runs.from = start;
        } else {
            // Asked far apart (a chunk of 32 bytes or more at a time): a walk back.
            #[cfg(test)]
            {
                runs.walks += 1;
            }
            runs.at = None;
            return self.longest(text);
        }
        runs.at = Some(end);
        // A run carried from bytes before `text` is as long as `text` within it.
        let avail = text.len().min(usize::from(u16::MAX)) as u16;
        let (mut best, mut long) = (0, false);
        for (&n, &max) in runs.len.iter().zip(&self.maxes) {
            let n = n.min(avail);
            if n <= max {
                best = best.max(n);
            }
            long |= usize::from(n.min(max)) >= SHORT;
        }
        // Whether a walk back of `SHORT` bytes would fail here (some class's run
        // still going): then the next question near this one reads on from here.
        runs.long = long && usize::from(avail) > SHORT;
        usize::from(best)
    }

    /// Each class's run (`max + 1` for one longer than its `max`) in `len`, from
    /// where they ended to `bytes` further on: measured back over `bytes` as
    /// [`BeforeRuns::longest`] does, to where each class's run ends, and those that
    /// go through all of them extended. (From zeros, the runs ending at the end of
    /// `bytes`.)
    #[inline(never)]
    fn advance(&self, len: &mut [u16], bytes: &[u8]) {
        for (g, classes) in self.grouped() {
            let (len, maxes) = (&mut len[classes.clone()], &self.maxes[classes]);
            // The classes of `classes` get `n(k, their run)`.
            let set = |len: &mut [u16], mut classes: u64, n: &dyn Fn(usize, u16) -> u16| {
                while classes != 0 {
                    let k = classes.trailing_zeros() as usize;
                    len[k] = n(k, len[k]);
                    classes &= classes - 1;
                }
            };
            let mut alive = g.every;
            let mut n = 0;
            for &b in bytes.iter().rev() {
                let m = g.member[usize::from(b)];
                set(len, alive & !m, &|_, _| n as u16);
                alive &= m;
                n += 1;
                let over = alive & g.over.get(n).copied().unwrap_or(u64::MAX);
                set(len, over, &|k, _| maxes[k] + 1);
                alive &= !over;
                if alive == 0 {
                    break;
                }
            }
            set(len, alive, &|k, was| {
                (usize::from(was) + n).min(usize::from(maxes[k]) + 1) as u16
            });
        }
    }
}

/// What verifies a keyword hit: the rule's pattern as an anchored DFA, and for rules
/// with `secret…` groups what locates the redacted span.
#[derive(Debug)]
pub(crate) struct Matcher {
    pub dfa: dense::DFA<Vec<u32>>,
    pub start: StateID,
    pub captures: Option<Secret>,
    /// The pattern loosened (see [`Loosened`]), built at the first hit a dense block's
    /// kill asks of: like the matcher, one per process for a built-in rule.
    loosened: OnceLock<Option<Loosened>>,
}

/// A rule's pattern as a lazy DFA: states built as bytes are read (the dense DFA
/// builds all of them up front), for [`Rule::dies_uncompiled`].
#[derive(Debug)]
struct Probe {
    dfa: hybrid::dfa::DFA,
    cache: Mutex<hybrid::dfa::Cache>,
}

/// The bytes of a rule's hits its [`Probe`] reads (in a rule set: in a process, for
/// the built-in one) before the rule is compiled whatever the next hit: a lazy DFA's
/// step is a few times a compiled one's, and a storm of hits that die (`machine
/// learning` again and again) would otherwise never compile its rule.
const PROBE_BUDGET: u64 = 64 << 10;

/// The most memory a [`Probe`]'s cache takes: a hit reads a few states.
const PROBE_CACHE: usize = 256 << 10;

impl Probe {
    fn new(pattern: &str) -> Option<Probe> {
        let dfa = hybrid::dfa::DFA::builder()
            .configure(
                hybrid::dfa::Config::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    .cache_capacity(PROBE_CACHE)
                    .skip_cache_capacity_check(true),
            )
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .thompson(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
            .build(pattern)
            .ok()?;
        let cache = Mutex::new(dfa.create_cache());
        Some(Probe { dfa, cache })
    }

    /// Whether the pattern, anchored at `text`'s start, dies within `text` having
    /// matched nothing, and how many bytes it read.
    fn dies(&self, text: &[u8]) -> (bool, usize) {
        let Ok(mut cache) = self.cache.try_lock() else {
            return (false, 0);
        };
        let dfa = &self.dfa;
        let start = start::Config::new().anchored(Anchored::Yes);
        let Ok(mut state) = dfa.start_state(&mut cache, &start) else {
            return (false, 0);
        };
        for (i, &b) in text.iter().enumerate() {
            let Ok(next) = dfa.next_state(&mut cache, state, b) else {
                return (false, i + 1);
            };
            state = next;
            // A match is reported a byte late, as the dense DFA's; a start state is
            // read on, a quit one (there are none) not.
            if state.is_match() || state.is_quit() {
                return (false, i + 1);
            }
            if state.is_dead() {
                return (true, i + 1);
            }
        }
        (false, text.len())
    }
}

/// A rule's pattern with its counted repetitions loosened, as a dense DFA: what a
/// dense block's kill asks before the memo and the rule's own DFA (see
/// [`Rule::dies_loosened`]). Each repetition of a range wider than [`LOOSE`] reads on
/// without a bound (`[A-Za-z0-9_.-]{0,32}` as `[A-Za-z0-9_.-]*`): every match of the
/// pattern is one of this, so where this dies having matched nothing, the pattern
/// does too, by then. Without the counts its states are few (`quoted-key-value`'s
/// 35 KB against 398 KB, `netrc-password`'s 53 KB against 3.1 MB), and a state that
/// goes back to itself on a class (`[A-Za-z0-9_.-]*`) reads a run of it by table, not
/// a step a byte.
#[derive(Debug)]
struct Loosened {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
    /// Per state (by its index), the bytes on which it goes back to itself, where
    /// there are [`LOOP_MIN`] or more: a run of them is read by the class's scan, no
    /// byte's test waiting on the one before (`quoted-key-value`'s `[A-Za-z0-9_.-]*`).
    loops: Vec<Option<Box<Swallow>>>,
}

/// The fewest bytes on which a [`Loosened`] state goes back to itself for it to read
/// runs of them by table.
const LOOP_MIN: usize = 16;

/// Counted repetitions up to this wide are kept as counted by a [`Loosened`] DFA
/// (`{0,2}`, `{0,4}`: they cost few states).
const LOOSE: u32 = 4;

/// The most memory a [`Loosened`] DFA may take; a pattern whose loosened form needs
/// more has none (`secret-assignment`'s would be 425 KB, and 405 KB with even its
/// short ranges loosened: its size is its alternatives).
const LOOSENED_MAX: usize = 64 << 10;

impl Loosened {
    /// `None` where no repetition loosens, or the DFA would be over
    /// [`LOOSENED_MAX`] or a quarter of `full` bytes: the rule's own DFA reads as well.
    fn new(pattern: &str, full: usize) -> Option<Loosened> {
        let config = syntax::Config::new().unicode(false).utf8(false);
        let hir = syntax::parse_with(pattern, &config).ok()?;
        let loose = loosen(&hir);
        if loose == hir {
            return None;
        }
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
            .build_from_hir(&loose)
            .ok()?;
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .match_kind(MatchKind::LeftmostFirst)
                    .dfa_size_limit(Some(LOOSENED_MAX))
                    .determinize_size_limit(Some(4 * LOOSENED_MAX)),
            )
            .build_from_nfa(&nfa)
            .ok()?;
        if dfa.memory_usage() * 4 > full {
            return None;
        }
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        // Every state reachable from the start, and the bytes each loops on.
        let index = |s: StateID| s.as_usize() >> dfa.stride2();
        let mut loops: Vec<Option<Box<Swallow>>> = Vec::new();
        let mut seen = vec![false; dfa.memory_usage() / 4 + 1];
        let mut todo = vec![start];
        seen[index(start)] = true;
        while let Some(state) = todo.pop() {
            for b in 0..=255u8 {
                let next = dfa.next_state(state, b);
                if !seen[index(next)] {
                    seen[index(next)] = true;
                    todo.push(next);
                }
            }
            let class = ByteClass::looping(&dfa, state);
            if class
                .words()
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
                >= LOOP_MIN
            {
                if loops.len() <= index(state) {
                    loops.resize(index(state) + 1, None);
                }
                loops[index(state)] = Some(Box::new(Swallow::new(class)));
            }
        }
        Some(Loosened { dfa, start, loops })
    }

    /// Whether the loosened pattern, anchored at `text`'s start, dies within `text`
    /// having matched nothing.
    fn dies(&self, text: &[u8]) -> bool {
        let (dfa, mut state) = (&self.dfa, self.start);
        let mut i = 0;
        while i < text.len() {
            state = dfa.next_state(state, text[i]);
            i += 1;
            if dfa.is_special_state(state) {
                // A match is reported a byte late: one was made before this byte.
                if dfa.is_match_state(state) {
                    return false;
                }
                if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    return true;
                }
            }
            let index = state.as_usize() >> dfa.stride2();
            if let Some(Some(table)) = self.loops.get(index) {
                i += table.run(&text[i..]);
            }
        }
        false
    }
}

/// `hir` with every counted repetition wider than [`LOOSE`] left without its most, and
/// no capture groups.
fn loosen(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Repetition(r) => {
            let max = r.max.filter(|&max| max - r.min <= LOOSE);
            Hir::repetition(Repetition {
                min: r.min,
                max,
                greedy: r.greedy,
                sub: Box::new(loosen(&r.sub)),
            })
        }
        HirKind::Capture(c) => loosen(&c.sub),
        HirKind::Concat(hs) => Hir::concat(hs.iter().map(loosen).collect()),
        HirKind::Alternation(hs) => Hir::alternation(hs.iter().map(loosen).collect()),
        _ => hir.clone(),
    }
}

/// The `secret…` groups of a rule's pattern, found in a match already made: the
/// bounded backtracker run on exactly the match's bytes (the regex crate's `captures`
/// would first search for the match again with a lazy DFA, and allocate its slots on
/// every call), and the regex for matches longer than the backtracker takes.
#[derive(Debug)]
pub(crate) struct Secret {
    /// Where the match leaves the secret one place, its DFAs find it (see `span.rs`):
    /// built once the backtracker has read [`SPLITS_AFTER`] bytes of the rule's
    /// matches in the process, or at the first match past its reach (3-30 ms to build
    /// for a context rule, a few nanoseconds a byte of each match read in place of the
    /// backtracker's tens), `None` when the pattern has none.
    splits: OnceLock<Option<Splits>>,
    /// The bytes of this rule's matches the backtracker read, until the splits are
    /// built.
    read: AtomicU64,
    /// The pattern, for `splits`.
    pattern: String,
    pub backtracker: backtrack::BoundedBacktracker,
    pub regex: regex::bytes::Regex,
    /// The capture indexes of the `secret…` groups, in the order they are tried.
    pub groups: Vec<usize>,
}

/// How [`Secret::span`] reads a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// With the capture engines alone: the backtracker on the match, the regex's
    /// captures where it is longer than the backtracker takes (plain feeding, the
    /// tests' reference).
    Captures,
    /// A whole match (its end is the match's): the splits first.
    Whole,
    /// A match cut short at the rule's cap: the splits first where the regex's
    /// captures would be asked.
    Cut,
}

/// A scrubber's space for [`Secret::span`]: the backtracker's cache and slots, made for
/// the last rule that used them (`rule`) and reset for another.
#[derive(Clone, Debug)]
pub(crate) struct SecretCache {
    rule: usize,
    cache: backtrack::Cache,
    slots: Captures,
}

/// The most memory a [`SecretCache`] keeps between matches: a longer match's visited
/// set (up to 256 KiB) is dropped after it, so a scrubber holds at most this much.
const SECRET_KEEP: usize = 64 << 10;

/// The bytes of a rule's matches the backtracker reads, in a process, before its
/// splits are built (see [`Secret::splits`]): ~2-3 ms of the backtracker, about what
/// building them costs. A stream that redacts a few assignments never builds them
/// (`secret-assignment`'s took 8.4 ms, `quoted-key-value`'s 4.4, on the first match of
/// each); a stream dense with them builds them within its first few hundred. A match
/// past the backtracker's reach builds them at once.
const SPLITS_AFTER: u64 = 64 << 10;

impl Secret {
    /// The rule's splits, built now if they are not.
    pub fn splits(&self) -> Option<&Splits> {
        self.splits
            .get_or_init(|| Splits::new(&self.pattern, &self.groups))
            .as_ref()
    }

    /// The rule's splits, for a match of `len` bytes within the backtracker's reach:
    /// `None` (the backtracker reads it) until [`SPLITS_AFTER`] bytes were read so,
    /// then built.
    fn splits_for(&self, len: usize) -> Option<&Splits> {
        if let Some(built) = self.splits.get() {
            return built.as_ref();
        }
        let read = self.read.fetch_add(len as u64, Ordering::Relaxed);
        (read >= SPLITS_AFTER).then(|| self.splits()).flatten()
    }

    /// The span of the first participating `secret…` group in `text`, a match of rule
    /// `rule`'s pattern (this one), read as `reading` says; `None` when none takes part.
    pub fn span(
        &self,
        rule: usize,
        text: &[u8],
        reading: Reading,
        space: &mut Option<SecretCache>,
    ) -> Option<(usize, usize)> {
        // Past the backtracker's reach, the regex crate's PikeVM would read the match
        // (tens of KiB): the splits are built at once.
        let long = text.len() > self.backtracker.max_haystack_len();
        if reading == Reading::Whole {
            let splits = if long {
                self.splits()
            } else {
                self.splits_for(text.len())
            };
            if let Some(span) = splits.and_then(|s| s.span(text)) {
                return Some(span);
            }
        }
        if long {
            // The regex's captures: its match in `text` (anchored: from its start),
            // then the group on the highest-priority path through that match. The
            // splits answer for that path where every path agrees: a cut match of a
            // token run on to the cap (tens of KiB) read by DFAs, where the PikeVM
            // took ~10 ns a byte. A rule without splits is not searched twice.
            if let Some(splits) = (reading == Reading::Cut).then(|| self.splits()).flatten() {
                let end = self.regex.find(text)?.end();
                if let Some(span) = splits.span(&text[..end]) {
                    return Some(span);
                }
            }
            let caps = self.regex.captures(text)?;
            let m = self.groups.iter().find_map(|&g| caps.get(g))?;
            return Some((m.start(), m.end()));
        }
        let SecretCache { cache, slots, .. } = match space {
            Some(s) if s.rule == rule => s,
            // Another rule's: its cache's memory is reused.
            Some(s) => {
                s.cache.reset(&self.backtracker);
                s.slots = self.backtracker.create_captures();
                s.rule = rule;
                s
            }
            None => space.insert(SecretCache {
                rule,
                cache: self.backtracker.create_cache(),
                slots: self.backtracker.create_captures(),
            }),
        };
        let input = Input::new(text).anchored(Anchored::Yes);
        self.backtracker
            .try_search(cache, &input, slots)
            .expect("the match is within the backtracker's reach");
        let found = self.groups.iter().find_map(|&g| slots.get_group(g));
        if cache.memory_usage() > SECRET_KEEP {
            *space = None;
        }
        found.map(|m| (m.start, m.end))
    }
}

/// One rule, compiled.
#[derive(Debug)]
pub(crate) struct Rule {
    pub info: RuleInfo,
    pattern: String,
    /// Built on first use for built-in rules (most never see a keyword hit in a given
    /// process: compiling all of them up front cost ~300 ms of start-up), eagerly for
    /// custom rules so that a bad one is an error at construction. A built-in rule's
    /// is one per process, shared by every rule set (see [`builtin_matchers`]): a set
    /// made for a stream's literal secrets compiles none again. Unused by the literal
    /// rule, whose prefilter hit is the match.
    matcher: Arc<OnceLock<Matcher>>,
    /// Until the matcher is built: the pattern as a lazy DFA (see [`Rule::dies_uncompiled`]),
    /// built on the first hit that asks, `None` where it cannot be.
    probe: OnceLock<Option<Probe>>,
    /// The bytes the probe read (see [`PROBE_BUDGET`]).
    probed: AtomicU64,
    pub before: Option<BeforeRun>,
    pub left_guard: Option<ByteClass>,
    pub right_guard: Option<ByteClass>,
    /// What an overflow swallows: the rule's overflow class, if any, and the UTF-8
    /// continuation bytes (see [`ByteClass::with_continuations`]).
    pub overflow: Swallow,
    pub max_len: usize,
    pub validator: Option<Validator>,
    pub replacement: Vec<u8>,
}

/// Rules compiled for scanning; shared by every stream that uses them.
#[derive(Debug)]
pub struct RuleSet {
    pub(crate) rules: Vec<Rule>,
    pub(crate) literal_rule: u32,
    pub(crate) prefilter: Prefilter,
    /// For each keyword pattern of the prefilter, its rule (literal forms come after).
    pub(crate) keyword_rule: Vec<u32>,
    /// The `before` runs of every rule, for the hold-back.
    pub(crate) before_runs: BeforeRuns,
    /// Bytes kept before the emitted point (left guards, `before` runs, keyword overlap).
    pub(crate) context: usize,
    /// What a snapshot is bound to (see `snapshot`): a hash of every rule, literal
    /// secret and the replacement.
    pub(crate) fingerprint: [u8; 32],
}

/// What a keyword's gate is computed from: its rule's pattern and left guard, or the
/// run before the keyword its match starts with.
fn source(rule: &Rule) -> Source {
    match rule.before {
        None => Source::Pattern(
            rule.pattern.clone(),
            rule.left_guard.unwrap_or(ByteClass::EMPTY),
            rule.max_len,
        ),
        Some(run) => Source::Before(run),
    }
}

impl RuleSet {
    /// The prefilter of this set's keywords as a CPU without AVX-512 has it (Teddy's
    /// searchers, no sieve), with its gates (tests).
    #[cfg(test)]
    pub(crate) fn prefilter_without_sieve(&self) -> Prefilter {
        let keywords = self.prefilter.keywords();
        let exact: Vec<bool> = (0..keywords.len() as u32)
            .map(|k| self.prefilter.is_exact(k))
            .collect();
        let sources = (self.keyword_rule.iter())
            .map(|&r| Some(source(&self.rules[r as usize])))
            .collect();
        Prefilter::without_sieve_cased(&keywords, &exact).with_sources(&keywords, sources)
    }

    /// The built-in rules with the default replacement, compiled once per process.
    pub fn builtin() -> Arc<RuleSet> {
        static SET: OnceLock<Arc<RuleSet>> = OnceLock::new();
        SET.get_or_init(|| {
            Arc::new(RuleSet::new(&[], &[], DEFAULT_REPLACEMENT).expect("built-in rules compile"))
        })
        .clone()
    }

    /// The built-in rules plus `custom` rules and `literals`, with `replacement` as the
    /// template (`{rule}` is replaced by the rule ID).
    pub fn new(
        custom: &[RuleSpec],
        literals: &[Vec<u8>],
        replacement: &str,
    ) -> Result<RuleSet, Error> {
        let mut specs: Vec<RuleSpec> = builtin().map(RuleSpec::from).collect();
        let builtins = specs.len();
        for spec in custom {
            if specs.iter().any(|s| s.id == spec.id) || spec.id == LITERAL_RULE_ID {
                return Err(Error::rule(&spec.id, "duplicates the ID of another rule"));
            }
            let mut spec = spec.clone();
            spec.tier = Tier::Custom;
            specs.push(spec);
        }
        let mut rules = Vec::with_capacity(specs.len() + 1);
        // The built-in rules come first, in `builtin()`'s order, and keep their patterns
        // (a custom rule cannot take a built-in's ID): their matchers are the process's.
        for (i, spec) in specs.iter().enumerate() {
            let cell = builtin_matchers().get(i).cloned().unwrap_or_default();
            rules.push(compile(spec, replacement, cell)?);
        }
        let literal_rule = rules.len() as u32;
        rules.push(Rule {
            info: RuleInfo {
                id: LITERAL_RULE_ID.to_string(),
                tier: Tier::Literal,
                description: "a secret value registered at run time, or one of its encodings"
                    .into(),
            },
            pattern: String::new(),
            matcher: Arc::default(),
            probe: OnceLock::new(),
            probed: AtomicU64::new(0),
            before: None,
            left_guard: None,
            right_guard: None,
            overflow: Swallow::new(ByteClass::EMPTY.with_continuations()),
            max_len: 0,
            validator: None,
            replacement: render(replacement, LITERAL_RULE_ID),
        });

        let mut keywords: Vec<Vec<u8>> = Vec::new();
        let mut keyword_rule = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            for k in &spec.keywords {
                keywords.push(k.as_bytes().to_vec());
                keyword_rule.push(i as u32);
            }
        }
        let mut forms: Vec<Vec<u8>> = Vec::new();
        for secret in literals {
            for form in literal::forms(secret)? {
                if !forms.contains(&form) {
                    forms.push(form);
                }
            }
        }
        let sources = (keyword_rule.iter())
            .map(|&r| Some(source(&rules[r as usize])))
            .collect();
        // See `found_as_written`. The built-in rules' keywords come first, and are asked
        // once per process.
        let exact: Vec<bool> = (builtin_exact().iter().copied())
            .chain(specs[builtins..].iter().flat_map(found_as_written))
            .collect();
        let prefilter =
            Prefilter::with_cases(&keywords, &exact, &forms)?.with_sources(&keywords, sources);
        let before_runs = BeforeRuns::new(rules.iter().filter_map(|r| r.before));
        let max_before = rules
            .iter()
            .filter_map(|r| r.before.map(|b| b.max))
            .max()
            .unwrap_or(0);
        Ok(RuleSet {
            rules,
            literal_rule,
            prefilter,
            keyword_rule,
            before_runs,
            context: max_before + 2,
            fingerprint: super::snapshot::fingerprint(&specs, literals, replacement),
        })
    }

    /// The rules in priority order (the literal rule last).
    /// Build every rule's matcher now (they are otherwise built on first use); an error
    /// names the first rule that does not compile.
    pub fn compile_all(&self) -> Result<(), Error> {
        for rule in self.rules.iter().filter(|r| r.info.tier != Tier::Literal) {
            if rule.matcher.get().is_none() {
                let m = build_matcher(&rule.info.id, &rule.pattern)?;
                let _ = rule.matcher.set(m);
            }
        }
        Ok(())
    }

    pub fn rules(&self) -> Vec<RuleInfo> {
        self.rules.iter().map(|r| r.info.clone()).collect()
    }

    /// A hash of everything that decides this set's output: every rule's definition,
    /// each literal secret (hashed, never in clear) and the replacement template. Two
    /// sets with the same fingerprint scrub every stream alike.
    pub fn fingerprint(&self) -> [u8; 32] {
        self.fingerprint
    }

    /// How many of the rules' matchers are built so far (built-in ones on their first
    /// keyword hit in the process, custom ones with the set).
    pub fn matchers_built(&self) -> usize {
        self.rules
            .iter()
            .filter(|r| r.matcher.get().is_some())
            .count()
    }
}

/// Whether each keyword of the rule `spec` is found as written: the rule spells it one
/// way only. A rule whose match starts with a run before its keyword (`before`) is read
/// past that run (see [`Prefixes::after_run`]), where the run is of a fixed length or
/// cannot hold the keyword's first byte: then the rest of the match starts where the
/// keyword does (`AZDO` after Azure's 76 bytes, `:AA` after Telegram's 8 to 10 digits).
/// The pattern is parsed once, and only when a keyword has a letter.
fn found_as_written(spec: &RuleSpec) -> impl Iterator<Item = bool> + '_ {
    let letters = (spec.keywords.iter()).any(|k| k.bytes().any(|b| b.is_ascii_alphabetic()));
    let prefixes = letters.then(|| match &spec.before {
        None => Prefixes::of(&spec.pattern),
        Some((class, min, max)) => Prefixes::after_run(&spec.pattern, (class, *min, *max)),
    });
    let run =
        (spec.before.as_ref()).map(|(class, min, max)| (ByteClass::parsed(class), min == max));
    (spec.keywords.iter()).map(move |k| {
        let starts_rest = match run {
            None | Some((_, true)) => true,
            Some((Some(class), false)) => !k.bytes().next().is_some_and(|b| class.contains(b)),
            Some((None, false)) => false,
        };
        starts_rest
            && prefixes
                .as_ref()
                .is_some_and(|p| p.spelled_as_written(k.as_bytes()))
    })
}

/// [`found_as_written`] of each built-in rule's keywords, in `builtin()`'s order of
/// rules and their keywords: the patterns' parser is asked once per process (it was a
/// third of a new rule set's time).
fn builtin_exact() -> &'static [bool] {
    static EXACT: OnceLock<Vec<bool>> = OnceLock::new();
    EXACT.get_or_init(|| {
        let specs: Vec<RuleSpec> = builtin().map(RuleSpec::from).collect();
        specs.iter().flat_map(found_as_written).collect()
    })
}

/// One matcher cell per built-in rule, in `builtin()`'s order, shared by every rule set
/// of the process: a pattern is compiled once, on the first hit of its keywords in any
/// stream.
fn builtin_matchers() -> &'static [Arc<OnceLock<Matcher>>] {
    static CELLS: OnceLock<Vec<Arc<OnceLock<Matcher>>>> = OnceLock::new();
    CELLS.get_or_init(|| builtin().map(|_| Arc::default()).collect())
}

impl Rule {
    /// Whether the rule has a pattern (every rule but the literal one), compiled or not.
    pub(crate) fn has_pattern(&self) -> bool {
        self.info.tier != Tier::Literal
    }

    /// Whether the rule's matcher is built. Until it is, the stream asks a keyword
    /// hit's gate (the few bytes after it, read through the pattern's NFA) before it
    /// makes a candidate, which would build it: agent output names `input_tokens` and
    /// `max_tokens` in every stream, and `secret-assignment`'s and
    /// `quoted-key-value`'s DFAs took ~19 ms to build for hits that die two bytes on.
    /// Once built, hits go to candidates as they did (the gates' answers are the
    /// candidates' own: the output is the same either way).
    pub(crate) fn compiled(&self) -> bool {
        self.matcher.get().is_some()
    }

    /// Whether a candidate of this rule (with no run before its keyword) that starts
    /// at `text`'s first byte dies unmatched within `text`, as the rule's lazy DFA
    /// reads it: asked of a hit its gate lets through while the rule is not compiled,
    /// so that a hit that dies a few words on compiles nothing either (`machine
    /// learning` and `netrc-password`'s 3 MB DFA, 58 ms to build; `-----BEGIN
    /// CERTIFICATE` and `private-key-pem`'s, 22 ms). The lazy DFA is the compiled one's
    /// automaton built as it is read (the same NFA, match kind and anchoring): it dies
    /// where that one does. False where it cannot tell: text that ends, or reaches the
    /// rule's cap, first; a match on the way; a busy or failing cache; and every hit
    /// once the probe has read [`PROBE_BUDGET`] bytes of this rule's hits (a storm of
    /// `machine learning` compiles the rule, and its hits then die by the compiled
    /// DFA and the memo of dead paths, as any storm's).
    pub(crate) fn dies_uncompiled(&self, text: &[u8]) -> bool {
        if self.probed.load(Ordering::Relaxed) >= PROBE_BUDGET {
            return false;
        }
        let text = &text[..self.max_len.saturating_add(2).min(text.len())];
        let probe = self.probe.get_or_init(|| Probe::new(&self.pattern));
        probe.as_ref().is_some_and(|p| {
            let (dies, read) = p.dies(text);
            self.probed.fetch_add(read as u64, Ordering::Relaxed);
            dies
        })
    }

    /// Whether the candidate at `text`'s start (the bytes from it a kill may read) dies
    /// unmatched by the rule's loosened pattern (see [`Loosened`]), so by its own.
    /// False where it cannot tell (it has none, or `text` ends first). Builds the
    /// rule's matcher, if not yet built, to weigh the two.
    pub(crate) fn dies_loosened(&self, text: &[u8]) -> bool {
        let Some(m) = self.matcher() else {
            return false;
        };
        let loosened =
            (m.loosened).get_or_init(|| Loosened::new(&self.pattern, m.dfa.memory_usage()));
        let text = &text[..self.max_len.saturating_add(2).min(text.len())];
        loosened.as_ref().is_some_and(|l| l.dies(text))
    }

    /// The rule's matcher, built on first use. Built-in patterns are compiled by a test
    /// (`every_builtin_rule_compiles`), so building one here cannot fail.
    /// `None` for the literal rule, which has no pattern.
    pub(crate) fn matcher(&self) -> Option<&Matcher> {
        self.has_pattern().then(|| {
            self.matcher.get_or_init(|| {
                build_matcher(&self.info.id, &self.pattern).expect("built-in rules compile")
            })
        })
    }
}

/// Compile a pattern into its [`Matcher`], or say why it cannot be one.
pub(crate) fn build_matcher(id: &str, pattern: &str) -> Result<Matcher, Error> {
    let re = regex::bytes::RegexBuilder::new(&format!("(?-u)\\A(?:{})", pattern))
        .unicode(false)
        .build()
        .map_err(|e| Error::rule(id, format!("pattern does not compile: {e}")))?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .match_kind(MatchKind::LeftmostFirst)
                .dfa_size_limit(Some(16 << 20))
                .determinize_size_limit(Some(16 << 20)),
        )
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .thompson(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
        .build(pattern)
        .map_err(|e| Error::rule(id, format!("pattern does not compile: {e}")))?;
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .map_err(|e| Error::rule(id, format!("pattern has no anchored start: {e}")))?;
    let eoi = dfa.next_eoi_state(start);
    if dfa.is_match_state(eoi) {
        return Err(Error::rule(id, "pattern matches the empty string"));
    }
    let groups: Vec<usize> = re
        .capture_names()
        .enumerate()
        .filter(|(_, n)| n.is_some_and(|n| n.starts_with("secret")))
        .map(|(i, _)| i)
        .collect();
    let captures = if groups.is_empty() {
        None
    } else {
        let backtracker = backtrack::Builder::new()
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .thompson(thompson::Config::new().utf8(false))
            .build(&format!("(?:{pattern})"))
            .map_err(|e| Error::rule(id, format!("pattern does not compile: {e}")))?;
        Some(Secret {
            splits: OnceLock::new(),
            read: AtomicU64::new(0),
            pattern: pattern.to_string(),
            backtracker,
            regex: re,
            groups,
        })
    };
    Ok(Matcher {
        dfa,
        start,
        captures,
        loosened: OnceLock::new(),
    })
}

fn render(template: &str, id: &str) -> Vec<u8> {
    template.replace("{rule}", id).into_bytes()
}

fn valid_id(id: &str) -> bool {
    let b = id.as_bytes();
    (2..=64).contains(&b.len())
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
}

/// `spec` compiled; `matcher` is its matcher's cell (a built-in rule's is the
/// process's, see [`builtin_matchers`]).
fn compile(
    spec: &RuleSpec,
    replacement: &str,
    matcher: Arc<OnceLock<Matcher>>,
) -> Result<Rule, Error> {
    let id = spec.id.as_str();
    if !valid_id(id) {
        return Err(Error::rule(
            id,
            "an ID is 2-64 characters of a-z, 0-9 and '-', starting with a letter or digit",
        ));
    }
    if spec.keywords.is_empty() || spec.keywords.iter().any(|k| k.is_empty()) {
        return Err(Error::rule(
            id,
            "needs at least one keyword, and no empty keyword",
        ));
    }
    if spec.max_len == 0 || spec.max_len > MAX_RULE_LEN {
        return Err(Error::rule(
            id,
            format!("max_len must be between 1 and {MAX_RULE_LEN}"),
        ));
    }
    if spec.tier == Tier::Custom {
        let _ = matcher.set(build_matcher(id, &spec.pattern)?);
    }
    let before = match &spec.before {
        None => None,
        Some((class, min, max)) => {
            if *max == 0 || min > max || *max > MAX_BEFORE {
                return Err(Error::rule(
                    id,
                    format!("before needs 0 <= min <= max, 1 <= max <= {MAX_BEFORE}"),
                ));
            }
            let class = ByteClass::parse(id, "before class", class)?
                .ok_or_else(|| Error::rule(id, "before needs a class"))?;
            Some(BeforeRun {
                class,
                min: *min,
                max: *max,
            })
        }
    };
    Ok(Rule {
        info: RuleInfo {
            id: spec.id.clone(),
            tier: spec.tier,
            description: spec.description.clone(),
        },
        pattern: spec.pattern.clone(),
        matcher,
        probe: OnceLock::new(),
        probed: AtomicU64::new(0),
        before,
        left_guard: ByteClass::parse(id, "left_guard", &spec.left_guard)?,
        right_guard: ByteClass::parse(id, "right_guard", &spec.right_guard)?,
        overflow: Swallow::new(
            ByteClass::parse(id, "overflow", &spec.overflow)?
                .unwrap_or(ByteClass::EMPTY)
                .with_continuations(),
        ),
        max_len: spec.max_len,
        validator: spec.validator,
        replacement: render(replacement, id),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scrub::prefilter::{Hit, Kill, KILL_READS};
    use crate::scrub::sieve::Storm;
    use proptest::prelude::*;

    /// The exactness asked once per process is each built-in keyword's own, in the
    /// order a rule set lists its keywords (a custom rule's after them are asked apart).
    #[test]
    fn builtin_exactness_is_each_keywords_own_in_the_sets_order() {
        let custom = RuleSpec::custom("my-token", "MyTok_[0-9]{8}", vec!["MyTok_".into()]);
        let set = RuleSet::new(std::slice::from_ref(&custom), &[], DEFAULT_REPLACEMENT).unwrap();
        let specs: Vec<RuleSpec> = builtin().map(RuleSpec::from).chain([custom]).collect();
        let keywords: Vec<(&String, bool)> = (specs.iter())
            .flat_map(|spec| spec.keywords.iter().zip(found_as_written(spec)))
            .collect();
        assert_eq!(keywords.len(), set.keyword_rule.len());
        assert_eq!(builtin_exact().len(), keywords.len() - 1);
        for (k, &(keyword, own)) in keywords.iter().enumerate() {
            assert_eq!(
                set.prefilter.is_exact(k as u32),
                own && keyword.len() >= 3,
                "{keyword}"
            );
        }
        assert!(
            set.prefilter.is_exact(keywords.len() as u32 - 1),
            "MyTok_ as written"
        );
    }

    fn run(class: &str, min: usize, max: usize) -> BeforeRun {
        BeforeRun {
            class: ByteClass::parse("t", "class", class).unwrap().unwrap(),
            min,
            max,
        }
    }

    /// Whether `m`'s DFA, fed `text` from its start, dies before any match (what
    /// makes the stream drop a candidate unmatched).
    fn dies_unmatched(m: &Matcher, text: &[u8]) -> bool {
        let mut s = m.start;
        for &b in text {
            s = m.dfa.next_state(s, b);
            if m.dfa.is_dead_state(s) || m.dfa.is_quit_state(s) {
                return true;
            }
            if m.dfa.is_match_state(s) {
                return false;
            }
        }
        false
    }

    /// The built-in rules a dense block's kill reads loosened (see [`Loosened`]): their
    /// index in the built-in set and their keywords. Every built-in rule is compiled.
    fn loosened_rules() -> &'static [(usize, Vec<Vec<u8>>)] {
        static RULES: OnceLock<Vec<(usize, Vec<Vec<u8>>)>> = OnceLock::new();
        RULES.get_or_init(|| {
            let set = RuleSet::builtin();
            builtin()
                .filter_map(|def| {
                    let i = set.rules.iter().position(|r| r.info.id == def.id)?;
                    let r = &set.rules[i];
                    r.dies_loosened(b"");
                    r.matcher()?.loosened.get()?.as_ref()?;
                    Some((
                        i,
                        def.keywords.iter().map(|k| k.as_bytes().to_vec()).collect(),
                    ))
                })
                .collect()
        })
    }

    /// The rules that read loosened are those whose counts cost their DFA most, and
    /// not the one whose loosened form is as large as its own.
    #[test]
    fn rules_with_wide_counts_are_read_loosened() {
        let set = RuleSet::builtin();
        let ids: Vec<&str> = (loosened_rules().iter())
            .map(|(i, _)| set.rules[*i].info.id.as_str())
            .collect();
        for id in [
            "quoted-key-value",
            "netrc-password",
            "cli-password-flag",
            "url-userinfo",
        ] {
            assert!(ids.contains(&id), "{id} has no loosened DFA: {ids:?}");
        }
        assert!(!ids.contains(&"secret-assignment"));
    }

    /// In a storm of `token` and a random byte, the loosened `quoted-key-value` kills
    /// nearly every hit its own DFA kills within the bytes a kill reads (each reads a
    /// run of `[A-Za-z0-9_.-]` to a byte that is no quote; a run over 32 bytes is
    /// killed by the count alone), and no other.
    #[test]
    fn a_token_storm_dies_by_the_loosened_pattern() {
        let set = RuleSet::builtin();
        let r = (set.rules.iter())
            .find(|r| r.info.id == "quoted-key-value")
            .expect("the rule");
        let m = r.matcher().expect("a pattern");
        let text = crate::scrub::prefilter::varied_storm(b"token", 1 << 16);
        let (mut dead, mut loosened) = (0, 0);
        for at in (0..text.len()).filter(|&i| text[i..].starts_with(b"token")) {
            let hit = &text[at..(at + KILL_READS).min(text.len())];
            let dies = dies_unmatched(m, hit);
            dead += usize::from(dies);
            if r.dies_loosened(hit) {
                assert!(dies, "{:?}", String::from_utf8_lossy(hit));
                loosened += 1;
            }
        }
        assert!(dead > 9_000, "{dead} hits die");
        assert!(loosened * 100 >= dead * 99, "{loosened} of {dead}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A hit a rule's loosened pattern kills, its own DFA kills too, matching
        /// nothing: a keyword of the rule, as written or upper-cased, after a run of
        /// token bytes where the rule's match starts with one (`before`), then bytes
        /// of the patterns' classes and the bytes that end their runs.
        #[test]
        fn loosened_patterns_kill_only_what_their_rules_kill(
            which in any::<prop::sample::Index>(),
            keyword in any::<prop::sample::Index>(),
            upper in any::<bool>(),
            run in "[A-Za-z0-9+/=_-]{0,80}",
            tail in "[a-zA-Z0-9_.:=\"'` \t\n,;<>/{}()\\[\\]@#$%+!~-]{0,100}",
        ) {
            let set = RuleSet::builtin();
            let (i, keywords) = which.get(loosened_rules());
            let r = &set.rules[*i];
            let k = keyword.get(keywords);
            let k = if upper { k.to_ascii_uppercase() } else { k.clone() };
            let run = if r.before.is_some() { run.as_bytes() } else { &[][..] };
            let text = [run, &k[..], tail.as_bytes()].concat();
            if r.dies_loosened(&text) {
                let m = r.matcher().expect("a pattern");
                let text = &text[..(r.max_len + 2).min(text.len())];
                prop_assert!(dies_unmatched(m, text), "{}: {:?}", r.info.id, String::from_utf8_lossy(text));
            }
        }
    }

    /// A built-in keyword found as written matches no other spelling: with any of its
    /// letters in the other case (one at a time, or all of them), its rule's DFA dies
    /// within the keyword, read after the longest run its rule may start with (`before`)
    /// where it has one. And the keywords of the case-sensitive token formats are among
    /// those found as written.
    #[test]
    fn keywords_found_as_written_have_no_other_spelling() {
        let set = RuleSet::builtin();
        let keywords = set.prefilter.keywords();
        let mut exact = Vec::new();
        for (k, keyword) in keywords.iter().enumerate() {
            if !set.prefilter.is_exact(k as u32) {
                continue;
            }
            exact.push(String::from_utf8_lossy(keyword).into_owned());
            let rule = &set.rules[set.keyword_rule[k] as usize];
            let m = rule.matcher().unwrap();
            let flip = |b: u8| b ^ (u8::from(b.is_ascii_alphabetic()) << 5);
            let mut others = vec![keyword.to_ascii_lowercase(), keyword.to_ascii_uppercase()];
            for i in (0..keyword.len()).filter(|&i| keyword[i].is_ascii_alphabetic()) {
                let mut other = keyword.clone();
                other[i] = flip(other[i]);
                others.push(other);
            }
            // A dense block leaves the case of such a keyword's first 8 bytes to its
            // gate: the gate's spellings hold only the written one.
            let gate = set.prefilter.gate(k as u32).expect("a gate");
            let written = crate::scrub::stream::head(keyword) & gate.mask;
            assert_eq!(gate.spellings, vec![written], "{}", rule.info.id);
            let run: Vec<u8> = match &rule.before {
                Some(BeforeRun { class, max, .. }) => {
                    let b = (0..=255u8).find(|&b| class.contains(b)).expect("a byte");
                    vec![b; *max]
                }
                None => Vec::new(),
            };
            for other in others.iter().filter(|o| *o != keyword) {
                assert!(
                    dies_unmatched(m, &[&run[..], other].concat()),
                    "{}: {:?} would match",
                    rule.info.id,
                    String::from_utf8_lossy(other)
                );
            }
        }
        for want in [
            "AKIA",
            "ghp_",
            "AAAAAAAAAAAAAAAAAAAAA",
            "xoxb-",
            "sk-ant-api03-",
            "glpat-",
            "AZDO",
            ":AA",
            "-us",
        ] {
            assert!(
                exact.iter().any(|k| k == want),
                "{want} is found ignoring case"
            );
        }
        // Keywords of rules that ignore case stay so.
        for folded in ["x-algolia-api-key", "aws_session_token"] {
            assert!(
                !exact.iter().any(|k| k == folded),
                "{folded} is found as written"
            );
        }
        eprintln!(
            "{} of {} keywords found as written",
            exact.len(),
            keywords.len()
        );
    }

    /// `n` strings of 1 to `most` bytes of `alphabet`, from a fixed xorshift seeded by
    /// `k`, each with the state it was drawn from.
    fn storm_strings(
        k: u64,
        alphabet: &[u8],
        n: usize,
        most: u64,
    ) -> impl Iterator<Item = (u64, Vec<u8>)> + '_ {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ k;
        (0..n).map(move |_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % most) as usize;
            let pick = |i: usize| alphabet[((seed >> (3 * i % 60)) as usize + i) % alphabet.len()];
            (seed, (0..len).map(pick).collect())
        })
    }

    /// Every built-in keyword's gate drops a hit only when the stream would drop its
    /// candidate unmatched: the rule's DFA dies, with no match, within the bytes the
    /// gate read, or the left guard blocks it. Spelled as given, lowered, upper-cased
    /// and mixed, after a byte of every kind, followed by every byte, by itself
    /// repeated (a storm), and by strings of the bytes storms are made of.
    #[test]
    fn gates_drop_only_hits_that_cannot_match() {
        let set = RuleSet::builtin();
        let (mut dropped, mut checked) = (0, 0);
        for (k, keyword) in set.prefilter.keywords().iter().enumerate() {
            let rule = &set.rules[set.keyword_rule[k] as usize];
            if rule.before.is_some() {
                continue;
            }
            let exact = keyword.len() < 3;
            let gate = set.prefilter.gate(k as u32);
            let m = rule.matcher().unwrap();
            let mixed: Vec<u8> = keyword
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    if i % 2 == 0 {
                        b.to_ascii_uppercase()
                    } else {
                        b.to_ascii_lowercase()
                    }
                })
                .collect();
            let spellings: Vec<Vec<u8>> = if exact {
                vec![keyword.clone()]
            } else {
                vec![
                    keyword.clone(),
                    keyword.to_ascii_lowercase(),
                    keyword.to_ascii_uppercase(),
                    mixed,
                ]
            };
            // After the keyword: every byte; the keyword again and again (a storm);
            // and strings of storm-like bytes, from a fixed xorshift.
            let alphabet = b"aZ09_-.:= \"'<>/\\\nsSkK";
            let mut follows: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
            for n in 1..=4 {
                follows.push(keyword.repeat(n));
                follows.push(keyword.to_ascii_uppercase().repeat(n));
            }
            for (seed, mut f) in storm_strings(k as u64, alphabet, 64, 20) {
                if seed & 1 == 0 {
                    f.splice(0..0, keyword.iter().copied());
                }
                follows.push(f);
            }
            for spelled in &spellings {
                for prev in [b' ', b'a', b'Z', b'_', b'-', b'9', b'n'] {
                    for follow in &follows {
                        let text = [&[prev][..], spelled, follow].concat();
                        let opens = gate.is_none_or(|g| g.opens(&text, 1, keyword.len()));
                        checked += 1;
                        if !opens {
                            dropped += 1;
                            let blocked = rule.left_guard.is_some_and(|g| g.contains(prev));
                            assert!(
                                blocked || dies_unmatched(m, &text[1..]),
                                "{}: {:?} dropped",
                                rule.info.id,
                                String::from_utf8_lossy(&text)
                            );
                        }
                    }
                }
            }
        }
        // The gates do drop hits (most bytes cannot follow most keywords).
        assert!(dropped * 2 > checked, "{dropped} of {checked}");
    }

    /// A storm's run cap drops a hit only where every rule of its keyword dies: the
    /// rule with a bounded run after the keyword by the run going past it, the rule
    /// without one (it reads only `:` or `=` right after the keyword, then an
    /// alphanumeric byte) by the two bytes there. (The drop by the runs' ends drops
    /// none of these: no byte of them lies outside what the rules read.)
    #[test]
    fn storm_caps_drop_a_hit_only_where_each_rule_dies() {
        let keyword = vec!["qzxtok".to_string()];
        let quoted = r#"qzxtok[A-Za-z0-9_=.-]{0,32}"[a-z]{4}""#;
        let rules = [
            RuleSpec::custom("qz-quoted", quoted, keyword.clone()),
            RuleSpec::custom("qz-assign", "qzxtok[:=][A-Za-z0-9]{30,60}", keyword),
        ];
        let set = RuleSet::new(&rules, &[], DEFAULT_REPLACEMENT).unwrap();
        let k = set.keyword_rule.len() as u32 - 2;
        assert_eq!(set.prefilter.keywords()[k as usize], b"qzxtok");
        let storm = set.prefilter.storm(k).cloned().expect("a storm drop");
        assert_eq!(storm.cap_n, 33);
        let text = |after: &str| {
            let pad = " ".repeat(128);
            format!("{pad}qzxtok{after}{pad}").into_bytes()
        };
        let dies = |after: &str| storm.dies_one(&text(after), 128);
        let run = "A1".repeat(20);
        // Forty bytes of the class: the first rule dies, the second at `A`.
        assert!(dies(&run));
        // After `=`, the second reads on (and matches), but not after `=_`.
        assert!(!dies(&format!("={run}")));
        assert!(dies(&format!("=_{run}")));
        let set = Arc::new(set);
        let out = crate::scrub::stream::scrub(&set, format!("qzxtok={run} ").as_bytes());
        assert!(!out.windows(run.len()).any(|w| w == run.as_bytes()));
        // Thirty-two bytes: the first rule may still read its quote.
        assert!(!dies(&run[..32]));
        assert!(dies(&run[..33]));
    }

    /// Every built-in keyword's storm drop (see `prefilter::Dense::storm`) drops a
    /// position only when every hit the sieve would report there is of a rule whose
    /// DFA dies unmatched from the hit's start: the keyword in any case, after a byte
    /// of every kind, followed by every byte, by itself, by strings of the bytes
    /// storms are made of, and then by runs of one byte (of the class or not).
    #[test]
    fn storm_drops_drop_only_hits_that_cannot_match() {
        let set = RuleSet::builtin();
        let (mut storms, mut dropped, mut checked) = (0, 0, 0);
        let alphabet = b"aZ09_-.:= \"'<>/\\\nsSkKpPoOnNlLrR";
        for (k, keyword) in set.prefilter.keywords().iter().enumerate() {
            let Some(storm) = set.prefilter.storm(k as u32).cloned() else {
                continue;
            };
            storms += 1;
            let spellings = [
                keyword.clone(),
                keyword.to_ascii_lowercase(),
                keyword.to_ascii_uppercase(),
            ];
            let mut follows: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
            for n in 1..=3 {
                follows.push(keyword.repeat(n));
            }
            follows.extend(storm_strings(k as u64, alphabet, 48, 60).map(|(_, f)| f));
            // What the keywords that hold this one need around it: the rest of each
            // that starts with it (then class bytes), and the start of each that holds
            // it further in.
            let lower = keyword.to_ascii_lowercase();
            let mut befores: Vec<Vec<u8>> = [b" ", b"a", b"Z", b"_", b"-", b"9", b"x", b"$"]
                .map(|b| b.to_vec())
                .to_vec();
            // Runs before it, of letters and digits and of hex digits, around the
            // lengths rules need.
            for n in [
                10, 11, 12, 31, 32, 33, 35, 36, 37, 55, 56, 57, 75, 76, 77, 100,
            ] {
                for unit in [b"aZ09", b"0a9f"] {
                    befores.push(unit.repeat(n / 4 + 1)[..n].to_vec());
                }
            }
            for other in set.prefilter.keywords() {
                let o = other.to_ascii_lowercase();
                if o.len() > lower.len() && o.starts_with(&lower) {
                    for tail in [&b"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"[..], b""] {
                        follows.push([&other[lower.len()..], tail].concat());
                    }
                }
                if let Some(off) = (1..o.len()).find(|&i| o[i..].starts_with(&lower)) {
                    befores.push(other[..off].to_vec());
                }
            }
            // Every byte after the keyword with the short befores; the rest with all.
            let (bytes, rest) = follows.split_at(256);
            let pairs = (befores
                .iter()
                .take(8)
                .flat_map(|p| bytes.iter().map(move |f| (p, f))))
            .chain(
                befores
                    .iter()
                    .flat_map(|p| rest.iter().map(move |f| (p, f))),
            );
            let pairs: Vec<_> = pairs.collect();
            for spelled in &spellings {
                for &(prev, follow) in &pairs {
                    for pad in [b' ', b'a'] {
                        // The keyword well in: the bytes before it are read.
                        let at = 128;
                        let mut text = vec![b' '; at - prev.len()];
                        text.extend([&prev[..], spelled, follow].concat());
                        text.resize(text.len() + 200, pad);
                        checked += 1;
                        if !storm.drops_one(&text, at) {
                            continue;
                        }
                        dropped += 1;
                        // The hits of the flag at the keyword's signature.
                        for (k2, h) in set.prefilter.hits_by_signature_at(&text, at + storm.off) {
                            let rule = &set.rules[set.keyword_rule[k2 as usize] as usize];
                            let m = rule.matcher().unwrap();
                            // A rule with a run before its keyword starts no
                            // candidate where the run rules it out.
                            let gate = set.prefilter.gate(k2);
                            let dies = match rule.before {
                                None => dies_unmatched(m, &text[h..]),
                                Some(_) => gate.is_some_and(|g| g.run_rules_out(&text, h)),
                            };
                            assert!(
                                dies,
                                "{}: {:?} dropped",
                                rule.info.id,
                                String::from_utf8_lossy(&text)
                            );
                        }
                    }
                }
            }
        }
        eprintln!("{storms} keywords with a storm drop; {dropped} of {checked} positions dropped");
        // Storms of the common keywords are dropped in bulk, and most positions.
        assert!(storms >= 40, "{storms} keywords with a storm drop");
        assert!(dropped * 4 > checked, "{dropped} of {checked}");
        for want in [
            "ghp_", "sk-", "eyJ", "xoxb-", "AKIA", "glpat-", "sk-lf-", "azdo_pat",
        ] {
            let k = (set.prefilter.keywords().iter())
                .position(|k| k == want.as_bytes())
                .unwrap();
            assert!(
                set.prefilter.storm(k as u32).is_some(),
                "{want}: no storm drop"
            );
        }
    }

    /// A rule's lazy DFA dies reading a text exactly where its compiled DFA dies
    /// unmatched: every built-in rule with no run before its keyword, each keyword
    /// followed by every byte, by storms of itself, and by strings of the bytes rules
    /// care about (from a fixed xorshift).
    #[test]
    fn probes_die_where_the_compiled_dfas_die() {
        let set = RuleSet::builtin();
        let alphabet = b"aZ09_-.:=@/ \"'<>\\\n\tsSkKPp{}[]";
        let (mut died, mut read) = (0, 0);
        for (k, keyword) in set.prefilter.keywords().iter().enumerate() {
            let rule = &set.rules[set.keyword_rule[k] as usize];
            if rule.before.is_some() {
                continue;
            }
            let probe = Probe::new(&rule.pattern).expect("a lazy DFA");
            let m = rule.matcher().unwrap();
            let mut seed = 0x2545_f491_4f6c_dd1du64 ^ k as u64;
            let mut follows: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
            follows.extend((1..=3).map(|n| keyword.repeat(n)));
            for _ in 0..48 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let len = 1 + (seed % 48) as usize;
                follows.push(
                    (0..len)
                        .map(|i| alphabet[((seed >> (i % 50)) as usize + 7 * i) % alphabet.len()])
                        .collect(),
                );
            }
            for follow in follows {
                let text = [&keyword[..], &follow].concat();
                let (dies, _) = probe.dies(&text);
                assert_eq!(
                    dies,
                    dies_unmatched(m, &text),
                    "{}: {:?}",
                    rule.info.id,
                    String::from_utf8_lossy(&text)
                );
                (died, read) = (died + usize::from(dies), read + 1);
            }
        }
        // Most of them die (most bytes cannot follow most keywords).
        assert!(died * 2 > read, "{died} of {read}");
    }

    /// A rule's probe answers until it has read [`PROBE_BUDGET`] bytes of the rule's
    /// hits, and then no more (the rule is compiled at the next hit): a set's own
    /// rules, counted from nothing.
    #[test]
    fn probes_compile_their_rule_once_they_have_read_enough() {
        // A set of its own (a literal), whose rules' probes have read nothing.
        let netrc = |set: &RuleSet| -> usize {
            (set.rules.iter())
                .position(|r| r.info.id == "netrc-password")
                .unwrap()
        };
        let set = RuleSet::new(&[], &[b"correct-horse-battery".to_vec()], "[R]").unwrap();
        let rule = &set.rules[netrc(&set)];
        let hit = b"machine learning model\n";
        let mut hits = 0;
        while rule.probed.load(Ordering::Relaxed) < PROBE_BUDGET {
            assert!(rule.dies_uncompiled(hit), "hit {hits}");
            hits += 1;
            assert!(hits < 10_000, "{hits} hits read and no end");
        }
        assert!(!rule.dies_uncompiled(hit));
        // A hit that may match is never dropped.
        let other = RuleSet::new(&[], &[b"purple-monkey-dishwasher".to_vec()], "[R]").unwrap();
        let rule = &other.rules[netrc(&other)];
        assert!(!rule.dies_uncompiled(b"machine github.com login octocat password x1y2z3"));
        assert!(
            !rule.dies_uncompiled(b"machine github.com login"),
            "cut short"
        );
    }

    /// A rule's splits are built once its backtracker has read [`SPLITS_AFTER`] bytes
    /// of its whole matches, and not before; the span is the same either way.
    #[test]
    fn splits_are_built_once_the_backtracker_has_read_enough() {
        let m = build_matcher("t", r"token=(?P<secret>[a-z0-9]{8,})").unwrap();
        let secret = m.captures.as_ref().unwrap();
        let text = b"token=abcd1234efgh";
        let mut space = None;
        let mut read = 0;
        while read < SPLITS_AFTER {
            assert_eq!(
                secret.span(0, text, Reading::Whole, &mut space),
                Some((6, 18))
            );
            assert!(secret.splits.get().is_none(), "built after {read} bytes");
            read += text.len() as u64;
        }
        assert_eq!(
            secret.span(0, text, Reading::Whole, &mut space),
            Some((6, 18))
        );
        assert!(secret.splits.get().is_some_and(Option::is_some));
    }

    /// Every class of the built-in rules (runs before keywords, guards, overflows) is
    /// read from its parse, to the same bytes the compiled regex matches.
    #[test]
    fn builtin_classes_are_parsed_to_the_bytes_they_match() {
        let mut read = 0;
        for spec in builtin().map(RuleSpec::from) {
            let before = spec.before.as_ref().map(|b| b.0.clone());
            let classes = [&spec.left_guard, &spec.right_guard, &spec.overflow];
            for class in classes.into_iter().chain(before.as_ref()) {
                if class.is_empty() {
                    continue;
                }
                let compiled = ByteClass::compiled(&spec.id, "class", class).unwrap();
                assert_eq!(ByteClass::parsed(class), compiled, "{}: {class:?}", spec.id);
                read += 1;
            }
        }
        assert!(read > 300, "{read} classes");
    }

    /// A class string: a bracket expression (ranges, escapes, negation, nested
    /// classes), a Perl class, one byte, or something else a class could be mistaken
    /// for (two bytes, an alternation, a group, a repetition, an unbalanced bracket).
    fn class_string() -> impl Strategy<Value = String> {
        let item = prop_oneof![
            // One byte of these (a proptest regex), or a range of two letters.
            "[a-zA-Z0-9_ .:=@/+-]",
            "[a-z]-[a-z]",
            Just(r"\s".to_string()),
            Just(r"\d".to_string()),
            Just(r"\w".to_string()),
            Just(r"\x00-\x1f".to_string()),
            Just(r"\]".to_string()),
            Just(r"\\".to_string()),
            Just("[:alpha:]".to_string()),
            Just("[^a]".to_string()),
        ];
        let bracket = (any::<bool>(), prop::collection::vec(item, 1..5))
            .prop_map(|(neg, items)| format!("[{}{}]", if neg { "^" } else { "" }, items.concat()));
        const OTHER: [&str; 16] = [
            r"\s",
            r"\S",
            r"\W",
            ".",
            "(?s:.)",
            r"(?u:\w)",
            "$",
            "[a-z]{2}",
            "[a-z]|[0-9]",
            "[a-z]|ab",
            "([a-z])",
            "[a-z]+",
            "ab",
            "[a-z",
            r"[^\x00-\xff]",
            "a)|(b",
        ];
        prop_oneof![
            4 => bracket,
            1 => "[a-z0-9]",
            1 => prop::sample::select(&OTHER[..]).prop_map(str::to_string),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// A class read from its parse is the set of bytes the compiled regex matches
        /// one at a time, and [`ByteClass::parse`] answers exactly as the compiled
        /// regex alone does, errors included.
        #[test]
        fn classes_read_from_their_parse_are_the_compiled_ones(class in class_string()) {
            let compiled = ByteClass::compiled("t", "class", &class);
            if let Some(set) = ByteClass::parsed(&class) {
                if set.0 != [0; 4] {
                    prop_assert_eq!(Ok(Some(set)), compiled.clone());
                }
            }
            prop_assert_eq!(ByteClass::parse("t", "class", &class), compiled);
        }
    }

    /// The secret span of the regex crate's `captures` (what [`Secret::span`] stands
    /// in for), on a whole match.
    fn captured(secret: &Secret, text: &[u8]) -> Option<(usize, usize)> {
        let caps = secret.regex.captures(text)?;
        let m = secret.groups.iter().find_map(|&g| caps.get(g))?;
        Some((m.start(), m.end()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every rule with `secret…` groups finds the same secret in a match as the
        /// regex crate's `captures` does, matches past the backtracker's reach (found
        /// by the regex instead) included: a keyword of the rule, bytes the patterns
        /// care about, then a run of token bytes up to 3,000 long.
        #[test]
        fn secret_spans_are_the_regex_crates(
            rule in any::<prop::sample::Index>(),
            keyword in any::<prop::sample::Index>(),
            middle in "[ =:\"'`<>_.a-zA-Z0-9\\-]{0,12}",
            run in 0usize..3000,
            tail in "[ \"'<>,)}a-z0-9]{0,4}",
        ) {
            let set = RuleSet::builtin();
            let with: Vec<&Rule> = set
                .rules
                .iter()
                .filter(|r| r.matcher().is_some_and(|m| m.captures.is_some()))
                .collect();
            let rule = rule.get(&with);
            let secret = rule.matcher().and_then(|m| m.captures.as_ref()).unwrap();
            let def = builtin().find(|d| d.id == rule.info.id).unwrap();
            let keyword = if def.keywords.is_empty() { "" } else { keyword.get(def.keywords) };
            let token: Vec<u8> = (0..run).map(|i| b"aZ7_+/=-9k"[i % 10]).collect();
            let text = [keyword.as_bytes(), middle.as_bytes(), &token, tail.as_bytes()].concat();
            if let Some(m) = secret.regex.find(&text) {
                let whole = &text[..m.end()];
                let mut space = None;
                prop_assert_eq!(secret.span(0, whole, Reading::Captures, &mut space), captured(secret, whole));
                // The space is reused.
                prop_assert_eq!(secret.span(0, whole, Reading::Captures, &mut space), captured(secret, whole));
                // The splits' answer, where they give one, is the same.
                let split = secret.splits().and_then(|s| s.span(whole));
                if split.is_some() {
                    prop_assert_eq!(split, captured(secret, whole));
                }
                prop_assert_eq!(secret.span(0, whole, Reading::Whole, &mut space), captured(secret, whole));
                // Cut short anywhere (an overflow), read as the capture engines read it.
                for cut in [&text[..], &text[..text.len() * 2 / 3]] {
                    let reference = secret.span(0, cut, Reading::Captures, &mut space);
                    prop_assert_eq!(secret.span(0, cut, Reading::Cut, &mut space), reference);
                }
            }
        }
    }

    /// Every match in every built-in vector of a rule with `secret…` groups, at every
    /// start the pattern matches from: where the splits give an answer it is the
    /// regex crate's, and they give one for most (the contexts of `http-bearer`,
    /// `secret-assignment` and their like). Texts with a blank or a quote doubled
    /// and a value cut short are matched too.
    #[test]
    fn splits_find_the_secret_the_regex_crate_does() {
        let set = RuleSet::builtin();
        let (mut asked, mut answered) = (0, 0);
        let mut answered_by_rule = std::collections::BTreeMap::new();
        for v in crate::scrub::rules::vectors() {
            let rule = set.rules.iter().find(|r| r.info.id == v.rule.id).unwrap();
            let Some(secret) = rule.matcher().and_then(|m| m.captures.as_ref()) else {
                continue;
            };
            let t = v.text.as_bytes();
            let mut texts = vec![t.to_vec()];
            for (k, &b) in t.iter().enumerate() {
                if matches!(b, b' ' | b'"' | b'\'' | b'=' | b':') {
                    texts.push([&t[..k], &[b], &t[k..]].concat());
                }
            }
            texts.push(t[..t.len() * 2 / 3].to_vec());
            for text in &texts {
                for start in 0..text.len() {
                    let Some(m) = secret.regex.find(&text[start..]) else {
                        continue;
                    };
                    let whole = &text[start..start + m.end()];
                    asked += 1;
                    let Some(span) = secret.splits().and_then(|s| s.span(whole)) else {
                        continue;
                    };
                    answered += 1;
                    *answered_by_rule.entry(v.rule.id).or_insert(0) += 1;
                    assert_eq!(
                        Some(span),
                        captured(secret, whole),
                        "{}: {:?}",
                        v.rule.id,
                        String::from_utf8_lossy(whole)
                    );
                }
            }
        }
        assert!(answered * 10 >= asked * 7, "{answered} of {asked} answered");
        for id in ["http-bearer", "secret-assignment"] {
            assert!(
                answered_by_rule.get(id).is_some_and(|&n| n >= 10),
                "{id}: {answered_by_rule:?}"
            );
        }
    }

    /// A match cut at its rule's cap past the backtracker's reach (a token run on for
    /// tens of KiB) is read by the splits, on the regex's match in it: the span is the
    /// regex crate's.
    #[test]
    fn cut_matches_past_the_backtrackers_reach_are_read_by_the_splits() {
        let set = RuleSet::builtin();
        for (id, head) in [
            ("http-bearer", "Authorization: Bearer "),
            ("secret-assignment", "token = "),
        ] {
            let rule = set.rules.iter().find(|r| r.info.id == id).unwrap();
            let secret = rule.matcher().and_then(|m| m.captures.as_ref()).unwrap();
            let reach = secret.backtracker.max_haystack_len();
            for len in [head.len() + reach + 1, 20_000] {
                let token = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789".repeat(len / 45 + 1);
                let text = format!("{head}{token}");
                let text = &text.as_bytes()[..len];
                let m = secret.regex.find(text).expect(id);
                let split = secret.splits().and_then(|s| s.span(&text[m.range()]));
                assert!(split.is_some(), "{id}: the splits answer");
                let mut space = None;
                let span = secret.span(0, text, Reading::Cut, &mut space);
                assert_eq!(span, captured(secret, text), "{id} {len}");
                assert_eq!(span, secret.span(0, text, Reading::Captures, &mut space));
                assert_eq!(span.map(|s| s.1), Some(len), "{id}");
            }
        }
    }

    /// A match longer than the backtracker takes (about 2,400 bytes for
    /// `secret-assignment`) is found by the regex, on either side of that length; the
    /// space a long match needed is let go.
    #[test]
    fn secret_spans_past_the_backtrackers_reach_are_the_regex_crates() {
        let set = RuleSet::builtin();
        let rule = set
            .rules
            .iter()
            .find(|r| r.info.id == "secret-assignment")
            .unwrap();
        let secret = rule.matcher().and_then(|m| m.captures.as_ref()).unwrap();
        let reach = secret.backtracker.max_haystack_len();
        assert!(reach < 3000, "{reach}");
        for len in [reach - 1, reach, reach + 1, 3000] {
            let text = format!(
                "token = \"{}\"",
                "aZ7_".repeat(len).get(..len - 10).unwrap()
            );
            let mut space = None;
            let span = secret.span(0, text.as_bytes(), Reading::Captures, &mut space);
            assert_eq!(span, Some((9, len - 1)), "{len}");
            assert_eq!(span, captured(secret, text.as_bytes()), "{len}");
            // The visited set of a match this long is not kept.
            assert!(space.is_none(), "{len}");
        }
        // A short match's is, and is remade for another rule.
        let mut space = None;
        assert_eq!(
            secret.span(7, b"token = \"aZ7_aZ7_\"", Reading::Captures, &mut space),
            Some((9, 17))
        );
        assert!(space
            .as_ref()
            .is_some_and(|s| s.rule == 7 && s.cache.memory_usage() <= SECRET_KEEP));
        assert_eq!(
            secret.span(8, b"token = \"aZ7_aZ7_\"", Reading::Captures, &mut space),
            Some((9, 17))
        );
        assert!(space.as_ref().is_some_and(|s| s.rule == 8));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// A dense span reports a hit exactly when its keyword's gate, asked afresh,
        /// lets it through: a gate's answer reused for a hit reading the same bytes
        /// (a storm's) is the answer it would give. Storms of one to three built-in
        /// keywords, each twice, spelled as written, in lower case, upper case or upper
        /// from its middle, with bytes inserted.
        #[test]
        fn dense_spans_report_the_hits_their_gates_open(
            picks in proptest::collection::vec((any::<prop::sample::Index>(), 0..4u8, 0..4u8), 1..4),
            times in 1usize..200,
            edits in proptest::collection::vec((any::<usize>(), any::<prop::sample::Index>()), 0..16),
        ) {
            dense_span_reports_the_hits_its_gates_open(&picks, times, &edits, None)?;
        }

        /// The same for storms of 4 to 40 KB with a few flaws, the block starting up to
        /// 400 bytes after the last: where the text repeats, the hits a block does
        /// not read (their repeats one period before were all dropped) are hits their
        /// gates drop.
        #[test]
        fn repeating_dense_spans_report_the_hits_their_gates_open(
            picks in proptest::collection::vec((any::<prop::sample::Index>(), 0..4u8, 0..4u8), 1..3),
            size in 4_000usize..40_000,
            edits in proptest::collection::vec((any::<usize>(), any::<prop::sample::Index>()), 0..4),
            after in 0usize..400,
        ) {
            let unit: usize = picks.len() * 8;
            let times = size / unit + 1;
            dense_span_reports_the_hits_its_gates_open(&picks, times, &edits, Some(after))?;
        }
    }

    /// Storms of keywords whose rules read a run before them (up to 77 bytes back), and
    /// of ones with a left guard, with one byte changed, each taken as a dense block
    /// from 300 bytes before the change to 200 past it: a block that repeats reports a
    /// hit exactly
    /// when its gate, and a caller's judgement reading as far past it as one may,
    /// asked afresh, let it through (near the change, a run before a hit, the byte
    /// before it or the bytes after it differ from its repeat's).
    #[test]
    fn repeating_dense_spans_after_a_flaw_report_the_hits_their_gates_open() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let mut reported = 0;
        // A caller's judgement of `token` and `AKIA` hits reading as far as one may: a
        // hit dies unless the byte there is the flaw.
        let far = |_: u32, text: &[u8], at: usize, _: Option<usize>| {
            let text = &text[at..];
            (text.starts_with(b"token") || text.starts_with(b"AKIA"))
                && text.get(KILL_READS - 1).is_some_and(|&b| b != b'!')
        };
        let units = [
            "aAZDO", "a_mmk", "a:APA91b", "aQ~", "ghp_", "sk-a", "token", "AKIA",
            // Periods of 67 and 162 bytes.
            "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com\n",
            "AWS_BEARER_TOKEN_BEDROCK=ABSKfKUNdLw+9fZlH/j4DseUWTAolp3OvGZpseAa9LgkmcinCrPqejuYCd8NBt+2dml8fU9sRCPTipT0tbebVuIZqo560YNJ/W/k0ejaSTH3qUi+9oyX516wDVmZbIrMxF16Axc8=",
        ];
        for unit in units {
            for (flaw, shift) in [b'!', b'_']
                .into_iter()
                .flat_map(|f| (0..5).map(move |s| (f, s)))
            {
                let mut text = unit.repeat(6000 / unit.len()).into_bytes();
                let at = text.len() / 3 + shift;
                text[at] = flaw;
                for from in (at - 300..at + 200).step_by(2) {
                    let want = opened_hits(pre, &text, from, Some(&far));
                    let got = pre.dense_hits(&text, (true, Some(&far)), from);
                    let flaw = flaw as char;
                    assert!(
                        gated_but_stormed(pre, &text, &got, &want),
                        "{unit:?} {flaw:?} at {at}, from {from}"
                    );
                    reported += got.len();
                }
            }
        }
        // Some hits open near a flaw (a run of 76 before `AZDO`, 36 before `_mmk`).
        assert!(reported > 0);
    }

    /// Lines holding credentials, or what looks like one, for the tests of text that
    /// repeats.
    const CREDENTIAL_LINES: [&str; 5] = [
        "API_KEY=<your-api-key>",
        "password = 'correct horse battery staple'\n",
        "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5 ",
        "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com\n",
        // A run of 76 before `AZDO`.
        "AZURE_DEVOPS_EXT_PAT=bFuBC4kI9TJLXsDG5pnIFaZv5xfxjMLypIbjRZHx5aGs5KN8HYJqJQQJ991A38u6GSZO1Xdrt6OvAZDOp6vJ az\n",
    ];

    /// A judgement that kills nothing here (no hit is followed by `!`) and counts in
    /// `asked` the hits it is asked about.
    fn counting_judge(
        asked: &std::cell::Cell<usize>,
    ) -> impl Fn(u32, &[u8], usize, Option<usize>) -> bool + '_ {
        |_, text, at, _| {
            asked.set(asked.get() + 1);
            text[at..].starts_with(b"!")
        }
    }

    /// Credentials printed again and again: their hits open in every period. A block
    /// reports each of them, as their gates and a caller's judgement asked afresh
    /// would, and asks the judgement only of the hits of its first few hundred bytes:
    /// where the text repeats, a period's hits are copied on, not read.
    #[test]
    fn repeated_credentials_are_reported_in_every_period() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let asked = std::cell::Cell::new(0usize);
        let judge = counting_judge(&asked);
        for unit in CREDENTIAL_LINES {
            let text = unit.repeat(8000 / unit.len()).into_bytes();
            for from in [0, 1, unit.len() / 2, 300] {
                asked.set(0);
                let got = pre.dense_hits(&text, (true, Some(&judge)), from);
                let read = asked.get();
                let want = opened_hits(pre, &text, from, Some(&judge));
                assert!(
                    gated_but_stormed(pre, &text, &got, &want),
                    "{unit:?} from {from}"
                );
                let periods = (text.len() - from) / unit.len();
                assert!(
                    got.len() >= periods,
                    "{unit:?}: {} hits in {periods} periods",
                    got.len()
                );
                // A block reads its first period after what a gate may read before
                // a hit: at most the hits of 400 bytes and two periods (4 to 12 hits
                // here, of 141 to 363 reported; all of them before).
                let per_period = got.len().div_ceil(periods);
                let most = per_period * (400 / unit.len() + 2);
                assert!(
                    read <= most,
                    "{unit:?} from {from}: {read} judged, {} of {periods} periods",
                    got.len()
                );
            }
        }
    }

    /// Credentials printed again and again over a whole slice, with edits here and
    /// there: from its third block on, where every block is dense, the hits reported
    /// are those their gates and a judgement asked afresh open, and the judgement is
    /// asked of about one period's hits a stretch that repeats, not of one period a
    /// block: the period and its hits are carried from block to block.
    #[test]
    fn repeated_credentials_are_judged_once_a_stretch() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let asked = std::cell::Cell::new(0usize);
        let judge = counting_judge(&asked);
        let block = crate::scrub::prefilter::BLOCK;
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        for unit in &CREDENTIAL_LINES[1..] {
            for edits in [&[][..], &[20_000, 41_000][..]] {
                let mut text = unit.repeat(256 * 1024 / unit.len()).into_bytes();
                for &at in edits {
                    text[at..at + 4].copy_from_slice(b"ZZ!Z");
                }
                asked.set(0);
                let mut hits = gated_hits(pre, &text, &mut scratch, &judge);
                let read = asked.get();
                // Hits are compared from the block after the one past the first
                // read (whose hits are all reported: see `Prefilter::first_read`).
                let from = pre.first_read() + block;
                hits.retain(|&(_, at)| at >= from);
                let mut want = opened_hits(pre, &text, from, Some(&judge));
                want.retain(|&(_, at)| at >= from);
                assert_eq!(hits, want, "{unit:?}, edits at {edits:?}");
                // Each stretch: the hits of the bytes read past the break before it
                // (up to ~600) and two periods; with no carry, those of at least
                // one period a block (62 blocks).
                let per_period = hits.len().div_ceil(text.len() / unit.len());
                let stretches = 1 + edits.len();
                let most = stretches * per_period * (700 / unit.len() + 2);
                assert!(read <= most, "{unit:?}, edits at {edits:?}: {read} judged");
            }
        }
    }

    /// A period is checked from the bytes the last one's hits read before them (here
    /// JWT candidates': two bytes, and the most any keyword has before its signature),
    /// and copied on only when its own hits read no more. A Mailchimp key's gate reads
    /// the 32 hex digits before `-us` and one more: the first key past the JWTs has
    /// only 28 (the rest are the JWTs'), and is shut; the keys after it open. Copying
    /// the period it lies in would shut them all.
    #[test]
    fn periods_whose_hits_read_further_back_are_checked_again() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let never = |_: u32, _: &[u8], _: usize, _: Option<usize>| false;
        let kill: Kill<'_> = &never;
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        let jwts = format!("{}-", "eyJ-".repeat(9));
        let keys = "456789abcdef0123456789abcdef-us1 0123";
        assert_eq!(jwts.len(), keys.len());
        let text = [jwts.repeat(1_000), keys.repeat(1_000)]
            .concat()
            .into_bytes();
        let mut hits = gated_hits(pre, &text, &mut scratch, kill);
        let from = 2 * crate::scrub::prefilter::BLOCK;
        hits.retain(|&(_, at)| at >= from);
        let mut want = opened_hits(pre, &text, from, Some(kill));
        want.retain(|&(_, at)| at >= from);
        let keys_opened = |hits: &[Hit]| hits.iter().filter(|&&(_, at)| text[at] == b'-').count();
        assert_eq!(keys_opened(&want), 999);
        assert_eq!(keys_opened(&hits), 999);
        assert_eq!(hits, want);
    }

    /// Text with no keyword that the sieve flags every few bytes (a word both its sets
    /// of buckets flag, run into a branch name, printed again and again) is read a
    /// period at a time where it repeats, as a storm is: the hits are those asked
    /// afresh, credentials planted in it among them, and the text is asked whether it
    /// repeats a few times a stretch. The same lines numbered at random, which the
    /// sieve flags as much and which never repeat, are asked after more and more
    /// blocks: about 20 times in 1 MiB (256 blocks), not 256.
    #[test]
    fn crowded_text_that_repeats_is_read_a_period_at_a_time() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        if !pre.sieved() {
            return; // No AVX-512: no sieve, no flags.
        }
        let word = pre
            .sieve_look_alike()
            .expect("a word both sets of buckets flag");
        let never = |_: u32, _: &[u8], _: usize, _: Option<usize>| false;
        let kill: Kill<'_> = &never;
        let word = String::from_utf8(word).expect("ASCII");
        let unit = format!("pull-{word}-3dec1{word}.e124d3{word}");
        let unit = unit.as_str();
        let pat = " ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5 ";
        let mut text = unit.repeat((256 << 10) / unit.len()).into_bytes();
        for at in [50_000, 120_001, 200_003] {
            text.splice(at..at, pat.bytes());
        }
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        let mut hits = gated_hits(pre, &text, &mut scratch, kill);
        let from = 2 * crate::scrub::prefilter::BLOCK;
        hits.retain(|&(_, at)| at >= from);
        let mut want = opened_hits(pre, &text, from, Some(kill));
        want.retain(|&(_, at)| at >= from);
        assert_eq!(hits, want);
        let pats = hits
            .iter()
            .filter(|&&(_, at)| text[at..].starts_with(b"ghp_"));
        assert_eq!(pats.count(), 3);
        // Asked where the slice starts and past the credentials, and found to repeat.
        let asked = scratch.period.crowded.asked;
        assert!((1..=8).contains(&asked), "asked {asked} times");
        assert_eq!(scratch.period.crowded.failed(), 0);
        // Each line numbered: flagged as much, and no period.
        let mut x = 0x6A09_E667_F3BC_C909u64;
        let mut lines = Vec::new();
        while lines.len() < 1 << 20 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            lines.extend_from_slice(format!("{unit} {:08}\n", x % 100_000_000).as_bytes());
        }
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        let mut hits = gated_hits(pre, &lines, &mut scratch, kill);
        hits.retain(|&(_, at)| at >= from);
        // Read through the sieve, every hit is reported (gates are a dense block's).
        assert_eq!(hits, pre.dense_hits(&lines, (false, None), from));
        let asked = scratch.period.crowded.asked;
        assert!((8..=20).contains(&asked), "asked {asked} times");
        assert_eq!(scratch.period.crowded.failed() as usize, asked);
    }

    /// Where a caller takes the copies of a period's hits as runs (the stream, for the
    /// rules whose candidates have followers), a dense block reports each hit its gate
    /// opens and a judgement that reads up to 128 bytes past it keeps (from the third
    /// block on, as asked afresh), and no hit its gate shuts; as runs, nearly all of
    /// them. Copies whose judgement would read past where the text stops repeating
    /// (within 128 bytes of each `!`) go in runs too, when every hit of the period
    /// does: the stream takes them as it takes the others, and they are not judged
    /// (281 judgements in 256 KiB of JWT candidates, where 1,892 read them).
    #[test]
    fn copies_go_as_runs_of_the_hits_gates_open() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let asked = std::cell::Cell::new(0usize);
        let judge = |_: u32, text: &[u8], at: usize, _: Option<usize>| {
            asked.set(asked.get() + 1);
            text[at..text.len().min(at + KILL_READS)].contains(&b'!')
        };
        let block = crate::scrub::prefilter::BLOCK;
        let jwts = format!("{}!", "eyJ-".repeat(2_000));
        for unit in [&jwts[..], CREDENTIAL_LINES[2], CREDENTIAL_LINES[1]] {
            for edits in [&[][..], &[20_000, 41_000][..]] {
                let mut text = unit.repeat(256 * 1024 / unit.len()).into_bytes();
                for &at in edits {
                    text[at..at + 4].copy_from_slice(b"ZZ!Z");
                }
                let mut scratch = crate::scrub::prefilter::Scratch::default();
                scratch.runs.runnable = vec![true; set.keyword_rule.len()];
                asked.set(0);
                let mut hits = gated_hits(pre, &text, &mut scratch, &judge);
                let judged = asked.get();
                let in_runs = scratch.runs.hits().count();
                hits.extend(scratch.runs.hits());
                hits.sort_unstable_by_key(|&(k, h)| (h, k));
                let from = pre.first_read() + block;
                hits.retain(|&(_, at)| at >= from);
                let mut kept = opened_hits(pre, &text, from, Some(&judge));
                let mut opened = opened_hits(pre, &text, from, None);
                kept.retain(|&(_, at)| at >= from);
                opened.retain(|&(_, at)| at >= from);
                let name = &unit[..12];
                assert!(
                    kept.iter().all(|h| hits
                        .binary_search_by_key(&(h.1, h.0), |&(k, at)| (at, k))
                        .is_ok()),
                    "{name}: a hit kept is missing"
                );
                assert!(
                    hits.iter().all(|h| opened
                        .binary_search_by_key(&(h.1, h.0), |&(k, at)| (at, k))
                        .is_ok()),
                    "{name}: a hit shut is reported"
                );
                assert!(hits.len() >= kept.len());
                // Only the periods with a hit reported run: a password line's is
                // dropped by its gate (a placeholder), the period's hits judged dead.
                // Each stretch of JWT candidates: the hits read past the `!` up to
                // where the period goes on (it does right after the `!`; the bytes any
                // keyword has before its signature, 25, are read past it), a period,
                // and the two before the `!` whose gates read past it (~9; ~35 when
                // the period was looked for again by a window 64 bytes past the
                // `!` and the most bytes any gate reads back, 106).
                let stretches = text.len() / unit.len() + edits.len();
                if unit == jwts {
                    assert!(judged <= 12 * stretches, "{judged} judged");
                }
                if unit != CREDENTIAL_LINES[1] {
                    assert!(
                        10 * in_runs >= 9 * hits.len(),
                        "{name}: {in_runs} of {} in runs",
                        hits.len()
                    );
                }
            }
        }
    }

    /// A storm of `akia` (AWS's `AKIA` in the other case) and a seeded random byte,
    /// written first in small slices, whose sieve steps are not asked their case (they
    /// count as crowded, and the slices after them are walked), then in one large
    /// slice: that slice starts dense, finds no hit, and leaves dense blocks, guarded
    /// hits included (a misspelled hit is none, whatever its guard says). Without the
    /// sieve, small slices are walked (none is crowded), and the large slice ends in
    /// dense blocks: Teddy, on a lowercased copy, would stop at each `akia`.
    #[test]
    fn a_storm_in_the_other_case_leaves_a_dense_start() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let text = crate::scrub::prefilter::varied_storm(b"akia", 1 << 16);
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        let (mut dense, mut at) = (false, 0);
        let gated = (true, None, usize::MAX);
        for _ in 0..8 {
            let mut hits = Vec::new();
            pre.find_gated(
                &text[at..at + 32],
                &mut scratch,
                &mut hits,
                &mut dense,
                gated,
            );
            assert!(hits.is_empty(), "{hits:?}");
            at += 32;
        }
        let sieve = pre.sieved();
        assert_eq!(dense, sieve, "the small slices were crowded: {dense}");
        let mut hits = Vec::new();
        pre.find_gated(&text[at..], &mut scratch, &mut hits, &mut dense, gated);
        assert!(hits.is_empty(), "{hits:?}");
        assert_eq!(
            dense, !sieve,
            "the large slice ends in dense blocks: {dense}"
        );
    }

    /// A token printed again and again, each copy run into the next (no key: the next
    /// copy's bytes continue it), has two keyword hits every 73 bytes (`sk-`,
    /// `sk-or-v1-`; the `Csk-` after a copy, which ends in `C`, is not Cerebras's
    /// `csk-`, found as written) but one signature: too few for a dense block by
    /// their number. Where it repeats, the blocks after
    /// the first go dense all the same: a judgement that drops every hit is asked
    /// about a few hundred bytes' and the rest are counted. With one byte of each copy
    /// changed (no period) they stay sparse and report every hit (the scrubber drops
    /// them one by one).
    #[test]
    fn repeating_sparse_hits_make_dense_blocks() {
        let set = RuleSet::builtin();
        let pre = &set.prefilter;
        let unit = b"sk-or-v1-BCNSMSPIPHLQUJRZKNGWJEHOWMJANUSJDJHDTGIXBREJZEYOQMTVCEXTEZRJXTVC";
        let repeated = unit.repeat(20_000 / unit.len());
        let mut varied = repeated.clone();
        for (i, copy) in varied.chunks_mut(unit.len()).enumerate() {
            copy[40] = b'A' + (i % 26) as u8;
        }
        let hits_of = |copies: usize| 2 * copies;
        let asked = std::cell::Cell::new(0usize);
        let judge = |_: u32, _: &[u8], _: usize, _: Option<usize>| {
            asked.set(asked.get() + 1);
            true
        };
        let mut scratch = crate::scrub::prefilter::Scratch::default();
        for (text, dense_after) in [(&repeated, true), (&varied, false)] {
            let (mut hits, mut dense) = (Vec::new(), false);
            asked.set(0);
            let kill: Kill<'_> = &judge;
            let gated = (true, Some(kill), usize::MAX);
            pre.find_gated(text, &mut scratch, &mut hits, &mut dense, gated);
            assert_eq!(dense, dense_after);
            if dense_after {
                // The first read's, sparse, and none after it.
                let first = pre.first_read().div_ceil(unit.len());
                assert!(hits.len() <= hits_of(first), "{} hits", hits.len());
                assert!(asked.get() <= 40, "{} judged", asked.get());
            } else {
                // Every hit, and a few the changed bytes make (`SK`).
                assert!(hits.len() >= hits_of(text.len() / unit.len()));
                assert_eq!(asked.get(), 0);
            }
        }
    }

    /// Storms of the keywords `picks` (each spelled twice; see above) repeated `times`,
    /// with `edits` inserted: the dense block (from the start, or `after` bytes past
    /// the last edit) reports a hit exactly when its gate, asked afresh, lets it
    /// through.
    fn dense_span_reports_the_hits_its_gates_open(
        picks: &[(prop::sample::Index, u8, u8)],
        times: usize,
        edits: &[(usize, prop::sample::Index)],
        after: Option<usize>,
    ) -> Result<(), TestCaseError> {
        let set = RuleSet::builtin();
        let keywords = set.prefilter.keywords();
        let unit: Vec<u8> = picks
            .iter()
            .flat_map(|(i, one, two)| {
                let k = i.get(&keywords);
                let spelled = |case| match case {
                    0 => k.clone(),
                    1 => k.to_ascii_lowercase(),
                    2 => k.to_ascii_uppercase(),
                    // Upper case from the second half: spellings that agree on
                    // their first bytes.
                    _ => {
                        let (a, b) = k.split_at(k.len() / 2);
                        [a, &b.to_ascii_uppercase()].concat()
                    }
                };
                [spelled(*one), spelled(*two)].concat()
            })
            .collect();
        let mut text = unit.repeat(times);
        let bytes = b"aZ09_-.:= \"'<>/\\\nsSkKT";
        let mut last = 0;
        for (at, b) in edits {
            last = at % (text.len() + 1);
            text.insert(last, *b.get(bytes));
        }
        let from = after.map_or(0, |n| (last + n).min(text.len()));
        let pre = &set.prefilter;
        let want = opened_hits(pre, &text, from, None);
        let got = pre.dense_hits(&text, (true, None), from);
        prop_assert!(
            gated_but_stormed(pre, &text, &got, &want),
            "{got:?}\n{want:?}"
        );
        Ok(())
    }

    /// Whether `got`, the hits a dense block reported, are `want`, those its gates
    /// open, but for hits at a position some keyword's storm drop names (see
    /// `storm_drops_drop_only_hits_that_cannot_match`): dropped in bulk, as a storm
    /// of that keyword drops them; and but for a storm keyword's own hits where its
    /// runs end too soon for it to match, whatever keeps the place for another
    /// keyword (a storm part read by Teddy drops them, as the walk's gate need not:
    /// `API-` in `rk_prod_DD-API-KEYDD-`, its run cut at the `-`).
    fn gated_but_stormed(pre: &Prefilter, text: &[u8], got: &[Hit], want: &[Hit]) -> bool {
        // The runs after the keyword lie in the text (the sieve drops a slice's last
        // places where they do).
        let whole =
            |s: &Storm, at: usize| at + s.len + s.n.max(s.cap_n).min(s.run_most()) <= text.len();
        // A drop of a hit at `at` drops the flag at its signature, `off` bytes on,
        // and with it every hit of that signature.
        let stormed = |(k, at): Hit| {
            let flag = at + pre.signature_offset(k);
            (0..pre.keywords().len() as u32)
                .filter_map(|k| pre.storm(k))
                .filter_map(|s| Some((s, flag.checked_sub(s.off)?)))
                .any(|(s, at)| whole(s, at) && s.drops_one(text, at))
        };
        let dies = |k: u32, at: usize| {
            pre.storm(k)
                .is_some_and(|s| whole(s, at) && s.dies_one(text, at))
        };
        got.iter().all(|hit| want.contains(hit))
            && (want.iter())
                .filter(|hit| !got.contains(hit))
                .all(|&(k, at)| stormed((k, at)) || dies(k, at))
    }

    /// The hits a dense block of `text[from..]` should report: those that their gate,
    /// asked afresh, and then `kill` (told the run the gate reads before the hit, if
    /// any) let through.
    /// The hits of `text` as one slice, with gates and `kill`, and none held back.
    fn gated_hits(
        pre: &Prefilter,
        text: &[u8],
        scratch: &mut crate::scrub::prefilter::Scratch,
        kill: Kill<'_>,
    ) -> Vec<Hit> {
        let (mut hits, mut dense) = (Vec::new(), false);
        let gated = (true, Some(kill), usize::MAX);
        pre.find_gated(text, scratch, &mut hits, &mut dense, gated);
        hits
    }

    fn opened_hits(pre: &Prefilter, text: &[u8], from: usize, kill: Option<Kill<'_>>) -> Vec<Hit> {
        pre.dense_hits(text, (false, None), from)
            .into_iter()
            .filter(|&(k, at)| {
                let len = pre.pattern(k).len();
                let gate = pre.gate(k);
                let run = gate.and_then(|g| g.run_before(text, at));
                gate.is_none_or(|g| g.opens(text, at, len))
                    && kill.is_none_or(|kill| !kill(k, text, at, run))
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// One walk for every class answers as each rule's own run, counted byte by
        /// byte, does: the longest run of 1 to `max` bytes of some rule's class.
        #[test]
        fn before_runs_longest_is_the_longest_run_within_max(text in "[0-9a-fA-Z_:. -]{0,40}") {
            let runs = [
                run("[0-9]", 8, 10),
                run("[0-9a-f]", 32, 32),
                run("[a-zA-Z0-9]", 14, 14),
                run("[a-zA-Z0-9]", 76, 76),
                run("[A-Za-z0-9_-]", 11, 11),
                run("[a-f]", 2, 3),
            ];
            let text = text.as_bytes();
            let want = runs
                .iter()
                .map(|r| text.iter().rev().take_while(|&&b| r.class.contains(b)).count())
                .zip(&runs)
                .filter(|&(n, r)| n >= 1 && n <= r.max)
                .map(|(n, _)| n)
                .max()
                .unwrap_or(0);
            prop_assert_eq!(BeforeRuns::new(runs.into_iter()).longest(text), want);
        }

        /// Runs carried from question to question answer as a walk back over the text
        /// does: a stream asked at each of its ends (`asks`), its buffer's start moved
        /// on (`drops`) and its end moved back (`back`) in between.
        #[test]
        fn before_runs_carried_equal_runs_measured(
            text in "[0-9a-fA-Z_:. -]{0,300}",
            asks in prop::collection::vec(
                (
                    prop_oneof![0usize..6, 0usize..24, 0usize..200],
                    prop_oneof![4 => Just(0usize), 1 => 0usize..40],
                    prop_oneof![4 => Just(0usize), 1 => 0usize..3],
                ),
                1..40,
            ),
        ) {
            let runs = BeforeRuns::new([
                run("[0-9]", 8, 10),
                run("[0-9a-f]", 32, 32),
                run("[a-zA-Z0-9]", 76, 76),
                run("[a-f]", 2, 3),
                run("[A-Z]", 1, 1),
            ].into_iter());
            // Runs of capitals and digits long enough to be carried, between breaks.
            let text = text.replace(['_', ' '], "AKIA2345");
            let text = text.as_bytes();
            let (mut carried, mut end, mut base) = (RunsAt::default(), 0, 0);
            for (step, drop, back) in asks {
                end = (end + step).saturating_sub(back * 37).min(text.len());
                base = (base + drop).min(end);
                let want = runs.longest(&text[base..end]);
                prop_assert_eq!(runs.longest_at(&text[base..end], end as u64, &mut carried), want);
            }
        }
    }

    /// A word storm written a byte at a time is asked, at each byte, for the run before
    /// its partial keyword's start, which moves on a copy at a time (`secret` and a
    /// letter or digit, again and again: every byte of the built-in classes' runs).
    /// Once its runs are carried, it walks back no more: they are read on from where
    /// they were left. (With runs carried four bytes at most, it walked back twice
    /// a copy, the longest class's `max` each time.)
    #[test]
    fn a_word_storm_asked_at_each_byte_reads_its_runs_on() {
        let runs = &RuleSet::builtin().before_runs;
        let text: Vec<u8> = (0..700)
            .flat_map(|i| [&b"secret"[..], &[b"Za09"[i % 4]]].concat())
            .collect();
        let mut carried = RunsAt::default();
        for i in 1..=text.len() {
            let end = i - i % 7;
            let want = runs.longest(&text[..end]);
            assert_eq!(
                runs.longest_at(&text[..end], end as u64, &mut carried),
                want
            );
        }
        assert!(carried.walks <= 3, "{} walks back", carried.walks);
    }
}
