//! `ct64`: portable constant-time AES, bitsliced on `u64` words, four blocks per batch.
//!
//! The round function is the shared bitsliced core (`bitsliced.rs`); this file only says how a
//! `u64` holds a plane. Bit `16·row + 4·col + block`: each row is a 16-bit quarter, so
//! MixColumns' row rotation is a 64-bit rotate and ShiftRows rotates each quarter by 4·row bits.
//! Every operation is a shift, rotate, mask or Boolean op by constants: no branch and no memory
//! index depends on key or data.

use cipher::consts::U4;

use super::Backend;
use super::bitsliced::{self, SlicedKeys, Word};
use crate::{Block, Error};

impl Word for u64 {
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
    fn load(words: &[u64]) -> Self {
        words[0]
    }
    #[inline(always)]
    fn store(self, words: &mut [u64]) {
        words[0] = self;
    }
    #[inline(always)]
    fn splat(x: u64) -> Self {
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
    fn gather(blocks: &[Block]) -> [Self; 8] {
        core::array::from_fn(|k| {
            let (c, blk) = (k / 4, k % 4);
            let col = |i: usize| u32::from_le_bytes(blocks[blk][4 * i..4 * i + 4].try_into().unwrap());
            spread_bytes(col(c)) | (spread_bytes(col(c + 2)) << 8)
        })
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

/// Portable constant-time AES (bitsliced `u64`, 4 blocks per batch). Available everywhere.
#[derive(Clone)]
pub struct Ct64 {
    keys: SlicedKeys,
}

crate::ctr::bitsliced::sliced_face_backend!(Ct64, u64);
super::bitsliced::sliced_rounds_only!(Ct64, u64);

impl Backend for Ct64 {
    const NAME: &'static str = "ct64";
    const CONSTANT_TIME: bool = true;
    const REQUIRES: &'static str = "nothing";
    type Batch = U4;

    fn available() -> bool {
        true
    }

    fn new(key: &[u8]) -> Result<Self, Error> {
        Ok(Ct64 { keys: SlicedKeys::new::<u64>(key)? })
    }

    fn rounds(&self) -> usize {
        self.keys.rounds
    }

    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        bitsliced::encrypt_blocks::<u64>(&self.keys, blocks);
    }

    fn decrypt_blocks(&self, blocks: &mut [Block]) {
        bitsliced::decrypt_blocks::<u64>(&self.keys, blocks);
    }
}
