//! The keyword sieve: every signature of three and four bytes (see
//! [`super::prefilter`]) found in one pass over a slice, 64 positions at a time,
//! ASCII-case-insensitively, where the CPU has AVX-512 (F and BW, detected at run time).
//!
//! It is a Teddy (the SIMD search of aho-corasick's `packed` module, after Hyperscan)
//! built on a different lookup. Signatures are spread over buckets, sixteen to a
//! *group*. For each place in a signature a group has a table of 64 entries of 16 bits:
//! entry `c` has bit `k` set when a signature of bucket `k` has a byte of class `c`
//! there (see [`class`]). One `vpermt2w` looks up 32 bytes at once (each in its own
//! 16-bit lane), so a group answers "which buckets could start here?" for 64 positions
//! with eight lookups (four places, even and odd positions); ANDed over the places,
//! any bit left in any group flags a position. Its four bytes, lowercased, and its
//! first three are then looked up in a hash table of the signatures ([`Exact`]): two
//! lookups and no branch on a miss, whatever the buckets flagged there (a comparison
//! with each signature of each flagged bucket cost a branch a signature, ~11 ns a flag
//! in text that flags every 26 bytes). Teddy proper looks up nibbles with byte
//! shuffles: two lookups per place
//! for a set of nibble pairs, a coarser test than a class. aho-corasick's AVX2 Teddy
//! reads 16 positions per step with 16 buckets and takes up to 64 patterns well, so the
//! prefilter needed three of its searchers for the built-in keywords, plus one for the
//! three-byte ones; the sieve takes them all in two groups (measured in
//! `docs/benchmarks.md`).
//!
//! The two-byte keywords (the built-in `SK` and `Q~`, exact and case kept) are
//! compared in the same pass: a step's bytes, read as 16-bit lanes, hold the even
//! positions' pairs, and the bytes from the next position the odd ones; one compare
//! each. (Searched with `memmem` of their own, they were two more passes over the
//! slice.)
//!
//! Signatures of keywords found as written (see `prefilter`) are case-sensitive: a
//! step that flags [`REFINE`] positions or more (a storm, or a run of one letter) is
//! looked up again by its bytes as written before any position is (see [`refine`]),
//! so that a run of `a` is not a flag at every byte for Twitter's 21 `A`s; so is a
//! step of a storm part that its drop leaves any flag in (where a storm's copies
//! meet they may spell such a signature in the other case), and a step with fewer
//! flags while asking drops some (see [`FewAsked`]: `daaa` and a random byte holds
//! `aaaa` at a copy in ten).
//!
//! Where the CPU also has AVX-512 VBMI (Ice Lake, Zen 4 on), the same buckets are
//! looked up by byte ([`Bytes`]): one `vpermb` answers for eight buckets at 64
//! positions, the classes need no even and odd lanes, and a step's flags come as one
//! mask in order. The same positions are flagged either way (the tests compare the
//! two); on the clean corpus at 64 KiB the byte tables read 1.14x faster.
//!
//! A bucket flags a word spelled from the bytes of several of its signatures (`cas-`
//! from Airtable's, npm's, …), each such flag a lookup in vain. The signatures are
//! also dealt over a second set of buckets ([`spread`]: no two that share a bucket
//! share one again), asked by every step with a flag while that drops some (see
//! [`SpreadAsked`]): a position stays flagged where both sets flag it. Words both sets
//! flag remain (`AISA`); a step with several flags sorts its positions by two bitmaps
//! of the signatures' first three bytes before it looks any up ([`KeyFilter`]), and
//! first drops those that begin as the last place the bitmaps sorted out did (a
//! storm of one such word calls the filter once). In a storm part, places that spell
//! one of the last two words looked up in vain are dropped too ([`InVain`]).
//!
//! A storm that does not repeat (a keyword and a random byte, again and again) is a
//! flag at each of its keywords, and each flag a lookup: [`Sieve::find_storm`] clears
//! the flags of the storm's keyword whose hits cannot match first, 64 positions at a
//! time, with a few compares and byte-table lookups (see [`Storm`]).
//!
//! The SIMD goes through `pulp`, whose feature tokens make the intrinsics safe to call
//! once the features are detected. `pulp` detects VBMI but has no safe form of its
//! two permutes: [`super::vbmi`] wraps them behind its token, the crate's one
//! `unsafe`.

// Off x86-64 there is no sieve: the layout and the class table go unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use std::fmt;

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::__m512i;
#[cfg(target_arch = "x86_64")]
use pulp::x86::V4;

#[cfg(target_arch = "x86_64")]
use super::backoff::Backoff;
#[cfg(target_arch = "x86_64")]
use super::vbmi::Vbmi;

/// Positions per step.
const LANES: usize = 64;
/// The longest signature.
const WIDTH: usize = 4;
/// Buckets per group: one bit of a 16-bit lane each.
const BUCKETS: usize = 16;
/// Signatures per bucket that decide how many groups there are, by length (four
/// bytes, three bytes): more per bucket flag more positions, more groups cost more
/// lookups. Measured best on the clean corpus of `stream64k` for the built-in rules:
/// two groups, where one flags ten times as many positions and three scan slower.
const PER_BUCKET: [usize; 2] = [13, 4];
/// How far ahead of a step its bytes are asked into the cache. Text the sieve reads
/// from memory (a large buffer, read once) came at the pace of its loads' misses: the
/// 64 KiB chunks of a 64 MiB corpus (`stream64k`) read at ~3.2-3.5 GB/s, its first MiB
/// read again and again at ~5.5-6.0. Asked 2 KiB ahead, 4.4-5.0 GB/s (1 KiB: 4.0-4.3,
/// 4 KiB: 4.4); the hint's level (`_MM_HINT_T0`, `_T1`, `_T2`, `_NTA`) did not
/// matter, nor a burst asking for a call's first 2 KiB at its start.
const PREFETCH: usize = 2048;

/// The class of a byte in the tables: its low six bits once bit 5 is cleared where
/// bit 6 is set. Upper- and lower-case letters share a class (the sieve is
/// case-insensitive without a lowercased copy), and digits and punctuation
/// (0x20-0x3f) have classes of their own; `@[\]^_` share theirs with `` `{|}~ `` and
/// DEL, control bytes with letters, bytes from 0x80 with their ASCII twins. A class
/// only flags: the comparison after it is exact.
pub(crate) const fn class(b: u8) -> u8 {
    (b & !((b & 0x40) >> 1)) & 63
}

/// [`class`] of every byte.
const CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = class(b as u8);
        b += 1;
    }
    t
};

/// See the module's documentation.
#[derive(Clone)]
pub(crate) struct Sieve {
    #[cfg(target_arch = "x86_64")]
    simd: V4,
    /// Per group, per place: the table's two halves (entries 0-31, 32-63).
    #[cfg(target_arch = "x86_64")]
    groups: Vec<Group>,
    /// The same buckets by each byte's low six bits as written (see [`refine`]), where
    /// some signature is case-sensitive; empty where none is.
    #[cfg(target_arch = "x86_64")]
    cased: Vec<Group>,
    /// The same signatures dealt over buckets another way (see [`spread`]), asked of
    /// a step's flags (see [`SpreadAsked`]).
    #[cfg(target_arch = "x86_64")]
    second: Vec<Group>,
    /// The same tables by byte, where the CPU has VBMI (see [`Bytes`]).
    #[cfg(target_arch = "x86_64")]
    bytes: Option<Bytes>,
    /// Where a flagged position's bytes are looked up.
    exact: Exact,
    /// The two-byte keywords, exact (case kept), little-endian: found by a comparison
    /// of the step's 16-bit lanes, reported as number `sigs` plus their index.
    pairs: Vec<i16>,
    /// How many signatures there are (the first pair's number).
    sigs: u32,
}

/// The groups' tables as bytes, for CPUs with AVX-512 VBMI: each group of sixteen
/// buckets is two of eight, and a place's table is 64 bytes, entry `c` the buckets
/// (bits) whose signatures have a byte of class `c` there. One `vpermb` looks up 64
/// positions at once (a `vpermt2w` of the word tables, 32), the index bytes need no
/// mask (it reads their low six bits, which [`class`] is), and a step's flags come as
/// one mask of 64 positions in order. The same buckets flag the same positions; on the
/// clean corpus at 64 KiB the byte tables read 1.14x faster (docs/benchmarks.md).
#[cfg(target_arch = "x86_64")]
#[derive(Clone)]
struct Bytes {
    simd: Vbmi,
    groups: Vec<ByteGroup>,
    /// By the bytes as written, for [`refine`]'s question (empty where no signature is
    /// case-sensitive).
    cased: Vec<ByteGroup>,
    /// The signatures dealt another way (see [`spread`]).
    second: Vec<ByteGroup>,
    /// What a step with many flags asks before it looks any up (see [`KeyFilter`]).
    filter: KeyFilter,
}

/// Two bitmaps of 1,024 bits, each with a bit set at a hash of the first three bytes of
/// every key of the lookup's table ([`Exact`]: each signature's bytes, lowercased), and
/// the windows that make a step's positions' bytes into words: a step that flags
/// [`FILTERED`] positions or more hashes all 64 positions' first three bytes at once,
/// looks the hashes up in the bitmaps (`vpermt2b` indexes 128 bytes), and looks up in
/// the table only the positions whose bits are set in both. A word both sets of buckets
/// flag with no signature there (`AISA` and a random byte: a flag at every copy) cost a
/// lookup of ~10 ns a flag, ~0.12x clean text.
#[cfg(target_arch = "x86_64")]
#[derive(Clone)]
struct KeyFilter {
    /// For positions `16k..16k + 16` of a step, the bytes of `(step, step + 3)` (the
    /// step's 64 bytes, then those from three on) that make each one's four bytes a
    /// 32-bit lane, little-endian: `vpermt2b` indices.
    windows: [__m512i; 4],
    /// The bitmaps, 128 bytes each as two registers: the first at bits 22-31 of the
    /// product with [`FILTER_MULTIPLIER`], the second at bits 12-21.
    maps: [(__m512i, __m512i); 2],
}

/// The fewest flags of a step whose positions [`KeyFilter`] sorts before any is looked
/// up: one step's hashes cost about as much as two or three lookups.
const FILTERED: u32 = 3;

/// The same in a storm part, whose step holds the storm's tables in registers too:
/// there the filter's call, which spills them, cost ~33 ns a step, about three
/// lookups. A storm of `password` and an alphanumeric byte leaves ~3.6 flags a step
/// (`dapa`, at a copy in four, which both sets of buckets flag for Databricks'
/// `dapi`, and whose first three bytes the filter passes for it): asked from three
/// flags on, the filter kept 55 % of them, and the storm read ~1.25x slower.
const STORM_FILTERED: u32 = 8;

/// A group of eight buckets by byte: per place, the table of its 64 classes.
#[cfg(target_arch = "x86_64")]
type ByteGroup = [__m512i; WIDTH];

/// Groups of [`BUCKETS`] buckets (word tables) as groups of eight (byte tables): each
/// word table's low bytes, then its high bytes.
#[cfg(target_arch = "x86_64")]
fn byte_groups(groups: &[Group]) -> Vec<ByteGroup> {
    groups
        .iter()
        .flat_map(|group| {
            (0..2).map(move |half| {
                group.map(|(low, high)| {
                    let (low, high): ([u16; 32], [u16; 32]) =
                        (bytemuck::cast(low), bytemuck::cast(high));
                    let table: [u8; 64] = std::array::from_fn(|c| {
                        let entry = if c < 32 { low[c] } else { high[c - 32] };
                        (entry >> (8 * half)) as u8
                    });
                    bytemuck::cast::<[u8; 64], __m512i>(table)
                })
            })
        })
        .collect()
}

/// Flagged positions in a step from which [`refine`] asks the case of each.
const REFINE: usize = 8;

/// When a step with fewer flags than [`REFINE`] asks their case: at once while
/// asking drops some, else after 1, 2, 4, … up to 64 such steps unasked
/// (`1 << FEW_MOST`). In clean text a flag is seldom a signature in the other case
/// (asking every step with a flag read the clean corpus ~2 % slower, and a storm of
/// `cas-`, whose flags are other signatures' bytes, 11 %).
#[cfg(target_arch = "x86_64")]
type FewAsked = Backoff<FEW_MOST>;
const FEW_MOST: u32 = 6;

/// When a step with a flag left after its case is asked asks the buckets dealt
/// another way (see [`spread`]): at once while that drops some, else after 1, 2, 4,
/// … up to 64 such steps unasked (a storm's flags are its keyword's, which those
/// buckets flag too). Not in a storm part, whose drop leaves few flags: asked there,
/// the storms of `AZDO` and `sk-` read ~5-8 % slower.
#[cfg(target_arch = "x86_64")]
type SpreadAsked = Backoff<6>;

/// The most two-byte keywords a sieve compares.
const PAIRS: usize = 8;

/// The signatures by their bytes, for the comparison after a flag: a hash table of
/// [`SLOTS`] keys a row, each key a signature's bytes little-endian (a three-byte
/// one's fourth byte zero), so a position's four bytes, and its first three, are two
/// lookups, whatever the number of signatures or of buckets flagged there. The
/// multiplier is picked so that no row overflows.
#[derive(Clone, Debug)]
struct Exact {
    keys: Vec<[u32; SLOTS]>,
    /// The signature of each key; [`EMPTY`] where the slot is free (its key 0, which
    /// three NUL bytes also make).
    sigs: Vec<[u32; SLOTS]>,
    multiplier: u32,
    /// `32 - log2(keys.len())`.
    shift: u32,
}

#[cfg(test)]
thread_local! {
    /// Positions looked up in [`Exact`] on this thread (tests).
    static LOOKUPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Steps whose flags [`KeyFilter`] sorted on this thread (tests).
    static FILTER_STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Keys per row of [`Exact`].
const SLOTS: usize = 4;
/// The signature of a free slot.
const EMPTY: u32 = u32::MAX;

impl Exact {
    /// The table of `sigs` (three or four bytes each, lowercased).
    fn new(sigs: &[Vec<u8>]) -> Exact {
        let keys: Vec<u32> = sigs
            .iter()
            .map(|sig| {
                let mut value = [0u8; 4];
                value[..sig.len()].copy_from_slice(sig);
                u32::from_le_bytes(value)
            })
            .collect();
        // Rows for one key each on average, at least 64; more when no multiplier of
        // the first few fits every row (seeded: the same table every time).
        let mut bits = sigs.len().next_power_of_two().max(64).trailing_zeros();
        let mut seed = 0x9E37_79B9u32;
        loop {
            for _ in 0..64 {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let mut exact = Exact {
                    keys: vec![[0; SLOTS]; 1 << bits],
                    sigs: vec![[EMPTY; SLOTS]; 1 << bits],
                    multiplier: seed | 1,
                    shift: 32 - bits,
                };
                if keys
                    .iter()
                    .enumerate()
                    .all(|(i, &key)| exact.insert(key, i as u32))
                {
                    return exact;
                }
            }
            bits += 1;
        }
    }

    fn row(&self, key: u32) -> usize {
        (key.wrapping_mul(self.multiplier) >> self.shift) as usize
    }

    /// False when the key's row is full.
    fn insert(&mut self, key: u32, sig: u32) -> bool {
        let row = self.row(key);
        let Some(slot) = self.sigs[row].iter().position(|&s| s == EMPTY) else {
            return false;
        };
        self.keys[row][slot] = key;
        self.sigs[row][slot] = sig;
        true
    }

    /// The slots of `key`'s row that hold it, as bits (free slots too, for key 0): the
    /// row's four keys compared at once (compared one by one, with a branch-free
    /// compare and shift each, a storm of `password` and a random letter or digit,
    /// whose ~3.6 flags a step are all looked up, read 1.19x slower).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn hits(&self, simd: V4, key: u32) -> (usize, u32) {
        let row = self.row(key);
        let keys = bytemuck::cast::<[u32; SLOTS], core::arch::x86_64::__m128i>(self.keys[row]);
        let eq = simd
            .sse2
            ._mm_cmpeq_epi32(keys, simd.sse2._mm_set1_epi32(key as i32));
        let bits = simd.sse._mm_movemask_ps(simd.sse2._mm_castsi128_ps(eq)) as u32;
        (row, bits)
    }

    /// Calls `found` for each signature at `hay[at..]` (its four bytes, and its first
    /// three, lowercased: two lookups, and no branch on a miss); returns how many.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn look_up(
        &self,
        simd: V4,
        hay: &[u8],
        at: usize,
        found: &mut impl FnMut(u32, usize),
    ) -> usize {
        #[cfg(test)]
        LOOKUPS.with(|n| n.set(n.get() + 1));
        // Bytes past the slice are zeros, which no signature has.
        let word = lowercase(word_at(hay, at));
        let four = self.hits(simd, word);
        // A fourth byte of zero makes both keys one: looked up once.
        let (row, bits) = self.hits(simd, word & 0x00ff_ffff);
        let three = (row, bits * u32::from(word >> 24 != 0));
        if four.1 | three.1 == 0 {
            return 0;
        }
        self.report(four, at, found) + self.report(three, at, found)
    }

    /// Calls `found` for each signature of `key`'s row in `bits` (see [`Exact::hits`]);
    /// returns how many.
    #[cold]
    #[inline(never)]
    fn report(
        &self,
        (row, mut bits): (usize, u32),
        at: usize,
        found: &mut impl FnMut(u32, usize),
    ) -> usize {
        let mut n = 0;
        while bits != 0 {
            let sig = self.sigs[row][bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if sig != EMPTY {
                n += 1;
                found(sig, at);
            }
        }
        n
    }
}

impl fmt::Debug for Sieve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sieve")
            .field("groups", &self.group_count())
            .field("bytes", &self.by_bytes())
            .field("exact", &self.exact)
            .finish()
    }
}

impl Sieve {
    /// A sieve for `sigs` (lowercased, three or four ASCII bytes each, no NUL) and
    /// `pairs` (two bytes each, no NUL, case kept; at most [`PAIRS`]), or `None` where
    /// the CPU lacks AVX-512, or for any other signatures or pairs.
    #[cfg(test)]
    pub(crate) fn new(sigs: &[Vec<u8>], pairs: &[Vec<u8>]) -> Option<Sieve> {
        Sieve::with_cases(sigs, &[], pairs)
    }

