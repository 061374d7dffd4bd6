//! `bitslice-sse`, `bitslice-avx2`, `bitslice-avx512`: constant-time AES bitsliced in SIMD
//! registers (Käsper–Schwabe), 8 / 16 / 32 blocks per batch.
//!
//! The round function is the shared bitsliced core (`mod.rs`); this file gives each register
//! width the few operations it needs.
//! In a register of `16n` bits (`n` blocks) a row is `4n` bits: a 32-bit lane (xmm), 64-bit lane
//! (ymm) or 128-bit lane (zmm). MixColumns rotates whole rows (PSHUFD, VPERMQ, VSHUFI64X2);
//! ShiftRows moves whole columns inside a row, which never crosses a 128-bit lane, so one
//! PSHUFB with a constant index does it. All are data-independent: no branch or memory index
//! depends on key or data.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::arch::x86_64::*;

use cipher::consts::{U8, U16, U32};

use super::{Sliced, SlicedIsa, Word};
use crate::Block;
use crate::simd::x86::{Avx2, Avx512Bw, Ssse3};

/// Constant-time bitsliced AES in xmm registers (SSSE3), 8 blocks per batch.
pub type BitsliceSse = Sliced<Ssse3>;
/// Constant-time bitsliced AES in ymm registers (AVX2), 16 blocks per batch.
pub type BitsliceAvx2 = Sliced<Avx2>;
/// Constant-time bitsliced AES in zmm registers (AVX-512F/BW), 32 blocks per batch.
pub type BitsliceAvx512 = Sliced<Avx512Bw>;

impl SlicedIsa for Ssse3 {
    type Word = Xmm;
    const NAME: &'static str = "bitslice-sse";
    type Batch = U8;
}

impl SlicedIsa for Avx2 {
    type Word = Ymm;
    const NAME: &'static str = "bitslice-avx2";
    type Batch = U16;
}

impl SlicedIsa for Avx512Bw {
    type Word = Zmm;
    const NAME: &'static str = "bitslice-avx512";
    type Batch = U32;
}

/// PSHUFB index for ShiftRows (or its inverse) on a word of `n` blocks; byte `i` of the
/// result comes from byte `index[i]` of the same 128-bit lane.
const fn shift_rows_index(n: usize, inverse: bool) -> [u8; 64] {
    let mut idx = [0u8; 64];
    let mut i = 0;
    while i < 2 * n {
        let bit = 8 * i;
        let (row, in_row) = (bit / (4 * n), bit % (4 * n));
        let (col, in_col) = (in_row / n, in_row % n);
        let src_col = if inverse { (col + 4 - row) % 4 } else { (col + row) % 4 };
        idx[i] = (((row * 4 * n + src_col * n + in_col) / 8) % 16) as u8;
        i += 1;
    }
    idx
}

static XMM_SR: [u8; 64] = shift_rows_index(8, false);
static XMM_ISR: [u8; 64] = shift_rows_index(8, true);
static YMM_SR: [u8; 64] = shift_rows_index(16, false);
static YMM_ISR: [u8; 64] = shift_rows_index(16, true);
static ZMM_SR: [u8; 64] = shift_rows_index(32, false);
static ZMM_ISR: [u8; 64] = shift_rows_index(32, true);

// The `unsafe` blocks below call SIMD intrinsics. They are sound because a word exists only
// after its ISA's token was made (`load` and `gather` take it; every other method takes a word),
// so the CPU has SSSE3, AVX2 or AVX-512F+BW respectively. The free helpers are `unsafe fn`s
// for the same reason and are called only from the words' methods (the xmm helpers need
// SSSE3, which all three ISAs include).

/// PSHUFB index transposing a block's 4×4 byte matrix: byte 4·row + col of the result is
/// byte 4·col + row (column-major FIPS order → row-major).
static TRANSPOSE_4X4: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
/// PSHUFB index gathering even bytes low and odd bytes high.
static DEINTERLEAVE_2: [u8; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15];

