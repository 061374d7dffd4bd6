//! FACE for the bitsliced backends (ct64 and the SIMD widths), generic over the word.
//!
//! A batch of `n = W::BLOCKS` consecutive counters, aligned to `n` inside a segment, enters
//! round `after + 1` as `C ⊕ T_group` where both are already in bitsliced form: `C` is the
//! segment constant replicated into every block and packed once per segment, `T_group` the
//! packed table entries of the group, packed once per table. No counter increment, no input
//! transform, `after` fewer rounds; only the keystream is unpacked.

use core::marker::PhantomData;

use zeroize::Zeroize;

use crate::Block;
use crate::aes::bitsliced::{self, MAX_WORD_BYTES, SlicedKeys, SlicedStates, State, Word};
use crate::ctr::{FaceLevel, PerSegment, SegmentCache, run_by_segment, xor_blocks};

/// Packs the 256 table entries in groups of `n` consecutive counters.
#[inline(always)]
pub(crate) fn prepare_table<W: Word>(t: &[Block]) -> SlicedStates {
    let mut out = SlicedStates::default();
    for group in t.chunks_exact(W::BLOCKS) {
        out.push::<W>(&bitsliced::pack(group));
    }
    out
}

/// The segment constant `C = S_after(base | 0)` replicated into every block, computed in
/// bitsliced form: the counter block packed once, whitened, `after` full rounds.
#[inline(always)]
fn prepare_segment<W: Word>(keys: &SlicedKeys, after: usize, base: u128) -> SlicedStates {
    let copies = [base.to_be_bytes(); MAX_WORD_BYTES / 2];
    let mut q = bitsliced::pack::<W>(&copies[..W::BLOCKS]);
    bitsliced::add_round_key(&mut q, &keys.round(0));
    for r in 1..=after {
        bitsliced::full_round(&mut q, &keys.round(r));
    }
    let mut out = SlicedStates::default();
    out.push::<W>(&q);
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

/// One FACE run's fixed inputs, for [`run_by_segment`].
struct SlicedRun<'a, W> {
    keys: &'a SlicedKeys,
    after: usize,
    table: &'a SlicedStates,
    word: PhantomData<W>,
}

impl<W: Word> PerSegment for SlicedRun<'_, W> {
    type Seg = SlicedStates;

    #[inline(always)]
    fn prepare(&self, base: u128) -> SlicedStates {
        prepare_segment::<W>(self.keys, self.after, base)
    }

    #[inline(always)]
    fn xor(&self, seg: &SlicedStates, x0: usize, data: &mut [Block]) {
        face_xor::<W>(self.keys, self.after, self.table, seg, x0, data);
    }
}

/// [`FaceBackend::face_run`] for a bitsliced backend.
#[inline(always)]
pub(crate) fn face_run<W: Word>(
    keys: &SlicedKeys,
    level: FaceLevel,
    table: &SlicedStates,
    seg: &mut SegmentCache<SlicedStates>,
    ctr: u128,
    data: &mut [Block],
    wrap32: bool,
) {
    let after = level.table_round().expect("FACE level");
    let run = SlicedRun::<W> { keys, after, table, word: PhantomData };
    run_by_segment(&run, seg, ctr, data, wrap32);
}

/// Defines `FaceBackend` for a bitsliced backend type whose keys are `self.keys`. The entry
/// points carry the backend's target features (none for ct64) so that the generic bodies are
/// compiled with them.
macro_rules! sliced_face_backend {
    ($name:ty, $word:ty $(, $features:literal)?) => {
        impl $name {
            $(#[target_feature(enable = $features)])?
            unsafe fn face_head_impl(&self, blocks: &mut [$crate::Block], rounds: usize) {
                $crate::aes::bitsliced::head_blocks::<$word>(&self.keys, blocks, rounds)
            }

            $(#[target_feature(enable = $features)])?
            unsafe fn face_table_impl(&self, t: &[$crate::Block]) -> $crate::aes::bitsliced::SlicedStates {
                $crate::ctr::bitsliced::prepare_table::<$word>(t)
            }

            $(#[target_feature(enable = $features)])?
            unsafe fn face_run_impl(
                &self,
                level: $crate::ctr::FaceLevel,
                table: &$crate::aes::bitsliced::SlicedStates,
                seg: &mut $crate::ctr::SegmentCache<$crate::aes::bitsliced::SlicedStates>,
                ctr: u128,
                data: &mut [$crate::Block],
                wrap32: bool,
            ) {
                $crate::ctr::bitsliced::face_run::<$word>(&self.keys, level, table, seg, ctr, data, wrap32)
            }
        }

        // SAFETY (each call below): a value of this type exists only if `new` found the
        // target features of the entry point (ct64 has none).
        impl $crate::ctr::FaceBackend for $name {
            type Table = $crate::aes::bitsliced::SlicedStates;
            type SegCache = $crate::ctr::SegmentCache<$crate::aes::bitsliced::SlicedStates>;

            fn head(&self, blocks: &mut [$crate::Block], rounds: usize) {
                unsafe { self.face_head_impl(blocks, rounds) }
            }

            fn prepare_table(&self, _level: $crate::ctr::FaceLevel, t: &[$crate::Block]) -> Self::Table {
                unsafe { self.face_table_impl(t) }
            }

            fn face_run(
                &self,
                level: $crate::ctr::FaceLevel,
                table: &Self::Table,
                seg: &mut Self::SegCache,
                ctr: u128,
                data: &mut [$crate::Block],
                wrap32: bool,
            ) {
                unsafe { self.face_run_impl(level, table, seg, ctr, data, wrap32) }
            }
        }
    };
}

pub(crate) use sliced_face_backend;
