//! A storm's drop where the CPU has AVX2 but not the sieve: the places of a dense
//! part where the storm keyword's first bytes occur, and those whose hits cannot
//! match (see `sieve::Storm`), 64 at a time, as bits. Teddy's passes read the part
//! without the signatures that begin so (see `prefilter::Prefilter::storm_teddy`),
//! and only the places not dropped are compared with them and ask their gates (in a
//! storm of `sk-` and a random byte, the walk's gates and their kills had been three
//! quarters of the time).
//!
//! Each step computes what [`super::sieve::Storm::drops_at`] states a byte at a time,
//! in two 32-byte halves: a byte is looked up in a 256-bit set by two shuffles of its
//! top five bits (a 16-entry table each) and one of its low three (the bit). Four or
//! more pairs after the keyword (`sk-` has eight: `sk-an…`, `sk-pr…`, …) are compared
//! only in a step where two such lookups, of the pairs' first and second bytes, say
//! some may occur: in a storm of `sk-` and a random byte, the compares had been a
//! quarter of the drop. A storm of a keyword found as written is also told apart as
//! written, and only its places so are dropped: a storm in the other case (`GHP_`)
//! reads no further than the keyword.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::__m256i;
use pulp::x86::V3;

use super::sieve::{ahead_bits, back_bits, fold_of, Storm, PAIRS_AFTER, STORM_RUN, STORM_WORD};

/// Positions per step.
const LANES: usize = 64;

/// A 256-bit set of bytes as two shuffle tables (the bitmap's bytes 0-15 and 16-31,
/// in both 128-bit lanes).
#[derive(Clone, Copy, Debug)]
struct Set {
    lo: __m256i,
    hi: __m256i,
}

impl Set {
    fn of(bits: &[u8; 32]) -> Set {
        let (lo, hi) = bits.split_at(16);
        Set {
            lo: splat16(lo.try_into().expect("16 bytes")),
            hi: splat16(hi.try_into().expect("16 bytes")),
        }
    }

    fn some(bits: &[u8; 32]) -> Option<Set> {
        bits.iter().any(|&b| b != 0).then(|| Set::of(bits))
    }
}

/// The tables of one storm's drop.
struct Tables {
    /// The keyword's bytes, and what a text byte is or-ed with before the compare
    /// (0x20 for a letter: either case).
    word: [(__m256i, __m256i); STORM_WORD],
    len: usize,
    ahead: Option<(Set, usize)>,
    narrow: Option<(Set, usize)>,
    back: Option<(Set, usize)>,
    cap: Option<(Set, usize)>,
    cap_first: Option<Set>,
    cap_then: Option<(Set, Set)>,
    after: Option<Set>,
    before: Option<Set>,
    /// The pairs after the keyword (each byte and its fold); the first `n_pairs`
    /// are the storm's (no allocation: the tables are made for every part).
    pairs: [[__m256i; 4]; PAIRS_AFTER],
    n_pairs: usize,
    /// The pairs' first bytes and their second bytes, in either case: a position
    /// where the two bytes after the keyword are not in these is no pair's.
    pair_bytes: (Set, Set),
}

/// Fewer pairs after a storm's keyword than this are compared without first
/// looking up whether the bytes may be one's (see [`drops_in`]).
const FEW_PAIRS: usize = 4;

/// Each byte's bit, by its low three bits.
const BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// `half` in both 128-bit lanes.
fn splat16(half: [u8; 16]) -> __m256i {
    let mut t = [0u8; 32];
    t[..16].copy_from_slice(&half);
    t[16..].copy_from_slice(&half);
    bytemuck::cast::<[u8; 32], __m256i>(t)
}

/// `b` in every byte.
fn splat(b: u8) -> __m256i {
    bytemuck::cast::<[u8; 32], __m256i>([b; 32])
}

impl Tables {
    fn of(storm: &Storm) -> Tables {
        let run =
            |bits: &[u8; 32], n: usize, most: usize| (n > 0).then(|| (Set::of(bits), n.min(most)));
        Tables {
            word: storm.word.map(|c| (splat(c), splat(fold_of(c)))),
            len: storm.len,
            ahead: run(&storm.ends, storm.n, storm.run_most()),
            narrow: run(&storm.narrow_ends, storm.narrow_n, storm.run_most()),
            back: run(&storm.back_ends, storm.back_n, STORM_RUN),
            cap: run(&storm.cap_ends, storm.cap_n, storm.run_most()),
            cap_first: (storm.cap_first != [u8::MAX; 32]).then(|| Set::of(&storm.cap_first)),
            cap_then: (storm.cap_then).map(|(group, then)| (Set::of(&group), Set::of(&then))),
            after: Set::some(&storm.after),
            before: Set::some(&storm.before),
            pairs: std::array::from_fn(|i| {
                let [a, b] = storm.after_pairs.get(i).copied().unwrap_or_default();
                [splat(a), splat(fold_of(a)), splat(b), splat(fold_of(b))]
            }),
            n_pairs: storm.after_pairs.len().min(PAIRS_AFTER),
            pair_bytes: {
                let (firsts, seconds) = storm.pair_bytes();
                (Set::of(&firsts), Set::of(&seconds))
            },
        }
    }
}

/// The bytes of `word` (up to 8) to compare as written with [`eq`].
fn as_written(word: &[u8]) -> [(__m256i, __m256i); 8] {
    let mut t = [(splat(0), splat(0)); 8];
    for (t, &c) in t.iter_mut().zip(word) {
        *t = (splat(c), splat(0));
    }
    t
}

/// The 32 bytes of `hay` from `k`. The offset passes through `black_box`: loads a
/// byte or a few apart were otherwise made from one another by LLVM, each by 32 byte
/// extracts and inserts (a third of a storm's time).
#[inline(always)]
fn load(hay: &[u8], k: usize) -> __m256i {
    let k = std::hint::black_box(k);
    bytemuck::pod_read_unaligned::<__m256i>(&hay[k..k + 32])
}