    /// As [`Sieve::new`], with signature `i` found only as `cased[i]` spells it where
    /// that is `Some` (the same bytes in some ASCII case: the signature of keywords
    /// found as written). A flagged position's case is compared in a step that flags
    /// [`REFINE`] positions or more (see [`refine`]), in a step with fewer while
    /// that drops some (see [`FewAsked`]), and in a storm part wherever its drop
    /// leaves a flag (see [`Sieve::find_storm`]); the lookup after a flag folds case
    /// either way, and the caller compares a keyword's case.
    pub(crate) fn with_cases(
        sigs: &[Vec<u8>],
        cased: &[Option<Vec<u8>>],
        pairs: &[Vec<u8>],
    ) -> Option<Sieve> {
        #[cfg(target_arch = "x86_64")]
        {
            let simd = V4::try_new()?;
            let fits = |s: &Vec<u8>| {
                (3..=WIDTH).contains(&s.len())
                    && s.iter()
                        .all(|&b| b.is_ascii() && b != 0 && !b.is_ascii_uppercase())
            };
            let pair = |p: &Vec<u8>| p.len() == 2 && !p.contains(&0);
            if sigs.is_empty()
                || !sigs.iter().all(fits)
                || pairs.len() > PAIRS
                || !pairs.iter().all(pair)
            {
                return None;
            }
            let members = members(sigs);
            let any_cased = cased.iter().any(Option::is_some);
            let (mut groups, mut cased_groups) = (Vec::new(), Vec::new());
            for group in members.chunks(BUCKETS) {
                let (table, raw) = tables(group, sigs, cased);
                groups.push(table);
                if any_cased {
                    cased_groups.push(raw);
                }
            }
            let second: Vec<Group> = (spread(&members, sigs).chunks(BUCKETS))
                .map(|group| tables(group, sigs, cased).0)
                .collect();
            let exact = Exact::new(sigs);
            let bytes = Vbmi::try_new().map(|simd| Bytes {
                simd,
                groups: byte_groups(&groups),
                cased: byte_groups(&cased_groups),
                second: byte_groups(&second),
                filter: KeyFilter::new(&exact),
            });
            Some(Sieve {
                simd,
                bytes,
                groups,
                second,
                cased: cased_groups,
                exact,
                pairs: pairs
                    .iter()
                    .map(|p| i16::from_le_bytes([p[0], p[1]]))
                    .collect(),
                sigs: sigs.len() as u32,
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (sigs, cased, pairs);
            None
        }
    }

    /// Whether the sieve finds the two-byte keywords too.
    pub(crate) fn has_pairs(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// Whether steps look up the byte tables (see [`Bytes`]).
    pub(crate) fn by_bytes(&self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            self.bytes.is_some()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The same sieve looking up its word tables only, as on a CPU without VBMI.
    #[cfg(test)]
    fn by_words(mut self) -> Sieve {
        #[cfg(target_arch = "x86_64")]
        {
            self.bytes = None;
        }
        self
    }

    /// The signatures, from the lookup's table (a three-byte one's fourth byte zero),
    /// in their order (tests).
    #[cfg(test)]
    pub(crate) fn signatures(&self) -> Vec<Vec<u8>> {
        let mut sigs = vec![Vec::new(); self.sigs as usize];
        for (keys, ids) in self.exact.keys.iter().zip(&self.exact.sigs) {
            for (&key, &id) in keys.iter().zip(ids).filter(|&(_, &id)| id != EMPTY) {
                let bytes = key.to_le_bytes();
                sigs[id as usize] = bytes[..if bytes[3] == 0 { 3 } else { 4 }].to_vec();
            }
        }
        sigs
    }

    /// A word of four bytes that both sets of buckets flag (see [`spread`]) and that is
    /// no signature: what an attacker's look-alike storm must be made of now. Found
    /// where a bucket of each set has, at every place, a class in common, and checked
    /// by a scan of copies of it: each flagged, none found (tests).
    #[cfg(test)]
    pub(crate) fn look_alike_of_both(&self) -> Option<Vec<u8>> {
        let sigs = self.signatures();
        let members = members(&sigs);
        let dealt = spread(&members, &sigs);
        let classes = |bucket: &[u32], place: usize| {
            (bucket.iter()).fold(0u64, |m, &i| m | 1 << class(sigs[i as usize][place]))
        };
        // The first byte of each class from `!` on (a capital for a letter's).
        let byte = |c: u32| (b'!'..=b'z').find(|&b| u32::from(class(b)) == c);
        for one in buckets_of_len(&members, &sigs, 4) {
            for other in buckets_of_len(&dealt, &sigs, 4) {
                let common: Vec<u64> = (0..WIDTH)
                    .map(|p| classes(&members[one], p) & classes(&dealt[other], p))
                    .collect();
                let word: Option<Vec<u8>> =
                    (common.iter()).map(|&m| byte(m.trailing_zeros())).collect();
                let Some(word) = word.filter(|_| common.iter().all(|&m| m != 0)) else {
                    continue;
                };
                if sigs.contains(&word.to_ascii_lowercase()) {
                    continue;
                }
                let hay = [&word[..], b" "].concat().repeat(64);
                let (found, flags) = self.find(&hay, (0, hay.len()), true, |_, _| {});
                if found == 0 && flags >= 64 {
                    return Some(word);
                }
            }
        }
        None
    }

    /// The same sieve without the buckets dealt another way (see [`spread`]).
    #[cfg(test)]
    fn without_spread(mut self) -> Sieve {
        #[cfg(target_arch = "x86_64")]
        {
            self.second.clear();
            if let Some(bytes) = &mut self.bytes {
                bytes.second.clear();
            }
        }
        self
    }

    /// How many groups of [`BUCKETS`] buckets the signatures take.
    fn group_count(&self) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            self.groups.len()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            0
        }
    }

    /// Calls `found(signature, start)` for each of the sieve's signatures that occurs
    /// in `hay` (ASCII case ignored) starting in `at..to`, and `found(signatures +
    /// j, start)` for each occurrence of pair `j` (case kept); returns how many, and
    /// how many positions its tables flagged (each one costs a lookup, a signature
    /// there or not, but where the byte tables' [`KeyFilter`] sorts a step's flags
    /// out first). Positions come in order from one step of 64 to the next, not
    /// within one. With `cased`, a step that flags many positions asks their case
    /// (see [`refine`]); without, the loop has no code for it (a token delta's: in
    /// one loop, that code cost 32-byte deltas 8 % of their time, though it never
    /// ran there).
    #[inline(always)]
    pub(crate) fn find(
        &self,
        hay: &[u8],
        span: (usize, usize),
        cased: bool,
        found: impl FnMut(u32, usize),
    ) -> (usize, usize) {
        self.find_counting(hay, span, cased, &mut 0, found)
    }

    /// [`Sieve::find`], adding to `steps` the steps with a flag.
    #[inline(always)]
    fn find_counting(
        &self,
        hay: &[u8],
        (at, to): (usize, usize),
        cased: bool,
        steps: &mut usize,
        found: impl FnMut(u32, usize),
    ) -> (usize, usize) {
        let to = to.min(hay.len());
        if at >= to {
            return (0, 0);
        }
        #[cfg(target_arch = "x86_64")]
        {
            let (span, storm) = ((at, to), None);
            let (count, flags, _, flagged) = match (&self.bytes, cased && !self.cased.is_empty()) {
                (Some(bytes), false) => {
                    bytes.simd.vectorize(Scan::<_, false, true, false, false> {
                        sieve: self,
                        hay,
                        span,
                        storm,
                        found,
                    })
                }
                (Some(bytes), true) => bytes.simd.vectorize(Scan::<_, true, true, false, false> {
                    sieve: self,
                    hay,
                    span,
                    storm,
                    found,
                }),
                (None, false) => self.simd.vectorize(Scan::<_, false, false, false, false> {
                    sieve: self,
                    hay,
                    span,
                    storm,
                    found,
                }),
                (None, true) => self.simd.vectorize(Scan::<_, true, false, false, false> {
                    sieve: self,
                    hay,
                    span,
                    storm,
                    found,
                }),
            };
            *steps += flagged;
            (count, flags)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (found, steps);
            unreachable!("a sieve is only made on x86-64")
        }
    }

    /// [`Sieve::find`] with the case asked, for a block of a larger slice: with
    /// `noted`, where the CPU has VBMI, its steps noted and handled a batch later (see
    /// [`noted_steps`]). Also returns whether most of its steps had a flag: the
    /// caller notes the next block's steps unless so (in a block most of whose steps
    /// have a flag, noting them costs more than the branches it spares).
    #[inline(always)]
    pub(crate) fn find_block(
        &self,
        hay: &[u8],
        (at, to): (usize, usize),
        noted: bool,
        found: impl FnMut(u32, usize),
    ) -> (usize, usize, bool) {
        let to = to.min(hay.len());
        let crowded = |flagged: usize| 2 * flagged > to.saturating_sub(at).div_ceil(LANES);
        #[cfg(target_arch = "x86_64")]
        if let (true, Some(bytes), false) = (noted, &self.bytes, self.cased.is_empty()) {
            if at >= to {
                return (0, 0, false);
            }
            let (count, flags, _, flagged) =
                bytes.simd.vectorize(Scan::<_, true, true, false, true> {
                    sieve: self,
                    hay,
                    span: (at, to),
                    storm: None,
                    found,
                });
            return (count, flags, crowded(flagged));
        }
        let mut flagged = 0;
        let (count, flags) = self.find_counting(hay, (at, to), true, &mut flagged, found);
        (count, flags, crowded(flagged))
    }

    /// [`Sieve::find`] (case asked of every step with a flag left), with the hits of
    /// `storm` that cannot match dropped 64 positions at a time, before any is looked
    /// up (see [`Storm`]): how many signatures and pairs it found, and how many
    /// positions it dropped. `None` where the CPU lacks VBMI (the storm's tables are
    /// looked up by byte).
    pub(crate) fn find_storm(
        &self,
        hay: &[u8],
        (at, to): (usize, usize),
        storm: &Storm,
        found: impl FnMut(u32, usize),
    ) -> Option<(usize, usize)> {
        #[cfg(target_arch = "x86_64")]
        {
            let bytes = self.bytes.as_ref()?;
            let to = to.min(hay.len());
            if at >= to {
                return Some((0, 0));
            }
            let span = (at, to);
            let storm = Some(storm);
            let (count, _, dropped, _) = if self.cased.is_empty() {
                bytes.simd.vectorize(Scan::<_, false, true, true, false> {
                    sieve: self,
                    hay,
                    span,
                    storm,
                    found,
                })
            } else {
                bytes.simd.vectorize(Scan::<_, true, true, true, false> {
                    sieve: self,
                    hay,
                    span,
                    storm,
                    found,
                })
            };
            Some((count, dropped))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (hay, at, to, storm, found);
            None
        }
    }
}

/// The signatures of each bucket (indices into `sigs`), buckets in groups of
/// [`BUCKETS`]: four-byte and three-byte signatures in buckets of their own (a
/// three-byte one flags any byte in the fourth place), laid out by the prefilter's
/// bucket layout under the class model.
fn members(sigs: &[Vec<u8>]) -> Vec<Vec<u32>> {
    let of_len = |len: usize| -> Vec<u32> {
        (0..sigs.len() as u32)
            .filter(|&i| sigs[i as usize].len() == len)
            .collect()
    };
    let (four, three) = (of_len(4), of_len(3));
    let want = [
        four.len().div_ceil(PER_BUCKET[0]),
        three.len().div_ceil(PER_BUCKET[1]),
    ];
    let total = (want[0] + want[1]).div_ceil(BUCKETS) * BUCKETS;
    // The buckets a group count leaves spare, shared in proportion.
    let n4 = if three.is_empty() {
        total
    } else if four.is_empty() {
        0
    } else {
        (want[0] * total / (want[0] + want[1])).clamp(1, total - 1)
    };
    let mut members = Vec::with_capacity(total);
    for (ids, n) in [(four, n4), (three, total - n4)] {
        if ids.is_empty() {
            continue;
        }
        let mine: Vec<Vec<u8>> = ids.iter().map(|&i| sigs[i as usize].clone()).collect();
        let model = super::prefilter::Model::Classes(&CLASSES);
        let (units, buckets) =
            super::prefilter::layout(&mine, n, model, super::prefilter::Text::Lowered(None));
        members.extend(buckets.iter().map(|bucket| {
            bucket
                .iter()
                .flat_map(|&u| units[u].iter().map(|&i| ids[i]))
                .collect::<Vec<u32>>()
        }));
    }
    members.resize(total, Vec::new());
    members
}

/// A group's tables: by [`class`] (a signature's bytes in either case), and by the
/// bytes as written (its one spelling where `cased` gives one, else both cases), for
/// the buckets `group` (indices into `sigs`).
#[cfg(target_arch = "x86_64")]
fn tables(group: &[Vec<u32>], sigs: &[Vec<u8>], cased: &[Option<Vec<u8>>]) -> (Group, Group) {
    let mut table = [[0u16; 64]; WIDTH];
    let mut raw = [[0u16; 64]; WIDTH];
    for (bit, bucket) in group.iter().enumerate() {
        for &i in bucket {
            let sig = &sigs[i as usize];
            let spelled = cased.get(i as usize).and_then(Option::as_ref);
            for place in 0..WIDTH {
                match sig.get(place) {
                    Some(&b) => {
                        table[place][usize::from(class(b))] |= 1 << bit;
                        let spellings = match spelled {
                            Some(w) => [w[place]; 2],
                            None => [b, b.to_ascii_uppercase()],
                        };
                        for c in spellings {
                            raw[place][usize::from(c & 63)] |= 1 << bit;
                        }
                    }
                    // A three-byte signature: anything in its fourth place.
                    None => {
                        table[place].iter_mut().for_each(|e| *e |= 1 << bit);
                        raw[place].iter_mut().for_each(|e| *e |= 1 << bit);
                    }
                }
            }
        }
    }
    let half = |entries: &[u16; 64], h: usize| {
        let mut a = [0u16; 32];
        a.copy_from_slice(&entries[h * 32..h * 32 + 32]);
        bytemuck::cast::<[u16; 32], __m512i>(a)
    };
    let halves = |t: [[u16; 64]; WIDTH]| t.map(|entries| (half(&entries, 0), half(&entries, 1)));
    (halves(table), halves(raw))
}

/// The signatures of `members`' buckets dealt out again, one to each bucket in turn,
/// four-byte and three-byte ones each over as many buckets as they had: no two that
/// shared a bucket share one again where a bucket holds no more signatures than there
/// are buckets of its length (the built-in ones do: a test checks), so a word whose
/// every byte some signature of one bucket has at its place (`cas-` and a random byte:
/// a flag every ~25 bytes, each looked up in vain) is seldom flagged by the buckets
/// dealt so. They are asked only of what the first buckets
/// flag (see [`SpreadAsked`]): laid out for no text, they flag more of it.
fn spread(members: &[Vec<u32>], sigs: &[Vec<u8>]) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new(); members.len()];
    for len in [4, 3] {
        let of_len = buckets_of_len(members, sigs, len);
        let dealt = of_len.iter().flat_map(|&b| &members[b]);
        for (n, &i) in dealt.enumerate() {
            out[of_len[n % of_len.len()]].push(i);
        }
    }
    out
}

/// The indices of `members`' buckets whose signatures are `len` bytes long (each
/// bucket holds one length; empty ones none).
fn buckets_of_len(members: &[Vec<u32>], sigs: &[Vec<u8>], len: usize) -> Vec<usize> {
    (0..members.len())
        .filter(|&b| (members[b].first()).is_some_and(|&i| sigs[i as usize].len() == len))
        .collect()
}

/// Asserts what [`spread`] promises of `sigs`' buckets: the same signatures, each
/// bucket of one length, and no two that share a bucket share one again (tests).
#[cfg(test)]
pub(crate) fn check_spread(sigs: &[Vec<u8>]) {
    let members = members(sigs);
    let dealt = spread(&members, sigs);
    assert_eq!(dealt.len(), members.len());
    let sorted = |m: &[Vec<u32>]| {
        let mut all: Vec<u32> = m.concat();
        all.sort_unstable();
        all
    };
    assert_eq!(sorted(&dealt), sorted(&members));
    let mut home = vec![usize::MAX; sigs.len()];
    for (b, bucket) in dealt.iter().enumerate() {
        let len = bucket.first().map(|&i| sigs[i as usize].len());
        assert!(bucket.iter().all(|&i| Some(sigs[i as usize].len()) == len));
        bucket.iter().for_each(|&i| home[i as usize] = b);
    }
    for bucket in &members {
        for (k, &i) in bucket.iter().enumerate() {
            for &j in &bucket[k + 1..] {
                assert_ne!(home[i as usize], home[j as usize], "{i} and {j}");
            }
        }
    }
}

/// One call of [`Sieve::find`], run with AVX-512 enabled (and VBMI where `BYTES`: by
/// the byte tables), of [`Sieve::find_storm`] (`STORM`, with `BYTES`), or of
/// [`Sieve::find_block`] noting its steps (`NOTED`, with `BYTES`: see
/// [`noted_steps`]). Returns how many signatures and pairs it found, how many
/// positions it flagged, how many of those the storm dropped, and how many steps had
/// a flag (by the byte tables; none counted by the word tables).
#[cfg(target_arch = "x86_64")]
struct Scan<'a, F, const CASED: bool, const BYTES: bool, const STORM: bool, const NOTED: bool> {
    sieve: &'a Sieve,
    hay: &'a [u8],
    span: (usize, usize),
    storm: Option<&'a Storm>,
    found: F,
}

#[cfg(target_arch = "x86_64")]
impl<
        F: FnMut(u32, usize),
        const CASED: bool,
        const BYTES: bool,
        const STORM: bool,
        const NOTED: bool,
    > pulp::NullaryFnOnce for Scan<'_, F, CASED, BYTES, STORM, NOTED>
{
    type Output = (usize, usize, usize, usize);

    #[inline(always)]
    fn call(self) -> Self::Output {
        let Scan {
            sieve,
            hay,
            span,
            storm,
            found,
        } = self;
        // The built-in rules' two groups (four by byte): their tables held in
        // registers, not loaded from memory every step.
        match &sieve.bytes {
            Some(bytes) if BYTES => match *bytes.groups {
                [a, b, c, d] if NOTED && !STORM => {
                    noted_steps::<CASED>(sieve, bytes.simd, &[a, b, c, d], hay, span, found)
                }
                ref groups if NOTED && !STORM => {
                    noted_steps::<CASED>(sieve, bytes.simd, groups, hay, span, found)
                }
                [a, b, c, d] => byte_steps::<_, CASED, STORM>(
                    sieve,
                    bytes.simd,
                    [a, b, c, d],
                    hay,
                    span,
                    storm,
                    found,
                ),
                ref groups => byte_steps::<_, CASED, STORM>(
                    sieve, bytes.simd, groups, hay, span, storm, found,
                ),
            },
            _ => {
                let (count, flags) = match *sieve.groups {
                    [a, b] => steps::<_, CASED>(sieve, [a, b], hay, span, found),
                    ref groups => steps::<_, CASED>(sieve, groups, hay, span, found),
                };
                (count, flags, 0, 0)
            }
        }
    }
}

/// [`steps`] by the byte tables (see [`Bytes`]): the same flags, found 64 positions a
/// lookup, each step handled as it is read. Returns the signatures and pairs found,
/// the positions looked up, those a storm's drop cleared, and the steps with a flag
/// left (after the drop).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn byte_steps<G: AsRef<[ByteGroup]>, const CASED: bool, const STORM: bool>(
    sieve: &Sieve,
    vbmi: Vbmi,
    groups: G,
    hay: &[u8],
    (at, to): (usize, usize),
    storm: Option<&Storm>,
    mut found: impl FnMut(u32, usize),
) -> (usize, usize, usize, usize) {
    let storm = storm.filter(|_| STORM).map(|s| (s.tables(), s.off));
    let mut reading = Reading::new(sieve, vbmi, (hay, to), storm);
    let mut asking = Asking::default();
    let groups = groups.as_ref();
    let mut p = at;
    while p < to {
        prefetch(sieve.simd, hay, p);
        let (bytes, flagged, kept) = reading.step::<STORM>(groups, p);
        asking.steps_flagged += usize::from(flagged != 0);
        let step = (p, bytes, Some(kept));
        asking.handle::<CASED, STORM>(&reading, groups, step, flagged, &mut found);
        p += LANES;
    }
    (
        asking.count,
        asking.flags,
        reading.dropped,
        asking.steps_flagged,
    )
}

