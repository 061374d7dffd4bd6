//! x86-64: the block registers (xmm, ymm, zmm) and every instruction set aeslab's kernels run
//! under, each with its feature string and its detection in one line.

use core::arch::x86_64::*;

use super::{Reg, isa, one_block_per_register, read_partial_block, write_partial_block};
use crate::Block;
use crate::cpu::x86_has;

isa!(
    /// SSE2, part of every x86-64 CPU (ACE's 4-lane words).
    Sse2, "sse2", true
);
isa!(
    /// SSSE3 (`bitslice-sse`).
    Ssse3, "ssse3", x86_has!("ssse3")
);
isa!(
    /// AVX2 (`bitslice-avx2`, ACE's 8-lane words).
    Avx2, "avx2", x86_has!("avx2")
);
isa!(
    /// AVX-512F (ACE's 16-lane words).
    Avx512F, "avx512f", x86_has!("avx512f")
);
isa!(
    /// AVX-512F and BW (`bitslice-avx512`).
    Avx512Bw, "avx512f,avx512bw", x86_has!("avx512f", "avx512bw")
);
isa!(
    /// AES-NI on xmm, with SSSE3 for the counter's byte swap (`aesni`).
    AesNi, "aes,ssse3", reg = __m128i, x86_has!("aes", "ssse3")
);
isa!(
    /// VAES on ymm (`vaes256`).
    VaesYmm, "aes,vaes,avx2", reg = __m256i, x86_has!("aes", "vaes", "avx2")
);
isa!(
    /// VAES on zmm (`vaes512`).
    VaesZmm, "aes,vaes,avx512f,avx512bw", reg = __m512i, x86_has!("aes", "vaes", "avx512f", "avx512bw")
);
isa!(
    /// PCLMULQDQ on xmm (GHASH `pclmul`).
    Pclmul, "pclmulqdq,ssse3", reg = __m128i, x86_has!("pclmulqdq", "ssse3")
);
isa!(
    /// VPCLMULQDQ on ymm (GHASH `vpclmul256`).
    VpclmulYmm, "pclmulqdq,ssse3,vpclmulqdq,avx2", reg = __m256i, x86_has!("pclmulqdq", "ssse3", "vpclmulqdq", "avx2")
);
isa!(
    /// VPCLMULQDQ on zmm (GHASH `vpclmul512`).
    VpclmulZmm, "pclmulqdq,ssse3,vpclmulqdq,avx512f,avx512bw", reg = __m512i,
    x86_has!("pclmulqdq", "ssse3", "vpclmulqdq", "avx512f", "avx512bw")
);
isa!(
    /// AES-NI and PCLMULQDQ on xmm: GCM's stitched loop for `aesni` + `pclmul`.
    AesNiPclmul, "aes,ssse3,pclmulqdq", reg = __m128i, x86_has!("aes", "ssse3", "pclmulqdq")
);
isa!(
    /// VAES and VPCLMULQDQ on ymm: GCM's stitched loop for `vaes256` + `vpclmul256`.
    VaesVpclmulYmm, "aes,vaes,avx2,ssse3,pclmulqdq,vpclmulqdq", reg = __m256i,
    x86_has!("aes", "vaes", "avx2", "ssse3", "pclmulqdq", "vpclmulqdq")
);
isa!(
    /// VAES and VPCLMULQDQ on zmm: GCM's stitched loop for `vaes512` + `vpclmul512`.
    VaesVpclmulZmm, "aes,vaes,avx512f,avx512bw,ssse3,pclmulqdq,vpclmulqdq", reg = __m512i,
    x86_has!("aes", "vaes", "avx512f", "avx512bw", "ssse3", "pclmulqdq", "vpclmulqdq")
);

/// [`Reg::computed_here`] for zmm: an `asm!` operand in a zmm register needs AVX-512F in the
/// function that holds it, so the barrier is a function of its own with that feature, which
/// inlines into every kernel that has it.
///
/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn zmm_computed_here(x: __m512i) -> __m512i {
    #[allow(unused_mut)] // Mutated only by the barrier.
    let mut x = x;
    // SAFETY: the template is empty; the register goes in and comes out unchanged.
    #[cfg(not(miri))]
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) x, options(nomem, nostack, preserves_flags));
    }
    x
}

