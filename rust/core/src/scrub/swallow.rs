//! How far a run of one byte class goes: what an overflow swallows, megabytes at a time
//! in a storm (`glpat-glpat-…` is one token that outgrew its rule), and what a rule's
//! DFA reads in a state that loops on itself (a JWT's keyword and 4,000 bytes of its
//! class). Tested a byte at a time against the class's bitset, that was ~1 byte a
//! cycle and most of such a storm's time; where the CPU has AVX2 (detected at run
//! time), 32 bytes are tested at once after the first 32.
//!
//! The test is a nibble lookup (as in simdjson's character classes): per low nibble, a
//! byte whose bits say which high nibbles (0-7 in one table, 8-15 in the other) make a
//! member; one shuffle looks up the low nibbles of 32 bytes, another the bit of each
//! high nibble, and the sign bit of the byte picks the table. Exact for any class.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::__m256i;
#[cfg(target_arch = "x86_64")]
use pulp::x86::V3;

use super::ruleset::ByteClass;

/// Bytes per step.
#[cfg(target_arch = "x86_64")]
const LANES: usize = 32;

/// The bytes an overflow swallows, a byte class, with its lookup tables (see the
/// module's documentation).
#[derive(Clone, Debug)]
pub(crate) struct Swallow {
    class: ByteClass,
    #[cfg(target_arch = "x86_64")]
    simd: Option<V3>,
    /// Per low nibble: bit `h` set when the byte `h << 4 | low` is a member, for high
    /// nibbles 0-7 (`tables[0]`) and 8-15 (`tables[1]`, bit `h - 8`).
    #[cfg(target_arch = "x86_64")]
    tables: [[u8; 16]; 2],
}

impl Swallow {
    pub(crate) fn new(class: ByteClass) -> Swallow {
        #[cfg(target_arch = "x86_64")]
        {
            let mut tables = [[0u8; 16]; 2];
            for b in 0..=255u8 {
                if class.contains(b) {
                    tables[usize::from(b >> 7)][usize::from(b & 15)] |= 1 << ((b >> 4) & 7);
                }
            }
            Swallow {
                class,
                simd: V3::try_new(),
                tables,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Swallow { class }
    }

    /// The length of the longest prefix of `bytes` whose bytes are all in the class.
    pub(crate) fn run(&self, bytes: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(simd) = self.simd {
            // Most runs a DFA's self-loop reads are short: their first bytes a byte
            // at a time, without the call that enables AVX2.
            let head = bytes.len().min(LANES);
            let n = self.scalar(&bytes[..head]);
            if n < head || head == bytes.len() {
                return n;
            }
            let bytes = &bytes[head..];
            return head
                + simd.vectorize(Scan {
                    swallow: self,
                    simd,
                    bytes,
                });
        }
        self.scalar(bytes)
    }

    /// `out` with `n` copies of `value` appended: the states of a run this class
    /// reads, one a byte. Where the CPU has AVX2, with its 32-byte stores (compiled
    /// for the baseline, the fill stored 16 bytes at a time).
    pub(crate) fn repeat<T: Copy>(&self, out: &mut Vec<T>, value: T, n: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(simd) = self.simd {
            return simd.vectorize(Repeat { out, value, n });
        }
        out.extend(std::iter::repeat_n(value, n));
    }

    fn scalar(&self, bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| !self.class.contains(b))
            .unwrap_or(bytes.len())
    }
}

/// One call of [`Swallow::repeat`], run with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
struct Repeat<'a, T> {
    out: &'a mut Vec<T>,
    value: T,
    n: usize,
}

#[cfg(target_arch = "x86_64")]
impl<T: Copy> pulp::NullaryFnOnce for Repeat<'_, T> {
    type Output = ();

    #[inline(always)]
    fn call(self) {
        self.out.extend(std::iter::repeat_n(self.value, self.n));
    }
}

/// One call of [`Swallow::run`], run with AVX2 enabled.
#[cfg(target_arch = "x86_64")]
struct Scan<'a> {
    swallow: &'a Swallow,
    simd: V3,
    bytes: &'a [u8],
}

