//! `armv8`: the ARMv8 Crypto Extensions (AESE/AESMC, AESD/AESIMC) on 128-bit NEON registers,
//! 8 blocks interleaved — the same body as AES-NI (`hw.rs`), one block per register.
//!
//! ARM splits a round differently from x86: AESE(s, k) = ShiftRows(SubBytes(s ⊕ k)) and
//! AESMC is MixColumns, while AESENC(s, k) = MixColumns(ShiftRows(SubBytes(s))) ⊕ k. With a
//! zero key, AESMC(AESE(s, 0)) ⊕ k is exactly AESENC(s, k), so the x86 round structure — and
//! with it FACE's cached state, AEZ's AES4/AES10 and the key folding of the last round — carries
//! over unchanged. The zero-key form costs one EOR per round; cores fuse the AESE/AESMC pair
//! either way.
//!
//! AES instructions run in constant time: no branch or memory index depends on key or data.

#![cfg(target_arch = "aarch64")]

use core::arch::aarch64::*;

use cipher::consts::U8;

use super::hw::AesVec;
use super::key_schedule::{self, RoundKeys};
use crate::{Block, Error};

// SAFETY (all methods): callers are `#[target_feature(enable = "aes,neon")]` functions reached
// only after detecting the Crypto Extensions' AES instructions (NEON is part of AArch64); the
// PMULL GHASH (`gcm/pmull.rs`) enables the same features.
impl AesVec for uint8x16_t {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn zero() -> Self {
        unsafe { vdupq_n_u8(0) }
    }
    #[inline(always)]
    unsafe fn load(src: *const Block) -> Self {
        unsafe { vld1q_u8(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut Block) {
        unsafe { vst1q_u8(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(k: &Block) -> Self {
        unsafe { vld1q_u8(k.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { veorq_u8(self, o) }
    }
    // The AES intrinsics inline only into functions with `aes` enabled.
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn enc(self, k: Self) -> Self {
        veorq_u8(vaesmcq_u8(vaeseq_u8(self, vdupq_n_u8(0))), k)
    }
    // The AES intrinsics inline only into functions with `aes` enabled.
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn enc_last(self, k: Self) -> Self {
        veorq_u8(vaeseq_u8(self, vdupq_n_u8(0)), k)
    }
    // The AES intrinsics inline only into functions with `aes` enabled.
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn dec(self, k: Self) -> Self {
        veorq_u8(vaesimcq_u8(vaesdq_u8(self, vdupq_n_u8(0))), k)
    }
    // The AES intrinsics inline only into functions with `aes` enabled.
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn dec_last(self, k: Self) -> Self {
        veorq_u8(vaesdq_u8(self, vdupq_n_u8(0)), k)
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        unsafe { vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(self), vreinterpretq_u32_u8(o))) }
    }
    #[inline(always)]
    unsafe fn byte_reverse(self) -> Self {
        // Reverse each 8-byte half, then swap the halves.
        unsafe {
            let r = vrev64q_u8(self);
            vextq_u8::<8>(r, r)
        }
    }
    #[inline(always)]
    unsafe fn splat_low32(n: u32) -> Self {
        unsafe { vreinterpretq_u8_u32(vsetq_lane_u32::<0>(n, vdupq_n_u32(0))) }
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        unsafe { vdupq_n_u8(0) }
    }
    one_block_per_register!();
}

/// SubWord with AESE: with the word in all four columns, ShiftRows leaves every column equal to
/// the word, so column 0 of AESE(w,w,w,w; key 0) is SubWord(w). Constant time.
#[target_feature(enable = "aes")]
fn sub_word_armv8(w: u32) -> u32 {
    let v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))))
}

/// The key schedule with an AESE SubWord.
///
/// # Safety
/// The CPU has the AES instructions of the Crypto Extensions.
pub(crate) unsafe fn expand_key(key: &[u8]) -> Result<RoundKeys, Error> {
    // SAFETY: the caller guarantees the AES instructions.
    key_schedule::expand(key, |w| unsafe { sub_word_armv8(w) })
}

aes_insn_backend!(
    /// ARMv8 Crypto Extensions, 8 blocks interleaved in q registers.
    Armv8, uint8x16_t, uint8x16_t, U8, "armv8", "aes,neon", crate::aes::armv8::expand_key,
    std::arch::is_aarch64_feature_detected!("aes") && !crate::cpu::masked("aes")
);
