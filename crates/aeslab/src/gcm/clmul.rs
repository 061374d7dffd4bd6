//! GHASH with carry-less multiplication: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm, one
//! body for every width.
//!
//! A register holds `LANES` blocks. A group of `GROUP × LANES` blocks is multiplied by the
//! powers H^n … H^1 (block k of n by H^(n−k)), the accumulator folded into the first block,
//! and the partial products summed unreduced; then one reduction per 128-bit lane and an XOR
//! of the lanes give the new accumulator — the aggregated reduction, which takes the reduction
//! (the serial part) out of the per-block cost.
//!
//! Representation: a block is byte-reversed into a 128-bit integer whose bit 127 is the
//! coefficient of x^0 (GCM's bit order read backwards). A carry-less product of two such
//! integers is then the 255-bit reflected product one bit short of alignment, so each power is
//! stored as H^k·x^-1 (`GhashKey::new`): the products come out aligned and need no shift. The
//! reduction folds the low 64 bits twice with one carry-less multiply by x^128 mod g in
//! reflected form (0xc2 << 56) and one qword swap each — no shifts, which on Intel cores with
//! AVX-512 share the port that VAES uses.
//!
//! Carry-less multiplication runs in constant time; there is no branch or table on data.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::Block;

/// Registers per group.
pub(crate) const GROUP: usize = 8;

/// A register of `LANES` GHASH blocks. All methods are `unsafe`: callers are compiled with the
/// target features the implementation needs and run on a CPU that has them.
pub(crate) trait ClmulVec: Copy {
    const LANES: usize;
    unsafe fn zero() -> Self;
    unsafe fn load(src: *const Block) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    /// Byte-reverses every 128-bit lane (block bytes → the reversed-polynomial integer).
    unsafe fn byte_reverse(self) -> Self;
    /// Carry-less products of 64-bit halves, per lane: low×low, high×high, low×high, high×low.
    unsafe fn clmul_ll(self, o: Self) -> Self;
    unsafe fn clmul_hh(self, o: Self) -> Self;
    unsafe fn clmul_lh(self, o: Self) -> Self;
    unsafe fn clmul_hl(self, o: Self) -> Self;
    /// Per 128-bit lane: the two qwords swapped.
    unsafe fn swap_qwords(self) -> Self;
    /// `0xc2 << 56` in the high qword of every lane: x^128 mod g, reflected, less its x^0 term.
    unsafe fn poly() -> Self;
    /// The XOR of all lanes.
    unsafe fn fold_lanes(self) -> __m128i;
    /// `x` in lane 0, zero elsewhere.
    unsafe fn from_lane0(x: __m128i) -> Self;
}

macro_rules! clmul_vec {
    ($ty:ty, $lanes:expr, $zero:ident, $load:ident, $xor:ident, $shuffle:ident, $set_mask:expr,
     $clmul:ident, $shuffle32:ident, $set1_64:ident,
     fold: |$f:ident| $fold:expr, lane0: |$x:ident| $lane0:expr) => {
        // SAFETY (all methods): see the trait; every intrinsic used is in the features the
        // backend's entry points enable.
        impl ClmulVec for $ty {
            const LANES: usize = $lanes;
            #[inline(always)]
            unsafe fn zero() -> Self {
                unsafe { $zero() }
            }
            #[inline(always)]
            unsafe fn load(src: *const Block) -> Self {
                unsafe { $load(src.cast()) }
            }
            #[inline(always)]
            unsafe fn xor(self, o: Self) -> Self {
                unsafe { $xor(self, o) }
            }
            #[inline(always)]
            unsafe fn byte_reverse(self) -> Self {
                unsafe { $shuffle(self, $set_mask) }
            }
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

clmul_vec!(__m128i, 1, _mm_setzero_si128, _mm_loadu_si128, _mm_xor_si128, _mm_shuffle_epi8,
    _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    _mm_clmulepi64_si128, _mm_shuffle_epi32, _mm_set1_epi64x,
    fold: |v| v, lane0: |x| x);

clmul_vec!(__m256i, 2, _mm256_setzero_si256, _mm256_loadu_si256, _mm256_xor_si256, _mm256_shuffle_epi8,
    _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
    _mm256_clmulepi64_epi128, _mm256_shuffle_epi32, _mm256_set1_epi64x,
    fold: |v| _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)),
    lane0: |x| _mm256_zextsi128_si256(x));

clmul_vec!(__m512i, 4, _mm512_setzero_si512, _mm512_loadu_si512, _mm512_xor_si512, _mm512_shuffle_epi8,
    _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
    _mm512_clmulepi64_epi128, _mm512_shuffle_epi32, _mm512_set1_epi64,
    fold: |v| _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32::<1>(v)),
        _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(v), _mm512_extracti32x4_epi32::<3>(v)),
    ),
    lane0: |x| _mm512_zextsi128_si512(x));

