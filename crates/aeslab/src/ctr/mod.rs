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
//! 2^40 blocks for [`Ctr128BE`] and never for [`Ctr32BE`]. `cache.rs` computes both from the
//! backend's own constant-time first rounds (`aes::Rounds::first_rounds`); each backend family
//! runs the remaining rounds in its own file (`insn.rs`, `sliced.rs`, `table.rs`).
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
//! Counters: the stream (`stream.rs`) cuts the data into pieces at every wrap of the low 32
//! bits of the counter, so that kernels only ever add; across a cut, [`Counter`] says how the
//! counter moves on (a carry into byte 11, or a wrap to zero).
//!
//! Constant time: the tables are indexed by the counter, which is public; the cache contents
//! are secret and only ever XORed.

#![deny(unsafe_code)]

mod cache;
pub(crate) mod insn;
mod sliced;
mod stream;
mod table;

use core::fmt;

use crate::Block;
use crate::aes::{AnyAes, Backend, BackendKind, any_as_dyn, any_call};

pub(crate) use cache::{FaceTable, TABLE_OVERHANG, table_key};
pub(crate) use stream::xor_plain_cut;
pub use stream::{
    Aes128Ctr, Aes128Ctr32, Aes192Ctr, Aes192Ctr32, Aes256Ctr, Aes256Ctr32, AesCtr, CounterMode, Ctr32BE,
    Ctr128BE, DynCtr,
};

/// How much of rounds 0–2 comes from the cache (cumulative; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaceLevel {
    /// Plain CTR: every round of every block is computed.
    None,
    /// 12 bytes of the whitening output cached; blocks start at round 1.
    Rd0,
    /// Also columns 1–3 of round 1 (column 0 computed per block).
    Rd1,
    /// rd1+ in the paper.
    Rd1p,
    /// Also the round-2 sums without column 0 (column-0 terms computed per block).
    Rd2,
    /// rd2+ in the paper.
    Rd2p,
}

impl FaceLevel {
    /// Every level, from none to the most cached.
    pub const ALL: [FaceLevel; 6] =
        [FaceLevel::None, FaceLevel::Rd0, FaceLevel::Rd1, FaceLevel::Rd1p, FaceLevel::Rd2, FaceLevel::Rd2p];

    /// Their names, in the same order.
    pub const NAMES: &'static [&'static str] = &["none", "rd0", "rd1", "rd1p", "rd2", "rd2p"];

    /// The fastest level (the default for every backend: each level only removes work).
    pub const FASTEST: FaceLevel = FaceLevel::Rd2p;

    /// Its name, as `--face` takes it.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The level called `name`, or an error listing the names.
    pub fn from_name(name: &str) -> Result<FaceLevel, crate::Error> {
        FaceLevel::ALL
            .iter()
            .copied()
            .find(|l| l.name() == name)
            .ok_or_else(|| crate::Error::UnknownFaceLevel { name: name.into(), known: Self::NAMES })
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
}

impl fmt::Display for FaceLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for FaceLevel {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self, crate::Error> {
        FaceLevel::from_name(s)
    }
}

/// How the counter block advances (the run-time form of [`CounterMode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    /// The whole 16-byte block is one big-endian counter, wrapping from 2^128 − 1 to 0
    /// (SP 800-38A; `openssl enc -aes-*-ctr`).
    Be128,
    /// A 96-bit nonce and a 32-bit big-endian counter that wraps mod 2^32 (GCM, RFC 3686).
    Be32,
}

impl Counter {
    /// The counter `n` blocks after `ctr`.
    pub(crate) fn advance(self, ctr: u128, n: u128) -> u128 {
        match self {
            Counter::Be128 => ctr.wrapping_add(n),
            Counter::Be32 => (ctr & !0xffff_ffff) | u128::from((ctr as u32).wrapping_add(n as u32)),
        }
    }
}

/// The fewest blocks FACE's table must serve before building it pays, on any backend: 512
/// (8 KiB). See [`face_pays_from_blocks`] for each backend's own.
pub const FACE_PAYS_FROM_BLOCKS: usize = 512;

