//! FACE for the T-table backend, every level as in the paper (§4). VARIABLE TIME, like the
//! backend: the rounds after the cache still index tables by secret state bytes. The FACE
//! tables themselves are indexed only by the counter.
//!
//! State words are columns, byte `r` of a word is row `r`. Output column `j` of a round reads
//! row `r` from input column `(j + r) mod 4`, so input column 0 reaches output column `j`
//! through row `(4 − j) mod 4` only — the split FACE_rd2 caches around.

#![deny(unsafe_code)]

use zeroize::Zeroize;

use super::cache::{FaceTable, canonical_table, segment_constant};
use super::{CtrEngine, FaceLevel, xor_blocks, xor_plain_with_blocks};
use crate::Block;
use crate::aes::table::{TE, TableVartime};

type Cols = [u32; 4];

fn cols(b: &Block) -> Cols {
    core::array::from_fn(|c| u32::from_le_bytes(b[4 * c..4 * c + 4].try_into().unwrap()))
}

#[inline(always)]
fn byte(w: u32, row: usize) -> usize {
    ((w >> (8 * row)) & 0xff) as usize
}

/// The part of a round's output that comes from input column 0 (byte `(4 − j) mod 4` → column j).
#[inline(always)]
fn column0_terms(col0: u32) -> Cols {
    core::array::from_fn(|j| {
        let r = (4 - j) % 4;
        TE[r][byte(col0, r)]
    })
}

/// Segment constants as columns, plus rd2's cache: round 2 without the column-0 terms.
#[derive(Clone, Default)]
pub(crate) struct TableSeg {
    c: [Cols; 3],
    rd2_partial: Cols,
}

impl Zeroize for TableSeg {
    fn zeroize(&mut self) {
        self.c.zeroize();
        self.rd2_partial.zeroize();
    }
}

/// The segment constants `C_r` a level reads.
fn segment_rounds(level: FaceLevel) -> &'static [usize] {
    match level {
        FaceLevel::None => &[],
        FaceLevel::Rd0 => &[0],
        FaceLevel::Rd1 => &[0, 1],
        FaceLevel::Rd1p => &[1],
        FaceLevel::Rd2 => &[1, 2],
        FaceLevel::Rd2p => &[2],
    }
}

/// One FACE run's fixed inputs.
struct TableRun<'a> {
    cipher: &'a TableVartime,
    level: FaceLevel,
    table: &'a [Block],
}

impl TableRun<'_> {
    /// The segment's constants as columns, from the `C_r` the table keeps for `base`.
    fn prepare(&self, constants: &[Block; 3]) -> TableSeg {
        let mut seg = TableSeg::default();
        for &r in segment_rounds(self.level) {
            seg.c[r] = cols(&constants[r]);
        }
        if self.level == FaceLevel::Rd2 {
            // C_2 = (round 2 without column-0 terms) ⊕ (column-0 terms of C_1's column 0).
            let t = column0_terms(seg.c[1][0]);
            for (p, (c2, tj)) in seg.rd2_partial.iter_mut().zip(seg.c[2].iter().zip(t)) {
                *p = c2 ^ tj;
            }
        }
        seg
    }

    fn xor(&self, seg: &TableSeg, x0: usize, data: &mut [Block]) {
        let cipher = self.cipher;
        let t = self.table;
        let t = |x: usize| cols(&t[x]);
        let c = &seg.c;
        // One loop per level, so the per-block work is exactly the level's.
        match self.level {
            FaceLevel::None => unreachable!("plain CTR does not use the cache"),
            // rd0: whitened columns 0–2 cached; column 3 gets byte 15 = x.
            FaceLevel::Rd0 => each(data, x0, |x| {
                cipher.finish_from::<1>([c[0][0], c[0][1], c[0][2], c[0][3] ^ ((x as u32) << 24)])
            }),
            // rd1: round 1's columns 1–3 cached; column 0 from s0 bytes 0, 5, 10, 15.
            FaceLevel::Rd1 => {
                let k1 = cols(&cipher.round_keys().keys[1])[0];
                each(data, x0, |x| {
                    let s3 = c[0][3] ^ ((x as u32) << 24);
                    let col0 = TE[0][byte(c[0][0], 0)]
                        ^ TE[1][byte(c[0][1], 1)]
                        ^ TE[2][byte(c[0][2], 2)]
                        ^ TE[3][byte(s3, 3)]
                        ^ k1;
                    cipher.finish_from::<2>([col0, c[1][1], c[1][2], c[1][3]])
                })
            }
            // rd1p: round 1's column 0 from the table by byte 15.
            FaceLevel::Rd1p => each(data, x0, |x| {
                cipher.finish_from::<2>([c[1][0] ^ t(x)[0], c[1][1], c[1][2], c[1][3]])
            }),
            // rd2: round 2 cached without the column-0 terms, which take four lookups.
            FaceLevel::Rd2 => each(data, x0, |x| {
                let terms = column0_terms(c[1][0] ^ t(x)[0]);
                let p = &seg.rd2_partial;
                cipher.finish_from::<3>([p[0] ^ terms[0], p[1] ^ terms[1], p[2] ^ terms[2], p[3] ^ terms[3]])
            }),
            // rd2p: rounds 0–2 are one table entry XOR the segment constant.
            FaceLevel::Rd2p => each(data, x0, |x| {
                cipher.finish_from::<3>([c[2][0] ^ t(x)[0], c[2][1] ^ t(x)[1], c[2][2] ^ t(x)[2], c[2][3] ^ t(x)[3]])
            }),
        }
    }
}

/// `data[i] ^= keystream(x0 + i)`, byte 15 indexing a 256-entry table.
#[inline(always)]
fn each(data: &mut [Block], x0: usize, mut keystream: impl FnMut(usize) -> Block) {
    for (i, d) in data.iter_mut().enumerate() {
        let ks = keystream((x0 + i) & 0xff);
        xor_blocks(core::slice::from_mut(d), &[ks]);
    }
}

impl CtrEngine for TableVartime {
    fn xor_plain(&self, ctr: u128, data: &mut [Block]) {
        xor_plain_with_blocks(self, ctr, data);
    }

    /// The canonical table, whose blocks are already the columns this file reads.
    fn build_table(&self, level: FaceLevel, ctr: u128, table: &mut FaceTable) {
        let r = level.table_round().expect("a FACE level");
        canonical_table(self, ctr, r, &mut table.blocks);
    }

    fn xor_face(&self, level: FaceLevel, table: &mut FaceTable, ctr: u128, data: &mut [Block]) {
        let (mut ctr, mut done) = (ctr, 0);
        while done < data.len() {
            let x0 = (ctr & 0xff) as usize;
            let m = (data.len() - done).min(256 - x0);
            let base = ctr & !0xff;
            let mut constants = *table.segment_constants(base, || {
                let mut c = [[0u8; 16]; 3];
                for &r in segment_rounds(level) {
                    c[r] = segment_constant(self, base, r);
                }
                c
            });
            let run = TableRun { cipher: self, level, table: &table.blocks };
            let mut seg = run.prepare(&constants);
            run.xor(&seg, x0, &mut data[done..done + m]);
            seg.zeroize();
            crate::ct::wipe(constants.as_flattened_mut());
            done += m;
            // The low 32 bits do not wrap inside a run; the last step may reach 2^128.
            ctr = ctr.wrapping_add(m as u128);
        }
    }
}