/// The unreduced product sum of a group: the low, middle and high 128-bit parts per lane.
#[derive(Clone, Copy)]
struct Sum<V> {
    lo: V,
    mid: V,
    hi: V,
}

#[inline(always)]
unsafe fn mul_add<V: ClmulVec>(s: &mut Sum<V>, x: V, h: V) {
    unsafe {
        s.lo = s.lo.xor(x.clmul_ll(h));
        s.hi = s.hi.xor(x.clmul_hh(h));
        s.mid = s.mid.xor(x.clmul_lh(h)).xor(x.clmul_hl(h));
    }
}

/// `hi·2^128 ⊕ mid·2^64 ⊕ lo` reduced per lane, then the lanes' XOR. Each fold moves the low
/// qword of a 128-bit part up by 128 bits reduced (x^128 ≡ x^7 + x^2 + x + 1): the swap puts
/// it 128 bits higher, the multiply by `poly` adds its x^7, x^2, x terms; the fold of `lo` lands
/// in `mid`, the fold of `mid` in `hi`, which is then the reduced product.
#[inline(always)]
unsafe fn reduce<V: ClmulVec>(s: Sum<V>) -> __m128i {
    unsafe {
        let poly = V::poly();
        let mid = s.mid.xor(s.lo.swap_qwords()).xor(s.lo.clmul_lh(poly));
        s.hi.xor(mid.swap_qwords()).xor(mid.clmul_lh(poly)).fold_lanes()
    }
}

/// The accumulator `a` after the `GROUP × LANES` blocks at `chunk`; `h` points at the powers
/// H^(GROUP × LANES) … H^1.
#[inline(always)]
pub(crate) unsafe fn absorb_group<V: ClmulVec>(h: *const Block, a: __m128i, chunk: *const Block) -> __m128i {
    unsafe {
        let mut s = Sum { lo: V::zero(), mid: V::zero(), hi: V::zero() };
        for r in 0..GROUP {
            let mut x = V::load(chunk.add(r * V::LANES)).byte_reverse();
            if r == 0 {
                x = x.xor(V::from_lane0(a));
            }
            mul_add(&mut s, x, V::load(h.add(r * V::LANES)));
        }
        reduce(s)
    }
}

/// GHASH over whole blocks. `powers` holds H^n … H^1 (n = `powers.len()` ≥ `GROUP × LANES`)
/// as reversed-polynomial integers in little-endian byte order, ready to load; `acc` likewise.
#[inline(always)]
pub(crate) unsafe fn update_blocks<V: ClmulVec>(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe {
        let group = GROUP * V::LANES;
        let n = powers.len();
        debug_assert!(n >= group);
        let mut a = _mm_loadu_si128(acc.as_ptr().cast());
        let mut chunks = blocks.chunks_exact(group);
        for chunk in &mut chunks {
            a = absorb_group::<V>(powers.as_ptr().add(n - group), a, chunk.as_ptr());
        }
        // The tail, one block per xmm, aggregated over at most GROUP × LANES − 1 blocks.
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let h = powers.as_ptr().add(n - tail.len());
            let mut s = Sum { lo: __m128i::zero(), mid: __m128i::zero(), hi: __m128i::zero() };
            for (k, b) in tail.iter().enumerate() {
                let mut x = __m128i::load(b).byte_reverse();
                if k == 0 {
                    x = x.xor(a);
                }
                mul_add(&mut s, x, __m128i::load(h.add(k)));
            }
            a = reduce(s);
        }
        _mm_storeu_si128(acc.as_mut_ptr().cast(), a);
    }
}

/// The widest carry-less multiply this CPU has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
    Xmm,
    Ymm,
    Zmm,
}

impl Width {
    pub(crate) fn detect() -> Option<Width> {
        use crate::cpu::x86_has;
        if !(x86_has!("pclmulqdq") && x86_has!("ssse3")) {
            None
        } else if x86_has!("vpclmulqdq") && x86_has!("avx512f") && x86_has!("avx512bw") {
            Some(Width::Zmm)
        } else if x86_has!("vpclmulqdq") && x86_has!("avx2") {
            Some(Width::Ymm)
        } else {
            Some(Width::Xmm)
        }
    }

    pub(crate) fn lanes(self) -> usize {
        match self {
            Width::Xmm => 1,
            Width::Ymm => 2,
            Width::Zmm => 4,
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

/// GHASH of whole `blocks` into `acc` at `width`.
///
/// # Safety
/// `width` came from [`Width::detect`] on this CPU.
pub(crate) unsafe fn update(width: Width, powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe {
        match width {
            Width::Xmm => update_xmm(powers, acc, blocks),
            Width::Ymm => update_ymm(powers, acc, blocks),
            Width::Zmm => update_zmm(powers, acc, blocks),
        }
    }
}
