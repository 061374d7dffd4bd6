//! GHASH's carry-less multiply on x86-64: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm — the
//! [`ClmulVec`] registers for the one body in `clmul.rs`, and its entry points.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use super::GhashImpl;
use super::clmul::{ClmulVec, update_blocks};
use crate::Block;

macro_rules! clmul_vec {
    ($ty:ty, $clmul:ident, $shuffle32:ident, $set1_64:ident,
     fold: |$f:ident| $fold:expr, lane0: |$x:ident| $lane0:expr) => {
        // SAFETY (all methods): see the trait; every intrinsic used is in the features the
        // entry points below (and the stitched ones in `stitch.rs`) enable.
        impl ClmulVec for $ty {
            type Lane = __m128i;
            #[inline(always)]
            unsafe fn clmul_ll(self, o: Self) -> Self {
                unsafe { $clmul::<0x00>(self, o) }
            }
            #[inline(always)]
            unsafe fn clmul_hh(self, o: Self) -> Self {
                unsafe { $clmul::<0x11>(self, o) }
            }
            #[inline(always)]
            unsafe fn clmul_lh(self, o: Self) -> Self {
                unsafe { $clmul::<0x10>(self, o) }
            }
            #[inline(always)]
            unsafe fn clmul_hl(self, o: Self) -> Self {
                unsafe { $clmul::<0x01>(self, o) }
            }
            #[inline(always)]
            unsafe fn swap_qwords(self) -> Self {
                unsafe { $shuffle32::<0x4e>(self) }
            }
            #[inline(always)]
            unsafe fn poly() -> Self {
                unsafe { $set1_64(0xc2 << 56) }
            }
            #[inline(always)]
            #[allow(unused_unsafe)]
            unsafe fn fold_lanes(self) -> __m128i {
                let $f = self;
                unsafe { $fold }
            }
            #[inline(always)]
            #[allow(unused_unsafe)]
            unsafe fn from_lane0($x: __m128i) -> Self {
                unsafe { $lane0 }
            }
        }
    };
}

clmul_vec!(__m128i, _mm_clmulepi64_si128, _mm_shuffle_epi32, _mm_set1_epi64x,
    fold: |v| v, lane0: |x| x);

clmul_vec!(__m256i, _mm256_clmulepi64_epi128, _mm256_shuffle_epi32, _mm256_set1_epi64x,
    fold: |v| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)),
    lane0: |x| _mm256_zextsi128_si256(x));

clmul_vec!(__m512i, _mm512_clmulepi64_epi128, _mm512_shuffle_epi32, _mm512_set1_epi64,
    fold: |v| _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32::<1>(v)),
        _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(v), _mm512_extracti32x4_epi32::<3>(v)),
    ),
    lane0: |x| _mm512_zextsi128_si512(x));

/// The register width of a carry-less GHASH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Width {
    Xmm,
    Ymm,
    Zmm,
}

impl Width {
    /// Whether this CPU has what the width's entry point below enables — each width checked on
    /// its own features (a CPU with the zmm form may still have its ymm form masked).
    fn available(self) -> bool {
        use crate::cpu::x86_has;
        x86_has!("pclmulqdq", "ssse3")
            && match self {
                Width::Xmm => true,
                Width::Ymm => x86_has!("vpclmulqdq", "avx2"),
                Width::Zmm => x86_has!("vpclmulqdq", "avx512f", "avx512bw"),
            }
    }
}

#[target_feature(enable = "pclmulqdq,ssse3")]
unsafe fn update_xmm(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe { update_blocks::<__m128i>(powers, acc, blocks) }
}

#[target_feature(enable = "pclmulqdq,ssse3,vpclmulqdq,avx2")]
unsafe fn update_ymm(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe { update_blocks::<__m256i>(powers, acc, blocks) }
}

#[target_feature(enable = "pclmulqdq,ssse3,vpclmulqdq,avx512f,avx512bw")]
unsafe fn update_zmm(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe { update_blocks::<__m512i>(powers, acc, blocks) }
}

/// The register width of a carry-less `imp`.
fn width(imp: GhashImpl) -> Option<Width> {
    match imp {
        GhashImpl::Pclmul => Some(Width::Xmm),
        GhashImpl::Vpclmul256 => Some(Width::Ymm),
        GhashImpl::Vpclmul512 => Some(Width::Zmm),
        GhashImpl::Portable | GhashImpl::Pmull => None,
    }
}

/// Whether this CPU runs `imp`.
pub(crate) fn available(imp: GhashImpl) -> bool {
    width(imp).is_some_and(Width::available)
}

/// GHASH of whole `blocks` into `acc` with `imp`.
///
/// # Safety
/// [`available`] returned true for `imp`.
pub(crate) unsafe fn update(imp: GhashImpl, powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe {
        match width(imp) {
            Some(Width::Xmm) => update_xmm(powers, acc, blocks),
            Some(Width::Ymm) => update_ymm(powers, acc, blocks),
            Some(Width::Zmm) => update_zmm(powers, acc, blocks),
            None => unreachable!("not an x86 carry-less GHASH"),
        }
    }
}
