//! Whether a keyword hit can open a candidate that may match: the keyword spelled as
//! its rule's pattern spells it, the next bytes (up to [`AHEAD`]) readable by the
//! pattern after it, and no byte of the rule's left guard before it. In a storm
//! (`SK-SK-…`, `GSK_GSK_…`, `sk-sk-…`, `authorizationauthorization…`) nearly every
//! hit fails that, and the prefilter's dense blocks (see `prefilter::Dense`) drop it
//! as they find it: it never costs a place among the hits, a candidate's setup and a
//! memo lookup, to die at once.
//!
//! A [`Gate`] is computed from the rule's pattern read as a Thompson NFA (no DFA:
//! built-in rules compile their DFAs on first use), one set of NFA states per
//! spelling of the keyword read so far, then the sets reachable in the next bytes. It
//! only ever keeps too much, never too little: a hit it drops is a candidate whose DFA
//! dies unmatched within the bytes the gate read, or one the left guard blocks, which
//! the stream would drop too. A rule whose match starts with a run of bytes before its
//! keyword is read from the run's start, which varies: its gate is the run's length
//! alone (see [`RunBefore`]).

use std::collections::HashMap;

use regex_automata::nfa::thompson::{self, State, NFA};
use regex_automata::util::{primitives::StateID, syntax};

use super::prefilter::KILL_READS;
use super::ruleset::{BeforeRun, ByteClass};
use super::stream::{head, head_mask};

/// The most spellings of one keyword a gate compares (a pattern that ignores case
/// accepts them all: then any spelling passes).
const SPELLINGS: usize = 8;

/// What a hit of one keyword must look like to open a candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Gate {
    /// The first bytes (up to 8) of each spelling the pattern accepts, as
    /// little-endian words (`mask` covers them); empty: any spelling.
    pub spellings: Vec<u64>,
    pub mask: u64,
    /// What the pattern may read after the keyword (after any spelling), up to
    /// [`AHEAD`] bytes: a small DFA over the NFA's state sets, by the NFA's byte
    /// classes (`class`): `next[node * classes + class]` is the next node, [`DEAD`] or
    /// [`OPEN`] (anything may follow: the pattern matched, or the nodes ran out).
    /// `open`: anything may follow the keyword itself.
    pub class: Box<[u8; 256]>,
    pub classes: usize,
    pub next: Vec<u8>,
    pub open: bool,
    /// The rule's left guard: a byte of it right before the keyword (not after a
    /// `\n`-style escape) blocks the hit (empty: no guard).
    pub guard: ByteClass,
    /// For a rule whose match starts with a run of bytes before its keyword: the run
    /// (the stream starts no candidate where the run of its class ending at the keyword
    /// is shorter than `min` or longer than `max`). Such a gate reads nothing else.
    pub run: Option<BeforeRun>,
    /// The bounded run the pattern reads right after the keyword, if any (see
    /// [`RunCap`]): what the stream asks first of a hit a dense block's gate lets
    /// through, and of a hit about to be a candidate. Not part of the gate's own
    /// answer ([`Gate::opens`]), which reads [`AHEAD`] bytes past the keyword.
    pub cap: Option<Box<RunCap>>,
}

/// What a gate makes of a hit (see [`Gate::reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// The keyword is spelled as the pattern cannot spell it (in its first 8 bytes).
    Misspelled,
    /// The pattern dies within the bytes after the keyword the gate read.
    Dies,
    /// The pattern may read on.
    On,
}

/// What a gate reads of a hit past its guard (see [`Gate::window`]).
pub(crate) type Window = (u64, u32);

/// The most bytes past its keyword a gate reads: a storm's next keyword is that
/// close (`sk-sk-` dies at the third, `xai-xai-` at the fourth). Further on, a gate
/// mostly reads for nothing: in `tokentoken…` the rule that reads on through
/// `token[A-Za-z0-9_.-]{0,32}` lets every hit through (the memo takes those), and 16
/// bytes cost 4 % more instructions there than 4 did, with no storm rejected the
/// more. The most nodes a gate keeps per keyword (past that, a node lets everything
/// through) follows.
pub(crate) const AHEAD: usize = 4;
const NODES: usize = 32;

/// In [`Gate::next`]: the candidate dies; anything may follow.
pub(crate) const DEAD: u8 = 255;
pub(crate) const OPEN: u8 = 254;

/// A keyword's gate, as [`opening`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Opening {
    /// Every hit opens (the pattern could not be read: a look-around, or it does not
    /// compile).
    Any,
    /// No hit of this keyword can open a candidate.
    Never,
    Gate(Gate),
}

/// The gate of `keyword` for a rule whose pattern is `pattern`, matched from the
/// keyword's first byte, with left guard `guard`. `exact`: the keyword is found as
/// written (the two-byte ones), not ASCII-case-insensitively. The rule's candidates
/// overflow past `max_len` bytes: the gate's [`RunCap`] decides no hit whose candidate
/// would be alive that far.
pub(crate) fn opening(
    pattern: &str,
    keyword: &[u8],
    exact: bool,
    guard: ByteClass,
    max_len: usize,
) -> Opening {
    let Ok(nfa) = thompson::Compiler::new()
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .configure(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
        .build(pattern)
    else {
        return Opening::Any;
    };
    let Some(start) = closure(&nfa, [nfa.start_anchored()]) else {
        return Opening::Any;
    };
    let mut reader = Reader {
        nfa: &nfa,
        keyword,
        exact,
        memo: HashMap::new(),
        after: Vec::new(),
        matched: false,
    };
    let node = match reader.rest(&start, 0) {
        Err(Unreadable) => return Opening::Any,
        Ok(None) => return Opening::Never,
        Ok(Some(node)) => node,
    };
    let mut after: Set = reader.after.concat();
    after.sort_unstable();
    after.dedup();
    // The candidate dies at the latest at `keyword.len() + most + 1` bytes, and
    // overflows where it is alive at `max_len + 2`.
    let most = max_len.saturating_sub(keyword.len()).min(RUN_CAP);
    let cap = if reader.matched {
        None
    } else {
        RunCap::of(&nfa, &after, most).map(Box::new)
    };
    let Some(ahead) = look_ahead(&nfa, after) else {
        return Opening::Any;
    };
    let mask = head_mask(keyword.len());
    let mut spellings: Vec<u64> = node
        .spellings
        .unwrap_or_default()
        .iter()
        .map(|s| head(s) & mask)
        .collect();
    spellings.sort_unstable();
    spellings.dedup();
    let (class, classes, next) = ahead;
    Opening::Gate(Gate {
        spellings,
        mask,
        class,
        classes,
        next,
        open: reader.matched,
        guard,
        run: None,
        cap,
    })
}

/// A run of one class that a pattern reads right after a keyword, bounded: after `r`
/// bytes of `class` (`r` up to `live.len() - 1`), a byte outside it that is not in
/// `live[r]` ends every path the pattern has, none of them matched; and where
/// `bounded`, so does one more byte of the class past the last. `quoted-key-value`
/// reads `token[A-Za-z0-9_.-]{0,32}` and then a quote: in `tokenatokenZtoken0…` each
/// hit read 38 bytes to die (a candidate, then its followers: ~6 MB/s), and each dies
/// unread here, the run measured once for the hits in it (see [`RunCap::dies`]).
///
/// Read from the NFA (as the look-ahead is), so every answer is exact: the sets of
/// states after `r` bytes of the class are the same whichever bytes of it were read
/// (checked, depth by depth; where they part, the run ends there, not `bounded`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunCap {
    pub class: ByteClass,
    pub live: Vec<ByteClass>,
    pub bounded: bool,
}

