//! AVX-512 VBMI's byte permutes for the keyword sieve (see [`super::sieve`]), behind a
//! token that exists only where the CPU has them. This is the crate's one `unsafe`:
//! `pulp`, through which the rest of the SIMD goes, detects the feature and enables it
//! for a function, but has no safe form of its intrinsics. Each wrapper is one
//! intrinsic, whose only requirement is the feature the token proves; the sieve's
//! tests compare what it finds through them with brute force and with the path that
//! does not use them.
#![allow(unsafe_code)]

use core::arch::x86_64::{__m512i, _mm512_permutex2var_epi8, _mm512_permutexvar_epi8};

pulp::simd_type! {
    /// AVX-512 (F, BW, CD, DQ, VL) with VBMI: pulp's `V4` and the byte permutes (Ice
    /// Lake and Zen 4 on). Made by `try_new`, which detects every feature.
    pub(crate) struct Vbmi {
        pub sse: "sse",
        pub sse2: "sse2",
        pub fxsr: "fxsr",
        pub sse3: "sse3",
        pub ssse3: "ssse3",
        pub sse4_1: "sse4.1",
        pub sse4_2: "sse4.2",
        pub popcnt: "popcnt",
        pub avx: "avx",
        pub avx2: "avx2",
        pub bmi1: "bmi1",
        pub bmi2: "bmi2",
        pub fma: "fma",
        pub lzcnt: "lzcnt",
        pub avx512f: "avx512f",
        pub avx512bw: "avx512bw",
        pub avx512cd: "avx512cd",
        pub avx512dq: "avx512dq",
        pub avx512vl: "avx512vl",
        pub avx512vbmi: "avx512vbmi",
    }
}

impl Vbmi {
    /// `vpermb`: byte `i` of the result is byte `idx[i] & 63` of `table`.
    #[inline(always)]
    pub(crate) fn permute(self, idx: __m512i, table: __m512i) -> __m512i {
        // SAFETY: a `Vbmi` exists only where `try_new` found AVX-512 VBMI.
        unsafe { _mm512_permutexvar_epi8(idx, table) }
    }

    /// `vpermt2b`: byte `i` of the result is byte `idx[i] & 63` of `a` where bit 6 of
    /// `idx[i]` is clear, of `b` where it is set.
    #[inline(always)]
    pub(crate) fn permute2(self, a: __m512i, idx: __m512i, b: __m512i) -> __m512i {
        // SAFETY: as above.
        unsafe { _mm512_permutex2var_epi8(a, idx, b) }
    }
}
