//! aarch64: the NEON block register (q, one block) and the instruction sets aeslab's kernels
//! run under. Rust names PMULL as part of the `aes` target feature, so the GHASH and stitched
//! ISAs compile with `aes,neon` and differ only in what they detect.

use core::arch::aarch64::*;

use super::{Reg, isa, one_block_per_register, read_partial_block, write_partial_block};
use crate::Block;

/// An aarch64 feature this CPU has and `AESLAB_CPU_MASK` does not hide.
macro_rules! arm_has {
    ($($f:tt),+) => { $($crate::cpu::has($f))&&+ };
}

isa!(
    /// The Crypto Extensions' AES instructions (`armv8`).
    NeonAes, "aes,neon", reg = uint8x16_t, arm_has!("aes")
);
isa!(
    /// PMULL (GHASH `pmull`).
    NeonPmull, "aes,neon", reg = uint8x16_t, arm_has!("pmull")
);
isa!(
    /// AES and PMULL: GCM's stitched loop for `armv8` + `pmull`.
    NeonAesPmull, "aes,neon", reg = uint8x16_t, arm_has!("aes", "pmull")
);

// SAFETY (every method): NEON is part of AArch64; the caller holds one of the tokens above.
impl Reg for uint8x16_t {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn computed_here(self) -> Self {
        #[allow(unused_mut)] // Mutated only by the barrier.
        let mut x = self;
        // SAFETY: the template is empty; the register goes in and comes out unchanged.
        #[cfg(not(miri))]
        unsafe {
            core::arch::asm!("/* {0:v} */", inout(vreg) x, options(nomem, nostack, preserves_flags));
        }
        x
    }
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
    unsafe fn broadcast(b: &Block) -> Self {
        unsafe { vld1q_u8(b.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn broadcast_u128(x: u128) -> Self {
        unsafe { vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(x as u64), vcreate_u64((x >> 64) as u64))) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { veorq_u8(self, o) }
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
    #[inline(always)]
    unsafe fn load_bytes(src: *const u8, n: usize) -> Self {
        unsafe {
            if n >= 16 {
                vld1q_u8(src)
            } else {
                let (low, high) = read_partial_block(src, n);
                Self::broadcast_u128((u128::from(high) << 64) | u128::from(low))
            }
        }
    }
    #[inline(always)]
    unsafe fn store_bytes(self, dst: *mut u8, n: usize) {
        unsafe {
            if n >= 16 {
                vst1q_u8(dst, self);
            } else {
                let halves = vreinterpretq_u64_u8(self);
                write_partial_block(dst, (vgetq_lane_u64::<0>(halves), vgetq_lane_u64::<1>(halves)), n);
            }
        }
    }
    #[inline(always)]
    unsafe fn keep_bytes(self, n: usize) -> Self {
        unsafe {
            if n >= 16 {
                self
            } else {
                const INDEX: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
                vandq_u8(self, vcltq_u8(vld1q_u8(INDEX.as_ptr()), vdupq_n_u8(n as u8)))
            }
        }
    }
}
