//! GHASH's carry-less multiply on aarch64: PMULL/PMULL2 (64 × 64 → 128 bits) on NEON
//! registers, one block per register — the [`ClmulReg`] for the one body in `clmul.rs`, and
//! its entry point. The byte order matches x86: a register's low qword is the block's first
//! eight bytes, so the same powers of H and the same reduction apply.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::arch::aarch64::*;

use super::{GhashImpl, POWERS, times_inverse_x};
use super::clmul::{ClmulIsa, ClmulReg, powers_in_kernel, update_blocks};
use crate::Block;
use crate::simd::aarch64::{NeonAesPmull, NeonPmull};
use crate::simd::{Isa, Kernel, Reg};

// The two helpers run only inside kernels entered with `neon,aes` (their callers' tokens).
// `product` names the feature itself: aarch64's PMULL intrinsic is `#[inline(always)]` with
// `aes`, and rustc inlines it only into functions that enable it too (see `aes::insn`).
#[inline(always)]
unsafe fn qwords(v: uint8x16_t) -> uint64x2_t {
    unsafe { vreinterpretq_u64_u8(v) }
}

#[inline]
#[target_feature(enable = "aes")]
unsafe fn product(a: u64, b: u64) -> uint8x16_t {
    vreinterpretq_u8_p128(vmull_p64(a, b))
}

// SAFETY (all methods): the caller holds a token of an ISA with PMULL (`NeonPmull`,
// `NeonAesPmull`), which are compiled with `neon,aes` (PMULL is part of the AES extension in
// Rust's feature names).
impl ClmulReg for uint8x16_t {
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
    unsafe fn unpack_low_qwords(self, o: Self) -> Self {
        unsafe { vreinterpretq_u8_u64(vzip1q_u64(qwords(self), qwords(o))) }
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
    #[inline(always)]
    unsafe fn lane0(self) -> Self {
        self
    }
    #[inline(always)]
    unsafe fn broadcast_lane(x: Self) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn times_inverse_x(self) -> Self {
        unsafe {
            let q = qwords(self);
            let p = (u128::from(vgetq_lane_u64::<1>(q)) << 64) | u128::from(vgetq_lane_u64::<0>(q));
            Self::broadcast_u128(times_inverse_x(p))
        }
    }
}

impl ClmulIsa for NeonPmull {}
// GCM's stitched loop runs GHASH on the same registers as its AES rounds.
impl ClmulIsa for NeonAesPmull {}

/// GHASH over whole blocks under PMULL.
struct Update<'a> {
    powers: &'a [Block],
    acc: &'a mut Block,
    blocks: &'a [Block],
}

impl Kernel for Update<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `NeonPmull`, whose token the GHASH key holds.
        unsafe { update_blocks::<uint8x16_t>(self.powers, self.acc, self.blocks) }
    }
}

/// The powers of H the groups use, by PMULL.
struct Powers {
    h1: u128,
}

impl Kernel for Powers {
    type Output = [Block; POWERS];
    #[inline(always)]
    fn run(self) -> [Block; POWERS] {
        // SAFETY: entered under `NeonPmull`, whose token the GHASH key holds.
        unsafe { powers_in_kernel::<uint8x16_t>(uint8x16_t::broadcast_u128(self.h1)) }
    }
}

/// The token of PMULL, made once with the key.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Carryless {
    Pmull(NeonPmull),
}

impl Carryless {
    /// The token for `imp`, if this CPU has it.
    pub(crate) fn detect(imp: GhashImpl) -> Option<Carryless> {
        match imp {
            GhashImpl::Pmull => NeonPmull::detect().map(Carryless::Pmull),
            _ => None,
        }
    }

    /// GHASH of whole `blocks` into `acc`.
    pub(crate) fn update(self, powers: &[Block], acc: &mut Block, blocks: &[Block]) {
        let Carryless::Pmull(t) = self;
        t.enter(Update { powers, acc, blocks });
    }

    /// The powers H^8 … H^1 in the last 8 slots (the others zero), from H·x^-1 (`h1`), in
    /// stored form.
    pub(crate) fn powers(self, h1: u128) -> [Block; POWERS] {
        let Carryless::Pmull(t) = self;
        t.enter_in_place(Powers { h1 })
    }

    /// Nothing: PMULL's groups read H^8 … H^1, all made with the key; only zmm's key makes
    /// an upper half later (`table.rs`), and nothing asks this one for it.
    ///
    /// # Safety
    /// None needed; the signature is the other architectures'.
    pub(crate) unsafe fn upper_powers(self, _table: *mut Block) {}
}
