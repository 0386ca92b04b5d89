//! The keyword prefilter: where in a slice of text could a rule's keyword, or a literal
//! secret's form, occur? Everything after it only runs at the places this reports.
//!
//! Keywords are matched ASCII-case-insensitively, except those whose rule's pattern
//! spells them one way only (most token prefixes: `AKIA`, `ghp_`, Twitter's 21 `A`s;
//! see [`Prefilter::with_cases`]), whose hits count only as written: the search
//! still folds case and each hit of one of those is compared as written, and where a
//! step of the sieve flags many positions it asks their case first (see
//! `sieve::refine`), so that `akia…`, `GHP_…` or a run of `a` cost neither a flag's
//! lookup nor a hit. Those of four bytes or more are found
//! by their rarest four bytes (their *signature*, see [`signature`]), then verified in
//! full, three-byte keywords whole: where the CPU has AVX-512, all of them in one pass
//! of the [`Sieve`] over the slice as written; elsewhere with SIMD Teddy searchers over
//! an ASCII-lowercased copy of the slice, three-byte keywords by one more searcher on
//! that copy (in a storm, on the slice as written, given their [`spellings`]).
//! Shorter ones (`Q~`, `SK`) are exact
//! and found with memmem on the slice itself, block by block (see [`Dense`]), so that
//! every block's hits come in order. Teddy's cost per pass grows with the
//! signatures that share a bucket and collide on their nibbles, so signatures are laid
//! out bucket by bucket (see [`bucket_order`]): three passes of ~62 clustered
//! signatures cost less than four of 48 in the order they came. Small slices (a token delta),
//! and any slice when SIMD is missing, are walked byte by byte through one
//! case-insensitive Aho-Corasick DFA instead (see [`Walk`]), which reports exactly the
//! same hits and, from the state it ends in, how much of the slice's end could still
//! become a keyword. Stretches dense with hits are walked too, each hit asked its
//! keyword's gate; a storm of one keyword that does not repeat goes back to the sieve,
//! which drops its hits that cannot match 64 at a time (see [`Dense::storm`]), or,
//! where there is no sieve, to Teddy's passes with the storm keyword's signature left
//! out and compared apart by AVX2 with the same drop (see
//! [`Prefilter::storm_teddy`]).
//! Literal forms are exact and have an automaton of their own.

use aho_corasick::automaton::Automaton;
use aho_corasick::packed::{self, MatchKind as PackedKind};
use aho_corasick::{dfa, AhoCorasick, Anchored, MatchKind, Span};
use memchr::memmem;

use std::collections::HashMap;
use std::sync::OnceLock;

use super::backoff::Backoff;
use super::opening::{
    opening, read_past, Gate, Opening, Past, Reading, RunBefore, Window, AHEAD, RUN_AFTER,
};
use super::ruleset::{BeforeRun, ByteClass};
use super::sieve::{run_most, Sieve, Storm, OTHERS, OTHERS_REACH, PAIRS_AFTER, STORM_WORD};
use super::stream::head;
#[cfg(target_arch = "x86_64")]
use super::{sieve::fold_of, storm_drop};
use crate::Error;

/// A place where a pattern occurs: `(pattern index, offset of its first byte)`.
pub(crate) type Hit = (u32, usize);

const SIG: usize = 4;
/// Signatures per Teddy pass, at most: measured best for a clustered layout (fewer,
/// fuller passes cost more in verification than they save in scanning).
const PER_PASS: usize = 64;

/// The keywords one signature stands for: `(keyword, offset of the signature in it)`.
type Owners = Vec<(u32, usize)>;

/// A Teddy searcher, and per pattern of it (a signature), the keywords it starts.
type Pass = (packed::Searcher, Vec<Owners>);

/// A Teddy pass's buckets as its search tests a window: per place, per low and per
/// high nibble, the buckets (a bit each) with a signature whose byte there has it. A
/// window is flagged where some bucket has both nibbles of each of its bytes.
#[derive(Clone, Debug)]
struct Nibbles(Vec<([u16; 16], [u16; 16])>);

impl Nibbles {
    /// Those of `sigs` (of one length) laid out as `members` (per bucket, its units).
    fn of(sigs: &[Vec<u8>], units: &[Vec<usize>], members: &[Vec<usize>]) -> Nibbles {
        let mut places = vec![([0u16; 16], [0u16; 16]); sigs[0].len()];
        for (b, bucket) in members.iter().enumerate() {
            for &i in bucket.iter().flat_map(|&u| &units[u]) {
                for ((lo, hi), &c) in places.iter_mut().zip(&sigs[i]) {
                    lo[usize::from(c & 15)] |= 1 << b;
                    hi[usize::from(c >> 4)] |= 1 << b;
                }
            }
        }
        Nibbles(places)
    }
}

/// The buckets of up to four of Teddy's fat passes of [`SIG`]-byte signatures together,
/// as [`Nibbles`] has them (pass `p`'s bucket `b` is bit `16 p + b`): whether any of
/// them flags a window is one word's AND over the window's bytes, with no branch.
#[derive(Clone, Debug)]
struct Flagger([([u64; 16], [u64; 16]); SIG]);

impl Flagger {
    /// Those of `passes` (the first four); `None` without a pass of `SIG`-byte
    /// signatures.
    fn of(passes: &[Nibbles]) -> Option<Flagger> {
        let mut places = [([0u64; 16], [0u64; 16]); SIG];
        let mut any = false;
        for (p, Nibbles(pass)) in passes.iter().take(4).enumerate() {
            if pass.len() != SIG {
                continue;
            }
            any = true;
            for ((lo, hi), (plo, phi)) in places.iter_mut().zip(pass) {
                for n in 0..16 {
                    lo[n] |= u64::from(plo[n]) << (16 * p);
                    hi[n] |= u64::from(phi[n]) << (16 * p);
                }
            }
        }
        any.then_some(Flagger(places))
    }

    /// Whether a pass flags the window `w`.
    #[inline]
    fn flags(&self, w: &[u8; SIG]) -> bool {
        let mut buckets = u64::MAX;
        for ((lo, hi), &c) in self.0.iter().zip(w) {
            buckets &= lo[usize::from(c & 15)] & hi[usize::from(c >> 4)];
        }
        buckets != 0
    }
}

/// Signatures on the lowercased text; per signature, the keywords it starts.
#[derive(Debug)]
struct Keywords {
    /// Each searcher takes at most [`PER_PASS`] signatures: Teddy's false-positive
    /// rate climbs steeply with more patterns per bucket. A searcher's pattern `j`
    /// is a signature in the order [`bucket_order`] chose; `Owners` are per pattern.
    searchers: Vec<Pass>,
    /// Keywords of exactly three bytes (lowercased): one more searcher.
    three: Option<Pass>,
    /// The signatures of each of `searchers`, then of `three`, lowercased, with their
    /// owners: what a pass without one is built from (see [`Without`]).
    passes: Vec<(Vec<Vec<u8>>, Vec<Owners>)>,
    /// Per keyword, the pass that holds its signature built without it, for a storm
    /// of it (see [`Prefilter::storm_teddy`]); made at the first such storm.
    without: Vec<OnceLock<Option<Without>>>,
    /// All the signatures, three and four bytes, in one searcher where the CPU has
    /// AVX-512 (see [`Sieve`]); `Owners` per signature. Used in place of the above.
    sieve: Option<(Sieve, Vec<Owners>)>,
    /// Per signature of `sieve`, how its owners are told at a flag (see [`Told`]).
    told: Vec<Told>,
    /// The same keywords for dense stretches (see [`Dense`]).
    dense: Box<Dense>,
    /// Where there is no sieve, `searchers`' buckets together (see
    /// [`Prefilter::look_alikes`]).
    flagger: Option<Flagger>,
}

/// A storm keyword's Teddy passes without the signatures that begin with its first
/// [`ALIKE`] bytes (its own and its look-alikes': `gho_`, `ghs_`, … for `ghp_`, which
/// Teddy's nibbles could not tell from it, and verified in vain at every copy): in a
/// storm of it, the passes find the other keywords at about their speed on clean
/// text, while those signatures are compared where the storm's first bytes occur,
/// its own with its drop (see [`Prefilter::storm_teddy`]). Every pass is laid out
/// anew for the storm's text (see [`storm_sample`]): laid out for ordinary text, a
/// bucket whose nibbles admit the storm's windows (`kia0`, `aZak` in a storm of `akia`)
/// stops at every copy and verifies its signatures in vain. The three-byte keywords'
/// pass reads the text as written, given their [`spellings`]: on the lowercased copy,
/// a storm of `AZDO` and a random byte holds `oaa` (a keyword found as written) every
/// ten copies, each a stop of ~40 ns. (Outside storms that pass reads the lowercased
/// copy, where a storm of `OAA`, the keyword in the other case, stops it at every copy
/// and so is dense and walked.)
#[derive(Debug)]
struct Without {
    /// Per pass (`three` last): the pass rebuilt without them, `None` where it held
    /// only those.
    passes: Vec<Option<Pass>>,
    /// The signatures left out (lowercased), the storm keyword's first, and the
    /// keywords each starts.
    left: Vec<(Vec<u8>, Owners)>,
    /// Per signature left out: its bytes as a little-endian word, and their mask
    /// (signatures are of [`SIG`] bytes or fewer).
    words: Vec<(u32, u32)>,
    /// Where every keyword those signatures start is found as written, and all
    /// begin them alike: the first [`ALIKE`] bytes as written. Only the places where
    /// those occur are compared: a storm of the keyword in the other case (`GHP_` for
    /// `ghp_`, a run of `a` for Twitter's 21 `A`s) has none.
    exact: Option<[u8; ALIKE]>,
    /// The keywords those signatures start, but for the storm's own at its place: the
    /// bytes of each, where a place has them (see [`storm_drop::others_absent`]),
    /// and the least and most offset.
    #[cfg(target_arch = "x86_64")]
    others: (Vec<storm_drop::Other>, (isize, isize)),
    /// Per pass, its signatures as it reads them, and whether it reads the text
    /// lowercased: what a stretch of the storm's copies is checked against (see
    /// [`storm_drop::Copies`]).
    #[cfg(target_arch = "x86_64")]
    sigs: Vec<(Vec<Vec<u8>>, bool)>,
}

/// What [`Dense::storm_places`] marks of a storm: its drop's places, drops and
/// deaths, and its places as written where given (a storm with a drop); or where a
/// word occurs in any case and as written (a keyword of over 8 bytes, with none).
#[derive(Clone, Copy)]
enum Marks<'a> {
    Drop(&'a Storm, Option<&'a [u8]>),
    Word(&'a [u8], &'a [u8]),
}

/// The first bytes a storm keyword's look-alikes share with it (see [`Without`]).
const ALIKE: usize = 2;

/// Every keyword as one ASCII-case-insensitive DFA of our own table (the hits of a
/// keyword found as written are then compared as written), walked a byte at a time
/// with no setup: the engine for slices too small to repay Teddy's (a token delta),
/// for stretches of dense hits (see [`Dense`]), and for any slice when SIMD is missing.
/// The state it ends in also answers the hold-back question of [`Tails`] for free: an
/// Aho-Corasick state stands for the longest suffix of the text read that is a prefix
/// of some keyword, so the longest one that is a *proper* prefix is a property of the
/// state, computed once per state here (with whether the text's case can change it:
/// see [`Walk::pending_as_written`]).
///
/// The table is taken from aho-corasick's DFA (which builds it) into a flat one of our
/// own so that the loop is a class lookup and a table lookup per byte with the state
/// in a register: through the crate's `Automaton` calls the state lived on the stack,
/// a store and a reload on top of every lookup, and that was most of a delta's cost.
#[derive(Debug)]
struct Walk {
    /// Byte to column (ASCII case folded, but for the literal forms' walk); column 0
    /// is every byte no keyword holds, which leads back to the start from any state.
    class: [u8; 256],
    /// A state's row: one entry per column, then its pending length, then the range
    /// of `ends` it holds.
    stride: usize,
    /// `next[state + column]`, states premultiplied by `stride`; states at
    /// `first_match` and above end a keyword. `next[state + stride - 2..][..2]` is
    /// the range of `ends` of the keywords `state` ends (found without a division:
    /// in a storm that is every few bytes), and `next[state + stride - 3]` the length
    /// of the longest suffix of the text that led there which is a proper prefix of
    /// a keyword, case folded, with [`SURE`] where a keyword found in any case begins
    /// with that suffix (found without a division: a small slice asks it).
    next: Vec<u32>,
    first_match: u32,
    /// The keywords each state ends, `(index, length)`, longest first (so by their
    /// start), ties by index.
    ends: Vec<(u32, u32)>,
    /// Per state whose pending length is not [`SURE`]: the one or two ways the
    /// keywords (all found as written) that begin with that suffix place their
    /// capitals, as [`Tails::capitals`] has them; [`MIXED`] elsewhere.
    capitals: Vec<[u64; 2]>,
    /// The bytes that begin one of these keywords as their rules spell them.
    first: [bool; 256],
    /// The keywords shorter than three bytes (exact, case-sensitive) with their index,
    /// checked where their last byte occurs: one of `short_last`, found with memchr
    /// (rare in text: `K` and `~` for the built-in `SK` and `Q~`), or, for a custom set
    /// with more than three such bytes, one of those flagged in `short_flag`.
    short: Vec<(Vec<u8>, u32)>,
    short_last: Vec<u8>,
    short_flag: [bool; 256],
    /// Per keyword found as written (see [`Prefilter::with_cases`]): the keyword as
    /// given, which a hit's bytes must equal; `None` for the others. The table folds
    /// case for every keyword (telling the cases apart took a table twice the size,
    /// 765 KB, and a 32-byte delta's walks missed the cache the more), so a hit of one
    /// of these is compared with it where the walk reports it.
    written: Vec<Option<Vec<u8>>>,
    /// The length of the longest keyword of three bytes or more.
    longest: usize,
}

/// The flag, on a state's pending length in [`Walk::next`], of a state whose pending
/// suffix begins a keyword found in any case: then the text's case does not change
/// the hold-back question's answer (a keyword found as written holds a suffix only as
/// written, which the walk's table, folding case, cannot tell).
const SURE: u32 = 1 << 31;

/// A map from aho-corasick's DFA states, hashed by a multiplication (with the standard
/// map's SipHash, the walk's build for the built-in keywords took 6.3 ms, now 4.4; the
/// IDs are multiples of the DFA's stride, too sparse for a vector).
type ById<T> =
    HashMap<aho_corasick::automaton::StateID, T, std::hash::BuildHasherDefault<IdHasher>>;

/// See [`ById`]: Fibonacci hashing of a state's ID.
#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Walk {
    /// `long` are the keywords of three bytes or more, `short` the rest; `exact[k]`:
    /// keyword `k`'s hits count only as written (the table folds case either way).
    fn new(
        keywords: &[Vec<u8>],
        long: &[u32],
        exact: &[bool],
        short: Vec<(Vec<u8>, u32)>,
    ) -> Result<Walk, String> {
        Walk::with_case(keywords, long, exact, short, true)
    }

    /// [`Walk::new`], whose table folds case only if `fold` (the literal forms' walk,
    /// which answers only the hold-back question, keeps it: they are matched exactly).
    fn with_case(
        keywords: &[Vec<u8>],
        long: &[u32],
        exact: &[bool],
        short: Vec<(Vec<u8>, u32)>,
        fold: bool,
    ) -> Result<Walk, String> {
        let dfa = dfa::DFA::builder()
            .ascii_case_insensitive(fold)
            .match_kind(MatchKind::Standard)
            .start_kind(aho_corasick::StartKind::Unanchored)
            .prefilter(false)
            .build(long.iter().map(|&i| &keywords[i as usize]))
            .map_err(|e| e.to_string())?;
        let folded = |b: &u8| if fold { b.to_ascii_lowercase() } else { *b };
        let mut bytes: Vec<u8> = long
            .iter()
            .flat_map(|&i| keywords[i as usize].iter().map(folded))
            .collect();
        bytes.sort_unstable();
        bytes.dedup();
        let mut class = [0u8; 256];
        for (c, &b) in bytes.iter().enumerate() {
            let c = u8::try_from(c + 1).map_err(|_| "more than 255 distinct bytes".to_string())?;
            class[usize::from(b)] = c;
            if fold {
                class[usize::from(b.to_ascii_uppercase())] = c;
            }
        }
        let stride = bytes.len() + 4;
        let id = |k: usize| {
            u32::try_from(k * stride)
                .map_err(|_| "too many keyword bytes for one table".to_string())
        };
        // Every state, breadth first over the bytes that occur in keywords; its depth
        // (the length of the suffix it stands for) is its distance from the start.
        let start = dfa
            .start_state(Anchored::No)
            .expect("an unanchored start state");
        let mut states = vec![start];
        // By state: its depth, and the suffix it stands for (its first path, as the
        // table spells it).
        let mut depth = ById::default();
        let mut path = ById::default();
        depth.insert(start, 0u32);
        path.insert(start, Vec::<u8>::new());
        let mut k = 0;
        while k < states.len() {
            let d = depth[&states[k]];
            for &b in &bytes {
                let next = dfa.next_state(Anchored::No, states[k], b);
                depth.entry(next).or_insert_with(|| {
                    let mut p = path[&states[k]].clone();
                    p.push(b);
                    path.insert(next, p[p.len() - d as usize - 1..].to_vec());
                    states.push(next);
                    d + 1
                });
            }
            k += 1;
        }
        // The proper prefixes of the keywords found in any case, as the table spells
        // them: a state's pending length is *sure* when its suffix of that length is
        // one (see [`SURE`]).
        let folded_prefixes: std::collections::HashSet<Vec<u8>> = long
            .iter()
            .filter(|&&i| !fold || exact.get(i as usize) != Some(&true))
            .flat_map(|&i| {
                let k: Vec<u8> = keywords[i as usize].iter().map(folded).collect();
                (1..k.len()).map(move |n| k[..n].to_vec())
            })
            .collect();
        // Ours: the start first, states that end a keyword last.
        states[1..].sort_by_key(|&s| dfa.is_match(s));
        let first_match = states
            .iter()
            .position(|&s| dfa.is_match(s))
            .unwrap_or(states.len());
        let mut ours = ById::default();
        for (k, &s) in states.iter().enumerate() {
            ours.insert(s, id(k)?);
        }
        let mut next = Vec::with_capacity(states.len() * stride);
        let mut capitals = Vec::with_capacity(states.len());
        let mut ends = Vec::new();
        for &s in &states {
            next.push(0);
            // A suffix of length `n` is a proper prefix when some next byte extends it
            // to a state of depth `n + 1`: the deepest state one byte on, less one.
            let mut deepest = 0;
            for &b in &bytes {
                let t = dfa.next_state(Anchored::No, s, b);
                next.push(ours[&t]);
                deepest = deepest.max(depth[&t]);
            }
            let n = deepest.saturating_sub(1);
            let p = &path[&s];
            let suffix = &p[p.len() - n as usize..];
            let sure = n == 0 || folded_prefixes.contains(suffix);
            next.push(n | if sure { SURE } else { 0 });
            // Where it is not, the capitals of the keywords (found as written) that
            // begin with the suffix, as `Tails::capitals` has them.
            let ways = (!sure && n <= 64).then(|| {
                long.iter()
                    .map(|&i| &keywords[i as usize])
                    .filter(|k| {
                        k.len() > suffix.len() && k[..suffix.len()].eq_ignore_ascii_case(suffix)
                    })
                    .fold(None, |ways, k| {
                        Some(with_way(ways, capitals_of(&k[..suffix.len()])))
                    })
            });
            capitals.push(ways.flatten().unwrap_or([MIXED; 2]));
            let at = ends.len();
            if dfa.is_match(s) {
                ends.extend((0..dfa.match_len(s)).map(|m| {
                    let k = long[dfa.match_pattern(s, m).as_usize()];
                    (k, keywords[k as usize].len() as u32)
                }));
                ends[at..].sort_unstable_by_key(|&(k, len)| (std::cmp::Reverse(len), k));
            }
            let to = u32::try_from(ends.len()).map_err(|_| "too many keyword ends".to_string())?;
            next.extend([at as u32, to]);
        }
        let mut first = [false; 256];
        for &i in long {
            let (k, b) = (i as usize, keywords[i as usize][0]);
            first[usize::from(b)] = true;
            if fold && exact.get(k) != Some(&true) {
                first[usize::from(b.to_ascii_lowercase())] = true;
                first[usize::from(b.to_ascii_uppercase())] = true;
            }
        }
        let mut short_flag = [false; 256];
        for (k, _) in &short {
            short_flag[usize::from(k[k.len() - 1])] = true;
        }
        let short_last = (0..=255u8)
            .filter(|&b| short_flag[usize::from(b)])
            .collect();
        Ok(Walk {
            class,
            stride,
            next,
            first_match: id(first_match)?,
            ends,
            capitals,
            first,
            short,
            short_last,
            short_flag,
            written: (0..keywords.len())
                .map(|k| (exact.get(k) == Some(&true)).then(|| keywords[k].clone()))
                .collect(),
            longest: long
                .iter()
                .map(|&k| keywords[k as usize].len())
                .max()
                .unwrap_or(1),
        })
    }

    /// Walk `hay` from the start; `end(state, i)` where byte `i` ends a keyword in
    /// `state`. Returns the state it ends in.
    #[inline(always)]
    fn run(&self, hay: &[u8], mut end: impl FnMut(u32, usize)) -> u32 {
        let mut state = 0u32;
        for (i, &b) in hay.iter().enumerate() {
            // The table is offset by the byte's class before the state indexes it: that
            // address does not wait on the state, so a step is one load, not an add
            // and then a load.
            state = self.next[usize::from(self.class[usize::from(b)])..][state as usize];
            if state >= self.first_match {
                end(state, i);
            }
        }
        state
    }

    /// [`Walk::run`] over `hay` as `N` stretches at once, recording every keyword end
    /// (`ends[chain]`, as [`Walk::recorded`] reads them back); returns how many each
    /// chain recorded and the state the walk ends in. Each step of a walk is a table
    /// load that waits on the one before; the chains' loads do not wait on each
    /// other, so the processor overlaps them. Chain `j` (from 1) starts
    /// [`Walk::longest`] bytes before its stretch, so every keyword that ends in the
    /// stretch lies wholly in what it reads, and keeps only those; the last chain
    /// reads to the end, so its state is the one a single walk would reach. Each step
    /// stores its state and offset, and moves on by one when the state ends a
    /// keyword, with no branch: in a storm, where a keyword ends every few bytes, that
    /// costs less than a call per end. A chain reads at most `CAP` bytes (the
    /// caller's to see to).
    #[inline(never)]
    fn record<const N: usize, const CAP: usize>(
        &self,
        hay: &[u8],
        ends: &mut [Vec<(u32, u32)>; N],
    ) -> ([usize; N], u32) {
        let step = |state: u32, byte: u8| {
            self.next[state as usize + usize::from(self.class[usize::from(byte)])]
        };
        let seg = hay.len() / N;
        let starts: [usize; N] = std::array::from_fn(|j| (j * seg).saturating_sub(self.longest));
        let parts: [&[u8]; N] = std::array::from_fn(|j| {
            &hay[starts[j]..if j + 1 == N { hay.len() } else { (j + 1) * seg }]
        });
        let out: [&mut [(u32, u32); CAP]; N] = ends.each_mut().map(|e| {
            if e.len() < CAP {
                e.resize(CAP, (0, 0));
            }
            <&mut [(u32, u32); CAP]>::try_from(&mut e[..CAP]).expect("CAP entries")
        });
        let (mut states, mut n) = ([0u32; N], [0usize; N]);
        // In step while the first chain lasts (the others are as long or longer);
        // `t` indexes every chain's part.
        #[allow(clippy::needless_range_loop)]
        for t in 0..seg {
            for j in 0..N {
                states[j] = step(states[j], parts[j][t]);
                out[j][n[j] % CAP] = (states[j], t as u32);
                n[j] += usize::from(states[j] >= self.first_match);
            }
        }
        for j in 1..N {
            for (t, &b) in parts[j].iter().enumerate().skip(seg) {
                states[j] = step(states[j], b);
                out[j][n[j] % CAP] = (states[j], t as u32);
                n[j] += usize::from(states[j] >= self.first_match);
            }
        }
        (n, states[N - 1])
    }

    /// Whether [`Walk::record`] takes `hay` with chains of at most `cap` bytes.
    fn records(&self, hay: &[u8], cap: usize) -> bool {
        hay.len() / CHAINS + self.longest + CHAINS <= cap
    }

    /// The keyword ends [`Walk::record`] recorded of a text of `len` bytes (`n` per
    /// chain in `ends`), chain by chain: `(start, ends)`, each end `(state, t)` at
    /// offset `start + t`, in order.
    fn recorded<'a>(
        &self,
        len: usize,
        (ends, n): (&'a Chains, [usize; CHAINS]),
    ) -> impl Iterator<Item = (usize, &'a [(u32, u32)])> {
        let seg = len / CHAINS;
        let longest = self.longest;
        ends.iter().zip(n).enumerate().map(move |(j, (ends, n))| {
            // Chains after the first read `longest` bytes of the one before, whose
            // ends they drop.
            let start = (j * seg).saturating_sub(longest);
            let skip = (j * seg - start) as u32;
            let ends = &ends[..n];
            (start, &ends[ends.partition_point(|&(_, t)| t < skip)..])
        })
    }

    /// The range of [`Walk::ends`] that holds the keywords `state` ends.
    #[inline(always)]
    fn range(&self, state: u32) -> std::ops::Range<usize> {
        let row = state as usize + self.stride;
        self.next[row - 2] as usize..self.next[row - 1] as usize
    }

    /// The keywords `state` ends, `(index, length)`, longest first.
    fn ends(&self, state: u32) -> &[(u32, u32)] {
        &self.ends[self.range(state)]
    }

    /// [`Walk::find_any`], then the hits of keywords found as written kept only where
    /// they are spelled so (tests; the prefilter compares them after its own).
    #[cfg(test)]
    fn find(&self, hay: &[u8], hits: &mut Vec<Hit>, chains: &mut Chains) -> usize {
        let first = hits.len();
        let state = self.find_any(hay, hits, chains);
        self.keep_spelled(hay, hits, first);
        self.pending_in(state)
    }

    /// Append the hits of `hay`, spelled in any case (see [`Walk::keep_spelled`]);
    /// returns the state the walk ends in (whose [`Walk::pending_in`] is the longest
    /// suffix of `hay` that is a proper prefix of a keyword of three bytes or more; the
    /// short ones are the caller's).
    fn find_any(&self, hay: &[u8], hits: &mut Vec<Hit>, chains: &mut Chains) -> u32 {
        // Small chains for a small slice: a scrubber of one short text allocates
        // little. (Without SIMD, a larger slice than that goes as one walk.)
        let state = if hay.len() >= HALVES * self.longest && self.records(hay, SMALL) {
            let (n, state) = self.record::<CHAINS, SMALL>(hay, chains);
            for (start, ends) in self.recorded(hay.len(), (chains, n)) {
                for &(state, t) in ends {
                    self.push_ends(state, start + t as usize, hits);
                }
            }
            state
        } else {
            self.run(hay, |state, i| self.push_ends(state, i, hits))
        };
        match self.short_last[..] {
            [] => {}
            [a] => memchr::memchr_iter(a, hay).for_each(|i| self.short(hay, i, hits)),
            [a, b] => memchr::memchr2_iter(a, b, hay).for_each(|i| self.short(hay, i, hits)),
            [a, b, c] => {
                memchr::memchr3_iter(a, b, c, hay).for_each(|i| self.short(hay, i, hits));
            }
            _ => {
                for (i, &b) in hay.iter().enumerate() {
                    if self.short_flag[usize::from(b)] {
                        self.short(hay, i, hits);
                    }
                }
            }
        }
        state
    }

    /// The longest suffix of `text` that is a proper prefix of one of these keywords,
    /// hits aside.
    fn pending(&self, text: &[u8]) -> usize {
        self.pending_in(self.run(text, |_, _| {}))
    }

    fn pending_in(&self, state: u32) -> usize {
        (self.next[state as usize + self.stride - 3] & !SURE) as usize
    }

    /// The hold-back question's answer for the keywords of three bytes or more, for
    /// `hay`, which led the walk to `state`: [`Walk::pending_in`] where that is
    /// [`SURE`] or `hay`'s suffix of that length is spelled as a keyword that begins
    /// with it; else `None` (a shorter suffix may be: [`Tails`] answers).
    #[inline(always)]
    fn pending_as_written(&self, state: u32, hay: &[u8]) -> Option<usize> {
        match self.next[state as usize + self.stride - 3] {
            n if n & SURE != 0 => Some((n & !SURE) as usize),
            // One byte: whether it begins a keyword as written, or none.
            1 => hay.last().map(|&b| usize::from(self.first[usize::from(b)])),
            n => self.spelled_pending(state as usize / self.stride, n as usize, hay),
        }
    }

    /// [`Walk::pending_as_written`] of a state whose pending length `n` is not sure.
    #[cold]
    #[inline(never)]
    fn spelled_pending(&self, row: usize, n: usize, hay: &[u8]) -> Option<usize> {
        let [a, b] = self.capitals[row];
        if a == MIXED {
            return None;
        }
        let capitals = capitals_of(hay.get(hay.len().checked_sub(n)?..)?);
        (capitals == a || capitals == b).then_some(n)
    }

    // Out of line and cold, here and below: the walk's loop keeps its state in a register.
    #[cold]
    #[inline(never)]
    fn push_ends(&self, state: u32, i: usize, hits: &mut Vec<Hit>) {
        hits.extend(
            self.ends(state)
                .iter()
                .map(|&(k, len)| (k, i + 1 - len as usize)),
        );
    }

    /// Drop from `hits[first..]` (of `hay`) those of keywords found as written that
    /// are spelled otherwise. The caller's, once the walk is done: inside the walk
    /// (the text in its callback, or the first hit's index held across it) it cost a
    /// load at every byte, the loop's registers spilled.
    #[cold]
    #[inline(never)]
    fn keep_spelled(&self, hay: &[u8], hits: &mut Vec<Hit>, first: usize) {
        let mut w = first;
        for r in first..hits.len() {
            let (k, at) = hits[r];
            if self.spelled(hay, k, at) {
                hits[w] = hits[r];
                w += 1;
            }
        }
        hits.truncate(w);
    }

    /// Whether the hit of keyword `k` at `at` of `hay` is spelled as the keyword must
    /// be (any way, unless it is found as written).
    #[inline(always)]
    fn spelled(&self, hay: &[u8], k: u32, at: usize) -> bool {
        match self.written.get(k as usize) {
            Some(Some(written)) => has_at(hay, at, written),
            _ => true,
        }
    }

    #[cold]
    #[inline(never)]
    fn short(&self, hay: &[u8], i: usize, hits: &mut Vec<Hit>) {
        for (k, index) in &self.short {
            if hay[..=i].ends_with(k) {
                hits.push((*index, i + 1 - k.len()));
            }
        }
    }
}

/// Where keyword hits are dense (a storm of `sk-sk-…`, `AAAA…`), every Teddy pass stops
/// at nearly every byte, and each stop costs a restart of the search (40-80 ns). There
/// the keywords of three bytes or more run as one DFA over the text as written instead
/// (the [`Walk`]'s table, which folds case), a table step per byte whatever the number
/// of hits. The text is taken in blocks (of
/// [`BLOCK`] bytes for the DFA, four times that for Teddy, whose calls have a cost of
/// their own); a block after one with [`DENSE_HITS`] hits per [`BLOCK`] bytes or more
/// (or half as many, in text that repeats: see `repeats`) goes through the DFA, any
/// other through Teddy (at sparser hits Teddy is faster; a
/// Teddy block counts its signatures found, keywords or not, as hits here),
/// and the last block's answer carries over to the next slice. A hit belongs to the
/// block holding the first byte of its signature, so every hit is reported once,
/// whichever engine a block used.
///
/// A dense block reports only the hits that may open a candidate (see `opening`: the
/// keyword as its rule spells it, next bytes the rule may read, no left-guard byte
/// before it). In a storm that is nearly none (`SK-SK-…`: Twilio wants a hex digit
/// after `SK`, OpenAI a lowercase `sk-`), and each hit reported cost ~20 ns on its way
/// through the scrubber, to die at once there. The next block's engine is still
/// picked by every hit found.
#[derive(Debug)]
struct Dense {
    /// Per entry of [`Walk::ends`] (the same keywords): `(keyword, length, back)`,
    /// where its signature starts `back & BACK` bytes before the end of the hit, and
    /// `back >> CASED` says how its case is compared: 0, any case; 1, as written, in
    /// its first 8 bytes or fewer; 2, as written, and longer (see [`Dense::cased`]).
    ends: Vec<(u32, u32, u32)>,
    /// Length of the longest keyword.
    longest: usize,
    /// The keywords' gates; `None` when no patterns were given
    /// ([`Prefilter::with_sources`]): every hit is kept.
    gates: Option<Gates>,
    /// Per keyword, where its signature starts in it (0 for the short ones).
    offsets: Vec<u32>,
    /// Per keyword, its length.
    lens: Vec<u32>,
    /// The most of `offsets`.
    offset_most: usize,
    /// The signatures (lowercased), and the keywords each starts, with where it lies in
    /// them (what a storm's bulk drop must account for: see [`Dense::storm`]).
    sigs: Vec<(Vec<u8>, Owners)>,
    /// Per keyword found as written (see [`Walk::written`]): its first bytes (up to
    /// 8) as a little-endian word and the mask that covers them, and whether it is
    /// longer (then the rest is compared too); `(0, 0, false)` for the others. A hit
    /// spelled otherwise is no hit. With gates, whose `spellings` compare the first
    /// 8 bytes, only the longer keywords are compared here: in a storm of `sk-` the
    /// word compared again cost ~28 instructions a hit, 12 % of the storm's time.
    cased: Vec<(u64, u64, bool)>,
    /// Where the CPU has AVX2: a storm's drop where there is no sieve (see
    /// [`super::storm_drop`]).
    #[cfg(target_arch = "x86_64")]
    avx2: Option<pulp::x86::V3>,
}

/// The most bytes before a hit's start that the gate of a keyword with `source` reads:
/// a guard reads 2 (the `\` of an escape); a run, its most and one.
fn reads_back(source: Option<&Source>) -> usize {
    match source {
        Some(Source::Before(run)) => (run.max + 1).max(2),
        _ => 2,
    }
}

