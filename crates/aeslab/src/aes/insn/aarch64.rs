//! The ARMv8 Crypto Extensions (AESE/AESMC, AESD/AESIMC) on 128-bit NEON registers, 8 blocks
//! interleaved (`armv8`): the same body as AES-NI, one block per register.
//!
//! ARM splits a round differently from x86: AESE(s, k) = ShiftRows(SubBytes(s ⊕ k)) and AESMC
//! is MixColumns, while AESENC(s, k) = MixColumns(ShiftRows(SubBytes(s))) ⊕ k. With a zero key,
//! AESMC(AESE(s, 0)) ⊕ k is exactly AESENC(s, k), so the x86 round structure — and with it
//! FACE's cached state, AEZ's AES4/AES10 and the key folding of the last round — carries over
//! unchanged. The zero-key form costs one EOR per round; cores fuse the AESE/AESMC pair either
//! way.

use core::arch::aarch64::*;

use cipher::consts::U8;

use super::{AesInsn, AesIsa, AesRound};
use crate::Block;
use crate::simd::aarch64::NeonAes;

/// ARMv8 Crypto Extensions, 8 blocks interleaved in q registers.
pub type Armv8 = AesInsn<NeonAes>;

impl AesIsa for NeonAes {
    const NAME: &'static str = "armv8";
    type Batch = U8;
    type One = uint8x16_t;
}

// SAFETY (every method): the caller holds a token of an ISA with the AES instructions
// (`NeonAes`, `NeonAesPmull`), which are compiled with `aes,neon`.
//
// The one place outside `simd` that names a feature: aarch64's AES intrinsics are
// `#[inline(always)]` with `aes` enabled, and rustc inlines them only into functions that
// enable it too — not into an `#[inline(always)]` method that is itself inlined into one. So
// these methods carry `aes` themselves (and are `#[inline]`, which `#[target_feature]` allows).
impl AesRound for uint8x16_t {
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn enc(self, k: Self) -> Self {
        veorq_u8(vaesmcq_u8(vaeseq_u8(self, vdupq_n_u8(0))), k)
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn enc_last(self, k: Self) -> Self {
        veorq_u8(vaeseq_u8(self, vdupq_n_u8(0)), k)
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn dec(self, k: Self) -> Self {
        veorq_u8(vaesimcq_u8(vaesdq_u8(self, vdupq_n_u8(0))), k)
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn dec_last(self, k: Self) -> Self {
        veorq_u8(vaesdq_u8(self, vdupq_n_u8(0)), k)
    }
    /// With the word in all four columns, ShiftRows leaves every column equal to the word, so
    /// column 0 of AESE(w, w, w, w; key 0) is SubWord(w).
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn sub_word(w: u32) -> u32 {
        let v = vreinterpretq_u8_u32(vdupq_n_u32(w));
        vgetq_lane_u32::<0>(vreinterpretq_u32_u8(vaeseq_u8(v, vdupq_n_u8(0))))
    }
    #[inline]
    #[target_feature(enable = "aes")]
    unsafe fn inv_mix_columns(b: &Block) -> Block {
        let mut out = [0u8; 16];
        // SAFETY: 16 bytes each side.
        unsafe { vst1q_u8(out.as_mut_ptr(), vaesimcq_u8(vld1q_u8(b.as_ptr()))) };
        out
    }
}