/// The bytes of the 32 of `hay` from `k` that are in `set`, as bits.
#[inline(always)]
fn of(simd: V3, hay: &[u8], k: usize, set: Set) -> u64 {
    let v2 = simd.avx2;
    let v = load(hay, k);
    let top = v2._mm256_and_si256(v2._mm256_srli_epi16::<3>(v), splat(31));
    let lo = v2._mm256_shuffle_epi8(set.lo, top);
    let hi = v2._mm256_shuffle_epi8(set.hi, top);
    // Bit 4 of the top five bits (moved to bit 7) picks the half.
    let byte = v2._mm256_blendv_epi8(lo, hi, v2._mm256_slli_epi16::<3>(top));
    let bits = splat16(BITS);
    let bit = v2._mm256_shuffle_epi8(bits, v2._mm256_and_si256(v, splat(7)));
    let none = v2._mm256_cmpeq_epi8(v2._mm256_and_si256(byte, bit), splat(0));
    u64::from(!(v2._mm256_movemask_epi8(none) as u32))
}

/// [`of`] for the 64 bytes from `k`.
#[inline(always)]
fn of64(simd: V3, hay: &[u8], k: usize, set: Set) -> u64 {
    of(simd, hay, k, set) | of(simd, hay, k + 32, set) << 32
}

/// The bytes of `v`, or-ed with `fold`, equal to `c`'s.
#[inline(always)]
fn eq(simd: V3, v: __m256i, (c, fold): (__m256i, __m256i)) -> u64 {
    let v2 = simd.avx2;
    let v = v2._mm256_or_si256(v, fold);
    u64::from(v2._mm256_movemask_epi8(v2._mm256_cmpeq_epi8(v, c)) as u32)
}

/// [`eq`] for two vectors, the second's bits above the first's. (A free function:
/// a closure inside the vectorized loop is compiled without its target features,
/// and once it was not inlined, each intrinsic became a call.)
#[inline(always)]
fn eq_both(simd: V3, [a, b]: [__m256i; 2], word: (__m256i, __m256i)) -> u64 {
    eq(simd, a, word) | eq(simd, b, word) << 32
}

/// [`eq`] for the 64 bytes of `hay` from `k`.
#[inline(always)]
fn eq64(simd: V3, hay: &[u8], k: usize, word: (__m256i, __m256i)) -> u64 {
    eq(simd, load(hay, k), word) | eq(simd, load(hay, k + 32), word) << 32
}

/// Set `out` to what a storm of `storm`'s keyword has at the positions `at..to` of
/// `hay`, 64 a word (bit `i % 64` of word `i / 64`: position `at + i`): where the
/// keyword's first `sig` bytes occur (any case); where, of those, the place is
/// dropped; where they occur as `written` (where given, only those are dropped; else
/// all places are, in any case); and where the keyword's own hit cannot match, the
/// place kept or not (for a longer keyword that may start there: `eyJ0` may be
/// TeamCity's `eyJ0eXAi…`). A position is dropped only where every byte the drop
/// reads lies in `hay` and its step holds them all (as the sieve's steps: the next
/// step's bytes and 8 more, the step before where the run before the keyword is
/// read), so a few at the end of a part are not: their gates judge them.
pub(crate) fn drops(
    simd: V3,
    (storm, sig, written): (&Storm, usize, Option<&[u8]>),
    hay: &[u8],
    (at, to): (usize, usize),
    out: &mut Vec<[u64; 4]>,
) {
    out.clear();
    let t = Tables::of(storm);
    let exact = written.map(|w| as_written(&w[..sig]));
    simd.vectorize(Drops {
        simd,
        storm: (storm, sig, written),
        tables: (&t, exact.as_ref()),
        hay,
        part: (at, to),
        out,
    });
}

/// [`drops`]'s loop and what it reads, as the operation `vectorize` compiles with
/// the target features. Not a closure: once the loop grew, LLVM left the closure's
/// `call_once` out of line, compiled without them, and every intrinsic became a call
/// (a tenth of the speed); this `call` is always inlined.
struct Drops<'a> {
    simd: V3,
    storm: (&'a Storm, usize, Option<&'a [u8]>),
    tables: (&'a Tables, Option<&'a [(__m256i, __m256i); 8]>),
    hay: &'a [u8],
    part: (usize, usize),
    out: &'a mut Vec<[u64; 4]>,
}

impl pulp::NullaryFnOnce for Drops<'_> {
    type Output = ();

    #[inline(always)]
    fn call(self) {
        let Drops {
            simd,
            storm,
            tables,
            hay,
            part,
            out,
        } = self;
        drops_in(simd, storm, tables, hay, part, out);
    }
}