/// A keyword's rule, for its gate.
#[derive(Debug)]
pub(crate) enum Source {
    /// Its pattern (from the keyword on), left guard and longest match (`max_len`).
    Pattern(String, ByteClass, usize),
    /// The run its match starts with, before the keyword.
    Before(BeforeRun),
}

/// Per keyword as given, its rule (`None`: every hit is kept), and its gate, built at
/// the first dense hit of the keyword: a storm builds the few it meets, a process that
/// meets none builds none (all at once took 108 ms with a 16-byte look-ahead).
#[derive(Debug)]
struct Gates {
    /// Per keyword: as given, whether it is found as written, and its rule.
    sources: Vec<(Vec<u8>, bool, Option<Source>)>,
    built: Vec<OnceLock<Option<Gate>>>,
    /// Per keyword, what drops a storm of it in bulk (see [`Dense::storm`]), built the
    /// first time a dense block's gates drop many of its hits.
    storms: Vec<OnceLock<Option<Storm>>>,
    /// The most bytes before a hit's start that a gate reads: the guard's byte and the
    /// `\` of an escape before it, or a run before the keyword and one byte more.
    back: usize,
}

impl Gates {
    /// Keyword `k`'s gate (`None`: every hit passes).
    #[inline(always)]
    fn get(&self, k: u32) -> Option<&Gate> {
        self.built[k as usize]
            .get_or_init(|| self.build(k))
            .as_ref()
    }

    /// Keyword `k`'s gate where it is built already (`Some(None)`: built, and every
    /// hit passes); `None` where it is not.
    fn built(&self, k: u32) -> Option<Option<&Gate>> {
        self.built[k as usize].get().map(Option::as_ref)
    }

    /// The most bytes before a hit's start that keyword `k`'s gate reads (see
    /// [`Gates::back`]).
    fn back_of(&self, k: u32) -> usize {
        reads_back(self.sources[k as usize].2.as_ref())
    }

    #[cold]
    #[inline(never)]
    fn build(&self, k: u32) -> Option<Gate> {
        let (keyword, exact, source) = &self.sources[k as usize];
        let (pattern, guard, max_len) = match source.as_ref()? {
            Source::Pattern(pattern, guard, max_len) => (pattern, guard, *max_len),
            Source::Before(run) => {
                return Some(Gate::before(*run, exact.then_some(&keyword[..])));
            }
        };
        match opening(pattern, keyword, keyword.len() < 3, *guard, max_len) {
            Opening::Any => None,
            Opening::Never => Some(Gate::never()),
            Opening::Gate(g) => Some(g),
        }
    }
}

/// In [`Dense::ends`]: the bits of `back` that hold the distance, and where the case
/// kind starts.
const BACK: u32 = 0xffff;
const CASED: u32 = 16;

pub(crate) const BLOCK: usize = 4096;

/// The most blocks a storm part read by the sieve spans while its storm lasts (see
/// [`StormState::lasting`]).
const STORM_BLOCKS: usize = 4;

/// What one call of Teddy's searchers reads of a slice that is not dense: four blocks
/// (each call has a cost of its own).
const TEDDY_READ: usize = 4 * BLOCK;
/// A dense part whose gates drop a hit of one keyword every this many bytes or more
/// is read as a storm of it (see [`Prefilter::storm_part`]), as often as a dense block
/// holds a hit (see [`DENSE_HITS`]); it stays one while its bulk drop keeps dropping
/// one every [`SPREAD_EVERY`] bytes or more ([`SIEVE_SPREAD_EVERY`] with the sieve). A
/// storm part costs its scan and its drop, a walked one a step a byte and a gate a
/// hit: without the sieve, storms of `ghp_`, `AZDO` and `sk-` with 5 to 60 random
/// bytes between copies read as storms at ~550-700 MB/s, and walked (at 16, as they
/// were from 5 bytes apart on) at ~210-400.
const STORM_EVERY: usize = 64;
/// Without the sieve, a storm part read by Teddy stays one while its bulk drop drops
/// a hit every this many bytes or more, and a block through Teddy that holds as many
/// hits, most of them one keyword's, starts one (see [`Prefilter::spread_storm`]). A
/// storm part reads such text at ~700-770 MB/s whatever the distance; the passes,
/// stopping at each copy, at ~450 with copies 64 bytes apart, ~600 at 128 and ~800 at
/// 256: at 256 the storm part was the slower.
const SPREAD_EVERY: usize = 160;
/// [`SPREAD_EVERY`] with the sieve: its storm part (its scan and the drop) reads such
/// text at ~1,350-1,550 MB/s whatever the distance (Intel Xeon, AVX-512 VBMI), while a
/// hit handed to the scrubber costs ~115 ns: the scan alone, stopping at each copy,
/// read ~480 MB/s with copies 64 bytes apart, ~730 at 128, ~1,100 at 256 and
/// ~1,350-1,600 at 448-640, where the two meet.
const SIEVE_SPREAD_EVERY: usize = 512;

/// The most bytes a storm part's drops, or a block's hits that start one, lie apart
/// (see [`SPREAD_EVERY`]).
fn spread_every(sieve: bool) -> usize {
    if sieve {
        SIEVE_SPREAD_EVERY
    } else {
        SPREAD_EVERY
    }
}
/// The shortest dense part read as a storm (see [`Prefilter::storm_part`]).
const STORM_PART: usize = 256;
/// What of a dense block is walked alone while no storm is known: a storm found
/// there reads the rest of the block as a storm part. The whole block walked, a storm
/// at the start of a stream cost its first 64 KiB slice two to three times what each
/// later one costs (~800 hits walked and judged one by one, ~30 ns each).
const STORM_FIRST: usize = 512;
/// The first block of a slice that does not start dense, through the sieve or Teddy (see
/// [`Prefilter::find_gated`]). A storm at a stream's start costs the probe's hits,
/// found and, where it is dense, found again: the first 4 KiB of a stream of copies
/// of `sk-` two bytes apart, or of a word storm, read 1.2-1.5x faster with a probe of
/// 256 bytes. But 256 bytes of agent events' usage counts (`"memory_tokens":0,` and
/// eight more keys, each a keyword of two rules) are dense where their 1 KiB is not,
/// and the dense blocks after such a probe count each key twice and stay dense:
/// the demo's run printed again and again read at a third of the rate
/// (`token_counts_of_agent_events_are_not_dense`).
pub(crate) const PROBE: usize = 512;
/// The fewest hits a probe through the sieve holds for its block to go on as a storm
/// part where they are one keyword's (see [`Prefilter::spread_storm`]): one every 128
/// bytes, half a dense block's (copies of `sk-` 80 bytes apart hold six in 512).
const PROBE_STORM: usize = PROBE * DENSE_HITS / BLOCK / 2;
/// The most bytes a chain of [`Walk::record`] reads: [`CHAINS`] of them take a dense
/// block and its remainder ([`BLOCK`] + [`BLOCK`] / 4, and a keyword length either
/// side) at once; [`Dense::find`] walks a longer span in pieces.
const RECORD: usize = 4096;
/// A walk over this many times [`Walk::longest`] bytes or more goes as [`CHAINS`] chains.
const HALVES: usize = 8;
/// One stop per 64 bytes: a Teddy restart (40-80 ns) every 64 bytes costs about what
/// the DFA's step per byte costs over Teddy's scan. Storms of keywords of up to 63
/// bytes are dense blocks, where gates drop their hits (through Teddy every hit reaches
/// the scrubber), and so is text where signatures occur without their keywords
/// (`dckr_pat_…` holds `pat_`, the signature of `shpat_`).
const DENSE_HITS: usize = BLOCK / 64;

impl Dense {
    fn new(patterns: &[Vec<u8>], sigs: &[Vec<u8>], owners: &[&Owners], walk: &Walk) -> Dense {
        let mut offset = vec![0; patterns.len()];
        let mut longest = 1;
        for &(k, off) in owners.iter().copied().flatten() {
            offset[k as usize] = off as u32;
            longest = longest.max(patterns[k as usize].len());
        }
        let kind = |k: u32| match &walk.written[k as usize] {
            None => 0,
            Some(w) if w.len() <= 8 => 1,
            Some(_) => 2,
        };
        let ends = walk
            .ends
            .iter()
            .map(|&(k, len)| (k, len, (len - offset[k as usize]) | kind(k) << CASED))
            .collect();
        Dense {
            ends,
            longest,
            gates: None,
            offset_most: offset.iter().copied().max().unwrap_or(0) as usize,
            offsets: offset,
            sigs: (sigs.iter().cloned())
                .zip(owners.iter().map(|&o| o.clone()))
                .collect(),
            lens: patterns.iter().map(|p| p.len() as u32).collect(),
            cased: (walk.written.iter())
                .map(|w| match w {
                    None => (0, 0, false),
                    Some(w) => {
                        let n = w.len().min(8);
                        let mask = u64::MAX >> (8 * (8 - n));
                        (head(w) & mask, mask, w.len() > 8)
                    }
                })
                .collect(),
            #[cfg(target_arch = "x86_64")]
            avx2: pulp::x86::V3::try_new(),
        }
    }

    /// Whether a storm's hits can be dropped in bulk without the sieve (see
    /// [`Prefilter::storm_teddy`]).
    fn drops_storms(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        return self.avx2.is_some();
        #[cfg(not(target_arch = "x86_64"))]
        return false;
    }

    /// Set `space` to where a storm's first [`ALIKE`] bytes occur in `at..to` of
    /// `text` and what happens there, 64 positions a word, as `marks` says (see
    /// [`Marks`] and [`super::storm_drop`]); `None` where the CPU has no AVX2.
    fn storm_places(
        &self,
        marks: Marks<'_>,
        text: &[u8],
        (at, to): (usize, usize),
        space: &mut Vec<[u64; 4]>,
    ) -> Option<()> {
        #[cfg(target_arch = "x86_64")]
        {
            use super::storm_drop::{drops, places};
            let simd = self.avx2?;
            match marks {
                Marks::Drop(storm, written) => {
                    drops(simd, (storm, ALIKE, written), text, (at, to), space)
                }
                Marks::Word(word, written) => places(simd, (word, written), text, (at, to), space),
            }
            Some(())
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (marks, text, at, to, space);
            None
        }
    }

    /// Of `hits`: the most bytes before its signature that a hit's gate reads (its
    /// keyword's [`Gates::back_of`] and the bytes of the keyword before its signature),
    /// and the most it reads from its signature on. The first is at least the most
    /// bytes any keyword has before its signature: a copy of a period holds a
    /// keyword's signature where the period does, and the keyword in full where the
    /// text repeats over it.
    fn hit_reads(&self, gates: &Gates, hits: &[Hit]) -> (usize, usize) {
        let mut reads = (self.offset_most, 0);
        for &(k, _) in hits {
            let (offset, len) = (self.offsets[k as usize], self.lens[k as usize]);
            reads.0 = reads.0.max((offset as usize) + gates.back_of(k));
            let gate = (len as usize + AHEAD).max(8);
            reads.1 = reads.1.max(gate - offset as usize);
        }
        reads
    }

    /// What drops the hits of a storm of keyword `k` (`patterns`: every keyword,
    /// lowercased) 64 positions at a time, before any is looked up: built once (see
    /// [`Storm`]). A position where the keyword occurs (any case) is dropped only when
    /// every hit the flag at its signature (`Storm::off` bytes in) would report there
    /// cannot match:
    ///
    /// * each keyword spelled the same at the same place, or lying within it (`token`
    ///   in `ado_token`, `sk-` in `sk-lf-`), has a rule read from its start on, whose
    ///   pattern, read through the rest of the keyword ([`read_past`]), dies within
    ///   it or must read a run of its class past it, or (starting the keyword) a rule
    ///   whose match starts with a run of at least `min` bytes before it: a byte
    ///   outside every such class within the shortest run after (and one within the
    ///   shortest `min` before) ends them all, unmatched, and so does a byte at an
    ///   offset of that run that none of them reads there, as told by the union of
    ///   what their first offsets read (`narrow_ends`, see [`narrow_run`]: a JWT's
    ///   first 15 bytes after `eyJ` hold no dot); or, where every keyword
    ///   read on ends where the storm's does, for the rules read from the keyword on,
    ///   a run past the longest of their gates' bounded run caps (`opening::RunCap`),
    ///   of bytes in all their classes, ends those with one, where the two bytes
    ///   after the keyword end the others (see [`Gate::kills`]: a gate counts from
    ///   its own keyword's end);
    /// * a longer keyword whose signature lies at the flag and which runs past the
    ///   keyword's end needs its next two bytes right after the keyword
    ///   (`after_pairs`; its next byte, `after`, when it has one more or there are
    ///   too many), and one that starts before the keyword, its byte right before
    ///   (`before`): a position with such bytes is kept, unless none of those
    ///   keywords occurs there (`others`: their bytes, up to [`OTHERS`] keywords); one
    ///   whose bytes over the keyword's differ from them is not there.
    ///
    /// `None` too for keywords shorter than 3 bytes or longer than [`STORM_WORD`], or
    /// with a rule of neither kind. (Without the sieve, only a keyword of up to 8
    /// bytes whose signature starts it: see [`Dense::teddy_storm`].)
    fn storm(&self, k: u32, patterns: &[Vec<u8>]) -> Option<&Storm> {
        let gates = self.gates.as_ref()?;
        gates.storms[k as usize]
            .get_or_init(|| self.build_storm(gates, k, patterns))
            .as_ref()
    }

    /// [`Dense::storm`] for a part read without the sieve: Teddy's passes mark the
    /// places of a keyword's first bytes, so only a storm of a keyword whose
    /// signature starts it (and of up to 8 bytes, as it was built for).
    fn teddy_storm(&self, k: u32, patterns: &[Vec<u8>]) -> Option<&Storm> {
        self.storm(k, patterns).filter(|s| s.off == 0 && s.len <= 8)
    }

    #[cold]
    #[inline(never)]
    fn build_storm(&self, gates: &Gates, k: u32, patterns: &[Vec<u8>]) -> Option<Storm> {
        let kw = &patterns[k as usize];
        let len = kw.len();
        if !(3..=STORM_WORD).contains(&len) {
            return None;
        }
        // Where the keyword's signature starts in it: the sieve flags it there.
        let off = self.offsets[k as usize] as usize;
        let rest = kw[off..].to_ascii_lowercase();
        // The runs after and before the keyword its rules need: the union of their
        // classes, the shortest of their lengths (`usize::MAX`: no rule reads one).
        let (mut run, mut n) = ([0u64; 4], usize::MAX);
        // The bytes each offset of those runs reads (their union over the rules).
        let mut depths = vec![[0u64; 4]; RUN_AFTER];
        let (mut back, mut back_n) = ([0u64; 4], usize::MAX);
        // The run after the keyword past which every rule with a bounded cap dies
        // (see `Storm::cap_n`): the bytes in each such cap's class and the longest
        // of their runs; and for every other rule, what kills it in the two bytes
        // after the keyword (see `Storm::cap_first`), as bytes on which each dies
        // at once, bytes on which each dies at once or reaches its gate's node of
        // `Gate::kills`, and bytes on which each dies after those (`None`: a rule
        // reads on after any byte).
        let mut cap = Some(([u64::MAX; 4], 0, [[u64::MAX; 4]; 3]));
        let intersect = |into: &mut [u64; 4], class: ByteClass| {
            for (w, c) in into.iter_mut().zip(class.words()) {
                *w &= c;
            }
        };
        let (mut after, mut before) = ([0u8; 32], [0u8; 32]);
        let mut after_pairs: Vec<[u8; 2]> = Vec::new();
        // The keywords a place kept by the bytes after or before it may begin, and
        // where they start from the keyword's start.
        let mut others: Vec<(u32, isize)> = Vec::new();
        let union = |into: &mut [u64; 4], class: ByteClass| {
            for (w, c) in into.iter_mut().zip(class.words()) {
                *w |= c;
            }
        };
        let add = |set: &mut [u8; 32], b: u8| {
            for c in [b, b.to_ascii_uppercase(), b.to_ascii_lowercase()] {
                set[usize::from(c / 8)] |= 1 << (c % 8);
            }
        };
        // The signatures a flag where the keyword's signature lies looks up: those
        // its bytes from there start with, and those that start with them (then one
        // byte after the keyword, for a three-byte keyword).
        for (sig, owners) in &self.sigs {
            let reported = if sig.len() <= rest.len() {
                rest.starts_with(sig)
            } else {
                sig.starts_with(&rest)
            };
            if !reported {
                continue;
            }
            // Where a keyword whose signature lies `o_off` bytes in starts.
            let start = |o_off: usize| off as isize - o_off as isize;
            if sig.len() > rest.len() {
                // The last byte past the keyword: a position with that byte after the
                // keyword is kept.
                add(&mut after, sig[rest.len()]);
                others.extend(owners.iter().map(|&(o, o_off)| (o, start(o_off))));
                continue;
            }
            for &(o, o_off) in owners {
                let other = &patterns[o as usize];
                let d = start(o_off);
                // Over the keyword, its bytes are the keyword's, or it is not there.
                let agrees = (other.iter().enumerate()).all(|(j, b)| {
                    let at = d + j as isize;
                    !(0..len as isize).contains(&at) || b.eq_ignore_ascii_case(&kw[at as usize])
                });
                let end = d + other.len() as isize;
                if !agrees {
                    continue;
                }
                if d < 0 {
                    add(&mut before, other[(-d - 1) as usize]);
                    others.push((o, d));
                } else if end > len as isize {
                    // Past the keyword: its next byte, or its next two.
                    let next = (len as isize - d) as usize;
                    match other.get(next + 1) {
                        Some(&second) => after_pairs.push([other[next], second]),
                        None => add(&mut after, other[next]),
                    }
                    others.push((o, d));
                } else {
                    // The keyword itself, or one within it: its rules read the rest of
                    // the keyword (none where it ends where the keyword does, `token`
                    // in `ado_token`; `-lf-` after `sk-` in `sk-lf-`), then on from
                    // its end, or die within it; the run before it, where it starts
                    // the keyword.
                    match &gates.sources[o as usize].2 {
                        Some(Source::Pattern(pattern, ..)) => {
                            let Past::Run(r) = read_past(pattern, &kw[d as usize..])? else {
                                continue;
                            };
                            union(&mut run, r.class);
                            n = n.min(r.n);
                            for (into, &class) in depths.iter_mut().zip(&r.depths) {
                                union(into, class);
                            }
                            // A gate's cap and kills count from its own keyword's end.
                            let gate = gates.get(o).filter(|_| end == len as isize);
                            let bounded = gate.and_then(|g| g.cap.as_deref()).filter(|c| c.bounded);
                            cap = match (cap, bounded, gate.and_then(Gate::kills)) {
                                (Some((mut class, most, kills)), Some(c), _) => {
                                    intersect(&mut class, c.class);
                                    Some((class, most.max(c.live.len()), kills))
                                }
                                (
                                    Some((class, most, mut kills)),
                                    None,
                                    Some([first, group, then]),
                                ) => {
                                    intersect(&mut kills[0], first);
                                    let mut either = first.words();
                                    union(&mut either, group);
                                    intersect(&mut kills[1], ByteClass::from_words(either));
                                    intersect(&mut kills[2], then);
                                    Some((class, most, kills))
                                }
                                _ => None,
                            };
                        }
                        // A run shorter than `min` rules the hit out.
                        Some(Source::Before(r)) if r.min > 0 && d == 0 => {
                            union(&mut back, r.class);
                            back_n = back_n.min(r.min);
                        }
                        _ => return None,
                    }
                }
            }
        }
        if n == usize::MAX && back_n == usize::MAX {
            return None;
        }
        after_pairs.sort_unstable();
        after_pairs.dedup();
        if after_pairs.len() > PAIRS_AFTER {
            // Too many to compare: their first bytes keep a hit.
            for [b, _] in std::mem::take(&mut after_pairs) {
                add(&mut after, b);
            }
        }
        // The bytes in a class (`in_it`) or outside it, as a bitmap by byte.
        let bitmap_of = |class: &[u64; 4], in_it: bool| {
            let mut bits = [0u8; 32];
            for b in 0..=255u8 {
                if (class[usize::from(b / 64)] >> (b % 64) & 1 == 1) == in_it {
                    bits[usize::from(b / 8)] |= 1 << (b % 8);
                }
            }
            bits
        };
        let ends = |class: &[u64; 4]| bitmap_of(class, false);
        let bitmap = |class: &[u64; 4]| bitmap_of(class, true);
        let none = |n: usize| if n == usize::MAX { 0 } else { n };
        let (narrow, narrow_n) = narrow_run(&run, &depths[..none(n).min(run_most(len))]);
        // A run longer than the drop reads is no cap (nor one no rule reads).
        let (cap_class, cap_n, [cap_first, cap_group, cap_then]) = cap
            .filter(|&(_, most, _)| (1..=run_most(len)).contains(&most))
            .unwrap_or(([u64::MAX; 4], 0, [[u64::MAX; 4]; 3]));
        others.sort_unstable();
        others.dedup();
        // Each as its bytes from the place of the signature: past the keyword first,
        // then before it, nearest first, then over it (where they mostly agree with
        // it), those a step can read (see `OTHERS_REACH`); too many, none compared.
        let others = if others.len() > OTHERS {
            Vec::new()
        } else {
            (others.iter())
                .map(|&(o, d)| {
                    let bytes = (patterns[o as usize].iter().enumerate())
                        .map(|(j, &c)| (j as isize + d, c))
                        .filter(|&(at, _)| (-OTHERS_REACH..=OTHERS_REACH).contains(&at));
                    let mut bytes: Vec<(isize, u8)> = bytes.collect();
                    bytes.sort_by_key(|&(at, _)| match at {
                        at if at >= len as isize => (0, at),
                        at if at < 0 => (1, -at),
                        at => (2, at),
                    });
                    bytes
                })
                .collect()
        };
        let mut word = [0u8; STORM_WORD];
        word[..len].copy_from_slice(kw);
        Some(Storm {
            word,
            len,
            off,
            ends: ends(&run),
            n: none(n),
            narrow_ends: ends(&narrow),
            narrow_n,
            back_ends: ends(&back),
            back_n: none(back_n),
            cap_ends: ends(&cap_class),
            cap_n,
            cap_first: bitmap(&cap_first),
            cap_then: match cap_first == [u64::MAX; 4] {
                true => None,
                false => Some((bitmap(&cap_group), bitmap(&cap_then))),
            },
            after,
            before,
            after_pairs,
            others,
            #[cfg(target_arch = "x86_64")]
            simd: Default::default(),
        })
    }

    /// The most bytes past a hit's start its gate reads.
    fn gate_reads(&self) -> usize {
        (self.longest + AHEAD).max(8)
    }

    /// The most bytes a hit's gate and [`Kill`] read before its signature, given its
    /// gate's `back`, and from its start on (see [`repeat`]).
    fn reads(&self, back: usize) -> (usize, usize) {
        // A hit's signature lies at most a keyword length past its start.
        (back + self.longest, KILL_READS.max(self.gate_reads()))
    }

    /// Append the hits of `lower` whose signature starts in `at..to`, found by `walk`
    /// (which holds the same keywords), sorted by `(offset, keyword)`. The span is
    /// walked as [`CHAINS`] stretches at once, each recording its keyword ends in
    /// `chains` (see [`Walk::record`]), in pieces of which a chain reads at most
    /// [`RECORD`] bytes. The ends are then read chain by chain, in order of their end:
    /// a hit is moved back past the few longer keywords that start after it
    /// (`secret_access_key` holds four), which costs less than sorting the block.
    /// `text` is the slice as written (the walk folds case), also read by `gates`
    /// (`None`: every hit is reported); returns how many hits it found, reported or
    /// not.
    fn find(
        &self,
        walk: &Walk,
        text: &[u8],
        gates: Option<Gating<'_>>,
        (at, to): (usize, usize),
        (hits, chains, top): (&mut Vec<Hit>, &mut Chains, &mut Top),
    ) -> usize {
        let first = hits.len();
        let piece = (RECORD.saturating_sub(walk.longest + CHAINS) * CHAINS)
            .saturating_sub(2 * self.longest)
            .max(1);
        let (mut at, mut found) = (at, 0);
        while at < to {
            let end = to.min(at.saturating_add(piece));
            let space = (&mut *hits, first, &mut *top);
            found += self.find_piece(walk, (text, gates), (at, end), space, chains);
            at = end;
        }
        found
    }

    #[inline(never)]
    fn find_piece(
        &self,
        walk: &Walk,
        (text, gates): (&[u8], Option<Gating<'_>>),
        (at, to): (usize, usize),
        (hits, first, top): (&mut Vec<Hit>, usize, &mut Top),
        chains: &mut Chains,
    ) -> usize {
        let from = at.saturating_sub(self.longest - 1);
        let stop = (to + self.longest - 1).min(text.len());
        let hay = &text[from..stop];
        let gated = (text, gates);
        let mut found = 0;
        if walk.records(hay, RECORD) {
            let (n, _) = walk.record::<CHAINS, RECORD>(hay, chains);
            for (start, ends) in walk.recorded(hay.len(), (chains, n)) {
                let space = (&mut *hits, first, &mut *top);
                found += self.resolve(walk, ends, from + start, (at, to), space, gated);
            }
        } else {
            // Keywords too long for a piece to fit: one plain walk.
            walk.run(hay, |state, i| {
                let one = [(state, i as u32)];
                let space = (&mut *hits, first, &mut *top);
                found += self.resolve(walk, &one, from, (at, to), space, gated);
            });
        }
        found
    }

    /// Whether the hit of keyword `k` at `start` of `text` is spelled as it must be
    /// (see [`Dense::cased`]).
    #[inline(always)]
    fn spelled(&self, walk: &Walk, text: &[u8], k: u32, start: usize) -> bool {
        let (word, mask, longer) = self.cased[k as usize];
        mask == 0
            || (head(&text[start..]) & mask == word && (!longer || walk.spelled(text, k, start)))
    }

    /// Push to `hits` (sorted from `first` on) the keywords of each recorded end
    /// `(state, t)`, at offset `base + t`, whose signature starts in `at..to`, spelled
    /// as they must be (see [`Dense::cased`]), and which their gate lets through;
    /// returns how many there were, gated or not. Out of line, with its few values in
    /// registers (inline, they were reloaded from the stack at every end).
    #[inline(never)]
    fn resolve(
        &self,
        walk: &Walk,
        recorded: &[(u32, u32)],
        base: usize,
        (at, to): (usize, usize),
        (hits, first, top): (&mut Vec<Hit>, usize, &mut Top),
        (text, gates): (&[u8], Option<Gating<'_>>),
    ) -> usize {
        let mut recent = gates.map(Recent::new);
        let compared = u32::from(recent.is_some());
        let mut found = 0;
        // The keywords of the last state met (a storm's ends are all in one or two).
        let mut last: (u32, &[(u32, u32, u32)]) = (u32::MAX, &[]);
        for &(state, t) in recorded {
            let end = base + t as usize + 1;
            if state != last.0 {
                last = (state, &self.ends[walk.range(state)]);
            }
            for &(k, len, back) in last.1 {
                let sig = end - (back & BACK) as usize;
                let start = end - len as usize;
                // Gated, the gate's `spellings` compare a keyword's first 8 bytes
                // (its answer kept with the window it read): only a longer one is
                // compared here.
                let kind = back >> CASED;
                if sig < at || sig >= to {
                    continue;
                }
                if kind > compared && !self.spelled(walk, text, k, start) {
                    top.misspelled += 1;
                    if let Some(r) = recent.as_mut() {
                        r.misspelled(k);
                    }
                    continue;
                }
                let opens = match recent.as_mut() {
                    None => Some(true),
                    Some(r) => r.opens(k, text, start, len as usize),
                };
                // Misspelled: no hit, for a keyword found as written.
                if opens.is_some() || kind == 0 {
                    found += 1;
                } else {
                    top.misspelled += 1;
                }
                if opens == Some(true) {
                    push_sorted(hits, first, (k, start));
                }
            }
        }
        if let Some(r) = recent {
            top.note(&r, &self.lens);
        }
        found
    }
}

/// The keyword whose hits the gates of a dense block dropped most, and how many: what
/// may be a storm of it (see [`Dense::storm`]).
#[derive(Clone, Copy, Debug, Default)]
struct Top {
    keyword: u32,
    dropped: u32,
    /// Hits of keywords found as written that were not spelled so (`akia` for AWS's
    /// `AKIA`): each a stop of a Teddy searcher, which finds them on the lowercased
    /// copy.
    misspelled: usize,
    /// The keyword whose hits were most often dropped or spelled as it cannot be,
    /// how many of each: without the sieve, a storm of either is read as one (see
    /// [`Prefilter::storm_teddy`]).
    stray: (u32, u32, u32),
}

impl Top {
    /// The most dropped of `recent`'s keywords, if more than this one's, or as many
    /// and longer (`lens`: per keyword); and the most dropped or misspelled. A
    /// keyword's counts add up over the walk's calls (a block's chains are resolved
    /// apart; counted by the chain, a part was a storm at half the density
    /// [`STORM_EVERY`] says). In a storm of `ado_token` each copy is a hit of it and
    /// of `token` for two rules, all dropped: the longest keyword's storm drops them
    /// all (see [`Dense::storm`]), `token`'s none (the `_` before it keeps them).
    fn note(&mut self, recent: &Recent<'_>, lens: &[u32]) {
        for slot in &recent.slots {
            let dropped = slot.dropped
                + if slot.keyword == self.keyword {
                    self.dropped
                } else {
                    0
                };
            let len = |k: u32| lens.get(k as usize).copied().unwrap_or(0);
            let longer = dropped > 0 && len(slot.keyword) > len(self.keyword);
            if dropped > self.dropped || dropped == self.dropped && longer {
                (self.keyword, self.dropped) = (slot.keyword, dropped);
            }
            let mut stray = (slot.keyword, slot.dropped, slot.misspelled);
            if slot.keyword == self.stray.0 {
                (stray.1, stray.2) = (stray.1 + self.stray.1, stray.2 + self.stray.2);
            }
            if stray.1 + stray.2 > self.stray.1 + self.stray.2 {
                self.stray = stray;
            }
        }
    }

    /// The keyword most often dropped or misspelled, how many, and whether most were
    /// misspelled.
    fn stray(&self) -> (u32, u32, bool) {
        let (k, dropped, misspelled) = self.stray;
        (k, dropped + misspelled, misspelled > dropped)
    }
}

/// The least a narrower run (see [`narrow_run`]) leaves out of its storm's run, in
/// printable bytes times its length, for the drop to read it: the storms of
/// `azdo_token` and `scw_` and a letter or digit, whose narrower run of one byte left
/// out only `>`, read ~20 % slower with it, and the storms of none of the 27 built-in
/// keywords whose narrower run scores under six read over 1.1x faster with it.
const NARROW_LEAST: usize = 6;

/// The narrower run a storm's drop also reads after its keyword (see
/// `Storm::narrow_ends`): of the runs its first `k` offsets make (`depths`, the bytes
/// each reads; `k` up to their number), the one that leaves out of `run` (the whole
/// run's class) the most printable ASCII bytes times its length, where that is at
/// least [`NARROW_LEAST`] and `run` leaves some byte out (a run that every byte
/// continues is not read). Its class and length; `([u64::MAX; 4], 0)`: none.
fn narrow_run(run: &[u64; 4], depths: &[[u64; 4]]) -> ([u64; 4], usize) {
    let printable = |class: &[u64; 4]| {
        (b' '..=b'~')
            .filter(|&b| class[usize::from(b / 64)] >> (b % 64) & 1 == 1)
            .count()
    };
    let none = ([u64::MAX; 4], 0);
    if *run == [u64::MAX; 4] {
        return none;
    }
    let whole = printable(run);
    let mut class = [0u64; 4];
    let mut best = (NARROW_LEAST - 1, none);
    for (k, depth) in depths.iter().enumerate() {
        for (w, d) in class.iter_mut().zip(depth) {
            *w |= d;
        }
        let left_out = whole - printable(&class);
        if left_out * (k + 1) > best.0 {
            best = (left_out * (k + 1), (class, k + 1));
        }
    }
    best.1
}

/// Of a storm part's places, as its drop left them (`[places, drops, exact, dead]` a
/// step, see `storm_drop::drops`): how many were dropped, with those kept for another
/// keyword where the storm's own hit is dead; and how many are the keyword in the
/// other case (no hit, but counted: see `Top::misspelled`).
#[inline(always)]
pub(crate) fn storm_counts(space: &[[u64; 4]]) -> (usize, usize) {
    space.iter().fold(
        (0, 0),
        |(dropped, misspelled), &[places, drops, exact, dead]| {
            let kept = places & !drops & exact;
            (
                dropped + (drops | kept & dead).count_ones() as usize,
                misspelled + (places & !drops & !exact).count_ones() as usize,
            )
        },
    )
}

/// Where the dense block `at..to` of `text` repeats (see [`Prefilter::dense_block`]):
/// `(d, m, skip_to, end)`, where the text has the period `d` over every byte read by
/// the hits whose signatures start in `m - d..skip_to`, and up to `end`. A hit reads
/// up to `before` bytes before its signature (its gate), and up to `ahead` bytes from
/// it (its gate and a [`Kill`]). `hint` (0: none) is tried first, from `at` on: the
/// period the block before had, which a storm keeps, and which past a break goes on
/// where the break ends (see [`resume`]).
fn repeat(
    text: &[u8],
    (before, ahead): (usize, usize),
    (at, to): (usize, usize),
    hint: usize,
) -> Option<(usize, usize, usize, usize)> {
    let limit = (to + ahead).min(text.len());
    // Hits of the first period (signatures in `m - d..m`) read from `from` on.
    let stretch = |d: usize| {
        let m = (at + d).max(before + d);
        let from = m - d - before;
        if from + d >= limit {
            return None;
        }
        let end = from + d + same_run(&text[from + d..limit], &text[from..limit - d]);
        let skip_to = end.checked_sub(ahead)?.min(to);
        (skip_to > m).then_some((d, m, skip_to, end))
    };
    if (1..=PERIOD).contains(&hint) {
        if let Some(found) = stretch(hint) {
            return Some(found);
        }
    }
    let probe = at.max(before + 2 * PERIOD + PERIOD_PROBE);
    let window = text.get(probe - PERIOD_PROBE..probe + PERIOD_PROBE)?;
    let start = probe - PERIOD_PROBE;
    let period = |d: usize| d != hint && window == &text[start - d..probe + PERIOD_PROBE - d];
    stretch(nearest_period(text, start, &period)?)
}

/// Where the text goes on with the period `d` after it stopped at `end` (`text[end]`
/// differs from the byte `d` before it): the first place past `end - d` from which
/// the next `2 * PERIOD_PROBE` bytes repeat with it, looked for up to a period and
/// [`PERIOD_PROBE`] bytes past `end`; `None` past that, or where the text ends first.
/// Each try that fails moves past the byte that differed: an inserted `!` costs
/// `d + 1` short compares, and the period's next hits are read from its next byte.
fn resume(text: &[u8], end: usize, d: usize) -> Option<usize> {
    let want = 2 * PERIOD_PROBE;
    let mut from = (end + 1).checked_sub(d)?;
    while from <= end + d + PERIOD_PROBE {
        let next = text.get(from + d..from + d + want)?;
        let run = same_run(next, &text[from..from + want]);
        if run == want {
            return Some(from);
        }
        from += run + 1;
    }
    None
}

/// Where the 8 bytes of `text` from `start` occur up to [`PERIOD`] bytes before it, the
/// nearest distance `d` that `period` accepts, trying at most [`PERIOD_TRIES`]. They
/// are found by a SIMD search (a compare at each distance is a thousand loads in
/// every block, where most blocks have no period); where they occur more than
/// [`PERIOD_FOUND`] times (a run of one byte), by a compare at each distance,
/// nearest first, which stops at the first tries (restarting the search at each
/// occurrence, and comparing the window at each, cost ~100,000 instructions a block
/// in runs of `a` with no period, a quarter more than reading them).
fn nearest_period(text: &[u8], start: usize, period: &impl Fn(usize) -> bool) -> Option<usize> {
    let head = &text[start..start + 8];
    let before = &text[start - PERIOD..start + 7];
    let finder = memchr::memmem::Finder::new(head);
    // Overlapping occurrences too (`find_iter` skips them), in order.
    let (mut found, mut n, mut from) = ([0usize; PERIOD_FOUND], 0, 0);
    while let Some(j) = finder.find(&before[from..]) {
        if n == PERIOD_FOUND {
            let word = |at: usize| &text[at..at + 8];
            return (1..=PERIOD)
                .filter(|&d| word(start - d) == head)
                .take(PERIOD_TRIES)
                .find(|&d| period(d));
        }
        found[n] = from + j;
        (n, from) = (n + 1, from + j + 1);
    }
    found[..n]
        .iter()
        .rev()
        .map(|&j| PERIOD - j)
        .take(PERIOD_TRIES)
        .find(|&d| period(d))
}

/// The most occurrences of a window's first bytes [`nearest_period`] collects, and the
/// most distances it compares the window at.
const PERIOD_FOUND: usize = 64;
const PERIOD_TRIES: usize = 32;

/// The period a dense block's text repeats with (see [`Prefilter::dense_block`]),
/// carried to the next block with the hits of one period: where the text goes on
/// repeating, the next block's hits are copies of them, and no byte of it is read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Period {
    /// The period; 0 when none is carried.
    d: usize,
    /// The hits reported whose signatures start in `first..first + d`, in order.
    hits: Vec<Hit>,
    first: usize,
    /// How many hits were found there, reported or not.
    found: usize,
    /// The text has the period `d` from the first byte those hits read up to `end`.
    end: usize,
    /// The last period found, carried or not: [`repeat`] tries it first.
    hint: usize,
    /// The most bytes before its signature a hit of that period reads (see
    /// [`Dense::hit_reads`]; where a hit was dropped, which is not kept, what any gate
    /// reads); `None` when not known.
    reach: Option<usize>,
    /// Where the text stopped repeating, the first place from which a period can be
    /// found again (see [`Prefilter::dense_block`]).
    again: usize,
    /// When a block the sieve crowds with flags is next asked whether it repeats.
    pub(crate) crowded: Backoff,
}

/// A block the sieve flags once in `CROWDED` bytes or more is asked whether it repeats
/// (see [`Prefilter::find_gated`]).
const CROWDED: usize = 32;

/// Without the sieve, the places of a block [`Prefilter::look_alikes`] samples, and
/// the share of them (one in `LOOK_ALIKE` or more) flagged by Teddy's fat passes that
/// makes the block walked: where those flags hold no signature, Teddy verifies each in
/// vain and reports nothing (a storm of `daaa` and a random byte read at ~200 MB/s, a
/// sixth of clean text), while the walk reads any text at one step a byte. The passes
/// flag 0.18 % of the clean corpus's places (of 64 sampled in each 4 KiB block, never
/// more than 2), ~23 % of such a storm's, and ~8-10 % of one with eight bytes between
/// copies (at one in 12, half its blocks went to Teddy). A block dense with hits is
/// not sampled.
const SAMPLES: usize = 32;
const LOOK_ALIKE: usize = 16;

/// A block walked for its look-alikes (see [`LOOK_ALIKE`]) keeps the next one walked
/// while one of this many of its places, sampled, is flagged: sampled as a block read
/// by Teddy is, a storm of `daaa` with eight bytes between copies (~9 % of places
/// flagged) fell under the threshold one block in five, and each time Teddy read four
/// blocks and verified every copy in vain (half its bytes: the storm read at ~470
/// MB/s, ~670 walked throughout). On the clean corpus one block in ~600 is walked for
/// look-alikes, and the one after it stays walked about one time in nine.
const STAY_SAMPLES: usize = 64;

impl Period {
    /// Append the copies of the period's hits whose signatures start in `lo..hi`
    /// (past the period itself), `offsets` the keywords' signature offsets; returns
    /// how many hits were found there, reported or not, by the period's count. Where
    /// a stretch holds [`RUN_MIN`] periods or more, the copies of a hit of a pattern
    /// `runs` marks are reported as one [`Run`] instead.
    fn copy(
        &self,
        offsets: &[u32],
        (lo, hi): (usize, usize),
        hits: &mut Vec<Hit>,
        runs: &mut Runs,
    ) -> usize {
        let d = self.d;
        if !self.hits.is_empty() {
            let as_runs = !runs.runnable.is_empty() && hi - lo >= RUN_MIN * d;
            let runnable = |k: u32| as_runs && runs.runnable[k as usize];
            let every = self.hits.iter().all(|&(k, _)| runnable(k));
            for r in (((lo - self.first) / d).max(1)..=(hi - 1 - self.first) / d).filter(|_| !every)
            {
                for &(k, h) in &self.hits {
                    let (h, sig) = (h + r * d, h + r * d + offsets[k as usize] as usize);
                    if (lo..hi).contains(&sig) && !runnable(k) {
                        hits.push((k, h));
                    }
                }
            }
            for &(k, h) in self.hits.iter().filter(|&&(k, _)| runnable(k)) {
                // The rounds `r >= 1` whose copy's signature starts in `lo..hi`.
                let sig = h + offsets[k as usize] as usize;
                if hi <= sig {
                    continue;
                }
                let first = lo.saturating_sub(sig).div_ceil(d).max(1);
                let last = (hi - 1 - sig) / d;
                if last >= first {
                    runs.runs.push(Run {
                        k,
                        at: h + first * d,
                        d,
                        n: last - first + 1,
                    });
                }
            }
        }
        self.found * (hi - lo) / d
    }
}

/// The copies of one hit of a period reported at once (see [`Period::copy`]): the
/// pattern `k` at `at`, `at + d`, … (`n` of them; offsets as the hits').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) k: u32,
    pub(crate) at: usize,
    pub(crate) d: usize,
    pub(crate) n: usize,
}