#[inline(always)]
unsafe fn load_block_rows(b: &Block) -> __m128i {
    unsafe { _mm_shuffle_epi8(_mm_loadu_si128(b.as_ptr().cast()), _mm_loadu_si128(TRANSPOSE_4X4.as_ptr().cast())) }
}

#[inline(always)]
unsafe fn store_block_rows(b: &mut Block, rows: __m128i) {
    unsafe {
        let x = _mm_shuffle_epi8(rows, _mm_loadu_si128(TRANSPOSE_4X4.as_ptr().cast()));
        _mm_storeu_si128(b.as_mut_ptr().cast(), x)
    }
}

/// Word `k` of `n`-block words holds blocks k, k + 8, k + 16, … (blk mod 8 = k) with byte
/// i = (4·row + col)·(n/8) + blk/8: row-major blocks, byte-interleaved. These build the
/// interleavings for 2 and 4 blocks; each returns 128-bit lanes in order.
#[inline(always)]
unsafe fn interleave2(a: __m128i, b: __m128i) -> [__m128i; 2] {
    unsafe { [_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)] }
}

#[inline(always)]
unsafe fn deinterleave2(lo: __m128i, hi: __m128i) -> [__m128i; 2] {
    unsafe {
        let idx = _mm_loadu_si128(DEINTERLEAVE_2.as_ptr().cast());
        let (lo, hi) = (_mm_shuffle_epi8(lo, idx), _mm_shuffle_epi8(hi, idx));
        [_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi)]
    }
}

#[inline(always)]
unsafe fn interleave4(x: [__m128i; 4]) -> [__m128i; 4] {
    unsafe {
        let [t0, t2] = interleave2(x[0], x[1]);
        let [t1, t3] = interleave2(x[2], x[3]);
        [_mm_unpacklo_epi16(t0, t1), _mm_unpackhi_epi16(t0, t1), _mm_unpacklo_epi16(t2, t3), _mm_unpackhi_epi16(t2, t3)]
    }
}

#[inline(always)]
unsafe fn deinterleave4(u: [__m128i; 4]) -> [__m128i; 4] {
    unsafe {
        // Within each lane, byte 4m + b → dword b; then a 4×4 dword transpose across lanes.
        let idx = _mm_loadu_si128(TRANSPOSE_4X4.as_ptr().cast());
        let v = [
            _mm_shuffle_epi8(u[0], idx),
            _mm_shuffle_epi8(u[1], idx),
            _mm_shuffle_epi8(u[2], idx),
            _mm_shuffle_epi8(u[3], idx),
        ];
        let p0 = _mm_unpacklo_epi32(v[0], v[1]);
        let p1 = _mm_unpackhi_epi32(v[0], v[1]);
        let p2 = _mm_unpacklo_epi32(v[2], v[3]);
        let p3 = _mm_unpackhi_epi32(v[2], v[3]);
        [_mm_unpacklo_epi64(p0, p2), _mm_unpackhi_epi64(p0, p2), _mm_unpacklo_epi64(p1, p3), _mm_unpackhi_epi64(p1, p3)]
    }
}

#[derive(Clone, Copy)]
pub struct Xmm(__m128i);