/// [`drops`]'s loop, with its tables made.
#[inline(always)]
fn drops_in(
    simd: V3,
    (storm, sig, written): (&Storm, usize, Option<&[u8]>),
    (t, exact): (&Tables, Option<&[(__m256i, __m256i); 8]>),
    hay: &[u8],
    (at, to): (usize, usize),
    out: &mut Vec<[u64; 4]>,
) {
    let mut p = at;
    // The run ends the step before found at this step's place (ahead: `next`; back:
    // `here`; the bytes outside the cap's class, where it read them), as the sieve
    // carries them.
    let mut carried: Option<(usize, u64, u64, Option<u64>)> = None;
    while p < to {
        let whole = p + 2 * LANES + 8 <= hay.len()
            && (t.before.is_none() || p > 0)
            && (t.back.is_none() || p >= LANES);
        // Positions past `to` are not this part's.
        let part = match to - p {
            left if left < LANES => (1u64 << left) - 1,
            _ => u64::MAX,
        };
        if !whole {
            // The signature's places byte by byte (a part's last step or two).
            let at_sig = |i: usize| {
                let w = hay.get(p + i..p + i + sig);
                w.is_some_and(|w| (w.iter().zip(&storm.word)).all(|(&b, &c)| b | fold_of(c) == c))
            };
            let as_written =
                |i: usize| written.is_none_or(|word| hay[p + i..].starts_with(&word[..sig]));
            let places = (0..LANES.min(to - p)).filter(|&i| at_sig(i));
            let places = places.fold(0, |bits, i| bits | 1 << i);
            let exact = (0..LANES.min(to - p)).filter(|&i| places >> i & 1 == 1 && as_written(i));
            out.push([places, 0, exact.fold(0, |bits, i| bits | 1 << i), 0]);
            p += LANES;
            continue;
        }
        let mut drops = u64::MAX;
        let mut dead = 0;
        let mut places = u64::MAX;
        for j in 0..t.len {
            drops &= eq64(simd, hay, p + j, t.word[j]);
            if j + 1 == sig {
                places = drops & part;
            }
        }
        // Only the places as written are dropped (the others are no hits):
        // a storm in the other case reads no more.
        let mut exact_places = places;
        if let Some(exact) = exact {
            for (j, &w) in exact.iter().enumerate().take(sig) {
                exact_places &= eq64(simd, hay, p + j, w);
            }
            drops &= exact_places;
        }
        let (ahead_here, back_before, cap_here) = match carried.take() {
            Some((at, ahead, back, cap)) if at == p => (Some(ahead), Some(back), cap),
            _ => (None, None, None),
        };
        if drops != 0 {
            let (mut ahead_next, mut back_here, mut cap_next) = (0, 0, None);
            if let Some((ends, n)) = t.ahead {
                // Bit `i`: a byte that ends the run at `p + i` or in the `n`
                // bytes from it.
                let here = ahead_here.unwrap_or_else(|| of64(simd, hay, p, ends));
                ahead_next = of64(simd, hay, p + LANES, ends);
                let ends = u128::from(here) | u128::from(ahead_next) << 64;
                let mut dies = ahead_bits(ends, n, t.len);
                // Those it leaves, by the narrower run (read afresh each step).
                if let Some((ends, n)) = t.narrow.filter(|_| drops & !dies != 0) {
                    let here = of64(simd, hay, p, ends);
                    let next = of64(simd, hay, p + LANES, ends);
                    dies |= ahead_bits(u128::from(here) | u128::from(next) << 64, n, t.len);
                }
                // Those it leaves, by the run's cap (as the sieve's drop).
                if let Some((outside, n)) = t.cap.filter(|_| drops & !dies != 0) {
                    let here = cap_here.unwrap_or_else(|| of64(simd, hay, p, outside));
                    let next = of64(simd, hay, p + LANES, outside);
                    cap_next = Some(next);
                    let outside = u128::from(here) | u128::from(next) << 64;
                    let mut capped = !ahead_bits(outside, n, t.len);
                    if let Some(first) = t.cap_first.filter(|_| capped != 0) {
                        let k = p + t.len;
                        let mut kills = of64(simd, hay, k, first);
                        if let Some((group, then)) = t.cap_then.filter(|_| capped & !kills != 0) {
                            kills |= of64(simd, hay, k, group) & of64(simd, hay, k + 1, then);
                        }
                        capped &= kills;
                    }
                    dies |= capped;
                }
                drops &= dies;
            }
            if let Some((ends, n)) = t.back {
                // Bit `63 + i`: one that ends the run before `p + i`, in the
                // `n` bytes before it.
                let before = back_before.unwrap_or_else(|| of64(simd, hay, p - LANES, ends));
                back_here = of64(simd, hay, p, ends);
                let ends = u128::from(before) | u128::from(back_here) << 64;
                drops &= back_bits(ends, n);
            }
            carried = Some((p + LANES, ahead_next, back_here, cap_next));
            // The keyword's own hit cannot match here; what follows keeps a place
            // for the other keywords that may start there.
            dead = drops;
            if let Some(after) = t.after {
                drops &= !of64(simd, hay, p + t.len, after);
            }
            let k = p + t.len;
            let (firsts, seconds) = t.pair_bytes;
            // Many pairs are compared only where the two bytes may be one (in a
            // storm of `sk-` and a random byte, `sk-a` is followed by `s`): the two
            // lookups cost about what four pairs' compares do.
            if t.n_pairs > 0
                && (t.n_pairs < FEW_PAIRS
                    || drops & of64(simd, hay, k, firsts) & of64(simd, hay, k + 1, seconds) != 0)
            {
                // Loaded once for every pair.
                let next = [load(hay, k), load(hay, k + 32)];
                let second = [load(hay, k + 1), load(hay, k + 33)];
                for &[a, fa, b, fb] in &t.pairs[..t.n_pairs] {
                    drops &= !(eq_both(simd, next, (a, fa)) & eq_both(simd, second, (b, fb)));
                }
            }
            if let Some(before) = t.before {
                drops &= !of64(simd, hay, p - 1, before);
            }
        }
        out.push([places, drops & part, exact_places, dead & part]);
        p += LANES;
    }
}

/// [`super::prefilter::storm_counts`] compiled with the target features (its
/// `count_ones` a `popcnt` each).
pub(crate) fn counts(simd: V3, space: &[[u64; 4]]) -> (usize, usize) {
    simd.vectorize(Counts(space))
}

/// [`counts`]' loop, as the operation `vectorize` compiles (see [`Drops`]).
struct Counts<'a>(&'a [[u64; 4]]);

impl pulp::NullaryFnOnce for Counts<'_> {
    type Output = (usize, usize);

    #[inline(always)]
    fn call(self) -> (usize, usize) {
        super::prefilter::storm_counts(self.0)
    }
}

/// Bytes of a keyword other than a storm's own that may begin at a place of its drop
/// (see `prefilter::Without`): each with its offset from the place, in every byte,
/// and what a text byte is or-ed with before the compare (0x20 for a letter of a
/// keyword found in either case).
#[derive(Debug)]
pub(crate) struct Other(Vec<(isize, __m256i, __m256i)>);

impl Other {
    /// `bytes`: each byte's offset, the byte and its fold, in the order compared.
    pub(crate) fn of(bytes: impl IntoIterator<Item = (isize, u8, u8)>) -> Other {
        Other(
            bytes
                .into_iter()
                .map(|(at, c, fold)| (at, splat(c), splat(fold)))
                .collect(),
        )
    }

    /// The least and most offsets.
    pub(crate) fn reach(&self) -> (isize, isize) {
        (self.0.iter()).fold((0, 0), |(least, most), &(at, ..)| {
            (least.min(at), most.max(at))
        })
    }
}

/// Of the places in `out` (as [`drops`] set them for the part from `at` of `hay`) where
/// the storm keyword's own hit is dead and a byte after or before it kept the place
/// for another keyword, drop those where none of `others` occurs (all its bytes there):
/// in a storm of `eyJ` and a random byte, one place in three (`eyJ0` may begin
/// TeamCity's `eyJ0eXAi…`, `.eyJ` may end Shopify's `sk.eyJ`), each compared with every
/// such keyword in turn, had been a third of the time. `reach`: the least and most of
/// the offsets; a step whose bytes do not all lie in `hay` keeps its places. Returns
/// how many places were dropped.
pub(crate) fn others_absent(
    simd: V3,
    (others, reach): (&[Other], (isize, isize)),
    hay: &[u8],
    at: usize,
    out: &mut [[u64; 4]],
) -> usize {
    simd.vectorize(Absent {
        simd,
        others: (others, reach),
        hay,
        at,
        out,
    })
}

