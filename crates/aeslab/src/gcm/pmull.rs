//! GHASH's carry-less multiply on aarch64: PMULL/PMULL2 (64 × 64 → 128 bits) on NEON
//! registers, one block per register — the [`ClmulVec`] for the one body in `clmul.rs`, and
//! its entry point. The byte order matches x86: a register's low qword is the block's first
//! eight bytes, so the same powers of H and the same reduction apply.

#![cfg(target_arch = "aarch64")]

use core::arch::aarch64::*;

use super::GhashImpl;
use super::clmul::{ClmulVec, update_blocks};
use crate::Block;

#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn qwords(v: uint8x16_t) -> uint64x2_t {
    vreinterpretq_u64_u8(v)
}

#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn product(a: u64, b: u64) -> uint8x16_t {
    vreinterpretq_u8_p128(vmull_p64(a, b))
}

// SAFETY (all methods): callers are `#[target_feature(enable = "neon,aes")]` functions (PMULL
// is part of the AES extension in Rust's feature names) reached only after `available`
// detected `pmull`.
impl ClmulVec for uint8x16_t {
    type Lane = uint8x16_t;
    #[inline(always)]
    unsafe fn clmul_ll(self, o: Self) -> Self {
        unsafe { product(vgetq_lane_u64::<0>(qwords(self)), vgetq_lane_u64::<0>(qwords(o))) }
    }
    #[inline(always)]
    unsafe fn clmul_hh(self, o: Self) -> Self {
        unsafe { product(vgetq_lane_u64::<1>(qwords(self)), vgetq_lane_u64::<1>(qwords(o))) }
    }
    #[inline(always)]
    unsafe fn clmul_lh(self, o: Self) -> Self {
        unsafe { product(vgetq_lane_u64::<0>(qwords(self)), vgetq_lane_u64::<1>(qwords(o))) }
    }
    #[inline(always)]
    unsafe fn clmul_hl(self, o: Self) -> Self {
        unsafe { product(vgetq_lane_u64::<1>(qwords(self)), vgetq_lane_u64::<0>(qwords(o))) }
    }
    #[inline(always)]
    unsafe fn swap_qwords(self) -> Self {
        unsafe { vextq_u8::<8>(self, self) }
    }
    #[inline(always)]
    unsafe fn poly() -> Self {
        unsafe { vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(0), vcreate_u64(0xc2 << 56))) }
    }
    #[inline(always)]
    unsafe fn fold_lanes(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn from_lane0(x: Self) -> Self {
        x
    }
}

/// Whether this CPU runs `imp`.
pub(crate) fn available(imp: GhashImpl) -> bool {
    imp == GhashImpl::Pmull && std::arch::is_aarch64_feature_detected!("pmull") && !crate::cpu::masked("pmull")
}

#[target_feature(enable = "neon,aes")]
unsafe fn update_neon(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe { update_blocks::<uint8x16_t>(powers, acc, blocks) }
}

/// GHASH of whole `blocks` into `acc` with `imp`.
///
/// # Safety
/// [`available`] returned true for `imp`.
pub(crate) unsafe fn update(imp: GhashImpl, powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    debug_assert_eq!(imp, GhashImpl::Pmull);
    unsafe { update_neon(powers, acc, blocks) }
}
