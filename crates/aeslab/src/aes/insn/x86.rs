//! The AES round instructions on x86-64: AES-NI on xmm (`aesni`, 8 blocks in flight), VAES on
//! ymm (`vaes256`, 16) and zmm (`vaes512`, 32). On Zen 4 both VAES widths reach 4 block-rounds
//! per cycle (VAESENC ymm: 2/cycle, zmm: 1/cycle); zmm needs half the instructions.

use core::arch::x86_64::*;

use cipher::consts::{U8, U16, U32};

use super::{AesInsn, AesIsa, AesRound};
use crate::Block;
use crate::simd::x86::{AesNi, VaesYmm, VaesZmm};

/// AES-NI, 8 blocks interleaved in xmm registers.
pub type Aesni = AesInsn<AesNi>;
/// VAES on ymm registers: 16 blocks in flight.
pub type Vaes256 = AesInsn<VaesYmm>;
/// VAES on zmm registers: 32 blocks in flight.
pub type Vaes512 = AesInsn<VaesZmm>;

impl AesIsa for AesNi {
    const NAME: &'static str = "aesni";
    type Batch = U8;
    type One = __m128i;
}

impl AesIsa for VaesYmm {
    const NAME: &'static str = "vaes256";
    type Batch = U16;
    type One = __m128i;
}

impl AesIsa for VaesZmm {
    const NAME: &'static str = "vaes512";
    type Batch = U32;
    type One = __m128i;
}

// SAFETY (every method below): the caller holds a token of an ISA with AES-NI (xmm), VAES and
// AVX2 (ymm) or VAES and AVX-512F (zmm): `AesNi`, `VaesYmm`, `VaesZmm` or a GCM ISA that
// includes one of them.

impl AesRound for __m128i {
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm_aesenc_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm_aesenclast_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm_aesdec_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm_aesdeclast_si128(self, k) }
    }
    /// With the word in all four columns, ShiftRows leaves column 0 equal to the word, so
    /// column 0 of AESENCLAST(w, w, w, w; key 0) is SubWord(w).
    #[inline(always)]
    unsafe fn sub_word(w: u32) -> u32 {
        unsafe { _mm_cvtsi128_si32(_mm_aesenclast_si128(_mm_set1_epi32(w as i32), _mm_setzero_si128())) as u32 }
    }
    #[inline(always)]
    unsafe fn inv_mix_columns(b: &Block) -> Block {
        let mut out = [0u8; 16];
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_aesimc_si128(_mm_loadu_si128(b.as_ptr().cast()))) };
        out
    }
}

impl AesRound for __m256i {
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm256_aesenc_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm256_aesenclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm256_aesdec_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm256_aesdeclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn sub_word(w: u32) -> u32 {
        unsafe { <__m128i as AesRound>::sub_word(w) }
    }
    #[inline(always)]
    unsafe fn inv_mix_columns(b: &Block) -> Block {
        unsafe { <__m128i as AesRound>::inv_mix_columns(b) }
    }
}

impl AesRound for __m512i {
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm512_aesenc_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm512_aesenclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm512_aesdec_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm512_aesdeclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn sub_word(w: u32) -> u32 {
        unsafe { <__m128i as AesRound>::sub_word(w) }
    }
    #[inline(always)]
    unsafe fn inv_mix_columns(b: &Block) -> Block {
        unsafe { <__m128i as AesRound>::inv_mix_columns(b) }
    }
}