/// The steps of [`byte_steps`] outside a storm part, read in batches of [`BATCH`]:
/// each step's flags first, noted with no branch on them, then the steps of the batch
/// before with a flag or a two-byte keyword handled in order (their case asked, their
/// lookups), their bytes read again. The same flags, lookups and hits in the same
/// order. A branch on a step's flags waits for the longest chain of its lookups, and
/// where it went the other way than predicted, the steps read after it were read
/// again: in clean text one step in ten or so has a flag; handled a batch later, the
/// flags are known by then. Where most steps have a flag (a run of one letter,
/// look-alikes of a keyword found as written), that branch is seldom mispredicted,
/// and reading their bytes and first groups' flags again costs more: the caller
/// notes the steps of a block only after one that was not so (see
/// [`Sieve::find_block`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn noted_steps<const CASED: bool>(
    sieve: &Sieve,
    vbmi: Vbmi,
    groups: &[ByteGroup],
    hay: &[u8],
    (at, to): (usize, usize),
    mut found: impl FnMut(u32, usize),
) -> (usize, usize, usize, usize) {
    let mut reading = Reading::new(sieve, vbmi, (hay, to), None);
    let mut asking = Asking::default();
    let mut p = at;
    // The batch before the one being read: where it starts, each step's flags, and a
    // bit for each step to handle.
    let mut pending = (p, [0u64; BATCH], 0u32);
    while p < to {
        let mut batch = (p, [0u64; BATCH], 0u32);
        for (k, mark) in batch.1.iter_mut().enumerate() {
            if p >= to {
                break;
            }
            prefetch(sieve.simd, hay, p);
            let (bytes, flagged, _) = reading.step::<false>(groups, p);
            let paired = u64::from(pairs_at(sieve, [bytes[0], bytes[1]], to - p));
            *mark = flagged;
            batch.2 |= u32::from(flagged | paired != 0) << k;
            asking.steps_flagged += usize::from(flagged != 0);
            p += LANES;
        }
        let mut before = std::mem::replace(&mut pending, batch);
        asking.drain::<CASED, false>(&reading, groups, &mut before, &mut found);
    }
    asking.drain::<CASED, false>(&reading, groups, &mut pending, &mut found);
    (asking.count, asking.flags, 0, asking.steps_flagged)
}

/// What [`byte_steps`] and [`noted_steps`] read their steps' flags with, and carry
/// from step to step of a storm's drop.
#[cfg(target_arch = "x86_64")]
struct Reading<'a> {
    sieve: &'a Sieve,
    vbmi: Vbmi,
    hay: &'a [u8],
    /// The call's end.
    to: usize,
    /// The indices that select byte `i + k` of a pair of registers (see [`step_bytes`]).
    ups: [__m512i; 3],
    storm: Option<(&'a StormTables, usize)>,
    /// The step's run ends after and before the keyword, for the next step's drop.
    carried: Carried,
    /// Flags a storm's drop cleared.
    dropped: usize,
}

#[cfg(target_arch = "x86_64")]
impl<'a> Reading<'a> {
    /// The call's reading of `hay` up to `to`, with a storm's tables and offset.
    #[inline(always)]
    fn new(
        sieve: &'a Sieve,
        vbmi: Vbmi,
        (hay, to): (&'a [u8], usize),
        storm: Option<(&'a StormTables, usize)>,
    ) -> Reading<'a> {
        // Byte `i` of `upk` selects byte `i + k` of a pair of registers (`vpermt2b`).
        // (Made here: loaded from a constant table in the slice's last step instead,
        // they left clean text 7 % slower in alternated builds, a difference of code
        // layout.)
        let up = |k: u8| bytemuck::cast::<[u8; 64], __m512i>(std::array::from_fn(|i| i as u8 + k));
        Reading {
            sieve,
            vbmi,
            hay,
            to,
            ups: [up(1), up(2), up(3)],
            storm,
            carried: Carried::default(),
            dropped: 0,
        }
    }

    /// The bytes of the step from `p` (see [`step_bytes`]), its flags, a storm's
    /// drops cleared, and its first four groups' flags.
    #[inline(always)]
    fn step<const STORM: bool>(
        &mut self,
        groups: &[ByteGroup],
        p: usize,
    ) -> ([__m512i; 4], u64, [__m512i; 4]) {
        let (sieve, vbmi, hay) = (self.sieve, self.vbmi, self.hay);
        let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
        let [raw, r1, r2, r3] = step_bytes(vbmi, hay, p, self.ups);
        let c = [
            classes(sieve, raw),
            classes(sieve, r1),
            classes(sieve, r2),
            classes(sieve, r3),
        ];
        let mut any = f._mm512_setzero_si512();
        // The first four groups' flags, for `byte_refine` (the built-in rules have four).
        let mut kept = [f._mm512_setzero_si512(); 4];
        for (g, t) in groups.iter().enumerate() {
            let flags = byte_flags(sieve, vbmi, t, c);
            if g < 4 {
                kept[g] = flags;
            }
            any = f._mm512_or_si512(any, flags);
        }
        let mut flagged = bw._mm512_test_epi8_mask(any, any) & keep_of(self.to - p);
        // A storm's drops first: what is left may not crowd the step.
        if let Some((storm, off)) = self.storm.filter(|_| STORM) {
            // The hits whose signatures the step flags start `off` bytes before
            // them (no drop for those that would start before the text).
            let drop = match p.checked_sub(off) {
                Some(q) if storm.whole(hay, q) => {
                    let first = match off {
                        0 => [raw, r1, r2, r3],
                        _ => std::array::from_fn(|j| load(&hay[q + j..])),
                    };
                    storm.drops(sieve, vbmi, (hay, q), first, &mut self.carried)
                }
                Some(q) => {
                    self.carried = Carried::default();
                    storm.edge_drops(sieve, vbmi, (hay, q))
                }
                None => 0,
            } & flagged;
            self.dropped += drop.count_ones() as usize;
            flagged &= !drop;
        }
        ([raw, r1, r2, r3], flagged, kept)
    }
}

/// What [`byte_steps`] and [`noted_steps`] carry from step to step of their handling
/// of flags, and what they found.
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
struct Asking {
    /// Steps with a few flags (fewer than `REFINE`) are asked their case while asking
    /// drops some (see `FewAsked`).
    few: FewAsked,
    spread: SpreadAsked,
    /// The first three bytes, lowercased, of the last place the key filter sorted out
    /// (see `KeyFilter`): no signature begins so.
    sorted_out: Option<[u8; 3]>,
    /// Signatures found, and positions looked up.
    count: usize,
    flags: usize,
    /// Steps read with a flag (after a storm's drop).
    steps_flagged: usize,
    /// In a storm part, the last words looked up in vain (see [`InVain`]).
    in_vain: InVain,
}

/// The last two words a storm part's lookups found no signature at (four bytes,
/// lowercased): a flag at a place that spells one again is dropped before it is
/// looked up, as a lookup is a function of those four bytes alone (see
/// [`Exact::look_up`]). The storm's drop clears the flags of its own keyword; a
/// look-alike of another's signature that each copy makes with what follows it is
/// left, and comes again at every copy so followed. In a storm of `password` and an
/// alphanumeric byte, ~3.6 flags a step were left, each looked up in vain: `dapa`
/// (Databricks' `dapi`; its first three bytes pass the key filter) and `ordz`, at the
/// copies followed by `a` and by `Z`; that storm now reads ~1.2x as fast.
#[cfg(target_arch = "x86_64")]
#[derive(Default)]
struct InVain {
    words: [Option<u32>; 2],
    /// Per word and byte: what a text byte is or-ed with (0x20 for a letter) and the
    /// byte, each in every byte of a `u32` (broadcast from memory, one load each).
    bytes: [[(u32, u32); 4]; 2],
    /// The slot the next word takes.
    next: usize,
    /// Asked while it drops some.
    asking: Backoff<6>,
}

/// The fewest flags of a storm part's step, left after its case and the key filter,
/// that ask [`InVain`] before they are looked up: one lookup costs less than its
/// compares (asked from one flag, the storms of `AZDO` 8 and 40 bytes apart, whose
/// steps with a flag mostly have one, read ~6 % slower).
const IN_VAIN_FEWEST: u32 = 2;

#[cfg(target_arch = "x86_64")]
impl InVain {
    /// The positions of a step (its bytes from each of its first four positions on)
    /// whose four bytes spell a word looked up in vain.
    #[inline(always)]
    fn places(&self, simd: V4, bytes: [__m512i; 4]) -> u64 {
        let (f, bw) = (simd.avx512f, simd.avx512bw);
        let mut places = 0;
        for (word, pats) in self.words.iter().zip(&self.bytes) {
            if word.is_none() {
                continue;
            }
            // Zero where the byte, its fold set, is the word's.
            let differ = |j: usize| {
                let (fold, c) = pats[j];
                let v = f._mm512_or_si512(bytes[j], f._mm512_set1_epi32(fold as i32));
                f._mm512_xor_si512(v, f._mm512_set1_epi32(c as i32))
            };
            let any = f._mm512_or_si512(
                f._mm512_or_si512(differ(0), differ(1)),
                f._mm512_or_si512(differ(2), differ(3)),
            );
            places |= bw._mm512_testn_epi8_mask(any, any);
        }
        places
    }

    /// Notes `word` (lowercased), whose lookup found nothing, in place of the older.
    #[inline(always)]
    fn note(&mut self, word: u32) {
        let every = |c: u8| u32::from(c) * 0x0101_0101;
        self.bytes[self.next] = word.to_le_bytes().map(|c| (every(fold_of(c)), every(c)));
        self.words[self.next] = Some(word);
        self.next ^= 1;
    }
}

#[cfg(target_arch = "x86_64")]
impl Asking {
    /// The steps noted in `noted` (where the first starts, each one's flags, a bit
    /// for each to handle), handled in order, their bytes read again; none is left.
    #[inline(always)]
    fn drain<const CASED: bool, const STORM: bool>(
        &mut self,
        reading: &Reading<'_>,
        groups: &[ByteGroup],
        noted: &mut (usize, [u64; BATCH], u32),
        found: &mut impl FnMut(u32, usize),
    ) {
        let (first, marks, ref mut has) = *noted;
        while *has != 0 {
            let k = has.trailing_zeros() as usize;
            *has &= *has - 1;
            let p = first + k * LANES;
            let bytes = step_bytes(reading.vbmi, reading.hay, p, reading.ups);
            self.handle::<CASED, STORM>(reading, groups, (p, bytes, None), marks[k], found);
        }
    }

    /// The step from `p` (its bytes `bytes`), whose flags are `flagged`: its two-byte
    /// keywords, and its flags asked their case, asked the buckets dealt another way,
    /// filtered and looked up.
    #[inline(always)]
    fn handle<const CASED: bool, const STORM: bool>(
        &mut self,
        reading: &Reading<'_>,
        groups: &[ByteGroup],
        (p, [raw, r1, r2, r3], kept): (usize, [__m512i; 4], Option<[__m512i; 4]>),
        mut flagged: u64,
        found: &mut impl FnMut(u32, usize),
    ) {
        let (sieve, vbmi, hay) = (reading.sieve, reading.vbmi, reading.hay);
        let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
        let c = [
            classes(sieve, raw),
            classes(sieve, r1),
            classes(sieve, r2),
            classes(sieve, r3),
        ];
        if CASED && flagged != 0 {
            // In a storm part, any flag the drop left is asked its case: where a
            // storm's copies meet they may spell a case-sensitive signature in the
            // other case (`AZDOa` then `AZDO` holds `OaA`, Airtable's `oaa`: a copy
            // in ten), each flag a lookup and a keyword compared in vain; the refine
            // costs the step a few lookups (there, of its flags' first two bytes
            // only: see `byte_refine`). Elsewhere a step with few flags is asked
            // while that pays (`daaa` and a random byte: `aaaa`, Twitter's 21 `A`s).
            let crowded = flagged.count_ones() as usize >= REFINE;
            if STORM || crowded || self.few.due() {
                let cased = sieve.bytes.as_ref().map_or(&[][..], |b| &b.cased[..]);
                // The first four groups' flags, where the step is not handled at once
                // read again (kept for every step noted, they cost clean text more).
                // (A `match`: a closure would not inline with the features.)
                let kept = match kept {
                    Some(kept) => kept,
                    None => {
                        let mut kept = [f._mm512_setzero_si512(); 4];
                        for (k, t) in kept.iter_mut().zip(groups) {
                            *k = byte_flags(sieve, vbmi, t, c);
                        }
                        kept
                    }
                };
                let bytes = [c, [raw, r1, r2, r3]];
                let asked = byte_refine::<STORM>(sieve, vbmi, (groups, cased), kept, bytes);
                if !STORM && !crowded {
                    self.few.answer(flagged & asked != flagged);
                }
                flagged &= asked;
            }
        }
        // A step with flags asks the buckets dealt another way (see `spread`); not
        // in a storm part, whose drop leaves few.
        let second = sieve.bytes.as_ref().map_or(&[][..], |b| &b.second[..]);
        if !STORM && flagged != 0 && !second.is_empty() && self.spread.due() {
            let mut any = f._mm512_setzero_si512();
            for t in second {
                any = f._mm512_or_si512(any, byte_flags(sieve, vbmi, t, c));
            }
            let kept = flagged & bw._mm512_test_epi8_mask(any, any);
            self.spread.answer(kept != flagged);
            flagged = kept;
        }
        self.count += pairs(sieve, [raw, r1], (p, reading.to - p), found);
        // Many flags: those whose words no key can be are not looked up (see
        // `KeyFilter`); each counts as flagged all the same.
        let left = flagged.count_ones();
        self.flags += left as usize;
        if STORM {
            if left >= STORM_FILTERED {
                flagged &= filter_step(sieve, [raw, r3]);
            }
        } else if left >= FILTERED {
            // A crowded step drops first the places that begin as the last one the
            // filter sorted out did: in a storm of a word both sets of buckets flag
            // (`AISA` and a random byte), all of them, the filter not called. (Not
            // in a storm part, whose flags the drop leaves are seldom that: asked
            // there, the storms of `sk-` and `AZDO` read ~5-8 % slower.)
            if let Some([a, b, c]) = self.sorted_out {
                let is = |v: __m512i, c: u8| {
                    let v = f._mm512_or_si512(v, f._mm512_set1_epi8(fold_of(c) as i8));
                    bw._mm512_cmpeq_epi8_mask(v, f._mm512_set1_epi8(c as i8))
                };
                flagged &= !(is(raw, a) & is(r1, b) & is(r2, c));
            }
            if flagged.count_ones() >= FILTERED {
                let pass = filter_step(sieve, [raw, r3]);
                let out = flagged & !pass;
                if out != 0 {
                    let word = lowercase(word_at(hay, p + out.trailing_zeros() as usize));
                    let [a, b, c, _] = word.to_le_bytes();
                    self.sorted_out = Some([a, b, c]);
                }
                flagged &= pass;
            }
        }
        if STORM && flagged.count_ones() >= IN_VAIN_FEWEST && self.in_vain.asking.due() {
            let places = self.in_vain.places(sieve.simd, [raw, r1, r2, r3]);
            self.in_vain.asking.answer(flagged & places != 0);
            flagged &= !places;
        }
        while flagged != 0 {
            let off = flagged.trailing_zeros() as usize;
            flagged &= flagged - 1;
            let n = sieve.exact.look_up(sieve.simd, hay, p + off, found);
            if STORM && n == 0 {
                let word = lowercase(word_at(hay, p + off));
                self.in_vain.note(word);
            }
            self.count += n;
        }
    }
}

/// The steps [`noted_steps`] reads before it handles those of the batch before.
const BATCH: usize = 16;

/// Positions at or past the call's end (`n` from the step's start) are not its.
#[inline(always)]
fn keep_of(n: usize) -> u64 {
    if n >= LANES {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The step's bytes from `p`: position `i` of the `k`th register holds the byte `k`
/// after the step's `i`th; past the slice's end, zeros (as in `steps`). `ups`: the
/// indices that select byte `i + k` of a pair of registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn step_bytes(vbmi: Vbmi, hay: &[u8], p: usize, ups: [__m512i; 3]) -> [__m512i; 4] {
    if p + LANES + WIDTH <= hay.len() {
        let bytes = &hay[p..p + LANES + WIDTH];
        [
            load(bytes),
            load(&bytes[1..]),
            load(&bytes[2..]),
            load(&bytes[3..]),
        ]
    } else {
        let f = vbmi.avx512f;
        let w = tail_words(&hay[p..]).map(|w| w as i64);
        let raw = f._mm512_set_epi64(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0]);
        let hi = f._mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, w[8]);
        [
            raw,
            vbmi.permute2(raw, ups[0], hi),
            vbmi.permute2(raw, ups[1], hi),
            vbmi.permute2(raw, ups[2], hi),
        ]
    }
}

/// The even and the odd positions of a step's 16-bit lanes that are a call's, `n`
/// positions of the step being its.
#[inline(always)]
fn pair_keeps(n: usize) -> (u32, u32) {
    let keep = |m: usize| match m {
        0..32 => (1u32 << m) - 1,
        _ => u32::MAX,
    };
    (keep(n.div_ceil(2)), keep(n / 2))
}

/// Whether the step from `p` (`n` positions of it the call's) holds a two-byte
/// keyword (see [`pairs`]), as a mask: non-zero where it does.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pairs_at(sieve: &Sieve, [raw, r1]: [__m512i; 2], n: usize) -> u32 {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let (even_keep, odd_keep) = pair_keeps(n);
    let mut any = 0;
    for &pair in &sieve.pairs {
        let want = f._mm512_set1_epi16(pair);
        any |= bw._mm512_cmpeq_epi16_mask(raw, want) & even_keep;
        any |= bw._mm512_cmpeq_epi16_mask(r1, want) & odd_keep;
    }
    any
}