/// A [`RunCap::dies`]'s `seen` before any run was read.
pub(crate) const NOT_SEEN: (usize, usize) = (usize::MAX, 0);

/// The most bytes of its class a [`RunCap`] follows: the dense blocks read a hit no
/// further than `prefilter::KILL_READS` bytes from its start.
pub(crate) const RUN_CAP: usize = 64;

/// The fewest bytes a [`RunCap`]'s class holds (a run of fewer is no storm's).
const CAP_CLASS: usize = 16;

impl RunCap {
    /// The run the pattern reads from `after`, the states after the keyword (which
    /// match nothing), for up to `most` bytes of its class: the class is the bytes
    /// that take `after` to one and the same set, the most of them (at least
    /// [`CAP_CLASS`]). `None` where there is none, or a byte of it starts a match.
    fn of(nfa: &NFA, after: &Set, most: usize) -> Option<RunCap> {
        let classes = nfa.byte_classes();
        let mut reps: Vec<u8> = Vec::new();
        let mut size: Vec<usize> = Vec::new();
        for b in 0..=255u8 {
            let c = usize::from(classes.get(b));
            if c == reps.len() {
                reps.push(b);
                size.push(0);
            }
            size[c] += 1;
        }
        let is_match = |set: &Set| {
            set.iter()
                .any(|&s| matches!(nfa.state(s), State::Match { .. }))
        };
        // Group the byte classes by the set each takes `after` to; the largest group
        // that lives on is the run's class.
        let mut groups: Vec<(Set, Vec<usize>, usize)> = Vec::new();
        for (c, &b) in reps.iter().enumerate() {
            let to = closure(nfa, step(nfa, after, b))?;
            if to.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == to) {
                Some(g) => {
                    g.1.push(c);
                    g.2 += size[c];
                }
                None => groups.push((to, vec![c], size[c])),
            }
        }
        let (_, members, bytes) = groups.into_iter().max_by_key(|g| g.2)?;
        if bytes < CAP_CLASS {
            return None;
        }
        let in_class: Vec<bool> = (0..reps.len()).map(|c| members.contains(&c)).collect();
        let mut class = [0u64; 4];
        for b in 0..=255u8 {
            if in_class[usize::from(classes.get(b))] {
                class[usize::from(b) / 64] |= 1 << (b % 64);
            }
        }
        let (mut set, mut live, mut bounded) = (after.clone(), Vec::new(), false);
        while live.len() <= most {
            if is_match(&set) {
                break;
            }
            // The bytes outside the class on which some path goes on.
            let mut on = [0u64; 4];
            let mut next: Option<Set> = None;
            let mut parted = false;
            for (c, &b) in reps.iter().enumerate() {
                let to = closure(nfa, step(nfa, &set, b))?;
                if in_class[c] {
                    match &next {
                        None => next = Some(to),
                        Some(n) => parted |= *n != to,
                    }
                } else if !to.is_empty() {
                    for x in 0..=255u8 {
                        if usize::from(classes.get(x)) == c {
                            on[usize::from(x) / 64] |= 1 << (x % 64);
                        }
                    }
                }
            }
            live.push(ByteClass::from_words(on));
            let next = next.expect("the class holds a byte");
            if parted {
                break;
            }
            if next.is_empty() {
                bounded = true;
                break;
            }
            set = next;
        }
        (!live.is_empty()).then(|| RunCap {
            class: ByteClass::from_words(class),
            live,
            bounded,
        })
    }

    /// Whether the hit whose keyword ends at `text[at]` dies unmatched within `text`,
    /// by the run of the class from there: `seen` is a stretch of `text` known to be of
    /// the class (`seen.0..seen.1`), from an earlier hit, extended here (each byte of a
    /// storm's run is read once for all its hits).
    #[inline]
    pub(crate) fn dies(&self, text: &[u8], at: usize, seen: &mut (usize, usize)) -> bool {
        let last = self.live.len() - 1;
        // Read up to one byte past the most the class may run.
        let limit = text.len().min(at + last + 2);
        let known = (seen.0..=seen.1).contains(&at);
        let mut end = if known { seen.1 } else { at };
        while end < limit && self.class.contains(text[end]) {
            end += 1;
        }
        *seen = if known { (seen.0, end) } else { (at, end) };
        let r = end - at;
        if r > last {
            return self.bounded;
        }
        // Ended by a byte outside the class, or by the text (nothing known).
        end < text.len() && !self.live[r].contains(text[end])
    }
}

/// The run a pattern must read right after a keyword before it can match: every byte
/// at offsets `0..n` after the keyword (any spelling of it) is of `class`, or the
/// pattern dies there unmatched. What a dense block drops a storm's hits by, 64 at a
/// time (see `prefilter::Storm`). `depths` holds the bytes each offset of the run
/// reads (`n` of them, their union `class`): a JWT's first 15 are of
/// `[A-Za-z0-9_-]`, the dot only after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunAfter {
    pub class: ByteClass,
    pub n: usize,
    pub depths: Vec<ByteClass>,
}

/// The most bytes after a keyword [`read_past`] reads.
pub(crate) const RUN_AFTER: usize = 56;
/// The most sets of NFA states [`read_past`] follows at one depth.
const RUN_SETS: usize = 64;