#[cfg(target_arch = "x86_64")]
impl pulp::NullaryFnOnce for Scan<'_> {
    type Output = usize;

    #[inline(always)]
    fn call(self) -> usize {
        let Scan {
            swallow,
            simd,
            bytes,
        } = self;
        let (avx, avx2) = (simd.avx, simd.avx2);
        let table = |t: &[u8; 16]| {
            let mut both = [0u8; 32];
            both[..16].copy_from_slice(t);
            both[16..].copy_from_slice(t);
            bytemuck::cast::<[u8; 32], __m256i>(both)
        };
        let (low_table, high_table) = (table(&swallow.tables[0]), table(&swallow.tables[1]));
        let bits = table(&[1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128]);
        let nibble = avx._mm256_set1_epi8(15);
        let zero = avx._mm256_setzero_si256();
        let mut at = 0;
        while at + LANES <= bytes.len() {
            let v: __m256i = bytemuck::pod_read_unaligned(&bytes[at..at + LANES]);
            let low = avx2._mm256_and_si256(v, nibble);
            let high = avx2._mm256_and_si256(avx2._mm256_srli_epi16::<4>(v), nibble);
            // Bytes from 0x80 (sign bit set) look up the second table.
            let which = avx2._mm256_blendv_epi8(
                avx2._mm256_shuffle_epi8(low_table, low),
                avx2._mm256_shuffle_epi8(high_table, low),
                v,
            );
            let member = avx2._mm256_and_si256(which, avx2._mm256_shuffle_epi8(bits, high));
            let outside = avx2._mm256_movemask_epi8(avx2._mm256_cmpeq_epi8(member, zero));
            if outside != 0 {
                return at + outside.trailing_zeros() as usize;
            }
            at += LANES;
        }
        at + swallow.scalar(&bytes[at..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The run is the one a byte at a time finds, for any class (bytes from 0x80
        /// included) and any text, runs of members crossing the 32-byte steps.
        #[test]
        fn runs_are_those_found_byte_by_byte(
            words in any::<[u64; 4]>(),
            members in proptest::collection::vec(any::<u8>(), 0..8),
            text in proptest::collection::vec(any::<u8>(), 0..300),
            lead in 0usize..200,
        ) {
            let mut words = words;
            for b in &members {
                words[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            let class = ByteClass::from_words(words);
            // Mostly members: a long run, then whatever follows.
            let pool: Vec<u8> = (0..=255u8).filter(|&b| class.contains(b)).collect();
            let mut bytes: Vec<u8> = (0..lead)
                .filter_map(|i| pool.get((i * 7 + 3) % pool.len().max(1)).copied())
                .collect();
            bytes.extend(&text);
            let want = bytes.iter().position(|&b| !class.contains(b)).unwrap_or(bytes.len());
            prop_assert_eq!(Swallow::new(class).run(&bytes), want);
        }
    }

    /// `repeat` appends exactly `n` copies of the value after what was there, for
    /// every length around the 32-byte stores (with and without AVX2 alike).
    #[test]
    fn repeat_appends_n_copies() {
        let swallow = Swallow::new(ByteClass::from_words([u64::MAX; 4]));
        for before in [0usize, 1, 7, 8, 31] {
            for n in 0..80 {
                let mut out: Vec<u32> = (0..before as u32).collect();
                swallow.repeat(&mut out, 0xdead_beef, n);
                let mut want: Vec<u32> = (0..before as u32).collect();
                want.resize(before + n, 0xdead_beef);
                assert_eq!(out, want, "{before} then {n}");
            }
        }
    }

    /// Every single byte, in and out of a class of letters and continuation bytes, at
    /// every place of a step.
    #[test]
    fn each_byte_is_tested_at_each_place() {
        let class = ByteClass::parse("t", "overflow", "[A-Za-z0-9_-]")
            .expect("a class")
            .expect("not empty")
            .with_continuations();
        let swallow = Swallow::new(class);
        for b in 0..=255u8 {
            for at in [0, 1, 15, 16, 31, 32, 33, 63, 64, 70] {
                let mut bytes = vec![b'a'; 80];
                bytes[at] = b;
                let want = if class.contains(b) { 80 } else { at };
                assert_eq!(swallow.run(&bytes), want, "byte {b:#x} at {at}");
            }
        }
    }
}
