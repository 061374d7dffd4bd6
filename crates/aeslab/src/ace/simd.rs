//! ACE lane words for x86-64: 4 states per xmm (SSE2), 8 per ymm (AVX2), 16 per zmm
//! (AVX-512F). One macro body gives each width its operations; the permutation itself is the
//! generic one in `permutation.rs`.
//!
//! Rotations are shift/shift/or on SSE2 and AVX2 and `VPROLD` on AVX-512; the Simeck round on
//! AVX-512 is two `VPTERNLOGD`s. All are data-independent single instructions.

#![allow(unsafe_code)] // SIMD words: each block says which token makes it sound.

use core::arch::x86_64::*;

use super::permutation::{LaneWord, MAX_LANES};
use crate::simd::x86::{Avx2, Avx512F, Sse2};

// The `unsafe` blocks call SIMD intrinsics. They are sound because a word exists only after
// its ISA's token was made (`splat` and `load` take it; the other methods take a word), so the
// CPU has SSE2, AVX2 or AVX-512F.

macro_rules! shift_rotate_word {
    ($name:ident, $isa:ty, $reg:ty, $load:ident, $store:ident, $set1:ident, $xor:ident,
     $and:ident, $or:ident, $slli:ident, $srli:ident) => {
        #[derive(Clone, Copy)]
        pub(crate) struct $name($reg);

        impl $name {
            #[inline(always)]
            fn rotl<const L: i32, const R: i32>(self) -> Self {
                unsafe { $name($or($slli::<L>(self.0), $srli::<R>(self.0))) }
            }
        }

        impl LaneWord for $name {
            type Isa = $isa;
            #[inline(always)]
            fn splat(_isa: $isa, x: u32) -> Self {
                unsafe { $name($set1(x as i32)) }
            }
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                unsafe { $name($xor(self.0, other.0)) }
            }
            #[inline(always)]
            fn load(_isa: $isa, words: &[u32; MAX_LANES]) -> Self {
                unsafe { $name($load(words.as_ptr().cast())) }
            }
            #[inline(always)]
            fn store(self, words: &mut [u32; MAX_LANES]) {
                unsafe { $store(words.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn simeck_round(x: Self, y: Self, key: Self) -> Self {
                let t = unsafe { $name($and(x.rotl::<5, 27>().0, x.0)) };
                y.xor(t).xor(x.rotl::<1, 31>()).xor(key)
            }
        }
    };
}

shift_rotate_word!(Xmm, Sse2, __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_set1_epi32,
    _mm_xor_si128, _mm_and_si128, _mm_or_si128, _mm_slli_epi32, _mm_srli_epi32);
shift_rotate_word!(Ymm, Avx2, __m256i, _mm256_loadu_si256, _mm256_storeu_si256, _mm256_set1_epi32,
    _mm256_xor_si256, _mm256_and_si256, _mm256_or_si256, _mm256_slli_epi32, _mm256_srli_epi32);

#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

impl LaneWord for Zmm {
    type Isa = Avx512F;
    #[inline(always)]
    fn splat(_isa: Avx512F, x: u32) -> Self {
        unsafe { Zmm(_mm512_set1_epi32(x as i32)) }
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        unsafe { Zmm(_mm512_xor_si512(self.0, other.0)) }
    }
    #[inline(always)]
    fn load(_isa: Avx512F, words: &[u32; MAX_LANES]) -> Self {
        unsafe { Zmm(_mm512_loadu_si512(words.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, words: &mut [u32; MAX_LANES]) {
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn simeck_round(x: Self, y: Self, key: Self) -> Self {
        unsafe {
            // 0x78 = a ⊕ (b ∧ c); 0x96 = a ⊕ b ⊕ c.
            let f = _mm512_ternarylogic_epi32::<0x78>(_mm512_rol_epi32::<1>(x.0), _mm512_rol_epi32::<5>(x.0), x.0);
            Zmm(_mm512_ternarylogic_epi32::<0x96>(y.0, f, key.0))
        }
    }
}
