//! GHASH's carry-less multiply on x86-64: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm — the
//! [`ClmulReg`] registers for the one body in `clmul.rs`, and the tokens that run it.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::arch::x86_64::*;

use super::{GhashImpl, POWERS};
use super::clmul::{ClmulIsa, ClmulReg, powers_in_kernel, update_blocks, upper_powers_in_kernel};
use crate::Block;
use crate::simd::x86::{AesNiPclmul, Pclmul, VaesVpclmulYmm, VaesVpclmulZmm, VpclmulYmm, VpclmulZmm};
use crate::simd::{BlockIsa, Isa, Kernel, Reg};

macro_rules! clmul_vec {
    ($ty:ty, $clmul:ident, $shuffle32:ident, $set1_64:ident, $unpacklo:ident,
     shifts: $slli64:ident $srli64:ident $bslli:ident $srai32:ident, $and:ident,
     fold: |$f:ident| $fold:expr, lane0: |$x:ident| $lane0:expr, first: |$l:ident| $first:expr,
     bcast: |$b:ident| $bcast:expr) => {
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
            unsafe fn lane0(self) -> __m128i {
                let $l = self;
                unsafe { $first }
            }
            #[inline(always)]
            #[allow(unused_unsafe)]
            unsafe fn broadcast_lane($b: __m128i) -> Self {
                unsafe { $bcast }
            }
            /// `(p << 1) ⊕ (g's constant if p's bit 127 was set)` per lane, in the register:
            /// the 128-bit shift from two 64-bit shifts and the low qword's carry moved up, the
            /// mask from bit 127's sign spread to every dword. No branch, no table.
            #[inline(always)]
            unsafe fn times_inverse_x(self) -> Self {
                unsafe {
                    let shifted = $slli64::<1>(self).xor($bslli::<8>($srli64::<63>(self)));
                    let carry = $shuffle32::<0xff>($srai32::<31>(self));
                    let g = Self::broadcast_u128(0xc200_0000_0000_0000_0000_0000_0000_0001);
                    shifted.xor($and(carry, g))
                }
            }
        }
    };
}

clmul_vec!(__m128i, _mm_clmulepi64_si128, _mm_shuffle_epi32, _mm_set1_epi64x, _mm_unpacklo_epi64,
    shifts: _mm_slli_epi64 _mm_srli_epi64 _mm_bslli_si128 _mm_srai_epi32, _mm_and_si128,
    fold: |v| v, lane0: |x| x, first: |v| v, bcast: |x| x);

clmul_vec!(__m256i, _mm256_clmulepi64_epi128, _mm256_shuffle_epi32, _mm256_set1_epi64x, _mm256_unpacklo_epi64,
    shifts: _mm256_slli_epi64 _mm256_srli_epi64 _mm256_bslli_epi128 _mm256_srai_epi32, _mm256_and_si256,
    fold: |v| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)),
    lane0: |x| _mm256_zextsi128_si256(x), first: |v| _mm256_castsi256_si128(v),
    bcast: |x| _mm256_broadcastsi128_si256(x));

clmul_vec!(__m512i, _mm512_clmulepi64_epi128, _mm512_shuffle_epi32, _mm512_set1_epi64, _mm512_unpacklo_epi64,
    shifts: _mm512_slli_epi64 _mm512_srli_epi64 _mm512_bslli_epi128 _mm512_srai_epi32, _mm512_and_si512,
    fold: |v| _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32::<1>(v)),
        _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(v), _mm512_extracti32x4_epi32::<3>(v)),
    ),
    lane0: |x| _mm512_zextsi128_si512(x), first: |v| _mm512_castsi512_si128(v),
    bcast: |x| _mm512_broadcast_i32x4(x));

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
        unsafe { powers_in_kernel::<<I as BlockIsa>::Reg>(<<I as BlockIsa>::Reg as ClmulReg>::Lane::broadcast_u128(self.h1)) }
    }
}

