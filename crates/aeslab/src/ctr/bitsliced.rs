//! FACE for the bitsliced backends (ct64 and the SIMD widths), generic over the word.
//!
//! A batch of `n = W::BLOCKS` consecutive counters, aligned to `n` inside a segment, enters
//! round `after + 1` as `C ⊕ T_group` where both are already in bitsliced form: `C` is the
//! segment constant replicated into every block and packed once per segment, `T_group` the
//! packed table entries of the group, packed once per table. No counter increment, no input
//! transform, `after` fewer rounds; only the keystream is unpacked.

use zeroize::Zeroize;

use crate::Block;
use crate::aes::bitsliced::{self, MAX_WORD_BYTES, SlicedKeys, State, Word};
use crate::ctr::xor_blocks;

/// Planes stored as `u64`s (one state per group, or one state for a segment constant).
#[derive(Clone, Default)]
pub(crate) struct SlicedStates {
    words: Vec<u64>,
}

impl Zeroize for SlicedStates {
    fn zeroize(&mut self) {
        self.words.zeroize();
    }
}

impl SlicedStates {
    #[inline(always)]
    fn push<W: Word>(&mut self, q: &State<W>) {
        let wpp = W::BLOCKS / 4;
        let at = self.words.len();
        self.words.resize(at + 8 * wpp, 0);
        for (j, plane) in q.iter().enumerate() {
            plane.store(&mut self.words[at + j * wpp..at + (j + 1) * wpp]);
        }
    }

    #[inline(always)]
    fn get<W: Word>(&self, index: usize) -> State<W> {
        let wpp = W::BLOCKS / 4;
        let at = index * 8 * wpp;
        core::array::from_fn(|j| W::load(&self.words[at + j * wpp..at + (j + 1) * wpp]))
    }
}

/// Packs the 256 table entries in groups of `n` consecutive counters.
#[inline(always)]
pub(crate) fn prepare_table<W: Word>(t: &[Block]) -> SlicedStates {
    let mut out = SlicedStates::default();
    for group in t.chunks_exact(W::BLOCKS) {
        out.push::<W>(&bitsliced::pack(group));
    }
    out
}

/// Packs the segment constant replicated into every block.
#[inline(always)]
pub(crate) fn prepare_segment<W: Word>(c: &Block) -> SlicedStates {
    let mut copies = [*c; MAX_WORD_BYTES / 2];
    let mut out = SlicedStates::default();
    out.push::<W>(&bitsliced::pack(&copies[..W::BLOCKS]));
    copies.zeroize();
    out
}

/// `data[i] ^= E(C ⊕ T[x0 + i])` from the state after round `after`. Groups are aligned to
/// `n`; a group only partly inside `x0 .. x0 + data.len()` is computed whole and its extra
/// blocks are dropped.
#[inline(always)]
pub(crate) fn face_xor<W: Word>(
    keys: &SlicedKeys,
    after: usize,
    table: &SlicedStates,
    seg: &SlicedStates,
    x0: usize,
    data: &mut [Block],
) {
    let n = W::BLOCKS;
    let c: State<W> = seg.get(0);
    let end = x0 + data.len();
    let mut ks = [[0u8; 16]; MAX_WORD_BYTES / 2];
    for g in x0 / n..end.div_ceil(n) {
        let mut q = table.get::<W>(g);
        bitsliced::add_round_key(&mut q, &c);
        bitsliced::encrypt_from_round(keys, &mut q, after + 1);
        bitsliced::unpack(&q, &mut ks[..n]);
        let (lo, hi) = ((g * n).max(x0), (g * n + n).min(end));
        xor_blocks(&mut data[lo - x0..hi - x0], &ks[lo - g * n..hi - g * n]);
    }
    ks.zeroize();
}

/// Defines `FaceBackend` for a bitsliced backend type whose keys are `self.keys`; `$wrap`
/// wraps a call in the backend's target features.
macro_rules! sliced_face_backend {
    ($name:ty, $word:ty, $entry:ident) => {
        impl $crate::ctr::FaceBackend for $name {
            type Seg = $crate::ctr::bitsliced::SlicedStates;
            type Table = $crate::ctr::bitsliced::SlicedStates;

            fn head(&self, blocks: &mut [$crate::Block], rounds: usize) {
                self.$entry(|| $crate::aes::bitsliced::head_blocks::<$word>(&self.keys, blocks, rounds))
            }

            fn prepare_table(&self, _level: $crate::ctr::FaceLevel, t: &[$crate::Block]) -> Self::Table {
                self.$entry(|| $crate::ctr::bitsliced::prepare_table::<$word>(t))
            }

            fn prepare_segment(&self, level: $crate::ctr::FaceLevel, seg: &$crate::ctr::Segment) -> Self::Seg {
                let c = &seg.c[level.table_round().expect("FACE level")];
                self.$entry(|| $crate::ctr::bitsliced::prepare_segment::<$word>(c))
            }

            fn face_xor(
                &self,
                level: $crate::ctr::FaceLevel,
                table: &Self::Table,
                seg: &Self::Seg,
                x0: usize,
                data: &mut [$crate::Block],
            ) {
                let after = level.table_round().expect("FACE level");
                self.$entry(|| $crate::ctr::bitsliced::face_xor::<$word>(&self.keys, after, table, seg, x0, data))
            }
        }
    };
}

pub(crate) use sliced_face_backend;