impl Word for Xmm {
    type Isa = Ssse3;
    const BLOCKS: usize = 8;
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        unsafe { Xmm(_mm_xor_si128(self.0, o.0)) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        unsafe { Xmm(_mm_and_si128(self.0, o.0)) }
    }
    #[inline(always)]
    fn not(self) -> Self {
        unsafe { Xmm(_mm_xor_si128(self.0, _mm_set1_epi32(-1))) }
    }
    #[inline(always)]
    fn rotate_rows(self, n: u32) -> Self {
        unsafe {
            Xmm(match n {
                1 => _mm_shuffle_epi32::<0x39>(self.0),
                2 => _mm_shuffle_epi32::<0x4e>(self.0),
                _ => _mm_shuffle_epi32::<0x93>(self.0),
            })
        }
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        unsafe { Xmm(_mm_shuffle_epi8(self.0, _mm_loadu_si128(XMM_SR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        unsafe { Xmm(_mm_shuffle_epi8(self.0, _mm_loadu_si128(XMM_ISR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn load(_isa: Self::Isa, bytes: &[u8]) -> Self {
        assert!(bytes.len() >= 16);
        unsafe { Xmm(_mm_loadu_si128(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        assert!(bytes.len() >= 16);
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat_as(self, x: u64) -> Self {
        unsafe { Xmm(_mm_set1_epi64x(x as i64)) }
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        unsafe {
            Xmm(match bits {
                1 => _mm_srli_epi64::<1>(self.0),
                2 => _mm_srli_epi64::<2>(self.0),
                _ => _mm_srli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        unsafe {
            Xmm(match bits {
                1 => _mm_slli_epi64::<1>(self.0),
                2 => _mm_slli_epi64::<2>(self.0),
                _ => _mm_slli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn gather(_isa: Self::Isa, blocks: &[Block]) -> [Self; 8] {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            let mut w = [Xmm(load_block_rows(&blocks[0])); 8];
            for (k, word) in w.iter_mut().enumerate().skip(1) {
                *word = Xmm(load_block_rows(&blocks[k]));
            }
            w
    
        }
    }
    #[inline(always)]
    fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            for (k, w) in words.iter().enumerate() {
                store_block_rows(&mut blocks[k], w.0);
            }
    
        }
    }
}

#[derive(Clone, Copy)]
pub struct Ymm(__m256i);

/// Word `k` of a ymm state: blocks k and k + 8, byte-interleaved.
#[inline(always)]
unsafe fn ymm_word(blocks: &[Block], k: usize) -> Ymm {
    unsafe {
        let [lo, hi] = interleave2(load_block_rows(&blocks[k]), load_block_rows(&blocks[k + 8]));
        Ymm(_mm256_set_m128i(hi, lo))
    }
}

impl Word for Ymm {
    type Isa = Avx2;
    const BLOCKS: usize = 16;
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        unsafe { Ymm(_mm256_xor_si256(self.0, o.0)) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        unsafe { Ymm(_mm256_and_si256(self.0, o.0)) }
    }
    #[inline(always)]
    fn not(self) -> Self {
        unsafe { Ymm(_mm256_xor_si256(self.0, _mm256_set1_epi32(-1))) }
    }
    #[inline(always)]
    fn rotate_rows(self, n: u32) -> Self {
        unsafe {
            Ymm(match n {
                1 => _mm256_permute4x64_epi64::<0x39>(self.0),
                2 => _mm256_permute4x64_epi64::<0x4e>(self.0),
                _ => _mm256_permute4x64_epi64::<0x93>(self.0),
            })
        }
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        unsafe { Ymm(_mm256_shuffle_epi8(self.0, _mm256_loadu_si256(YMM_SR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        unsafe { Ymm(_mm256_shuffle_epi8(self.0, _mm256_loadu_si256(YMM_ISR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn load(_isa: Self::Isa, bytes: &[u8]) -> Self {
        assert!(bytes.len() >= 32);
        unsafe { Ymm(_mm256_loadu_si256(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        assert!(bytes.len() >= 32);
        unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat_as(self, x: u64) -> Self {
        unsafe { Ymm(_mm256_set1_epi64x(x as i64)) }
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        unsafe {
            Ymm(match bits {
                1 => _mm256_srli_epi64::<1>(self.0),
                2 => _mm256_srli_epi64::<2>(self.0),
                _ => _mm256_srli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        unsafe {
            Ymm(match bits {
                1 => _mm256_slli_epi64::<1>(self.0),
                2 => _mm256_slli_epi64::<2>(self.0),
                _ => _mm256_slli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn gather(_isa: Self::Isa, blocks: &[Block]) -> [Self; 8] {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            let mut w = [ymm_word(blocks, 0); 8];
            for (k, x) in w.iter_mut().enumerate().skip(1) {
                *x = ymm_word(blocks, k);
            }
            w
    
        }
    }
    #[inline(always)]
    fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            for (k, w) in words.iter().enumerate() {
                let (lo, hi) = (_mm256_castsi256_si128(w.0), _mm256_extracti128_si256::<1>(w.0));
                let [a, b] = deinterleave2(lo, hi);
                store_block_rows(&mut blocks[k], a);
                store_block_rows(&mut blocks[k + 8], b);
            }
    
        }
    }
}

#[derive(Clone, Copy)]
pub struct Zmm(__m512i);

/// Word `k` of a zmm state: blocks k, k + 8, k + 16, k + 24, byte-interleaved.
#[inline(always)]
unsafe fn zmm_word(blocks: &[Block], k: usize) -> Zmm {
    unsafe {
        let rows = [
            load_block_rows(&blocks[k]),
            load_block_rows(&blocks[k + 8]),
            load_block_rows(&blocks[k + 16]),
            load_block_rows(&blocks[k + 24]),
        ];
        let lanes = interleave4(rows);
        let z = _mm512_castsi128_si512(lanes[0]);
        let z = _mm512_inserti32x4::<1>(z, lanes[1]);
        let z = _mm512_inserti32x4::<2>(z, lanes[2]);
        Zmm(_mm512_inserti32x4::<3>(z, lanes[3]))
    }
}

impl Word for Zmm {
    type Isa = Avx512Bw;
    const BLOCKS: usize = 32;
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        unsafe { Zmm(_mm512_xor_si512(self.0, o.0)) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        unsafe { Zmm(_mm512_and_si512(self.0, o.0)) }
    }
    #[inline(always)]
    fn not(self) -> Self {
        unsafe { Zmm(_mm512_xor_si512(self.0, _mm512_set1_epi32(-1))) }
    }
    #[inline(always)]
    fn rotate_rows(self, n: u32) -> Self {
        unsafe {
            Zmm(match n {
                1 => _mm512_shuffle_i64x2::<0x39>(self.0, self.0),
                2 => _mm512_shuffle_i64x2::<0x4e>(self.0, self.0),
                _ => _mm512_shuffle_i64x2::<0x93>(self.0, self.0),
            })
        }
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        unsafe { Zmm(_mm512_shuffle_epi8(self.0, _mm512_loadu_si512(ZMM_SR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        unsafe { Zmm(_mm512_shuffle_epi8(self.0, _mm512_loadu_si512(ZMM_ISR.as_ptr().cast()))) }
    }
    #[inline(always)]
    fn load(_isa: Self::Isa, bytes: &[u8]) -> Self {
        assert!(bytes.len() >= 64);
        unsafe { Zmm(_mm512_loadu_si512(bytes.as_ptr().cast())) }
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        assert!(bytes.len() >= 64);
        unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat_as(self, x: u64) -> Self {
        unsafe { Zmm(_mm512_set1_epi64(x as i64)) }
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        unsafe {
            Zmm(match bits {
                1 => _mm512_srli_epi64::<1>(self.0),
                2 => _mm512_srli_epi64::<2>(self.0),
                _ => _mm512_srli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        unsafe {
            Zmm(match bits {
                1 => _mm512_slli_epi64::<1>(self.0),
                2 => _mm512_slli_epi64::<2>(self.0),
                _ => _mm512_slli_epi64::<4>(self.0),
            })
        }
    }
    #[inline(always)]
    fn gather(_isa: Self::Isa, blocks: &[Block]) -> [Self; 8] {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            let mut w = [zmm_word(blocks, 0); 8];
            for (k, x) in w.iter_mut().enumerate().skip(1) {
                *x = zmm_word(blocks, k);
            }
            w
    
        }
    }
    #[inline(always)]
    fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
        // SAFETY: the token (gather) or an existing word (scatter) proves the ISA.
        unsafe {
            for (k, w) in words.iter().enumerate() {
                let lanes = [
                    _mm512_extracti32x4_epi32::<0>(w.0),
                    _mm512_extracti32x4_epi32::<1>(w.0),
                    _mm512_extracti32x4_epi32::<2>(w.0),
                    _mm512_extracti32x4_epi32::<3>(w.0),
                ];
                for (b, rows) in deinterleave4(lanes).into_iter().enumerate() {
                    store_block_rows(&mut blocks[k + 8 * b], rows);
                }
            }
    
        }
    }
}