/// [`read_past`]'s run, `None` where the pattern dies within the keyword too (tests).
#[cfg(test)]
pub(crate) fn run_after(pattern: &str, keyword: &[u8]) -> Option<RunAfter> {
    match read_past(pattern, keyword)? {
        Past::Run(run) => Some(run),
        Past::Dies => None,
    }
}

/// What a pattern read from its first byte does past `bytes` (see [`read_past`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Past {
    /// No spelling of the bytes starts a match: every path dies within them (a
    /// keyword's rule read on through the bytes of a longer keyword that holds it,
    /// `sk-[0-9]` through `sk-ant-`).
    Dies,
    /// The run it needs right after them.
    Run(RunAfter),
}

/// The [`RunAfter`] of `bytes` (a keyword, or the rest of a longer keyword from where
/// this one starts in it) for `pattern` matched from its first byte, their spellings
/// in any ASCII case: the sets of NFA states reachable after them are followed depth
/// by depth (up to [`RUN_AFTER`] bytes, [`RUN_SETS`] sets a depth) until one could
/// match; `class` holds every byte on which some set at some depth before that moves
/// on. A byte outside it at such a depth ends every path the pattern has, none
/// matched. [`Past::Dies`] where every path dies within the bytes; `None` where the
/// pattern matches within them, cannot be read (a look-around), or reads no byte
/// past them.
pub(crate) fn read_past(pattern: &str, bytes: &[u8]) -> Option<Past> {
    let nfa = thompson::Compiler::new()
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .configure(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
        .build(pattern)
        .ok()?;
    let start = closure(&nfa, [nfa.start_anchored()])?;
    let mut reader = Reader {
        nfa: &nfa,
        keyword: bytes,
        exact: false,
        memo: HashMap::new(),
        after: Vec::new(),
        matched: false,
    };
    let read = reader.rest(&start, 0).ok()?;
    if reader.matched {
        return None;
    }
    if read.is_none() {
        return Some(Past::Dies);
    }
    let is_match = |set: &Set| {
        set.iter()
            .any(|&s| matches!(nfa.state(s), State::Match { .. }))
    };
    // One byte of each of the NFA's byte classes stands for the class.
    let classes = nfa.byte_classes();
    let mut reps: Vec<u8> = Vec::new();
    for b in 0..=255u8 {
        if usize::from(classes.get(b)) == reps.len() {
            reps.push(b);
        }
    }
    // The classes each depth reads, by class.
    let mut depths: Vec<Vec<bool>> = Vec::new();
    let mut sets: Vec<Set> = reader.after;
    sets.sort_unstable();
    sets.dedup();
    let mut n = 0;
    while n < RUN_AFTER && !sets.is_empty() {
        let mut next: Vec<Set> = Vec::new();
        let mut matched = false;
        let mut here = vec![false; reps.len()];
        for set in &sets {
            for (c, &b) in reps.iter().enumerate() {
                let to = closure(&nfa, step(&nfa, set, b))?;
                if to.is_empty() {
                    continue;
                }
                here[c] = true;
                matched |= is_match(&to);
                next.push(to);
            }
        }
        depths.push(here);
        n += 1;
        next.sort_unstable();
        next.dedup();
        if matched || next.len() > RUN_SETS {
            break;
        }
        sets = next;
    }
    let class_of = |live: &[bool]| {
        let mut class = [0u64; 4];
        for b in 0..=255u8 {
            if live[usize::from(classes.get(b))] {
                class[usize::from(b) / 64] |= 1 << (b % 64);
            }
        }
        ByteClass::from_words(class)
    };
    // The run's class: every class some depth reads.
    let live: Vec<bool> = (0..reps.len())
        .map(|c| depths.iter().any(|here| here[c]))
        .collect();
    (n > 0).then(|| {
        Past::Run(RunAfter {
            class: class_of(&live),
            n,
            depths: depths.iter().map(|here| class_of(here)).collect(),
        })
    })
}

/// [`Prefixes::spelled_as_written`] of `pattern`'s prefixes (tests).
#[cfg(test)]
pub(crate) fn spelled_as_written(pattern: &str, keyword: &[u8]) -> bool {
    Prefixes::of(pattern).spelled_as_written(keyword)
}

/// The same, of the prefixes past the run `pattern` starts with (see
/// [`Prefixes::after_run`]; tests).
#[cfg(test)]
pub(crate) fn spelled_after_run(pattern: &str, run: (&str, usize, usize), keyword: &[u8]) -> bool {
    Prefixes::after_run(pattern, run).spelled_as_written(keyword)
}

/// A parser of patterns as the rules are compiled: bytes, not UTF-8.
fn parser() -> regex_syntax::Parser {
    regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
}

/// The prefix literals of a pattern, for [`Prefixes::spelled_as_written`] of each of
/// its keywords: the pattern is parsed once (0.3 ms for the widest built-in one; parsed
/// again for each keyword, that was two thirds of asking every built-in keyword).
pub(crate) struct Prefixes(Option<Vec<regex_syntax::hir::literal::Literal>>);

impl Prefixes {
    /// Those of `pattern` (none known: it does not parse, or has too many).
    pub(crate) fn of(pattern: &str) -> Prefixes {
        match parser().parse(pattern) {
            Ok(hir) => Prefixes::extract(&hir),
            Err(_) => Prefixes(None),
        }
    }

    /// Those of what follows the run a rule's match starts with before its keyword
    /// (its `before`: `class` repeated `min` to `max` times), where the pattern starts
    /// with exactly that run, as one repetition of that class; none known otherwise.
    /// A keyword hit starts its candidate at the run before it (see
    /// `ruleset::BeforeRun`), so a match read from the keyword's first byte is the rest
    /// of the pattern.
    pub(crate) fn after_run(pattern: &str, (class, min, max): (&str, usize, usize)) -> Prefixes {
        use regex_syntax::hir::{Hir, HirKind};
        let (Ok(hir), Ok(class)) = (parser().parse(pattern), parser().parse(class)) else {
            return Prefixes(None);
        };
        let HirKind::Concat(parts) = hir.kind() else {
            return Prefixes(None);
        };
        match parts[0].kind() {
            HirKind::Repetition(r)
                if *r.sub == class
                    && r.min as usize == min
                    && r.max.map(|m| m as usize) == Some(max) =>
            {
                Prefixes::extract(&Hir::concat(parts[1..].to_vec()))
            }
            _ => Prefixes(None),
        }
    }

    fn extract(hir: &regex_syntax::hir::Hir) -> Prefixes {
        use regex_syntax::hir::literal::{ExtractKind, Extractor};
        Prefixes(
            Extractor::new()
                .kind(ExtractKind::Prefix)
                // `A{21,24}` (Twitter's) is read out to its 21 `A`s and more.
                .limit_repeat(64)
                .extract(hir)
                .literals()
                .map(<[_]>::to_vec),
        )
    }

    /// Whether a hit of `keyword` matters only as written: every match of the pattern
    /// (read from the keyword's first byte) that starts with the keyword in some ASCII
    /// case starts with it as written. Then the prefilter finds the keyword with its
    /// case (see `prefilter::Walk`), and `akia…` or a run of `a` (against `AKIA`, or
    /// Twitter's 21 `A`s) costs no hit at all. Decided from the prefix literals
    /// regex-syntax extracts from the pattern (case-insensitive parts expand to their
    /// spellings): every one of them that agrees with the keyword ignoring case over the
    /// keyword's length must agree exactly; one shorter than the keyword that agrees
    /// with it so far, or a set too large to extract, and the keyword is found ignoring
    /// case, as before. No automaton is built.
    pub(crate) fn spelled_as_written(&self, keyword: &[u8]) -> bool {
        if !keyword.iter().any(u8::is_ascii_alphabetic) {
            // Nothing to fold: found the same either way.
            return false;
        }
        let Some(literals) = &self.0 else {
            return false;
        };
        !literals.is_empty()
            && literals.iter().all(|lit| {
                let bytes = lit.as_bytes();
                let n = bytes.len().min(keyword.len());
                !bytes[..n].eq_ignore_ascii_case(&keyword[..n])
                    || (n == keyword.len() && bytes[..n] == keyword[..n])
            })
    }
}

/// The look-ahead from `set` (the states after the keyword): every set reachable in
/// [`AHEAD`] bytes, up to [`NODES`] of them, as [`Gate::next`] by the NFA's byte
/// classes. `None` on a look-around.
fn look_ahead(nfa: &NFA, set: Set) -> Option<(Box<[u8; 256]>, usize, Vec<u8>)> {
    let classes = nfa.byte_classes();
    let mut class = Box::new([0u8; 256]);
    let mut reps: Vec<u8> = Vec::new();
    for b in 0..=255u8 {
        let c = classes.get(b);
        class[usize::from(b)] = c;
        if usize::from(c) == reps.len() {
            reps.push(b);
        }
    }
    let is_match = |set: &Set| {
        set.iter()
            .any(|&s| matches!(nfa.state(s), State::Match { .. }))
    };
    let (mut sets, mut depth) = (vec![set], vec![0usize]);
    let mut next: Vec<u8> = Vec::new();
    let mut k = 0;
    while k < sets.len() {
        let set = sets[k].clone();
        for &b in &reps {
            if depth[k] >= AHEAD {
                // Never read: a walk stops after AHEAD bytes.
                next.push(OPEN);
                continue;
            }
            let to = closure(nfa, step(nfa, &set, b))?;
            let target = if to.is_empty() {
                DEAD
            } else if is_match(&to) {
                OPEN
            } else if let Some(i) = sets.iter().position(|s| *s == to) {
                i as u8
            } else if sets.len() < NODES {
                sets.push(to);
                depth.push(depth[k] + 1);
                (sets.len() - 1) as u8
            } else {
                OPEN
            };
            next.push(target);
        }
        k += 1;
    }
    Some((class, reps.len(), next))
}

impl Gate {
    /// A gate no hit passes (no spelling of its keyword can start a match).
    pub(crate) fn never() -> Gate {
        Gate {
            spellings: vec![u64::MAX],
            mask: 0,
            class: Box::new([0; 256]),
            classes: 1,
            next: vec![DEAD],
            open: false,
            guard: ByteClass::EMPTY,
            run: None,
            cap: None,
        }
    }

    /// The gate of a rule whose match starts with `run` before its keyword: the run's
    /// length (the pattern is read from the run's start, which varies), and the
    /// keyword's spelling where it is found as written (`written`: see
    /// `ruleset::found_as_written`).
    pub(crate) fn before(run: BeforeRun, written: Option<&[u8]>) -> Gate {
        let mask = written.map_or(0, |w| head_mask(w.len()));
        Gate {
            spellings: written.map(|w| head(w) & mask).into_iter().collect(),
            mask,
            class: Box::new([0; 256]),
            classes: 1,
            next: Vec::new(),
            open: true,
            guard: ByteClass::EMPTY,
            run: Some(run),
            cap: None,
        }
    }

    /// Whether the run of the rule's `before` bytes ending at `text[at]` rules the hit
    /// out (no `before`: never), by a walk back of up to `max + 1` bytes. See
    /// [`Gate::run_rules_out_after`] for a storm's.
    pub(crate) fn run_rules_out(&self, text: &[u8], at: usize) -> bool {
        self.run
            .is_some_and(|run| RunBefore::walk(&run, text, at).rules_out(&run))
    }

    /// Whether the run of the rule's `before` bytes ending at `text[at]` rules the hit
    /// out, from the run at this keyword's last hit in `text` (`last`, updated): a
    /// storm's runs are extended, not walked again.
    #[inline(always)]
    pub(crate) fn run_rules_out_after(
        &self,
        text: &[u8],
        at: usize,
        last: &mut Option<RunBefore>,
    ) -> bool {
        match &self.run {
            None => false,
            Some(before) => RunBefore::rules_out_after(before, text, at, last),
        }
    }

    /// Whether the keyword of `len` bytes at `text[at..]` may open a candidate, as far
    /// as `text` tells (a byte it does not hold could be anything). (The stream asks
    /// this of a hit whose rule is not compiled yet; dense blocks ask its parts apart,
    /// to reuse answers.)
    pub(crate) fn opens(&self, text: &[u8], at: usize, len: usize) -> bool {
        !self.guarded(text, at) && !self.run_rules_out(text, at) && self.reads_on(text, at, len)
    }

    /// Whether the gate's [`RunCap`], if any, says the hit of the keyword of `len` bytes
    /// at `text[at..]` dies, reading no further than a kill may (see `KILL_READS`);
    /// `seen` as [`RunCap::dies`] takes it.
    #[inline(always)]
    pub(crate) fn capped(
        &self,
        text: &[u8],
        at: usize,
        len: usize,
        seen: &mut (usize, usize),
    ) -> bool {
        self.cap.as_ref().is_some_and(|cap| {
            let text = &text[..text.len().min(at + KILL_READS)];
            cap.dies(text, at + len, seen)
        })
    }

    /// The bytes right after the keyword on which the pattern dies at once; the
    /// largest group of bytes there that lead the gate to one and the same node; and
    /// the bytes on which it dies right after one of those (`None`: any byte may
    /// follow the keyword, or the gate reads a run before it instead). After
    /// `password`, `password-assignment` dies on `a` or `Z`, and after a digit
    /// (`password1=`) on a second digit or on `a`.
    pub(crate) fn kills(&self) -> Option<[ByteClass; 3]> {
        if self.open || self.run.is_some() {
            return None;
        }
        let next = |node: usize, b: u8| {
            let class = usize::from(self.class[usize::from(b)]);
            self.next.get(node * self.classes + class).copied()
        };
        let set = |words: &mut [u64; 4], b: u8| words[usize::from(b) / 64] |= 1 << (b % 64);
        let mut first = [0u64; 4];
        // Per node reached, its bytes and how many.
        let mut groups: Vec<(u8, [u64; 4], u32)> = Vec::new();
        for b in 0..=255u8 {
            match next(0, b)? {
                DEAD => set(&mut first, b),
                OPEN => {}
                node => match groups.iter_mut().find(|g| g.0 == node) {
                    Some(g) => {
                        set(&mut g.1, b);
                        g.2 += 1;
                    }
                    None => {
                        let mut bytes = [0u64; 4];
                        set(&mut bytes, b);
                        groups.push((node, bytes, 1));
                    }
                },
            }
        }
        let (mut group, mut then) = ([0u64; 4], [0u64; 4]);
        if let Some(&(node, bytes, _)) = groups.iter().max_by_key(|g| g.2) {
            group = bytes;
            for b in 0..=255u8 {
                if next(usize::from(node), b)? == DEAD {
                    set(&mut then, b);
                }
            }
        }
        Some([first, group, then].map(ByteClass::from_words))
    }

    /// The length of the run of its rule's class right before `text[at]`, when it reads
    /// one and the run does not reach back to the start of `text` (tests).
    #[cfg(test)]
    pub(crate) fn run_before(&self, text: &[u8], at: usize) -> Option<usize> {
        RunBefore::walk(self.run.as_ref()?, text, at).whole()
    }

    /// Whether the rule's left guard blocks a hit at `text[at..]`.
    #[inline(always)]
    pub(crate) fn guarded(&self, text: &[u8], at: usize) -> bool {
        if at == 0 || !self.guard.contains(text[at - 1]) {
            return false;
        }
        // A `\n`-style escape's letter does not block (the byte before it unseen, it
        // may be the `\`).
        let escaped =
            matches!(text[at - 1], b'n' | b'r' | b't') && (at < 2 || text[at - 2] == b'\\');
        !escaped
    }

    /// Whether the keyword at `text[at..]` is spelled, in its first 8 bytes, as the
    /// pattern cannot spell it.
    #[inline(always)]
    pub(crate) fn misspelled(&self, text: &[u8], at: usize) -> bool {
        // One spelling (a keyword found as written) compared without a loop.
        match self.spellings[..] {
            [] => false,
            [one] => head(&text[at..]) & self.mask != one,
            ref many => !many.contains(&(head(&text[at..]) & self.mask)),
        }
    }

    /// Whether the pattern may read the keyword of `len` bytes at `text[at..]` as it is
    /// spelled there, and the bytes after it, the guard aside.
    #[inline(always)]
    pub(crate) fn reads_on(&self, text: &[u8], at: usize, len: usize) -> bool {
        self.reading(text, at, len) == Reading::On
    }

    /// What the pattern makes of the keyword of `len` bytes at `text[at..]` and the
    /// bytes after it, the guard aside (see [`Reading`]).
    #[inline(always)]
    pub(crate) fn reading(&self, text: &[u8], at: usize, len: usize) -> Reading {
        if self.misspelled(text, at) {
            return Reading::Misspelled;
        }
        if self.open {
            return Reading::On;
        }
        let mut node = 0;
        for &b in text.get(at + len..).unwrap_or_default().iter().take(AHEAD) {
            let next = self.next[node * self.classes + usize::from(self.class[usize::from(b)])];
            if next >= OPEN {
                return if next == OPEN {
                    Reading::On
                } else {
                    Reading::Dies
                };
            }
            node = usize::from(next);
        }
        Reading::On
    }

    /// Every byte [`Gate::reads_on`] may read of the keyword of `len` bytes at
    /// `text[at..]`, as two words: its first 8 (with what follows a shorter one) and
    /// the [`AHEAD`] after it. Two hits of one keyword with the same words get the same
    /// answer. `None` near the end of `text`, where the gate reads less.
    #[inline(always)]
    pub(crate) fn window(text: &[u8], at: usize, len: usize) -> Option<Window> {
        const { assert!(AHEAD == 4) };
        let w = text.get(at..at + (len + AHEAD).max(8))?;
        let first = u64::from_le_bytes(*w.first_chunk().expect("8 bytes"));
        let after = u32::from_le_bytes(*w[len..].first_chunk().expect("AHEAD bytes"));
        Some((first, after))
    }
}

/// The run of a rule's `before` class ending at a hit, as far as the text shows: `n`
/// bytes (counted up to `max + 1`), and whether the text's start cut the count short
/// (then the run may be longer, in bytes already gone: anything may be).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunBefore {
    pub at: usize,
    pub n: usize,
    pub cut: bool,
}