/// The periods a stretch must hold for its copies to be reported as runs.
const RUN_MIN: usize = 4;

/// Where a dense block's copies go as [`Run`]s.
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs {
    /// Per pattern: whether its copies may be reported as runs (none when empty: the
    /// caller wants every hit).
    pub(crate) runnable: Vec<bool>,
    pub(crate) runs: Vec<Run>,
}

impl Runs {
    /// The hits of the runs, in no particular order.
    pub(crate) fn hits(&self) -> impl Iterator<Item = Hit> + '_ {
        (self.runs.iter()).flat_map(|r| (0..r.n).map(move |i| (r.k, r.at + i * r.d)))
    }
}

/// Whether the block `at..to` of `text` repeats (see [`repeat`]), when dense blocks
/// have gates: then the next block is dense at an eighth of the hits. A token printed
/// again and again, each copy run into the next (a hit every 73 bytes, or one every
/// 190), has too few hits for a dense block by their number, and each went on to the
/// scrubber to die there; in a dense block one period is read and the rest counted.
/// A block whose carried `period` goes on past it repeats with no search.
fn repeats(
    text: &[u8],
    dense: &Dense,
    gated: bool,
    (at, to): (usize, usize),
    period: &mut Period,
) -> bool {
    let Some(gates) = dense.gates.as_ref().filter(|_| gated) else {
        return false;
    };
    if period.d > 0 && period.end >= to + dense.reads(gates.back).1 {
        return true;
    }
    let found = repeat(text, dense.reads(gates.back), (at, to), period.hint);
    if let Some((d, ..)) = found {
        period.hint = d;
    }
    found.is_some()
}