/// A storm's keyword, and what drops its hits 64 positions at a time: where it occurs
/// (any ASCII case), a byte that ends the run its rules need after it comes within `n`
/// bytes after it, or one that ends the run they need before it within `back_n` bytes
/// before it, and the bytes right after and right before it are none that another
/// keyword starting at its signature would need, or none of those keywords occurs
/// there (see `prefilter::Dense::storm`, which proves that the hits dropped so cannot
/// match). Its flagged positions are cleared
/// before any is looked up: in a storm of `ghp_` and one random byte each, all of them.
#[derive(Clone, Debug)]
pub(crate) struct Storm {
    /// The keyword (up to [`STORM_WORD`] bytes), ASCII-lowercased: each byte compared
    /// with the text's with [`fold_of`] it set, in any case.
    pub word: [u8; STORM_WORD],
    pub len: usize,
    /// Where the keyword's signature starts in it: the flag of a hit at `at` lies at
    /// `at + off`, and a step's drops are computed from `off` bytes before it
    /// (`token`'s signature is `oken`). Everything else here is read from the
    /// keyword's start.
    pub off: usize,
    /// Bytes that end the run after the keyword (bit `b % 8` of byte `b / 8`), and how
    /// far after it one must come (read up to [`Storm::run_most`]; 0: no run is
    /// read).
    pub ends: [u8; 32],
    pub n: usize,
    /// The same for the first `narrow_n` bytes of that run, where they read fewer
    /// bytes than the whole run does (0: no such run; never without `ends`): a
    /// JWT's first 15 bytes after `eyJ` hold no dot, which its later ones may (in a
    /// storm of `eyJ` and a random byte, the copies whose whole run the class
    /// continues and whose first 15 bytes hold a dot are half of those left).
    pub narrow_ends: [u8; 32],
    pub narrow_n: usize,
    /// The same for the run before the keyword.
    pub back_ends: [u8; 32],
    pub back_n: usize,
    /// Bytes outside a class, and a length (at most [`Storm::run_most`]; 0: none): `cap_n`
    /// bytes right after the keyword none of which is in `cap_ends` end every path of
    /// its rules unmatched, as well (their gates' bounded run caps: see
    /// `opening::RunCap`). In a storm of `token` and an alphanumeric byte the run
    /// `quoted-key-value` reads is never ended by a byte outside it (`ends`), but
    /// goes on past the 32 bytes it may.
    pub cap_ends: [u8; 32],
    pub cap_n: usize,
    /// With the cap, the bytes right after the keyword on which every rule without
    /// one dies at once (all of them: every rule has one); and bytes there, and
    /// bytes right after those, on which each dies by the second byte. A hit is
    /// dropped by the cap only where the byte after its keyword is one of the first,
    /// or the two bytes after it are of the other two (after `secret`,
    /// `quoted-key-value` reads at most 32 bytes of `[A-Za-z0-9_.-]`, and
    /// `secret-assignment`, which has no cap, no `a`; `password-assignment` reads a
    /// digit after `password`, then no `a`, `Z` or digit).
    pub cap_first: [u8; 32],
    pub cap_then: Option<([u8; 32], [u8; 32])>,
    /// Bytes right after the keyword, and right before it, that keep a hit (another
    /// keyword may start there); all zero: none.
    pub after: [u8; 32],
    pub before: [u8; 32],
    /// Pairs of bytes right after the keyword that keep a hit (the next two bytes of
    /// a longer keyword that starts with it), ASCII-lowercased, compared in any case;
    /// at most [`PAIRS_AFTER`].
    pub after_pairs: Vec<[u8; 2]>,
    /// The keywords other than the storm's that a place kept by `after`, `before` or
    /// `after_pairs` may begin, each as the bytes a place must have for it to occur:
    /// each byte's offset from the place and the byte, ASCII-lowercased, compared in
    /// any case (see [`Storm::others_absent_one`]); at most [`OTHERS`] (none: such a
    /// place is kept whatever follows).
    pub others: Vec<Vec<(isize, u8)>>,
    /// The same in vector registers' form, made at the first scan (each scan made
    /// them afresh: 5 % of a storm's time).
    #[cfg(target_arch = "x86_64")]
    pub simd: std::sync::OnceLock<StormTables>,
}

/// The most pairs of bytes after a storm's keyword a step compares (see
/// [`Storm::after_pairs`]).
pub(crate) const PAIRS_AFTER: usize = 8;

/// The most other keywords a storm's kept places are compared with (see
/// [`Storm::others`]), and the most bytes before or after a place they read.
pub(crate) const OTHERS: usize = 16;
pub(crate) const OTHERS_REACH: isize = 64;

/// The most bytes after a storm's keyword its run is read for: with its keyword of up
/// to 8 bytes, what the bytes of a step and the next one hold (less after a longer
/// one: see [`Storm::run_most`]); and the most bytes before it.
pub(crate) const STORM_RUN: usize = LANES - 8;

/// The longest keyword a storm drop compares.
pub(crate) const STORM_WORD: usize = 16;

/// [`Storm::run_most`] of a keyword of `len` bytes.
pub(crate) fn run_most(len: usize) -> usize {
    STORM_RUN.min(LANES + 1 - len)
}

/// A [`Storm`]'s tables as vectors.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Debug)]
pub(crate) struct StormTables {
    word: [__m512i; STORM_WORD],
    fold: [__m512i; STORM_WORD],
    len: usize,
    /// The run after the keyword: the bytes that end it, and how far (none where no
    /// byte does: a lookup of each step's bytes saved).
    ahead: Option<(__m512i, usize)>,
    /// [`Storm::narrow_ends`], read only where `ahead` is.
    narrow: Option<(__m512i, usize)>,
    /// Whether a run is read after the keyword (ended or not).
    runs_on: bool,
    back: Option<(__m512i, usize)>,
    cap: Option<(__m512i, usize)>,
    /// [`Storm::cap_first`], where some byte is not in it, and [`Storm::cap_then`].
    cap_first: Option<__m512i>,
    cap_then: Option<(__m512i, __m512i)>,
    after: Option<__m512i>,
    before: Option<__m512i>,
    /// Per pair: its two bytes and the bits their compare sets (see [`fold_of`]);
    /// the first `pairs` are the storm's.
    after_pairs: [[__m512i; 4]; PAIRS_AFTER],
    pairs: usize,
    /// The pairs' first bytes and their second bytes, in either case, as bitmaps.
    pair_bytes: (__m512i, __m512i),
    /// [`Storm::others`]: per byte, its offset, the byte and its fold; and the least
    /// and most offsets.
    others: Vec<Vec<(isize, __m512i, __m512i)>>,
    reach: (isize, isize),
    /// [`Storm::edge_reads`].
    reads: (usize, usize),
    /// Byte `i`: `1 << (i % 8)`.
    bits: __m512i,
}

impl Storm {
    /// The most bytes after the keyword its runs are read for: [`STORM_RUN`], or less
    /// where the keyword is longer than 8 bytes (a step's bytes and the next one's
    /// hold the run after each of its 64 positions' keywords).
    pub(crate) fn run_most(&self) -> usize {
        run_most(self.len)
    }

    #[cfg(target_arch = "x86_64")]
    fn tables(&self) -> &StormTables {
        self.simd.get_or_init(|| self.make_tables())
    }

    #[cfg(target_arch = "x86_64")]
    #[cold]
    fn make_tables(&self) -> StormTables {
        let splat = |b: u8| bytemuck::cast::<[u8; 64], __m512i>([b; 64]);
        let table = |bits: &[u8; 32]| {
            let mut t = [0u8; 64];
            t[..32].copy_from_slice(bits);
            bytemuck::cast::<[u8; 64], __m512i>(t)
        };
        let some = |bits: &[u8; 32]| bits.iter().any(|&b| b != 0).then(|| table(bits));
        let run =
            |bits: &[u8; 32], n: usize, most: usize| (n > 0).then(|| (table(bits), n.min(most)));
        StormTables {
            word: self.word.map(splat),
            fold: self.word.map(|c| splat(fold_of(c))),
            len: self.len,
            ahead: run(&self.ends, self.n, self.run_most()).filter(|_| self.ends != [0; 32]),
            narrow: run(&self.narrow_ends, self.narrow_n, self.run_most()),
            runs_on: self.n > 0,
            back: run(&self.back_ends, self.back_n, STORM_RUN),
            cap: run(&self.cap_ends, self.cap_n, self.run_most()),
            cap_first: (self.cap_first != [u8::MAX; 32]).then(|| table(&self.cap_first)),
            cap_then: self
                .cap_then
                .map(|(group, then)| (table(&group), table(&then))),
            after: some(&self.after),
            before: some(&self.before),
            after_pairs: std::array::from_fn(|i| {
                let pair = self.after_pairs.get(i).copied().unwrap_or_default();
                let [a, b] = pair.map(splat);
                let [fa, fb] = pair.map(|c| splat(fold_of(c)));
                [a, fa, b, fb]
            }),
            pairs: self.after_pairs.len().min(PAIRS_AFTER),
            pair_bytes: {
                let (firsts, seconds) = self.pair_bytes();
                (table(&firsts), table(&seconds))
            },
            others: (self.others.iter())
                .map(|other| {
                    (other.iter())
                        .map(|&(at, c)| (at, splat(c), splat(fold_of(c))))
                        .collect()
                })
                .collect(),
            reach: self.reach(),
            reads: self.edge_reads(),
            bits: bytemuck::cast::<[u8; 64], __m512i>(std::array::from_fn(|i| 1 << (i % 8))),
        }
    }

    /// The positions of the step from `p` whose hit is dropped (see [`Storm`]),
    /// computed as [`StormTables::drops`] computes them, a byte at a time (tests).
    #[cfg(test)]
    pub(crate) fn drops_at(&self, hay: &[u8], p: usize) -> u64 {
        let (least, most) = self.reach();
        let p_ = p as isize;
        let whole = p_ + least >= 0 && p_ + most + LANES as isize <= hay.len() as isize;
        self.step_at(hay, p, |storm, hay, at| {
            storm.dies_one(hay, at)
                && (!storm.keeps_one(hay, at) || whole && storm.others_absent_one(hay, at))
        })
    }

    /// The positions of the step from `p` where the keyword's own hit cannot match,
    /// whether or not another keyword keeps the place (tests).
    #[cfg(test)]
    pub(crate) fn dies_at(&self, hay: &[u8], p: usize) -> u64 {
        self.step_at(hay, p, Storm::dies_one)
    }

    /// The positions of the step from `p` for which `one` holds, where the step
    /// holds every byte the drop reads (tests).
    #[cfg(test)]
    fn step_at(&self, hay: &[u8], p: usize, one: impl Fn(&Storm, &[u8], usize) -> bool) -> u64 {
        let before = self.before.iter().any(|&b| b != 0);
        if !whole_storm(hay, p, before, self.back_n > 0) {
            return 0;
        }
        (0..LANES)
            .filter(|&i| one(self, hay, p + i))
            .fold(0, |bits, i| bits | 1 << i)
    }

    /// The positions of the step from `p` whose hit the sieve's scan drops (see
    /// [`StormTables::drops`]): [`Storm::drops_at`] where the step holds every byte
    /// the drop reads, else each position whose own bytes read all lie in `hay`,
    /// its others compared (tests).
    #[cfg(test)]
    pub(crate) fn sieve_drops_at(&self, hay: &[u8], p: usize) -> u64 {
        let before = self.before.iter().any(|&b| b != 0);
        if whole_storm(hay, p, before, self.back_n > 0) {
            return self.drops_at(hay, p);
        }
        let (back, ahead) = self.edge_reads();
        (0..LANES)
            .map(|i| p + i)
            .filter(|&at| at >= back && at + ahead <= hay.len())
            .filter(|&at| self.drops_one(hay, at))
            .fold(0, |bits, at| bits | 1 << (at - p))
    }

    /// Whether the hit at `hay[at..]` may be dropped, all the bytes read there held:
    /// its own hit is dead, and nothing keeps the place or no other keyword occurs
    /// there (tests; a scan's drop compares the others only in a step that holds all
    /// their bytes: see [`Storm::drops_at`]).
    #[cfg(test)]
    pub(crate) fn drops_one(&self, hay: &[u8], at: usize) -> bool {
        self.dies_one(hay, at) && (!self.keeps_one(hay, at) || self.others_absent_one(hay, at))
    }

    /// Whether the bytes right after or right before `hay[at..]` keep the place for
    /// another keyword (tests).
    #[cfg(test)]
    fn keeps_one(&self, hay: &[u8], at: usize) -> bool {
        let has = |bits: &[u8; 32], b: u8| bits[usize::from(b / 8)] >> (b % 8) & 1 == 1;
        let (next, second) = (hay.get(at + self.len), hay.get(at + self.len + 1));
        let after = next.is_some_and(|&next| has(&self.after, next))
            || (self.after_pairs.iter()).any(|&[a, b]| {
                next.is_some_and(|&next| next | fold_of(a) == a)
                    && second.is_some_and(|&second| second | fold_of(b) == b)
            });
        let before = at > 0 && has(&self.before, hay[at - 1]);
        after || before
    }

    /// Whether there are [`Storm::others`] and none occurs at `hay[at..]` (one with a
    /// byte outside `hay` may) (tests).
    #[cfg(test)]
    fn others_absent_one(&self, hay: &[u8], at: usize) -> bool {
        let byte = |off: isize| hay.get(at.checked_add_signed(off)?).copied();
        !self.others.is_empty()
            && !(self.others.iter()).any(|other| {
                (other.iter()).all(|&(off, c)| byte(off).is_none_or(|b| b | fold_of(c) == c))
            })
    }

    /// The first bytes of the pairs after the keyword, and their second bytes, in
    /// either case, as bitmaps (bit `b % 8` of byte `b / 8`).
    pub(crate) fn pair_bytes(&self) -> ([u8; 32], [u8; 32]) {
        let (mut firsts, mut seconds) = ([0u8; 32], [0u8; 32]);
        for pair in self.after_pairs.iter().take(PAIRS_AFTER) {
            for (set, &b) in [&mut firsts, &mut seconds].into_iter().zip(pair) {
                for c in [b, b.to_ascii_uppercase()] {
                    set[usize::from(c / 8)] |= 1 << (c % 8);
                }
            }
        }
        (firsts, seconds)
    }

    /// How many bytes before a position, and from it on, the drop may read there: the
    /// runs, the bytes after and before the keyword, the others' bytes (see
    /// [`StormTables::edge_drops`]).
    pub(crate) fn edge_reads(&self) -> (usize, usize) {
        let has = |bits: &[u8; 32]| bits.iter().any(|&b| b != 0);
        let (least, most) = self.reach();
        let others = !self.others.is_empty();
        let back = [self.back_n.min(STORM_RUN), usize::from(has(&self.before))];
        let back = back
            .into_iter()
            .chain(others.then_some(least.unsigned_abs()));
        let ahead = [
            self.n.min(self.run_most()),
            self.cap_n.min(self.run_most()),
            2 * usize::from(self.cap_n > 0 && self.cap_then.is_some()),
            usize::from(has(&self.after)),
        ];
        let ahead = (ahead.into_iter())
            .chain((!self.after_pairs.is_empty()).then_some(2))
            .map(|n| self.len + n)
            .chain(others.then_some(most as usize + 1));
        (back.max().unwrap_or(0), ahead.max().unwrap_or(0))
    }

    /// The least and most offsets of [`Storm::others`]' bytes (0 with none).
    fn reach(&self) -> (isize, isize) {
        (self.others.iter().flatten()).fold((0, 0), |(least, most), &(at, _)| {
            (least.min(at), most.max(at))
        })
    }

    /// Whether the keyword's own hit at `hay[at..]` cannot match: it occurs there,
    /// the run after it ends too soon or runs past its cap, and the run before it
    /// ends too soon (tests).
    #[cfg(test)]
    pub(crate) fn dies_one(&self, hay: &[u8], at: usize) -> bool {
        let has = |bits: &[u8; 32], b: u8| bits[usize::from(b / 8)] >> (b % 8) & 1 == 1;
        let n = self.n.min(self.run_most());
        let back_n = self.back_n.min(STORM_RUN).min(at);
        let word = &self.word;
        let occurs = (0..self.len).all(|j| hay[at + j] | fold_of(word[j]) == word[j]);
        let ends = |j: usize| has(&self.ends, hay[at + self.len + j]);
        let (next, second) = (hay[at + self.len], hay.get(at + self.len + 1));
        let then = self.cap_then.is_some_and(|(group, then)| {
            has(&group, next) && second.is_some_and(|&b| has(&then, b))
        });
        let capped = self.cap_n > 0
            && (0..self.cap_n).all(|j| !has(&self.cap_ends, hay[at + self.len + j]))
            && (has(&self.cap_first, next) || then);
        let narrow =
            (0..self.narrow_n.min(n)).any(|j| has(&self.narrow_ends, hay[at + self.len + j]));
        let ahead = self.n == 0 || (0..n).any(ends) || narrow || capped;
        let back = self.back_n == 0 || (1..=back_n).any(|j| has(&self.back_ends, hay[at - j]));
        occurs && ahead && back
    }
}

/// Bit `i`: a bit of `ends` set at `p + len + i` or in the `n - 1` after it, for a
/// storm's run of `n` after its keyword of `len` bytes (at most [`STORM_RUN`] and 8;
/// `ends` holds the bits from `p` on): [`ahead_window`], but all set at once where
/// every window of `n` holds a bit (see [`every_window`]).
#[inline(always)]
pub(crate) fn ahead_bits(ends: u128, n: usize, len: usize) -> u64 {
    if every_window(ends, n) {
        return u64::MAX;
    }
    (ahead_window(ends, n) >> len) as u64
}

/// Bit `i`: a bit of `ends` set at `63 + i` or in the `n - 1` before it (`n` at most
/// [`STORM_RUN`]): [`back_window`], but all set at once where every window of `n`
/// holds a bit.
#[inline(always)]
pub(crate) fn back_bits(ends: u128, n: usize) -> u64 {
    if every_window(ends, n) {
        return u64::MAX;
    }
    (back_window(ends, n) >> (LANES - 1)) as u64
}

/// Whether every span of `n` bits that lies in `ends` holds a set bit because every
/// aligned 16 bits do (for `n` of 31 or more; 8 bits for 15 or more), or, for `n` of
/// 47 or more, no two aligned 16 bits in a row are all zero: a span that long holds
/// one aligned 16 (or 8) bits whole, or two in a row. In a storm of a keyword and a
/// random byte the runs' ends are that dense, and the doubling's chain of shifts is a
/// tenth of a step. (With every aligned 16 bits asked for an end whatever `n`, a
/// storm of `AZDO` and a random byte, whose run before the keyword is read for 56
/// bytes, took the chain in 38 % of its windows; now in 2 %, and it reads ~1.1x as
/// fast. Asked apart, each lane's zero computed exactly, the storms whose windows
/// every aligned 16 bits answer read ~2 % slower; asked of `ends | ends >> 16`, no
/// slower.)
#[inline(always)]
fn every_window(ends: u128, n: usize) -> bool {
    // For `n` of 47 or more, a lane of `ends | ends >> 16` is zero where two aligned
    // 16 bits in a row are.
    let ends = if n >= 47 { ends | ends >> 16 } else { ends };
    let (lo, hi) = (ends as u64, (ends >> 64) as u64);
    // Some lane of `x` is zero (the lanes' high bits in `high`), exactly.
    let zero_lane = |x: u64, ones: u64, high: u64| x.wrapping_sub(ones) & !x & high != 0;
    let lanes = match n {
        31.. => (0x0001_0001_0001_0001, 0x8000_8000_8000_8000),
        15.. => (0x0101_0101_0101_0101, 0x8080_8080_8080_8080),
        _ => return false,
    };
    !zero_lane(lo, lanes.0, lanes.1) && !zero_lane(hi, lanes.0, lanes.1)
}