impl RunBefore {
    /// The run ending at `text[at]`, walked back.
    pub(crate) fn walk(run: &BeforeRun, text: &[u8], at: usize) -> RunBefore {
        let limit = run.max + 1;
        let n = text[..at]
            .iter()
            .rev()
            .take(limit)
            .take_while(|&&b| run.class.contains(b))
            .count();
        RunBefore {
            at,
            n,
            cut: n == at && n < limit,
        }
    }

    /// The run ending at `text[at]`, from this one, ending earlier: extended by the
    /// bytes between when they are all of the class (a storm's: `AZDOAZDO…` has 76
    /// before each hit), else walked back.
    pub(crate) fn next(self, run: &BeforeRun, text: &[u8], at: usize) -> RunBefore {
        let limit = run.max + 1;
        match text.get(self.at..at) {
            Some(between)
                if between.len() < limit && between.iter().all(|&b| run.class.contains(b)) =>
            {
                let n = (self.n + between.len()).min(limit);
                RunBefore {
                    at,
                    n,
                    cut: self.cut && n < limit,
                }
            }
            _ => RunBefore::walk(run, text, at),
        }
    }

    /// Whether the run ending at `text[at]` rules the hit out, from the run at the
    /// keyword's last hit in `text` (`last`, updated). Out of line: the loops that ask
    /// it mostly meet keywords with no run before them.
    #[inline(never)]
    fn rules_out_after(
        before: &BeforeRun,
        text: &[u8],
        at: usize,
        last: &mut Option<RunBefore>,
    ) -> bool {
        let run = match *last {
            Some(last) if last.at <= at => last.next(before, text, at),
            _ => RunBefore::walk(before, text, at),
        };
        *last = Some(run);
        run.rules_out(before)
    }