/// [`others_absent`]'s loop, as the operation `vectorize` compiles (see [`Drops`]).
struct Absent<'a> {
    simd: V3,
    others: (&'a [Other], (isize, isize)),
    hay: &'a [u8],
    at: usize,
    out: &'a mut [[u64; 4]],
}

impl pulp::NullaryFnOnce for Absent<'_> {
    type Output = usize;

    #[inline(always)]
    fn call(self) -> usize {
        let Absent {
            simd,
            others: (others, (least, most)),
            hay,
            at,
            out,
        } = self;
        let mut dropped = 0;
        for (step, w) in out.iter_mut().enumerate() {
            let [places, drops, exact, dead] = *w;
            let maybe = places & !drops & exact & dead;
            let p = (at + step * LANES) as isize;
            if maybe == 0 || p + least < 0 || p + most + 2 * 32 > hay.len() as isize {
                continue;
            }
            let mut found = 0;
            for other in others {
                let mut here = maybe;
                for &(offset, c, fold) in &other.0 {
                    here &= eq64(simd, hay, (p + offset) as usize, (c, fold));
                    if here == 0 {
                        break;
                    }
                }
                found |= here;
                if found == maybe {
                    break;
                }
            }
            let absent = maybe & !found;
            w[1] |= absent;
            dropped += absent.count_ones() as usize;
        }
        dropped
    }
}

/// Set `out` to where `word` (lowercased) occurs at the positions `at..to` of `hay`
/// in any case, and where it occurs as `written`, 64 a word (bit `i % 64` of word
/// `i / 64`: position `at + i`), as [`drops`] has them (nothing dropped or dead).
pub(crate) fn places(
    simd: V3,
    (word, written): (&[u8], &[u8]),
    hay: &[u8],
    (at, to): (usize, usize),
    out: &mut Vec<[u64; 4]>,
) {
    out.clear();
    let mut folded = [(splat(0), splat(0)); 8];
    for (f, &c) in folded.iter_mut().zip(word) {
        *f = (splat(c), splat(fold_of(c)));
    }
    let exact = as_written(written);
    simd.vectorize(
        #[inline(always)]
        || {
            let mut p = at;
            while p < to {
                let part = match to - p {
                    left if left < LANES => (1u64 << left) - 1,
                    _ => u64::MAX,
                };
                if p + word.len() + LANES > hay.len() {
                    let at_word = |i: usize| {
                        let w = hay.get(p + i..p + i + word.len());
                        w.is_some_and(|w| w.iter().zip(word).all(|(&b, &c)| b | fold_of(c) == c))
                    };
                    let places = (0..LANES.min(to - p)).filter(|&i| at_word(i));
                    let places = places.fold(0, |bits, i| bits | 1 << i);
                    let exact = (0..LANES.min(to - p))
                        .filter(|&i| places >> i & 1 == 1 && hay[p + i..].starts_with(written));
                    out.push([places, 0, exact.fold(0, |bits, i| bits | 1 << i), 0]);
                } else {
                    let mut places = part;
                    for (j, &w) in folded.iter().enumerate().take(word.len()) {
                        places &= eq64(simd, hay, p + j, w);
                    }
                    let mut exact_places = places;
                    for (j, &w) in exact.iter().enumerate().take(written.len()) {
                        exact_places &= eq64(simd, hay, p + j, w);
                    }
                    out.push([places, 0, exact_places, 0]);
                }
                p += LANES;
            }
        },
    );
}

/// The signatures of a Teddy pass, and whether it reads the text lowercased (else as
/// written).
pub(crate) type Sigs<'a> = (&'a [Vec<u8>], bool);

/// A keyword (lowercased), a signature it holds (lowercased) and where.
pub(crate) type Owned<'a> = (&'a [u8], &'a [u8], usize);

/// A storm's unit as written (its keyword, `ghp_` or `GHP_`), where a stretch of
/// copies of it, each followed by at most two bytes, is read by no Teddy pass (see
/// [`copies`]): every window of four bytes or fewer in such a stretch lies in one
/// copy, in two copies that meet, or in a copy, the one or two bytes between and the
/// next copy (`u r u`, `u r s u`: a unit has three bytes or more, so no window of four
/// reaches over two gaps); so where none of those holds a signature of the passes,
/// none of the stretch's windows does. Which do is worked out once for the unit: the
/// bytes `between` that may stand alone between two copies, the `pairs` that may stand
/// there together, and whether two copies may meet.
#[derive(Clone, Debug)]
pub(crate) struct Copies {
    unit: [(__m256i, __m256i); 8],
    len: usize,
    between: Set,
    /// `None` where no pair may stand between copies (none is looked for).
    pairs: Option<PairSets>,
    joined: bool,
    /// How far inside a stretch a window must lie to be skipped (see
    /// [`Copies::of_keywords`]).
    pub(crate) margin: usize,
    /// `between` byte by byte, and the pairs (tests).
    #[cfg(test)]
    may: [bool; 256],
    #[cfg(test)]
    may_pairs: Option<Pairs>,
}

/// The pairs of bytes `r s` that may stand between two copies: which may stand
/// depends on both bytes (`ghp_` then `_g` holds `p__g`'s signature, `_a` does not),
/// so a set for each byte would keep out every byte unsafe beside some other. A pair
/// is kept out by a window that holds its first byte only, its second only, or both:
/// the first two are sets, the last a table of pairs (65,536 bits), looked up only
/// where the first byte begins such a pair (looked up at every pair, the table cost
/// as much as the passes it spared; a few such pairs compared at every step, `sk-`'s
/// eight, nearly as much).
#[derive(Clone, Debug)]
struct Pairs {
    first: [bool; 256],
    second: [bool; 256],
    /// The first bytes of the pairs in `both`, and their second bytes.
    lead: [[bool; 256]; 2],
    /// Pairs kept out by a window that holds both, a bit each.
    both: Box<[u64; 1024]>,
}

impl Pairs {
    fn all() -> Pairs {
        Pairs {
            first: [true; 256],
            second: [true; 256],
            lead: [[false; 256]; 2],
            both: Box::new([0; 1024]),
        }
    }

    /// Whether `r s` is kept out as a pair.
    #[inline(always)]
    fn kept_out(both: &[u64; 1024], r: u8, s: u8) -> bool {
        let i = usize::from(r) << 8 | usize::from(s);
        both[i / 64] >> (i % 64) & 1 == 1
    }