/// Bit `i`: a bit of `ends` set at `i` or in the `n - 1` after it (`n` 1 to 127),
/// by doubling spans.
#[inline(always)]
pub(crate) fn ahead_window(ends: u128, n: usize) -> u128 {
    debug_assert!((1..128).contains(&n));
    // In two words: a shift of `u128` by a count not known when compiled is a
    // double-width shift and a select, and in a storm's drop the doubling's chain of
    // them had been a third of its time (`AZDO` forty bytes apart).
    let shr = |(lo, hi): (u64, u64), k: usize| (lo >> k | hi << (63 - k) << 1, hi >> k);
    let mut window = (ends as u64, (ends >> 64) as u64);
    let mut k = 1;
    while 2 * k <= n {
        let (lo, hi) = shr(window, k);
        window = (window.0 | lo, window.1 | hi);
        k *= 2;
    }
    let (lo, hi) = shr(window, n - k);
    u128::from(window.0 | lo) | u128::from(window.1 | hi) << 64
}

/// Bit `i`: a bit of `ends` set at `i` or in the `n - 1` before it (`n` 1 to 127).
#[inline(always)]
pub(crate) fn back_window(ends: u128, n: usize) -> u128 {
    debug_assert!((1..128).contains(&n));
    // In two words, as [`ahead_window`].
    let shl = |(lo, hi): (u64, u64), k: usize| (lo << k, hi << k | lo >> (63 - k) >> 1);
    let mut window = (ends as u64, (ends >> 64) as u64);
    let mut k = 1;
    while 2 * k <= n {
        let (lo, hi) = shl(window, k);
        window = (window.0 | lo, window.1 | hi);
        k *= 2;
    }
    let (lo, hi) = shl(window, n - k);
    u128::from(window.0 | lo) | u128::from(window.1 | hi) << 64
}

/// Tests: `units` as one text, each a spelling of `ghp_` (by index: as written, in
/// capitals, mixed, one byte short) and the bytes after it.
#[cfg(test)]
pub(crate) fn ghp_units(units: &[(String, usize)]) -> Vec<u8> {
    let spell = ["ghp_", "GHP_", "gHp_", "ghp"];
    (units.iter())
        .flat_map(|(rest, k)| [spell[*k].as_bytes(), rest.as_bytes()].concat())
        .collect()
}

/// Tests: a storm drop of `ghp_` whose runs after and before it are `n` and
/// `back_n` bytes, with `x` after it and `$` before it keeping a hit where `keeps`
/// says, and three pairs after it.
#[cfg(test)]
pub(crate) fn ghp_storm((n, back_n): (usize, usize), keeps: (bool, bool)) -> Storm {
    let class = |on: bool, bytes: &[u8]| {
        let mut bits = [0u8; 32];
        for &b in bytes.iter().filter(|_| on) {
            bits[usize::from(b / 8)] |= 1 << (b % 8);
        }
        bits
    };
    Storm {
        word: *b"ghp_\0\0\0\0\0\0\0\0\0\0\0\0",
        len: 4,
        off: 0,
        ends: class(true, b"_:/$-. @"),
        n,
        narrow_ends: [0; 32],
        narrow_n: 0,
        back_ends: class(true, b":/ @"),
        back_n,
        cap_ends: [0; 32],
        cap_n: 0,
        cap_first: [u8::MAX; 32],
        cap_then: None,
        after: class(keeps.0, b"x"),
        before: class(keeps.1, b"$"),
        after_pairs: vec![*b"ab", *b"_:", *b"9z"],
        others: Vec::new(),
        #[cfg(target_arch = "x86_64")]
        simd: Default::default(),
    }
}

/// Tests: `storm` with a cap of `n` bytes after its keyword (0: none) of a class of
/// every byte but ` ` and `@` (`ghp_units` makes runs of it up to ~100 bytes long),
/// and only `@` ending the run after it;
/// with `first`, only where a lowercase letter or a digit follows the keyword, or a
/// capital letter and then a lowercase one.
#[cfg(test)]
pub(crate) fn with_cap(mut storm: Storm, n: usize, first: bool) -> Storm {
    let set = |bytes: &mut dyn Iterator<Item = u8>| {
        let mut bits = [0u8; 32];
        for b in bytes {
            bits[usize::from(b / 8)] |= 1 << (b % 8);
        }
        bits
    };
    storm.cap_ends = set(&mut b" @".iter().copied());
    storm.cap_n = n;
    if n > 0 {
        // The run's ends rarer than the storm's own (`_` in every copy of `ghp_`):
        // the cap decides more hits.
        storm.ends = set(&mut b"@".iter().copied());
    }
    if first {
        storm.cap_first = set(&mut (b'a'..=b'z').chain(b'0'..=b'9'));
        // Or a capital letter, then a lowercase one.
        storm.cap_then = Some((set(&mut (b'A'..=b'Z')), set(&mut (b'a'..=b'z'))));
    }
    storm
}

/// Tests: `storm` with a narrower run of `n` bytes after its keyword (see
/// [`Storm::narrow_ends`]; 0 or a storm with no run after it: none), ended also by
/// `-` and `.` (bytes of `ghp_units`' runs) and by lowercase letters from `p` on.
#[cfg(test)]
pub(crate) fn with_narrow(mut storm: Storm, n: usize) -> Storm {
    if storm.n == 0 || storm.ends == [0; 32] {
        return storm;
    }
    storm.narrow_ends = storm.ends;
    for b in [b'-', b'.'].into_iter().chain(b'p'..=b'z') {
        storm.narrow_ends[usize::from(b / 8)] |= 1 << (b % 8);
    }
    storm.narrow_n = n.min(storm.n);
    storm
}

/// Tests: keywords that the places [`ghp_storm`] keeps (an `x` after, a `$` before,
/// its pairs after) may begin, as [`Storm::others`]: `ghp_x.`, `a$ghp_` (its `a` two
/// bytes before), `ghp_ab`, `ghp__:` and `ghp_9z` (some bytes left out: a keyword
/// compared in part is kept where its part occurs).
#[cfg(test)]
pub(crate) fn ghp_others() -> Vec<Vec<(isize, u8)>> {
    let at = |bytes: &[(isize, u8)]| bytes.to_vec();
    vec![
        at(&[(4, b'x'), (5, b'.'), (0, b'g'), (3, b'_')]),
        at(&[(-1, b'$'), (-2, b'a'), (1, b'h')]),
        at(&[(4, b'a'), (5, b'b')]),
        at(&[(4, b'_'), (5, b':')]),
        at(&[(4, b'9'), (5, b'z')]),
    ]
}

/// What a storm's compare sets in a byte of text before comparing it with lowercase
/// `c`: 0x20 where `c` is a letter, so that both cases compare equal.
pub(crate) fn fold_of(c: u8) -> u8 {
    if c.is_ascii_lowercase() {
        0x20
    } else {
        0
    }
}

#[cfg(target_arch = "x86_64")]
/// What a step's storm drop found of the next step's bytes: where that step starts,
/// and which of its bytes end the run after the keyword and the run before it.
#[derive(Clone, Copy, Default)]
struct Carried {
    at: Option<usize>,
    ahead: u64,
    back: u64,
    /// The bytes outside the cap's class, where the step read them.
    cap: Option<u64>,
    /// The bytes that end the narrower run (see [`Storm::narrow_ends`]), where read.
    narrow: Option<u64>,
}

/// The bytes around a step that [`StormTables::edge_drops`] copies: the step before,
/// and as many after the step's start as [`whole_storm`] asks (two steps and 8), with
/// the others' reach past them.
#[cfg(target_arch = "x86_64")]
const EDGE_COPY: usize = LANES + 2 * LANES + 8 + OTHERS_REACH as usize + LANES;

/// Whether the step from `p` holds every byte a [`Storm`] reads: the step's bytes and
/// the next step's, the keyword's length past them, with `before` the byte before,
/// and with `back` the step before.
fn whole_storm(hay: &[u8], p: usize, before: bool, back: bool) -> bool {
    p + 2 * LANES + 8 <= hay.len() && (!before || p > 0) && (!back || p >= LANES)
}

#[cfg(target_arch = "x86_64")]
impl StormTables {
    /// Whether the step from `p` of `hay` holds every byte [`StormTables::drops`]
    /// reads (see [`whole_storm`]).
    #[inline(always)]
    fn whole(&self, hay: &[u8], p: usize) -> bool {
        whole_storm(hay, p, self.before.is_some(), self.back.is_some())
    }

    /// [`StormTables::drops`] of a step that does not hold every byte it reads (a
    /// slice's first step and its last two or three): computed on a copy of the bytes
    /// around it, zeros past the slice, and kept only at the positions whose every
    /// byte read lies in the slice (see [`Storm::edge_reads`]). Each had kept its
    /// places: at 64 KiB, half the lookups left in a storm of `sk-` and a random byte.
    /// Out of the step loop, and so with the CPU's features enabled again: without
    /// them, each intrinsic of the drop was a call (146 of them).
    #[cold]
    #[inline(never)]
    fn edge_drops(&self, sieve: &Sieve, vbmi: Vbmi, at: (&[u8], usize)) -> u64 {
        struct Edge<'a> {
            storm: &'a StormTables,
            sieve: &'a Sieve,
            vbmi: Vbmi,
            at: (&'a [u8], usize),
        }
        impl pulp::NullaryFnOnce for Edge<'_> {
            type Output = u64;
            #[inline(always)]
            fn call(self) -> u64 {
                self.storm.edge_drops_here(self.sieve, self.vbmi, self.at)
            }
        }
        vbmi.vectorize(Edge {
            storm: self,
            sieve,
            vbmi,
            at,
        })
    }

    /// [`StormTables::edge_drops`]' work, inlined where the features are enabled.
    #[inline(always)]
    fn edge_drops_here(&self, sieve: &Sieve, vbmi: Vbmi, (hay, p): (&[u8], usize)) -> u64 {
        let (before, after) = self.reads;
        let valid = (0..LANES)
            .filter(|&i| p + i >= before && p + i + after <= hay.len())
            .fold(0u64, |bits, i| bits | 1 << i);
        if valid == 0 {
            return 0;
        }
        // `hay[p - LANES..]` at 0 (zeros before the slice), so the step lies at `LANES`.
        let mut copy = [0u8; EDGE_COPY];
        let from = p.saturating_sub(LANES);
        let to = hay.len().min(p + EDGE_COPY - LANES);
        copy[LANES - (p - from)..LANES + (to - p)].copy_from_slice(&hay[from..to]);
        let first = std::array::from_fn(|j| load(&copy[LANES + j..]));
        let at = (&copy[..], LANES);
        valid & self.drops(sieve, vbmi, at, first, &mut Carried::default())
    }

    /// The positions of the step from `p` of `hay` whose hit is dropped, as bits, where
    /// the step holds every byte this reads (see [`StormTables::whole`]; else
    /// [`StormTables::edge_drops`]). `first` holds the step's bytes from each of its
    /// first four positions on (the sieve's own loads); `carried`, what the step before
    /// found of this one's bytes (updated for the next).
    #[inline(always)]
    fn drops(
        &self,
        sieve: &Sieve,
        vbmi: Vbmi,
        (hay, p): (&[u8], usize),
        first: [__m512i; 4],
        carried: &mut Carried,
    ) -> u64 {
        let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
        let at = |k: usize| load(&hay[k..]);
        // Bytes of `v` in a bitmap `table`: its byte `b / 8` looked up, then its bit.
        let of = |v: __m512i, table: __m512i| {
            let idx = f._mm512_and_si512(bw._mm512_srli_epi16::<3>(v), f._mm512_set1_epi8(31));
            bw._mm512_test_epi8_mask(vbmi.permute(idx, table), vbmi.permute(v, self.bits))
        };
        let mut occurs = u64::MAX;
        for j in 0..self.len {
            let v = first.get(j).copied().unwrap_or_else(|| at(p + j));
            let v = f._mm512_or_si512(v, self.fold[j]);
            occurs &= bw._mm512_cmpeq_epi8_mask(v, self.word[j]);
        }
        // This step's run ends, as the step before found them where it did.
        let (ahead_here, back_here, cap_here, narrow_here) = match *carried {
            Carried {
                at: Some(at),
                ahead,
                back,
                cap,
                narrow,
            } if at == p => (Some(ahead), Some(back), cap, narrow),
            _ => (None, None, None, None),
        };
        *carried = Carried {
            at: Some(p + LANES),
            ..Carried::default()
        };
        let mut drops = occurs;
        // The hits whose run after the keyword goes past its cap, where the bytes
        // right after it kill every rule without one (see [`Storm::cap_first`]).
        // Written out where it is asked by this macro: as a closure or a method
        // call, it left the storms of `sk-`, which never read a cap, ~3-5 % slower
        // (and as a closure, word storms ~4x slower: it did not inline).
        macro_rules! capped {
            ($outside:expr, $n:expr, $asked:expr) => {{
                let here = cap_here.unwrap_or_else(|| of(first[0], $outside));
                let next = of(at(p + LANES), $outside);
                carried.cap = Some(next);
                let outside = u128::from(here) | u128::from(next) << 64;
                // (None outside the class in the two steps, as in a word storm: all
                // capped, no windows doubled.)
                let mut capped = match outside {
                    0 => u64::MAX,
                    _ => !ahead_bits(outside, $n, self.len),
                };
                // The bytes after the keyword are looked up where they answer for a
                // hit still asked (in a word storm of `secret` or `token`, the
                // second lookups had been made at every step for places no copy
                // starts at).
                if let Some(first) = self.cap_first.filter(|_| capped & $asked != 0) {
                    let next = at(p + self.len);
                    let mut kills = of(next, first);
                    let asked = capped & $asked & !kills;
                    if let Some((group, then)) = self.cap_then.filter(|_| asked != 0) {
                        kills |= of(next, group) & of(at(p + self.len + 1), then);
                    }
                    capped &= kills;
                }
                capped
            }};
        }
        if let Some((ends, n)) = self.ahead {
            // Bit `i`: a byte that ends the run at `p + i` or in the `n` bytes from it.
            let here = ahead_here.unwrap_or_else(|| of(first[0], ends));
            let next = of(at(p + LANES), ends);
            carried.ahead = next;
            let ends = u128::from(here) | u128::from(next) << 64;
            let mut dies = ahead_bits(ends, n, self.len);
            // Those it leaves, whether the narrower run's ends come within it.
            if let Some((ends, n)) = self.narrow.filter(|_| drops & !dies != 0) {
                let here = narrow_here.unwrap_or_else(|| of(first[0], ends));
                let next = of(at(p + LANES), ends);
                carried.narrow = Some(next);
                dies |= ahead_bits(u128::from(here) | u128::from(next) << 64, n, self.len);
            }
            // The hits the run's ends leave are asked whether their run goes past
            // its cap (all of them in a storm of `token` and an alphanumeric byte;
            // in most storms, none).
            if let Some((outside, n)) = self.cap.filter(|_| drops & !dies != 0) {
                dies |= capped!(outside, n, drops & !dies);
            }
            drops &= dies;
        } else if self.runs_on {
            // A run no byte ends (after `token`): only its cap drops a hit.
            drops &= match self.cap {
                Some((outside, n)) => capped!(outside, n, drops),
                None => 0,
            };
        }
        if let Some((ends, n)) = self.back {
            // Bit `j`: a byte that ends the run at `p - 64 + j` or in the `n` bytes
            // before it; bit `63 + i`, in the `n` bytes before `p + i`.
            let before = back_here.unwrap_or_else(|| of(at(p - LANES), ends));
            let here = of(first[0], ends);
            carried.back = here;
            let ends = u128::from(before) | u128::from(here) << 64;
            drops &= back_bits(ends, n);
        }
        // The keyword's own hit is dead here: what follows keeps a place for others.
        let dead = drops;
        if let Some(after) = self.after {
            drops &= !of(at(p + self.len), after);
        }
        // The pairs are compared only where the two bytes may be one, the second
        // byte looked up first: in a storm of `sk-` and a random byte the next
        // copy's `s` comes second, in one of `AZDO` its `A`, and the one lookup
        // decides (two pairs compared in every step, as `AZDO`'s were, and the first
        // bytes looked up first, as `sk-`'s, left the sparse storms 4-8 % slower).
        if self.pairs > 0 {
            let (next, second) = (at(p + self.len), at(p + self.len + 1));
            let (firsts, seconds) = self.pair_bytes;
            let may = drops & of(second, seconds);
            if may != 0 && may & of(next, firsts) != 0 {
                for &[a, fa, b, fb] in &self.after_pairs[..self.pairs] {
                    let first = bw._mm512_cmpeq_epi8_mask(f._mm512_or_si512(next, fa), a);
                    let then = bw._mm512_cmpeq_epi8_mask(f._mm512_or_si512(second, fb), b);
                    drops &= !(first & then);
                }
            }
        }
        if let Some(before) = self.before {
            drops &= !of(at(p - 1), before);
        }
        // Places kept for other keywords where none occurs are dropped: in a storm
        // of `eyJ` and a random byte, a third of its places were kept (`eyJ0` and the
        // next copy's `e` may begin TeamCity's `eyJ0eXAi…`; `.eyJ` may end Shopify's
        // `sk.eyJ`), each a lookup and its gates.
        let kept = dead & !drops;
        let (least, most) = self.reach;
        let p = p as isize;
        let whole = p + least >= 0 && p + most + LANES as isize <= hay.len() as isize;
        if kept != 0 && !self.others.is_empty() && whole {
            let mut found = 0;
            for other in &self.others {
                let mut here = kept;
                for &(offset, c, fold) in other {
                    let v = f._mm512_or_si512(at((p + offset) as usize), fold);
                    here &= bw._mm512_cmpeq_epi8_mask(v, c);
                    if here == 0 {
                        break;
                    }
                }
                found |= here;
                if found == kept {
                    break;
                }
            }
            drops |= kept & !found;
        }
        drops
    }
}

/// The multiplier of [`KeyFilter`]'s hashes (odd, fixed: the same bitmaps every time).
const FILTER_MULTIPLIER: u32 = 0x9E37_79B1;

#[cfg(target_arch = "x86_64")]
impl KeyFilter {
    fn new(exact: &Exact) -> KeyFilter {
        let windows = std::array::from_fn(|k| {
            let index: [u8; 64] = std::array::from_fn(|i| {
                // Byte `i % 4` of position `16k + i / 4`: byte `j` of the step, read
                // from the first register below 64, from the second (three on) above
                // (the fourth byte is cleared after).
                let j = 16 * k + i / 4 + i % 4;
                if j < LANES {
                    j as u8
                } else {
                    (LANES + j - 3) as u8
                }
            });
            bytemuck::cast::<[u8; 64], __m512i>(index)
        });
        let mut bits = [[0u8; 128]; 2];
        for (keys, sigs) in exact.keys.iter().zip(&exact.sigs) {
            for (&key, _) in keys.iter().zip(sigs).filter(|&(_, &sig)| sig != EMPTY) {
                for (map, h) in bits.iter_mut().zip(key_hashes(key & 0x00ff_ffff)) {
                    map[h / 8] |= 1 << (h % 8);
                }
            }
        }
        let half = |map: &[u8; 128], h: usize| {
            let mut a = [0u8; 64];
            a.copy_from_slice(&map[64 * h..64 * h + 64]);
            bytemuck::cast::<[u8; 64], __m512i>(a)
        };
        KeyFilter {
            windows,
            maps: bits.map(|map| (half(&map, 0), half(&map, 1))),
        }
    }
}