/// How many blocks FACE's table must serve on `backend` before building it pays.
///
/// Building costs 256 blocks through `r` rounds (512 block-rounds for rd2p) plus a fixed part
/// (the 4.6 KB table allocated, written and wiped, the segment constants); each
/// block FACE runs afterwards saves `r` rounds. The fixed part is about the same number of
/// cycles everywhere while the rounds saved are worth less the faster the backend, so FACE
/// pays later on the fast ones. `aeslab bench ctr` prints the break-even it measures; on
/// Zen 3 (2026-11-24) one message under a fresh nonce broke even at 20 KiB (AES-128) to 29
/// KiB (AES-256) on VAES, 14-17 KiB on AES-NI and 8 KiB on the bitsliced backends. On Zen 5
/// (2026-11-25) `vaes256` broke even at 20 KiB with both key sizes, and `vaes512`, whose zmm
/// rounds run twice as fast there ([`crate::cpu::zmm_aes_full_rate`]), at 40 KiB (AES-128)
/// and 42 KiB (AES-256): it starts at 40 KiB (2560 blocks) on such cores, at 20 KiB on the
/// others (Zen 4 and Intel run zmm rounds at the ymm rate in blocks). On Emerald Rapids
/// (2026-11-27, three runs) `vaes512` broke even at 15–25 KiB with AES-128 and 15–19 KiB
/// with AES-256, `vaes256` at 15–25 KiB, and AES-NI at 13–15 KiB: the 20 KiB and 14 KiB
/// thresholds lie inside what runs there spread over. After the AES-instruction backends'
/// table build was made cheaper (`insn::build_table_after`, the same day; on a noisier
/// machine) one run read (AES-128 and AES-256) `vaes512` 23.7 and 21.5 KiB, `vaes256` 19.1
/// and 23.1 KiB, AES-NI 13.4 and 12.7 KiB: still the same thresholds. (AES-GCM's on Intel's
/// `vaes512` moved down, measured sealing one message: [`crate::gcm::face_pays_from_blocks`].)
/// On Zen 4 (2026-12-02, three runs, two of them beside a CI build) `vaes512` broke even at
/// 27–31 KiB with AES-128 and 18–28 KiB with AES-256, `vaes256` at 9–17 and 4–6 KiB, AES-NI
/// at 4–6 and 2–4 KiB: there the zmm threshold comes a little early for AES-128 (a message of
/// 20–30 KiB pays a few percent), and the AES-NI and ymm ones late; not changed on runs this
/// spread.
///
/// A stream runs plain CTR until it has run this many blocks under one table (or is asked for
/// this many in one call), and GCM with a FACE level asked for builds a message's table only
/// for messages this long (GCM's own default: [`crate::gcm::face_pays_from_blocks`]).
pub fn face_pays_from_blocks(backend: BackendKind) -> usize {
    #[cfg(target_arch = "x86_64")]
    if backend == BackendKind::Vaes512 && crate::cpu::zmm_aes_full_rate() {
        return 2560;
    }
    by_family(backend, 1280, 896, FACE_PAYS_FROM_BLOCKS)
}

/// `vaes` on the VAES backends, `insn` on AES-NI and ARMv8, `other` on the rest: FACE's
/// thresholds, measured per family.
fn by_family(backend: BackendKind, vaes: usize, insn: usize, other: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if matches!(backend, BackendKind::Vaes256 | BackendKind::Vaes512) {
        return vaes;
    }
    #[cfg(target_arch = "x86_64")]
    if backend == BackendKind::Aesni {
        return insn;
    }
    #[cfg(target_arch = "aarch64")]
    if backend == BackendKind::Armv8 {
        return insn;
    }
    let _ = (backend, vaes, insn);
    other
}

/// The fewest blocks one call runs through FACE's table, even when the table is ready: below
/// it the run's fixed part (the segment constants, computed per call) costs more than the
/// rounds it saves, and plain CTR is faster. Shorter calls neither use the table nor count
/// towards building one.
///
/// Measured on Zen 3 (2026-11-25), AES-128, one stream with its table built, per call: rd2p
/// broke even with plain CTR at 512 bytes on VAES (32 blocks) and 256 bytes on AES-NI (16);
/// at 64 bytes it was 25–32% slower on both. On `bitslice-avx2` and `ct64` it broke even near
/// 1 KiB (64 blocks), noisier. ARMv8 is taken to be like AES-NI (not measured).
///
/// `vaes512` on cores that run zmm rounds at full rate ([`crate::cpu::zmm_aes_full_rate`])
/// takes longer calls, and how much longer depends on the key size (`rounds`: 10, 12 or 14).
/// Its plain CTR is fast enough that FACE's per-call part weighs more. On Zen 5 (2026-11-29,
/// `bench ctr`, one stream in calls of a given size with its table built, two runs), rd2p
/// against plain CTR:
/// - AES-128 and AES-192: 6–10% slower at 2 KiB, 2–6% slower at 4 KiB, 3–4% faster at 6 KiB.
///   So the threshold is 5 KiB (320 blocks).
/// - AES-256: 12–13% faster from 2 KiB, and 20% slower at 1420 bytes. So the threshold is
///   2 KiB (128 blocks).
///
/// At 32 blocks, a stream of 1420-byte calls ran 0.142–0.151 cycles/byte with AES-128
/// against 0.099–0.100 plain.
pub fn face_min_call_blocks(backend: BackendKind, rounds: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if backend == BackendKind::Vaes512 && crate::cpu::zmm_aes_full_rate() {
        return if rounds >= 14 { 128 } else { 320 };
    }
    let _ = rounds;
    by_family(backend, 32, 16, 64)
}