/// zmm's powers H^32 … H^17 into the upper half of `table` from its lower half, and the
/// paired powers after H^1.
struct UpperPowers {
    table: *mut Block,
}

impl Kernel for UpperPowers {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `VpclmulZmm` (zmm's carry-less multiply), on the table the
        // caller vouches for (`Carryless::upper_powers`).
        unsafe { upper_powers_in_kernel::<<VpclmulZmm as BlockIsa>::Reg>(self.table) }
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
    #[inline]
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

    /// zmm's H^32 … H^17, made after the key (`table.rs`), into the upper half of `table`
    /// from H^16 … H^1 in its lower half, and the paired powers into the `PAIRED` blocks after
    /// them; the narrower widths make all theirs with the key, so for them there is nothing
    /// to do.
    ///
    /// # Safety
    /// `table` points at POWERS blocks and the paired ones after them (`PowerCells`), the
    /// lower half written, and no other thread reads or writes the upper half or the paired
    /// powers until this returns.
    pub(crate) unsafe fn upper_powers(self, table: *mut Block) {
        if let Carryless::Zmm(t) = self {
            t.enter(UpperPowers { table });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ghash::{GhashKey, Spare};

    /// AES-GCM's key kernel path: H·x^-1 made in the vector register, then the powers.
    struct InKernel<I> {
        h: Block,
        imp: GhashImpl,
        isa: core::marker::PhantomData<I>,
    }

    impl<I: ClmulIsa> Kernel for InKernel<I> {
        type Output = GhashKey;
        fn run(self) -> GhashKey {
            let available = self.imp.check().expect("the test enters only where the CPU has it");
            // SAFETY: entered under `I`, the ISA of `imp`'s width.
            unsafe { GhashKey::new_in_kernel::<<I as BlockIsa>::Reg>(&self.h, available, available.stitched_schoolbook()) }
        }
    }

    /// The in-kernel key (H·x^-1 by vector shifts, the powers from it) equals the key made
    /// through general registers, on every width this CPU has, for an H whose x^0 coefficient
    /// (the first byte's top bit) is set, so the reduction of H·x^-1 applies, and one where it
    /// is clear.
    #[test]
    fn in_kernel_key_equals_the_general_register_key() {
        use core::marker::PhantomData;
        let hs: [Block; 3] = [
            [0x80, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x01],
            [0x7f, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x80],
            [0xff; 16],
        ];
        let carryless = [GhashImpl::Pclmul, GhashImpl::Vpclmul256, GhashImpl::Vpclmul512];
        let mut runs = 0;
        for h in hs {
            for imp in carryless {
                let Some(available) = imp.check() else { continue };
                let expected = GhashKey::new(&h, available);
                let got = match Carryless::detect(imp) {
                    Some(Carryless::Xmm(t)) => t.enter(InKernel::<Pclmul> { h, imp, isa: PhantomData }),
                    Some(Carryless::Ymm(t)) => t.enter(InKernel::<VpclmulYmm> { h, imp, isa: PhantomData }),
                    Some(Carryless::Zmm(t)) => t.enter(InKernel::<VpclmulZmm> { h, imp, isa: PhantomData }),
                    None => continue,
                };
                let (mut room, mut room2) = (core::mem::MaybeUninit::uninit(), core::mem::MaybeUninit::uninit());
                let (mut spare, mut spare2) = (Spare::new(&mut room), Spare::new(&mut room2));
                let n = imp.powers_used();
                let (got, expected) = (got.powers_for(n, &mut spare).last(n), expected.powers_for(n, &mut spare2).last(n));
                assert_eq!(got, expected, "{}: {h:02x?}", imp.name());
                runs += 1;
            }
        }
        // Every width the CPU has ran the kernel path (none on the emulated CPUs without it).
        assert_eq!(runs, hs.len() * carryless.iter().filter(|imp| imp.check().is_some()).count());
    }
}
