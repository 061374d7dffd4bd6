//! `aesni`: AES-NI on xmm registers, 8 blocks interleaved (the shared body in `hw.rs` at one
//! block per register).

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use cipher::consts::U8;

use super::hw::AesVec;
use super::key_schedule::{self, RoundKeys};
use crate::{Block, Error};

// SAFETY (all methods): callers are `#[target_feature(enable = "aes,ssse3")]` functions reached
// only after detecting AES-NI and SSSE3 (SSE2 is part of x86-64). The carry-less GHASH entry
// points (`gcm/pclmul.rs`) call only the methods without AES instructions, with SSSE3 enabled.
impl AesVec for __m128i {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn zero() -> Self {
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn load(src: *const Block) -> Self {
        unsafe { _mm_loadu_si128(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut Block) {
        unsafe { _mm_storeu_si128(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(k: &Block) -> Self {
        unsafe { _mm_loadu_si128(k.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm_xor_si128(self, o) }
    }
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
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        unsafe { _mm_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn byte_reverse(self) -> Self {
        unsafe { _mm_shuffle_epi8(self, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) }
    }
    #[inline(always)]
    unsafe fn splat_low32(n: u32) -> Self {
        unsafe { _mm_setr_epi32(n as i32, 0, 0, 0) }
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        unsafe { _mm_setzero_si128() }
    }
    one_block_per_register!();
}

/// SubWord with AESENCLAST: with the word in all four columns, ShiftRows leaves column 0 equal
/// to the word, so column 0 of AESENCLAST(w,w,w,w; key 0) is SubWord(w). Constant time.
#[target_feature(enable = "aes")]
fn sub_word_aesni(w: u32) -> u32 {
    let v = _mm_set1_epi32(w as i32);
    _mm_cvtsi128_si32(_mm_aesenclast_si128(v, _mm_setzero_si128())) as u32
}

/// The key schedule with an AES-NI SubWord.
///
/// # Safety
/// The CPU has AES-NI.
pub(crate) unsafe fn expand_key(key: &[u8]) -> Result<RoundKeys, Error> {
    // SAFETY: the caller guarantees AES-NI.
    key_schedule::expand(key, |w| unsafe { sub_word_aesni(w) })
}

aes_insn_backend!(
    /// AES-NI, 8 blocks interleaved in xmm registers.
    Aesni, __m128i, __m128i, U8, "aesni", "aes,ssse3", crate::aes::aesni::expand_key,
    crate::cpu::x86_has!("aes") && crate::cpu::x86_has!("ssse3")
);