/// Blocks from `ctr` up to the next wrap of its low 32 bits: the longest piece a kernel takes.
pub(crate) fn blocks_to_wrap(ctr: u128) -> u64 {
    (1u64 << 32) - u64::from(ctr as u32)
}

/// What each backend family supplies to CTR: the keystream with and without FACE, and FACE's
/// table in its own form. Implemented in `insn.rs`, `sliced.rs` and `table.rs`; the stream and
/// GCM reach it through [`engine`], one indirect call.
///
/// In every method the low 32 bits of the counter do not wrap within `data`.
pub(crate) trait CtrEngine: Send + Sync {
    /// `data[i] ^= E(ctr + i)`.
    fn xor_plain(&self, ctr: u128, data: &mut [Block]);
    /// [`CtrEngine::xor_plain`] on bytes: whole blocks, then a partial one if the length is
    /// not a multiple of 16 (a stream's message in one call, tail included).
    fn xor_plain_bytes(&self, ctr: u128, data: &mut [u8]) {
        let (blocks, tail) = data.as_chunks_mut::<16>();
        if !blocks.is_empty() {
            self.xor_plain(ctr, blocks);
        }
        if !tail.is_empty() {
            let mut last = [[0u8; 16]];
            last[0][..tail.len()].copy_from_slice(tail);
            self.xor_plain(ctr.wrapping_add(blocks.len() as u128), &mut last);
            tail.copy_from_slice(&last[0][..tail.len()]);
            crate::ct::wipe(&mut last[0]);
        }
    }
    /// Fills `table` for `level` (not `None`) and the counters that share bytes 0, 5 and 10
    /// with `ctr`.
    fn build_table(&self, level: FaceLevel, ctr: u128, table: &mut FaceTable);
    /// `data[i] ^= E(ctr + i)` with FACE at `level`, from a table `build_table` filled for
    /// these counters (the engine may keep its segment constants there too).
    fn xor_face(&self, level: FaceLevel, table: &mut FaceTable, ctr: u128, data: &mut [Block]);
}

/// The CTR engine of the backend `aes` holds.
///
/// Never inlined, so that the vtables, and through them every kernel, are compiled in this
/// crate, once. Release builds share no generic instances between crates: where an inlined
/// function made the vtable, each crate calling it compiled every kernel again (a user's crate
/// of fifteen lines using `Aes128Gcm` and `Aes128Ctr` built 1.47 MB of code in 52 s on Emerald
/// Rapids, and 89 KB in 6 s with the dispatch out of line). A public function that may be
/// inlined into a user's crate reaches a kernel only through a function like this one.
#[inline(never)]
pub(crate) fn engine(aes: &AnyAes) -> &dyn CtrEngine {
    any_as_dyn!(aes, CtrEngine)
}

/// `engine(aes).xor_plain_bytes(ctr, data)`, dispatched by [`any_call!`] out of line: the
/// stream's per-message call (one jump on the backend, no vtable fetched first).
#[inline(never)]
pub(crate) fn xor_plain_bytes(aes: &AnyAes, ctr: u128, data: &mut [u8]) {
    any_call!(aes, b => b.xor_plain_bytes(ctr, data))
}

/// `data[i] ^= keystream[i]`.
#[inline(always)]
pub(crate) fn xor_blocks(data: &mut [Block], keystream: &[Block]) {
    for (d, k) in data.iter_mut().zip(keystream) {
        let v = u128::from_ne_bytes(*d) ^ u128::from_ne_bytes(*k);
        *d = v.to_ne_bytes();
    }
}

/// Plain CTR through the backend's block encryption, 64 counter blocks at a time (for backends
/// without a counter kernel of their own).
pub(crate) fn xor_plain_with_blocks<B: Backend>(backend: &B, ctr: u128, data: &mut [Block]) {
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
    crate::ct::wipe(ks.as_flattened_mut());
}