/// The bits of [`KeyFilter`]'s two bitmaps for `word` (ten bits each of its product).
fn key_hashes(word: u32) -> [usize; 2] {
    let product = word.wrapping_mul(FILTER_MULTIPLIER);
    [(product >> 22) as usize, (product >> 12) as usize & 1023]
}

/// [`may_hold`], out of the step loop: its constants and the loop's tables do not fit
/// in the registers together (inlined, the loop read every input ~3-5 % slower, the
/// filter never asked on most).
#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn filter_step(sieve: &Sieve, [raw, r3]: [__m512i; 2]) -> u64 {
    #[cfg(test)]
    FILTER_STEPS.with(|n| n.set(n.get() + 1));
    struct Step<'a> {
        sieve: &'a Sieve,
        vbmi: Vbmi,
        filter: &'a KeyFilter,
        bytes: [__m512i; 2],
    }
    impl pulp::NullaryFnOnce for Step<'_> {
        type Output = u64;
        #[inline(always)]
        fn call(self) -> u64 {
            let [raw, r3] = self.bytes;
            may_hold(self.sieve, self.vbmi, self.filter, (raw, r3))
        }
    }
    let Some(bytes) = &sieve.bytes else {
        return u64::MAX;
    };
    bytes.simd.vectorize(Step {
        sieve,
        vbmi: bytes.simd,
        filter: &bytes.filter,
        bytes: [raw, r3],
    })
}

/// Which positions of the step whose bytes are `raw` (and `r3`, those from three on)
/// may hold a signature by [`KeyFilter`]: each one whose first three bytes, lowercased,
/// set a bit in both bitmaps. Every position that holds one does.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn may_hold(sieve: &Sieve, vbmi: Vbmi, filter: &KeyFilter, (raw, r3): (__m512i, __m512i)) -> u64 {
    let f = sieve.simd.avx512f;
    let (multiplier, three, low, seven, one, ten) = (
        f._mm512_set1_epi32(FILTER_MULTIPLIER as i32),
        f._mm512_set1_epi32(0x00ff_ffff),
        f._mm512_set1_epi32(0xff),
        f._mm512_set1_epi32(7),
        f._mm512_set1_epi32(1),
        f._mm512_set1_epi32(1023),
    );
    let [(lo1, hi1), (lo2, hi2)] = filter.maps;
    let mut pass = 0u64;
    for (k, &window) in filter.windows.iter().enumerate() {
        let word = f._mm512_and_si512(vbmi.permute2(raw, window, r3), three);
        let product = f._mm512_mullo_epi32(lowercase_lanes(sieve, word), multiplier);
        let h1 = f._mm512_srli_epi32::<22>(product);
        let h2 = f._mm512_and_si512(f._mm512_srli_epi32::<12>(product), ten);
        // The byte of each bit in each lane's low byte (`vpermt2b` reads seven bits),
        // shifted down to it. (Written out: a closure would not inline with the
        // feature.)
        let b1 = vbmi.permute2(lo1, f._mm512_srli_epi32::<3>(h1), hi1);
        let b2 = vbmi.permute2(lo2, f._mm512_srli_epi32::<3>(h2), hi2);
        let b1 = f._mm512_srlv_epi32(f._mm512_and_si512(b1, low), f._mm512_and_si512(h1, seven));
        let b2 = f._mm512_srlv_epi32(f._mm512_and_si512(b2, low), f._mm512_and_si512(h2, seven));
        let both = f._mm512_and_si512(b1, b2);
        pass |= u64::from(f._mm512_test_epi32_mask(both, one)) << (16 * k);
    }
    pass
}

/// [`lowercase`] of each 32-bit lane (no carry crosses a byte: each byte's low seven
/// bits plus 0x3f stay under 0x100).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lowercase_lanes(sieve: &Sieve, w: __m512i) -> __m512i {
    // (Constants written out: a closure would not inline with the feature.)
    let f = sieve.simd.avx512f;
    let low = f._mm512_and_si512(w, f._mm512_set1_epi32(0x7f7f_7f7f));
    let upper = f._mm512_xor_si512(
        f._mm512_add_epi32(low, f._mm512_set1_epi32(0x3f3f_3f3f)),
        f._mm512_add_epi32(low, f._mm512_set1_epi32(0x2525_2525)),
    );
    let high = f._mm512_set1_epi32(0x8080_8080_u32 as i32);
    let upper = f._mm512_and_si512(f._mm512_andnot_si512(w, upper), high);
    f._mm512_or_si512(w, f._mm512_srli_epi32::<2>(upper))
}

/// A group of eight buckets' flags for the 64 positions of a step, its tables `t`
/// looked up by `idx` (place `k` by the bytes from `k` on).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn byte_flags(sieve: &Sieve, vbmi: Vbmi, t: &ByteGroup, idx: [__m512i; WIDTH]) -> __m512i {
    let f = sieve.simd.avx512f;
    let and = |x, y| f._mm512_and_si512(x, y);
    let look = |place: usize| vbmi.permute(idx[place], t[place]);
    and(and(look(0), look(1)), and(look(2), look(3)))
}

/// [`refine`] by the byte tables: which positions of a step a case-sensitive
/// signature's case also allows, its bytes as written (`raw`) looked up in the groups'
/// `cased` tables (`vpermb` reads their low six bits). `kept` holds the first four
/// groups' flags by `classes`; `groups` is a step's own (in registers where there are
/// four: indexed by a constant once inlined, `kept` stays in registers too).
///
/// With `FIRST_TWO` (a storm part's steps) only a position's first two bytes are
/// asked, half the lookups: the flags a storm's drop leaves are where its copies meet
/// (`-ask` in a storm of `sk-` and a random byte, `aZsk` with two), and in the storms
/// of `tests/worst.rs` the two bytes leave exactly the flags the four do; the storms
/// of `sk-` and `AZDO` sparse enough to be read at under half the rate of clean text
/// read 4-7 % faster. A signature spelled otherwise only past them is looked up, and
/// its keyword compared in vain by the caller, as in a step not asked at all.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn byte_refine<const FIRST_TWO: bool>(
    sieve: &Sieve,
    vbmi: Vbmi,
    (groups, cased): (&[ByteGroup], &[ByteGroup]),
    kept: [__m512i; 4],
    [classes, raw]: [[__m512i; WIDTH]; 2],
) -> u64 {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let mut any = f._mm512_setzero_si512();
    for g in 0..groups.len() {
        let folded = match kept.get(g) {
            Some(&flags) if groups.len() <= 4 => flags,
            _ => byte_flags(sieve, vbmi, &groups[g], classes),
        };
        let cased = if FIRST_TWO {
            let t = &cased[g];
            f._mm512_and_si512(vbmi.permute(raw[0], t[0]), vbmi.permute(raw[1], t[1]))
        } else {
            byte_flags(sieve, vbmi, &cased[g], raw)
        };
        any = f._mm512_or_si512(any, f._mm512_and_si512(folded, cased));
    }
    bw._mm512_test_epi8_mask(any, any)
}

/// [`class`] of every byte of `v`, in its low six bits: all that `vpermt2w` reads of
/// a 16-bit lane's low byte, and `vpermb` of a byte.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classes(sieve: &Sieve, v: __m512i) -> __m512i {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let bit6 = f._mm512_set1_epi8(0x40);
    f._mm512_andnot_si512(bw._mm512_srli_epi16::<1>(f._mm512_and_si512(v, bit6)), v)
}

/// A group's tables: per place, the two halves.
#[cfg(target_arch = "x86_64")]
type Group = [(__m512i, __m512i); WIDTH];

/// The steps of [`Sieve::find`] from `at` to `to`, with the groups' tables `groups`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn steps<G: AsRef<[Group]>, const CASED: bool>(
    sieve: &Sieve,
    groups: G,
    hay: &[u8],
    (at, to): (usize, usize),
    mut found: impl FnMut(u32, usize),
) -> (usize, usize) {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let classes = |v| classes(sieve, v);
    let exact = &sieve.exact;
    let (mut count, mut flags) = (0, 0);
    // Lane `i` of this selects lane `i + 1` of the pair (`vpermt2w`): the bytes
    // from two on.
    let up_one = bytemuck::cast::<[u16; 32], __m512i>(std::array::from_fn(|i| i as u16 + 1));
    let mut few = FewAsked::default();
    let mut spread = SpreadAsked::default();
    let mut p = at;
    while p < to {
        prefetch(sieve.simd, hay, p);
        // Lane `i` of `raw` holds the bytes at `2i` and `2i + 1` from `p`, of `r1`
        // those at `2i + 1` and `2i + 2`, of `r2` `2i + 2` and `2i + 3`, of `r4`
        // `2i + 4` and `2i + 5`; past the slice's end, zeros (their flags fail the
        // comparison, which checks the end).
        let whole = p + LANES + WIDTH <= hay.len();
        let (raw, r1, r2, r4) = if whole {
            let bytes = &hay[p..p + LANES + WIDTH];
            let r1 = load(&bytes[1..]);
            (load(bytes), r1, load(&bytes[2..]), load(&bytes[4..]))
        } else {
            // The slice's last bytes, built in registers from words: copied into a
            // buffer, they were read back by 64-byte loads that waited for the
            // copy's smaller stores to reach the cache (a third of the sieve's time
            // on a 32-byte delta).
            let w = tail_words(&hay[p..]).map(|w| w as i64);
            let raw = f._mm512_set_epi64(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0]);
            let hi = f._mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, w[8]);
            let r2 = bw._mm512_permutex2var_epi16(raw, up_one, hi);
            let r1 = f._mm512_or_si512(
                bw._mm512_srli_epi16::<8>(raw),
                bw._mm512_slli_epi16::<8>(r2),
            );
            (raw, r1, r2, f._mm512_alignr_epi32::<1>(hi, raw))
        };
        let v0 = classes(raw);
        let v2 = classes(r2);
        let v4 = classes(r4);
        let h0 = bw._mm512_srli_epi16::<8>(v0);
        let h2 = bw._mm512_srli_epi16::<8>(v2);
        // Positions at or past `to` are not this call's.
        let n = to - p;
        let (even_keep, odd_keep) = pair_keeps(n);
        // Flags of every group, ORed (any bucket's bit flags the position), then
        // tested once: a position is looked up once.
        let (mut even_any, mut odd_any) = (f._mm512_setzero_si512(), f._mm512_setzero_si512());
        // The first two groups' flags, for `refine` (the built-in rules have two).
        let mut kept = [(f._mm512_setzero_si512(), f._mm512_setzero_si512()); 2];
        for (g, table) in groups.as_ref().iter().enumerate() {
            let (even, odd) = group_flags(sieve, table, [v0, h0, v2, h2, v4]);
            if CASED && g < 2 {
                kept[g] = (even, odd);
            }
            even_any = f._mm512_or_si512(even_any, even);
            odd_any = f._mm512_or_si512(odd_any, odd);
        }
        let mut even_flagged = bw._mm512_test_epi16_mask(even_any, even_any) & even_keep;
        let mut odd_flagged = bw._mm512_test_epi16_mask(odd_any, odd_any) & odd_keep;
        // As the byte tables ask (see `byte_steps`).
        let n = (even_flagged.count_ones() + odd_flagged.count_ones()) as usize;
        if CASED && n > 0 && (n >= REFINE || few.due()) {
            let flagged = (even_flagged, odd_flagged);
            (even_flagged, odd_flagged) =
                refine(sieve, &kept, [v0, h0, v2, h2, v4], [raw, r2, r4], flagged);
            if n < REFINE {
                few.answer((even_flagged, odd_flagged) != flagged);
            }
        }
        // As the byte tables ask (see `byte_steps`).
        let left = (even_flagged.count_ones() + odd_flagged.count_ones()) as usize;
        if left > 0 && !sieve.second.is_empty() && spread.due() {
            let (mut even_any, mut odd_any) = (f._mm512_setzero_si512(), f._mm512_setzero_si512());
            for t in &sieve.second {
                let (even, odd) = group_flags(sieve, t, [v0, h0, v2, h2, v4]);
                even_any = f._mm512_or_si512(even_any, even);
                odd_any = f._mm512_or_si512(odd_any, odd);
            }
            let kept = (
                even_flagged & bw._mm512_test_epi16_mask(even_any, even_any),
                odd_flagged & bw._mm512_test_epi16_mask(odd_any, odd_any),
            );
            spread.answer(kept != (even_flagged, odd_flagged));
            (even_flagged, odd_flagged) = kept;
        }
        // The pairs: even positions' two bytes are lanes of the step's bytes, odd
        // positions' of the bytes from the next. (What `pairs` does, written out here:
        // called, it cost this loop 2.5 % on clean text.)
        if !sieve.pairs.is_empty() {
            for (j, &pair) in sieve.pairs.iter().enumerate() {
                let want = f._mm512_set1_epi16(pair);
                let even = bw._mm512_cmpeq_epi16_mask(raw, want) & even_keep;
                let odd = bw._mm512_cmpeq_epi16_mask(r1, want) & odd_keep;
                if even | odd != 0 {
                    let id = sieve.sigs + j as u32;
                    count += report_pair(id, (even, odd), p, &mut found);
                }
            }
        }
        for (mut flagged, parity) in [(even_flagged, 0), (odd_flagged, 1)] {
            while flagged != 0 {
                let off = 2 * flagged.trailing_zeros() as usize + parity;
                flagged &= flagged - 1;
                flags += 1;
                count += exact.look_up(sieve.simd, hay, p + off, &mut found);
            }
        }
        p += LANES;
    }
    (count, flags)
}

/// The two-byte keywords in the step from `p` (`n` positions of it this call's):
/// even positions' two bytes are the 16-bit lanes of `raw` (the step's bytes), odd
/// positions' those of `r1` (the bytes from the next). Returns how many.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pairs(
    sieve: &Sieve,
    [raw, r1]: [__m512i; 2],
    (p, n): (usize, usize),
    found: &mut impl FnMut(u32, usize),
) -> usize {
    if sieve.pairs.is_empty() {
        return 0;
    }
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let (even_keep, odd_keep) = pair_keeps(n);
    let mut count = 0;
    for (j, &pair) in sieve.pairs.iter().enumerate() {
        let want = f._mm512_set1_epi16(pair);
        let even = bw._mm512_cmpeq_epi16_mask(raw, want) & even_keep;
        let odd = bw._mm512_cmpeq_epi16_mask(r1, want) & odd_keep;
        if even | odd != 0 {
            let id = sieve.sigs + j as u32;
            count += report_pair(id, (even, odd), p, found);
        }
    }
    count
}

/// The flags of a step (`even`, `odd`) that a case-sensitive signature's case also
/// allows. The class a step's bytes are looked up by folds case; here each bucket is
/// looked up again by its bytes' low six bits as written, a table where a signature's
/// letter sets its case's entry if the signature is case-sensitive and both otherwise,
/// and a bucket flags where both lookups do. A run of `a` flags every position by the
/// classes (Twitter's keyword is 21 `A`s) and none here: it is read at a cost per step,
/// not a lookup per byte. Other text seldom flags [`REFINE`] positions in a step, so
/// this costs it nothing; where it does (a storm), a second set of lookups, the
/// classes' own kept from the step (computed again, they cost a crowded step a third
/// more).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn refine(
    sieve: &Sieve,
    kept: &[(__m512i, __m512i); 2],
    [v0, h0, v2, h2, v4]: [__m512i; 5],
    [raw, r2, r4]: [__m512i; 3],
    (even, odd): (u32, u32),
) -> (u32, u32) {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    // The bytes as written at odd offsets of a lane pair (the index reads a lane's
    // low byte).
    let (c0, c2) = (
        bw._mm512_srli_epi16::<8>(raw),
        bw._mm512_srli_epi16::<8>(r2),
    );
    let and = |a, b| f._mm512_and_si512(a, b);
    let (mut even_any, mut odd_any) = (f._mm512_setzero_si512(), f._mm512_setzero_si512());
    let two = sieve.groups.len() <= 2;
    for (g, (table, cased)) in sieve.groups.iter().zip(&sieve.cased).enumerate() {
        // The classes' flags of the step, where the loop kept them.
        let (even_folded, odd_folded) = if two {
            kept[g]
        } else {
            group_flags(sieve, table, [v0, h0, v2, h2, v4])
        };
        let (even_cased, odd_cased) = group_flags(sieve, cased, [raw, c0, r2, c2, r4]);
        even_any = f._mm512_or_si512(even_any, and(even_folded, even_cased));
        odd_any = f._mm512_or_si512(odd_any, and(odd_folded, odd_cased));
    }
    (
        even & bw._mm512_test_epi16_mask(even_any, even_any),
        odd & bw._mm512_test_epi16_mask(odd_any, odd_any),
    )
}

/// A group's flags for the even and the odd positions of a step, its tables `t` looked
/// up by `idx`: places 0-3 by the first four for the even positions, by the last four
/// for the odd ones (each index holds a position's byte in its lanes' low byte).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn group_flags(sieve: &Sieve, t: &Group, [a, b, c, d, e]: [__m512i; 5]) -> (__m512i, __m512i) {
    let (f, bw) = (sieve.simd.avx512f, sieve.simd.avx512bw);
    let look =
        |place: usize, idx: __m512i| bw._mm512_permutex2var_epi16(t[place].0, idx, t[place].1);
    let and = |x, y| f._mm512_and_si512(x, y);
    (
        and(and(look(0, a), look(1, b)), and(look(2, c), look(3, d))),
        and(and(look(0, b), look(1, c)), and(look(2, d), look(3, e))),
    )
}

/// Calls `found(id, start)` for each position of a pair in the step from `p`, by its
/// even and odd positions' bits; returns how many.
#[cold]
#[inline(never)]
fn report_pair(
    id: u32,
    (even, odd): (u32, u32),
    p: usize,
    found: &mut impl FnMut(u32, usize),
) -> usize {
    for (mut bits, parity) in [(even, 0), (odd, 1)] {
        while bits != 0 {
            found(id, p + 2 * bits.trailing_zeros() as usize + parity);
            bits &= bits - 1;
        }
    }
    (even.count_ones() + odd.count_ones()) as usize
}

/// The bytes of `rest` (fewer than [`LANES`] + [`WIDTH`]) as little-endian words,
/// zeros past its end. Each word is computed on its own, with no index into a buffer
/// (an array written by index was read back from the stack, the stall this avoids).
#[inline(always)]
fn tail_words(rest: &[u8]) -> [u64; 9] {
    let w = |k: usize| word8(rest, 8 * k);
    [w(0), w(1), w(2), w(3), w(4), w(5), w(6), w(7), w(8)]
}

/// The eight bytes of `rest` from `at`, little-endian, zeros past its end.
#[inline(always)]
fn word8(rest: &[u8], at: usize) -> u64 {
    let n = rest.len();
    if at + 8 <= n {
        u64::from_le_bytes(rest[at..at + 8].try_into().expect("eight bytes"))
    } else if at >= n {
        0
    } else if n >= 8 {
        // The slice's last eight bytes, shifted down to start at `at`.
        let last = u64::from_le_bytes(rest[n - 8..].try_into().expect("eight bytes"));
        last >> (8 * (at + 8 - n))
    } else {
        rest.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b))
    }
}