    /// Whether `r s` may stand between copies (tests).
    #[cfg(test)]
    fn may(&self, r: u8, s: u8) -> bool {
        self.first[usize::from(r)]
            && self.second[usize::from(s)]
            && !Pairs::kept_out(&self.both, r, s)
    }

    /// Keep out the pairs whose bytes, as `read` reads them, are `need` (`None`: any
    /// byte there).
    fn forbid(&mut self, need: [Option<u8>; 2], read: impl Fn(u8) -> u8) {
        let read = &read;
        let ones = |c: u8| (0..=255u8).filter(move |&b| read(b) == c);
        match need {
            [Some(r), None] => ones(r).for_each(|b| self.first[usize::from(b)] = false),
            [None, Some(s)] => ones(s).for_each(|b| self.second[usize::from(b)] = false),
            [Some(r), Some(s)] => {
                for x in ones(r) {
                    self.lead[0][usize::from(x)] = true;
                    for y in ones(s) {
                        self.lead[1][usize::from(y)] = true;
                        let i = usize::from(x) << 8 | usize::from(y);
                        self.both[i / 64] |= 1 << (i % 64);
                    }
                }
            }
            [None, None] => self.first = [false; 256],
        }
    }

    /// `None` where no pair may stand.
    fn some(self) -> Option<Pairs> {
        (self.first.contains(&true) && self.second.contains(&true)).then_some(self)
    }
}

/// [`Pairs`] as [`copies`] looks them up: `first` and `second` `None` where any
/// byte may stand there, `lead` where no pair is kept out (each lookup costs a storm
/// of `ghp_` and two bytes a twentieth of its time). The table is read only where
/// both bytes are those of some pair kept out.
#[derive(Clone, Debug)]
struct PairSets {
    first: Option<Set>,
    second: Option<Set>,
    lead: Option<(Set, Set)>,
    both: Box<[u64; 1024]>,
}

/// What `word` asks of the bytes between copies of `u`, `gap` bytes after each, where
/// it lies at `p` over them (a copy at `0..len`, its gap at `len..len + gap`, the
/// bytes between other copies any byte): `None` where a byte of a copy differs, else
/// the bytes it puts at `len` and `len + 1` (`None`: it puts none there).
fn lays(u: &[u8], gap: usize, word: &[u8], p: isize) -> Option<[Option<u8>; 2]> {
    let (len, period) = (u.len() as isize, (u.len() + gap) as isize);
    let mut need = [None; 2];
    for (i, &c) in word.iter().enumerate() {
        let x = p + i as isize;
        let m = x.rem_euclid(period);
        if m < len {
            if u[m as usize] != c {
                return None;
            }
        } else if x == len || x == len + 1 {
            need[(x - len) as usize] = Some(c);
        }
    }
    Some(need)
}

/// Whether `unit` may have stretches of copies: three to eight bytes, not ending as
/// it begins (its copies would not be one after the other).
fn may_repeat(unit: &[u8]) -> bool {
    let len = unit.len();
    (3..=8).contains(&len) && !(1..len).any(|n| unit[..n] == unit[len - n..])
}