// SAFETY (every method of the three impls): the caller holds a token of an ISA with this
// register (see `Reg`): SSSE3 at least for xmm (its kernels' ISAs all include it), AVX2 for
// ymm, AVX-512F and BW for zmm. The masked loads and stores touch only the blocks (zmm: the
// bytes) their mask selects, and the byte moves of xmm and ymm only the bytes asked for
// (`read_partial_block`, `write_partial_block`).

impl Reg for __m128i {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn computed_here(self) -> Self {
        #[allow(unused_mut)] // Mutated only by the barrier.
        let mut x = self;
        // SAFETY: the template is empty; the register goes in and comes out unchanged.
        #[cfg(not(miri))]
        unsafe {
            core::arch::asm!("/* {0} */", inout(xmm_reg) x, options(nomem, nostack, preserves_flags));
        }
        x
    }
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
    unsafe fn broadcast(b: &Block) -> Self {
        unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn broadcast_u128(x: u128) -> Self {
        unsafe { _mm_set_epi64x((x >> 64) as i64, x as i64) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm_xor_si128(self, o) }
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
    #[inline(always)]
    unsafe fn load_bytes(src: *const u8, n: usize) -> Self {
        unsafe {
            if n >= 16 {
                _mm_loadu_si128(src.cast())
            } else {
                let (low, high) = read_partial_block(src, n);
                _mm_set_epi64x(high as i64, low as i64)
            }
        }
    }
    #[inline(always)]
    unsafe fn store_bytes(self, dst: *mut u8, n: usize) {
        unsafe {
            if n >= 16 {
                _mm_storeu_si128(dst.cast(), self);
            } else {
                let (low, high) = (_mm_cvtsi128_si64(self), _mm_cvtsi128_si64(_mm_unpackhi_epi64(self, self)));
                write_partial_block(dst, (low as u64, high as u64), n);
            }
        }
    }
    #[inline(always)]
    unsafe fn keep_bytes(self, n: usize) -> Self {
        unsafe {
            if n >= 16 {
                self
            } else {
                // Byte i is kept where n > i (n ≤ 15 and i ≤ 15: no signed overflow).
                let index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
                _mm_and_si128(self, _mm_cmpgt_epi8(_mm_set1_epi8(n as i8), index))
            }
        }
    }
}

impl Reg for __m256i {
    const LANES: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> Self {
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn load(src: *const Block) -> Self {
        unsafe { _mm256_loadu_si256(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut Block) {
        unsafe { _mm256_storeu_si256(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: &Block) -> Self {
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(b.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn broadcast_u128(x: u128) -> Self {
        unsafe { _mm256_broadcastsi128_si256(<__m128i as Reg>::broadcast_u128(x)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm256_xor_si256(self, o) }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        unsafe { _mm256_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn byte_reverse(self) -> Self {
        unsafe {
            let rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            _mm256_shuffle_epi8(self, _mm256_broadcastsi128_si256(rev))
        }
    }
    #[inline(always)]
    unsafe fn splat_low32(n: u32) -> Self {
        unsafe { _mm256_setr_epi32(n as i32, 0, 0, 0, n as i32, 0, 0, 0) }
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        unsafe { _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0) }
    }
    // With two blocks per register, "partial" always means the first block (n = 1).
    #[inline(always)]
    unsafe fn load_partial(src: *const Block, _n: usize) -> Self {
        unsafe { _mm256_maskload_epi64(src.cast(), _mm256_setr_epi64x(-1, -1, 0, 0)) }
    }
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut Block, _n: usize) {
        unsafe { _mm256_maskstore_epi64(dst.cast(), _mm256_setr_epi64x(-1, -1, 0, 0), self) }
    }
    #[inline(always)]
    unsafe fn keep_first(self, n: usize) -> Self {
        unsafe { if n == 0 { _mm256_setzero_si256() } else { _mm256_zextsi128_si256(_mm256_castsi256_si128(self)) } }
    }
    #[inline(always)]
    unsafe fn load_bytes(src: *const u8, n: usize) -> Self {
        unsafe {
            if n >= 32 {
                _mm256_loadu_si256(src.cast())
            } else if n >= 16 {
                let high = <__m128i as Reg>::load_bytes(src.add(16), n - 16);
                _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(_mm_loadu_si128(src.cast())), high)
            } else {
                _mm256_zextsi128_si256(<__m128i as Reg>::load_bytes(src, n))
            }
        }
    }
    #[inline(always)]
    unsafe fn store_bytes(self, dst: *mut u8, n: usize) {
        unsafe {
            let low = _mm256_castsi256_si128(self);
            if n >= 32 {
                _mm256_storeu_si256(dst.cast(), self);
            } else if n >= 16 {
                _mm_storeu_si128(dst.cast(), low);
                _mm256_extracti128_si256::<1>(self).store_bytes(dst.add(16), n - 16);
            } else {
                low.store_bytes(dst, n);
            }
        }
    }
    #[inline(always)]
    unsafe fn keep_bytes(self, n: usize) -> Self {
        unsafe {
            if n >= 32 {
                self
            } else {
                // Byte i is kept where n > i (both below 32: no signed overflow).
                let index = _mm256_setr_epi8(
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                    30, 31,
                );
                _mm256_and_si256(self, _mm256_cmpgt_epi8(_mm256_set1_epi8(n as i8), index))
            }
        }
    }
    // (a0, b0), (a1, b1) → (a0, a1) and (b0, b1): 128-bit lane permutes.
    #[inline(always)]
    unsafe fn unzip(lo: Self, hi: Self) -> (Self, Self) {
        unsafe { (_mm256_permute2x128_si256::<0x20>(lo, hi), _mm256_permute2x128_si256::<0x31>(lo, hi)) }
    }
    #[inline(always)]
    unsafe fn zip(a: Self, b: Self) -> (Self, Self) {
        unsafe { (_mm256_permute2x128_si256::<0x20>(a, b), _mm256_permute2x128_si256::<0x31>(a, b)) }
    }
}

/// The mask of the first `n ≤ 64` bytes of a zmm register.
#[inline(always)]
fn byte_mask(n: usize) -> __mmask64 {
    debug_assert!(n <= 64);
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

impl Reg for __m512i {
    const LANES: usize = 4;
    #[inline(always)]
    unsafe fn computed_here(self) -> Self {
        // SAFETY: the caller holds a token with AVX-512F (see above).
        unsafe { zmm_computed_here(self) }
    }
    #[inline(always)]
    unsafe fn zero() -> Self {
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    unsafe fn load(src: *const Block) -> Self {
        unsafe { _mm512_loadu_si512(src.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut Block) {
        unsafe { _mm512_storeu_si512(dst.cast(), self) }
    }
    #[inline(always)]
    unsafe fn broadcast(b: &Block) -> Self {
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(b.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn broadcast_u128(x: u128) -> Self {
        unsafe { _mm512_broadcast_i32x4(<__m128i as Reg>::broadcast_u128(x)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm512_xor_si512(self, o) }
    }
    #[inline(always)]
    unsafe fn add32(self, o: Self) -> Self {
        unsafe { _mm512_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn byte_reverse(self) -> Self {
        unsafe {
            let rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            _mm512_shuffle_epi8(self, _mm512_broadcast_i32x4(rev))
        }
    }
    #[inline(always)]
    unsafe fn splat_low32(n: u32) -> Self {
        unsafe { _mm512_broadcast_i32x4(_mm_setr_epi32(n as i32, 0, 0, 0)) }
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        unsafe { _mm512_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0) }
    }
    #[inline(always)]
    unsafe fn load_partial(src: *const Block, n: usize) -> Self {
        unsafe { _mm512_maskz_loadu_epi64(((1u32 << (2 * n)) - 1) as __mmask8, src.cast()) }
    }
    #[inline(always)]
    unsafe fn store_partial(self, dst: *mut Block, n: usize) {
        unsafe { _mm512_mask_storeu_epi64(dst.cast(), ((1u32 << (2 * n)) - 1) as __mmask8, self) }
    }
    #[inline(always)]
    unsafe fn keep_first(self, n: usize) -> Self {
        unsafe { _mm512_maskz_mov_epi64(((1u32 << (2 * n)) - 1) as __mmask8, self) }
    }
    const BYTE_MASKS: bool = true;
    #[inline(always)]
    unsafe fn load_bytes(src: *const u8, n: usize) -> Self {
        unsafe { _mm512_maskz_loadu_epi8(byte_mask(n), src.cast()) }
    }
    #[inline(always)]
    unsafe fn store_bytes(self, dst: *mut u8, n: usize) {
        unsafe { _mm512_mask_storeu_epi8(dst.cast(), byte_mask(n), self) }
    }
    #[inline(always)]
    unsafe fn keep_bytes(self, n: usize) -> Self {
        unsafe { _mm512_maskz_mov_epi8(byte_mask(n), self) }
    }
    // (a0, b0, a1, b1), (a2, b2, a3, b3) → (a0, a1, a2, a3) and (b0, b1, b2, b3).
    #[inline(always)]
    unsafe fn unzip(lo: Self, hi: Self) -> (Self, Self) {
        unsafe { (_mm512_shuffle_i64x2::<0b10_00_10_00>(lo, hi), _mm512_shuffle_i64x2::<0b11_01_11_01>(lo, hi)) }
    }
    #[inline(always)]
    unsafe fn zip(a: Self, b: Self) -> (Self, Self) {
        unsafe {
            // (a0, a1, b0, b1) then reorder to (a0, b0, a1, b1); likewise for the upper halves.
            let low = _mm512_shuffle_i64x2::<0b01_00_01_00>(a, b);
            let high = _mm512_shuffle_i64x2::<0b11_10_11_10>(a, b);
            (_mm512_shuffle_i64x2::<0b11_01_10_00>(low, low), _mm512_shuffle_i64x2::<0b11_01_10_00>(high, high))
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// `R`'s byte moves touch exactly the bytes asked for, at every length: a load sees the
    /// first `n` bytes and zeros after them, read from a buffer of exactly `n` bytes (Miri and
    /// AddressSanitizer flag a read past it); `keep_bytes` zeros the rest; a store changes the
    /// first `n` bytes of its buffer and none after them.
    ///
    /// # Safety
    /// The CPU has `R`'s ISA.
    unsafe fn byte_moves_touch_only_their_bytes<R: Reg>() {
        let width = 16 * R::LANES;
        let pattern: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(29).wrapping_add(3)).collect();
        let whole = unsafe { R::load(pattern.as_ptr().cast()) };
        let bytes_of = |r: R| {
            let mut out = [[0xeeu8; 16]; 4];
            unsafe { r.store(out.as_mut_ptr()) };
            out.as_flattened()[..width].to_vec()
        };
        for n in 0..=width {
            let expect: Vec<u8> = (0..width).map(|i| if i < n { pattern[i] } else { 0 }).collect();
            let src = pattern[..n].to_vec();
            assert_eq!(bytes_of(unsafe { R::load_bytes(src.as_ptr(), n) }), expect, "load_bytes, {n} of {width}");
            assert_eq!(bytes_of(unsafe { whole.keep_bytes(n) }), expect, "keep_bytes, {n} of {width}");
            let mut dst = std::vec![0x5au8; width + 16];
            unsafe { whole.store_bytes(dst.as_mut_ptr(), n) };
            assert_eq!(&dst[..n], &pattern[..n], "store_bytes, {n} of {width}");
            assert!(dst[n..].iter().all(|&b| b == 0x5a), "store_bytes past {n} of {width}");
        }
    }

    #[test]
    fn xmm_byte_moves_touch_only_their_bytes() {
        if crate::cpu::x86_has!("ssse3") {
            // SAFETY: the CPU has SSSE3, all that xmm's methods use.
            unsafe { byte_moves_touch_only_their_bytes::<__m128i>() }
        }
    }

    #[test]
    fn ymm_byte_moves_touch_only_their_bytes() {
        if crate::cpu::x86_has!("avx2") {
            // SAFETY: the CPU has AVX2, all that ymm's methods use.
            unsafe { byte_moves_touch_only_their_bytes::<__m256i>() }
        } else {
            std::eprintln!("skipped: needs avx2");
        }
    }

    #[test]
    fn zmm_byte_moves_touch_only_their_bytes() {
        if crate::cpu::x86_has!("avx512f", "avx512bw") {
            // SAFETY: the CPU has AVX-512F and BW, all that zmm's methods use.
            unsafe { byte_moves_touch_only_their_bytes::<__m512i>() }
        } else {
            std::eprintln!("skipped: needs avx512f and avx512bw");
        }
    }
}