/// How many bytes `a` and `b` agree on from their start: `STEP` bytes a call of
/// `memcmp` (a call every 64 bytes cost more than comparing them), then word by word.
pub(crate) fn same_run(a: &[u8], b: &[u8]) -> usize {
    const STEP: usize = 512;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + STEP <= n && a[i..i + STEP] == b[i..i + STEP] {
        i += STEP;
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(*s[i..].first_chunk().expect("8 bytes"));
    while i + 8 <= n {
        let x = word(a, i) ^ word(b, i);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The gates of the last few keywords met, with the last answer each gave past the
/// guard and the bytes it read (see [`Gate::window`]): in a storm every hit of a
/// keyword reads what the one before read, and takes its answer after a compare.
struct Recent<'g> {
    gates: &'g Gates,
    /// Asked of every hit its gate lets through (see [`Kill`]).
    kill: Option<Kill<'g>>,
    /// By keyword, modulo [`RECENT`].
    slots: [Slot<'g>; RECENT],
}

#[derive(Clone, Copy)]
struct Slot<'g> {
    keyword: u32,
    gate: Option<&'g Gate>,
    /// The window of its last hit past the guard, and the answer (`None`: none to
    /// reuse).
    last: Option<(Window, Reading)>,
    /// For a gate of a run before the keyword: the run at its last hit.
    run: Option<RunBefore>,
    /// Its hits dropped (see [`Top`]), and those spelled as it cannot be.
    dropped: u32,
    misspelled: u32,
}

/// Keywords [`Recent`] keeps: a storm holds one to three (`ado_token` holds `token`),
/// and two that share a slot take turns building their answers afresh.
const RECENT: usize = 8;

impl<'g> Recent<'g> {
    fn new(Gating { gates, kill }: Gating<'g>) -> Recent<'g> {
        let empty = Slot {
            keyword: u32::MAX,
            gate: None,
            last: None,
            run: None,
            dropped: 0,
            misspelled: 0,
        };
        Recent {
            gates,
            kill,
            slots: [empty; RECENT],
        }
    }

    /// Whether keyword `k`'s hit at `text[at..]` (`len` bytes) passes its gate: `Some`
    /// of the answer, or `None` where the keyword is spelled as its pattern cannot
    /// spell it (no hit, for a keyword found as written).
    #[inline(always)]
    fn opens(&mut self, k: u32, text: &[u8], at: usize, len: usize) -> Option<bool> {
        let opens = self.judge(k, text, at, len);
        let slot = &mut self.slots[k as usize % RECENT];
        match opens {
            Some(false) => slot.dropped += 1,
            None => slot.misspelled += 1,
            Some(true) => {}
        }
        opens
    }

    /// Count a hit of keyword `k` spelled as its pattern cannot spell it, found so
    /// before its gate was asked (a keyword of over 8 bytes: see [`Dense::cased`]).
    fn misspelled(&mut self, k: u32) {
        self.slot(k).misspelled += 1;
    }

    /// Keyword `k`'s slot, made afresh where another keyword had it.
    #[inline(always)]
    fn slot(&mut self, k: u32) -> &mut Slot<'g> {
        let slot = &mut self.slots[k as usize % RECENT];
        if slot.keyword != k {
            *slot = Slot {
                keyword: k,
                gate: self.gates.get(k),
                last: None,
                run: None,
                dropped: 0,
                misspelled: 0,
            };
        }
        slot
    }

    /// [`Recent::opens`], its drops not counted.
    #[inline(always)]
    fn judge(&mut self, k: u32, text: &[u8], at: usize, len: usize) -> Option<bool> {
        let slot = self.slot(k);
        if let Some(gate) = slot.gate {
            if gate.guarded(text, at) || gate.run_rules_out_after(text, at, &mut slot.run) {
                // Misspelled, a hit is none, blocked or not: counted, a storm of `akia`
                // written first in small slices kept its large slices' blocks dense
                // (~280 MB/s).
                return (!gate.misspelled(text, at)).then_some(false);
            }
            let window = Gate::window(text, at, len);
            let reading = match (window, slot.last) {
                (Some(w), Some((last, reading))) if w == last => reading,
                _ => {
                    let reading = gate.reading(text, at, len);
                    slot.last = window.map(|w| (w, reading));
                    reading
                }
            };
            match reading {
                Reading::Misspelled => return None,
                Reading::Dies => return Some(false),
                Reading::On => {}
            }
        }
        let run = slot.run.and_then(RunBefore::whole);
        Some(self.kill.is_none_or(|kill| !kill(k, text, at, run)))
    }
}

/// The caller's judgement of a hit that passed its gate: `kill(k, text, at, run)` for
/// keyword `k`'s hit at `text[at..]`, where `run` is the length of the run of its
/// rule's class that its gate found right before it (`None` when the gate reads no
/// run, or the run may reach back past `text`). True when its candidate (from the
/// run's start) is already known to die unmatched (the stream's memo of its rule's
/// dead paths; see `stream::Memo`).
pub(crate) type Kill<'a> = &'a dyn Fn(u32, &[u8], usize, Option<usize>) -> bool;

/// The gates a dense block asks, with the caller's [`Kill`], if any.
#[derive(Clone, Copy)]
struct Gating<'a> {
    gates: &'a Gates,
    kill: Option<Kill<'a>>,
}

/// Whether a short keyword's hit at `text[at..]` (`len` bytes) passes `gate`, if any,
/// and then the caller's [`Kill`] of it (keyword `k`), if any; `run` is the run before
/// its last hit (see [`Gate::run_rules_out_after`]).
#[inline(always)]
fn short_opens(
    (gate, kill): (Option<&Gate>, Option<(Kill<'_>, u32)>),
    text: &[u8],
    at: usize,
    len: usize,
    run: &mut Option<RunBefore>,
) -> bool {
    // (No closure: one was not inlined, 30 instructions a hit of `SKSK…`.)
    let opens = match gate {
        None => true,
        Some(g) => {
            !g.guarded(text, at)
                && !g.run_rules_out_after(text, at, run)
                && g.reads_on(text, at, len)
        }
    };
    opens && kill.is_none_or(|(kill, k)| !kill(k, text, at, run.and_then(RunBefore::whole)))
}

/// Walks a walk over [`HALVES`] keyword lengths or more goes as (see [`Walk::record`]).
const CHAINS: usize = 2;

/// Space for the keyword ends of [`Walk::record`]'s chains.
type Chains = [Vec<(u32, u32)>; CHAINS];

/// Append `hit` to `hits`, whose part from `first` on is sorted by `(offset,
/// keyword)`, where it belongs in that order (hits arrive nearly in order: at most a
/// few places back).
#[inline(always)]
fn push_sorted(hits: &mut Vec<Hit>, first: usize, hit: Hit) {
    match hits.last() {
        Some(&(k, h)) if hits.len() > first && (h, k) > (hit.1, hit.0) => {
            insert_sorted(hits, first, hit);
        }
        _ => hits.push(hit),
    }
}

/// [`push_sorted`] when `hit` goes before the last of `hits`: moved back past the
/// (few) later ones.
#[cold]
#[inline(never)]
fn insert_sorted(hits: &mut Vec<Hit>, first: usize, hit: Hit) {
    hits.push(hit);
    let hits = &mut hits[first..];
    let key = |&(k, h): &Hit| (h, k);
    let mut j = hits.len() - 1;
    let hit = hits[j];
    while j > 0 && key(&hits[j - 1]) > key(&hit) {
        hits[j] = hits[j - 1];
        j -= 1;
    }
    hits[j] = hit;
}

/// The space [`Prefilter::find`] works in, kept by its caller from call to call.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// The slice, ASCII-lowercased (for Teddy, where there is no sieve).
    lower: Vec<u8>,
    /// The keyword ends of a walk's chains (see [`Walk::record`]).
    chains: Chains,
    /// A dense block's hits of short keywords (see [`Prefilter::short_dense`]).
    short: Vec<Hit>,
    /// The period carried from block to block (see [`Prefilter::dense_block`]).
    pub(crate) period: Period,
    /// The copies reported as runs, when the caller wants them.
    pub(crate) runs: Runs,
    /// The storm dense blocks read by the sieve, carried from block to block.
    pub(crate) storm: StormState,
    /// Where [`Prefilter::look_alikes`] samples next: a xorshift state (0: not
    /// started).
    sample: u64,
    /// Whether the last block was walked for its look-alikes alone (see
    /// [`STAY_SAMPLES`]).
    alike: bool,
    /// Whether the sieve notes the steps of the next block of a larger slice: after
    /// one that few of its steps had a flag in, from slice to slice (see
    /// `Sieve::find_block`).
    noted: bool,
    /// Tests only: the bytes read as dense blocks.
    #[cfg(test)]
    pub(crate) dense_bytes: usize,
}

/// The keyword of the storm dense blocks read by the sieve (see
/// [`Prefilter::storm_part`]), if any.
#[derive(Clone, Debug, Default)]
pub(crate) struct StormState {
    keyword: Option<u32>,
    /// Without the sieve: whether most of the storm's hits were spelled as its
    /// keyword cannot be (see [`Prefilter::storm_teddy`]).
    other_case: bool,
    /// While there is one, when a dense block looks for a period (a storm that does
    /// not repeat has none: looked for twice a block, that was a tenth of its time).
    period: Backoff,
    /// With the sieve: when a walked part whose hits were dropped starts a storm part.
    /// One whose drop drops too few (hits its gates and kills drop but its bulk drop
    /// cannot: a hit a run cap kills, in a storm of `sb_secret_` and an alphanumeric
    /// byte) makes the next wait 1, 2, 4 … 16 parts; each had been a scan of its part
    /// for nothing (that storm: ~3.6 GB/s, ~5 with the wait).
    pub(crate) tried: Backoff,
    /// Whether the last storm part the sieve read kept its storm (its drop paid): the
    /// next spans up to [`STORM_BLOCKS`] blocks. Set only there, and cleared where the
    /// storm's keyword is set or ends, so it holds only with the sieve and a keyword.
    lasting: bool,
    /// Space for the signature's places, drops, places as written and the storm
    /// keyword's deaths in a dense part where there is no sieve (see
    /// [`super::storm_drop::drops`] and [`Prefilter::storm_teddy`]).
    drops: Vec<[u64; 4]>,
    /// Without the sieve: the stretches of the storm's copies its passes skip.
    copying: Copying,
    /// Tests only: the hits dropped in bulk, and without the sieve the places of a
    /// storm keyword found as written that were spelled otherwise.
    #[cfg(test)]
    pub(crate) dropped: usize,
    /// Tests only: the storm parts the sieve read.
    #[cfg(test)]
    pub(crate) parts: usize,
}

/// A storm's units as written whose stretches of copies its Teddy passes skip (see
/// [`storm_drop::Copies`]), and space for them.
#[derive(Clone, Debug, Default)]
struct Copying {
    /// Each unit seen (at most [`UNITS`]): its keyword, its bytes and its copies,
    /// `None` where it has none.
    #[cfg(target_arch = "x86_64")]
    units: Vec<(u32, Vec<u8>, Option<storm_drop::Copies>)>,
    /// Where a part's windows lie in copies (see [`storm_drop::copies`]).
    space: Vec<u64>,
    /// The window starts the passes read.
    reads: Vec<(usize, usize)>,
    /// When a storm part, and a walked part, is next marked: one whose marks skip
    /// less than a quarter of it (or, walked, that has no unit with copies) makes
    /// the next wait 1, 2, 4, … up to 16 parts (a storm of `daaa` and a random byte
    /// whose stretches were too short to skip cost a fifth more marking them all).
    #[cfg(target_arch = "x86_64")]
    storms: Backoff,
    #[cfg(target_arch = "x86_64")]
    alike: Backoff,
    /// Tests only: whether the passes read every part whole, and how many window
    /// starts they skipped.
    #[cfg(test)]
    whole: bool,
    #[cfg(test)]
    skipped: usize,
}

#[cfg(target_arch = "x86_64")]
impl Copying {
    /// The index of `unit` (for keyword `k`'s storm, or for the walk's keywords
    /// `u32::MAX` less the bytes between copies), its copies worked out by `make` at
    /// its first part; `None` where it has none, or where [`UNITS`] others were
    /// worked out first.
    fn copies_of(
        &mut self,
        k: u32,
        unit: &[u8],
        make: impl FnOnce(&[u8]) -> Option<storm_drop::Copies>,
    ) -> Option<usize> {
        let known = (self.units.iter()).position(|(o, u, _)| *o == k && u[..] == *unit);
        let known = match known {
            Some(i) => i,
            None if self.units.len() < UNITS => {
                self.units.push((k, unit.to_vec(), make(unit)));
                self.units.len() - 1
            }
            None => return None,
        };
        self.units[known].2.as_ref().map(|_| known)
    }

    /// Mark the part `at..to` of `hay` by unit `known`'s copies and set `reads` to
    /// the window starts to read (see [`unskipped`]); returns whether they skip a
    /// quarter of the part or more.
    fn mark(
        &mut self,
        simd: pulp::x86::V3,
        known: usize,
        hay: &[u8],
        (at, to): (usize, usize),
    ) -> bool {
        let Copying {
            units,
            space,
            reads,
            ..
        } = self;
        reads.clear();
        let Some((.., Some(copies))) = units.get(known) else {
            return false;
        };
        storm_drop::copies(simd, copies, hay, (at, to), space);
        unskipped(space, (at, to), copies.margin, reads);
        let skipped = (to - at) - (reads.iter()).map(|(a, b)| b - a).sum::<usize>();
        #[cfg(test)]
        {
            self.skipped += skipped;
        }
        4 * skipped >= to - at
    }

    /// Whether every part is read whole (tests compare the marks with that).
    fn whole(&self) -> bool {
        #[cfg(test)]
        return self.whole;
        #[cfg(not(test))]
        false
    }
}

/// The unit of a storm that does not repeat, and the bytes between its copies (one or
/// two), where the 64 bytes from `at` of `hay` repeat with a period `d` of 4 to 10
/// bytes but at one place in each period, or two places one after the other (the
/// bytes between copies: `daaa` and a random byte): the bytes after those places.
/// (A unit read wrong costs nothing: [`storm_drop::copies`] marks only exact copies.)
#[cfg(target_arch = "x86_64")]
fn unit_of(hay: &[u8], at: usize) -> Option<(&[u8], usize)> {
    const SPAN: usize = 64;
    let w = hay.get(at..at + SPAN + 10)?;
    (4..=10).find_map(|d| {
        // The places in a period where bytes differ from those a period on.
        let mut odd = 0u16;
        for i in 0..SPAN {
            if w[i] != w[i + d] {
                odd |= 1 << (i % d);
            }
        }
        let (gap, last) = match odd.count_ones() {
            1 => (1, odd.trailing_zeros() as usize),
            // Two places one after the other, the second last (`d - 1` then `0`
            // wraps).
            2 if odd & (odd << 1) != 0 => (2, (odd & (odd << 1)).trailing_zeros() as usize),
            2 if odd == 1 | 1 << (d - 1) => (2, 0),
            _ => return None,
        };
        let start = at + last + 1;
        (d - gap >= 3)
            .then(|| hay.get(start..start + d - gap))
            .flatten()
            .map(|unit| (unit, gap))
    })
}

/// Units a stream works out copies for, at most: a storm whose parts each begin in
/// another spelling of its keyword (`ghp_`, `gHp_`, …) costs a few microseconds a
/// part no more than this many times.
#[cfg(target_arch = "x86_64")]
const UNITS: usize = 4;

/// A storm part of this many bytes or more looks for stretches of its copies.
const COPIES_FROM: usize = 1024;

/// Window starts in copies, at least, that the passes skip (each skip is one more
/// call of each pass).
#[cfg(target_arch = "x86_64")]
const SKIP_RUN: usize = 256;

/// The window starts of `at..to` that a storm's passes read: all but runs of at least
/// [`SKIP_RUN`] that `fine` (as [`storm_drop::copies`] sets it) marks, less `margin`
/// at either end; appended to `reads` in order.
#[cfg(target_arch = "x86_64")]
fn unskipped(
    fine: &[u64],
    (at, to): (usize, usize),
    margin: usize,
    reads: &mut Vec<(usize, usize)>,
) {
    let n = to - at;
    // The first position from `i` on whose mark is `want`, or `n`.
    let next = |mut i: usize, want: bool| {
        while i < n {
            let word = fine[i / 64];
            let rest = if want { word } else { !word } >> (i % 64);
            if rest != 0 {
                return (i + rest.trailing_zeros() as usize).min(n);
            }
            i = (i / 64 + 1) * 64;
        }
        n
    };
    let (mut from, mut i) = (0, 0);
    while i < n {
        let first = next(i, true);
        let last = next(first, false);
        // Skipped `margin` starts inside the run at either end.
        let (start, end) = (first + margin, last.saturating_sub(margin));
        if end >= start + SKIP_RUN {
            if start > from {
                reads.push((at + from, at + start));
            }
            from = end;
        }
        i = last;
    }
    if from < n {
        reads.push((at + from, to));
    }
}

/// Below this many bytes, one automaton pass beats the setup of several SIMD searches
/// (a 32-byte token delta is the common case in a stream). Measured with `stream64k`
/// on clean text: the walk (in chains past [`HALVES`] keyword lengths) ahead at 192 B,
/// even at 256-512 B, Teddy ahead from 768 B (592 against 443 MB/s; 702 against 427 at
/// 1 KiB). With the sieve, slices below this take its steps without the blocks that
/// judge density (see [`SIEVE_FROM`]).
const SMALL: usize = 512;

/// From this many bytes a small slice goes through the sieve where there is one, the
/// walk below. A sieve step costs about the same from 1 byte to 64, a walk a dependent
/// table load per byte; `Tails` then answers the hold-back question the walk's last
/// state answered. Measured in the core, clean text, the walk's time over the
/// sieve's a call: 0.70 at 1-4 B chunks, 0.89 at 8, 1.08 at 16, 1.25 at 32, 1.48 at
/// 64, 2.0 at 128, 2.6 at 256, 3.7 at 500.
const SIEVE_FROM: usize = 16;

/// A small slice whose bytes the sieve flags one in this many or more is crowded: the
/// small slices after it take the walk, until one has no hit. Written a byte at a
/// time, a run of `a` is scanned again each write from where the Twitter keyword (21
/// `A`s, found ignoring case) may be arriving, and the sieve flags each of those 20
/// bytes, a lookup each: 590 ns a write, where the walk reads the 21 bytes in a few
/// dozen nanoseconds and answers the hold-back question on the way. Clean text flags one byte in
/// 26 or fewer.
const SMALL_CROWDED: usize = 4;
/// The smallest slice whose sieve steps may be asked their case (see `Sieve::find`):
/// one whole step. A token delta is shorter, and its loop has no code for it.
const CASED_FROM: usize = 64;

#[derive(Debug)]
pub(crate) struct Prefilter {
    /// Every pattern, ASCII-lowercased when it is a keyword, as given when a literal.
    patterns: Vec<Vec<u8>>,
    keywords: Option<Keywords>,
    /// The same keywords as a DFA, for small slices.
    walk: Walk,
    /// Keywords shorter than a signature: exact, case-sensitive.
    short: Vec<(memmem::Finder<'static>, u32)>,
    /// The first bytes of those, as written.
    short_first: [bool; 256],
    /// Literal forms: exact, case-sensitive; pattern indices offset by `literal_base`.
    literals: Option<AhoCorasick>,
    literal_base: u32,
    /// "Could this tail still become a keyword?"
    tails: Tails,
    /// "… or a literal form?" (none without literals): literal forms may be long (a
    /// reversed trie of a pattern's prefixes grows with the square of its length), so
    /// they are asked through a walk's table, one lookup per byte of the window.
    literal_tails: Option<Walk>,
    max_len: usize,
}

/// The proper prefixes of every (lowercased) pattern, reversed, as a trie: it answers
/// "how long is the longest suffix of the text that is a proper prefix of some
/// pattern?" by walking back from the text's end, which stops within a byte or two on
/// ordinary text (a forward automaton has to read the whole window every time).
///
/// The trie folds case, and each node says whose prefix its path is: a keyword's that
/// is found in any case, or only a keyword's found as written (see
/// [`Prefilter::with_cases`]; those shorter than three bytes are always). A suffix
/// whose path is only the latter kind's is held when it is spelled as one of them is:
/// such a node holds the suffix where its capitals are placed one of the one or two
/// ways its keywords place theirs (the trie holds `ghp` for GitHub's `ghp_`, and not
/// `GHP`: D3).
///
/// Each node is a set of columns (a byte's class, as in the [`Walk`]'s table) with a
/// child, as the bits of a word, and the index of its first child: nodes are numbered
/// breadth first, so a node's children are consecutive in column order, and the
/// child by column `c` is the first plus the number of columns below `c` in the set.
/// A step back is two loads and no search among the children (a binary search of the
/// root's 46 mispredicted its branches: 35 ns of a 32-byte delta), and the nodes near
/// the root, where walks end, lie together in 16 bytes each (a row of 47 children a
/// node took 1.3 MB for the built-in keywords, and a walk missed the cache there). A
/// walk that reaches a node the table does not hold (more than 63 distinct bytes in
/// the patterns: no table) answers `None`, and the caller asks a forward walk.
#[derive(Debug)]
struct Tails {
    /// Byte to column (ASCII case folded), from 1; 0 is every byte no pattern holds.
    class: [u8; 256],
    /// Byte to the root's child by it (0: none): the first step, the one nearly
    /// every walk takes, is one load.
    root: [u8; 256],
    nodes: Vec<TailNode>,
    /// Per node, for a path that begins only keywords found as written: where their
    /// prefixes have capitals (bit `n - 1` for the byte `n` from the end), one or two
    /// ways, or [`MIXED`] for three or more (the path is then held in any case; no
    /// built-in keywords spell one path three ways).
    capitals: Vec<[u64; 2]>,
}

/// [`Tails::capitals`] of a path its keywords spell three ways or more.
const MIXED: u64 = u64::MAX;

#[derive(Clone, Copy, Debug, Default)]
struct TailNode {
    /// Bit `c`: a child by column `c`.
    columns: u64,
    /// The index of the first child.
    first: u32,
    /// Whose proper prefix the reversed path to this node is: [`FOLDED`] and
    /// [`WRITTEN`] bits, 0 for none.
    prefix: u8,
}

/// [`TailNode::prefix`]: a prefix of a keyword found in any case.
const FOLDED: u8 = 1;
/// [`TailNode::prefix`]: a prefix of a keyword found as written (spelled as one when
/// the text's capitals are those of [`Tails::capitals`]).
const WRITTEN: u8 = 2;

impl Tails {
    /// `exact[i]`: pattern `i` is found as written (as is any pattern shorter than
    /// three bytes); missing entries are false.
    fn new(patterns: &[Vec<u8>], exact: &[bool]) -> Tails {
        Tails::with_most(patterns, exact, usize::MAX)
    }

    /// The table of at most `most` nodes (the rest are not held).
    fn with_most(patterns: &[Vec<u8>], exact: &[bool], most: usize) -> Tails {
        // The trie, children by byte.
        let mut children: Vec<std::collections::BTreeMap<u8, u32>> = vec![Default::default()];
        let mut prefix = vec![0u8];
        let mut capitals: Vec<Option<[u64; 2]>> = vec![None];
        let mut seen = [false; 256];
        for (i, p) in patterns.iter().enumerate() {
            let as_written = exact.get(i) == Some(&true) || p.len() < 3;
            let kind = if as_written { WRITTEN } else { FOLDED };
            let original = p;
            let p = p.to_ascii_lowercase();
            for &b in &p[..p.len().saturating_sub(1)] {
                seen[usize::from(b)] = true;
            }
            for k in 1..p.len() {
                let mut node = 0usize;
                for &b in p[..k].iter().rev() {
                    let fresh = children.len() as u32;
                    node = *children[node].entry(b).or_insert(fresh) as usize;
                    if node == fresh as usize {
                        children.push(Default::default());
                        prefix.push(0);
                        capitals.push(None);
                    }
                }
                prefix[node] |= kind;
                if as_written {
                    let mask = capitals_of(&original[k.saturating_sub(64)..k]);
                    capitals[node] = Some(with_way(capitals[node], mask));
                }
            }
        }
        let mut class = [0u8; 256];
        let mut columns = 0u8;
        for b in (0..=255u8).filter(|&b| seen[usize::from(b)]) {
            let Some(c) = columns.checked_add(1).filter(|&c| c < 64) else {
                return Tails {
                    class,
                    root: [0; 256],
                    nodes: Vec::new(),
                    capitals: Vec::new(),
                };
            };
            columns = c;
            class[usize::from(b)] = c;
            class[usize::from(b.to_ascii_uppercase())] = c;
        }
        // Breadth first, each node's children in column order (bytes are numbered in
        // their order, so the map's order is theirs).
        let mut order = vec![0u32];
        let mut nodes = Vec::with_capacity(children.len().min(most));
        let mut spelled = Vec::with_capacity(children.len().min(most));
        let mut k = 0;
        while k < order.len() && nodes.len() < most {
            let node = order[k] as usize;
            nodes.push(TailNode {
                columns: children[node]
                    .keys()
                    .fold(0, |set, &b| set | 1 << class[usize::from(b)]),
                first: order.len() as u32,
                prefix: prefix[node],
            });
            spelled.push(capitals[node].unwrap_or([MIXED; 2]));
            order.extend(children[node].values());
            k += 1;
        }
        // The root's children are nodes 1 to 63 at most, one per column, in order.
        let mut root = [0u8; 256];
        for (i, &b) in (1..).zip(children[0].keys()) {
            root[usize::from(b)] = i;
            root[usize::from(b.to_ascii_uppercase())] = i;
        }
        Tails {
            class,
            root,
            nodes,
            capitals: spelled,
        }
    }

    /// Length of the longest suffix of `text` that is a proper prefix of a pattern
    /// (ASCII case folded, except for the patterns found as written); `None` when the
    /// walk back reaches a node the table does not hold.
    #[inline]
    fn pending(&self, text: &[u8]) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let Some((&last, rest)) = text.split_last() else {
            return Some(0);
        };
        let mut at = match self.root[usize::from(last)] {
            0 => return Some(0),
            first => usize::from(first),
        };
        let mut node = *self.nodes.get(at)?;
        let mut best = 0;
        let mut bytes = rest.iter().rev();
        for n in 1.. {
            if node.prefix != 0 && (node.prefix & FOLDED != 0 || self.spelled(at, text, n)) {
                best = n;
            }
            let Some(&b) = bytes.next() else {
                break;
            };
            let bit = 1u64 << self.class[usize::from(b)];
            if node.columns & bit == 0 {
                break;
            }
            at = node.first as usize + (node.columns & (bit - 1)).count_ones() as usize;
            node = *self.nodes.get(at)?;
        }
        Some(best)
    }

    /// Whether the suffix of `n` bytes of `text` that led to node `at`, whose path
    /// begins only keywords found as written, is spelled as one of them: its capitals
    /// are theirs (see [`Tails::capitals`]). Out of line: few walks back reach such a
    /// node, and the loop's registers stay its own.
    #[inline(never)]
    fn spelled(&self, at: usize, text: &[u8], n: usize) -> bool {
        let [a, b] = self.capitals[at];
        n >= 64 || a == MIXED || {
            let capitals = capitals_of(&text[text.len() - n..]);
            capitals == a || capitals == b
        }
    }
}

/// Bit `j` set where the byte `j + 1` from the end of `suffix` (at most 64 bytes) is a
/// capital letter.
fn capitals_of(suffix: &[u8]) -> u64 {
    (suffix.iter().rev().enumerate())
        .fold(0, |m, (j, &c)| m | u64::from(c.is_ascii_uppercase()) << j)
}

/// The ways of placing capitals `ways` (see [`Tails::capitals`]) with `mask` added:
/// one or two, [`MIXED`] from three on.
fn with_way(ways: Option<[u64; 2]>, mask: u64) -> [u64; 2] {
    match ways {
        None => [mask, mask],
        Some([MIXED, _]) => [MIXED; 2],
        Some([a, b]) if mask == a || mask == b => [a, b],
        Some([a, b]) if a == b => [a, mask],
        Some(_) => [MIXED; 2],
    }
}

impl Prefilter {
    /// `keywords` are numbered first, then `literals`, in the order given.
    /// Every keyword is found ignoring ASCII case (see [`Prefilter::with_cases`]).
    #[cfg(test)]
    pub(crate) fn new(keywords: &[Vec<u8>], literals: &[Vec<u8>]) -> Result<Prefilter, Error> {
        Prefilter::build(keywords, &[], literals, true)
    }

    /// As [`Prefilter::new`], with keyword `k` found as written where `exact[k]` (its
    /// rule matches no other spelling: see `opening::spelled_as_written`), ignoring
    /// ASCII case elsewhere. Keywords shorter than three bytes are always exact.
    pub(crate) fn with_cases(
        keywords: &[Vec<u8>],
        exact: &[bool],
        literals: &[Vec<u8>],
    ) -> Result<Prefilter, Error> {
        Prefilter::build(keywords, exact, literals, true)
    }

    /// The prefilter as a CPU without AVX-512 has it: Teddy's searchers, no sieve.
    #[cfg(test)]
    pub(crate) fn without_sieve(keywords: &[Vec<u8>]) -> Prefilter {
        Prefilter::build(keywords, &[], &[], false).expect("a prefilter")
    }

    /// The prefilter as a CPU without AVX-512 has it, keywords found with their case
    /// where `exact` says (tests).
    #[cfg(test)]
    pub(crate) fn without_sieve_cased(keywords: &[Vec<u8>], exact: &[bool]) -> Prefilter {
        Prefilter::build(keywords, exact, &[], false).expect("a prefilter")
    }

    fn build(
        keywords: &[Vec<u8>],
        exact: &[bool],
        literals: &[Vec<u8>],
        sieve: bool,
    ) -> Result<Prefilter, Error> {
        let exact: Vec<bool> = (0..keywords.len())
            .map(|k| exact.get(k).copied().unwrap_or(false) && keywords[k].len() >= 3)
            .collect();
        let err = |e: aho_corasick::BuildError| Error::Config {
            reason: format!("keyword prefilter: {e}"),
        };
        let mut patterns: Vec<Vec<u8>> = keywords.iter().map(|k| k.to_ascii_lowercase()).collect();
        let mut short = Vec::new();
        let mut three_sigs: Vec<Vec<u8>> = Vec::new();
        let mut three_owners: Vec<Owners> = Vec::new();
        let mut sigs: Vec<Vec<u8>> = Vec::new();
        let mut by_sig: Vec<Owners> = Vec::new();
        // Shortest first, so that a keyword containing a shorter one's signature
        // (`sk-proj-` contains `sk-`) shares it instead of adding a pattern.
        let mut order: Vec<usize> = (0..patterns.len()).collect();
        order.sort_by_key(|&i| (patterns[i].len(), i));
        for i in order {
            let k = &patterns[i];
            if k.len() < 3 {
                short.push((memmem::Finder::new(&keywords[i]).into_owned(), i as u32));
                continue;
            }
            let shared = |set: &[Vec<u8>]| {
                set.iter()
                    .enumerate()
                    .find_map(|(j, sig)| memmem::find(k, sig).map(|off| (j, off)))
            };
            if let Some((j, off)) = shared(&three_sigs) {
                three_owners[j].push((i as u32, off));
            } else if k.len() < SIG {
                three_sigs.push(k.clone());
                three_owners.push(vec![(i as u32, 0)]);
            } else if let Some((j, off)) = shared(&sigs) {
                by_sig[j].push((i as u32, off));
            } else {
                let off = signature(k);
                sigs.push(k[off..off + SIG].to_vec());
                by_sig.push(vec![(i as u32, off)]);
            }
        }
        let all: Vec<Vec<u8>> = sigs.iter().chain(&three_sigs).cloned().collect();
        // The two-byte keywords go with the sieve's pass where it takes them.
        let pairs: Vec<Vec<u8>> = short
            .iter()
            .map(|(_, i)| keywords[*i as usize].clone())
            .collect();
        let long: Vec<u32> = (0..keywords.len() as u32)
            .filter(|&i| keywords[i as usize].len() >= 3)
            .collect();
        let has_long = !long.is_empty();
        let short_keywords = short
            .iter()
            .map(|&(_, i)| (keywords[i as usize].clone(), i))
            .collect();
        let walk =
            Walk::new(keywords, &long, &exact, short_keywords).map_err(|e| Error::Config {
                reason: format!("keyword prefilter: {e}"),
            })?;
        let cased: Vec<Option<Vec<u8>>> = (by_sig.iter().chain(&three_owners))
            .zip(&all)
            .map(|(owners, sig)| cased(owners, sig.len(), &walk.written))
            .collect();
        let sieve = sieve.then(|| {
            Sieve::with_cases(&all, &cased, &pairs).or_else(|| Sieve::with_cases(&all, &cased, &[]))
        });
        let sieve = sieve.flatten().map(|sieve| {
            let owners: Vec<Owners> = by_sig.iter().chain(&three_owners).cloned().collect();
            (sieve, owners)
        });
        let (mut searchers, mut nibbles) = (Vec::new(), Vec::new());
        let per = sigs
            .len()
            .div_ceil(sigs.len().div_ceil(PER_PASS).max(1))
            .max(1);
        // Teddy's searchers are only built where there is no sieve.
        let teddy_sigs = if sieve.is_some() { &[][..] } else { &sigs[..] };
        for (chunk, owners) in teddy_sigs.chunks(per).zip(by_sig.chunks(per)) {
            match teddy_pass(chunk, owners, Text::Lowered(None)) {
                Some((searcher, n)) => {
                    searchers.push(searcher);
                    nibbles.push(n);
                }
                None => {
                    searchers.clear();
                    break;
                }
            }
        }
        let three = if three_sigs.is_empty() || sieve.is_some() {
            None
        } else {
            match teddy_pass(&three_sigs, &three_owners, Text::Lowered(None)) {
                Some((searcher, _)) => Some(searcher),
                None => {
                    searchers.clear();
                    None
                }
            }
        };
        // What each pass was built of, `three` last.
        let mut passes: Vec<(Vec<Vec<u8>>, Vec<Owners>)> = (teddy_sigs.chunks(per))
            .zip(by_sig.chunks(per))
            .take(searchers.len())
            .map(|(sigs, owners)| (sigs.to_vec(), owners.to_vec()))
            .collect();
        if three.is_some() {
            passes.push((three_sigs.clone(), three_owners.clone()));
        }
        let teddy = !searchers.is_empty() || (sigs.is_empty() && three.is_some());
        let keywords_index = if has_long && (sieve.is_some() || teddy) {
            let owners: Vec<&Owners> = by_sig.iter().chain(&three_owners).collect();
            let dense = Box::new(Dense::new(&patterns, &all, &owners, &walk));
            let told = match &sieve {
                Some((_, owners)) => (owners.iter())
                    .map(|o| Told::new(o, &patterns, &walk.written))
                    .collect(),
                None => Vec::new(),
            };
            Some(Keywords {
                flagger: Flagger::of(&nibbles).filter(|_| !searchers.is_empty()),
                told,
                searchers,
                three,
                passes,
                without: (0..patterns.len()).map(|_| OnceLock::new()).collect(),
                sieve,
                dense,
            })
        } else {
            None
        };
        let mut short_first = [false; 256];
        for k in keywords.iter().filter(|k| k.len() == 2) {
            short_first[usize::from(k[0])] = true;
        }
        let literal_base = patterns.len() as u32;
        patterns.extend(literals.iter().cloned());
        let tails = Tails::new(keywords, &exact);
        let literal_tails = if literals.is_empty() {
            None
        } else {
            let all: Vec<u32> = (0..literals.len() as u32).collect();
            Some(
                // Case kept, unless the forms hold more distinct bytes than a table
                // has columns: then folded (more held than the least, never less).
                Walk::with_case(literals, &all, &[], Vec::new(), false)
                    .or_else(|_| Walk::new(literals, &all, &[], Vec::new()))
                    .map_err(|e| Error::Config {
                        reason: format!("literal prefilter: {e}"),
                    })?,
            )
        };
        let max_len = patterns.iter().map(Vec::len).max().unwrap_or(1);
        let literals = if literals.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .build(literals)
                    .map_err(err)?,
            )
        };
        Ok(Prefilter {
            patterns,
            keywords: keywords_index,
            walk,
            short,
            short_first,
            literals,
            literal_base,
            tails,
            literal_tails,
            max_len,
        })
    }

    /// Give each keyword (in the order [`Prefilter::new`] took them) its rule's pattern
    /// and left guard, or `None` for a rule whose match starts before its keyword:
    /// dense blocks then report only the hits that may open a candidate (see
    /// [`Dense`]).
    pub(crate) fn with_sources(
        mut self,
        keywords: &[Vec<u8>],
        sources: Vec<Option<Source>>,
    ) -> Prefilter {
        if let Some(k) = &mut self.keywords {
            let back = sources
                .iter()
                .map(Option::as_ref)
                .map(reads_back)
                .fold(2, usize::max);
            let sources: Vec<_> = (keywords.iter().zip(&self.walk.written).zip(sources))
                .map(|((k, written), source)| (k.clone(), written.is_some(), source))
                .collect();
            let built = sources.iter().map(|_| OnceLock::new()).collect();
            let storms = sources.iter().map(|_| OnceLock::new()).collect();
            k.dense.gates = Some(Gates {
                sources,
                built,
                storms,
                back,
            });
        }
        self
    }

    /// Whether keyword `k` is found as written (tests).
    #[cfg(test)]
    pub(crate) fn is_exact(&self, k: u32) -> bool {
        self.walk.written[k as usize].is_some()
    }

    /// Whether dense blocks drop storms' hits in bulk: the sieve looks up byte tables
    /// and the keywords have their rules' patterns (tests).
    #[cfg(test)]
    pub(crate) fn storms_in_bulk(&self) -> bool {
        self.keywords.as_ref().is_some_and(|k| {
            k.dense.gates.is_some()
                && match &k.sieve {
                    Some((s, _)) => s.by_bytes(),
                    None => k.dense.drops_storms(),
                }
        })
    }

    /// Whether the keywords are found by the sieve (tests).
    #[cfg(test)]
    pub(crate) fn sieved(&self) -> bool {
        self.keywords.as_ref().is_some_and(|k| k.sieve.is_some())
    }

    /// A word no keyword holds that both of the sieve's sets of buckets flag (see
    /// `Sieve::look_alike_of_both`); `None` without a sieve (tests).
    #[cfg(test)]
    pub(crate) fn sieve_look_alike(&self) -> Option<Vec<u8>> {
        let (sieve, _) = self.keywords.as_ref()?.sieve.as_ref()?;
        sieve.look_alike_of_both()
    }

    /// Keyword `k`'s gate, as dense blocks use it (built now if it is not).
    pub(crate) fn gate(&self, k: u32) -> Option<&Gate> {
        self.keywords.as_ref()?.dense.gates.as_ref()?.get(k)
    }

    /// [`Prefilter::gate`] where it is built already (by any stream of this rule set):
    /// `Some` of it, `None` where it is not.
    pub(crate) fn gate_built(&self, k: u32) -> Option<Option<&Gate>> {
        match self
            .keywords
            .as_ref()
            .and_then(|kw| kw.dense.gates.as_ref())
        {
            Some(gates) => gates.built(k),
            None => Some(None),
        }
    }

    /// Where keyword `k`'s signature starts in it (tests).
    #[cfg(test)]
    pub(crate) fn signature_offset(&self, k: u32) -> usize {
        self.keywords
            .as_ref()
            .map_or(0, |kw| kw.dense.offsets[k as usize] as usize)
    }

    /// Keyword `k`'s storm drop, if it has one (tests; see [`Dense::storm`]).
    #[cfg(test)]
    pub(crate) fn storm(&self, k: u32) -> Option<&Storm> {
        self.keywords.as_ref()?.dense.storm(k, &self.patterns)
    }

    /// Every hit the sieve's flag at `text[at]` reports: the keywords whose signature
    /// starts there, spelled as they must be, at their starts (tests).
    #[cfg(test)]
    pub(crate) fn hits_by_signature_at(&self, text: &[u8], at: usize) -> Vec<Hit> {
        let Some(keywords) = &self.keywords else {
            return Vec::new();
        };
        let lower = text.to_ascii_lowercase();
        let mut hits = Vec::new();
        for (sig, owners) in &keywords.dense.sigs {
            if !lower[at..].starts_with(sig) {
                continue;
            }
            for &(k, off) in owners {
                if let Some(h) = at.checked_sub(off) {
                    if self.has_keyword_at(text, h, k) {
                        hits.push((k, h));
                    }
                }
            }
        }
        hits
    }

    /// The hits of `text[at..]` taken as one dense block (tests), sorted: with `gated`,
    /// those its keywords' gates, and `kill` if any, let through.
    #[cfg(test)]
    pub(crate) fn dense_hits(
        &self,
        text: &[u8],
        (gated, kill): (bool, Option<Kill<'_>>),
        at: usize,
    ) -> Vec<Hit> {
        let dense = &self.keywords.as_ref().expect("keywords").dense;
        let gates = (dense.gates.as_ref())
            .filter(|_| gated)
            .map(|gates| Gating { gates, kill });
        let mut hits = Vec::new();
        let space = (&mut hits, &mut Default::default(), &mut Vec::new(), &mut 0);
        let block = (at, text.len());
        let carry = (
            &mut Period::default(),
            &mut Runs::default(),
            &mut StormState::default(),
        );
        let lower = text.to_ascii_lowercase();
        self.dense_block(dense, (text, &lower), gates, block, space, carry);
        hits.sort_unstable_by_key(|&(k, h)| (h, k));
        hits
    }

    /// The bytes a large slice's first scan reads before its hits are counted (and
    /// the scan may stop, or go dense): one block through the sieve, [`TEDDY_READ`]
    /// through Teddy (tests).
    #[cfg(test)]
    pub(crate) fn first_read(&self) -> usize {
        if self.sieved() {
            BLOCK
        } else {
            TEDDY_READ
        }
    }

    /// Every keyword, as given to [`Prefilter::new`] (tests).
    #[cfg(test)]
    pub(crate) fn keywords(&self) -> Vec<Vec<u8>> {
        self.keywords
            .as_ref()
            .and_then(|k| k.dense.gates.as_ref())
            .map(|g| g.sources.iter().map(|(k, _, _)| k.clone()).collect())
            .unwrap_or_default()
    }

    /// Pattern `i` as matched: lowercased for keywords.
    pub(crate) fn pattern(&self, i: u32) -> &[u8] {
        &self.patterns[i as usize]
    }

    /// Length of the longest pattern.
    pub(crate) fn max_len(&self) -> usize {
        self.max_len
    }

    /// Length of keyword `k`.
    pub(crate) fn keyword_len(&self, k: u32) -> usize {
        self.patterns[k as usize].len()
    }

    /// The earliest offset in `tail` from which the rest of `tail` is a proper prefix of
    /// some pattern (ASCII case folded, except for the keywords found as written and
    /// the literal forms, which are held only as written): where a keyword may be
    /// arriving. `keyword` is that length for the keywords alone when a walk of
    /// [`Prefilter::find`] already answered it for this tail (its table folds case: it
    /// answers only where the case does not matter, see [`SURE`]).
    pub(crate) fn partial_start(&self, tail: &[u8], keyword: Option<usize>) -> Option<usize> {
        let from = tail.len().saturating_sub(self.max_len.saturating_sub(1));
        let window = &tail[from..];
        let forms = self.literal_tails.as_ref().map_or(0, |t| t.pending(window));
        let keyword = keyword.unwrap_or_else(|| {
            self.tails.pending(window).unwrap_or_else(|| {
                // A node the table does not hold: the forward walk, as `find` asks it
                // (case folded: more held than the least, never less).
                self.walk.pending(window).max(self.short_pending(window))
            })
        });
        match keyword.max(forms) {
            0 => None,
            n => Some(tail.len() - n),
        }
    }

    pub(crate) fn is_keyword(&self, i: u32) -> bool {
        i < self.literal_base
    }

    /// Whether keyword `k`'s hit at `text[at..]` passes its gate (see `opening`): may
    /// open a candidate, as far as the bytes of `text` tell. True where the keyword
    /// has none (no pattern given, or no SIMD: no dense blocks, no gates).
    pub(crate) fn opens(&self, k: u32, text: &[u8], at: usize) -> bool {
        let gates = (self.keywords.as_ref()).and_then(|kw| kw.dense.gates.as_ref());
        gates
            .and_then(|g| g.get(k))
            .is_none_or(|gate| gate.opens(text, at, self.patterns[k as usize].len()))
    }

    /// Append to `hits` every occurrence in `hay` of every pattern (overlapping ones
    /// included), in no particular order. `scratch` is space it reuses; `dense` says
    /// whether the text before `hay` had dense hits, and is left saying it of `hay`'s
    /// end (it only picks the engine: the hits are the same). Returns, when the engine
    /// answered it on the way, the length of the longest suffix of `hay` that is a
    /// proper prefix of a keyword (see [`Prefilter::partial_start`]).
    pub(crate) fn find(
        &self,
        hay: &[u8],
        scratch: &mut Scratch,
        hits: &mut Vec<Hit>,
        dense_before: &mut bool,
    ) -> Option<usize> {
        self.find_gated(hay, scratch, hits, dense_before, (true, None, usize::MAX))
            .0
    }

    /// [`Prefilter::find`]; `gated` false: dense blocks report every hit too (the
    /// reference the gates must equal, in tests); `kill`: dense blocks also drop the
    /// hits it judges dead. `most`: the search stops after the block in which the
    /// hits reported reach that many, before the end of `hay`; it then returns, second,
    /// the offset it stopped at: every hit that ends by it has been reported (and
    /// some that do not). A pass that stops returns no pending length.
    pub(crate) fn find_gated(
        &self,
        hay: &[u8],
        scratch: &mut Scratch,
        hits: &mut Vec<Hit>,
        dense_before: &mut bool,
        (gated, kill, most): (bool, Option<Kill<'_>>, usize),
    ) -> (Option<usize>, Option<usize>) {
        let first = hits.len();
        let mut stopped = None;
        let Scratch {
            lower,
            chains,
            short,
            period,
            runs,
            storm,
            sample,
            alike,
            noted,
            #[cfg(test)]
            dense_bytes,
        } = scratch;
        runs.runs.clear();
        // Offsets in a period carried are the last slice's.
        *period = Period {
            hint: period.hint,
            reach: period.reach,
            crowded: period.crowded,
            hits: std::mem::take(&mut period.hits),
            ..Period::default()
        };
        let mut pending = None;
        match &self.keywords {
            Some(keywords) if hay.len() >= SMALL => {
                let Keywords {
                    searchers,
                    three,
                    sieve,
                    dense,
                    flagger,
                    ..
                } = keywords;
                // The sieve and the dense walk fold case themselves; Teddy needs a
                // lowercased copy.
                let lower: &[u8] = if sieve.is_some() {
                    hay
                } else {
                    lowercase_into(hay, lower);
                    lower
                };
                let mut dense_block = *dense_before;
                let mut at = 0;
                while at < hay.len() {
                    // Teddy takes four blocks at once: each call has a cost of its own.
                    // The sieve's does not, and by the block it notices a storm that
                    // begins after one block's hits (~1,000 in a storm of `token`)
                    // have gone to the scrubber, not four.
                    //
                    // A slice that does not start dense starts with a probe of
                    // `PROBE` bytes through the sieve: a storm at its start sends that
                    // many bytes' hits to the scrubber before the dense walk takes
                    // over, not a whole block's (~800 in `token`'s). So does one
                    // through Teddy that is longer than Teddy's read: not four blocks'
                    // (in a storm of `sk-` and a random byte, ~4,000 stops and hits,
                    // ~250 µs at the start of a stream). A shorter one is read in one
                    // call, as before: clean text in 4 KiB writes read ~4 % slower
                    // with a call more each.
                    let probe =
                        !dense_block && at == 0 && (sieve.is_some() || hay.len() > TEDDY_READ);
                    let mut to = if probe {
                        PROBE
                    } else if dense_block && storm.lasting {
                        // A storm the sieve's last part kept goes on for up to
                        // `STORM_BLOCKS` blocks at once: a part costs its setup (its
                        // tables, the step's state, the gates' memory, the period's
                        // question).
                        (at / BLOCK + STORM_BLOCKS) * BLOCK
                    } else if dense_block || sieve.is_some() {
                        // After a probe, the rest of its block.
                        (at / BLOCK + 1) * BLOCK
                    } else if at == PROBE {
                        // After a probe, the rest of Teddy's read.
                        TEDDY_READ
                    } else {
                        at + TEDDY_READ
                    }
                    .min(hay.len());
                    // A remainder too short to judge density by (the few bytes a scan
                    // overlaps the last one by) goes with this block: alone, its
                    // handful of hits would pass the next slice to Teddy.
                    if hay.len() - to < BLOCK / 4 {
                        to = hay.len();
                    }
                    let before = hits.len();
                    // Hits found, whether or not a dense block's gates reported them.
                    let mut found = None;
                    // Teddy's stops (see below), and the positions the sieve flagged.
                    let (mut stops, mut flags) = (0, 0);
                    if dense_block {
                        let gates = (dense.gates.as_ref())
                            .filter(|_| gated)
                            .map(|gates| Gating { gates, kill });
                        let mut misspelled = 0;
                        let space = (&mut *hits, &mut *chains, &mut *short, &mut misspelled);
                        let block = (at, to);
                        let carry = (&mut *period, &mut *runs, &mut *storm);
                        let text = (hay, lower);
                        let n = self.dense_block(dense, text, gates, block, space, carry);
                        #[cfg(test)]
                        {
                            *dense_bytes += to - at;
                        }
                        // Teddy stops at a keyword found as written in any case: a
                        // block dense with those stays with the walk.
                        found = Some(n + if sieve.is_none() { misspelled } else { 0 });
                        // Its parts may interleave where one ends (see `dense_block`).
                        sort_by_start(&mut hits[before..]);
                    } else {
                        // Signatures starting in `at..to`: the span ends a signature
                        // length, less one, later.
                        if let Some(sieve) = sieve {
                            let asked = (true, Some(&mut *noted));
                            (stops, flags) = self.sieve_hits(sieve, hay, (at, to), asked, hits);
                        } else {
                            for (searcher, by_sig) in searchers {
                                let end = (to + SIG - 1).min(hay.len());
                                let text = (hay, lower, lower);
                                stops += self.teddy(searcher, by_sig, text, at, end, hits);
                            }
                            if let Some((searcher, by_sig)) = three {
                                let end = (to + 2).min(hay.len());
                                let text = (hay, lower, lower);
                                stops += self.teddy(searcher, by_sig, text, at, end, hits);
                            }
                            stops += self.short_hits(hay, (at, to), hits);
                        }
                    }
                    // Sorted block by block (the caller's sort then merges runs);
                    // a dense block's are.
                    if !dense_block {
                        sort_by_start(&mut hits[before..]);
                    }
                    // Through Teddy, what costs is its stops: each signature found,
                    // a keyword or not, and each short keyword's hit.
                    let found = found.unwrap_or(stops);
                    // A block the sieve flags every few bytes without a keyword (a
                    // hash run into the text before it, again and again) costs a
                    // lookup a flag: where it repeats, a dense block reads one period
                    // and compares the rest. It is asked after more and more such
                    // blocks while none repeats (lines numbered at random are flagged
                    // as much and never do). A dense block whose period goes on stays
                    // dense, hits or none.
                    let keyed = 8 * found * BLOCK >= DENSE_HITS * (to - at);
                    let crowded = !dense_block
                        && !probe
                        && !keyed
                        && flags * CROWDED >= to - at
                        && period.crowded.due();
                    let ask = keyed || crowded || (dense_block && period.d > 0);
                    // A probe's few hundred bytes say less: it is dense at twice the
                    // hits (a storm has ten times them), and not by a period.
                    let read_dense = dense_block;
                    // (A block read by Teddy after one walked, a small slice between
                    // them, is asked as any other.)
                    let walked_alike = std::mem::take(alike) && read_dense;
                    dense_block = if probe {
                        found * BLOCK >= 2 * DENSE_HITS * (to - at)
                    } else {
                        let by_hits = found * BLOCK >= DENSE_HITS * (to - at)
                            // A storm part while its keyword's copies lie no
                            // further apart than `spread_every` says.
                            || (dense_block
                                && storm.keyword.is_some()
                                && found * spread_every(sieve.is_some()) >= to - at)
                            || (ask && repeats(hay, dense, gated, (at, to), period));
                        // Without the sieve, a block many of whose places (sampled)
                        // Teddy's fat passes flag: it verifies them in vain where no
                        // signature is. One walked for them keeps the next walked
                        // while one place of a larger sample is flagged (see
                        // `STAY_SAMPLES`).
                        *alike = !by_hits
                            && flagger.as_ref().is_some_and(|f| {
                                let n = if walked_alike { STAY_SAMPLES } else { SAMPLES };
                                let samples = (&mut *sample, n);
                                let flagged = Prefilter::look_alikes(f, lower, (at, to), samples);
                                match walked_alike {
                                    true => flagged > 0,
                                    false => flagged * LOOK_ALIKE >= SAMPLES,
                                }
                            });
                        by_hits || *alike
                    };
                    if crowded {
                        period.crowded.answer(dense_block);
                    }
                    // A block through Teddy or the sieve most of whose hits are one
                    // keyword's, a hit every `spread_every` bytes or more, is a storm
                    // of it whose copies lie far apart: every copy was a stop of the
                    // scan and a candidate of the scrubber (copies of `sk-` 80 bytes
                    // apart read at ~380 MB/s through Teddy, ~480 through the sieve),
                    // or, where its stops made it dense, the next block was walked (a
                    // drop every 64 bytes makes a storm part of a walked one). The
                    // next block is read as a storm part, its keyword's places dropped
                    // in bulk (see `storm_part`, `storm_teddy`). Not after a probe
                    // through Teddy: its few hundred bytes say too little to build
                    // Teddy's passes without the keyword for (2-4 ms, once). After one
                    // through the sieve that holds a hit every 128 bytes
                    // (`PROBE_STORM`), the rest of its block is read so (copies of
                    // `sk-` 40 bytes apart had sent the block's ~80 hits to the
                    // scrubber, ~10 µs at a stream's start).
                    //
                    // A dense probe is read again as the start of a dense block, its
                    // hits asked their gates: a storm at a stream's start had sent
                    // the probe's hundred or so to the scrubber, each a candidate
                    // (~100 ns). Where seven in eight of its hits are one keyword
                    // (of one rule or several), through the sieve, the block is a
                    // storm part of it from its start: walked for its first
                    // `STORM_FIRST` bytes, a word storm's first block had cost three
                    // times a later one.
                    let dense_probe = probe && dense_block && gated && dense.gates.is_some();
                    let spread_probe = probe
                        && !dense_block
                        && sieve.is_some()
                        && hits.len() - before >= PROBE_STORM;
                    let voted = if dense_probe && sieve.is_some() {
                        self.spread_storm(keywords, &hits[before..], (to - at, true))
                    } else if !read_dense && (!probe || spread_probe) && gated {
                        self.spread_storm(keywords, &hits[before..], (to - at, false))
                    } else {
                        None
                    };
                    if let Some(k) = voted {
                        storm.keyword = Some(k);
                        storm.other_case = false;
                        storm.lasting = false;
                        dense_block = true;
                    }
                    if dense_probe {
                        hits.truncate(before);
                        to = at;
                    }
                    at = to;
                    // A run counts as one hit: it costs the stream one candidate.
                    if hits.len() - first + runs.runs.len() >= most && at < hay.len() {
                        stopped = Some(at);
                        break;
                    }
                }
                *dense_before = dense_block;
            }
            // A small slice with the sieve: one step of it (or a few), and the hold-back
            // question left to `Tails` (see `SIEVE_FROM`), unless the small slice before
            // was crowded (see `SMALL_CROWDED`).
            Some(Keywords {
                sieve: Some(sieve), ..
            }) if hay.len() >= SIEVE_FROM && !*dense_before => {
                // Asked their case from one whole step on (see `Sieve::find`).
                let cased = hay.len() >= CASED_FROM;
                let asked = (cased, None);
                let (_, flags) = self.sieve_hits(sieve, hay, (0, hay.len()), asked, hits);
                sort_by_start(&mut hits[first..]);
                *dense_before = flags * SMALL_CROWDED >= hay.len();
            }
            keywords => {
                let (state, any) = self.walk_small(hay, hits, chains);
                pending = (self.walk.pending_as_written(state, hay))
                    .map(|n| n.max(self.short_pending(hay)));
                // Back to the sieve after a small slice with no hit, in any case: a
                // run of `a` written in small slices stays on the walk (the sieve
                // flags every byte of it, and a small slice's steps are not asked
                // their case).
                if *dense_before && matches!(keywords, Some(Keywords { sieve: Some(_), .. })) {
                    *dense_before = any;
                }
            }
        }
        if let Some(ac) = &self.literals {
            // Where the search stopped, the hits that count end by the stop.
            let hay = &hay[..stopped.unwrap_or(hay.len())];
            hits.extend(
                ac.find_overlapping_iter(hay)
                    .map(|m| (self.literal_base + m.pattern().as_u32(), m.start())),
            );
        }
        (pending, stopped)
    }
}

impl Prefilter {
    /// The hits in `hay` of the keywords whose signature (or, for a two-byte keyword
    /// the sieve compares, whose bytes) start in `at..to`, appended to `hits` in
    /// order step by step (not within one); returns how many signatures and two-byte
    /// keywords were found, hits or not, and how many positions the sieve flagged.
    /// With `noted`, `at..to` is a block of a larger slice (case asked), its steps
    /// noted where `noted` says, and `noted` set for the next block (see
    /// `Sieve::find_block`).
    #[inline(always)]
    fn sieve_hits(
        &self,
        (sieve, by_sig): &(Sieve, Vec<Owners>),
        hay: &[u8],
        (at, to): (usize, usize),
        (cased, noted): (bool, Option<&mut bool>),
        hits: &mut Vec<Hit>,
    ) -> (usize, usize) {
        let told = self.told();
        let found = |s, at_sig| {
            let Some(owners) = by_sig.get(s as usize) else {
                // A two-byte keyword, compared exactly.
                let (_, k) = self.short[s as usize - by_sig.len()];
                hits.push((k, at_sig));
                return;
            };
            told[s as usize].each(owners, hay, at_sig, |k, h, whole| {
                if whole || self.has_keyword_at(hay, h, k) {
                    hits.push((k, h));
                }
            });
        };
        let (stops, flags) = match noted {
            // A block of a larger slice: its steps noted after a block most of whose
            // steps had no flag (see `Sieve::find_block`).
            Some(noted) => {
                let (stops, flags, crowded) = sieve.find_block(hay, (at, to), *noted, found);
                *noted = !crowded;
                (stops, flags)
            }
            None => sieve.find(hay, (at, to), cased, found),
        };
        // Two-byte keywords the sieve does not compare.
        if sieve.has_pairs() {
            (stops, flags)
        } else {
            (stops + self.short_hits(hay, (at, to), hits), flags)
        }
    }

    /// Per signature of the sieve, how its owners are told (none without a sieve).
    fn told(&self) -> &[Told] {
        self.keywords.as_ref().map_or(&[], |k| &k.told)
    }

    /// Whether keyword `k` (three bytes or more) occurs in `hay` at `at`: as written
    /// where it is exact, else ASCII case ignored.
    #[inline]
    fn has_keyword_at(&self, hay: &[u8], at: usize, k: u32) -> bool {
        match &self.walk.written[k as usize] {
            None => has_at_folded(hay, at, &self.patterns[k as usize]),
            Some(written) => has_at(hay, at, written),
        }
    }

    /// The hits of `hay` by the walk, spelled as they must be, the state the walk ends
    /// in (see [`Walk::pending_as_written`]), and whether it found any hit, spelled
    /// so or not. Out of line: inlined, the walk held one more value across its loop
    /// than registers allow, a load at every byte (as it did when this asked the
    /// state's pending length of `hay`'s end).
    #[inline(never)]
    fn walk_small(&self, hay: &[u8], hits: &mut Vec<Hit>, chains: &mut Chains) -> (u32, bool) {
        let first = hits.len();
        let state = self.walk.find_any(hay, hits, chains);
        let any = hits.len() > first;
        if any {
            self.walk.keep_spelled(hay, hits, first);
        }
        (state, any)
    }

    /// 1 when `text` ends in the first byte of a two-byte keyword, as written (the
    /// walk's part of the hold-back question leaves them out), else 0.
    fn short_pending(&self, text: &[u8]) -> usize {
        usize::from(
            text.last()
                .is_some_and(|&b| self.short_first[usize::from(b)]),
        )
    }

    /// The hits of the keywords shorter than a signature starting in `at..to`, exact,
    /// appended to `hits`; returns how many.
    fn short_hits(&self, hay: &[u8], (at, to): (usize, usize), hits: &mut Vec<Hit>) -> usize {
        let first = hits.len();
        for (finder, k) in &self.short {
            let end = (to + finder.needle().len() - 1).min(hay.len());
            hits.extend(finder.find_iter(&hay[at..end]).map(|h| (*k, at + h)));
        }
        hits.len() - first
    }
}

/// Sort hits by start, then keyword, unless they already are (a block's usually are).
fn sort_by_start(hits: &mut [Hit]) {
    if !hits.is_sorted_by_key(|&(k, h)| (h, k)) {
        hits.sort_unstable_by_key(|&(k, h)| (h, k));
    }
}

/// The most bytes past a hit's start that a [`Kill`] reads (a dense block asks the
/// stream's memo of paths of up to this many bytes).
pub(crate) const KILL_READS: usize = 128;

/// The longest period a dense block's text is tried for (see [`Prefilter::dense_block`]).
const PERIOD: usize = 1024;

/// Bytes compared to find a dense block's period.
const PERIOD_PROBE: usize = 64;

impl Prefilter {
    /// The hits of the dense block `at..to` of `hay` (see [`Dense::find`] and
    /// [`Prefilter::short_dense`]); returns how many were found, reported or not.
    ///
    /// A storm repeats: where the text has a period `d`, a hit whose gate and
    /// [`Kill`] read only bytes of the repeating stretch is answered as the hit `d`
    /// bytes before it (the same keyword, the same bytes around it; nothing they ask
    /// depends on anything else). So when the hits starting in one period are all
    /// dropped, so are all the hits after them whose bytes read lie in the stretch:
    /// they are counted, not read. When some were reported (a credential printed
    /// again and again), the whole periods after it in the stretch report the same
    /// hits `d`, `2d`, … bytes on: they are copied, not read. The rest of the block
    /// is read as usual. The period and its hits are carried in `period` to the next
    /// block, which copies them while the text goes on repeating: a storm's blocks
    /// after its first read no byte (in a 180-byte token printed again and again,
    /// reading one period and the tail of each block was a fifth of the time).
    fn dense_block(
        &self,
        dense: &Dense,
        (hay, lower): (&[u8], &[u8]),
        gates: Option<Gating<'_>>,
        (at, to): (usize, usize),
        (hits, chains, short, misspelled): (&mut Vec<Hit>, &mut Chains, &mut Vec<Hit>, &mut usize),
        (period, runs, storm): (&mut Period, &mut Runs, &mut StormState),
    ) -> usize {
        let sieve = (self.keywords.as_ref()).and_then(|k| k.sieve.as_ref());
        let StormState {
            keyword: storm,
            other_case,
            period: storm_period,
            tried: storm_tried,
            lasting,
            drops: storm_drops,
            copying,
            #[cfg(test)]
                dropped: storm_dropped,
            #[cfg(test)]
                parts: storm_parts,
        } = storm;
        // Read by the period's search too.
        let storm = std::cell::Cell::from_mut(storm);
        let other_case = std::cell::Cell::from_mut(other_case);
        let mut part = |(a, b): (usize, usize), hits: &mut Vec<Hit>| {
            if a >= b {
                return 0;
            }
            let first = hits.len();
            let stormed = match (storm.get(), sieve, gates) {
                // A short part (between a period's copies) is walked: a scan has a
                // cost of its own.
                (Some(k), Some(sieve), Some(gating)) if b - a >= STORM_PART => {
                    let got =
                        self.storm_part(dense, sieve, k, (hay, gating), (a, b), (hits, first));
                    #[cfg(test)]
                    {
                        *storm_dropped += got.map_or(0, |(_, dropped)| dropped);
                        *storm_parts += 1;
                    }
                    // Back to the walk where the storm is over: fewer drops than
                    // one every `SIEVE_SPREAD_EVERY` bytes (see `spread_storm`), or
                    // than the hits the drop left, each a lookup of every keyword
                    // of its signature (`token` and a random byte of `aZ09_-.:= `
                    // leaves six in ten, and `oken` begins 19 keywords: a storm
                    // part read it at 60 % of the walk's speed).
                    let over = got.is_none_or(|(all, dropped)| {
                        dropped * SIEVE_SPREAD_EVERY < b - a || 2 * dropped < all
                    });
                    if over {
                        storm.set(None);
                    }
                    storm_tried.answer(!over);
                    *lasting = !over;
                    match got {
                        // The sieve found the two-byte keywords too.
                        Some((n, _)) if sieve.0.has_pairs() => return n,
                        got => got.map(|(n, _)| n),
                    }
                }
                // Without the sieve, Teddy's passes read the storm, its keyword's
                // signature compared apart (see `storm_teddy`).
                (Some(k), None, Some(gating)) if b - a >= STORM_PART => {
                    let space = (&mut *hits, first, &mut *storm_drops, &mut *copying);
                    if let Some((n, dropped, stray)) =
                        self.storm_teddy((k, other_case.get()), (hay, lower), gating, (a, b), space)
                    {
                        #[cfg(test)]
                        {
                            *storm_dropped += dropped + stray;
                        }
                        *misspelled += stray;
                        // (Its copies may lie further apart than they do where a
                        // storm begins: see `spread_storm`.)
                        if (dropped + stray) * SPREAD_EVERY < b - a {
                            storm.set(None);
                        }
                        // Its passes found the two-byte keywords too.
                        return n;
                    }
                    None
                }
                _ => None,
            };
            let n = stormed.unwrap_or_else(|| {
                let mut top = Top::default();
                // A part of copies of a unit, each followed by a byte (a storm of
                // look-alikes: `daaa` and a random byte), is walked but for long
                // stretches of them where no keyword can begin.
                let reads = match b - a >= COPIES_FROM {
                    true => self.unit_reads(hay, (a, b), copying),
                    false => None,
                };
                let n = match reads {
                    Some(reads) => (reads.iter())
                        .map(|&(x, y)| {
                            dense.find(&self.walk, hay, gates, (x, y), (hits, chains, &mut top))
                        })
                        .sum(),
                    None => dense.find(&self.walk, hay, gates, (a, b), (hits, chains, &mut top)),
                };
                *misspelled += top.misspelled;
                // Without the sieve, a storm of a keyword found as written in the
                // other case (`akia`) is one too: Teddy stops at each of its hits.
                let (keyword, dropped, misspelled) = match sieve {
                    Some(_) => (top.keyword, top.dropped, false),
                    None => top.stray(),
                };
                // (A period's part, between copies, is no storm.) Without the sieve,
                // one of a keyword found as written needs no drop: those in the
                // other case are told apart as written (see `storm_teddy`).
                let drops = || dense.storm(keyword, &self.patterns).is_some();
                let teddy_drops = || dense.teddy_storm(keyword, &self.patterns).is_some();
                if b - a >= STORM_PART
                    && dropped as usize * STORM_EVERY >= b - a
                    && gates.is_some()
                    && (sieve.is_none() || storm_tried.due())
                    && match sieve {
                        Some((sieve, _)) => sieve.by_bytes() && drops(),
                        None => {
                            dense.drops_storms()
                                && (teddy_drops() || self.walk.written[keyword as usize].is_some())
                        }
                    }
                {
                    storm.set(Some(keyword));
                    other_case.set(misspelled);
                    *lasting = false;
                }
                n
            });
            n + self.short_dense(hay, gates, (a, b), (hits, first), short)
        };
        let Some(gating) = gates.map(|g| g.gates) else {
            period.d = 0;
            return part((at, to), hits);
        };
        let (before, ahead) = dense.reads(gating.back);
        // Where the text stops repeating at `end` with the period `d`, the first place
        // from which that period can be found again: where it goes on repeating (see
        // [`resume`]) and the bytes its hits read before their signatures past that
        // (`reach`), when it does so soon; else past an edit of up to `d` bytes, where
        // the bytes a hit reads before it, and the window `repeat` compares one
        // period back, lie past the edit. It may lie in the next block, which reads
        // up to it first.
        let again = |end: usize, d: usize, reach: usize| match resume(hay, end, d) {
            Some(from) => from + reach,
            None => end + d + before.max(d + PERIOD_PROBE),
        };
        let (mut at, mut found) = (at, 0);
        if period.again > at {
            let next = period.again.min(to);
            found += part((at, next), hits);
            at = next;
        }
        if period.d > 0 {
            // The text has the period up to `end`: the bytes past it that still do.
            let (d, end) = (period.d, period.end);
            let limit = (to + ahead).min(hay.len());
            if end < limit {
                period.end = end + same_run(&hay[end..limit], &hay[end - d..limit - d]);
            }
            // A period whose every hit was reported, each copied as a run, copies up
            // to the bytes the gates read past a hit: a copy whose kill would read past
            // the stretch goes to the stream with the rest (it is a candidate like
            // them; the stream decides the run's followers as one), and the hits
            // before a break are not read (in `eyJ-eyJ-…!`, the last 128 bytes).
            let every = !period.hits.is_empty()
                && period.found == period.hits.len()
                && (period.hits.iter()).all(|&(k, _)| runs.runnable.get(k as usize) == Some(&true));
            let ahead = if every {
                dense.hit_reads(gating, &period.hits).1
            } else {
                ahead
            };
            let skip_to = period.end.saturating_sub(ahead).min(to);
            if skip_to > at {
                found += period.copy(&dense.offsets, (at, skip_to), hits, runs);
                if skip_to == to {
                    return found;
                }
                let reach = period.reach.unwrap_or(before);
                period.again = again(period.end, d, reach).max(skip_to);
                at = period.again.min(to);
                found += part((skip_to, at), hits);
            }
            period.d = 0;
        }
        // A period is looked for twice a block at most (once more after a break):
        // a block of many short stretches that repeat would otherwise be searched,
        // and read in small pieces between them, as many times as it has stretches.
        let mut tries = 2;
        // The stretch is checked from the bytes the last period's hits read before
        // their signatures, where known (a storm's keywords stay the same): past a
        // break, its next hits are read from right after it.
        let mut reach = period.reach.unwrap_or(before);
        while at < to {
            // In a storm, asked after more and more blocks while none repeats.
            let stormy = storm.get().is_some();
            let ask = tries > 0 && (!stormy || storm_period.due());
            let found_period = ask
                .then(|| repeat(hay, (reach, ahead), (at, to), period.hint))
                .flatten();
            if ask && stormy {
                storm_period.answer(found_period.is_some());
            }
            tries -= 1;
            let Some((d, m, skip_to, end)) = found_period else {
                // With no storm yet, the block's first bytes are walked alone: a storm
                // found there reads the rest as a storm part, not a walk.
                if !stormy && to - at > 2 * STORM_FIRST {
                    found += part((at, at + STORM_FIRST), hits);
                    at += STORM_FIRST;
                }
                return found + part((at, to), hits);
            };
            // Up to the last period before `m` as usual; that period on its own.
            found += part((at, m - d), hits);
            let kept = hits.len();
            let one = part((m - d, m), hits);
            // What its hits read before their signatures: a dropped hit is not kept,
            // so any keyword's most where one was.
            let reads = if one == hits.len() - kept {
                dense.hit_reads(gating, &hits[kept..]).0
            } else {
                before
            };
            if reads > reach {
                // Copies of its hits might read bytes before the stretch checked:
                // read as they are, and the period looked for past them with what any
                // hit reads.
                (found, at, reach) = (found + one, m, before);
                period.reach = None;
                continue;
            }
            period.hits.clear();
            period.hits.extend_from_slice(&hits[kept..]);
            (period.d, period.first, period.found, period.end) = (d, m - d, one, end);
            (period.hint, period.reach) = (d, Some(reads));
            found += one + period.copy(&dense.offsets, (m, skip_to), hits, runs);
            if skip_to == to {
                return found;
            }
            period.d = 0;
            reach = reads;
            period.again = again(end, d, reach).max(skip_to);
            at = period.again.min(to);
            found += part((skip_to, at), hits);
        }
        found
    }

    /// The hits of the dense part `at..to` of `hay` (`lower` its lowercased copy) in
    /// a storm of keyword `k`, where there is no sieve: Teddy's passes, built without
    /// the signatures that begin as `k`'s does (see [`Without`]), find the other
    /// keywords at about their speed on clean text; where `k`'s first [`ALIKE`] bytes
    /// occur is found with the storm's drop a step at a time (see
    /// [`super::storm_drop`]), and at the places not dropped the signatures left out
    /// are compared. Every hit but the two-byte keywords' asks its gate, as
    /// [`Dense::resolve`] does. `other_case`: most of the storm's hits were spelled as
    /// `k` cannot be (see [`Without::exact`]). Appends to `hits`, sorted from `first`
    /// on; returns how many hits there were (Teddy's stops, the signatures found, the
    /// hits dropped), how many were dropped, and how many places were `k`'s in the
    /// other case. `None` where the storm has neither a drop nor places as written,
    /// or the CPU no AVX2: the walk reads the part.
    fn storm_teddy(
        &self,
        (k, other_case): (u32, bool),
        (hay, lower): (&[u8], &[u8]),
        gating: Gating<'_>,
        (at, to): (usize, usize),
        (hits, first, space, copying): (&mut Vec<Hit>, usize, &mut Vec<[u64; 4]>, &mut Copying),
    ) -> Option<(usize, usize, usize)> {
        let keywords = self.keywords.as_ref()?;
        let dense = &keywords.dense;
        let without = (keywords.without.get(k as usize)?)
            .get_or_init(|| self.without(keywords, k))
            .as_ref()?;
        // The places of the signature's first bytes, the storm's drops where it has
        // a drop, and the places as written where all keywords left out are found
        // so; a storm with no drop (a keyword of over 8 bytes) only then. With a
        // drop, they are told apart only in a storm of mostly the other case (`GHP_`
        // for `ghp_`): in `ghp_`'s, the compare cost ~8 % and left out none.
        let written = without.exact.as_ref().map(|w| &w[..]);
        let marks = match (dense.teddy_storm(k, &self.patterns), written) {
            (Some(storm), written) => Marks::Drop(storm, written.filter(|_| other_case)),
            (None, Some(written)) => Marks::Word(&without.left[0].0[..ALIKE], written),
            (None, None) => return None,
        };
        dense.storm_places(marks, hay, (at, to), space)?;
        let mut found = 0;
        // Places kept for other keywords where none occurs are dropped (each would
        // have been found as the storm's own signature, and its own hit is dead).
        #[cfg(target_arch = "x86_64")]
        if let (Some(simd), Marks::Drop(..)) = (dense.avx2, marks) {
            let (others, reach) = &without.others;
            found += storm_drop::others_absent(simd, (others, *reach), hay, at, space);
        }
        // The passes read the part but for long stretches of the storm's copies.
        copying.reads.clear();
        #[cfg(target_arch = "x86_64")]
        let skips = match dense.avx2 {
            Some(simd) if to - at >= COPIES_FROM && !copying.whole() => {
                self.copies(simd, (k, without), (hay, space), (at, to), copying)
            }
            _ => false,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let skips = false;
        if !skips {
            copying.reads.push((at, to));
        }
        for i in 0..without.passes.len() {
            let Some((searcher, by_sig)) = &without.passes[i] else {
                continue;
            };
            // The three-byte keywords' pass reads the text as written.
            let (sig, read) = if i == keywords.searchers.len() {
                (3, hay)
            } else {
                (SIG, lower)
            };
            for &(a, b) in &copying.reads {
                let end = (b + sig - 1).min(hay.len());
                found += self.teddy(searcher, by_sig, (hay, lower, read), a, end, hits);
            }
        }
        found += self.short_hits(hay, (at, to), hits);
        // Their hits pass their gates too: in a storm of `AZDO` and a random byte,
        // `azdoaazdo` holds `oaa`, a keyword, every ten copies. The two-byte keywords'
        // too, as the walk's: `ACCESSKEY` holds `SK`, Twilio's (their hits come last,
        // a keyword's in order, each carrying the run before its last).
        let (gates, kill) = (gating.gates, gating.kill);
        let mut recent = Recent::new(gating);
        let mut kept = first;
        let mut short: (u32, Option<RunBefore>) = (u32::MAX, None);
        for i in first..hits.len() {
            let (k, h) = hits[i];
            let len = self.patterns[k as usize].len();
            let opens = if len < 3 {
                if short.0 != k {
                    short = (k, None);
                }
                short_opens(
                    (gates.get(k), kill.map(|kill| (kill, k))),
                    hay,
                    h,
                    len,
                    &mut short.1,
                )
            } else {
                recent.opens(k, hay, h, len) == Some(true)
            };
            if opens {
                hits[kept] = (k, h);
                kept += 1;
            }
        }
        hits.truncate(kept);
        // Counted with the CPU's popcount where it has AVX2: for any x86-64,
        // `count_ones` is a dozen instructions, and the counts had been half of this
        // loop's time in a storm of `AZDO` forty bytes apart.
        #[cfg(target_arch = "x86_64")]
        let counted = dense.avx2.map(|simd| storm_drop::counts(simd, space));
        #[cfg(not(target_arch = "x86_64"))]
        let counted = None;
        let (dropped, misspelled) = counted.unwrap_or_else(|| storm_counts(space));
        found += dropped;
        for (step, &[places, drops, exact, dead]) in space.iter().enumerate() {
            // Kept for another keyword where the storm's own hit is dead (`eyJ0` in a
            // storm of `eyJ` and a random byte, one place in ten, kept for TeamCity's
            // `eyJ0eXAi…`: its `eyJ` was gated and read on as well).
            let mut kept = places & !drops & exact;
            let dead = kept & dead;
            while kept != 0 {
                let i = kept.trailing_zeros();
                let p = at + step * 64 + i as usize;
                let own_dead = dead >> i & 1 == 1;
                kept &= kept - 1;
                let word = lower[p..]
                    .first_chunk::<SIG>()
                    .map(|w| u32::from_le_bytes(*w));
                for ((sig, owners), &(w, mask)) in without.left.iter().zip(&without.words) {
                    let starts = match word {
                        Some(word) => word & mask == w,
                        None => lower[p..].starts_with(sig),
                    };
                    if !starts {
                        continue;
                    }
                    found += 1;
                    for &(o, off) in owners {
                        let Some(h) = p.checked_sub(off) else {
                            continue;
                        };
                        if (own_dead && (o, off) == (k, 0)) || !self.has_keyword_at(hay, h, o) {
                            continue;
                        }
                        let len = self.patterns[o as usize].len();
                        if recent.opens(o, hay, h, len) == Some(true) {
                            hits.push((o, h));
                        }
                    }
                }
            }
        }
        sort_by_start(&mut hits[first..]);
        Some((found, dropped, misspelled))
    }

    /// The keyword of a storm whose copies lie far apart, where `hits` (a block of
    /// `len` bytes through Teddy or the sieve, not dense) has one: a hit every
    /// [`spread_every`] bytes or more, seven in eight of them one keyword's, which a
    /// storm part reads with its places dropped in bulk (see
    /// [`Prefilter::storm_part`]) or marked (see [`Prefilter::storm_teddy`]). With
    /// `alike`, keywords of several rules spelled alike count as one (`secret` is one
    /// of two rules; a storm's drop reads every keyword at its place): asked of a dense
    /// probe, whose storm is then read with no walk first. (Asked so of every block,
    /// text with a `token` key every hundred bytes or so, agent events' counts of
    /// tokens, became a storm, and its periods were read, not copied.)
    fn spread_storm(
        &self,
        keywords: &Keywords,
        hits: &[Hit],
        (len, alike): (usize, bool),
    ) -> Option<u32> {
        if hits.len() * spread_every(keywords.sieve.is_some()) < len {
            return None;
        }
        // The most frequent keyword: a majority's, found by Boyer and Moore's vote.
        // (Keywords are lowercased.)
        let same = |a: u32, b: u32| {
            a == b || alike && self.patterns[a as usize] == self.patterns[b as usize]
        };
        let (mut k, mut votes) = (u32::MAX, 0usize);
        for &(h, _) in hits {
            if votes == 0 {
                k = h;
            }
            votes = if same(h, k) { votes + 1 } else { votes - 1 };
        }
        let n = hits.iter().filter(|&&(h, _)| same(h, k)).count();
        if 8 * n < 7 * hits.len() {
            return None;
        }
        let dense = &keywords.dense;
        if let Some((sieve, _)) = &keywords.sieve {
            // As a dense part's storm through the sieve (see `dense_block`).
            return (sieve.by_bytes() && dense.storm(k, &self.patterns).is_some()).then_some(k);
        }
        let without = (keywords.without.get(k as usize)?)
            .get_or_init(|| self.without(keywords, k))
            .as_ref()?;
        let marked = dense.teddy_storm(k, &self.patterns).is_some() || without.exact.is_some();
        (dense.drops_storms() && marked).then_some(k)
    }

    /// Set `copying.reads` to the window starts of the storm part `at..to` of `hay`
    /// that the passes of storm keyword `k` (`without`) read: all but long stretches
    /// of copies of its unit (see [`storm_drop::Copies`]), the keyword as written at
    /// its first place in `space` (as [`Dense::storm_places`] marks them). Returns
    /// whether it did: not where the unit has no copies to skip (then it is empty).
    #[cfg(target_arch = "x86_64")]
    fn copies(
        &self,
        simd: pulp::x86::V3,
        (k, without): (u32, &Without),
        (hay, space): (&[u8], &[[u64; 4]]),
        (at, to): (usize, usize),
        copying: &mut Copying,
    ) -> bool {
        let keyword = &self.patterns[k as usize];
        // Its first place that is the whole keyword, among the first few.
        let places = (space.iter().enumerate()).flat_map(|(step, &[places, ..])| {
            (0..64)
                .filter(move |i| places >> i & 1 == 1)
                .map(move |i| at + step * 64 + i)
        });
        let unit = places
            .take(8)
            .filter_map(|p| hay.get(p..p + keyword.len()))
            .find(|unit| unit.eq_ignore_ascii_case(keyword));
        let Some(unit) = unit else {
            return false;
        };
        let copies = |unit: &[u8]| {
            let sigs: Vec<_> = (without.sigs.iter())
                .map(|(sigs, lowered)| (&sigs[..], *lowered))
                .collect();
            storm_drop::Copies::of(unit, &sigs)
        };
        let Some(known) = copying.copies_of(k, unit, copies) else {
            return false;
        };
        // Looked for after more and more parts while none pays.
        if !copying.storms.due() {
            return false;
        }
        let paid = copying.mark(simd, known, hay, (at, to));
        copying.storms.answer(paid);
        true
    }

    /// The window starts of the dense part `at..to` of `hay` to walk, where it
    /// begins as copies of a unit, each followed by one byte or two
    /// (see [`unit_of`]): all but long stretches of copies where no keyword the walk
    /// finds can begin (see [`storm_drop::Copies::of_keywords`]: no hit's signature
    /// begins in them). `None` where it does not begin so, where the unit has no such
    /// stretches, where looking has not paid lately, or where the CPU has no AVX2:
    /// the part is walked whole.
    fn unit_reads<'c>(
        &self,
        hay: &[u8],
        (at, to): (usize, usize),
        copying: &'c mut Copying,
    ) -> Option<&'c [(usize, usize)]> {
        #[cfg(target_arch = "x86_64")]
        {
            let keywords = self.keywords.as_ref()?;
            let simd = keywords.dense.avx2?;
            // Looked for after more and more parts while none pays.
            if copying.whole() || !copying.alike.due() {
                return None;
            }
            let unit = unit_of(hay, at);
            let gap = unit.map_or(1, |(_, gap)| gap);
            // Every keyword the walk finds (of three bytes or more), with its signature.
            let copies = |unit: &[u8]| {
                let mut owned = Vec::new();
                for (sig, owners) in &keywords.dense.sigs {
                    for &(k, off) in owners {
                        owned.push((&self.patterns[k as usize][..], &sig[..], off));
                    }
                }
                storm_drop::Copies::of_keywords(unit, gap, &owned)
            };
            // A unit of no keyword: keyed apart from the storms', and by its gap.
            let walk = u32::MAX - gap as u32;
            let Some(known) = unit.and_then(|(unit, _)| copying.copies_of(walk, unit, copies))
            else {
                copying.alike.answer(false);
                return None;
            };
            let paid = copying.mark(simd, known, hay, (at, to));
            copying.alike.answer(paid);
            Some(&copying.reads)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (hay, at, to, copying);
            None
        }
    }

    /// The spellings of keyword `k` a storm of it is laid out for where a pass reads
    /// the text as written (see [`storm_sample`]): in either case, and as the keyword
    /// is written where it is found so (`akia` and `AKIA` for `AKIA`).
    fn storm_forms(&self, k: u32) -> Vec<Vec<u8>> {
        let lowered = &self.patterns[k as usize];
        let mut forms = vec![lowered.clone(), lowered.to_ascii_uppercase()];
        let written = self.walk.written[k as usize].as_ref();
        forms.extend(written.filter(|w| !forms.contains(w)).cloned());
        forms
    }

    /// Keyword `k`'s [`Without`]: `None` where no pass holds its signature as the
    /// signature that starts it.
    #[cold]
    #[inline(never)]
    fn without(&self, keywords: &Keywords, k: u32) -> Option<Without> {
        let own = (keywords.passes.iter()).find_map(|(sigs, owners)| {
            let j = owners.iter().position(|o| o.contains(&(k, 0)))?;
            Some((sigs[j].clone(), owners[j].clone()))
        })?;
        let alike = |sig: &[u8]| sig[..ALIKE] == own.0[..ALIKE];
        let lowered = &self.patterns[k as usize];
        let sample = storm_sample(std::slice::from_ref(lowered), true);
        let sample_written = storm_sample(&self.storm_forms(k), false);
        let mut left = vec![own.clone()];
        let mut passes = Vec::new();
        #[cfg(target_arch = "x86_64")]
        let mut pass_sigs = Vec::new();
        for (i, (sigs, owners)) in keywords.passes.iter().enumerate() {
            let (mut rest, mut rest_owners) = (Vec::new(), Vec::new());
            for (sig, o) in sigs.iter().zip(owners) {
                if !alike(sig) {
                    rest.push(sig.clone());
                    rest_owners.push(o.clone());
                } else if *sig != own.0 {
                    left.push((sig.clone(), o.clone()));
                }
            }
            let written = i == keywords.searchers.len();
            let (rest, rest_owners) = if written {
                spellings(&rest, &rest_owners, &self.walk.written)
            } else {
                (rest, rest_owners)
            };
            let pass = match (rest.is_empty(), written) {
                (true, _) => None,
                (false, true) => {
                    Some(teddy_pass(&rest, &rest_owners, Text::Written(Some(&sample_written)))?.0)
                }
                (false, false) => {
                    Some(teddy_pass(&rest, &rest_owners, Text::Lowered(Some(&sample)))?.0)
                }
            };
            passes.push(pass);
            #[cfg(target_arch = "x86_64")]
            pass_sigs.push((rest, !written));
        }
        let words = (left.iter())
            .map(|(sig, _)| {
                let mut w = [0u8; SIG];
                w[..sig.len()].copy_from_slice(sig);
                let mask = u32::MAX >> (8 * (SIG - sig.len()));
                (u32::from_le_bytes(w), mask)
            })
            .collect();
        // The first bytes as written of every keyword the signatures start, where
        // all are found as written and spell them alike.
        let mut spellings = (left.iter())
            .flat_map(|(_, owners)| owners)
            .map(|&(k, off)| {
                let written = self.walk.written[k as usize].as_ref()?;
                written[off..].first_chunk::<ALIKE>().copied()
            });
        let first = spellings.next().flatten();
        let exact = first.filter(|_| spellings.all(|s| s == first));
        #[cfg(target_arch = "x86_64")]
        let others = self.others(k, &left);
        Some(Without {
            passes,
            left,
            words,
            exact,
            #[cfg(target_arch = "x86_64")]
            others,
            #[cfg(target_arch = "x86_64")]
            sigs: pass_sigs,
        })
    }

    /// The keywords `left`'s signatures start but storm keyword `k` at its place, each
    /// as the bytes a place of `k`'s signature must have for it to begin there (see
    /// [`Without::others`]): as written where it is found so, else in either case.
    #[cfg(target_arch = "x86_64")]
    fn others(
        &self,
        k: u32,
        left: &[(Vec<u8>, Owners)],
    ) -> (Vec<storm_drop::Other>, (isize, isize)) {
        let mut reach = (0, 0);
        let own = self.patterns[k as usize].len() as isize;
        let others = (left.iter())
            .flat_map(|(_, owners)| owners)
            .filter(|&&owner| owner != (k, 0))
            .map(|&(o, off)| {
                let written = self.walk.written[o as usize].as_ref();
                let bytes = written.unwrap_or(&self.patterns[o as usize]);
                let fold = |c: u8| if written.is_some() { 0 } else { fold_of(c) };
                // Its bytes past the storm keyword first, then those before it, nearest
                // first, then those over it (which a storm's places mostly have): a
                // storm's places differ from another keyword soonest there.
                let mut order: Vec<(isize, u8, u8)> = (bytes.iter().enumerate())
                    .map(|(j, &c)| (j as isize - off as isize, c, fold(c)))
                    .collect();
                order.sort_by_key(|&(at, ..)| match at {
                    at if at >= own => (0, at),
                    at if at < 0 => (1, -at),
                    at => (2, at),
                });
                let other = storm_drop::Other::of(order);
                let (least, most) = other.reach();
                reach = (reach.0.min(least), reach.1.max(most));
                other
            })
            .collect();
        (others, reach)
    }

    /// The hits of the dense part `at..to` of `text` (signatures starting there,
    /// appended to `hits`, sorted from `first` on, as [`Dense::find`] appends them)
    /// in a storm of keyword `k`: the sieve's scan, which drops the storm's hits that
    /// cannot match 64 positions at a time (see [`Dense::storm`]), and the gates of
    /// the rest, as [`Dense::resolve`] asks them. Returns how many hits there were,
    /// reported, gated or dropped, and how many were dropped; `None` where the storm
    /// has no such drop or the CPU no byte tables (then the walk reads the part).
    #[allow(clippy::type_complexity)]
    fn storm_part(
        &self,
        dense: &Dense,
        (sieve, by_sig): &(Sieve, Vec<Owners>),
        k: u32,
        (text, gating): (&[u8], Gating<'_>),
        (at, to): (usize, usize),
        (hits, first): (&mut Vec<Hit>, usize),
    ) -> Option<(usize, usize)> {
        let storm = dense.storm(k, &self.patterns)?;
        let told = self.told();
        let mut recent = Recent::new(gating);
        let mut found = 0;
        // Per two-byte keyword, the run before its last hit (see `short_opens`).
        let mut runs = [None; 8];
        let (_, dropped) = sieve.find_storm(text, (at, to), storm, |s, at_sig| {
            let Some(owners) = by_sig.get(s as usize) else {
                // A two-byte keyword, compared exactly (as `short_dense` reads them).
                let j = s as usize - by_sig.len();
                let k = self.short[j].1;
                let gate = (gating.gates.get(k), gating.kill.map(|kill| (kill, k)));
                found += 1;
                if short_opens(gate, text, at_sig, 2, &mut runs[j % 8]) {
                    push_sorted(hits, first, (k, at_sig));
                }
                return;
            };
            told[s as usize].each(owners, text, at_sig, |k, h, whole| {
                if whole || self.has_keyword_at(text, h, k) {
                    found += 1;
                    let len = self.patterns[k as usize].len();
                    if recent.opens(k, text, h, len) == Some(true) {
                        push_sorted(hits, first, (k, h));
                    }
                }
            });
        })?;
        Some((found + dropped, dropped))
    }

    /// Add to the hits of a dense block (`hits`, sorted from `first` on) those
    /// of the short keywords starting in `at..to` of `hay`, in order; `space` is for
    /// them. A keyword not in the block costs one memmem search; one that is, a
    /// comparison per byte from its first hit on (memmem's restart at every hit of a
    /// storm, `SK-SK-…`, cost ~80 instructions a hit).
    fn short_dense(
        &self,
        hay: &[u8],
        gates: Option<Gating<'_>>,
        (at, to): (usize, usize),
        (hits, first): (&mut Vec<Hit>, usize),
        space: &mut Vec<Hit>,
    ) -> usize {
        space.clear();
        let mut found = 0;
        for (finder, k) in &self.short {
            let key = finder.needle();
            let end = (to + key.len() - 1).min(hay.len());
            let Some(first) = finder.find(&hay[at..end]) else {
                continue;
            };
            let from = at + first;
            let windows = hay[from..end].windows(key.len()).enumerate();
            let gate = gates.and_then(|g| g.gates.get(*k));
            let kill = gates.and_then(|g| g.kill).map(|kill| (kill, *k));
            let mut run = None;
            match *key {
                [a, b] => {
                    let key = u16::from_le_bytes([a, b]);
                    for (i, w) in windows {
                        if u16::from_le_bytes([w[0], w[1]]) == key {
                            found += 1;
                            if short_opens((gate, kill), hay, from + i, 2, &mut run) {
                                space.push((*k, from + i));
                            }
                        }
                    }
                }
                _ => {
                    for (i, _) in windows.filter(|(_, w)| *w == key) {
                        found += 1;
                        if short_opens((gate, kill), hay, from + i, key.len(), &mut run) {
                            space.push((*k, from + i));
                        }
                    }
                }
            }
        }
        if space.is_empty() {
            return found;
        }
        let key = |&(k, h): &Hit| (h, k);
        if !space.is_sorted_by_key(key) {
            space.sort_unstable_by_key(key);
        }
        // Merged from the back, in place (through slices: through the `Vec`, every
        // step reloaded its pointer and length).
        let (mut i, mut j) = (hits.len() - first, space.len());
        hits.resize(first + i + j, (0, 0));
        let (block, space) = (&mut hits[first..], &space[..]);
        let mut w = block.len();
        while j > 0 {
            w -= 1;
            if i > 0 && key(&block[i - 1]) > key(&space[j - 1]) {
                block[w] = block[i - 1];
                i -= 1;
            } else {
                block[w] = space[j - 1];
                j -= 1;
            }
        }
        found
    }

    /// How many of `samples` places of `lower[at..to]`, picked by the xorshift
    /// `state`, Teddy's fat passes flag (`flagger`). Teddy's search does not say how
    /// many windows it flagged and verified: a sample of them, at places not known in
    /// advance, does.
    fn look_alikes(
        flagger: &Flagger,
        lower: &[u8],
        (at, to): (usize, usize),
        (state, samples): (&mut u64, usize),
    ) -> usize {
        let span = to
            .min(lower.len().saturating_sub(SIG - 1))
            .saturating_sub(at);
        if span == 0 {
            return 0;
        }
        if *state == 0 {
            *state = 0x2545_F491_4F6C_DD1D;
        }
        let mut flagged = 0;
        for _ in 0..samples {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            // `span` times a fraction of 32 random bits: no division.
            let p = at + (((*state >> 32) * span as u64) >> 32) as usize;
            let w = lower[p..].first_chunk::<SIG>().expect("a window");
            flagged += usize::from(flagger.flags(w));
        }
        flagged
    }

    /// One Teddy pass over `read[at..end]` (`hay` or `lower`, its lowercased copy, as
    /// the pass was built: see [`Text`]), its keywords verified in full; returns how
    /// many signatures it found (each a stop and a restart of the search).
    fn teddy(
        &self,
        searcher: &packed::Searcher,
        by_sig: &[Owners],
        (hay, lower, read): (&[u8], &[u8], &[u8]),
        mut at: usize,
        end: usize,
        hits: &mut Vec<Hit>,
    ) -> usize {
        let mut matched = 0;
        while let Some(m) = searcher.find_in(read, Span::from(at..end)) {
            matched += 1;
            let at_sig = m.start();
            for &(k, off) in &by_sig[m.pattern().as_usize()] {
                if let Some(h) = at_sig.checked_sub(off) {
                    let found = match &self.walk.written[k as usize] {
                        None => has_at(lower, h, &self.patterns[k as usize]),
                        Some(written) => has_at(hay, h, written),
                    };
                    if found {
                        hits.push((k, h));
                    }
                }
            }
            at = at_sig + 1;
        }
        matched
    }
}

/// Whether `pattern` occurs in `hay` at `at`. Inline, byte by byte: most candidates
/// differ from their keyword in the first byte past the signature, and a storm of one
/// keyword checks every keyword that contains it at every hit.
#[inline]
fn has_at(hay: &[u8], at: usize, pattern: &[u8]) -> bool {
    hay.get(at..at + pattern.len())
        .is_some_and(|w| w.iter().zip(pattern).all(|(a, b)| a == b))
}

/// A keyword's first eight bytes (or fewer) as one little-endian word, and what a
/// text's word is OR-ed with (0x20 at its letters, where it is found in any case) and
/// masked with before it is compared: a keyword told at a place in a load, an OR, an
/// AND and a compare, no branch a byte.
#[derive(Clone, Copy, Debug)]
struct Leading {
    word: u64,
    mask: u64,
    fold: u64,
    /// The keyword is no longer than the word: a match of the word is the keyword's.
    whole: bool,
}

impl Leading {
    /// The leading bytes of `pattern` (lowercased), found as `written` where that is
    /// given.
    fn new(pattern: &[u8], written: Option<&[u8]>) -> Leading {
        let bytes = written.unwrap_or(pattern);
        let (mut word, mut mask, mut fold) = (0, 0, 0);
        for (i, &b) in bytes.iter().take(8).enumerate() {
            word |= u64::from(b) << (8 * i);
            mask |= 0xff << (8 * i);
            if written.is_none() && b.is_ascii_lowercase() {
                fold |= 0x20 << (8 * i);
            }
        }
        // Bytes past a slice's end are read as zeros: a keyword holding one is asked
        // whole.
        Leading {
            word,
            mask,
            fold,
            whole: bytes.len() <= 8 && !bytes.contains(&0),
        }
    }

    /// Whether the keyword's first eight bytes (all of it when `whole`) are at
    /// `hay[at..]` (bytes past its end read as zeros).
    #[inline(always)]
    fn is_at(&self, hay: &[u8], at: usize) -> bool {
        (word8_at(hay, at) | self.fold) & self.mask == self.word
    }
}

/// How the keywords a signature starts (its owners) are told where the sieve flags
/// it. A signature is shared by every keyword that holds it (`oken`: `token`,
/// `x-auth-token`, `aws_session_token` and 17 more), and every flag asked each of
/// them, byte by byte: ~35 ns a hit of `token` (agent events' `_tokens` keys, a
/// `token:` line). Each owner is now asked by its [`Leading`] word, and where there
/// are more than [`FEW_OWNERS`], only those whose byte at a chosen distance before
/// the signature is the text's (or that start after it): one table lookup.
#[derive(Debug)]
struct Told {
    leading: Vec<Leading>,
    /// The distance back from the signature and, per byte there (lowercased), the
    /// owners (bits, in the owners' order) that may be at the flag.
    sorted: Option<(usize, Box<[u64; 256]>)>,
}

/// Owners of a signature asked one by one; more are first sorted by a byte (see
/// [`Told`]).
const FEW_OWNERS: usize = 4;

impl Told {
    fn new(owners: &Owners, patterns: &[Vec<u8>], written: &[Option<Vec<u8>>]) -> Told {
        let leading = (owners.iter())
            .map(|&(k, _)| Leading::new(&patterns[k as usize], written[k as usize].as_deref()))
            .collect();
        let sorted = (owners.len() > FEW_OWNERS && owners.len() <= 64).then(|| {
            // The owners' bytes `d` back from the signature: the table whose fullest
            // entry is the smallest.
            let table = |d: usize| {
                let mut by_byte = Box::new([0u64; 256]);
                for (j, &(k, off)) in owners.iter().enumerate() {
                    let bit = 1u64 << j;
                    match off.checked_sub(d) {
                        // Starts after that byte: any byte.
                        None => by_byte.iter_mut().for_each(|e| *e |= bit),
                        Some(i) => {
                            let b = patterns[k as usize][i].to_ascii_lowercase();
                            by_byte[usize::from(b)] |= bit;
                        }
                    }
                }
                by_byte
            };
            let most = |t: &[u64; 256]| t.iter().map(|e| e.count_ones()).max().unwrap_or(0);
            (1..=16)
                .map(|d| (d, table(d)))
                .min_by_key(|(d, t)| (most(t), *d))
                .expect("sixteen distances")
        });
        Told { leading, sorted }
    }

    /// Calls `f(k, h, whole)` for each owner `k` of the signature flagged at
    /// `hay[at_sig..]` whose first eight bytes are at `h`, where it would start;
    /// `whole`: that is all of it (the rest of a longer keyword is for `f` to compare).
    #[inline(always)]
    fn each(
        &self,
        owners: &Owners,
        hay: &[u8],
        at_sig: usize,
        mut f: impl FnMut(u32, usize, bool),
    ) {
        let mut one = |j: usize| {
            let (k, off) = owners[j];
            if let Some(h) = at_sig.checked_sub(off) {
                let lead = &self.leading[j];
                if lead.is_at(hay, h) {
                    f(k, h, lead.whole);
                }
            }
        };
        match &self.sorted {
            None => (0..owners.len()).for_each(&mut one),
            Some((d, by_byte)) => {
                let mut bits = match at_sig.checked_sub(*d) {
                    Some(i) => by_byte[usize::from(hay[i].to_ascii_lowercase())],
                    None => u64::MAX >> (64 - owners.len()),
                };
                while bits != 0 {
                    one(bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            }
        }
    }
}

/// The eight bytes of `hay` from `at`, little-endian, zeros past its end.
#[inline(always)]
fn word8_at(hay: &[u8], at: usize) -> u64 {
    match hay.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().expect("eight bytes")),
        None => (hay.get(at..).unwrap_or(&[]).iter().rev()).fold(0, |w, &b| w << 8 | u64::from(b)),
    }
}

/// Whether `pattern` (lowercased) occurs in `hay` at `at`, ASCII case ignored.
#[inline]
pub(crate) fn has_at_folded(hay: &[u8], at: usize, pattern: &[u8]) -> bool {
    hay.get(at..at + pattern.len()).is_some_and(|w| {
        w.iter()
            .zip(pattern)
            .all(|(a, b)| a.to_ascii_lowercase() == *b)
    })
}

/// `dst = hay` with ASCII letters lowercased; written so that it vectorizes.
fn lowercase_into(hay: &[u8], dst: &mut Vec<u8>) {
    dst.clear();
    dst.extend(
        hay.iter()
            .map(|&b| b | (u8::from(b.wrapping_sub(b'A') < 26) << 5)),
    );
}

/// The text a storm of a keyword spelled `forms` is, as a Teddy pass reads it
/// (lowercased where `fold`): each form, then each printable byte, tab and newline in
/// turn (what [`layout`] lays a storm's passes out for: every window of up to [`SIG`]
/// bytes that holds part of a copy).
fn storm_sample(forms: &[Vec<u8>], fold: bool) -> Vec<u8> {
    let mut sample = Vec::new();
    for form in forms {
        let form = if fold {
            form.to_ascii_lowercase()
        } else {
            form.clone()
        };
        for c in (b' '..=b'~').chain([b'\t', b'\n']) {
            if !(fold && c.is_ascii_uppercase()) {
                sample.extend_from_slice(&form);
                sample.push(c);
            }
        }
    }
    sample
}

/// What a Teddy pass reads, and the sample its buckets are laid out for (see
/// [`layout`]; ordinary text where `None`).
#[derive(Clone, Copy)]
pub(crate) enum Text<'a> {
    /// The lowercased copy of the slice, its signatures lowercased.
    Lowered(Option<&'a [u8]>),
    /// The slice as written, its signatures as [`spellings`] spells them.
    Written(Option<&'a [u8]>),
}

/// A signature's one spelling, where every keyword it starts (`owners`, each with
/// where the signature lies in it) is found as written (`written`, per keyword) and
/// spells it the same way; `None` where one is found in any case.
fn cased(owners: &[(u32, usize)], len: usize, written: &[Option<Vec<u8>>]) -> Option<Vec<u8>> {
    let spelled = |&(k, off): &(u32, usize)| {
        let form = written[k as usize].as_deref()?;
        form.get(off..off + len).map(<[u8]>::to_vec)
    };
    let first = spelled(owners.first()?)?;
    (owners.iter())
        .all(|o| spelled(o).as_ref() == Some(&first))
        .then_some(first)
}

/// The signatures `sigs` (lowercased; `owners` per signature) as a pass over the text
/// as written finds them, with the owners per pattern: each in its one spelling where
/// it has one (see [`cased`]), else in every ASCII spelling (eight for `pwd`). Those
/// share their low nibbles, so aho-corasick puts them in one bucket, which flags where
/// the lowercased signature would on the lowercased text.
fn spellings(
    sigs: &[Vec<u8>],
    owners: &[Owners],
    written: &[Option<Vec<u8>>],
) -> (Vec<Vec<u8>>, Vec<Owners>) {
    let (mut forms, mut by_form) = (Vec::new(), Vec::new());
    for (sig, o) in sigs.iter().zip(owners) {
        if let Some(form) = cased(o, sig.len(), written) {
            forms.push(form);
            by_form.push(o.clone());
            continue;
        }
        let letters: Vec<usize> = (0..sig.len())
            .filter(|&i| sig[i].is_ascii_alphabetic())
            .collect();
        for m in 0..1u32 << letters.len() {
            let mut form = sig.clone();
            for (j, &i) in letters.iter().enumerate() {
                if m >> j & 1 == 1 {
                    form[i] = form[i].to_ascii_uppercase();
                }
            }
            forms.push(form);
            by_form.push(o.clone());
        }
    }
    (forms, by_form)
}

/// A Teddy searcher of `sigs` (lowercased, or spelled as [`Text`] says), laid out by
/// [`bucket_order`] for the text it reads, with the owners of its patterns in its
/// order; and its buckets as [`Nibbles`].
fn teddy_pass(sigs: &[Vec<u8>], owners: &[Owners], text: Text<'_>) -> Option<(Pass, Nibbles)> {
    let (order, nibbles) = bucket_order(sigs, text);
    packed::Config::new()
        .match_kind(PackedKind::LeftmostFirst)
        .heuristic_pattern_limits(false)
        .builder()
        .extend(order.iter().map(|&i| &sigs[i]))
        .build()
        .map(|s| {
            (
                (s, order.iter().map(|&i| owners[i].clone()).collect()),
                nibbles,
            )
        })
}

/// The order in which to hand `sigs` (all of one length) to Teddy so that signatures
/// whose nibbles overlap share a bucket: Teddy flags a position for a bucket when each
/// of its bytes has a low and a high nibble some signature of the bucket has there, so a
/// bucket of look-alikes (`xoxb`, `xoxp`, `xoxa`) flags little more than one signature
/// would. aho-corasick fills bucket `B - 1 - (j % B)` with pattern `j`, except that a
/// pattern whose low nibbles equal an earlier one's joins that one's bucket; the order
/// follows that rule (a repeated index fills a short bucket, and only costs a repeated
/// check). A bucket's flag rate is estimated from byte frequencies and counted on a
/// sample of ordinary text, or of a storm, lowercased or as written as the pass reads
/// it (see [`layout`]). The layout only changes speed: every order finds the same hits.
/// Returns the order, and the buckets it makes as [`Nibbles`].
fn bucket_order(sigs: &[Vec<u8>], text: Text<'_>) -> (Vec<usize>, Nibbles) {
    if sigs.is_empty() {
        return (Vec::new(), Nibbles(Vec::new()));
    }
    // Teddy's slim searchers have 8 buckets, the fat ones (over 32 patterns) 16.
    let buckets = if sigs.len() > 32 { 16 } else { 8 };
    let (units, members) = layout(sigs, buckets, Model::Nibbles, text);
    let rounds = members.iter().map(Vec::len).max().unwrap_or(0);
    // The signatures of the units placed so far, past their first: each joins its
    // unit's bucket wherever it comes, so they fill short rounds before a repeated
    // index does. Each given pattern counts: over 32, aho-corasick builds a fat
    // searcher, which reads half as many bytes a step (the 30 spellings of the
    // three-byte keywords, laid out with repeats and their spares after, came to 34).
    let mut spares: Vec<usize> = Vec::new();
    let mut order = Vec::with_capacity(sigs.len() + buckets);
    for r in 0..rounds {
        for slot in 0..buckets {
            let bucket = &members[buckets - 1 - slot];
            let i = match bucket.get(r) {
                Some(&u) => {
                    spares.extend(&units[u][1..]);
                    units[u][0]
                }
                None => match spares.pop() {
                    Some(i) => i,
                    None => {
                        let fallback = members.iter().find(|m| !m.is_empty()).expect("one bucket");
                        units[*bucket.first().unwrap_or(&fallback[0])][0]
                    }
                },
            };
            order.push(i);
        }
    }
    order.extend(spares);
    (order, Nibbles::of(sigs, &units, &members))
}

/// How a Teddy-like searcher decides that the byte in one place of a window may be
/// that of a bucket's signature.
#[derive(Clone, Copy)]
pub(crate) enum Model {
    /// aho-corasick's Teddy: the byte's low nibble is one of the bucket's there, and so
    /// is its high nibble.
    Nibbles,
    /// The sieve: the byte's class (the table's entry) is one of the bucket's there.
    Classes(&'static [u8; 256]),
}

/// A bucket's place: `(low, high)` nibble sets, or `(classes, 0)`.
type Place = (u64, u64);

impl Model {
    fn add(self, place: &mut Place, c: u8) {
        match self {
            Model::Nibbles => {
                place.0 |= 1 << (c & 15);
                place.1 |= 1 << (c >> 4);
            }
            Model::Classes(class) => place.0 |= 1 << class[usize::from(c)],
        }
    }

    fn admits(self, (a, b): Place, c: u8) -> bool {
        match self {
            Model::Nibbles => a >> (c & 15) & 1 == 1 && b >> (c >> 4) & 1 == 1,
            Model::Classes(class) => a >> class[usize::from(c)] & 1 == 1,
        }
    }

    /// The keys of byte `c` that [`Windows`] sets are kept by: its class (and 0), or
    /// its low and high nibbles.
    fn keys(self, c: u8) -> [usize; 2] {
        match self {
            Model::Nibbles => [usize::from(c & 15), usize::from(c >> 4)],
            Model::Classes(class) => [usize::from(class[usize::from(c)]), 0],
        }
    }

    /// Whether a place admits by one part of its keys (a class) or by both (nibbles).
    fn one_part(self) -> bool {
        matches!(self, Model::Classes(_))
    }

    /// The keys `new` admits that `old` does not, by part.
    fn parts(self, new: Place, old: Place) -> [u64; 2] {
        [new.0 & !old.0, new.1 & !old.1]
    }

    /// Signatures the searcher cannot tell apart in a bucket's flags, and which
    /// aho-corasick keeps together: same low nibbles, or same classes.
    fn key(self, sig: &[u8]) -> Vec<u8> {
        match self {
            Model::Nibbles => sig.iter().map(|b| b & 15).collect(),
            Model::Classes(class) => sig.iter().map(|&b| class[usize::from(b)]).collect(),
        }
    }
}

/// `sigs` (all of one length, at least one) laid out over `buckets` buckets of a
/// Teddy-like searcher, each bucket as full as the others: the signatures as *units*
/// (those `model` cannot tell apart), and per bucket the units in it. Each unit goes,
/// largest first, to the bucket whose flag rate grows least on the text the searcher
/// reads (`text`): lowercased or as written, its sample or ordinary text.
pub(crate) fn layout(
    sigs: &[Vec<u8>],
    buckets: usize,
    model: Model,
    text: Text<'_>,
) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let (sample, written) = match text {
        Text::Lowered(sample) => (sample, false),
        Text::Written(sample) => (sample, true),
    };
    let len = sigs[0].len();
    // Units in the order their first signature comes.
    let mut units: Vec<Vec<usize>> = Vec::new();
    let mut unit_of: HashMap<Vec<u8>, usize> = HashMap::new();
    for (i, s) in sigs.iter().enumerate() {
        let next = units.len();
        let u = *unit_of.entry(model.key(s)).or_insert(next);
        match units.get_mut(u) {
            Some(unit) => unit.push(i),
            None => units.push(vec![i]),
        }
    }
    // How often a bucket with these places flags a position of ordinary text, under
    // the byte frequencies of `frequency` (no upper-case letter occurs in lowercased
    // text).
    // Per nibble pair, or per class: the frequency of the bytes that have it.
    let mut mass = [[0f64; 16]; 16];
    let mut class_mass = [0f64; 64];
    for c in (0..=255u8).filter(|c| written || !c.is_ascii_uppercase()) {
        mass[usize::from(c & 15)][usize::from(c >> 4)] += frequency(c);
        if let Model::Classes(class) = model {
            class_mass[usize::from(class[usize::from(c)])] += frequency(c);
        }
    }
    let total: f64 = mass.iter().flatten().sum();
    let bits = |m: u64| (0..64).filter(move |&n| m >> n & 1 == 1);
    let flags = |places: &[Place]| -> f64 {
        places
            .iter()
            .map(|&(a, b)| {
                let admitted: f64 = match model {
                    Model::Nibbles => bits(a).flat_map(|l| bits(b).map(move |h| mass[l][h])).sum(),
                    Model::Classes(_) => bits(a).map(|c| class_mass[c]).sum(),
                };
                admitted / total
            })
            .product()
    };
    // How often they flag a position of the sample itself: in ordinary text words
    // recur, which the per-byte model cannot see (`open`, `-r--`, `midd` flag far more
    // often than their bytes' frequencies say), and a storm's text is its copies.
    // Both rates count; the sample decides among buckets the model finds alike.
    let sample = match sample {
        Some(s) => s.to_vec(),
        None if written => ORDINARY.as_bytes().to_vec(),
        None => ORDINARY.as_bytes().to_ascii_lowercase(),
    };
    let windows = sample.len().saturating_sub(len) + 1;
    // The windows `places` admit, counted one by one (from the windows that start with
    // a byte the first place admits): what `Windows` counts, checked in debug builds
    // (every test run).
    #[cfg(debug_assertions)]
    let count = {
        let mut starts: Vec<Vec<usize>> = vec![Vec::new(); 256];
        for i in 0..windows {
            starts[usize::from(sample[i])].push(i);
        }
        let sample = &sample;
        move |places: &[Place]| -> usize {
            (0..=255u8)
                .filter(|&c| model.admits(places[0], c))
                .flat_map(|c| &starts[usize::from(c)])
                .filter(|&&i| (1..len).all(|p| model.admits(places[p], sample[i + p])))
                .count()
        }
    };
    let sets = Windows::new(model, &sample, windows, sigs);
    let rate = |n: &[Place], seen: usize| flags(n) + seen as f64 / sample.len() as f64;
    let mut places = vec![vec![(0u64, 0u64); len]; buckets];
    // Per bucket, the windows of the sample its places admit.
    let mut admitted = vec![sets.none(); buckets];
    let mut now = vec![0f64; buckets];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); buckets];
    let mut size = vec![0usize; buckets];
    let cap = sigs.len().div_ceil(buckets);
    let mut by_size: Vec<usize> = (0..units.len()).collect();
    by_size.sort_by_key(|&u| std::cmp::Reverse(units[u].len()));
    for u in by_size {
        let with = |b: usize| {
            let mut n = places[b].clone();
            for &i in &units[u] {
                for (place, &c) in n.iter_mut().zip(&sigs[i]) {
                    model.add(place, c);
                }
            }
            n
        };
        // Among the buckets with room (or all, when a unit fits none), the one whose
        // flag rate grows least.
        let room: Vec<usize> = (0..buckets)
            .filter(|&b| size[b] + units[u].len() <= cap)
            .collect();
        let pick = if room.is_empty() {
            (0..buckets).collect()
        } else {
            room
        };
        let costs: Vec<(usize, f64, usize)> = pick
            .into_iter()
            .map(|b| {
                let n = with(b);
                let all = sets.count(model, &admitted[b], &places[b], &n);
                #[cfg(debug_assertions)]
                assert_eq!(all, count(&n), "windows admitted");
                (b, rate(&n, all) - now[b], all)
            })
            .collect();
        let &(b, _, all) = costs
            .iter()
            .min_by(|&&(a, ca, _), &&(b, cb, _)| ca.total_cmp(&cb).then(size[a].cmp(&size[b])))
            .expect("at least one bucket");
        let n = with(b);
        sets.grow(model, &mut admitted[b], &places[b], &n);
        places[b] = n;
        now[b] = rate(&places[b], all);
        members[b].push(u);
        size[b] += units[u].len();
    }
    (units, members)
}

/// For [`layout`]: which windows of the sample each place of a bucket admits, as
/// bitsets over the windows, by the keys [`Model::keys`] gives a byte (its class; its
/// low nibble and its high nibble). A place admits a window where the window's keys
/// there are among the place's; a bucket admits it where all its places do. Each
/// bucket keeps its places' sets, so trying a unit in it ORs in the sets of the keys
/// the unit adds, ANDs the places and counts, over only the windows all the
/// signatures together admit. Counting the admitted windows one by one again, for
/// each bucket a unit could go to, made the built-in keywords' layout 5 ms (now 2).
struct Windows {
    /// Per place, per key part (one or two), per key: the windows with it there.
    sets: Vec<[Vec<Vec<u64>>; 2]>,
    words: usize,
}

/// A bucket's places as [`Windows`] sets: per place, per key part, the windows admitted.
type Admitted = Vec<[Vec<u64>; 2]>;

impl Windows {
    /// The windows of `sample` that `sigs` all together admit (no bucket admits
    /// another: a few hundred of the sample's thousands, a few words a set).
    fn new(model: Model, sample: &[u8], windows: usize, sigs: &[Vec<u8>]) -> Windows {
        let len = sigs[0].len();
        let mut any = vec![(0u64, 0u64); len];
        for sig in sigs {
            for (place, &c) in any.iter_mut().zip(sig) {
                model.add(place, c);
            }
        }
        let kept: Vec<usize> = (0..windows)
            .filter(|&i| (0..len).all(|p| model.admits(any[p], sample[i + p])))
            .collect();
        let words = kept.len().div_ceil(64).max(1);
        let mut sets = vec![[vec![vec![0u64; words]; 64], vec![vec![0u64; words]; 64]]; len];
        for (j, &i) in kept.iter().enumerate() {
            for (p, place) in sets.iter_mut().enumerate() {
                let keys = model.keys(sample[i + p]);
                for (part, key) in place.iter_mut().zip(keys) {
                    part[key][j / 64] |= 1 << (j % 64);
                }
            }
        }
        Windows { sets, words }
    }

    /// The sets of places that admit nothing.
    fn none(&self) -> Admitted {
        vec![[vec![0; self.words], vec![0; self.words]]; self.sets.len()]
    }

    /// How many windows `new` admits, given `admitted`, the sets of `old` (whose keys
    /// it holds).
    fn count(&self, model: Model, admitted: &Admitted, old: &[Place], new: &[Place]) -> usize {
        let fresh: Vec<[u64; 2]> = old
            .iter()
            .zip(new)
            .map(|(&o, &n)| model.parts(n, o))
            .collect();
        let parts = if model.one_part() { 1 } else { 2 };
        (0..self.words)
            .map(|w| {
                let mut all = u64::MAX;
                for (p, place) in admitted.iter().enumerate() {
                    for part in 0..parts {
                        let mut set = place[part][w];
                        let mut bits = fresh[p][part];
                        while bits != 0 {
                            set |= self.sets[p][part][bits.trailing_zeros() as usize][w];
                            bits &= bits - 1;
                        }
                        all &= set;
                    }
                }
                all.count_ones() as usize
            })
            .sum()
    }

    /// `admitted`, the sets of `old`, grown to those of `new`.
    fn grow(&self, model: Model, admitted: &mut Admitted, old: &[Place], new: &[Place]) {
        for (p, place) in admitted.iter_mut().enumerate() {
            let fresh = model.parts(new[p], old[p]);
            for (part, (set, mut bits)) in place.iter_mut().zip(fresh).enumerate() {
                while bits != 0 {
                    let key = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for (w, k) in set.iter_mut().zip(&self.sets[p][part][key]) {
                        *w |= k;
                    }
                }
            }
        }
    }
}

/// Ordinary agent output (source code in several languages, shell, test and build
/// output, logs, JSON tool calls, a diff, prose), no credential in it: the text
/// [`bucket_order`] keeps Teddy's buckets quiet on.
const ORDINARY: &str = include_str!("ordinary.txt");

/// Offset of the [`SIG`] bytes of a (lowercased) keyword least likely to occur in ordinary
/// text: the prefilter stops at every occurrence of a signature, so `age` (from
/// `AGE-SECRET-KEY-1`) would stop it in every "message"; `y-1` almost never does.
/// Likelihood is the product of per-byte frequencies in English text and source code.
fn signature(keyword: &[u8]) -> usize {
    (0..=keyword.len() - SIG)
        .min_by(|&a, &b| {
            let f = |o: usize| {
                keyword[o..o + SIG]
                    .iter()
                    .map(|&c| frequency(c))
                    .product::<f64>()
            };
            f(a).total_cmp(&f(b))
        })
        .unwrap_or(0)
}

/// Relative frequency (percent) of a lowercased byte in agent output.
fn frequency(b: u8) -> f64 {
    match b {
        b' ' => 15.0,
        b'e' => 12.7,
        b't' => 9.1,
        b'a' => 8.2,
        b'o' => 7.5,
        b'i' => 7.0,
        b'n' => 6.7,
        b's' => 6.3,
        b'h' => 6.1,
        b'r' => 6.0,
        b'd' => 4.3,
        b'l' => 4.0,
        b'c' | b'u' => 2.8,
        b'm' | b'w' => 2.4,
        b'f' => 2.2,
        b'g' | b'y' => 2.0,
        b'.' | b'p' => 1.9,
        b'_' | b'b' | b'\n' => 1.5,
        b'v' | b'-' | b'0'..=b'9' | b'"' | b'/' | b'=' | b',' | b'(' | b')' => 1.0,
        b'k' => 0.8,
        b':' | b'\'' => 0.5,
        b'j' | b'x' => 0.15,
        b'q' => 0.1,
        b'z' => 0.07,
        _ => 0.3,
    }
}

/// `unit`, then a byte of `aZ09_-.:= ` picked by a seeded xorshift, again and again to
/// at least `size` bytes: a storm that does not repeat, as the core's integration
/// tests make them (tests).
#[cfg(test)]
pub(crate) fn varied_storm(unit: &[u8], size: usize) -> Vec<u8> {
    storm_between(unit, size, b"aZ09_-.:= ", 0)
}

/// [`varied_storm`] with the bytes between copies picked from `between`, and between
/// two copies by `gaps`: 0 one of them, 1 none, one or two, `n` from 2 on `n` (tests).
#[cfg(test)]
pub(crate) fn storm_between(unit: &[u8], size: usize, between: &[u8], gaps: u8) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut text = Vec::with_capacity(size + unit.len() + 2);
    while text.len() < size {
        text.extend_from_slice(unit);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = match gaps {
            0 => 1,
            1 => [1, 1, 1, 1, 0, 2][(x >> 32) as usize % 6],
            n => usize::from(n),
        };
        for j in 0..n {
            text.push(
                between[(x >> (8 * (j % 8))).wrapping_add(j as u64 >> 3) as usize % between.len()],
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scrub::opening::RunCap;
    use crate::scrub::RuleSet;
    use proptest::prelude::*;
    use regex_automata::dfa::Automaton;
    use std::sync::Arc;

    /// A dense part is a storm of a keyword where its gates drop one of its hits every
    /// 64 bytes or more, counted over the part (at one every 16, counted by the chain
    /// of the walk, copies five bytes apart or more were walked hit by hit). Storms of
    /// `ghp_`, `AZDO` and `sk-` with 8 to 56 bytes between copies, read in 64 KiB
    /// slices, are storms of their keyword at the end of every slice, with the sieve
    /// where the CPU has it and without. Without the sieve, so are storms with 64 to
    /// 128 bytes between copies, whose blocks through Teddy are not dense (see
    /// `spread_storm`). (That a storm part reports the walk's hits:
    /// `storm_parts_through_teddy_report_the_walks_hits` and the sieve's tests.)
    #[test]
    fn spread_storms_are_storms() {
        // After how many of four slices of 64 KiB the storm is one of its keyword.
        let storms = |pre: &Prefilter, unit: &str, between: u8| {
            let mut text = storm_between(unit.as_bytes(), 4 << 16, b"aZ09_-.:= ", between);
            text.truncate(4 << 16);
            let lowered = unit.to_ascii_lowercase();
            let k = (0..pre.patterns.len() as u32)
                .find(|&k| pre.patterns[k as usize] == lowered.as_bytes())
                .expect("a keyword");
            let (mut scratch, mut dense) = (Scratch::default(), false);
            let mut storms = 0;
            for piece in text.chunks(1 << 16) {
                let mut hits = Vec::new();
                let gated = (true, None, usize::MAX);
                pre.find_gated(piece, &mut scratch, &mut hits, &mut dense, gated);
                storms += usize::from(scratch.storm.keyword == Some(k));
            }
            storms
        };
        // Every one is a storm of its keyword after each slice.
        let all = |pre: &Prefilter, storms_of: &[(&str, u8)]| {
            for &(unit, between) in storms_of {
                let n = storms(pre, unit, between);
                assert_eq!(n, 4, "{unit:?} with {between} bytes between");
            }
        };
        let set = crate::scrub::RuleSet::builtin();
        let near = [
            ("ghp_", 8),
            ("AZDO", 8),
            ("sk-", 16),
            ("AZDO", 40),
            ("ghp_", 56),
        ];
        let far = [("sk-", 64), ("ghp_", 96), ("AZDO", 120), ("eyJ", 128)];
        for pre in [&set.prefilter, &set.prefilter_without_sieve()] {
            all(pre, &near);
        }
        // Without the sieve, copies further apart, through Teddy, start storm parts.
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            all(&set.prefilter_without_sieve(), &far);
        }
        // With the sieve, where it drops storms in bulk, they do too, and copies up to
        // `SIEVE_SPREAD_EVERY` apart, further than Teddy's.
        if set.prefilter.sieved() && set.prefilter.storms_in_bulk() {
            all(&set.prefilter, &far);
            all(&set.prefilter, &[("sk-", 200), ("ghp_", 250)]);
        }
    }

    /// A walked part's unit is found from wherever the part begins: copies of `hava`
    /// with one byte of a sequence between, or two, read from each offset of a
    /// period give the unit as it follows the bytes between (so rotated where the
    /// part begins inside a copy), and the bytes between; text with no period gives
    /// none, and so does a period with bytes between that are not one after the other.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_walks_unit_is_found_one_or_two_bytes_apart() {
        for gap in 1..=2 {
            let text = storm_between(b"hava", 400, b"aZ09_-.:= ", if gap == 1 { 0 } else { 2 });
            let period = 4 + gap;
            for at in 0..period {
                let (unit, got) = unit_of(&text, at).expect("a unit");
                // The copy after the first bytes between at or after `at`.
                let start = (at..).find(|&p| p % period == 4 + gap - 1).unwrap() + 1;
                assert_eq!((unit, got), (&text[start..start + 4], gap), "at {at}");
            }
        }
        let mut x = 7u64;
        let noise: Vec<u8> = (0..200)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b'a' + (x % 26) as u8
            })
            .collect();
        assert_eq!(unit_of(&noise, 0), None);
        // Two places a period that are not one after the other: `hXvY` and a byte.
        let apart: Vec<u8> = (0..100)
            .flat_map(|i: u8| [b'h', i, b'v', i / 2, b'a'])
            .collect();
        assert_eq!(unit_of(&apart, 0), None);
    }

    /// A small slice the sieve flags at most bytes of (a run of `a`: the Twitter
    /// keyword, 21 `A`s, found ignoring case) sends the small slices after it to the
    /// walk while they have hits; the first without one goes back to the sieve.
    #[test]
    fn crowded_small_slices_send_the_next_to_the_walk() {
        let pre = Prefilter::new(&keywords(), &[]).unwrap();
        if pre.keywords.as_ref().is_none_or(|k| k.sieve.is_none()) {
            return; // No AVX-512: small slices always take the walk.
        }
        let (mut scratch, mut dense) = (Scratch::default(), false);
        let mut find = |slice: &[u8], dense: &mut bool| {
            let pending = pre.find(slice, &mut scratch, &mut Vec::new(), dense);
            (pending.is_some(), *dense)
        };
        const CLEAN: &[u8] = b"let total = items.len() + 1; // ok";
        // Clean text: the sieve, which leaves the hold-back to `Tails` (no pending).
        assert_eq!(find(CLEAN, &mut dense), (false, false));
        // A run of `a`: the sieve, then crowded.
        assert_eq!(find(&[b'a'; 40], &mut dense), (false, true));
        // More of the run (a hit of the keyword ignoring case): the walk, still crowded.
        assert_eq!(find(&[b'a'; 24], &mut dense), (true, true));
        // No hit: the walk, and back to the sieve for the next.
        assert_eq!(find(CLEAN, &mut dense), (true, false));
        assert_eq!(find(CLEAN, &mut dense), (false, false));
    }

    fn keywords() -> Vec<Vec<u8>> {
        crate::scrub::rules::builtin()
            .flat_map(|r| r.keywords.iter())
            .map(|k| k.as_bytes().to_vec())
            .collect()
    }

    /// The longest suffix of `text` that is a proper prefix of a pattern, by brute force
    /// (ASCII case folded from three bytes, exact below).
    fn pending_naive(patterns: &[Vec<u8>], text: &[u8]) -> usize {
        pending_naive_cased(patterns, &[], text)
    }

    /// Every occurrence of every keyword (ASCII case folded from three bytes, exact
    /// below), sorted.
    fn hits_naive(patterns: &[Vec<u8>], text: &[u8]) -> Vec<Hit> {
        let lower = text.to_ascii_lowercase();
        let mut hits: Vec<Hit> = (0..text.len())
            .flat_map(|i| {
                let (text, lower) = (&text, &lower);
                patterns.iter().enumerate().filter_map(move |(k, p)| {
                    let found = match p.len() {
                        3.. => lower[i..].starts_with(&p.to_ascii_lowercase()),
                        _ => text[i..].starts_with(p),
                    };
                    found.then_some((k as u32, i))
                })
            })
            .collect();
        hits.sort_unstable();
        hits
    }

    /// [`hits_naive`] and [`pending_naive`] with the keywords `exact` says found as
    /// written.
    fn hits_naive_cased(patterns: &[Vec<u8>], exact: &[bool], text: &[u8]) -> Vec<Hit> {
        let mut hits = hits_naive(patterns, text);
        hits.retain(|&(k, i)| !exact[k as usize] || text[i..].starts_with(&patterns[k as usize]));
        hits
    }

    fn pending_naive_cased(patterns: &[Vec<u8>], exact: &[bool], text: &[u8]) -> usize {
        (1..=text.len())
            .filter(|&n| {
                patterns.iter().enumerate().any(|(k, p)| {
                    let tail = &text[text.len() - n..];
                    n < p.len()
                        && if exact.get(k) == Some(&true) || p.len() < 3 {
                            tail == &p[..n]
                        } else {
                            tail.eq_ignore_ascii_case(&p[..n])
                        }
                })
            })
            .max()
            .unwrap_or(0)
    }

    /// Keywords, and which of them are found as written.
    type Cased = (Vec<Vec<u8>>, Vec<bool>);

    /// The built-in keywords and which of them are found as written.
    fn cased_keywords() -> Cased {
        let set = crate::scrub::ruleset::RuleSet::builtin();
        let keywords = set.prefilter.keywords();
        let exact = (0..keywords.len() as u32)
            .map(|k| set.prefilter.is_exact(k))
            .collect();
        (keywords, exact)
    }

    /// Runs of `a` (Twitter's keyword is 21 `A`s, found as written) flag every
    /// position of a sieve that folds case and none once each crowded step is asked
    /// the case; `A`s are flagged and found either way.
    #[test]
    fn runs_of_a_are_not_flagged_once_case_is_asked() {
        let (keywords, exact) = cased_keywords();
        let folded = Prefilter::new(&keywords, &[]).unwrap();
        let cased = Prefilter::with_cases(&keywords, &exact, &[]).unwrap();
        let (Some(f), Some(c)) = (&folded.keywords, &cased.keywords) else {
            return;
        };
        let (Some((f, _)), Some((c, _))) = (&f.sieve, &c.sieve) else {
            return;
        };
        let runs = [b"a".repeat(4000), b"-".to_vec()].concat();
        let (_, flags) = f.find(&runs, (0, runs.len()), true, |_, _| {});
        assert!(flags >= 3900, "{flags} flags");
        assert_eq!(c.find(&runs, (0, runs.len()), true, |_, _| {}), (0, 0));
        let upper = runs.to_ascii_uppercase();
        let (found, _) = c.find(&upper, (0, upper.len()), true, |_, _| {});
        assert!(found >= 3900, "{found} found");
    }

    /// Without the sieve, a storm of a keyword found as written, in the other case
    /// (`akia`, then a byte of no period), stays in dense blocks (walked, or read as
    /// a storm: see [`Prefilter::storm_teddy`]): Teddy's plain search reads the
    /// lowercased copy and would stop at each one. A block that counted its hits alone
    /// would find none, and hand the next four blocks back to Teddy.
    #[test]
    fn misspelled_storms_stay_dense_without_the_sieve() {
        let (keywords, exact) = cased_keywords();
        let pre = Prefilter::without_sieve_cased(&keywords, &exact);
        if pre.keywords.as_ref().is_none_or(|k| k.searchers.is_empty()) {
            return; // no SIMD: every slice is walked
        }
        let storm = varied_storm(b"akia", 6 * BLOCK);
        // Ended at each block: a storm the walk left goes on with Teddy.
        for blocks in 5..=6 {
            let storm = &storm[..blocks * BLOCK];
            let (mut hits, mut dense) = (Vec::new(), false);
            pre.find(storm, &mut Scratch::default(), &mut hits, &mut dense);
            assert_eq!(hits, []);
            assert!(dense, "after {blocks} blocks, the storm went back to Teddy");
        }
    }

    /// A word of lowercase letters the first fat pass's first bucket admits (no
    /// keyword), and the passes' flagger; `None` without SIMD.
    fn look_alike(pre: &Prefilter) -> Option<(Vec<u8>, &Flagger)> {
        let kw = pre.keywords.as_ref().filter(|k| !k.searchers.is_empty())?;
        let flagger = kw.flagger.as_ref().expect("fat passes");
        let admitted = |(lo, hi): &([u64; 16], [u64; 16])| {
            (b'a'..=b'z').find(|&c| lo[usize::from(c & 15)] & hi[usize::from(c >> 4)] & 1 == 1)
        };
        let word = (flagger.0.iter()).map(|p| admitted(p).expect("a letter"));
        Some((word.collect(), flagger))
    }

    /// Without the sieve, text whose windows Teddy's fat passes flag with no signature
    /// there (a word each of whose bytes a bucket admits by its nibbles, and a random
    /// byte, again and again) is walked from the first read on: Teddy would verify
    /// each copy in vain and report nothing. Ordinary text is not.
    #[test]
    fn look_alikes_of_signatures_are_walked_without_the_sieve() {
        let (keywords, exact) = cased_keywords();
        let pre = Prefilter::without_sieve_cased(&keywords, &exact);
        let Some((word, flagger)) = look_alike(&pre) else {
            return; // no SIMD: every slice is walked
        };
        let storm = varied_storm(&word, 8 * TEDDY_READ);
        assert!(flagger.flags(word[..].first_chunk().expect("four bytes")));
        let (mut hits, mut dense) = (Vec::new(), false);
        pre.find(&storm, &mut Scratch::default(), &mut hits, &mut dense);
        hits.sort_unstable_by_key(|&(k, h)| (h, k));
        let naive: Vec<Hit> = (0..storm.len())
            .flat_map(|h| (0..keywords.len() as u32).map(move |k| (k, h)))
            .filter(|&(k, h)| match keywords[k as usize].len() {
                0..3 => has_at(&storm, h, &keywords[k as usize]),
                _ => pre.has_keyword_at(&storm, h, k),
            })
            .collect();
        assert_eq!(hits, naive, "{}", String::from_utf8_lossy(&word));
        assert!(
            dense,
            "{}: went back to Teddy",
            String::from_utf8_lossy(&word)
        );
        let ordinary = ORDINARY
            .as_bytes()
            .repeat(8 * TEDDY_READ / ORDINARY.len() + 1);
        let (mut hits, mut dense) = (Vec::new(), false);
        pre.find(&ordinary, &mut Scratch::default(), &mut hits, &mut dense);
        assert!(!dense, "ordinary text walked");
    }

    /// A storm whose last part the sieve's drop paid for goes on in parts of up to
    /// [`STORM_BLOCKS`] blocks (each part costs its setup): `sk-` two bytes apart,
    /// four slices of 64 KiB (64 blocks), is read in at most half as many parts as
    /// blocks, a block at a time where its storm begins.
    #[test]
    fn lasting_storms_are_read_in_parts_of_several_blocks() {
        let Some((text, scratch, _)) = sk_storm_through_the_sieve(4 << 16) else {
            return; // no AVX-512: Teddy reads storms
        };
        let (parts, blocks) = (scratch.storm.parts, text.len() / BLOCK);
        assert!(parts > 0, "a storm of `sk-` is read as one");
        assert!(
            2 * parts <= blocks,
            "{parts} storm parts for {blocks} blocks"
        );
    }

    /// `len` bytes of `sk-` and two random bytes, again and again, read by the built-in
    /// rules' prefilter in slices of 64 KiB, gated: the text, the scratch after it and
    /// the hits reported. `None` where the prefilter has no sieve (no AVX-512).
    fn sk_storm_through_the_sieve(len: usize) -> Option<(Vec<u8>, Scratch, Vec<Hit>)> {
        let set = crate::scrub::RuleSet::builtin();
        let pre = &set.prefilter;
        pre.keywords.as_ref()?.sieve.as_ref()?;
        let mut text = storm_between(b"sk-", len, b"aZ09_-.:= ", 2);
        text.truncate(len);
        let (mut scratch, mut dense, mut hits) = (Scratch::default(), false, Vec::new());
        for piece in text.chunks(1 << 16) {
            let gated = (true, None, usize::MAX);
            pre.find_gated(piece, &mut scratch, &mut hits, &mut dense, gated);
        }
        Some((text, scratch, hits))
    }

    /// A storm at a stream's start: its first slice's probe is read again as a dense
    /// block, and the block's first `STORM_FIRST` bytes walked alone, so that nearly
    /// all of the slice's hits are dropped in bulk by its storm parts and almost none
    /// reported: of the ~13,100 copies of `sk-` in a 64 KiB slice, the probe sent on
    /// ~110 as hits when it was not read again, and the first block walked whole
    /// judged ~830 one by one.
    #[test]
    fn storms_at_a_streams_start_are_found_within_its_first_block() {
        let Some((text, scratch, hits)) = sk_storm_through_the_sieve(1 << 16) else {
            return; // no AVX-512: Teddy reads storms
        };
        let copies = text.windows(3).filter(|w| w == b"sk-").count();
        let dropped = scratch.storm.dropped;
        assert!(
            dropped + STORM_FIRST >= copies && hits.len() < STORM_FIRST / 5,
            "{dropped} of {copies} copies dropped in bulk, {} hits reported",
            hits.len()
        );
    }

    /// With the sieve, the built-in signatures' buckets are dealt apart a second time
    /// (see `sieve::spread`), and the look-alike storms of `tests/worst.rs` found for
    /// Teddy's buckets (`cas-`, `daaa`, `hava`, each and a random byte) are next to no
    /// flags: a step's flags are asked of the second set of buckets while that drops
    /// some, and it flags none of them (`cas-` was a lookup every 25 bytes).
    #[test]
    fn look_alike_storms_are_seldom_looked_up_by_the_sieve() {
        let set = crate::scrub::RuleSet::builtin();
        let keywords = set.prefilter.keywords.as_ref();
        let Some((sieve, _)) = keywords.and_then(|k| k.sieve.as_ref()) else {
            return; // no AVX-512: no sieve
        };
        super::super::sieve::check_spread(&sieve.signatures());
        for unit in ["cas-", "daaa", "hava"] {
            let storm = varied_storm(unit.as_bytes(), 1 << 20);
            let (found, flags) = sieve.find(&storm, (0, storm.len()), true, |_, _| {});
            let copies = storm.len() / (unit.len() + 1);
            assert_eq!(found, 0, "{unit}");
            assert!(
                flags * 100 <= copies,
                "{unit}: {flags} flags, {copies} copies"
            );
        }
    }

    /// A storm of a look-alike word with a few bytes between copies (a place in 8 to
    /// 16 flagged) stays walked once walked: few slices of it end on Teddy (sampled
    /// as a block read by Teddy is, blocks fell under the threshold and went back to
    /// Teddy for four).
    #[test]
    fn look_alike_storms_stay_walked() {
        let (keywords, exact) = cased_keywords();
        let pre = Prefilter::without_sieve_cased(&keywords, &exact);
        let Some((word, _)) = look_alike(&pre) else {
            return; // no SIMD: every slice is walked
        };
        for between in [4, 8, 12] {
            let slice = 16 * BLOCK;
            let storm = storm_between(&word, 32 * slice, b"aZ09_-.:= ", between);
            let (mut scratch, mut dense, mut hits) = (Scratch::default(), false, Vec::new());
            let teddy = (storm.chunks(slice))
                .filter(|piece| {
                    hits.clear();
                    pre.find(piece, &mut scratch, &mut hits, &mut dense);
                    !dense
                })
                .count();
            let word = String::from_utf8_lossy(&word);
            // (Sampled as a block read by Teddy: 2, 7 and 10 of them.)
            assert!(
                teddy <= 3,
                "{word} {between} apart: {teddy} of 32 slices end on Teddy"
            );
        }
    }

    #[test]
    fn tails_of_many_distinct_bytes_leave_the_answer_to_the_walk() {
        // 68 distinct bytes in keywords' prefixes: more columns than a node's word.
        let bytes: Vec<u8> = (b'!'..=b'~').filter(|b| !b.is_ascii_uppercase()).collect();
        assert_eq!(bytes.len(), 68);
        let patterns: Vec<Vec<u8>> = (0..bytes.len())
            .map(|i| vec![bytes[i], bytes[(i * 7) % 68], b'z', b'z'])
            .collect();
        assert!(Tails::new(&patterns, &[]).pending(b"x").is_none());
        let pre = Prefilter::new(&patterns, &[]).unwrap();
        for text in [&b"x"[..], b"ab", b"'.z", b"a!!z", b"??zz!", b"{"] {
            let want = pending_naive(&patterns, text);
            let start = pre.partial_start(text, None);
            assert_eq!(start, (want > 0).then(|| text.len() - want), "{text:?}");
        }
    }

    /// The windows of `text` that some bucket of `sigs`, laid out over `buckets` for
    /// `sample`, admits (where Teddy stops and verifies).
    fn stops(sigs: &[Vec<u8>], buckets: usize, read: Text<'_>, text: &[u8]) -> usize {
        let model = Model::Nibbles;
        let (units, members) = layout(sigs, buckets, model, read);
        let places: Vec<Vec<Place>> = (members.iter())
            .map(|bucket| {
                let mut places = vec![(0, 0); sigs[0].len()];
                for &i in bucket.iter().flat_map(|&u| &units[u]) {
                    for (place, &c) in places.iter_mut().zip(&sigs[i]) {
                        model.add(place, c);
                    }
                }
                places
            })
            .collect();
        (text.windows(sigs[0].len()))
            .filter(|w| {
                (places.iter()).any(|p| p.iter().zip(*w).all(|(&place, &c)| model.admits(place, c)))
            })
            .count()
    }

    /// A storm's passes, laid out for its text, stop at fewer of its windows than
    /// those laid out for ordinary text: in a storm of `akia`, buckets whose nibbles
    /// admitted windows such as `kia0` stopped at every few copies. The storms are
    /// those of `tests/worst.rs`: the keyword and one byte of `aZ09_-.:= `, every pair
    /// of them, lowercased for the passes of four-byte signatures and as written for
    /// the three-byte keywords' pass. As written, `AZDO`'s storm holds no `oaa`, a
    /// keyword that stopped the lowercased pass at every tenth copy.
    #[test]
    fn storm_passes_stop_at_fewer_of_the_storms_windows() {
        let (keywords, exact) = cased_keywords();
        let pre = Prefilter::without_sieve_cased(&keywords, &exact);
        let Some(kw) = &pre.keywords else { return };
        let storms = [
            ("akia", 4),
            ("AZDO", 4),
            ("XOXB-", 1),
            ("ghp_", 1),
            ("sk-", 1),
            ("eyJ", 1),
        ];
        for (storm, fewer) in storms {
            let mut text = Vec::new();
            for (a, b) in b"aZ09_-.:= "
                .iter()
                .flat_map(|&a| b"aZ09_-.:= ".map(|b| (a, b)))
            {
                text.extend_from_slice(storm.as_bytes());
                text.push(a);
                text.extend_from_slice(storm.as_bytes());
                text.push(b);
            }
            let lowered = text.to_ascii_lowercase();
            let k = (keywords.iter())
                .position(|k| k.eq_ignore_ascii_case(storm.as_bytes()))
                .expect("a keyword") as u32;
            let forms = pre.storm_forms(k);
            let (mut before, mut after) = (0, 0);
            for (i, (sigs, owners)) in kw.passes.iter().enumerate() {
                let alike =
                    |s: &Vec<u8>| s[..ALIKE].eq_ignore_ascii_case(&storm.as_bytes()[..ALIKE]);
                let (rest, rest_owners): (Vec<Vec<u8>>, Vec<Owners>) = (sigs.iter().zip(owners))
                    .filter(|(s, _)| !alike(s))
                    .map(|(s, o)| (s.clone(), o.clone()))
                    .unzip();
                if rest.is_empty() {
                    continue;
                }
                let buckets = |sigs: &[Vec<u8>]| if sigs.len() > 32 { 16 } else { 8 };
                before += stops(&rest, buckets(&rest), Text::Lowered(None), &lowered);
                after += if i < kw.searchers.len() {
                    let sample = storm_sample(&forms[..1], true);
                    stops(
                        &rest,
                        buckets(&rest),
                        Text::Lowered(Some(&sample)),
                        &lowered,
                    )
                } else {
                    let (rest, _) = spellings(&rest, &rest_owners, &pre.walk.written);
                    let sample = storm_sample(&forms, false);
                    stops(&rest, buckets(&rest), Text::Written(Some(&sample)), &text)
                };
            }
            assert!(
                after * fewer <= before,
                "{storm}: {after} stops, {before} laid out for ordinary text and lowercased"
            );
        }
    }

    #[test]
    fn bucket_order_keeps_every_signature() {
        let sigs: Vec<Vec<u8>> = keywords()
            .iter()
            .filter(|k| k.len() >= SIG)
            .map(|k| k[..SIG].to_ascii_lowercase())
            .collect();
        for n in [1, 5, 20, 33, 64, sigs.len()] {
            let (mut order, _) = bucket_order(&sigs[..n], Text::Lowered(None));
            order.sort_unstable();
            order.dedup();
            assert_eq!(order, (0..n).collect::<Vec<_>>(), "{n} signatures");
        }
    }

    /// A storm's three-byte keywords' pass reads the text as written (see
    /// [`Without`]): each keyword in its one spelling where it has one (`SG.`,
    /// `oaa`), else in all of them (`pwd` in eight). Those patterns (30 for the
    /// built-in keywords) go to Teddy as at most 32, every one of them at least once,
    /// so that it builds a slim searcher (over 32, a fat one, which reads half as many
    /// bytes a step): spellings of one signature fill the places of a round of the
    /// layout that is short, where repeated indices would make 34 patterns.
    #[test]
    fn three_byte_keywords_are_spelled_for_a_slim_searcher() {
        let (keywords, exact) = cased_keywords();
        let pre = Prefilter::without_sieve_cased(&keywords, &exact);
        let Some(kw) = &pre.keywords else { return };
        let (sigs, owners) = kw.passes.last().expect("the three-byte keywords' pass");
        assert!(sigs.iter().all(|s| s.len() == 3));
        let (forms, _) = spellings(sigs, owners, &pre.walk.written);
        for (form, n) in [
            (&b"SG."[..], 1),
            (b"oaa", 1),
            (b"sk-", 1),
            (b"pwd", 8),
            (b"://", 1),
        ] {
            let spelled = forms
                .iter()
                .filter(|f| f.eq_ignore_ascii_case(form))
                .count();
            assert_eq!(spelled, n, "{}", String::from_utf8_lossy(form));
        }
        assert!(forms.contains(&b"SG.".to_vec()) && forms.contains(&b"PwD".to_vec()));
        let (mut order, _) = bucket_order(&forms, Text::Written(None));
        assert!(
            order.len() <= 32,
            "{} patterns for {}",
            order.len(),
            forms.len()
        );
        order.sort_unstable();
        order.dedup();
        assert_eq!(order, (0..forms.len()).collect::<Vec<_>>());
    }

    /// A storm of each keyword (a hit every few bytes: Teddy for the first block, the
    /// dense engine after it when the hits come at least every 64 bytes) reports exactly
    /// the hits of the plain walk.
    #[test]
    fn dense_blocks_report_the_hits_of_the_walk() {
        let patterns = keywords();
        let pre = Prefilter::new(&patterns, &[]).unwrap();
        let mut scratch = Scratch::default();
        let mut dense_storms = 0;
        for k in &patterns {
            let storm = k.repeat(3 * BLOCK / k.len() + 1);
            let (mut found, mut walked) = (Vec::new(), Vec::new());
            let mut dense = false;
            pre.find(&storm, &mut scratch, &mut found, &mut dense);
            dense_storms += usize::from(dense);
            pre.walk.find(&storm, &mut walked, &mut Default::default());
            found.sort_unstable();
            walked.sort_unstable();
            assert_eq!(found, walked, "{:?}", String::from_utf8_lossy(k));
        }
        assert!(
            dense_storms > patterns.len() / 2,
            "{dense_storms} storms went dense"
        );
    }

    /// A repeating block's period is found up to 1,024 bytes (a `curl` line of 67
    /// bytes printed again and again was read hit by hit when it stopped at 64, a
    /// trace's events of 522 bytes when it stopped at 256), the nearest one, and the
    /// stretch skipped reaches the block's end (the text repeats well past it).
    #[test]
    fn periods_are_found_up_to_their_most() {
        let pre = Prefilter::new(&keywords(), &[]).unwrap();
        let dense = &pre.keywords.as_ref().expect("keywords").dense;
        // Bytes with no shorter period: a linear congruential sequence.
        let unit = |len: usize| -> Vec<u8> {
            let mut x = 12345u32;
            (0..len)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    b"abcdefghijklmnopqrstuvwxyz0123456789 =:-_"[(x >> 16) as usize % 41]
                })
                .collect()
        };
        for len in [1, 7, 64, 67, 162, 200, 256, 257, 522, 1024, 1025] {
            let text = unit(len).repeat(12 * BLOCK / len);
            let (at, to) = (4 * BLOCK, 5 * BLOCK);
            let found = repeat(&text, dense.reads(77), (at, to), 0);
            // A hint of the period, or of none, finds the same.
            assert_eq!(
                repeat(&text, dense.reads(77), (at, to), len),
                found,
                "{len}"
            );
            if len > 3 {
                assert_eq!(repeat(&text, dense.reads(77), (at, to), 3), found, "{len}");
            }
            if len > PERIOD {
                assert_eq!(found, None, "{len}");
                continue;
            }
            assert_eq!(
                found.map(|f| (f.0, f.1, f.2)),
                Some((len, at + len, to)),
                "{len}"
            );
        }
    }

    /// Past a break, a period goes on being copied from where the text repeats again
    /// (see [`resume`]), which may be right after it: a keyword whose first bytes lie
    /// in the first period past the break, and whose signature lies past that period,
    /// has no hit one period before (its first bytes there are the break's). It is
    /// found all the same, and its copies too: the stretch is checked from as many
    /// bytes before the period as any keyword has before its signature, not only the
    /// hits' own (here `eyJ`'s two). A stretch of another unit, with the same period,
    /// ends where the next one starts; any phase of the two.
    #[test]
    fn keywords_that_start_where_a_period_resumes_are_copied() {
        let keywords = [b"eyj".to_vec(), b"aaaazqxj".to_vec()];
        let pre = Prefilter::new(&keywords, &[])
            .unwrap()
            .with_sources(&keywords, vec![None, None]);
        let dense = &pre.keywords.as_ref().expect("keywords").dense;
        assert_eq!(dense.offsets[1], 4, "the signature is `zqxj`");
        let rotate = |unit: &[u8], r: usize| [&unit[r..], &unit[..r]].concat();
        for r in 0..16 {
            let (before, after) = (
                rotate(b"eyJ-bbbbbbbbmnop", r),
                rotate(b"eyJ-aaaazqxjmnop", r),
            );
            let text = [before.repeat(300), after.repeat(300)].concat();
            let mut walked = Vec::new();
            pre.walk.run(&text.to_ascii_lowercase(), |state, i| {
                pre.walk.push_ends(state, i, &mut walked)
            });
            walked.sort_unstable_by_key(|&(k, h)| (h, k));
            assert!(walked.iter().filter(|h| h.0 == 1).count() >= 299);
            let copied = pre.dense_hits(&text, (true, None), 0);
            assert!(copied == walked, "phase {r}");
        }
    }

    /// In runs of one byte, where the window's first bytes occur at nearly every
    /// distance, a window that recurs only every `d0` bytes (a `c` every `d0`, `a`
    /// between) is found when `d0` is among the first `PERIOD_TRIES` distances tried,
    /// and not after them: the tries are bounded.
    #[test]
    fn periods_in_runs_are_tried_a_bounded_number_of_times() {
        let start = 1500;
        for d0 in 20..60 {
            let mut text = vec![b'a'; 3000];
            for at in ((start + 10) % d0..3000).step_by(d0) {
                text[at] = b'c';
            }
            let window = &text[start..start + 2 * PERIOD_PROBE];
            let period = |d: usize| window == &text[start - d..start - d + 2 * PERIOD_PROBE];
            // Distances whose 8 bytes hold the first `c` are not tried.
            let tried = (1..=d0)
                .filter(|&d| !(d0 - 10..d0 - 2).contains(&d))
                .count();
            let want = (tried <= PERIOD_TRIES).then_some(d0);
            assert_eq!(nearest_period(&text, start, &period), want, "{d0}");
        }
    }

    /// A Teddy block is dense by its stops, not by the keywords they verify: a Docker
    /// token is one keyword but two signatures (`pat_` of `shpat_`, `ckr_` of
    /// `dckr_pat_`), so tokens back to back (one per 35 bytes) go to the DFA, and
    /// one token per 140 bytes (a stop per 70) stays on Teddy. Either way the hits
    /// are the walk's.
    #[test]
    fn blocks_are_dense_by_teddys_stops() {
        let both = [
            Prefilter::new(&keywords(), &[]).unwrap(),
            Prefilter::without_sieve(&keywords()),
        ];
        let mut scratch = Scratch::default();
        for ((gap, dense_after), pre) in [(0, true), (105, false)]
            .into_iter()
            .flat_map(|g| both.iter().map(move |p| (g, p)))
        {
            let unit = [
                &b"dckr_pat_dhpkUHqcQefA0xWL2fPRuSDnET"[..],
                &b" ".repeat(gap),
            ]
            .concat();
            let text = unit.repeat(4 * BLOCK / unit.len() + 1);
            let (mut found, mut walked) = (Vec::new(), Vec::new());
            let mut dense = false;
            pre.find(&text, &mut scratch, &mut found, &mut dense);
            assert_eq!(dense, dense_after, "a token every {} bytes", unit.len());
            pre.walk.find(&text, &mut walked, &mut Default::default());
            found.sort_unstable();
            walked.sort_unstable();
            assert_eq!(found, walked);
            assert_eq!(found.len(), text.len().div_ceil(unit.len()));
        }
    }

    /// A span longer than a piece of [`Dense::find`] (a storm of ~20 KiB of each of
    /// some keywords, walked at once) reports exactly the plain walk's hits.
    #[test]
    fn dense_spans_in_pieces_report_the_hits_of_the_walk() {
        let pre = Prefilter::new(&keywords(), &[]).unwrap();
        for k in pre.patterns.iter().filter(|p| p.len() >= 3).step_by(5) {
            let storm = k.repeat(20_000 / k.len() + 1);
            let (found, walked) = dense_and_walked(&pre, &storm);
            assert_eq!(found, walked, "{:?}", String::from_utf8_lossy(k));
        }
    }

    /// The hits of a dense block over all of `text`, and of the plain walk, in order.
    fn dense_and_walked(pre: &Prefilter, text: &[u8]) -> (Vec<Hit>, Vec<Hit>) {
        let found = pre.dense_hits(text, (false, None), 0);
        let mut walked = Vec::new();
        pre.walk
            .run(text, |state, i| pre.walk.push_ends(state, i, &mut walked));
        walked.sort_unstable_by_key(|&(k, h)| (h, k));
        (found, walked)
    }

    /// Keywords too long for a chain to record a piece (one of 3,000 bytes) go as one
    /// plain walk per piece, with the same hits.
    #[test]
    fn dense_spans_with_a_long_keyword_report_the_hits_of_the_walk() {
        let long: Vec<u8> = b"key-".iter().copied().cycle().take(3000).collect();
        let patterns = vec![b"key".to_vec(), b"ey-k".to_vec(), long.clone()];
        let pre = Prefilter::new(&patterns, &[]).unwrap();
        let mut text = long.repeat(3);
        text.extend_from_slice(b"key-key");
        let (found, walked) = dense_and_walked(&pre, &text);
        assert!(
            walked.iter().any(|&(k, _)| k == 2),
            "the long keyword is found"
        );
        assert_eq!(found, walked);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The period looked for from `start` is the nearest distance, among the
        /// nearest `PERIOD_TRIES` at which the window's first 8 bytes occur, at which
        /// the window recurs, as a compare at every distance finds: on text of a few
        /// letters (runs of one, short periods, periods broken by an edit) whether the
        /// search or the compare at each distance takes it.
        #[test]
        fn nearest_periods_are_those_of_every_distance(
            unit in "[ab]{1,40}",
            noise in proptest::collection::vec((0usize..3000, b'a'..=b'c'), 0..40),
            run in 0usize..2000,
        ) {
            let mut text = unit.repeat(3000 / unit.len() + 1).into_bytes();
            text.truncate(3000);
            text[..run].fill(b'a');
            for (at, b) in noise {
                text[at] = b;
            }
            let start = 1500;
            let window = &text[start..start + 2 * PERIOD_PROBE];
            let period = |d: usize| window == &text[start - d..start - d + 2 * PERIOD_PROBE];
            let want = (1..=PERIOD)
                .filter(|&d| text[start - d..start - d + 8] == text[start..start + 8])
                .take(PERIOD_TRIES)
                .find(|&d| period(d));
            prop_assert_eq!(nearest_period(&text, start, &period), want);
        }

        /// The reversed-prefix trie and the walk's table answer as brute force does:
        /// the trie with every keyword found in any case, and with the built-in
        /// keywords found as written where their rules say.
        #[test]
        fn tails_match_brute_force(text in "[skSK_\\-ghpxoAIaz0-9.:/ ]{0,24}") {
            let patterns = keywords();
            let want = pending_naive(&patterns, text.as_bytes());
            let tails = Tails::new(&patterns, &[]);
            prop_assert_eq!(tails.pending(text.as_bytes()), Some(want));
            // A table of a few nodes answers within them, or not at all.
            let few = Tails::with_most(&patterns, &[], 8);
            let got = few.pending(text.as_bytes());
            prop_assert!(got.is_none() || got == Some(want), "{:?} for {}", got, want);
            static CASED: std::sync::OnceLock<(Cased, Tails)> = std::sync::OnceLock::new();
            let ((keywords, exact), cased) = CASED.get_or_init(|| {
                let (keywords, exact) = cased_keywords();
                let tails = Tails::new(&keywords, &exact);
                ((keywords, exact), tails)
            });
            let least = pending_naive_cased(keywords, exact, text.as_bytes());
            prop_assert_eq!(cased.pending(text.as_bytes()), Some(least));
            static FORWARD: std::sync::OnceLock<Walk> = std::sync::OnceLock::new();
            let forward = FORWARD.get_or_init(|| {
                let all: Vec<u32> = (0..patterns.len() as u32).collect();
                Walk::new(&patterns, &all, &[], Vec::new()).unwrap()
            });
            prop_assert_eq!(forward.pending(text.as_bytes()), want);
        }

        /// A keyword's [`Leading`] word answers as a comparison byte by byte does, for
        /// every built-in keyword (found as written or in any case): at its own copy
        /// with letters in either case, one byte changed (to bytes whose bit 5 alone
        /// differs from a letter's, a zero, a high byte), cut by the text's end.
        #[test]
        fn leading_words_answer_as_each_byte_compared(
            pick in any::<prop::sample::Index>(),
            flips in any::<u64>(),
            change in proptest::option::of((any::<prop::sample::Index>(), prop::sample::select(&b"@`[{_\x7f\x00\xc1AaZz09-"[..]))),
            lead in 0usize..3,
            cut in proptest::option::of(any::<prop::sample::Index>()),
        ) {
            static CASED: std::sync::OnceLock<Cased> = std::sync::OnceLock::new();
            let (keywords, exact) = CASED.get_or_init(cased_keywords);
            let k = pick.index(keywords.len());
            let keyword = &keywords[k];
            prop_assume!(keyword.len() >= 3);
            let lower = keyword.to_ascii_lowercase();
            let written = exact[k].then_some(&keyword[..]);
            let leading = Leading::new(&lower, written);
            let mut text = b"xy".repeat(lead);
            text.extend(keyword.iter().enumerate().map(|(i, &b)| {
                if flips >> (i % 64) & 1 == 1 { b ^ (u8::from(b.is_ascii_alphabetic()) << 5) } else { b }
            }));
            if let Some((at, b)) = change {
                let at = 2 * lead + at.index(keyword.len());
                text[at] = b;
            }
            if let Some(cut) = cut {
                text.truncate(cut.index(text.len() + 1));
            }
            let at = 2 * lead;
            let want = match written {
                Some(w) => has_at(&text, at, w),
                None => has_at_folded(&text, at, &lower),
            };
            let got = leading.is_at(&text, at)
                && (leading.whole || match written {
                    Some(w) => has_at(&text, at, w),
                    None => has_at_folded(&text, at, &lower),
                });
            prop_assert_eq!(got, want, "{:?} in {:?}", String::from_utf8_lossy(keyword), String::from_utf8_lossy(&text));
            // The word alone never turns a copy away.
            prop_assert!(!want || leading.is_at(&text, at));
        }

        /// At a flag of a signature many built-in keywords share (`oken`, `secr`,
        /// `pass`, `_key`), its owners told by [`Told`] (sorted by a byte, then asked
        /// by their leading words) are those found comparing each byte: in text of
        /// those keywords (either case, cut short, with bytes before them) and noise.
        #[test]
        fn owners_told_are_those_compared(
            sig in prop::sample::select(&["oken", "secr", "pass", "_key"][..]),
            pieces in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..40, any::<u64>(), "[-_a-z$. ]{0,3}"), 1..24),
        ) {
            static CASED: std::sync::OnceLock<Cased> = std::sync::OnceLock::new();
            let (keywords, exact) = CASED.get_or_init(cased_keywords);
            let patterns: Vec<Vec<u8>> = keywords.iter().map(|k| k.to_ascii_lowercase()).collect();
            let written: Vec<Option<Vec<u8>>> = (0..keywords.len())
                .map(|k| exact[k].then(|| keywords[k].clone()))
                .collect();
            let owners: Owners = (0..patterns.len())
                .filter_map(|k| {
                    let off = memmem::find(&patterns[k], sig.as_bytes())?;
                    (patterns[k].len() >= 3).then_some((k as u32, off))
                })
                .collect();
            prop_assume!(owners.len() > FEW_OWNERS);
            let told = Told::new(&owners, &patterns, &written);
            prop_assert!(told.sorted.is_some());
            let mut text = Vec::new();
            for (pick, cut, flips, noise) in pieces {
                text.extend_from_slice(noise.as_bytes());
                let keyword = &keywords[owners[pick.index(owners.len())].0 as usize];
                let keep = keyword.len() - cut.min(keyword.len() / 2);
                text.extend(keyword[..keep].iter().enumerate().map(|(i, &b)| {
                    if flips >> (i % 64) & 1 == 1 { b ^ (u8::from(b.is_ascii_alphabetic()) << 5) } else { b }
                }));
            }
            let has = |k: u32, h: usize| match &written[k as usize] {
                Some(w) => has_at(&text, h, w),
                None => has_at_folded(&text, h, &patterns[k as usize]),
            };
            let lower = text.to_ascii_lowercase();
            for at_sig in memmem::find_iter(&lower, sig.as_bytes()) {
                let mut got = Vec::new();
                told.each(&owners, &text, at_sig, |k, h, whole| {
                    if whole || has(k, h) {
                        got.push((k, h));
                    }
                });
                got.sort_unstable();
                let mut want: Vec<Hit> = (owners.iter())
                    .filter_map(|&(k, off)| Some((k, at_sig.checked_sub(off)?)))
                    .filter(|&(k, h)| has(k, h))
                    .collect();
                want.sort_unstable();
                prop_assert_eq!(got, want, "at {} of {:?}", at_sig, String::from_utf8_lossy(&text));
            }
        }

        /// Keywords shorter than three bytes are found exactly, case-sensitively, with
        /// one to three distinct last bytes (memchr) or more (the flag table).
        #[test]
        fn walk_finds_short_keywords_exactly(
            text in "[abQ~SKskxyzABD ]{0,40}",
            n in 1usize..=5,
        ) {
            let shorts: Vec<&[u8]> = [&b"Q~"[..], b"SK", b"ab", b"y", b"zD"][..n].to_vec();
            let patterns: Vec<Vec<u8>> = std::iter::once(&b"abd"[..])
                .chain(shorts.iter().copied())
                .map(<[u8]>::to_vec)
                .collect();
            let short = (1..patterns.len())
                .map(|i| (patterns[i].clone(), i as u32))
                .collect();
            let walk = Walk::new(&patterns, &[0], &[], short).unwrap();
            let mut hits = Vec::new();
            walk.find(text.as_bytes(), &mut hits, &mut Default::default());
            hits.sort_unstable();
            let lower = text.to_ascii_lowercase();
            let mut want: Vec<Hit> = (0..text.len())
                .flat_map(|at| {
                    let lower = &lower;
                    let text = &text;
                    patterns.iter().enumerate().filter_map(move |(i, p)| {
                        let found = if i == 0 {
                            lower.as_bytes()[at..].starts_with(p)
                        } else {
                            text.as_bytes()[at..].starts_with(p)
                        };
                        found.then_some((i as u32, at))
                    })
                })
                .collect();
            want.sort_unstable();
            prop_assert_eq!(hits, want);
        }

        /// Without the sieve, a dense part of a storm read by Teddy's passes, the
        /// storm keyword's signature compared apart (see `storm_teddy`), reports hits
        /// of the plain walk only, sorted; of those its gates let through it misses
        /// only hits of the signature's keywords at places the storm's drop names,
        /// and the storm keyword's where its own hit dies, and it adds only hits
        /// their gates drop. Storms of a keyword (as its rule spells it, or in the
        /// other case) and a random byte (of `aZ09_-.:= `, or of a few printable
        /// bytes, then also none or two between some copies, or two between each:
        /// the passes skip long
        /// stretches of copies, see `storm_drop::Copies`), other keywords and their fragments among
        /// them (lowercased, upper-cased or as their rules spell them; half of them
        /// whole keywords that the storm keyword's signature, or one alike, starts:
        /// `sk.eyJ`, `eyJ0eXAi…` in a storm of `eyJ`), any part of them, read as
        /// storms of mostly either case.
        #[test]
        fn storm_parts_through_teddy_report_the_walks_hits(
            storm in 0usize..6,
            flipped in any::<bool>(),
            other_case in any::<bool>(),
            others in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..12, 0usize..4000, 0usize..3, any::<bool>()), 0..16),
            size in 300usize..5000,
            cut in (0.0f64..1.0, 0.0f64..1.0),
            between in proptest::option::of(("[ -~]{1,12}", 0u8..3)),
        ) {
            static BUILT: std::sync::OnceLock<Prefilter> = std::sync::OnceLock::new();
            let pre = BUILT.get_or_init(|| crate::scrub::RuleSet::builtin().prefilter_without_sieve());
            let Some(keywords) = &pre.keywords else { return Ok(()) };
            let (dense, gates) = (&keywords.dense, keywords.dense.gates.as_ref().unwrap());
            let word = [&b"ghp_"[..], b"sk-", b"eyJ", b"AZDO", b"xoxb-", b"glpat-"][storm];
            let lowered = word.to_ascii_lowercase();
            let Some(k) = (0..pre.patterns.len() as u32)
                .find(|&k| pre.patterns[k as usize] == lowered && dense.storm(k, &pre.patterns).is_some())
            else {
                return Ok(());
            };
            let flip = |c: &u8| if c.is_ascii_alphabetic() { c ^ 0x20 } else { *c };
            let word: Vec<u8> = if flipped { word.iter().map(flip).collect() } else { word.to_vec() };
            let mut text = match &between {
                None => varied_storm(&word, size),
                Some((bytes, gaps)) => storm_between(&word, size, bytes.as_bytes(), *gaps),
            };
            let long: Vec<usize> = (0..pre.patterns.len()).filter(|&i| pre.patterns[i].len() >= 3).collect();
            let Some(near) = keywords.without[k as usize].get_or_init(|| pre.without(keywords, k)) else {
                return Ok(());
            };
            let near: Vec<usize> = (near.left.iter())
                .flat_map(|(_, owners)| owners.iter().map(|&(o, _)| o as usize))
                .collect();
            for (which, n, at, case, whole) in &others {
                let (i, n) = if *whole { (*which.get(&near), usize::MAX) } else { (*which.get(&long), *n) };
                let kw = match case {
                    0 => pre.patterns[i].clone(),
                    1 => pre.patterns[i].to_ascii_uppercase(),
                    _ => pre.walk.written[i].clone().unwrap_or_else(|| pre.patterns[i].clone()),
                };
                let at = (*at).min(text.len());
                text.splice(at..at, kw[..n.min(kw.len()).max(1)].iter().copied());
            }
            let lower = text.to_ascii_lowercase();
            let at = (cut.0 * text.len() as f64) as usize;
            let to = at + (cut.1 * (text.len() - at) as f64) as usize;
            let gating = Gating { gates, kill: None };
            let (mut hits, mut space) = (Vec::new(), Default::default());
            let Some(_) = pre.storm_teddy((k, other_case), (&text, &lower), gating, (at, to), (&mut hits, 0, &mut space, &mut Default::default())) else {
                return Ok(());
            };
            prop_assert!(hits.is_sorted_by_key(|&(k, h)| (h, k)));
            // Every hit of the walk whose signature starts in the part, and those its
            // gates let through.
            let mut all = Vec::new();
            dense.find(&pre.walk, &text, None, (at, to), (&mut all, &mut Default::default(), &mut Top::default()));
            let mut short = Vec::new();
            pre.short_hits(&text, (at, to), &mut short);
            all.extend(short);
            let mut gated = Vec::new();
            let some = Some(gating);
            dense.find(&pre.walk, &text, some, (at, to), (&mut gated, &mut Default::default(), &mut Top::default()));
            let mut short = Vec::new();
            pre.short_dense(&text, some, (at, to), (&mut gated, 0), &mut short);
            for hit in &hits {
                prop_assert!(all.contains(hit), "{:?} is no hit of the walk", hit);
            }
            let without = keywords.without[k as usize].get().unwrap().as_ref().unwrap();
            let storm = dense.storm(k, &pre.patterns).unwrap();
            // Dropped with its place, or the storm keyword's own hit where it dies
            // (its place kept for a longer keyword).
            let dropped = |(hk, h): Hit| {
                without.left[0].1.iter().any(|&(o, off)| {
                    let place = h + off;
                    let step = at + (place - at) / 64 * 64;
                    let own = if (o, off) == (k, 0) { storm.dies_at(&text, step) } else { 0 };
                    let gone = storm.drops_at(&text, step) | own;
                    o == hk && place >= at && gone >> (place - step) & 1 == 1
                })
            };
            for &hit in gated.iter().filter(|h| !hits.contains(h)) {
                prop_assert!(dropped(hit), "{:?} of the gated walk missing", hit);
            }
            for &(k, h) in hits.iter().filter(|h| !gated.contains(h)) {
                prop_assert!(!pre.opens(k, &text, h), "{:?} added, and its gate opens", (k, h));
            }
        }

        /// A dense block reports exactly the plain walk's hits whose signature starts
        /// in it, sorted, wherever its chains meet and however many pieces its span
        /// takes: texts of keywords, fragments of them and other bytes (repeated, up
        /// to ~20 KiB), and any `at..to` in them.
        #[test]
        fn dense_block_matches_the_walk(
            pieces in proptest::collection::vec((0usize..400, 0usize..12, "[ a-z0-9_.:=-]{0,3}"), 0..120),
            times in 1usize..12,
            cut in (0.0f64..1.0, 0.0f64..1.0),
        ) {
            static BUILT: std::sync::OnceLock<Prefilter> = std::sync::OnceLock::new();
            let pre = BUILT.get_or_init(|| Prefilter::new(&keywords(), &[]).unwrap());
            let dense = &pre.keywords.as_ref().unwrap().dense;
            let long: Vec<&Vec<u8>> = pre.patterns.iter().filter(|p| p.len() >= 3).collect();
            let mut text = Vec::new();
            for (k, n, other) in &pieces {
                let kw = long[k % long.len()];
                text.extend_from_slice(&kw[..(*n).min(kw.len()).max(1)]);
                text.extend_from_slice(other.as_bytes());
            }
            let text = text.repeat(times);
            let mut lower = Vec::new();
            lowercase_into(&text, &mut lower);
            let at = (cut.0 * text.len() as f64) as usize;
            let to = at + (cut.1 * (text.len() - at) as f64) as usize;
            let mut hits = Vec::new();
            dense.find(&pre.walk, &text, None, (at, to), (&mut hits, &mut Default::default(), &mut Top::default()));
            let mut walked = Vec::new();
            pre.walk.run(&lower, |state, i| pre.walk.push_ends(state, i, &mut walked));
            let mut want: Vec<Hit> = walked
                .into_iter()
                .filter(|&(k, h)| {
                    pre.patterns[k as usize].len() >= 3
                        && dense.ends.iter().any(|&(j, len, back)| {
                            j == k && (at..to).contains(&(h + (len - (back & BACK)) as usize))
                        })
                })
                .collect();
            want.sort_unstable_by_key(|&(k, h)| (h, k));
            prop_assert_eq!(hits, want);
        }

        /// Storms of a few keywords (two-byte ones among them, as written or with
        /// their case changed) and other bytes, with edits, through Teddy and dense
        /// blocks: the prefilter reports exactly the hits of the plain walk, and the
        /// short keywords' memchr search, over the whole text.
        #[test]
        fn blocks_report_the_hits_of_the_walk(
            units in proptest::collection::vec((0usize..400, any::<bool>(), "[ a-z0-9_.:=K~-]{0,2}"), 1..5),
            size in 4096usize..40_000,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), "[ SKQ~a-z]{1,3}"), 0..8),
        ) {
            static BUILT: std::sync::OnceLock<[Prefilter; 2]> = std::sync::OnceLock::new();
            let both = BUILT.get_or_init(|| {
                [Prefilter::new(&keywords(), &[]).unwrap(), Prefilter::without_sieve(&keywords())]
            });
            let mut unit = Vec::new();
            for (k, upper, other) in &units {
                let kw = &keywords()[k % keywords().len()];
                unit.extend(kw.iter().map(|b| if *upper { b.to_ascii_uppercase() } else { *b }));
                unit.extend_from_slice(other.as_bytes());
            }
            let mut text: Vec<u8> = unit.iter().copied().cycle().take(size).collect();
            for (at, edit) in &edits {
                let at = at.index(text.len());
                text.splice(at..at, edit.bytes());
            }
            for pre in both {
                let (mut found, mut walked) = (Vec::new(), Vec::new());
                pre.find(&text, &mut Scratch::default(), &mut found, &mut false);
                pre.walk.find(&text, &mut walked, &mut Default::default());
                found.sort_unstable();
                walked.sort_unstable();
                prop_assert_eq!(found, walked);
            }
        }

        /// Small slices one after another, as a stream passes them, each through the
        /// engine the slice before picked (the sieve, or the walk after a crowded
        /// slice: runs of `a`, which the sieve flags at every byte): every slice
        /// reports the brute-force hits and hold-back, whichever engine it took.
        #[test]
        fn small_slices_after_crowded_ones_report_the_same(
            pieces in proptest::collection::vec((0usize..40, "[aAk_z .:=-]{0,3}"), 1..40),
            cuts in proptest::collection::vec(1usize..80, 1..60),
        ) {
            static BUILT: std::sync::OnceLock<(Vec<Vec<u8>>, Prefilter)> = std::sync::OnceLock::new();
            let (patterns, pre) = BUILT.get_or_init(|| {
                let patterns = keywords();
                let pre = Prefilter::new(&patterns, &[]).unwrap();
                (patterns, pre)
            });
            let mut text = Vec::new();
            for (n, other) in &pieces {
                text.extend(std::iter::repeat_n(b'a', *n));
                text.extend_from_slice(other.as_bytes());
            }
            let (mut scratch, mut dense, mut at) = (Scratch::default(), false, 0);
            for cut in cuts.iter().cycle() {
                if at >= text.len() {
                    break;
                }
                let slice = &text[at..(at + cut).min(text.len())];
                at += cut;
                let mut hits = Vec::new();
                let pending = pre.find(slice, &mut scratch, &mut hits, &mut dense);
                hits.sort_unstable();
                prop_assert_eq!(hits, hits_naive(patterns, slice));
                let want = pending_naive(patterns, slice);
                prop_assert!(pending.is_none() || pending == Some(want));
                let start = pre.partial_start(slice, pending);
                prop_assert_eq!(start, (want > 0).then(|| slice.len() - want));
            }
        }

        /// Keywords found as written (most of the built-in ones) spelled as written, in
        /// lower or upper case or with one letter's case changed, with other bytes
        /// and edits: the sieve, Teddy, dense blocks and the walk each report exactly
        /// the hits of brute force that compares those keywords' case, and the walk
        /// ends holding back exactly what could still become one, as does what
        /// `partial_start` then holds (the walk's answer folds case).
        #[test]
        fn keywords_found_as_written_by_every_engine(
            units in proptest::collection::vec((0usize..400, 0u8..4, "[ aAkK0_.:=-]{0,2}"), 1..6),
            size in 16usize..3000,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), "[ aAsSkK_-]{1,3}"), 0..4),
        ) {
            static BUILT: std::sync::OnceLock<(Cased, [Prefilter; 2])> = std::sync::OnceLock::new();
            let ((keywords, exact), both) = BUILT.get_or_init(|| {
                let (keywords, exact) = cased_keywords();
                let both = [
                    Prefilter::with_cases(&keywords, &exact, &[]).unwrap(),
                    Prefilter::without_sieve_cased(&keywords, &exact),
                ];
                ((keywords, exact), both)
            });
            let mut unit = Vec::new();
            for (k, case, other) in units {
                let kw = &keywords[k % keywords.len()];
                let flip = |i: usize| i == kw.len() / 2;
                unit.extend(kw.iter().enumerate().map(|(i, &b)| match case {
                    0 => b,
                    1 => b.to_ascii_lowercase(),
                    2 => b.to_ascii_uppercase(),
                    _ if flip(i) && b.is_ascii_alphabetic() => b ^ 0x20,
                    _ => b,
                }));
                unit.extend_from_slice(other.as_bytes());
            }
            let mut text: Vec<u8> = unit.iter().copied().cycle().take(size).collect();
            for (at, edit) in &edits {
                let at = at.index(text.len());
                text.splice(at..at, edit.bytes());
            }
            let want = hits_naive_cased(keywords, exact, &text);
            for pre in both {
                let mut found = Vec::new();
                let pending = pre.find(&text, &mut Scratch::default(), &mut found, &mut false);
                found.sort_unstable();
                prop_assert_eq!(&found, &want);
                let mut walked = Vec::new();
                pre.walk.find(&text, &mut walked, &mut Default::default());
                walked.sort_unstable();
                prop_assert_eq!(&walked, &want);
                if let Some(dense) = pre.keywords.as_ref().map(|k| &k.dense) {
                    let mut hits = Vec::new();
                    dense.find(&pre.walk, &text, None, (0, text.len()), (&mut hits, &mut Default::default(), &mut Top::default()));
                    hits.retain(|&(k, _)| keywords[k as usize].len() >= 3);
                    hits.sort_unstable();
                    let long: Vec<Hit> =
                        want.iter().copied().filter(|&(k, _)| keywords[k as usize].len() >= 3).collect();
                    prop_assert_eq!(hits, long);
                }
                let tail = &text[text.len().saturating_sub(64)..];
                // The walk's table folds case: its pending length is the folded one;
                // what is held is the least (`Tails` asked again).
                let long: Vec<Vec<u8>> = keywords.iter().filter(|k| k.len() >= 3).cloned().collect();
                prop_assert_eq!(pre.walk.pending(tail), pending_naive(&long, tail));
                let held = pre.partial_start(&text, pending).map_or(0, |s| text.len() - s);
                prop_assert_eq!(held, pending_naive_cased(keywords, exact, tail));
                // Small slices, which the walk reads: its answer where the case cannot
                // change it, or the suffix's capitals compared, or `Tails` asked.
                for n in [1, 2, 3, 5, 9, 17, 40] {
                    let small = &text[text.len().saturating_sub(n)..];
                    let pending = pre.find(small, &mut Scratch::default(), &mut Vec::new(), &mut true);
                    let held = pre.partial_start(small, pending).map_or(0, |s| small.len() - s);
                    prop_assert_eq!(held, pending_naive_cased(keywords, exact, small), "{:?}", small);
                }
            }
        }

        /// The small-slice walk reports the hits of the Teddy path (on the same text
        /// repeated past `SMALL`) and, from its end state, the brute-force pending length.
        #[test]
        fn walk_matches_teddy_and_brute_force(text in "[skSK_\\-ghpxoAIaz0-9.:/~Q ]{0,40}") {
            static BUILT: std::sync::OnceLock<(Vec<Vec<u8>>, [Prefilter; 3])> = std::sync::OnceLock::new();
            let (patterns, all) = BUILT.get_or_init(|| {
                let patterns = keywords();
                // The third's `Tails` keeps a few nodes: deeper, the forward walk answers.
                let mut few = Prefilter::new(&patterns, &[]).unwrap();
                few.tails = Tails::with_most(&patterns, &[], 8);
                let all = [Prefilter::new(&patterns, &[]).unwrap(), Prefilter::without_sieve(&patterns), few];
                (patterns, all)
            });
            for pre in all {
            // A small slice: every hit, and how much of its end may be a keyword's
            // start, from the walk's last state or (through the sieve) from `Tails`.
            let (mut scratch, mut hits) = (Scratch::default(), Vec::new());
            let pending = pre.find(text.as_bytes(), &mut scratch, &mut hits, &mut false);
            let want = pending_naive(patterns, text.as_bytes());
            prop_assert!(pending.is_none() || pending == Some(want), "{:?} for {}", pending, want);
            let start = pre.partial_start(text.as_bytes(), pending);
            prop_assert_eq!(start, (want > 0).then(|| text.len() - want));
            hits.sort_unstable();
            prop_assert_eq!(hits, hits_naive(patterns, text.as_bytes()));
            let big = text.repeat(SMALL / text.len().max(1) + 1);
            let (mut walked, mut teddy) = (Vec::new(), Vec::new());
            // Past `HALVES` keyword lengths the walk goes as chains: the same
            // pending length of the keywords of three bytes or more (none is longer
            // than 64 bytes).
            let walked_pending = pre.walk.find(big.as_bytes(), &mut walked, &mut Default::default());
            let tail = &big.as_bytes()[big.len().saturating_sub(64)..];
            let long: Vec<Vec<u8>> = patterns.iter().filter(|p| p.len() >= 3).cloned().collect();
            prop_assert_eq!(walked_pending, pending_naive(&long, tail));
            pre.find(big.as_bytes(), &mut scratch, &mut teddy, &mut false);
            walked.sort_unstable();
            teddy.sort_unstable();
            prop_assert_eq!(walked, teddy);
            // Below `SMALL` and past `HALVES` keyword lengths the walk goes as
            // chains: the hits and pending length of one plain walk.
            let mid = &big.as_bytes()[..big.len().min(SMALL - 1)];
            let (mut chained, mut plain) = (Vec::new(), Vec::new());
            let chained_pending = pre.walk.find(mid, &mut chained, &mut Default::default());
            let state = pre.walk.run(mid, |state, i| pre.walk.push_ends(state, i, &mut plain));
            prop_assert_eq!(chained_pending, pre.walk.pending_in(state));
            chained.retain(|&(k, _)| patterns[k as usize].len() >= 3);
            chained.sort_unstable();
            plain.sort_unstable();
            prop_assert_eq!(chained, plain);
            }
        }
    }

    proptest! {
        // A quarter of the cases skip some of their part: the rest have no stretch
        // of copies long enough, or no part long enough, to skip.
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// A slice of look-alikes (copies of a unit that holds no signature, each
        /// followed by a byte or two) whose walked parts skip stretches of the copies
        /// (see `Prefilter::unit_reads`) has the hits, hold-back and density it has
        /// read whole. The look-alike storms of the worst inputs and units cut from
        /// keywords (the signatures' bytes, so that bytes between make some), with
        /// one, two, or none, one or two of a few printable bytes between copies and
        /// other keywords' fragments among them, read in slices of 4 to 64 KiB, with
        /// the sieve (where the CPU has it) or Teddy.
        #[test]
        fn look_alikes_skipped_hold_no_hit(
            unit in prop_oneof![
                prop::sample::select(vec!["daaa".to_string(), "hava".into(), "cas-".into()]),
                (any::<prop::sample::Index>(), 0usize..8, 3usize..=8).prop_map(|(i, from, n)| {
                    let set = crate::scrub::RuleSet::builtin();
                    let pre = &set.prefilter;
                    let k = &pre.patterns[i.index(pre.patterns.len())];
                    let from = from.min(k.len().saturating_sub(3));
                    String::from_utf8_lossy(&k[from..(from + n).min(k.len())]).into_owned()
                }),
            ],
            between in "[ -~]{1,12}",
            gaps in 0u8..3,
            others in proptest::collection::vec((any::<prop::sample::Index>(), 1usize..12, 0usize..40000, any::<bool>()), 0..6),
            size in 4096usize..40000,
            slice in 4096usize..65536,
            sieved in any::<bool>(),
        ) {
            static BUILT: std::sync::OnceLock<Prefilter> = std::sync::OnceLock::new();
            let set = crate::scrub::RuleSet::builtin();
            let pre = match sieved {
                true => &set.prefilter,
                false => BUILT.get_or_init(|| set.prefilter_without_sieve()),
            };
            let mut text = storm_between(unit.as_bytes(), size, between.as_bytes(), gaps);
            for (which, n, at, upper) in &others {
                let i = which.index(pre.patterns.len());
                let kw = if *upper { pre.patterns[i].to_ascii_uppercase() } else { pre.patterns[i].clone() };
                let at = (*at).min(text.len());
                text.splice(at..at, kw[..(*n).min(kw.len())].iter().copied());
            }
            let read = |whole: bool| {
                let mut scratch = Scratch::default();
                scratch.storm.copying.whole = whole;
                let (mut dense, mut out) = (false, Vec::new());
                for (i, piece) in text.chunks(slice).enumerate() {
                    let mut hits = Vec::new();
                    let got = pre.find_gated(piece, &mut scratch, &mut hits, &mut dense, (true, None, usize::MAX));
                    out.push((i, hits, got, dense));
                }
                (out, scratch.storm.copying.skipped)
            };
            let (skipping, whole) = (read(false), read(true));
            prop_assert_eq!(whole.1, 0);
            prop_assert_eq!(skipping.0, whole.0);
        }

        /// A storm part's passes that skip stretches of the storm's copies (see
        /// `storm_drop::Copies`) find what they find reading it whole: the same
        /// hits, counts and drops. Storms of keywords as written and in other
        /// spellings, with one, two, or none, one or two of a few printable bytes
        /// between copies, and other keywords' fragments among them; any part of
        /// them.
        #[test]
        fn skipped_copies_hold_nothing_the_passes_find(
            storm in 0usize..7,
            case in any::<u8>(),
            between in "[ -~]{1,12}",
            gaps in 0u8..3,
            others in proptest::collection::vec((any::<prop::sample::Index>(), 1usize..12, 0usize..8000, any::<bool>()), 0..6),
            size in 1024usize..8000,
            cut in (0.0f64..0.5, 0.5f64..1.0),
        ) {
            static BUILT: std::sync::OnceLock<Prefilter> = std::sync::OnceLock::new();
            let pre = BUILT.get_or_init(|| crate::scrub::RuleSet::builtin().prefilter_without_sieve());
            let Some(keywords) = &pre.keywords else { return Ok(()) };
            let (dense, gates) = (&keywords.dense, keywords.dense.gates.as_ref().unwrap());
            let word = [&b"ghp_"[..], b"sk-", b"eyJ", b"AZDO", b"xoxb-", b"glpat-", b"AKIA"][storm];
            let lowered = word.to_ascii_lowercase();
            let Some(k) = (0..pre.patterns.len() as u32)
                .find(|&k| pre.patterns[k as usize] == lowered && dense.storm(k, &pre.patterns).is_some())
            else {
                return Ok(());
            };
            // As its rule spells it mostly, else in a spelling of its own.
            let word: Vec<u8> = (word.iter().enumerate())
                .map(|(i, &c)| if case & 1 == 1 && case >> (i + 1) & 1 == 1 && c.is_ascii_alphabetic() { c ^ 0x20 } else { c })
                .collect();
            let mut text = storm_between(&word, size, between.as_bytes(), gaps);
            for (which, n, at, upper) in &others {
                let i = which.index(pre.patterns.len());
                let kw = if *upper { pre.patterns[i].to_ascii_uppercase() } else { pre.patterns[i].clone() };
                let at = (*at).min(text.len());
                text.splice(at..at, kw[..(*n).min(kw.len())].iter().copied());
            }
            let lower = text.to_ascii_lowercase();
            let at = (cut.0 * text.len() as f64) as usize;
            let to = (cut.1 * text.len() as f64) as usize;
            let gating = Gating { gates, kill: None };
            let read = |whole: bool| {
                let mut copying = Copying { whole, ..Copying::default() };
                let (mut hits, mut space) = (Vec::new(), Default::default());
                let got = pre.storm_teddy((k, case & 1 == 1), (&text, &lower), gating, (at, to), (&mut hits, 0, &mut space, &mut copying));
                (got, hits, copying.skipped)
            };
            let (skipping, whole) = (read(false), read(true));
            prop_assert_eq!(whole.2, 0);
            prop_assert_eq!((skipping.0, &skipping.1), (whole.0, &whole.1));
        }
    }

    /// Keywords, each spelled as a hit may be, with their gates' run caps.
    type Capped = Vec<(u32, Vec<u8>, RunCap)>;

    /// The built-in keywords whose gates have a run cap, each as its pattern spells
    /// it (a keyword found as written) or as listed, with the cap.
    fn capped_keywords(set: &RuleSet) -> Capped {
        let pre = &set.prefilter;
        let walk = &pre.walk;
        (0..pre.patterns.len() as u32)
            .filter_map(|k| {
                let cap = pre.gate(k)?.cap.as_deref()?.clone();
                let spelled = walk.written[k as usize].clone();
                Some((
                    k,
                    spelled.unwrap_or_else(|| pre.patterns[k as usize].clone()),
                    cap,
                ))
            })
            .collect()
    }

    /// Most built-in keywords have a run cap: `quoted-key-value`'s bounded run after
    /// `token` (its class of 65 bytes, 33 depths, bounded), and the runs of fixed-size
    /// tokens (`ghp_`: 36 alphanumerics, then a match).
    #[test]
    fn builtin_gates_cap_the_runs_after_their_keywords() {
        let set = RuleSet::builtin();
        let caps = capped_keywords(&set);
        assert!(caps.len() >= 150, "{} keywords with a cap", caps.len());
        let of = |rule: &str, keyword: &[u8]| {
            (caps.iter())
                .find(|(k, w, _)| {
                    w == keyword
                        && set.rules[set.keyword_rule[*k as usize] as usize].info.id == rule
                })
                .map(|(.., cap)| cap.clone())
                .unwrap_or_else(|| panic!("{rule}: no cap"))
        };
        let quoted = of("quoted-key-value", b"token");
        let class = |c: &str| ByteClass::parse("t", "class", c).unwrap().unwrap();
        assert_eq!(quoted.class, class("[A-Za-z0-9_.-]"));
        assert_eq!((quoted.live.len(), quoted.bounded), (33, true));
        let github = of("github-pat", b"ghp_");
        assert_eq!(github.class, class("[A-Za-z0-9]"));
        assert_eq!((github.live.len(), github.bounded), (36, false));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A gate's run cap drops only hits whose candidate dies unmatched: where it
        /// says a hit dies, its rule's DFA, read from the hit, dies with no match
        /// within the text, before the rule's cap (where the candidate would
        /// overflow instead). Every built-in keyword with a cap, followed by bytes
        /// mostly of its class, some of the bytes it lives on past a run, and a few
        /// others; the run read afresh and as a hit before it left it.
        #[test]
        fn run_caps_drop_only_hits_that_cannot_match(
            pick in 0usize..10_000,
            upper: bool,
            bytes in proptest::collection::vec((0u8..10, any::<u8>()), 0..110),
            other in 0usize..16,
        ) {
            static SET: std::sync::OnceLock<(Arc<RuleSet>, Capped)> = std::sync::OnceLock::new();
            let (set, caps) = SET.get_or_init(|| {
                let set = RuleSet::builtin();
                let caps = capped_keywords(&set);
                (set, caps)
            });
            let (k, keyword, cap) = &caps[pick % caps.len()];
            let members = |c: &ByteClass| (0..=255u8).filter(|&b| c.contains(b)).collect::<Vec<u8>>();
            let (class, lives) = (members(&cap.class), members(&cap.live[cap.live.len() / 2]));
            let mut text = if upper { keyword.to_ascii_uppercase() } else { keyword.clone() };
            let len = text.len();
            for (kind, b) in bytes {
                text.push(match kind {
                    0 if !lives.is_empty() => lives[usize::from(b) % lives.len()],
                    1 => b" \n!@#$%&*()<>,;:=\"'/"[usize::from(b) % 20],
                    2 => b,
                    _ => class[usize::from(b) % class.len()],
                });
            }
            let rule = &set.rules[set.keyword_rule[*k as usize] as usize];
            let fresh = cap.dies(&text, len, &mut { crate::scrub::opening::NOT_SEEN });
            // The same hit asked after another up to 8 bytes before or after it.
            let mut seen = crate::scrub::opening::NOT_SEEN;
            if let Some(at) = (len + other).checked_sub(8).filter(|&at| at <= text.len()) {
                let _ = cap.dies(&text, at, &mut seen);
            }
            prop_assert_eq!(cap.dies(&text, len, &mut seen), fresh);
            if fresh {
                let m = rule.matcher().expect("a pattern");
                let (dfa, mut state) = (&m.dfa, m.start);
                let mut died = None;
                for (i, &b) in text.iter().enumerate() {
                    state = dfa.next_state(state, b);
                    prop_assert!(!dfa.is_match_state(state), "{}: {:?} matches", rule.info.id, text);
                    if dfa.is_dead_state(state) {
                        died = Some(i);
                        break;
                    }
                }
                let i = died.ok_or_else(|| {
                    TestCaseError::fail(format!("{}: {:?} lives on", rule.info.id, text))
                })?;
                prop_assert!(i <= rule.max_len, "{}: dies at {} of {:?}", rule.info.id, i, text);
            }
        }
    }
}