impl Copies {
    /// The unit's copies as `passes` read them; `None` where it may have no
    /// stretches (see [`may_repeat`]), where one copy holds a signature, or where a
    /// pass has one longer than four bytes (the argument above holds for windows of
    /// up to four).
    pub(crate) fn of(unit: &[u8], passes: &[Sigs<'_>]) -> Option<Copies> {
        let len = unit.len();
        if !may_repeat(unit) {
            return None;
        }
        let mut between = [true; 256];
        let mut pairs = Pairs::all();
        let mut joined = true;
        for &(sigs, lowered) in passes {
            let read = |b: u8| if lowered { b.to_ascii_lowercase() } else { b };
            let u: Vec<u8> = unit.iter().map(|&b| read(b)).collect();
            let two = [&u[..], &u[..]].concat();
            for sig in sigs {
                let n = sig.len();
                if n == 0 || n > 4 || u.windows(n).any(|w| w == sig) {
                    return None;
                }
                joined &= !two.windows(n).any(|w| w == sig);
                // The windows of `u r u` that hold `r`, at their place `j`.
                for j in 0..n {
                    if sig[..j] == u[len - j..] && sig[j + 1..] == u[..n - 1 - j] {
                        for r in 0..=255u8 {
                            between[usize::from(r)] &= read(r) != sig[j];
                        }
                    }
                }
                // The windows of `u r s u` that hold `r` or `s`.
                for w in len + 1 - n..len + 2 {
                    if let Some(need) = lays(&u, 2, sig, w as isize) {
                        pairs.forbid(need, read);
                    }
                }
            }
        }
        Some(Copies::with(unit, between, pairs.some(), joined, 0))
    }

    /// The unit's copies for a walk of `keywords` that finds them in any case (each
    /// with a signature it holds and where), the copies `gap` bytes apart (one or
    /// two), where only a keyword that may occur matters: a signature in `u r u` or
    /// `u r s u` (or in `u`) keeps `r` or `r s` out (or the unit from having copies)
    /// only where a keyword it begins fits stretches of copies `gap` bytes apart,
    /// every other byte between them any byte. In `daaa` and a random byte,
    /// `daaaadaaa` holds `aaaa`, but no 21 `a`s (Twitter's keyword). So that such a
    /// keyword lies in the stretch, a window is skipped only `margin` bytes (the
    /// longest keyword whose signature occurs in `u r u`, `u r s u` or `u`) inside
    /// it, copies may not meet, and only `gap` bytes may stand between them (the
    /// stretch is then copies exactly `gap` bytes apart).
    pub(crate) fn of_keywords(unit: &[u8], gap: usize, keywords: &[Owned<'_>]) -> Option<Copies> {
        let len = unit.len();
        if !may_repeat(unit) || !(1..=2).contains(&gap) {
            return None;
        }
        let u = unit.to_ascii_lowercase();
        let lower = |b: u8| b.to_ascii_lowercase();
        let mut between = [gap == 1; 256];
        let mut pairs = Pairs::all();
        let mut margin = 0;
        for &(keyword, sig, off) in keywords {
            let n = sig.len();
            if n == 0 || n > 4 {
                return None;
            }
            let at = |w: usize| w as isize - off as isize;
            // Where the signature occurs, its keyword must lie in the stretch for
            // its misfit to count.
            let mut inside = (0..(len + 1).saturating_sub(n)).filter(|&w| u[w..w + n] == *sig);
            if inside.any(|w| {
                margin = margin.max(keyword.len());
                lays(&u, gap, keyword, at(w)).is_some()
            }) {
                return None;
            }
            // The windows that hold a byte between.
            for w in len + 1 - n..len + gap {
                if lays(&u, gap, sig, w as isize).is_none() {
                    continue;
                }
                margin = margin.max(keyword.len());
                let Some(need) = lays(&u, gap, keyword, at(w)) else {
                    continue;
                };
                if gap == 1 {
                    for r in (0..=255u8).filter(|&r| need[0].is_none_or(|c| lower(r) == c)) {
                        between[usize::from(r)] = false;
                    }
                } else {
                    pairs.forbid(need, lower);
                }
            }
        }
        let pairs = if gap == 2 { pairs.some() } else { None };
        Some(Copies::with(unit, between, pairs, false, margin))
    }

    fn with(
        unit: &[u8],
        between: [bool; 256],
        pairs: Option<Pairs>,
        joined: bool,
        margin: usize,
    ) -> Copies {
        let set = |may: &[bool; 256]| {
            let mut bits = [0u8; 32];
            for (r, _) in may.iter().enumerate().filter(|(_, &b)| b) {
                bits[r / 8] |= 1 << (r % 8);
            }
            Set::of(&bits)
        };
        #[cfg(test)]
        let may_pairs = pairs.clone();
        Copies {
            unit: as_written(unit),
            len: unit.len(),
            between: set(&between),
            pairs: pairs.map(|p| PairSets {
                first: p.first.contains(&false).then(|| set(&p.first)),
                second: p.second.contains(&false).then(|| set(&p.second)),
                lead: p.lead[0]
                    .contains(&true)
                    .then(|| (set(&p.lead[0]), set(&p.lead[1]))),
                both: p.both,
            }),
            joined,
            margin,
            #[cfg(test)]
            may: between,
            #[cfg(test)]
            may_pairs,
        }
    }

    /// Whether `r s` may stand between two copies (tests).
    #[cfg(test)]
    fn may_pair(&self, r: u8, s: u8) -> bool {
        self.may_pairs.as_ref().is_some_and(|p| p.may(r, s))
    }
}

/// Set `out` to where the windows of a storm (`at..to` of `hay`) lie in stretches of
/// `copies` (see [`Copies`]), 64 a word as [`drops`] has them: bit `i` of word `s`,
/// the window of four bytes at `at + 64 s + i` lies in copies of the unit and bytes
/// between them that form no signature with them. A position whose copy began before
/// `at`, or whose step's bytes do not all lie in `hay`, is in none (its windows are
/// read). One pass: a step's words are final two steps on.
pub(crate) fn copies(
    simd: V3,
    copies: &Copies,
    hay: &[u8],
    (at, to): (usize, usize),
    out: &mut Vec<u64>,
) {
    out.clear();
    let steps = (to - at).div_ceil(LANES);
    let Copies {
        unit,
        len,
        between,
        pairs,
        joined,
        ..
    } = copies;
    // A copy's bytes from its start: copies do not overlap, so the product of the
    // starts and this adds no carries.
    let spread = (1u128 << len) - 1;
    simd.vectorize(
        #[inline(always)]
        || {
            // Per step (this one, the one before, the one before that): where copies
            // start, where bytes between may stand, where copies hold the position;
            // and (the step before, the one before that) where the position is fine.
            let (mut starts, mut may, mut held) = ([0u64; 3], [0u64; 3], [0u64; 3]);
            let mut fine = [0u64; 2];
            let mut spilled = 0u64;
            // The second byte of a pair that stands at the step's last position.
            let mut carried = 0u64;
            for s in 0..steps + 2 {
                let p = at + s * LANES;
                let (e, m) = if s <= steps && p + LANES + 8 <= hay.len() {
                    let mut e = u64::MAX;
                    for (j, &word) in unit[..*len].iter().enumerate() {
                        e &= eq64(simd, hay, p + j, word);
                    }
                    (e, of64(simd, hay, p, *between))
                } else {
                    (0, 0)
                };
                starts = [e, starts[0], starts[1]];
                may = [m, may[0], may[1]];
                let product = u128::from(e) * spread;
                held = [product as u64 | spilled, held[0], held[1]];
                spilled = (product >> 64) as u64;
                // The step before: a copy, or a byte between two that may stand
                // there; where two copies may not meet, the first byte of one that
                // meets the one before is neither.
                let left = held[1] << 1 | held[2] >> 63;
                let right = held[1] >> 1 | held[0] << 63;
                let mut f = held[1] | (!held[1] & may[1] & left & right);
                if !joined {
                    f &= !(starts[1] & left);
                }
                // Two bytes between copies: a pair that may stand there.
                if let Some(pairs) = pairs {
                    let ahead = u128::from(held[0]) << 64 | u128::from(held[1]);
                    let first = left & !held[1] & !right & (ahead >> 2) as u64;
                    f |= carried;
                    carried = 0;
                    if first != 0 {
                        let q = at + (s - 1) * LANES;
                        let mut pair = first;
                        if let Some(set) = pairs.first {
                            pair &= of64(simd, hay, q, set);
                        }
                        if let Some(set) = pairs.second {
                            pair &= of64(simd, hay, q + 1, set);
                        }
                        // Those that may be a pair kept out, one by one.
                        let mut lead = match pairs.lead {
                            Some((x, y)) if pair != 0 => {
                                pair & of64(simd, hay, q, x) & of64(simd, hay, q + 1, y)
                            }
                            _ => 0,
                        };
                        while lead != 0 {
                            let i = lead.trailing_zeros() as usize;
                            if Pairs::kept_out(&pairs.both, hay[q + i], hay[q + i + 1]) {
                                pair &= !(1 << i);
                            }
                            lead &= lead - 1;
                        }
                        f |= pair | pair << 1;
                        carried = pair >> 63;
                    }
                }
                fine = [f, fine[0]];
                // The step before that: four fine bytes from the position.
                if s >= 2 {
                    let x = u128::from(fine[0]) << 64 | u128::from(fine[1]);
                    out.push(fine[1] & (x >> 1) as u64 & (x >> 2) as u64 & (x >> 3) as u64);
                }
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scrub::sieve::{ghp_storm, ghp_units, with_cap, with_narrow};
    use proptest::prelude::*;

    /// For a walk, a signature in `u r u` keeps `r` out only where a keyword it
    /// begins fits copies one byte apart: `daaaadaaa` holds `aaaa`, but no 21 `a`s
    /// (then a window is skipped 21 bytes inside a stretch), while `daaaa` fits. With
    /// two bytes between copies, the same for `u r s u` and pairs.
    #[test]
    fn a_walks_copies_ask_whether_the_keyword_fits() {
        let twitter = [b'a'; 21];
        let got = Copies::of_keywords(b"daaa", 1, &[(&twitter, b"aaaa", 0)]).expect("copies");
        assert!(got.may[usize::from(b'a')] && got.may[usize::from(b'A')]);
        assert_eq!(
            (got.margin, got.joined, got.may_pair(b'a', b'a')),
            (21, false, false)
        );
        let got = Copies::of_keywords(b"daaa", 1, &[(b"daaaa", b"aaaa", 1)]).expect("copies");
        assert!(!got.may[usize::from(b'a')] && !got.may[usize::from(b'A')]);
        assert!(got.may[usize::from(b'b')]);
        // Two bytes between: no byte stands alone; `daaaa` keeps out pairs that begin
        // with `a`, 21 `a`s none.
        let got = Copies::of_keywords(b"daaa", 2, &[(&twitter, b"aaaa", 0)]).expect("copies");
        assert!(got.may_pair(b'a', b'a') && got.may_pair(b'A', b'x'));
        assert_eq!((got.margin, got.may[usize::from(b'x')]), (21, false));
        let got = Copies::of_keywords(b"daaa", 2, &[(b"daaaa", b"aaaa", 1)]).expect("copies");
        assert!(!got.may_pair(b'a', b'x') && !got.may_pair(b'A', b'a'));
        assert!(got.may_pair(b'x', b'a') && got.may_pair(b'b', b'b'));
        // A signature in one copy: none where its keyword fits, whatever byte stands
        // between (`adaaa`), copies where it cannot (`daaaxa`: the next copy's `d`,
        // one byte on; two bytes on, it fits).
        assert!(Copies::of_keywords(b"daaa", 1, &[(b"adaaa", b"daaa", 1)]).is_none());
        assert!(Copies::of_keywords(b"daaa", 1, &[(b"daaaxa", b"daaa", 0)]).is_some());
        assert!(Copies::of_keywords(b"daaa", 2, &[(b"daaaxa", b"daaa", 0)]).is_none());
        // Where no signature occurs, no margin.
        let got = Copies::of_keywords(b"hava", 1, &[(&twitter, b"aaaa", 0)]).expect("copies");
        assert_eq!(got.margin, 0);
    }

    proptest! {
        /// The drops of a part are, position by position, what [`Storm::drops_at`]
        /// states a byte at a time (the keyword in any case, a byte that ends its run
        /// within `n` bytes after it or its narrower run within that run's bytes, and
        /// one within `back_n` before, no byte after or
        /// before it that keeps the hit, none of up to eight pairs after it), and
        /// none past the part; the signature's places are where its first `sig`
        /// bytes occur in any case, and the places as written those where they
        /// occur so.
        #[test]
        fn drops_are_the_storms_byte_by_byte(
            units in proptest::collection::vec(("[a-zA-Z0-9_:/$\\-. @x]{0,6}", 0usize..4), 0..120),
            n in 0usize..120,
            at in 0usize..200,
            len in 0usize..2000,
            some in proptest::collection::vec(any::<bool>(), 4),
            sig in 2usize..=4,
            written in proptest::option::of(0usize..3),
            pairs in 0usize..=PAIRS_AFTER,
            (cap, first) in (0usize..=STORM_RUN, any::<bool>()),
            narrow in 0usize..60,
        ) {
            let Some(simd) = V3::try_new() else {
                return Ok(());
            };
            let hay = ghp_units(&units);
            let runs = (if some[0] { n % 60 } else { 0 }, if some[1] { (n * 7) % 80 } else { 0 });
            let storm = with_cap(ghp_storm(runs, (some[2], some[3])), cap, first);
            let mut storm = with_narrow(storm, narrow);
            // Fewer pairs than `FEW_PAIRS` are compared everywhere, more where the
            // lookups of their bytes say they may be.
            let all = [*b"ab", *b"_:", *b"9z", *b"xy", *b"a_", *b"$$", *b"@x", *b"zz"];
            storm.after_pairs = all[..pairs].to_vec();
            let (at, to) = (at.min(hay.len()), (at + len).min(hay.len()));
            let mut out = Vec::new();
            // As written: the keyword as given, in capitals, or mixed (see `ghp_units`).
            let written = written.map(|w| &[&b"ghp_"[..], b"GHP_", b"gHp_"][w][..sig]);
            drops(simd, (&storm, sig, written), &hay, (at, to), &mut out);
            prop_assert_eq!(out.len(), (to - at).div_ceil(LANES));
            let lower = hay.to_ascii_lowercase();
            for (s, &[places, dropped, exact, dead]) in out.iter().enumerate() {
                let p = at + s * LANES;
                let mut want = storm.drops_at(&hay, p);
                let mut want_dead = storm.dies_at(&hay, p);
                let part = (0..LANES).filter(|&i| p + i < to);
                let sig_at = |i: &usize| lower[p + i..].starts_with(&b"ghp_"[..sig]);
                let want_places = part.clone().filter(sig_at).fold(0u64, |w, i| w | 1 << i);
                let as_written = |i: &usize| written.is_none_or(|w| hay[p + i..].starts_with(w));
                let want_exact = (0..LANES).filter(|i| want_places >> i & 1 == 1 && as_written(i));
                let want_exact = want_exact.fold(0u64, |w, i| w | 1 << i);
                if to - p < LANES {
                    want &= (1u64 << (to - p)) - 1;
                    want_dead &= (1u64 << (to - p)) - 1;
                }
                prop_assert_eq!(dropped, want & want_exact, "drops of the step at {}", p);
                prop_assert_eq!(dead, want_dead & want_exact, "dead hits of the step at {}", p);
                prop_assert_eq!(places, want_places, "places of the step at {}", p);
                prop_assert_eq!(exact, want_exact, "as written at {}", p);
            }
        }

        /// The places of a word are where its bytes occur in any case, and where
        /// they occur as written, position by position, and none past the part.
        #[test]
        fn places_are_where_the_word_occurs(
            text in "[aAbB_]{0,400}",
            word in "[ab_]{1,4}",
            upper in proptest::collection::vec(any::<bool>(), 4),
            at in 0usize..200,
            len in 0usize..400,
        ) {
            let Some(simd) = V3::try_new() else {
                return Ok(());
            };
            let hay = text.as_bytes();
            let word = word.as_bytes();
            let written: Vec<u8> = (word.iter().zip(&upper))
                .map(|(&c, &up)| if up { c.to_ascii_uppercase() } else { c })
                .collect();
            let (at, to) = (at.min(hay.len()), (at + len).min(hay.len()));
            let mut out = Vec::new();
            places(simd, (word, &written), hay, (at, to), &mut out);
            prop_assert_eq!(out.len(), (to - at).div_ceil(LANES));
            for (s, &[any, dropped, exact, dead]) in out.iter().enumerate() {
                let p = at + s * LANES;
                let part = (0..LANES).filter(|&i| p + i < to);
                let bits = |f: &dyn Fn(&[u8]) -> bool| {
                    let w = |i: &usize| hay.get(p + i..p + i + word.len()).is_some_and(f);
                    part.clone().filter(w).fold(0u64, |b, i| b | 1 << i)
                };
                prop_assert_eq!(any, bits(&|w| w.eq_ignore_ascii_case(word)), "step at {}", p);
                prop_assert_eq!(exact, bits(&|w| w == written), "step at {}", p);
                prop_assert_eq!((dropped, dead), (0, 0));
            }
        }
    }

    proptest! {
        // Most cases cut a signature from the unit itself, or give it a border, and
        // have no copies: a thousand leave a few hundred that do.
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// The windows [`copies`] marks are exactly those whose four bytes each lie
        /// in a copy of the unit (as written, from `at` on) or are one byte, or a
        /// pair, between two that [`Copies::of`] lets stand there (and no copy meets
        /// the one before where two may not meet), in a step whose bytes all lie in
        /// the text; and no signature of a pass (as it reads the text: lowercased or
        /// as written) begins at one. Texts of copies and zero to two bytes between
        /// (from a few bytes the signatures hold); signatures cut from `u r u`,
        /// `u r s u`, `u u` and the unit in a random case, and random ones.
        #[test]
        fn copies_mark_the_windows_no_signature_begins_at(
            unit in "[a-zA-Z_-]{3,6}",
            cut in proptest::collection::vec((0usize..14, 3usize..=4, any::<u8>(), any::<u32>(), 0usize..20), 0..8),
            random in proptest::collection::vec("[a-zA-Z0-9 _-]{3,4}", 0..8),
            lowered in proptest::collection::vec(any::<bool>(), 2),
            gaps in proptest::collection::vec((0usize..3, any::<u32>()), 0..300),
            bytes in "[a-zA-Z0-9 _.:=-]{1,8}",
            at in 0usize..100,
            len in 0usize..2000,
        ) {
            let Some(simd) = V3::try_new() else {
                return Ok(());
            };
            let u = unit.as_bytes();
            let bytes = bytes.as_bytes();
            // The signatures of two passes, one each way of reading.
            let mut sigs: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
            for &(from, n, r, case, pass) in &cut {
                let r = bytes[usize::from(r) % bytes.len()];
                let r2 = bytes[(case >> 8) as usize % bytes.len()];
                let text = match pass {
                    0..7 => [u, &[r], u].concat(),
                    7..12 => [u, &[r, r2], u].concat(),
                    12..19 => [u, u].concat(),
                    _ => u.to_vec(),
                };
                let from = from % text.len().saturating_sub(n - 1).max(1);
                let Some(w) = text.get(from..from + n) else { continue };
                let pass = pass % 2;
                let mut sig: Vec<u8> = (w.iter().enumerate())
                    .map(|(i, &c)| if case >> i & 1 == 1 { c.to_ascii_uppercase() } else { c })
                    .collect();
                if lowered[pass] {
                    sig.make_ascii_lowercase();
                }
                sigs[pass].push(sig);
            }
            for (i, sig) in random.iter().enumerate() {
                sigs[i % 2].push(sig.as_bytes().to_vec());
            }
            let passes = [(&sigs[0][..], lowered[0]), (&sigs[1][..], lowered[1])];
            let Some(copies) = Copies::of(u, &passes) else {
                return Ok(());
            };
            let mut hay = Vec::new();
            for &(n, pick) in &gaps {
                hay.extend_from_slice(u);
                for j in 0..n {
                    hay.push(bytes[(pick as usize >> (8 * j)) % bytes.len()]);
                }
            }
            let (at, to) = (at.min(hay.len()), (at + len).min(hay.len()));
            let mut out = Vec::new();
            super::copies(simd, &copies, &hay, (at, to), &mut out);
            let steps = (to - at).div_ceil(LANES);
            prop_assert_eq!(out.len(), steps);
            // Byte by byte: a step's bytes are read where they all lie in the text.
            let read = |p: usize| {
                let s = (p - at) / LANES;
                s <= steps && at + s * LANES + LANES + 8 <= hay.len()
            };
            let starts = |p: usize| p >= at && read(p) && hay[p..].starts_with(u);
            let held = |p: usize| (p + 1).saturating_sub(u.len()).max(at) <= p
                && ((p + 1).saturating_sub(u.len()).max(at)..=p).any(starts);
            let fine = |p: usize| {
                let between = p > at
                    && read(p)
                    && copies.may[usize::from(hay[p])]
                    && held(p - 1)
                    && held(p + 1);
                // The first byte of two between copies, where the pair may stand.
                let pair = |p: usize| p > at
                    && read(p)
                    && held(p - 1)
                    && !held(p)
                    && !held(p + 1)
                    && held(p + 2)
                    && copies.may_pair(hay[p], hay[p + 1]);
                let meets = starts(p) && p > at && held(p - 1);
                (held(p) || between || pair(p) || (p > at && pair(p - 1)))
                    && (copies.joined || !meets)
            };
            for (s, &word) in out.iter().enumerate() {
                for i in 0..LANES {
                    let p = at + s * LANES + i;
                    let want = (p..p + 4).all(fine);
                    prop_assert_eq!(word >> i & 1 == 1, want, "window at {} of {:?}", p, String::from_utf8_lossy(&hay));
                    if !want {
                        continue;
                    }
                    for &(sigs, lowered) in &passes {
                        for sig in sigs {
                            let w = &hay[p..p + sig.len()];
                            let begins = if lowered { w.to_ascii_lowercase() == *sig } else { w == &sig[..] };
                            prop_assert!(!begins, "{:?} at {}", String::from_utf8_lossy(sig), p);
                        }
                    }
                }
            }
        }
    }
}