    /// Its length, when it cannot reach back past the text it was walked in.
    pub(crate) fn whole(self) -> Option<usize> {
        (!self.cut).then_some(self.n)
    }

    /// Whether no candidate can start from this run.
    pub(crate) fn rules_out(&self, run: &BeforeRun) -> bool {
        !self.cut && (self.n < run.min || self.n > run.max)
    }
}

/// The pattern holds something this reading does not follow (a look-around).
struct Unreadable;

/// The NFA states a spelling read so far may be in: sorted, only those that read a
/// byte or match (what the empty transitions reach is followed).
type Set = Vec<StateID>;

/// What may follow, from some depth into the keyword: the rest of the keyword's
/// spellings that some byte may follow (`None`: more than [`SPELLINGS`], taken as
/// any). What bytes may follow is the look-ahead's (see [`look_ahead`]).
#[derive(Clone)]
struct Node {
    spellings: Option<Vec<Vec<u8>>>,
}

struct Reader<'a> {
    nfa: &'a NFA,
    keyword: &'a [u8],
    exact: bool,
    /// By `(depth, set)`: the two spellings of a letter usually lead to one set (a
    /// pattern that ignores case), read once.
    memo: HashMap<(usize, Set), Option<Node>>,
    /// The sets a spelling of the whole keyword leads to.
    after: Vec<Set>,
    /// Whether some spelling matched on the way (then anything may follow).
    matched: bool,
}

