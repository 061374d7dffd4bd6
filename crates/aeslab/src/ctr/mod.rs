//! AES-CTR with FACE (Park & Lee, "FACE: Fast AES CTR mode Encryption Techniques based on the
//! Reuse of Repetitive Data", TCHES 2018): consecutive counter blocks differ only in their last
//! byte, so most of rounds 0–2 is the same for 256 blocks in a row and can be cached.
//!
//! The whole of FACE rests on one identity. For a counter `base | x` (`base` has byte 15 clear
//! and `x` is byte 15), the state after round `r ≤ 2` is
//!
//! ```text
//!     S_r(base | x) = C_r(base) ⊕ T_r[x]
//! ```
//!
//! - round 0 is linear, so `T_0[x]` is just `x` in byte 15;
//! - after round 1 only column 0 depends on byte 15, and it depends on bytes 0, 5, 10, 15 alone;
//! - round 2 is linear after SubBytes/ShiftRows, so its column-0 part splits off likewise.
//!
//! `C_r` changes when any of bytes 1–4, 6–9, 11–14 change, i.e. once per 256 blocks (one
//! "segment"). `T_r` depends only on the key and on bytes 0, 5 and 10, which change once every
//! 2^40 blocks for [`Ctr128BE`] and never for [`Ctr32BE`]. Both are computed here, once, with
//! the backend's own constant-time first rounds (`cache.rs`); each backend only turns them into
//! its own form and runs the remaining rounds (`hw.rs`, `bitsliced.rs`, `table.rs`).
//!
//! The levels of the paper (§4), cumulative:
//!
//! | level | cached | starts at | table |
//! |---|---|---|---|
//! | `rd0` | 12 bytes of the whitening output | round 1 | — |
//! | `rd1` | + columns 1–3 of round 1 | round 1 (column 0 computed) | — |
//! | `rd1p` | + column 0 of round 1 by byte 15 | round 2 | `T_1`, 256 × 4 bytes of information |
//! | `rd2` | + the round-2 sums without column 0 | round 2 (column-0 terms computed) | `T_1` |
//! | `rd2p` | + the column-0 terms by byte 15 | round 3 | `T_2`, 256 × 16 bytes |
//!
//! The T-table backend implements every level as the paper does. Backends that compute a round
//! on the whole state at once (AESENC, bitsliced circuits) cannot compute one column more
//! cheaply than four: for them `rd1` runs like `rd0` and `rd2` like `rd1p`, and the gains come
//! from `rd0` (no counter arithmetic or byte swap), `rd1p` and `rd2p`.
//!
//! Constant time: the tables are indexed by the counter, which is public; the cache contents
//! are secret and only ever XORed.

mod cache;
pub(crate) mod hw;
pub(crate) mod bitsliced;
pub(crate) mod table;
mod stream;

use core::fmt;

use zeroize::Zeroize;

use crate::Block;
use crate::aes::Backend;
use crate::gcm::GhashImpl;
use crate::gcm::stitch::GhashStitch;
pub use stream::{
    Aes128Ctr, Aes128Ctr32, Aes192Ctr, Aes192Ctr32, Aes256Ctr, Aes256Ctr32, AesCtr, Ctr32BE, Ctr128BE,
    CounterMode, DynCtr,
};

pub(crate) use cache::{Segment, segment};


/// How much of rounds 0–2 comes from the cache (cumulative; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaceLevel {
    /// Plain CTR: every round of every block is computed.
    None,
    Rd0,
    Rd1,
    /// rd1+ in the paper.
    Rd1p,
    Rd2,
    /// rd2+ in the paper.
    Rd2p,
}

impl FaceLevel {
    pub const ALL: [FaceLevel; 6] =
        [FaceLevel::None, FaceLevel::Rd0, FaceLevel::Rd1, FaceLevel::Rd1p, FaceLevel::Rd2, FaceLevel::Rd2p];

    /// The fastest level (the default for every backend: each level only removes work).
    pub const FASTEST: FaceLevel = FaceLevel::Rd2p;