/// The four bytes of `hay` from `at`, little-endian, zeros past its end.
#[inline(always)]
fn word_at(hay: &[u8], at: usize) -> u32 {
    word8(&hay[at..], 0) as u32
}

/// The four bytes of `w` with ASCII letters lowercased.
#[inline(always)]
fn lowercase(w: u32) -> u32 {
    // Per byte: ASCII (high bit clear) and within `A..=Z` once 0x25 and 0x3f are added
    // to its low seven bits (past `Z`, and from `A`, each carry into the high bit).
    let low = w & 0x7f7f_7f7f;
    let upper = (low.wrapping_add(0x3f3f_3f3f) ^ low.wrapping_add(0x2525_2525)) & !w & 0x8080_8080;
    w | (upper >> 2)
}

/// Ask for the cache line [`PREFETCH`] bytes after `p`, where the slice reaches it,
/// every other step: the core fetches a line's neighbour in its 128-byte pair with
/// it, and asked every step, text already in the cache read ~1.5 % slower (every
/// other, 0.98-1.01x). A slice shorter than that (a token delta) asks for nothing. A
/// hint: it reads nothing and cannot fault.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch(simd: V4, hay: &[u8], p: usize) {
    let at = p + PREFETCH;
    if p & LANES != 0 || at >= hay.len() {
        return;
    }
    simd.sse
        ._mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(hay[at..].as_ptr().cast());
}

