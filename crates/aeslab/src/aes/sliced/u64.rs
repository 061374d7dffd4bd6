//! `ct64`: portable constant-time AES, bitsliced on `u64` words, four blocks per batch.
//!
//! The round function is the shared bitsliced core (`mod.rs`); this file only says how a
//! `u64` holds a plane. Bit `16·row + 4·col + block`: each row is a 16-bit quarter, so
//! MixColumns' row rotation is a 64-bit rotate and ShiftRows rotates each quarter by 4·row bits.
//! Every operation is a shift, rotate, mask or Boolean op by constants: no branch and no memory
//! index depends on key or data.

#![deny(unsafe_code)]

use cipher::consts::U4;

use super::{Sliced, SlicedIsa, Word};
use crate::Block;
use crate::simd::Portable;

/// Portable constant-time AES (bitsliced `u64`, 4 blocks per batch). Available everywhere.
pub type Ct64 = Sliced<Portable>;

impl SlicedIsa for Portable {
    type Word = u64;
    const NAME: &'static str = "ct64";
    type Batch = U4;
}

impl Word for u64 {
    type Isa = Portable;
    const BLOCKS: usize = 4;

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
    #[inline(always)]
    fn rotate_rows(self, n: u32) -> Self {
        self.rotate_right(16 * n)
    }
    #[inline(always)]
    fn shift_rows(self) -> Self {
        // Row r (bits 16r..16r+16) rotates right by 4r bits inside its quarter.
        (self & 0x0000_0000_0000_FFFF)
            | ((self >> 4) & 0x0000_0000_0FFF_0000)
            | ((self << 12) & 0x0000_0000_F000_0000)
            | ((self >> 8) & 0x0000_00FF_0000_0000)
            | ((self << 8) & 0x0000_FF00_0000_0000)
            | ((self >> 12) & 0x000F_0000_0000_0000)
            | ((self << 4) & 0xFFF0_0000_0000_0000)
    }
    #[inline(always)]
    fn inv_shift_rows(self) -> Self {
        (self & 0x0000_0000_0000_FFFF)
            | ((self << 4) & 0x0000_0000_FFF0_0000)
            | ((self >> 12) & 0x0000_0000_000F_0000)
            | ((self >> 8) & 0x0000_00FF_0000_0000)
            | ((self << 8) & 0x0000_FF00_0000_0000)
            | ((self << 12) & 0xF000_0000_0000_0000)
            | ((self >> 4) & 0x0FFF_0000_0000_0000)
    }
    #[inline(always)]
    fn load(_isa: Portable, bytes: &[u8]) -> Self {
        u64::from_le_bytes(bytes[..8].try_into().unwrap())
    }
    #[inline(always)]
    fn store(self, bytes: &mut [u8]) {
        bytes[..8].copy_from_slice(&self.to_le_bytes());
    }
    #[inline(always)]
    fn splat_as(self, x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self >> bits
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self << bits
    }
    /// Word `k` (k = 4·c + blk, c ∈ {0, 1}) interleaves the bytes of columns c and c + 2 of
    /// block `blk`: byte 2·row + h is row `row` of column c + 2h, which is position 8i + k.
    #[inline(always)]
    fn gather(_isa: Portable, blocks: &[Block]) -> [Self; 8] {
        let mut words = [0u64; 8];
        for (k, w) in words.iter_mut().enumerate() {
            let (c, blk) = (k / 4, k % 4);
            let lo = u32::from_le_bytes(blocks[blk][4 * c..4 * c + 4].try_into().unwrap());
            let hi = u32::from_le_bytes(blocks[blk][4 * (c + 2)..4 * (c + 2) + 4].try_into().unwrap());
            *w = spread_bytes(lo) | (spread_bytes(hi) << 8);
        }
        words
    }
    #[inline(always)]
    fn scatter(words: &[Self; 8], blocks: &mut [Block]) {
        for (k, &w) in words.iter().enumerate() {
            let (c, blk) = (k / 4, k % 4);
            blocks[blk][4 * c..4 * c + 4].copy_from_slice(&gather_bytes(w).to_le_bytes());
            blocks[blk][4 * (c + 2)..4 * (c + 2) + 4].copy_from_slice(&gather_bytes(w >> 8).to_le_bytes());
        }
    }
}

/// Moves byte r of `x` to byte 2r of the result (the odd bytes are zero).
#[inline(always)]
fn spread_bytes(x: u32) -> u64 {
    let t = u64::from(x);
    let t = (t | (t << 16)) & 0x0000_FFFF_0000_FFFF;
    (t | (t << 8)) & 0x00FF_00FF_00FF_00FF
}

/// Inverse of [`spread_bytes`]: bytes 0, 2, 4, 6 of `t`.
#[inline(always)]
fn gather_bytes(t: u64) -> u32 {
    let t = t & 0x00FF_00FF_00FF_00FF;
    let t = (t | (t >> 8)) & 0x0000_FFFF_0000_FFFF;
    (t | (t >> 16)) as u32
}