    pub fn name(self) -> &'static str {
        match self {
            FaceLevel::None => "none",
            FaceLevel::Rd0 => "rd0",
            FaceLevel::Rd1 => "rd1",
            FaceLevel::Rd1p => "rd1p",
            FaceLevel::Rd2 => "rd2",
            FaceLevel::Rd2p => "rd2p",
        }
    }

    pub fn from_name(name: &str) -> Result<FaceLevel, crate::Error> {
        FaceLevel::ALL
            .iter()
            .copied()
            .find(|l| l.name() == name)
            .ok_or_else(|| crate::Error::UnknownFaceLevel(name.to_string()))
    }

    /// The round `r` whose table `T_r` this level reads (`None` has no cache).
    pub(crate) fn table_round(self) -> Option<usize> {
        match self {
            FaceLevel::None => None,
            FaceLevel::Rd0 | FaceLevel::Rd1 => Some(0),
            FaceLevel::Rd1p | FaceLevel::Rd2 => Some(1),
            FaceLevel::Rd2p => Some(2),
        }
    }

    /// The segment constants `C_r` this level reads.
    pub(crate) fn segment_rounds(self) -> &'static [usize] {
        match self {
            FaceLevel::None => &[],
            FaceLevel::Rd0 => &[0],
            FaceLevel::Rd1 => &[0, 1],
            FaceLevel::Rd1p => &[1],
            FaceLevel::Rd2 => &[1, 2],
            FaceLevel::Rd2p => &[2],
        }
    }
}

impl fmt::Display for FaceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FaceLevel {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self, crate::Error> {
        FaceLevel::from_name(s)
    }
}

/// What a backend supplies to FACE: its first rounds (to build the cache) and its hot loop.
pub(crate) trait FaceBackend: Backend {
    /// Backend form of the counter-indexed table.
    type Table: Zeroize + Send + Sync + Clone;
    /// Whatever the backend keeps between calls about the current segment.
    type SegCache: Zeroize + Send + Sync + Clone + Default;

    /// Whitening and then `rounds` (0, 1 or 2) full rounds, in place.
    fn head(&self, blocks: &mut [Block], rounds: usize);

    /// Converts the canonical table `T_r` (256 blocks, `r = level.table_round()`).
    fn prepare_table(&self, level: FaceLevel, t: &[Block]) -> Self::Table;

    /// `data[i] ^= E(counter_i)` from `counter_0 = ctr` on, through any number of segments,
    /// while counter bytes 0, 5 and 10 (and so the table) stay the same.
    fn face_run(
        &self,
        level: FaceLevel,
        table: &Self::Table,
        seg: &mut Self::SegCache,
        ctr: u128,
        data: &mut [Block],
        wrap32: bool,
    );

    /// `data[i] ^= E(ctr + i)` without FACE; the low 32 bits of `ctr` do not wrap within
    /// `data.len()` blocks. The default builds counter blocks and encrypts them.
    fn plain_xor(&self, ctr: u128, data: &mut [Block]) {
        plain_xor_with_blocks(self, ctr, data);
    }

    /// Whether [`FaceBackend::xor_ghash`] interleaves GHASH `imp` with the keystream.
    fn stitches(&self, _imp: GhashImpl) -> bool {
        false
    }

    /// [`FaceBackend::face_run`] (with `table`) or [`FaceBackend::plain_xor`] (without), and
    /// GCM's GHASH of the ciphertext into `g`. The default runs one and then the other.
    #[allow(clippy::too_many_arguments)]
    fn xor_ghash(
        &self,
        level: FaceLevel,
        table: Option<&Self::Table>,
        seg: &mut Self::SegCache,
        ctr: u128,
        data: &mut [Block],
        wrap32: bool,
        g: &mut GhashStitch,
    ) {
        xor_then_ghash(self, level, table, seg, ctr, data, wrap32, g);
    }
}

