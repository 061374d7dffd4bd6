//! GHASH's carry-less multiply on x86-64: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm — the
//! [`ClmulReg`] registers for the one body in `clmul.rs`, and the tokens that run it.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::arch::x86_64::*;

use super::{GhashImpl, POWERS};
use super::clmul::{ClmulIsa, ClmulReg, powers_in_kernel, update_blocks};
use crate::Block;
use crate::simd::x86::{AesNiPclmul, Pclmul, VaesVpclmulYmm, VaesVpclmulZmm, VpclmulYmm, VpclmulZmm};
use crate::simd::{BlockIsa, Isa, Kernel};

macro_rules! clmul_vec {
    ($ty:ty, $clmul:ident, $shuffle32:ident, $set1_64:ident, $unpacklo:ident,
     fold: |$f:ident| $fold:expr, lane0: |$x:ident| $lane0:expr, bcast: |$b:ident| $bcast:expr) => {
        // SAFETY (all methods): the caller holds a token of an ISA with this register's
        // carry-less multiply (the `ClmulIsa`s below: PCLMULQDQ and SSSE3 for xmm, VPCLMULQDQ
        // with AVX2 or AVX-512F/BW for ymm and zmm).
        impl ClmulReg for $ty {
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
            unsafe fn unpack_low_qwords(self, o: Self) -> Self {
                unsafe { $unpacklo(self, o) }
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
            #[inline(always)]
            #[allow(unused_unsafe)]
            unsafe fn broadcast_lane($b: __m128i) -> Self {
                unsafe { $bcast }
            }
        }
    };
}

clmul_vec!(__m128i, _mm_clmulepi64_si128, _mm_shuffle_epi32, _mm_set1_epi64x, _mm_unpacklo_epi64,
    fold: |v| v, lane0: |x| x, bcast: |x| x);

clmul_vec!(__m256i, _mm256_clmulepi64_epi128, _mm256_shuffle_epi32, _mm256_set1_epi64x, _mm256_unpacklo_epi64,
    fold: |v| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)),
    lane0: |x| _mm256_zextsi128_si256(x), bcast: |x| _mm256_broadcastsi128_si256(x));

clmul_vec!(__m512i, _mm512_clmulepi64_epi128, _mm512_shuffle_epi32, _mm512_set1_epi64, _mm512_unpacklo_epi64,
    fold: |v| _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32::<1>(v)),
        _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(v), _mm512_extracti32x4_epi32::<3>(v)),
    ),
    lane0: |x| _mm512_zextsi128_si512(x), bcast: |x| _mm512_broadcast_i32x4(x));

impl ClmulIsa for Pclmul {}
impl ClmulIsa for VpclmulYmm {}
impl ClmulIsa for VpclmulZmm {}
// GCM's stitched loops run GHASH on the same registers as their AES rounds.
impl ClmulIsa for AesNiPclmul {}
impl ClmulIsa for VaesVpclmulYmm {}
impl ClmulIsa for VaesVpclmulZmm {}

/// GHASH over whole blocks under `I`.
struct Update<'a, I> {
    powers: &'a [Block],
    acc: &'a mut Block,
    blocks: &'a [Block],
    isa: core::marker::PhantomData<I>,
}

impl<I: ClmulIsa> Kernel for Update<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `I`, whose token the GHASH key holds.
        unsafe { update_blocks::<<I as BlockIsa>::Reg>(self.powers, self.acc, self.blocks) }
    }
}

/// The powers of H that `I`'s groups use, by its carry-less multiply.
struct Powers<I> {
    h1: u128,
    isa: core::marker::PhantomData<I>,
}

impl<I: ClmulIsa> Kernel for Powers<I> {
    type Output = [Block; POWERS];
    #[inline(always)]
    fn run(self) -> [Block; POWERS] {
        // SAFETY: entered under `I`, whose token the GHASH key holds.
        unsafe { powers_in_kernel::<<I as BlockIsa>::Reg>(self.h1) }
    }
}

/// The token of a carry-less GHASH this CPU has: made once with the key.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Carryless {
    Xmm(Pclmul),
    Ymm(VpclmulYmm),
    Zmm(VpclmulZmm),
}

impl Carryless {
    /// The token for `imp`, if this CPU has it.
    pub(crate) fn detect(imp: GhashImpl) -> Option<Carryless> {
        match imp {
            GhashImpl::Pclmul => Pclmul::detect().map(Carryless::Xmm),
            GhashImpl::Vpclmul256 => VpclmulYmm::detect().map(Carryless::Ymm),
            GhashImpl::Vpclmul512 => VpclmulZmm::detect().map(Carryless::Zmm),
            GhashImpl::Portable | GhashImpl::Pmull => None,
        }
    }

    /// GHASH of whole `blocks` into `acc` (powers H^n … H^1, n ≥ 8 × LANES).
    pub(crate) fn update(self, powers: &[Block], acc: &mut Block, blocks: &[Block]) {
        use core::marker::PhantomData;
        match self {
            Carryless::Xmm(t) => t.enter(Update::<Pclmul> { powers, acc, blocks, isa: PhantomData }),
            Carryless::Ymm(t) => t.enter(Update::<VpclmulYmm> { powers, acc, blocks, isa: PhantomData }),
            Carryless::Zmm(t) => t.enter(Update::<VpclmulZmm> { powers, acc, blocks, isa: PhantomData }),
        }
    }

    /// The powers H^n … H^1 this width uses (n = 8 × LANES) in the last n slots (the slots
    /// before are zero), from H·x^-1 (`h1`), all in stored form. Returned by value, so that
    /// the key object's struct expression takes them in place (see `GhashKey::new`).
    pub(crate) fn powers(self, h1: u128) -> [Block; POWERS] {
        use core::marker::PhantomData;
        match self {
            Carryless::Xmm(t) => t.enter_in_place(Powers::<Pclmul> { h1, isa: PhantomData }),
            Carryless::Ymm(t) => t.enter_in_place(Powers::<VpclmulYmm> { h1, isa: PhantomData }),
            Carryless::Zmm(t) => t.enter_in_place(Powers::<VpclmulZmm> { h1, isa: PhantomData }),
        }
    }
}