impl Reader<'_> {
    /// What may follow from `depth` bytes into the keyword in `set` (`None`: nothing).
    fn rest(&mut self, set: &Set, depth: usize) -> Result<Option<Node>, Unreadable> {
        if let Some(r) = self.memo.get(&(depth, set.clone())) {
            return Ok(r.clone());
        }
        let k = self.keyword;
        let node = if set
            .iter()
            .any(|&s| matches!(self.nfa.state(s), State::Match { .. }))
        {
            // Matched already: whatever follows, the candidate has a match.
            self.matched = true;
            Some(Node {
                spellings: (depth == k.len()).then(|| vec![Vec::new()]),
            })
        } else if depth == k.len() {
            self.after.push(set.clone());
            (0..=255u8)
                .any(|b| !step(self.nfa, set, b).is_empty())
                .then(|| Node {
                    spellings: Some(vec![Vec::new()]),
                })
        } else {
            let mut acc: Option<Node> = None;
            for b in spellings(k[depth], self.exact) {
                let next = closure(self.nfa, step(self.nfa, set, b)).ok_or(Unreadable)?;
                if next.is_empty() {
                    continue;
                }
                let Some(child) = self.rest(&next, depth + 1)? else {
                    continue;
                };
                let child_spellings = child.spellings.map(|v| {
                    v.into_iter()
                        .map(|s| [&[b][..], &s].concat())
                        .collect::<Vec<_>>()
                });
                acc = Some(match acc {
                    None => Node {
                        spellings: child_spellings,
                    },
                    Some(a) => Node {
                        spellings: a.spellings.zip(child_spellings).map(|(mut x, y)| {
                            x.extend(y);
                            x
                        }),
                    },
                });
            }
            acc.map(|mut n| {
                if n.spellings.as_ref().is_some_and(|s| s.len() > SPELLINGS) {
                    n.spellings = None;
                }
                n
            })
        };
        self.memo.insert((depth, set.clone()), node.clone());
        Ok(node)
    }
}

/// The spellings of keyword byte `b`: as written when `exact`, else both ASCII cases.
fn spellings(b: u8, exact: bool) -> Vec<u8> {
    if exact {
        return vec![b];
    }
    let mut v = vec![b.to_ascii_lowercase(), b.to_ascii_uppercase()];
    v.dedup();
    v
}

/// The states `set` moves to on `b` (before their empty transitions are followed).
fn step(nfa: &NFA, set: &Set, b: u8) -> Vec<StateID> {
    set.iter()
        .filter_map(|&s| match nfa.state(s) {
            State::ByteRange { trans } => trans.matches_byte(b).then_some(trans.next),
            State::Sparse(t) => t.matches_byte(b),
            State::Dense(t) => t.matches_byte(b),
            _ => None,
        })
        .collect()
}