/// The unstitched [`FaceBackend::xor_ghash`]: ciphertext is hashed before the keystream when
/// opening and after it when sealing.
#[allow(clippy::too_many_arguments)]
pub(crate) fn xor_then_ghash<B: FaceBackend>(
    backend: &B,
    level: FaceLevel,
    table: Option<&B::Table>,
    seg: &mut B::SegCache,
    ctr: u128,
    data: &mut [Block],
    wrap32: bool,
    g: &mut GhashStitch,
) {
    if g.decrypt {
        g.absorb(data);
    }
    match table {
        Some(t) => backend.face_run(level, t, seg, ctr, data, wrap32),
        None => backend.plain_xor(ctr, data),
    }
    if !g.decrypt {
        g.absorb(data);
    }
}

/// For backends that keep segment constants in their own form between calls (bitsliced,
/// T-table): how to build that form and how to run one segment with it.
pub(crate) trait PerSegment {
    type Seg: Zeroize + Clone + Default;
    /// The constants for the segment of counters `base | x`.
    fn prepare(&self, base: u128) -> Self::Seg;
    /// `data[i] ^= E(base | (x0 + i))`, `x0 + data.len() ≤ 256`.
    fn xor(&self, seg: &Self::Seg, x0: usize, data: &mut [Block]);
}

/// The segment constants of one segment, in a backend's form, and which segment they are for.
#[derive(Clone, Default)]
pub(crate) struct SegmentCache<S> {
    base: Option<u128>,
    seg: S,
}

impl<S: Zeroize> Zeroize for SegmentCache<S> {
    fn zeroize(&mut self) {
        self.seg.zeroize();
        self.base = None;
    }
}

/// [`FaceBackend::face_run`] one segment at a time, rebuilding the constants when the segment
/// changes (once per 256 blocks).
#[inline(always)]
pub(crate) fn run_by_segment<P: PerSegment>(
    per: &P,
    cache: &mut SegmentCache<P::Seg>,
    mut ctr: u128,
    data: &mut [Block],
    wrap32: bool,
) {
    let mut done = 0;
    while done < data.len() {
        let x = (ctr & 0xff) as usize;
        let n = (data.len() - done).min(256 - x);
        let base = ctr & !0xff;
        if cache.base != Some(base) {
            cache.seg.zeroize();
            cache.seg = per.prepare(base);
            cache.base = Some(base);
        }
        per.xor(&cache.seg, x, &mut data[done..done + n]);
        done += n;
        ctr = stream::advance(ctr, n as u128, wrap32);
    }
}

/// Plain CTR through [`Backend::encrypt_blocks`], 64 counter blocks at a time.
pub(crate) fn plain_xor_with_blocks<B: Backend>(backend: &B, ctr: u128, data: &mut [Block]) {
    let mut ks = [[0u8; 16]; 64];
    let mut next = ctr;
    for chunk in data.chunks_mut(64) {
        let ks = &mut ks[..chunk.len()];
        for k in ks.iter_mut() {
            *k = next.to_be_bytes();
            next = next.wrapping_add(1);
        }
        backend.encrypt_blocks(ks);
        xor_blocks(chunk, ks);
    }
    ks.zeroize();
}

#[inline(always)]
pub(crate) fn xor_blocks(data: &mut [Block], ks: &[Block]) {
    for (d, k) in data.iter_mut().zip(ks) {
        let v = u128::from_ne_bytes(*d) ^ u128::from_ne_bytes(*k);
        *d = v.to_ne_bytes();
    }
}

/// Bytes 0, 5 and 10 of a counter: the table `T_r` is valid while they stay the same.
fn table_key(ctr: u128) -> [u8; 3] {
    let b = ctr.to_be_bytes();
    [b[0], b[5], b[10]]
}

/// The FACE keystream generator for one backend: counter arithmetic and table bookkeeping,
/// written once. Positions are in whole blocks; `stream.rs` handles bytes.
#[derive(Clone)]
pub(crate) struct FaceCtr<B: FaceBackend> {
    backend: B,
    level: FaceLevel,
    table: Option<([u8; 3], B::Table)>,
    seg: B::SegCache,
}

