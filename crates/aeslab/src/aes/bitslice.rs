//! `bitslice-sse`, `bitslice-avx2`, `bitslice-avx512`: constant-time AES bitsliced in SIMD
//! registers (Käsper–Schwabe), 8 / 16 / 32 blocks per batch.
//!
//! The round function is the shared bitsliced core (`bitsliced.rs`); this file gives each
//! register width the few operations it needs, and one macro body makes the three backends.
//! In a register of `16n` bits (`n` blocks) a row is `4n` bits: a 32-bit lane (xmm), 64-bit lane
//! (ymm) or 128-bit lane (zmm). MixColumns rotates whole rows (PSHUFD, VPERMQ, VSHUFI64X2);
//! ShiftRows moves whole columns inside a row, which never crosses a 128-bit lane, so one
//! PSHUFB with a constant index does it. All are data-independent: no branch or memory index
//! depends on key or data.

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use cipher::consts::{U8, U16, U32};

    use crate::aes::Backend;
    use crate::aes::bitsliced::{self, SlicedKeys, Word};
    use crate::{Block, Error};

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

    // The `unsafe` blocks below call SIMD intrinsics. They are sound because these words are
    // only created inside the `#[target_feature]` entry points of the backends, whose
    // constructors check the CPU features first (SSSE3, AVX2, AVX-512F+BW respectively).

    /// PSHUFB index transposing a block's 4×4 byte matrix: byte 4·row + col of the result is
    /// byte 4·col + row (column-major FIPS order → row-major).
    static TRANSPOSE_4X4: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    /// PSHUFB index gathering even bytes low and odd bytes high.
    static DEINTERLEAVE_2: [u8; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15];

    #[inline(always)]
    fn load_block_rows(b: &Block) -> __m128i {
        unsafe { _mm_shuffle_epi8(_mm_loadu_si128(b.as_ptr().cast()), _mm_loadu_si128(TRANSPOSE_4X4.as_ptr().cast())) }
    }

    #[inline(always)]
    fn store_block_rows(b: &mut Block, rows: __m128i) {
        unsafe {
            let x = _mm_shuffle_epi8(rows, _mm_loadu_si128(TRANSPOSE_4X4.as_ptr().cast()));
            _mm_storeu_si128(b.as_mut_ptr().cast(), x)
        }
    }

    /// Word `k` of `n`-block words holds blocks k, k + 8, k + 16, … (blk mod 8 = k) with byte
    /// i = (4·row + col)·(n/8) + blk/8: row-major blocks, byte-interleaved. These build the
    /// interleavings for 2 and 4 blocks; each returns 128-bit lanes in order.
    #[inline(always)]
    fn interleave2(a: __m128i, b: __m128i) -> [__m128i; 2] {
        unsafe { [_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)] }
    }

    #[inline(always)]
    fn deinterleave2(lo: __m128i, hi: __m128i) -> [__m128i; 2] {
        unsafe {
            let idx = _mm_loadu_si128(DEINTERLEAVE_2.as_ptr().cast());
            let (lo, hi) = (_mm_shuffle_epi8(lo, idx), _mm_shuffle_epi8(hi, idx));
            [_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi)]
        }
    }

    #[inline(always)]
    fn interleave4(x: [__m128i; 4]) -> [__m128i; 4] {
        unsafe {
            let [t0, t2] = interleave2(x[0], x[1]);
            let [t1, t3] = interleave2(x[2], x[3]);
            [_mm_unpacklo_epi16(t0, t1), _mm_unpackhi_epi16(t0, t1), _mm_unpacklo_epi16(t2, t3), _mm_unpackhi_epi16(t2, t3)]
        }
    }

    #[inline(always)]
    fn deinterleave4(u: [__m128i; 4]) -> [__m128i; 4] {
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
    pub(crate) struct Xmm(__m128i);

    impl Word for Xmm {
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
        fn load(words: &[u64]) -> Self {
            assert!(words.len() >= 2);
            unsafe { Xmm(_mm_loadu_si128(words.as_ptr().cast())) }
        }
        #[inline(always)]
        fn store(self, words: &mut [u64]) {
            assert!(words.len() >= 2);
            unsafe { _mm_storeu_si128(words.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(x: u64) -> Self {
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
        fn gather(blocks: &[Block]) -> [Self; 8] {
            let mut w = [Xmm(load_block_rows(&blocks[0])); 8];
            for (k, word) in w.iter_mut().enumerate().skip(1) {
                *word = Xmm(load_block_rows(&blocks[k]));
            }
            w
        }
        #[inline(always)]
        fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
            for (k, w) in words.iter().enumerate() {
                store_block_rows(&mut blocks[k], w.0);
            }
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Ymm(__m256i);

    /// Word `k` of a ymm state: blocks k and k + 8, byte-interleaved.
    #[inline(always)]
    fn ymm_word(blocks: &[Block], k: usize) -> Ymm {
        let [lo, hi] = interleave2(load_block_rows(&blocks[k]), load_block_rows(&blocks[k + 8]));
        unsafe { Ymm(_mm256_set_m128i(hi, lo)) }
    }

    impl Word for Ymm {
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
        fn load(words: &[u64]) -> Self {
            assert!(words.len() >= 4);
            unsafe { Ymm(_mm256_loadu_si256(words.as_ptr().cast())) }
        }
        #[inline(always)]
        fn store(self, words: &mut [u64]) {
            assert!(words.len() >= 4);
            unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(x: u64) -> Self {
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
        fn gather(blocks: &[Block]) -> [Self; 8] {
            let mut w = [ymm_word(blocks, 0); 8];
            for (k, x) in w.iter_mut().enumerate().skip(1) {
                *x = ymm_word(blocks, k);
            }
            w
        }
        #[inline(always)]
        fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
            for (k, w) in words.iter().enumerate() {
                let (lo, hi) = unsafe { (_mm256_castsi256_si128(w.0), _mm256_extracti128_si256::<1>(w.0)) };
                let [a, b] = deinterleave2(lo, hi);
                store_block_rows(&mut blocks[k], a);
                store_block_rows(&mut blocks[k + 8], b);
            }
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Zmm(__m512i);

    /// Word `k` of a zmm state: blocks k, k + 8, k + 16, k + 24, byte-interleaved.
    #[inline(always)]
    fn zmm_word(blocks: &[Block], k: usize) -> Zmm {
        let rows = [
            load_block_rows(&blocks[k]),
            load_block_rows(&blocks[k + 8]),
            load_block_rows(&blocks[k + 16]),
            load_block_rows(&blocks[k + 24]),
        ];
        let lanes = interleave4(rows);
        unsafe {
            let z = _mm512_castsi128_si512(lanes[0]);
            let z = _mm512_inserti32x4::<1>(z, lanes[1]);
            let z = _mm512_inserti32x4::<2>(z, lanes[2]);
            Zmm(_mm512_inserti32x4::<3>(z, lanes[3]))
        }
    }

    impl Word for Zmm {
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
        fn load(words: &[u64]) -> Self {
            assert!(words.len() >= 8);
            unsafe { Zmm(_mm512_loadu_si512(words.as_ptr().cast())) }
        }
        #[inline(always)]
        fn store(self, words: &mut [u64]) {
            assert!(words.len() >= 8);
            unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(x: u64) -> Self {
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
        fn gather(blocks: &[Block]) -> [Self; 8] {
            let mut w = [zmm_word(blocks, 0); 8];
            for (k, x) in w.iter_mut().enumerate().skip(1) {
                *x = zmm_word(blocks, k);
            }
            w
        }
        #[inline(always)]
        fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
            for (k, w) in words.iter().enumerate() {
                let lanes = unsafe {
                    [
                        _mm512_extracti32x4_epi32::<0>(w.0),
                        _mm512_extracti32x4_epi32::<1>(w.0),
                        _mm512_extracti32x4_epi32::<2>(w.0),
                        _mm512_extracti32x4_epi32::<3>(w.0),
                    ]
                };
                for (b, rows) in deinterleave4(lanes).into_iter().enumerate() {
                    store_block_rows(&mut blocks[k + 8 * b], rows);
                }
            }
        }
    }

    /// One body for the three widths: a backend type, its word, and the target features its
    /// entry points are compiled with (and that `available()` checks).
    macro_rules! bitslice_backend {
        ($(#[$doc:meta])* $name:ident, $word:ty, $batch:ty, $label:literal, $features:literal,
         $detect:expr) => {
            $(#[$doc])*
            #[derive(Clone)]
            pub struct $name {
                keys: SlicedKeys,
            }

            impl $name {
                #[target_feature(enable = $features)]
                unsafe fn encrypt_impl(&self, blocks: &mut [Block]) {
                    bitsliced::encrypt_blocks::<$word>(&self.keys, blocks);
                }

                #[target_feature(enable = $features)]
                unsafe fn decrypt_impl(&self, blocks: &mut [Block]) {
                    bitsliced::decrypt_blocks::<$word>(&self.keys, blocks);
                }

                #[target_feature(enable = $features)]
                unsafe fn slice_keys(key: &[u8]) -> Result<SlicedKeys, Error> {
                    SlicedKeys::new::<$word>(key)
                }
            }

            crate::ctr::bitsliced::sliced_face_backend!($name, $word, $features);
            crate::aes::bitsliced::sliced_rounds_only!($name, $word, $features);

            impl Backend for $name {
                const NAME: &'static str = $label;
                const CONSTANT_TIME: bool = true;
                const REQUIRES: &'static str = $features;
                type Batch = $batch;

                fn available() -> bool {
                    $detect
                }

                fn new(key: &[u8]) -> Result<Self, Error> {
                    if !Self::available() {
                        return Err(Error::BackendUnavailable { backend: $label, requires: $features });
                    }
                    // SAFETY: the CPU has the features (checked just above).
                    Ok($name { keys: unsafe { Self::slice_keys(key)? } })
                }

                fn rounds(&self) -> usize {
                    self.keys.rounds
                }

                fn encrypt_blocks(&self, blocks: &mut [Block]) {
                    // SAFETY: a value of this type exists only if `new` found the features.
                    unsafe { self.encrypt_impl(blocks) }
                }

                fn decrypt_blocks(&self, blocks: &mut [Block]) {
                    // SAFETY: as for encryption.
                    unsafe { self.decrypt_impl(blocks) }
                }
            }
        };
    }

    bitslice_backend!(
        /// Constant-time bitsliced AES in xmm registers (SSSE3), 8 blocks per batch.
        BitsliceSse, Xmm, U8, "bitslice-sse", "ssse3",
        crate::cpu::x86_has!("ssse3")
    );
    bitslice_backend!(
        /// Constant-time bitsliced AES in ymm registers (AVX2), 16 blocks per batch.
        BitsliceAvx2, Ymm, U16, "bitslice-avx2", "avx2",
        crate::cpu::x86_has!("avx2")
    );
    bitslice_backend!(
        /// Constant-time bitsliced AES in zmm registers (AVX-512F/BW), 32 blocks per batch.
        BitsliceAvx512, Zmm, U32, "bitslice-avx512", "avx512f,avx512bw",
        crate::cpu::x86_has!("avx512f") && crate::cpu::x86_has!("avx512bw")
    );
}

#[cfg(target_arch = "x86_64")]
pub use x86::{BitsliceAvx2, BitsliceAvx512, BitsliceSse};