/// The states that read a byte or match, reached from `from` by empty transitions;
/// `None` when a look-around is met.
fn closure(nfa: &NFA, from: impl IntoIterator<Item = StateID>) -> Option<Set> {
    let mut stack: Vec<StateID> = from.into_iter().collect();
    let mut seen = std::collections::HashSet::new();
    let mut set = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        match nfa.state(s) {
            State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                set.push(s)
            }
            State::Union { alternates } => stack.extend(alternates.iter().copied()),
            State::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
            State::Capture { next, .. } => stack.push(*next),
            State::Fail => {}
            State::Look { .. } => return None,
        }
    }
    set.sort_unstable();
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_GUARD: ByteClass = ByteClass::EMPTY;

    /// The gate of a rule with no bound on its matches.
    fn opening(pattern: &str, keyword: &[u8], exact: bool, guard: ByteClass) -> Opening {
        super::opening(pattern, keyword, exact, guard, usize::MAX)
    }

    fn opens(o: &Opening, text: &[u8], at: usize, len: usize) -> bool {
        match o {
            Opening::Any => true,
            Opening::Never => false,
            Opening::Gate(g) => g.opens(text, at, len),
        }
    }

    /// A keyword is found as written only when every match that could start with it
    /// in another case cannot: alternations of other literals are fine, a class of
    /// both cases, `(?i)`, a shorter literal or a keyword with no letter are not.
    #[test]
    fn keywords_are_found_as_written_only_where_no_other_spelling_matches() {
        let cases: [(&str, &str, bool); 9] = [
            ("ghp_[0-9A-Za-z]{36}", "ghp_", true),
            ("(?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}", "AKIA", true),
            ("A{21,24}[A-Za-z0-9%]{30,}", "AAAAAAAAAAAAAAAAAAAAA", true),
            ("(?i:ghp)_[0-9A-Za-z]{36}", "ghp_", false),
            ("[Aa]KIA[A-Z0-9]{16}", "AKIA", false),
            ("(?:AKIA|akia)[A-Z0-9]{16}", "AKIA", false),
            // A match may end before the keyword does: `AKia` would start one.
            ("AK[A-Za-z]*", "AKIA", false),
            ("[0-9]{3}-[0-9]{2}", "123-", false),
            ("(unparsable", "abc", false),
        ];
        for (pattern, keyword, want) in cases {
            let got = spelled_as_written(pattern, keyword.as_bytes());
            assert_eq!(got, want, "{pattern:?} / {keyword:?}");
        }
    }

    /// A rule whose match starts with a run before its keyword is read past that run,
    /// where the pattern starts with exactly it.
    #[test]
    fn keywords_after_a_run_are_read_past_it() {
        type Case<'a> = (&'a str, (&'a str, usize, usize), &'a str, bool);
        let cases: [Case<'_>; 7] = [
            (
                "[a-zA-Z0-9]{76}AZDO[a-zA-Z0-9]{4}",
                ("[a-zA-Z0-9]", 76, 76),
                "AZDO",
                true,
            ),
            (
                "[0-9]{8,10}:AA[A-Za-z0-9_-]{33}",
                ("[0-9]", 8, 10),
                ":AA",
                true,
            ),
            (
                "[0-9a-f]{32}-(?i:us)[0-9]{1,2}",
                ("[0-9a-f]", 32, 32),
                "-us",
                false,
            ),
            // Not the run the rule measures: its class, or its length.
            ("[0-9a-z]{32}-us[0-9]", ("[0-9a-f]", 32, 32), "-us", false),
            ("[0-9a-f]{30}-us[0-9]", ("[0-9a-f]", 32, 32), "-us", false),
            // The run is not all that comes before the keyword.
            (
                "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk",
                ("[A-Za-z0-9_]", 36, 36),
                "_mmk",
                false,
            ),
            ("[0-9]{8}|AZDO", ("[0-9]", 8, 8), "AZDO", false),
        ];
        for (pattern, run, keyword, want) in cases {
            let got = spelled_after_run(pattern, run, keyword.as_bytes());
            assert_eq!(got, want, "{pattern:?} / {keyword:?}");
        }
    }

    #[test]
    fn gates_spell_the_keyword_as_the_pattern_does_and_read_ahead() {
        let twilio = opening("SK[0-9a-fA-F]{32}", b"SK", true, NO_GUARD);
        assert!(opens(&twilio, b"SKa", 0, 2) && opens(&twilio, b"SK0", 0, 2));
        assert!(!opens(&twilio, b"SK-", 0, 2));
        assert!(
            opens(&twilio, b"SK", 0, 2),
            "the byte after is not there yet"
        );
        let groq = opening("gsk_[a-zA-Z0-9]{52}", b"gsk_", false, NO_GUARD);
        assert!(opens(&groq, b"gsk_A", 0, 4) && !opens(&groq, b"GSK_A", 0, 4));
        let any_case = opening(
            "(?i)authorization:[ \t]*bearer",
            b"authorization",
            false,
            NO_GUARD,
        );
        let Opening::Gate(g) = &any_case else {
            panic!("{any_case:?}")
        };
        assert!(g.spellings.is_empty(), "every spelling, not 2^13 of them");
        assert!(opens(&any_case, b"AuThOrIzAtIoN:", 0, 13));
        assert!(!opens(&any_case, b"authorizationa", 0, 13));
        assert_eq!(
            opening("sk-[0-9]", b"sk-ant-", false, NO_GUARD),
            Opening::Never
        );
        // Bytes further on: `sk-sk-` dies at its second `-`.
        let legacy = opening("sk-[A-Za-z0-9]{20}T3BlbkFJ", b"sk-", false, NO_GUARD);
        assert!(!opens(&legacy, b"sk-sk-sk-", 0, 3) && !opens(&legacy, b"sk-sk-", 0, 3));
        assert!(
            opens(&legacy, b"sk-sk", 0, 3) && opens(&legacy, b"sk-abcdefghijklmnopqrstu", 0, 3)
        );
        assert!(!opens(&legacy, b"sk-ab-", 0, 3), "dies within AHEAD");
        assert!(
            opens(&legacy, b"sk-abcd-", 0, 3),
            "past AHEAD bytes, anything"
        );
        // Matched within the keyword: every byte after it opens.
        assert!(opens(
            &opening("ab", b"abc", false, NO_GUARD),
            b"abC\xff",
            0,
            3
        ));
        assert_eq!(
            opening(r"\bsk-[0-9]", b"sk-", false, NO_GUARD),
            Opening::Any
        );
        // A two-byte keyword is found as written: a pattern that ignores case opens
        // on that spelling only.
        let exact = opening("(?i)sk[0-9]", b"SK", true, NO_GUARD);
        assert!(opens(&exact, b"SK1", 0, 2) && !opens(&exact, b"sk1", 0, 2));
        // The left guard, unless the byte before is an escape's letter.
        let guard = ByteClass::parse("t", "guard", "[an]").unwrap().unwrap();
        let guarded = opening("sk-[0-9]", b"sk-", false, guard);
        assert!(!opens(&guarded, b"ask-1", 1, 3) && opens(&guarded, b" sk-1", 1, 3));
        assert!(opens(&guarded, b"\\nsk-1", 2, 3) && !opens(&guarded, b"xnsk-1", 2, 3));
    }

    /// The run after a keyword is read to where the pattern could first match, every
    /// spelling of the keyword together, and only as far as the pattern's paths can be
    /// followed.
    #[test]
    fn runs_after_keywords_go_to_the_first_possible_match() {
        let class = |c: &str| ByteClass::parse("t", "class", c).unwrap().unwrap();
        let run = |pattern: &str, keyword: &str| run_after(pattern, keyword.as_bytes());
        let ghp = run("ghp_[0-9A-Za-z]{36,255}", "ghp_").unwrap();
        assert_eq!((ghp.class, ghp.n), (class("[0-9A-Za-z]"), 36));
        assert!(ghp.depths == vec![class("[0-9A-Za-z]"); 36]);
        // The literal part is of the class too; the run stops at the first match.
        let legacy = run("sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}", "sk-").unwrap();
        assert_eq!((legacy.class, legacy.n), (class("[A-Za-z0-9]"), 48));
        assert_eq!(legacy.depths[20], class("T"));
        // Every byte some depth reads is of the class: 15, a dot, `eyJ`, 15 more; the
        // dot not before the sixteenth, the slash not before the twentieth.
        let jwt = run("eyJ[A-Za-z0-9_-]{15,}\\.eyJ[A-Za-z0-9_/-]{15,}", "eyJ").unwrap();
        assert_eq!(jwt.n, 34);
        assert_eq!(jwt.class, class("[A-Za-z0-9_./-]"));
        assert!(jwt.depths[..15] == vec![class("[A-Za-z0-9_-]"); 15]);
        assert_eq!(jwt.depths[15], class("[A-Za-z0-9_.-]"));
        assert_eq!(jwt.depths[16], jwt.depths[15]);
        assert!(!jwt.depths[..19].iter().any(|d| d.contains(b'/')));
        assert!(jwt.depths[19].contains(b'/'));
        // Longer than RUN_AFTER: cut there, which only keeps more hits.
        assert_eq!(run("x[a-z]{100}", "x").map(|r| r.n), Some(RUN_AFTER));
        // Any case of the keyword is read.
        assert_eq!(run("(?i:token)[0-9]{2}", "TOKEN").map(|r| r.n), Some(2));
        // Matched within the keyword, or a look-around: none.
        assert_eq!(run("ab", "abc"), None);
        assert_eq!(run("sk-[0-9]+\\b", "sk-"), None);
        assert_eq!(run("\\bsk-[0-9]", "sk-"), None);
        // No spelling of the keyword starts a match.
        assert_eq!(run("sk-[0-9]", "sk-ant-"), None);
    }

    /// Read past the bytes of a longer keyword that holds its own, a pattern dies
    /// within them, or needs its run after them, or cannot be told.
    #[test]
    fn patterns_read_past_longer_keywords_die_or_need_a_run() {
        let class = |c: &str| ByteClass::parse("t", "class", c).unwrap().unwrap();
        let past = |pattern: &str, bytes: &str| read_past(pattern, bytes.as_bytes());
        // `sk-`'s legacy key read through `sk-lf-`, `sk-ant-`: its run has no `-`.
        let legacy = "sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}";
        assert_eq!(past(legacy, "sk-lf-"), Some(Past::Dies));
        assert_eq!(past("sk-[0-9]", "SK-ANT-"), Some(Past::Dies));
        // Read on: the run counts from the end of the bytes read.
        let run = match past("(?i:secret)[_.-]?(?:key|token)[=:][0-9]{8}", "secret_") {
            Some(Past::Run(run)) => (run.class, run.n),
            other => panic!("{other:?}"),
        };
        assert_eq!(run, (class("[=:keyton0-9]"), 12));
        assert_eq!(
            past(legacy, "sk-"),
            run_after(legacy, b"sk-").map(Past::Run)
        );
        // Matched within them, or a look-around: not told.
        assert_eq!(past("sk-[a-z]", "sk-lf-"), None);
        assert_eq!(past("\\bsk-[0-9]", "sk-lf-"), None);
    }

    #[test]
    fn run_caps_end_the_run_after_the_keyword() {
        let class = |c: &str| ByteClass::parse("t", "class", c).unwrap().unwrap();
        let cap = |pattern: &str, max_len: usize| match super::opening(
            pattern, b"token", false, NO_GUARD, max_len,
        ) {
            Opening::Gate(g) => g.cap,
            _ => None,
        };
        let quoted = cap(r#"token[A-Za-z0-9_.-]{0,32}["'],"#, 700).unwrap();
        assert_eq!(quoted.class, class("[A-Za-z0-9_.-]"));
        assert_eq!((quoted.live.len(), quoted.bounded), (33, true));
        assert!(quoted.live.iter().all(|l| *l == class("[\"']")));
        let dies = |text: &str| quoted.dies(text.as_bytes(), 5, &mut { NOT_SEEN });
        let a = |n| "a".repeat(n);
        // Ended by a byte no path reads on, or one byte past the bound.
        assert!(dies(&format!("token{} x", a(5))));
        assert!(dies(&format!("token{}", a(33))));
        // A quote within the bound; the text ends inside the run (unknown).
        assert!(!dies(&format!("token{}'", a(32))));
        assert!(!dies(&format!("token{}", a(32))));
        assert!(!dies(&format!("token{}", a(3))));
        // The next hit inside the run reads on from where the last one stopped.
        let text = format!("token{}token{}token{} ", a(20), a(30), a(3));
        let mut seen = NOT_SEEN;
        assert!(
            quoted.dies(text.as_bytes(), 5, &mut seen),
            "a run of 33 or more"
        );
        assert_eq!(seen, (5, 39));
        assert!(
            quoted.dies(text.as_bytes(), 30, &mut seen),
            "one of 38: read to 34"
        );
        assert_eq!(seen, (5, 64));
        assert!(
            quoted.dies(text.as_bytes(), 62, &mut seen),
            "one of 6, then a space"
        );
        assert_eq!(seen, (5, 68));
        // Never read up to where the candidate would overflow (a match of 20 bytes at
        // most: 15 after the keyword, not bounded).
        let short = cap(r#"token[a-z]{0,32}""#, 20).unwrap();
        assert_eq!((short.live.len(), short.bounded), (16, false));
        assert!(!short.dies(format!("token{}", a(40)).as_bytes(), 5, &mut {
            (usize::MAX, 0)
        }));
        // Runs up to a match, or where the class's bytes part: not bounded.
        let fixed = cap("token[A-Za-z0-9]{20}", 700).unwrap();
        assert_eq!((fixed.live.len(), fixed.bounded), (20, false));
        let parted = cap("token[a-z]{2}(?:[a-m]x|[n-z]y)", 700).unwrap();
        assert_eq!(parted.class, class("[a-z]"));
        assert_eq!((parted.live.len(), parted.bounded), (3, false));
        // The largest group of bytes that act alike, to a bound past both branches.
        let two = cap("token(?:[a-z]{3}x|[a-q]{8}y)", 700).unwrap();
        assert_eq!(two.class, class("[a-q]"));
        assert_eq!((two.live.len(), two.bounded), (9, true));
        assert_eq!(two.live[3], class("x"));
        // A class of fewer than 16 bytes, a match right after the keyword, a
        // look-around: none.
        assert_eq!(cap("token[0-9]{0,32}\"", 700), None);
        assert_eq!(cap("token[a-z]{0,8}", 700), None);
        assert_eq!(cap("token[a-z]{0,8}\\b\"", 700), None);
    }
}