/// The first 64 bytes of `bytes` as a register.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn load(bytes: &[u8]) -> __m512i {
    bytemuck::pod_read_unaligned(&bytes[..LANES])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every occurrence of every signature (case folded) and pair (case kept), by
    /// brute force.
    fn naive(
        (sigs, pairs): (&[Vec<u8>], &[Vec<u8>]),
        hay: &[u8],
        (at, to): (usize, usize),
    ) -> Vec<(u32, usize)> {
        let lower = hay.to_ascii_lowercase();
        let mut all: Vec<(u32, usize)> = (at..to.min(hay.len()))
            .flat_map(|i| {
                let (lower, n) = (&lower, sigs.len());
                let sigs = (sigs.iter().enumerate())
                    .filter(move |(_, s)| lower[i..].starts_with(s))
                    .map(move |(k, _)| (k as u32, i));
                let pairs = (pairs.iter().enumerate())
                    .filter(move |(_, p)| hay[i..].starts_with(p))
                    .map(move |(j, _)| ((n + j) as u32, i));
                sigs.chain(pairs)
            })
            .collect();
        all.sort_unstable();
        all
    }

    /// What `sieve` finds in `hay` over `span` (asking the case of crowded steps),
    /// sorted; where it looks up byte tables, checked against the same sieve looking
    /// up its word tables: the same positions flagged, the same signatures found.
    fn sieved(sieve: &Sieve, hay: &[u8], span: (usize, usize)) -> Vec<(u32, usize)> {
        let (all, flags) = sieved_flags(sieve, hay, span);
        if sieve.by_bytes() {
            let by_words = sieve.clone().by_words();
            assert!(!by_words.by_bytes());
            assert_eq!(
                sieved_flags(&by_words, hay, span),
                (all.clone(), flags),
                "by words"
            );
        }
        all
    }

    fn sieved_flags(sieve: &Sieve, hay: &[u8], span: (usize, usize)) -> (Vec<(u32, usize)>, usize) {
        let mut all = Vec::new();
        let (n, flags) = sieve.find(hay, span, true, |s, at| all.push((s, at)));
        assert_eq!(n, all.len());
        // Every signature's position is flagged (pairs are compared apart).
        let mut at: Vec<usize> = (all.iter().filter(|&&(s, _)| s < sieve.sigs))
            .map(|&(_, at)| at)
            .collect();
        at.sort_unstable();
        at.dedup();
        assert!(flags >= at.len(), "{flags} flagged, {} positions", at.len());
        all.sort_unstable();
        (all, flags)
    }

    /// The test sieve with `akia` found only as `AKIA`, and `akia`'s index.
    fn akia_as_written() -> Option<(Sieve, u32)> {
        let sigs = sigs();
        let cased: Vec<Option<Vec<u8>>> = (sigs.iter())
            .map(|s| (s == b"akia").then(|| b"AKIA".to_vec()))
            .collect();
        let akia = sigs.iter().position(|s| s == b"akia").expect("akia") as u32;
        Some((Sieve::with_cases(&sigs, &cased, &pairs())?, akia))
    }

    /// A storm scan and the plain scan (case asked) of the same span.
    struct Scans {
        /// The storm scan's hits, how many it counted and how many it dropped.
        stormed: Vec<(u32, usize)>,
        count: usize,
        dropped: usize,
        /// The plain scan's hits.
        plain: Vec<(u32, usize)>,
        /// The positions of the span [`Storm::sieve_drops_at`] names.
        named: Vec<usize>,
    }

    /// [`Scans`] of `hay` over `span`; `None` where the CPU has no storm scan.
    fn storm_and_plain(
        sieve: &Sieve,
        hay: &[u8],
        span: (usize, usize),
        storm: &Storm,
    ) -> Option<Scans> {
        let mut stormed = Vec::new();
        let (count, dropped) = sieve.find_storm(hay, span, storm, |s, at| stormed.push((s, at)))?;
        let mut plain = Vec::new();
        sieve.find(hay, span, true, |s, at| plain.push((s, at)));
        let (from, to) = (span.0, span.1.min(hay.len()));
        let mut named = Vec::new();
        for p in (from..to).step_by(LANES) {
            // Read from the keywords' starts, `off` bytes before their flags.
            let bits = p
                .checked_sub(storm.off)
                .map_or(0, |q| storm.sieve_drops_at(hay, q));
            named.extend(
                (0..LANES)
                    .filter(|&i| bits >> i & 1 == 1 && p + i < to)
                    .map(|i| p + i),
            );
        }
        Some(Scans {
            stormed,
            count,
            dropped,
            plain,
            named,
        })
    }

    /// A storm scan of `hay` over `span` drops the flagged positions that
    /// [`Storm::sieve_drops_at`] names (all of them where `all_flagged`), and reports
    /// every other hit the plain scan reports; nothing where the CPU has no storm
    /// scan.
    fn scans_drop_what_is_named(
        sieve: &Sieve,
        hay: &[u8],
        span: (usize, usize),
        storm: &Storm,
        all_flagged: bool,
    ) -> Result<(), TestCaseError> {
        let Some(Scans {
            mut stormed,
            count,
            dropped,
            plain,
            named,
        }) = storm_and_plain(sieve, hay, span, storm)
        else {
            return Ok(());
        };
        prop_assert_eq!(count, stormed.len());
        if all_flagged {
            prop_assert_eq!(dropped, named.len());
        } else {
            prop_assert!(dropped <= named.len());
        }
        // The hits of the positions not named, and only those, are reported.
        let mut kept: Vec<(u32, usize)> = (plain.iter().copied())
            .filter(|&(s, at)| s >= sieve.sigs || !named.contains(&at))
            .collect();
        stormed.sort_unstable();
        kept.sort_unstable();
        prop_assert_eq!(stormed, kept);
        Ok(())
    }

    fn sigs() -> Vec<Vec<u8>> {
        [
            "ghp_", "xoxb", "akia", "sk-", "eyj", "://", "pwd", "$1$", "_pas", "toke",
            // `@` has the class of NUL, so three NULs flag a key of 0: a free slot's.
            "@@@",
        ]
        .map(|s| s.as_bytes().to_vec())
        .to_vec()
    }

    /// The built-in two-byte keywords.
    fn pairs() -> Vec<Vec<u8>> {
        vec![b"SK".to_vec(), b"Q~".to_vec()]
    }

    #[test]
    fn classes_fold_case_and_keep_digits_apart_from_letters() {
        for b in b'a'..=b'z' {
            assert_eq!(class(b), class(b.to_ascii_uppercase()));
            assert!(class(b) < 32);
        }
        for b in 0x20..0x40u8 {
            assert_eq!(class(b), b);
        }
    }

    #[test]
    fn words_lowercase_as_their_bytes_do() {
        for b in 0..=255u8 {
            for at in 0..4 {
                let mut bytes = *b"Ab9~";
                bytes[at] = b;
                let want = u32::from_le_bytes(bytes.map(|b| b.to_ascii_lowercase()));
                assert_eq!(lowercase(u32::from_le_bytes(bytes)), want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn tail_words_and_words_at_hold_the_bytes_then_zeros() {
        let bytes: Vec<u8> = (1..=LANES as u8 + WIDTH as u8).collect();
        for n in 0..LANES + WIDTH {
            let words = tail_words(&bytes[..n]);
            let mut padded = [0u8; 72];
            padded[..n].copy_from_slice(&bytes[..n]);
            let want: [u64; 9] = std::array::from_fn(|k| {
                u64::from_le_bytes(padded[8 * k..8 * k + 8].try_into().unwrap())
            });
            assert_eq!(words, want, "{n} bytes");
            for at in 0..n {
                let four = u32::from_le_bytes(padded[at..at + 4].try_into().unwrap());
                assert_eq!(word_at(&bytes[..n], at), four, "{n} bytes, at {at}");
            }
        }
    }

    #[test]
    fn ends_and_spans_are_exact() {
        let Some(sieve) = Sieve::new(&sigs(), &pairs()) else {
            return;
        };
        let naive = |hay: &[u8], span| naive((&sigs(), &pairs()), hay, span);
        // Signatures at the very end, straddling `to`, and one byte short of the end.
        let mut hay = b"x".repeat(200);
        hay.extend_from_slice(b"GHP_sk-SKQ~");
        for to in [
            0, 1, 63, 64, 65, 128, 200, 201, 203, 204, 205, 207, 209, 210, 211, 300,
        ] {
            for at in [0, 1, 64, 199, 200, 203, 204, 207, 209, 210] {
                let span = (at, to);
                assert_eq!(sieved(&sieve, &hay, span), naive(&hay, span), "{span:?}");
            }
        }
        assert_eq!(naive(&hay, (0, 300)).len(), 4);
        // Slices of every length up to two steps, a signature and a pair at the end.
        for n in 0..2 * LANES + WIDTH {
            let mut hay = b"x".repeat(n);
            hay.extend_from_slice(b"Sk-Q~");
            let span = (0, hay.len());
            assert_eq!(sieved(&sieve, &hay, span), naive(&hay, span), "{n}");
            assert_eq!(sieved(&sieve, &hay, span).len(), 2);
        }
        // Pairs keep their case, at even and odd positions, and not past the end.
        assert_eq!(
            sieved(&sieve, b"sk Sk SKxSK", (0, 11)),
            vec![(11, 6), (11, 9)]
        );
        assert_eq!(sieved(&sieve, b"q~Q~", (0, 4)), vec![(12, 2)]);
        assert_eq!(sieved(&sieve, b"xS", (0, 2)), vec![]);
        assert_eq!(sieved(&sieve, b"sk", (0, 2)), vec![]);
        assert_eq!(sieved(&sieve, b"Sk-", (0, 3)), vec![(3, 0)]);
        // NULs flag `@@@` and make the key of a free slot: nothing is found there.
        assert_eq!(sieved(&sieve, &[0; 70], (0, 70)), vec![]);
        assert_eq!(sieved(&sieve, b"\0@@@\0\0\0", (0, 7)), vec![(10, 1)]);
    }

    #[test]
    fn many_signatures_take_more_groups_and_find_the_same() {
        // Two groups (their tables held in registers) and more (read from memory).
        for (n, groups) in [(150, 2..3), (600, 3..usize::MAX)] {
            let sigs = many_sigs(n);
            let Some(sieve) = Sieve::new(&sigs, &[]) else {
                return;
            };
            assert!(groups.contains(&sieve.group_count()), "{n} signatures");
            // Every third signature, every other one upper-cased, between bytes of theirs.
            let mut hay = Vec::new();
            for (i, sig) in sigs.iter().enumerate().step_by(3) {
                match i % 2 {
                    0 => hay.extend(sig.to_ascii_uppercase()),
                    _ => hay.extend(sig),
                }
                hay.extend(&b"Ab_-9.z xq0"[i % 7..i % 7 + 3]);
            }
            let want = naive((&sigs, &[]), &hay, (0, hay.len()));
            assert!(want.len() >= sigs.len() / 3);
            assert_eq!(sieved(&sieve, &hay, (0, hay.len())), want);
        }
    }

    /// A step with fewer flags than `REFINE` is asked their case while asking drops
    /// some: `akia` four times a step, none as written, is never looked up; as
    /// written, each is; and after steps whose flags all hold a signature (`ghp_` is
    /// found in any case), the next `akia` are asked again within 64 steps.
    #[test]
    fn steps_with_few_flags_are_asked_their_case_while_it_drops_some() {
        let Some((sieve, akia)) = akia_as_written() else {
            return;
        };
        // How many of each signature were found (the lookup folds case), and how
        // many positions were looked up.
        let flags = |text: &str| {
            let hay = text.as_bytes();
            let (found, flags) = sieved_flags(&sieve, hay, (0, hay.len()));
            assert_eq!(sieved(&sieve, hay, (0, hay.len())), found);
            let akias = found.iter().filter(|&&(s, _)| s == akia).count();
            (found.len() - akias, akias, flags)
        };
        let unit = |word: &str| format!("{word}            ");
        assert_eq!(flags(&unit("akia").repeat(64)), (0, 0, 0));
        assert_eq!(flags(&unit("AKIA").repeat(64)), (0, 64, 64));
        let folded = unit("ghP_").repeat(64 * 4);
        let (ghp, unasked, looked_up) = flags(&(folded + &unit("akia").repeat(64 * 8)));
        assert_eq!((ghp, looked_up), (64 * 4, 64 * 4 + unasked));
        assert!((1..=(1 << FEW_MOST) * 4).contains(&unasked), "{unasked}");
    }

    /// Up to `n` signatures of three and four bytes (one in five of three), seeded
    /// pseudo-random, distinct.
    fn many_sigs(n: u32) -> Vec<Vec<u8>> {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut b = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b"abcdefghijklmnopqrstuvwxyz0123456789_-."[(x % 39) as usize]
        };
        let mut sigs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let sig = [b(), b(), b(), b()];
                sig[..if i % 5 == 0 { 3 } else { 4 }].to_vec()
            })
            .collect();
        sigs.sort();
        sigs.dedup();
        sigs
    }

    /// Whether some bucket of `members` has, at each place, a signature with the class
    /// of `word`'s byte there (what the tables flag).
    fn flagged_by(members: &[Vec<u32>], sigs: &[Vec<u8>], word: &[u8]) -> bool {
        members.iter().any(|bucket| {
            (0..WIDTH).all(|place| {
                bucket.iter().any(|&i| {
                    let sig = &sigs[i as usize];
                    sig.get(place)
                        .is_none_or(|&b| word.get(place).is_some_and(|&w| class(w) == class(b)))
                })
            })
        })
    }

    /// The buckets dealt another way hold the same signatures, each bucket of one
    /// length, and no two signatures that share a bucket share one again.
    #[test]
    fn spread_deals_bucket_mates_apart() {
        for n in [11, 150, 600] {
            let sigs = if n == 11 { sigs() } else { many_sigs(n) };
            check_spread(&sigs);
        }
    }

    /// Words whose every byte some signature of one bucket has at its place, but no
    /// bucket dealt the other way (see [`spread`]) flags, each with a space after it
    /// again and again: every copy is a flag of the layout alone (each a lookup in
    /// vain), and none of the sieve, which asks the other buckets of every step with
    /// a flag while that drops some; a storm of real signatures is found whole.
    #[test]
    fn look_alikes_of_one_layout_are_dropped_by_the_other() {
        let sigs = many_sigs(150);
        let Some(sieve) = Sieve::new(&sigs, &[]) else {
            return;
        };
        let (members, alone) = (members(&sigs), sieve.clone().without_spread());
        let dealt = spread(&members, &sigs);
        let mut words = Vec::new();
        for bucket in &members {
            let four: Vec<&Vec<u8>> = (bucket.iter().map(|&i| &sigs[i as usize]))
                .filter(|s| s.len() == 4)
                .collect();
            for (k, a) in four.iter().enumerate() {
                let b = four[(k + 1) % four.len()];
                let word = [a[0], b[1], a[2], b[3]];
                let at_each = |m: &[Vec<u32>]| {
                    let unit = [&word[..], b" "].concat();
                    (0..unit.len())
                        .any(|i| flagged_by(m, &sigs, &[&unit[i..], &unit[..i]].concat()))
                };
                if !sigs.contains(&word.to_vec()) && !at_each(&dealt) {
                    words.push(word);
                }
            }
        }
        assert!(words.len() >= 20, "{} look-alikes", words.len());
        for word in &words {
            let hay = [&word[..], b" "].concat().repeat(256);
            let span = (0, hay.len());
            let (found, flags) = sieved_flags(&alone, &hay, span);
            assert!(found.is_empty() && flags >= 256, "{word:?} alone: {flags}");
            assert_eq!(sieved(&sieve, &hay, span), vec![], "{word:?}");
            assert_eq!(sieved_flags(&sieve, &hay, span).1, 0, "{word:?}");
        }
        let hay = [&sigs[7][..], b" "].concat().repeat(256);
        assert_eq!(sieved_flags(&sieve, &hay, (0, hay.len())).0.len(), 256);
    }

    /// Text packed with signatures, every step flagged at many positions (each
    /// signature, in either case, with a byte of the signatures' own after it): the
    /// byte tables' steps, whose flags [`KeyFilter`] sorts first, find what brute force
    /// does, as the word tables' (no filter) do; and a word both sets of buckets flag
    /// with no signature there is flagged at every copy and looked up at few.
    #[test]
    fn crowded_steps_look_up_only_what_may_be_a_signature() {
        for sigs in [sigs(), many_sigs(150), many_sigs(600)] {
            let Some(sieve) = Sieve::new(&sigs, &[]) else {
                return;
            };
            let mut hay = Vec::new();
            for (i, sig) in sigs.iter().enumerate() {
                match i % 3 {
                    0 => hay.extend(sig.to_ascii_uppercase()),
                    _ => hay.extend(sig),
                }
                hay.push(sigs[(i * 7) % sigs.len()][0]);
            }
            let span = (0, hay.len());
            let want = naive((&sigs, &[]), &hay, span);
            assert!(want.len() >= sigs.len());
            assert_eq!(sieved(&sieve, &hay, span), want);
            let Some(word) = sieve.look_alike_of_both() else {
                continue;
            };
            let hay = [&word[..], b" "].concat().repeat(1024);
            let before = LOOKUPS.with(std::cell::Cell::get);
            let (found, flags) = sieve.find(&hay, (0, hay.len()), true, |_, _| {});
            let looked_up = LOOKUPS.with(std::cell::Cell::get) - before;
            assert_eq!(found, 0);
            assert!(flags >= 1024, "{flags}");
            if sieve.by_bytes() {
                assert!(looked_up * 8 <= flags, "{looked_up} of {flags} looked up");
            }
        }
    }

    /// A sieve, a word both its sets of buckets flag, and its signatures.
    type LookAlike = (Sieve, Vec<u8>, Vec<Vec<u8>>);

    /// The byte tables' sieve of 600 made-up signatures, a word both its sets of
    /// buckets flag, and the signatures (made once: the search for the word is slow
    /// unoptimized); `None` without VBMI.
    static LOOK_ALIKE: std::sync::LazyLock<Option<LookAlike>> = std::sync::LazyLock::new(|| {
        let sigs = many_sigs(600);
        let sieve = Sieve::new(&sigs, &[]).filter(Sieve::by_bytes)?;
        let word = sieve.look_alike_of_both().expect("a look-alike of both");
        Some((sieve, word, sigs))
    });

    /// A storm of a word both sets of buckets flag is sorted out by the key filter
    /// once: its places are dropped by their first three bytes from then on, the
    /// filter not called (it was at every step); and signatures among such words,
    /// in either case, are all found.
    #[test]
    fn look_alikes_sorted_out_once_are_dropped_where_they_recur() {
        let mut tried = 0;
        for sigs in [sigs(), many_sigs(150), many_sigs(600)] {
            let Some(sieve) = Sieve::new(&sigs, &[]).filter(Sieve::by_bytes) else {
                return; // no VBMI: each flag is looked up
            };
            let Some(word) = sieve.look_alike_of_both() else {
                continue;
            };
            tried += 1;
            let hay = [&word[..], b"a"].concat().repeat(4096);
            let count = |cell: &'static std::thread::LocalKey<std::cell::Cell<usize>>| {
                cell.with(std::cell::Cell::get)
            };
            let (filtered, looked) = (count(&FILTER_STEPS), count(&LOOKUPS));
            let (found, flags) = sieve.find(&hay, (0, hay.len()), true, |_, _| {});
            let (filtered, looked) = (count(&FILTER_STEPS) - filtered, count(&LOOKUPS) - looked);
            assert_eq!(found, 0);
            assert!(flags >= 4096, "{flags} flags");
            let steps = hay.len() / LANES;
            assert!(filtered <= 2, "{filtered} of {steps} steps filtered");
            assert!(looked * 64 <= flags, "{looked} looked up");
            // The word's bytes spelled otherwise, a signature after it in any case.
            let mut hay = Vec::new();
            for (i, sig) in sigs.iter().cycle().take(600).enumerate() {
                hay.extend([&word[..], b"a", &word[..], b"-"].concat().repeat(3));
                hay.extend(&word[..i % word.len()]);
                match i % 3 {
                    0 => hay.extend(sig.to_ascii_uppercase()),
                    1 => hay.extend(word.to_ascii_lowercase()),
                    _ => hay.extend(sig),
                }
            }
            let span = (0, hay.len());
            assert_eq!(sieved(&sieve, &hay, span), naive((&sigs, &[]), &hay, span));
        }
        assert!(tried > 0, "no look-alike of both");
    }

    /// In a storm part, a look-alike that each copy makes with what follows it (`tok`
    /// and a byte of `e`'s class, flagged for `toke`, whose first three bytes the key
    /// filter passes) is looked up at its first few places, then dropped wherever it
    /// is spelled again, in either case (it was looked up at every copy); a copy
    /// followed by `toke` is still found, at each.
    #[test]
    fn storm_parts_look_up_a_recurring_look_alike_once() {
        let Some(sieve) = Sieve::new(&sigs(), &pairs()).filter(Sieve::by_bytes) else {
            return; // no VBMI: no storm scan
        };
        let storm = ghp_storm((8, 0), (true, false));
        let mut hay = Vec::new();
        for i in 0..4096 {
            let after: &[u8] = match i % 64 {
                0 => b"toke",
                1 | 17 => b"TOK\x05",
                _ => b"tok\x05",
            };
            hay.extend([&b"ghp_"[..], after, b"$"].concat());
        }
        let looked = LOOKUPS.with(std::cell::Cell::get);
        let mut toke = 0;
        let toke_at = sigs().iter().position(|s| s == b"toke").expect("toke") as u32;
        let found = sieve.find_storm(&hay, (0, hay.len()), &storm, |s, _| {
            toke += usize::from(s == toke_at);
        });
        let looked = LOOKUPS.with(std::cell::Cell::get) - looked;
        let (count, _) = found.expect("a storm scan");
        assert_eq!(toke, 4096 / 64);
        assert!(count >= toke);
        // Each `toke` is a lookup; of the 4,032 look-alikes, one in a hundred at most.
        assert!(looked <= 64 + 40, "{looked} lookups");
    }

    #[test]
    fn other_signatures_take_no_sieve() {
        let none = |sigs: &[&[u8]], pairs: &[&[u8]]| {
            let v = |s: &[&[u8]]| s.iter().map(|s| s.to_vec()).collect::<Vec<_>>();
            Sieve::new(&v(sigs), &v(pairs)).is_none()
        };
        assert!(none(&[b"ab"], &[]));
        assert!(none(&[b"abcde"], &[]));
        assert!(none(&[b"AKIA"], &[]));
        assert!(none(&["é!".as_bytes()], &[]));
        assert!(none(&[b"ab\0"], &[]));
        assert!(none(&[], &[]));
        assert!(none(&[b"akia"], &[b"S"]));
        assert!(none(&[b"akia"], &[b"S\0"]));
        assert!(none(&[b"akia"], &[&b"ab"[..]; PAIRS + 1]));
    }

    /// The shortcut of a storm's runs (every window holds an end: all set at once)
    /// answers as the windows do where one window just misses an end: a span of
    /// clear bits a window long, or one shorter, at every place, the rest set.
    #[test]
    fn run_shortcuts_answer_as_the_windows_at_every_gap() {
        for n in 1..=STORM_RUN {
            for at in 0..128 {
                for gap in [n - 1, n] {
                    let span = match gap.min(128 - at) {
                        0 => 0,
                        len => (u128::MAX >> (128 - len)) << at,
                    };
                    let ends = !span;
                    for len in (3..=STORM_WORD).filter(|&len| n + len <= LANES + 1) {
                        let want = (ahead_window(ends, n) >> len) as u64;
                        assert_eq!(ahead_bits(ends, n, len), want, "{n} {at} {gap} {len}");
                    }
                    let want = (back_window(ends, n) >> (LANES - 1)) as u64;
                    assert_eq!(back_bits(ends, n), want, "{n} {at} {gap}");
                }
            }
        }
    }

    proptest! {
        /// The windows are what their definitions say, bit by bit.
        #[test]
        fn windows_are_their_definitions(bits: u128, sparse: bool, n in 1usize..128) {
            // Dense bits, or a few.
            let ends = if sparse { bits & bits >> 3 & bits >> 11 } else { bits };
            let set = |i: usize| ends >> i & 1 == 1;
            let want = |ahead: bool| (0..128).fold(0u128, |w, i| {
                let near = |j: usize| if ahead { i + j < 128 && set(i + j) } else { i >= j && set(i - j) };
                w | u128::from((0..n).any(near)) << i
            });
            prop_assert_eq!(ahead_window(ends, n), want(true));
            prop_assert_eq!(back_window(ends, n), want(false));
            // As a storm's drop asks them: all set at once where the ends are dense.
            if n <= STORM_RUN {
                for len in (3..=STORM_WORD).filter(|&len| n + len <= LANES + 1) {
                    prop_assert_eq!(ahead_bits(ends, n, len), (want(true) >> len) as u64);
                }
                prop_assert_eq!(back_bits(ends, n), (want(false) >> (LANES - 1)) as u64);
            }
        }

        /// Storms of a look-alike with signatures among them: the places dropped as
        /// the filter's last sorted-out word begins hide no signature.
        #[test]
        fn look_alike_storms_find_what_brute_force_finds(
            units in proptest::collection::vec((0usize..8, 0usize..64), 0..400),
        ) {
            let Some((sieve, word, sigs)) = &*LOOK_ALIKE else {
                return Ok(());
            };
            // Mostly the look-alike (its places sorted out and then dropped by their
            // bytes), signatures and parts of the word among them.
            let mut hay = Vec::new();
            for (kind, k) in units {
                match kind {
                    0 => hay.extend(&sigs[k % sigs.len()]),
                    1 => hay.extend(sigs[k % sigs.len()].to_ascii_uppercase()),
                    2 => hay.extend(&word[..k % word.len()]),
                    3 => hay.push(b"aZ9_-. "[k % 7]),
                    _ => hay.extend([&word[..], &[b"aZ9_"[k % 4]]].concat()),
                }
            }
            let span = (0, hay.len());
            prop_assert_eq!(sieved(sieve, &hay, span), naive((sigs, &[]), &hay, span));
        }

        #[test]
        fn finds_what_brute_force_finds(
            text in "[a-zA-Z0-9_:/$\\-. \n\u{e9}@\u{0}~]{0,300}",
            at in 0usize..320,
            len in 0usize..320,
        ) {
            let Some(sieve) = Sieve::new(&sigs(), &pairs()) else {
                return Ok(());
            };
            // Signatures planted often enough to meet.
            let hay = (text.replace('\n', "ghP_").replace(' ', " sk-").replace('~', "SKQ~")).into_bytes();
            let span = (at.min(hay.len()), at + len);
            prop_assert_eq!(sieved(&sieve, &hay, span), naive((&sigs(), &pairs()), &hay, span));
        }

        /// A storm scan drops exactly the flagged positions [`Storm::drops_at`] names,
        /// byte by byte (the keyword in any case, a byte that ends its run within `n`
        /// bytes after it, one that ends its narrower run within that run's bytes, or
        /// a run past its cap, and no byte after or before it that
        /// keeps the hit, or, with `others`, none of the keywords it keeps the hit
        /// for there), and reports everything else the plain scan reports.
        #[test]
        fn storm_scans_drop_what_their_storm_names(
            units in proptest::collection::vec(("[a-zA-Z0-9_:/$\\-. @]{0,6}", 0usize..4), 0..120),
            n in 0usize..120,
            at in 0usize..64,
            len in 0usize..2000,
            others in any::<bool>(),
            after in 0usize..=PAIRS_AFTER,
            (cap, first) in (0usize..=STORM_RUN, any::<bool>()),
            off in 0usize..3,
            narrow in 0usize..60,
        ) {
            let Some(sieve) = Sieve::new(&sigs(), &pairs()) else {
                return Ok(());
            };
            let hay = ghp_units(&units);
            let storm = ghp_storm((n % 60, (n * 7) % 80), (true, true));
            let mut storm = with_narrow(with_cap(storm, cap, first), narrow);
            // Flags read as lying `off` bytes into the keyword.
            storm.off = off;
            if others {
                storm.others = ghp_others();
            }
            // Pairs are compared where the lookups of their bytes say they may be.
            let all = [*b"ab", *b"_:", *b"9z", *b"xy", *b"a_", *b"$$", *b"@x", *b"zz"];
            storm.after_pairs = all[..after].to_vec();
            // Where the storm's keyword occurs, the sieve flags it: every position
            // named is dropped. (Read `off` bytes into the keyword, a flag seldom
            // lies there: of those named, the flagged ones are dropped.)
            let span = (at.min(hay.len()), at + len);
            scans_drop_what_is_named(&sieve, &hay, span, &storm, off == 0)?;
        }

        /// A storm of a keyword of 16 bytes whose signature lies further in
        /// (`secret_ado_token`, its `toke` flagged 11 bytes in) drops exactly the
        /// flagged positions [`Storm::drops_at`] names 11 bytes before them: its runs
        /// read up to [`Storm::run_most`] (49) bytes after it, a cap with its two
        /// bytes after.
        #[test]
        fn long_storm_scans_drop_what_their_storm_names(
            units in proptest::collection::vec(("[a-zA-Z0-9_:= @]{0,3}", any::<bool>()), 0..300),
            n in 1usize..60,
            (cap, first) in (0usize..=STORM_RUN, any::<bool>()),
            at in 0usize..64,
            len in 0usize..3000,
        ) {
            let Some(sieve) = Sieve::new(&sigs(), &pairs()) else {
                return Ok(());
            };
            let hay: Vec<u8> = (units.iter())
                .flat_map(|(rest, upper)| {
                    let word = if *upper { "SECRET_ADO_TOKEN" } else { "secret_ado_token" };
                    [word.as_bytes(), rest.as_bytes()].concat()
                })
                .collect();
            let mut storm = with_cap(ghp_storm((n, 0), (false, false)), cap, first);
            storm.word = *b"secret_ado_token";
            (storm.len, storm.off) = (16, 11);
            storm.after_pairs.clear();
            if storm.cap_n > storm.run_most() {
                storm.cap_n = 0;
            }
            let span = (at.min(hay.len()), at + len);
            scans_drop_what_is_named(&sieve, &hay, span, &storm, true)?;
        }

        /// With a signature found as written (`akia` as `AKIA`), a storm scan asks the
        /// case of the first two bytes of every flag its drop leaves: it reports every
        /// hit the plain scan reports that is spelled as written and not dropped,
        /// nothing else the plain scan does not but `akia` spelled as written in its
        /// first two bytes (`AKIa`, whose keyword the caller compares in vain), and no
        /// `akia` spelled otherwise there however few there are (a storm's copies meet
        /// such signatures in the other case; each was a lookup in vain).
        #[test]
        fn storm_scans_ask_the_case_of_what_they_keep(
            units in proptest::collection::vec(("[a-zA-Z0-9_:/$\\-. @]{0,6}", 0usize..4), 0..120),
            akias in proptest::collection::vec((0usize..2000, 0usize..4), 0..6),
            n in 0usize..60,
            at in 0usize..64,
            len in 0usize..2000,
        ) {
            let Some((sieve, akia)) = akia_as_written() else {
                return Ok(());
            };
            let mut hay = ghp_units(&units);
            for &(i, spelling) in &akias {
                let word = [b"AKIA", b"akia", b"Akia", b"AKIa"][spelling];
                if i + 4 <= hay.len() {
                    hay[i..i + 4].copy_from_slice(word);
                }
            }
            let storm = ghp_storm((n, 0), (true, false));
            let span = (at.min(hay.len()), at + len);
            let Some(Scans { stormed, count, plain, named, .. }) =
                storm_and_plain(&sieve, &hay, span, &storm)
            else {
                return Ok(());
            };
            prop_assert_eq!(count, stormed.len());
            let written = |&(s, at): &(u32, usize)| s != akia || hay[at..].starts_with(b"AKIA");
            let first_two = |&(s, at): &(u32, usize)| s == akia && hay[at..].starts_with(b"AK");
            for hit in &stormed {
                let asked = plain.contains(hit) && written(hit) || first_two(hit);
                prop_assert!(asked, "{:?} not spelled as written", hit);
            }
            for hit in plain.iter().filter(|&h| written(h)) {
                let gone = hit.0 < sieve.sigs && named.contains(&hit.1);
                prop_assert!(gone || stormed.contains(hit), "{:?} missing", hit);
            }
        }

        /// A storm part whose copies are followed, now and then, by a look-alike of a
        /// signature (`tok` and a byte of `e`'s class: flagged for `toke`, looked up
        /// in vain), by the signature itself in either case, or by the look-alike's
        /// first bytes spelled otherwise: the storm scan drops what its storm names
        /// and reports every other hit the plain scan does, the places it drops as
        /// words looked up in vain (see [`InVain`]) among them.
        #[test]
        fn storm_scans_drop_words_looked_up_in_vain_only(
            units in proptest::collection::vec((0usize..6, "[a-z0-9_:/$\\-. @]{0,4}"), 0..400),
            n in 0usize..60,
            at in 0usize..64,
            len in 0usize..3000,
        ) {
            let Some(sieve) = Sieve::new(&sigs(), &pairs()) else {
                return Ok(());
            };
            let after = [&b"tok\x05"[..], b"TOK\x05", b"toke", b"ToKe", b"tok\x06", b"tak\x05"];
            let hay: Vec<u8> = (units.iter())
                .flat_map(|(k, rest)| [&b"ghp_"[..], after[*k], rest.as_bytes()].concat())
                .collect();
            let storm = ghp_storm((n, 0), (true, false));
            let span = (at.min(hay.len()), at + len);
            scans_drop_what_is_named(&sieve, &hay, span, &storm, true)?;
        }

        /// A block's steps noted and handled a batch later (see [`noted_steps`]) find
        /// what they find handled as they are read: the same hits in the same order,
        /// as many positions looked up, the same answer to whether most steps had a
        /// flag, in text of many steps whose flags are sparse, crowded (runs of one
        /// letter, signatures in the other case) or both by turns, signatures and
        /// pairs in any step of a batch.
        #[test]
        fn noted_steps_find_what_steps_read_at_once_find(
            text in "[a-z_:/$\\-. \nAKI~!#]{0,3000}",
            at in 0usize..200,
            len in 0usize..4000,
        ) {
            let Some((sieve, _)) = akia_as_written() else {
                return Ok(());
            };
            // Runs of one letter and copies in the other case crowd steps (`!`, `#`).
            let hay = (text.replace('\n', "ghP_").replace(' ', " sk-").replace('~', "SKQ~"))
                .replace('!', &"a".repeat(70))
                .replace('#', "akia akia akia akia ")
                .into_bytes();
            let span = (at.min(hay.len()), at + len);
            let read = |noted: bool| {
                let mut hits = Vec::new();
                let (count, flags, crowded) = sieve.find_block(&hay, span, noted, |s, at| hits.push((s, at)));
                (hits, count, flags, crowded)
            };
            let at_once = read(false);
            prop_assert_eq!(&read(true), &at_once);
            let mut hits = Vec::new();
            let (count, flags) = sieve.find(&hay, span, true, |s, at| hits.push((s, at)));
            prop_assert_eq!((hits, count, flags), (at_once.0, at_once.1, at_once.2));
        }

        /// Signatures found as written, in text whose steps are crowded (runs of one
        /// letter in either case, signatures in either case): a crowded step is
        /// asked the case of its flags, and a signature as written is always found.
        /// (`sieved` checks that the byte and the word tables agree.)
        #[test]
        fn crowded_steps_keep_what_is_written(
            text in "[aAkKiI_x \n~]{0,400}",
            at in 0usize..420,
            len in 0usize..420,
        ) {
            let sigs = sigs();
            let cased: Vec<Option<Vec<u8>>> = sigs
                .iter()
                .map(|s| match &s[..] {
                    b"akia" => Some(b"AKIA".to_vec()),
                    b"ghp_" => Some(b"ghp_".to_vec()),
                    _ => None,
                })
                .collect();
            let Some(sieve) = Sieve::with_cases(&sigs, &cased, &pairs()) else {
                return Ok(());
            };
            let hay = text.replace('\n', "AKIA").replace(' ', "akia").replace('~', "gHp_");
            let hay = hay.into_bytes();
            let span = (at.min(hay.len()), at + len);
            let found = sieved(&sieve, &hay, span);
            let folded = naive((&sigs, &pairs()), &hay, span);
            let as_written = |&&(k, i): &&(u32, usize)| match cased.get(k as usize) {
                Some(Some(w)) => hay[i..].starts_with(w),
                _ => true,
            };
            // Never more than the case-folded occurrences, and every occurrence
            // spelled as written found.
            prop_assert!(found.iter().all(|hit| folded.contains(hit)));
            for hit in folded.iter().filter(as_written) {
                prop_assert!(found.contains(hit), "{hit:?} missing");
            }
        }
    }
}
