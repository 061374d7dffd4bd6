//! `vaes256`, `vaes512`: VAES on ymm (2 blocks per register, 16 in flight) and zmm (4 per
//! register, 32 in flight), from the shared body in `hw.rs`.
//!
//! On Zen 4 both reach 4 block-rounds per cycle (VAESENC ymm: 2/cycle, zmm: 1/cycle); zmm needs
//! half the instructions.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use cipher::consts::{U16, U32};

use super::hw::AesVec;
use crate::Block;

// SAFETY (all methods): callers are `#[target_feature(enable = "aes,vaes,avx2")]` functions
// reached only after runtime detection of AES-NI, VAES and AVX2. The masked loads and stores
// touch only the blocks their mask selects. The GHASH entry points (`gcm/pclmul.rs`) call only
// the methods without AES instructions, with AVX2 enabled.
impl AesVec for __m256i {
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
    unsafe fn broadcast(k: &Block) -> Self {
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(k.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm256_xor_si256(self, o) }
    }
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm256_aesenc_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm256_aesenclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm256_aesdec_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm256_aesdeclast_epi128(self, k) }
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
    // (a, a'), (b, b') → (a, b) and (a', b'): 128-bit lane permutes.
    #[inline(always)]
    unsafe fn split_pairs(lo: Self, hi: Self) -> (Self, Self) {
        unsafe { (_mm256_permute2x128_si256::<0x20>(lo, hi), _mm256_permute2x128_si256::<0x31>(lo, hi)) }
    }
    #[inline(always)]
    unsafe fn join_pairs(first: Self, second: Self) -> (Self, Self) {
        unsafe { (_mm256_permute2x128_si256::<0x20>(first, second), _mm256_permute2x128_si256::<0x31>(first, second)) }
    }
}

// SAFETY (all methods): callers are `#[target_feature(enable = "aes,vaes,avx512f,avx512bw")]`
// functions reached only after runtime detection of AES-NI, VAES and AVX-512F/BW. The GHASH
// entry points (`gcm/pclmul.rs`) call only the methods without AES instructions, with
// AVX-512F/BW enabled.
impl AesVec for __m512i {
    const LANES: usize = 4;
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
    unsafe fn broadcast(k: &Block) -> Self {
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(k.as_ptr().cast())) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm512_xor_si512(self, o) }
    }
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm512_aesenc_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm512_aesenclast_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm512_aesdec_epi128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm512_aesdeclast_epi128(self, k) }
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
    // (a, a', b, b'), (c, c', d, d') → (a, b, c, d) and (a', b', c', d').
    #[inline(always)]
    unsafe fn split_pairs(lo: Self, hi: Self) -> (Self, Self) {
        unsafe { (_mm512_shuffle_i64x2::<0b10_00_10_00>(lo, hi), _mm512_shuffle_i64x2::<0b11_01_11_01>(lo, hi)) }
    }
    #[inline(always)]
    unsafe fn join_pairs(first: Self, second: Self) -> (Self, Self) {
        unsafe {
            // (a, b, a', b') then reorder to (a, a', b, b'); likewise for c, d.
            let ab = _mm512_shuffle_i64x2::<0b01_00_01_00>(first, second);
            let cd = _mm512_shuffle_i64x2::<0b11_10_11_10>(first, second);
            (_mm512_shuffle_i64x2::<0b11_01_10_00>(ab, ab), _mm512_shuffle_i64x2::<0b11_01_10_00>(cd, cd))
        }
    }
}

aes_insn_backend!(
    /// VAES on ymm registers: 16 blocks in flight.
    Vaes256, __m256i, __m128i, U16, "vaes256", "aes,vaes,avx2", crate::aes::aesni::expand_key,
    crate::cpu::x86_has!("aes") && crate::cpu::x86_has!("vaes")
        && crate::cpu::x86_has!("avx2")
);

aes_insn_backend!(
    /// VAES on zmm registers: 32 blocks in flight.
    Vaes512, __m512i, __m128i, U32, "vaes512", "aes,vaes,avx512f,avx512bw", crate::aes::aesni::expand_key,
    crate::cpu::x86_has!("aes") && crate::cpu::x86_has!("vaes")
        && crate::cpu::x86_has!("avx512f") && crate::cpu::x86_has!("avx512bw")
);
