//! The FACE cache: the table `T_r` in a backend's form, and how the canonical `T_r` and the
//! segment constants `C_r` come from the backend's own constant-time first rounds.
//!
//! `S_r(base | x) = C_r(base) ⊕ T_r[x]` (see the module docs). With `x0 = 0`:
//! `C_r = S_r(base | 0)` and `T_r[x] = S_r(base | x) ⊕ S_r(base | 0)`. `T_r[x]` depends only on
//! the key and counter bytes 0, 5, 10 and 15, so any `base` with the right bytes 0, 5, 10
//! gives the same table.

#![deny(unsafe_code)]

use super::{FaceLevel, xor_blocks};
use crate::Block;
use crate::aes::Rounds;

/// Table entries past 256 repeat the start, so that the last register of a short group may
/// load whole registers past entry 255 (the entries it does not use).
pub(crate) const TABLE_OVERHANG: usize = 32;

/// Storage for one FACE table in the form its backend family uses — blocks for the
/// AES-instruction backends, packed states for the bitsliced ones, columns for the T-tables —
/// and what it was built for. The entries are secret: wiped on drop.
///
/// Every field is bytes, with no `Option` and no padding: a value is built on the stack and
/// moved into its box, and the bytes of a `None`'s payload or of padding would carry whatever
/// the stack held there before (keystream, spilled round keys) into the heap, where no wipe
/// reaches them (`tests/wiped_on_free.rs` caught exactly that). The entries start on a cache
/// line (the zmm kernels write and read whole registers of them: a FACE message sealed 1–2%
/// faster at 8 and 16 KiB on Emerald Rapids), so the fields end in explicit padding up to a
/// whole line, checked below.
#[repr(C, align(64))]
pub(crate) struct FaceTable {
    pub(crate) blocks: [Block; 256 + TABLE_OVERHANG],
    /// What the table holds: the level's code (0: nothing yet, see [`level_code`]) and bytes
    /// 0, 5, 10 of its counters.
    built_for: [u8; 4],
    /// The segment constants `C_0, C_1, C_2` of the segment last run, for engines that compute
    /// them outside their kernels (the T-table engine): a stream of short calls then computes
    /// them once per 256 blocks, not once per call. Valid when `segment_kept` is 1.
    segment: [Block; 3],
    segment_base: [u8; 16],
    segment_kept: u8,
    /// Zeros up to the end of the last cache line.
    pad: [u8; FACE_TABLE_PAD],
}

/// The bytes of [`FaceTable`]'s fields before `pad`.
const FACE_TABLE_FIELDS: usize = 16 * (256 + TABLE_OVERHANG) + 4 + 16 * 3 + 16 + 1;
const FACE_TABLE_PAD: usize = FACE_TABLE_FIELDS.next_multiple_of(64) - FACE_TABLE_FIELDS;
// No padding the compiler adds: every byte of the table is a field's.
const _: () = assert!(core::mem::size_of::<FaceTable>() == FACE_TABLE_FIELDS + FACE_TABLE_PAD);

/// A level as one non-zero byte (0 means no table).
fn level_code(level: FaceLevel) -> u8 {
    FaceLevel::ALL.iter().position(|&l| l == level).map_or(0, |i| i as u8 + 1)
}

impl Default for FaceTable {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Clone for FaceTable {
    fn clone(&self) -> Self {
        FaceTable {
            blocks: self.blocks,
            built_for: self.built_for,
            segment: self.segment,
            segment_base: self.segment_base,
            segment_kept: self.segment_kept,
            pad: [0; FACE_TABLE_PAD],
        }
    }
}

impl Drop for FaceTable {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Bytes 0, 5 and 10 of a counter: the table `T_r` is valid while they stay the same.
pub(crate) fn table_key(ctr: u128) -> [u8; 3] {
    let b = ctr.to_be_bytes();
    [b[0], b[5], b[10]]
}

impl FaceTable {
    /// A table with nothing built: all zeros.
    pub(crate) const EMPTY: FaceTable = FaceTable {
        blocks: [[0u8; 16]; 256 + TABLE_OVERHANG],
        built_for: [0; 4],
        segment: [[0; 16]; 3],
        segment_base: [0; 16],
        segment_kept: 0,
        pad: [0; FACE_TABLE_PAD],
    };

    /// Wipes what was built and forgets it: the table is [`Self::EMPTY`] again.
    pub(crate) fn clear(&mut self) {
        crate::ct::wipe(self.blocks.as_flattened_mut());
        crate::ct::wipe(self.segment.as_flattened_mut());
        self.built_for = [0; 4];
        self.segment_base = [0; 16];
        self.segment_kept = 0;
    }

    /// Whether the table holds `T_r` of `level` for counters like `ctr`.
    pub(crate) fn holds(&self, level: FaceLevel, ctr: u128) -> bool {
        let key = table_key(ctr);
        self.built_for == [level_code(level), key[0], key[1], key[2]]
    }

    /// Records what was just built into it.
    pub(crate) fn mark_built(&mut self, level: FaceLevel, ctr: u128) {
        let key = table_key(ctr);
        self.built_for = [level_code(level), key[0], key[1], key[2]];
        crate::ct::wipe(self.segment.as_flattened_mut());
        self.segment_kept = 0;
    }

    /// The segment constants of segment `base` (byte 15 clear), from `compute` when they are
    /// not the ones kept.
    pub(crate) fn segment_constants(&mut self, base: u128, compute: impl FnOnce() -> [Block; 3]) -> &[Block; 3] {
        if self.segment_kept == 0 || self.segment_base != base.to_be_bytes() {
            crate::ct::wipe(self.segment.as_flattened_mut());
            self.segment = compute();
            self.segment_base = base.to_be_bytes();
            self.segment_kept = 1;
        }
        &self.segment
    }
}

/// The canonical `T_r` for the key and bytes 0, 5, 10 of `ctr`, into `out`: the 256 counter
/// blocks through the backend's first rounds, each XORed with entry 0.
pub(crate) fn canonical_table<B: Rounds>(backend: &B, ctr: u128, r: usize, out: &mut [Block]) {
    let base = ctr & !0xff;
    for (x, e) in out[..256].iter_mut().enumerate() {
        *e = (base | x as u128).to_be_bytes();
    }
    backend.first_rounds(&mut out[..256], r);
    let s0 = [out[0]];
    for e in out[..256].chunks_mut(64) {
        for b in e.iter_mut() {
            xor_blocks(core::slice::from_mut(b), &s0);
        }
    }
}

/// `C_r` for the segment `base` (byte 15 clear): one block through the first rounds.
pub(crate) fn segment_constant<B: Rounds>(backend: &B, base: u128, r: usize) -> Block {
    let mut c = [base.to_be_bytes()];
    backend.first_rounds(&mut c, r);
    c[0]
}