impl<B: FaceBackend> Drop for FaceCtr<B> {
    fn drop(&mut self) {
        if let Some((_, t)) = self.table.as_mut() {
            t.zeroize();
        }
        self.seg.zeroize();
    }
}

impl<B: FaceBackend> FaceCtr<B> {
    pub fn new(backend: B, level: FaceLevel) -> Self {
        FaceCtr { backend, level, table: None, seg: B::SegCache::default() }
    }

    pub fn level(&self) -> FaceLevel {
        self.level
    }

    /// Builds the table for `ctr` now (FACE's set-up cost, which the paper's Table 4 reports),
    /// instead of on first use.
    pub fn precompute(&mut self, ctr: u128) {
        if self.level != FaceLevel::None {
            self.ensure_table(ctr);
        }
    }

    fn ensure_table(&mut self, ctr: u128) {
        let key = table_key(ctr);
        if self.table.as_ref().is_none_or(|(k, _)| *k != key) {
            let r = self.level.table_round().expect("FACE level has a table");
            let mut t = cache::table(&self.backend, ctr, r);
            let prepared = self.backend.prepare_table(self.level, &t);
            t.zeroize();
            if let Some((_, old)) = self.table.as_mut() {
                old.zeroize();
            }
            self.table = Some((key, prepared));
        }
    }

    /// `data[i] ^= E(counter_i)`, `counter_0 = ctr`, counting as [`stream::advance`] does.
    pub fn xor_blocks(&mut self, ctr: u128, data: &mut [Block], wrap32: bool) {
        self.by_table(ctr, data, wrap32, |backend, level, table, seg, ctr, piece| match table {
            Some(t) => backend.face_run(level, t, seg, ctr, piece, wrap32),
            None => backend.plain_xor(ctr, piece),
        });
    }

    /// [`FaceCtr::xor_blocks`] with GCM's GHASH of the ciphertext into `g`.
    pub fn xor_ghash(&mut self, ctr: u128, data: &mut [Block], wrap32: bool, g: &mut GhashStitch) {
        self.by_table(ctr, data, wrap32, |backend, level, table, seg, ctr, piece| {
            backend.xor_ghash(level, table, seg, ctr, piece, wrap32, g)
        });
    }

    /// Cuts `data` into the pieces one call of the backend may take — for FACE, up to the next
    /// change of the table; without FACE, up to the next wrap of the low 32 bits — and runs
    /// `run(backend, level, table, segment cache, first counter, piece)` on each.
    fn by_table(
        &mut self,
        mut ctr: u128,
        data: &mut [Block],
        wrap32: bool,
        mut run: impl FnMut(&B, FaceLevel, Option<&B::Table>, &mut B::SegCache, u128, &mut [Block]),
    ) {
        let mut done = 0;
        while done < data.len() {
            let rest = data.len() - done;
            let n = if self.level == FaceLevel::None {
                let to_wrap = (1u64 << 32) - u64::from(ctr as u32);
                let n = rest.min(usize::try_from(to_wrap).unwrap_or(usize::MAX));
                run(&self.backend, self.level, None, &mut self.seg, ctr, &mut data[done..done + n]);
                n
            } else {
                // Bytes 0, 5 or 10 change only on a carry out of bytes 11–15, which only the
                // 128-bit counter makes.
                let n = if wrap32 {
                    rest
                } else {
                    let to_change = (1u128 << 40) - (ctr & ((1u128 << 40) - 1));
                    rest.min(usize::try_from(to_change).unwrap_or(usize::MAX))
                };
                self.ensure_table(ctr);
                let (_, table) = self.table.as_ref().expect("table built");
                run(&self.backend, self.level, Some(table), &mut self.seg, ctr, &mut data[done..done + n]);
                n
            };
            done += n;
            ctr = stream::advance(ctr, n as u128, wrap32);
        }
    }

    pub fn stitches(&self, imp: GhashImpl) -> bool {
        self.backend.stitches(imp)
    }
}
