//! FACE for the bitsliced backends (ct64 and the SIMD widths), generic over the word.
//!
//! A batch of `n = W::BLOCKS` consecutive counters, aligned to `n` inside a segment, enters
//! round `after + 1` as `C ⊕ T_group` where both are already in bitsliced form: `C` is the
//! segment constant replicated into every block and packed once per segment, `T_group` the
//! packed table entries of the group, packed once per table. No counter increment, no input
//! transform, `after` fewer rounds; only the keystream is unpacked.

#![deny(unsafe_code)]

use super::cache::{FaceTable, canonical_table};
use super::{CtrEngine, FaceLevel, xor_blocks, xor_plain_with_blocks};
use crate::Block;
use crate::aes::sliced::{self, MAX_WORD_BYTES, SlicedKeys, State, Word, add_round_key, encrypt_from_round, get_state, pack, set_state, unpack};
use crate::aes::Sliced;
use crate::aes::sliced::SlicedIsa;
use crate::simd::Kernel;

/// Packs the canonical table `t` (256 blocks) in groups of `n` consecutive counters into
/// `out`'s bytes.
struct PackTable<'a, I> {
    t: &'a [Block],
    out: &'a mut [u8],
    isa: I,
}

impl<I: SlicedIsa> Kernel for PackTable<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        for (g, group) in self.t[..256].chunks_exact(I::Word::BLOCKS).enumerate() {
            set_state::<I::Word>(self.out, g, &pack(self.isa, group));
        }
    }
}

/// The keystream of one run with FACE: segment by segment, the segment constant packed once.
struct Face<'a, I> {
    keys: &'a SlicedKeys,
    after: usize,
    table: &'a [u8],
    ctr: u128,
    data: &'a mut [Block],
    isa: I,
}

impl<I: SlicedIsa> Kernel for Face<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let n = I::Word::BLOCKS;
        let mut ks = [[0u8; 16]; MAX_WORD_BYTES / 2];
        let mut ctr = self.ctr;
        let mut done = 0;
        while done < self.data.len() {
            let x0 = (ctr & 0xff) as usize;
            let m = (self.data.len() - done).min(256 - x0);
            // C = S_after(base | 0) in every block, computed packed.
            let copies = [(ctr & !0xff).to_be_bytes(); MAX_WORD_BYTES / 2];
            let mut c: State<I::Word> = pack(self.isa, &copies[..n]);
            add_round_key(&mut c, &self.keys.round(self.isa, 0));
            for r in 1..=self.after {
                sliced::full_round(&mut c, &self.keys.round(self.isa, r));
            }
            // Groups aligned to `n`; one only partly inside `x0 .. x0 + m` is computed whole
            // and its extra blocks are dropped.
            let (end, data) = (x0 + m, &mut self.data[done..done + m]);
            for g in x0 / n..end.div_ceil(n) {
                let mut q = get_state::<I::Word>(self.isa, self.table, g);
                add_round_key(&mut q, &c);
                encrypt_from_round(self.isa, self.keys, &mut q, self.after + 1);
                unpack(&q, &mut ks[..n]);
                let (lo, hi) = ((g * n).max(x0), (g * n + n).min(end));
                xor_blocks(&mut data[lo - x0..hi - x0], &ks[lo - g * n..hi - g * n]);
            }
            done += m;
            // The low 32 bits do not wrap inside a run; the last step may reach 2^128.
            ctr = ctr.wrapping_add(m as u128);
        }
        crate::ct::wipe(ks.as_flattened_mut());
    }
}

impl<I: SlicedIsa> CtrEngine for Sliced<I> {
    fn xor_plain(&self, ctr: u128, data: &mut [Block]) {
        xor_plain_with_blocks(self, ctr, data);
    }

    fn build_table(&self, level: FaceLevel, ctr: u128, table: &mut FaceTable) {
        let r = level.table_round().expect("a FACE level");
        let mut t = [[0u8; 16]; 256];
        canonical_table(self, ctr, r, &mut t);
        self.isa().enter(PackTable { t: &t, out: table.blocks.as_flattened_mut(), isa: self.isa() });
        crate::ct::wipe(t.as_flattened_mut());
    }

    fn xor_face(&self, level: FaceLevel, table: &mut FaceTable, ctr: u128, data: &mut [Block]) {
        let after = level.table_round().expect("a FACE level");
        let isa = self.isa();
        isa.enter(Face { keys: self.keys(), after, table: table.blocks.as_flattened(), ctr, data, isa });
    }
}
