//! AES-GCM (SP 800-38D) on FACE-CTR.
//!
//! The keystream is aeslab's CTR with the 32-bit counter on any AES backend and FACE level;
//! with a 96-bit nonce the counter block is `nonce ‖ 1`, and with FACE the table is built once
//! per message, on the stack, when the message is long enough for it to pay. GHASH (`ghash`)
//! runs with carry-less multiplies where the CPU has them, else in portable constant-time code.
//!
//! On the AES-instruction backends whose GHASH has the same register width, one kernel
//! (`insn.rs`) does the whole message at every length: the GHASH of one group of blocks is
//! multiplied between the AES rounds of the next, in the loop it owns. The other backends
//! (bitsliced, T-table) alternate a CTR pass and a GHASH pass per 4 KiB chunk, which stays in
//! L1, or take the short path for short messages (`Gcm::crypt_short`).
//!
//! [`Gcm`] takes keys of 16, 24 or 32 bytes, nonces of any non-zero length (other than 12
//! bytes through GHASH), tags of 12 to 16 bytes. It is immutable once made: sealing and
//! opening take `&self` and keep a message's state (counter, GHASH accumulator, FACE table) on
//! the stack of the call. [`Aes128Gcm`], [`Aes192Gcm`] and [`Aes256Gcm`] are the RustCrypto
//! `aead` 0.6 types (96-bit nonce, 16-byte tag), calling straight through. Opening a forgery
//! returns an error and wipes the buffer.

#![deny(unsafe_code)]

mod insn;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod key_setup;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

use cipher::array::ArraySize;
use cipher::consts::U12;
use cipher::{KeyInit, KeySizeUser};

use crate::aead_glue::DetachedAead;
use crate::aes::sliced::SlicedIsa;
use crate::aes::{AesInsn, AesKeySize, AnyAes, BackendKind, Sliced, TableVartime, any_as_dyn, any_call, default_backend};
use crate::ct::{WipedBlock, constant_time_eq};
use crate::ctr::{Counter, CtrEngine, FACE_PAYS_FROM_BLOCKS, FaceLevel, FaceTable, blocks_to_wrap, engine, xor_plain_cut};
use crate::ghash::{Available, GhashKey, Spare};
use crate::{Block, Error};
use insn::{Message, Stitched};
use crate::aes::insn::AesRound;
use crate::ghash::ClmulReg;

pub use crate::ghash::GhashImpl;

/// Bytes per CTR-then-GHASH step on the backends without a whole-message kernel: small enough
/// to stay in L1.
const CHUNK: usize = 4096;

/// On the backends without a whole-message kernel, messages up to this many bytes, with AD up
/// to [`SHORT_AD`], take the short path ([`Gcm::crypt_short`]): 31 blocks, so that with E(J0)
/// the keystream is 32.
const SHORT_MESSAGE: usize = 496;
/// The AD the short path takes (a TLS or QUIC header fits): with the message and the lengths,
/// at most 36 blocks to hash.
const SHORT_AD: usize = 64;

/// Plaintext limit of SP 800-38D: 2^39 − 256 bits.
pub const MAX_MESSAGE: u64 = (1 << 36) - 32;

/// A message's GHASH: the key, the accumulator, and whether the data is ciphertext before
/// the keystream (opening) or after it (sealing).
struct GhashState<'a> {
    key: &'a GhashKey,
    acc: u128,
    decrypt: bool,
}

/// What each backend family does for GCM: the whole message in one kernel, where the family
/// has one (the AES-instruction backends with a carry-less GHASH of the same width,
/// `insn.rs`); `None` leaves it to the general path, CTR then GHASH per [`CHUNK`].
pub(crate) trait GcmEngine: CtrEngine {
    /// The full tag of the message, its data encrypted or decrypted in place; FACE from
    /// `table` when given (built for `inc32(j0)` at `face`).
    #[allow(clippy::too_many_arguments)]
    fn message(
        &self,
        _face: FaceLevel,
        _table: Option<&FaceTable>,
        _ghash: &GhashKey,
        _j0: u128,
        _ad: &[u8],
        _data: &mut [u8],
        _decrypt: bool,
    ) -> Option<Block> {
        None
    }
}

/// CTR and GHASH one after the other, per [`CHUNK`]: ciphertext is hashed before the
/// keystream when opening and after it when sealing.
fn xor_then_ghash<E: CtrEngine + ?Sized>(
    engine: &E,
    face: FaceLevel,
    mut table: Option<&mut FaceTable>,
    ctr: u128,
    data: &mut [Block],
    g: &mut GhashState<'_>,
) {
    let mut ctr = ctr;
    for chunk in data.chunks_mut(CHUNK / 16) {
        if g.decrypt {
            g.key.update_blocks(&mut g.acc, chunk);
        }
        match table.as_deref_mut() {
            Some(t) if face != FaceLevel::None => engine.xor_face(face, t, ctr, chunk),
            _ => engine.xor_plain(ctr, chunk),
        }
        if !g.decrypt {
            g.key.update_blocks(&mut g.acc, chunk);
        }
        // Inside a piece the low 32 bits do not wrap; the last step may reach 2^128.
        ctr = ctr.wrapping_add(chunk.len() as u128);
    }
}

/// The message without FACE in the kernel of the backend `aes` holds ([`GcmEngine::message`]):
/// [`Gcm::crypt`]'s one call, dispatched by [`any_call!`]. Never inlined, so the kernels are
/// compiled in this crate and not again in each crate `crypt` is inlined into (see
/// [`crate::ctr::engine`]).
#[inline(never)]
fn plain_message(aes: &AnyAes, face: FaceLevel, ghash: &GhashKey, j0: u128, ad: &[u8], buf: &mut [u8], decrypt: bool) -> Option<Block> {
    any_call!(aes, b => b.message(face, None, ghash, j0, ad, buf, decrypt))
}

impl GcmEngine for TableVartime {}
impl<I: SlicedIsa> GcmEngine for Sliced<I> {}

impl<I: Stitched> GcmEngine for AesInsn<I>
where
    <I::Reg as ClmulReg>::Lane: AesRound,
{
    fn message(
        &self,
        face: FaceLevel,
        table: Option<&FaceTable>,
        ghash: &GhashKey,
        j0: u128,
        ad: &[u8],
        data: &mut [u8],
        decrypt: bool,
    ) -> Option<Block> {
        if ghash.imp() != I::GHASH {
            return None;
        }
        let face = table.filter(|_| face != FaceLevel::None).map(|t| (face.table_round().expect("a FACE level"), &t.blocks[..]));
        // Every block GHASH reads, and the lengths block: at most 16 needs no power above H^16.
        let blocks = ad.len().div_ceil(16) + data.len().div_ceil(16) + 1;
        let mut room = MaybeUninit::uninit();
        let mut spare = Spare::new(&mut room);
        let message = Message::<I::Both> {
            keys: self.enc_keys(),
            powers: ghash.powers_for(blocks, &mut spare),
            face,
            j0,
            ad,
            data,
            decrypt,
            schoolbook: ghash.stitched_schoolbook(),
            isa: PhantomData,
        };
        insn::seal_or_open(message)
    }
}

/// AES-GCM with a key of any AES length, chosen backend, FACE level and GHASH, and a tag of
/// `tag_len` bytes.
#[derive(Clone)]
pub struct Gcm {
    aes: AnyAes,
    ghash: GhashKey,
    face: FaceLevel,
    /// The FACE level was the caller's choice (`with_options`): FACE from CTR's threshold.
    /// Otherwise the defaults' own, which is never on some backends ([`face_pays_from_blocks`]).
    face_asked: bool,
    tag_len: usize,
}

impl core::fmt::Debug for Gcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let how = if self.face_asked { "" } else { " (default)" };
        write!(f, "Gcm({}, face {}{how}, ghash {}, tag {}) {{ .. }}", self.aes.kind(), self.face, self.ghash.imp().name(), self.tag_len)
    }
}

/// How many blocks a message must have before AES-GCM's defaults ([`Gcm::new`], the `aead`
/// types' `KeyInit`) build its FACE table, on `backend` with `rounds` AES rounds (10, 12 or
/// 14); `None` where FACE does not pay at any length. A level asked for through
/// `with_options` uses CTR's threshold instead ([`crate::ctr::face_pays_from_blocks`]).
///
/// FACE saves AES rounds, which pays only while the AES units, not GHASH's carry-less
/// multiplier, bound the loop. Where zmm rounds run at full rate
/// ([`crate::cpu::zmm_aes_full_rate`]), `vaes512` with AES-128 and AES-192 is bound by the
/// multiplier, and the FACE loop was slower at every length. Zen 5, 2026-11-25, cycles per
/// byte, plain against rd2p:
/// - AES-128: 0.136 against 0.144 at 256 KiB, 0.137 against 0.157 at 32 KiB.
/// - AES-192: rd2p 2–6% slower from 32 KiB to 256 KiB.
/// - AES-256: even at 24 KiB, then FACE ahead: 2–4% at 32 KiB, 2–8% at 64 KiB, 7–11% at
///   256 KiB.
///
/// On 2026-11-26 the plain loop got faster (GHASH hashed in pairs, see `insn::group`) and FACE
/// less so: with AES-256 the defaults with FACE against plain were 1.061 at 24 KiB, 1.035 at
/// 32 KiB, 1.012 at 40 KiB, 1.003 at 48 KiB, 0.985 at 64 KiB and 0.961 at 128 KiB (one
/// binary, interleaved; the same comparison with AES-128, which builds no table, read
/// 1.00–1.01). It started at 48 KiB.
///
/// Later that day the loop read its round keys whole rather than broadcast (`insn::WideKeys`),
/// which sped the plain loop up more than FACE's: AES-256 with FACE against plain read
/// 1.007–1.021 at 48 KiB, 0.989–0.999 at 64 KiB, 0.976–0.983 at 80 KiB and 0.965–0.974 at 96
/// KiB (four runs, one binary, interleaved). It starts at 64 KiB (4096 blocks).
///
/// Elsewhere GCM follows CTR: the AES units are what its loop waits for (Zen 3's ymm
/// multiplier shares their pipes; on Zen 5, `vaes256` with FACE was 3–12% faster at 32–256
/// KiB with both key sizes). On Emerald Rapids (2026-11-27, AES-128, `vaes512`, plain
/// against rd2p sealing one message at 32 and 64 KiB, three runs) the table and its fixed
/// costs came to 470–520 cycles and FACE saved 0.021–0.027 cycles a byte, so it broke even at
/// 17–24 KiB, around CTR's 20. Once plain CTR started from the static round-0 table
/// (`insn::ROUND0_TABLE`), FACE there was 1.9% slower than plain at 20 KiB with AES-128 and
/// even at 24 KiB, and 3–4% faster at 20 KiB with AES-256 (four runs each): CTR's 20 KiB
/// stays, within 2% of the one crossover and past the other.
///
/// Then the zmm loop on Intel multiplied by the schoolbook (`insn::GroupProduct`, where
/// [`crate::cpu::zmm_clmul_apart_from_aes`]), which made plain AES-128 3% faster and left
/// AES-256 bound by the VAES port, so the crossovers moved apart. FACE rd2p against plain,
/// sealing one message, the two interleaved in one process (four runs, 2026-11-27): AES-128
/// 1.03–1.05 at 20 KiB, 1.01–1.03 at 24 KiB, 0.99–1.00 at 32 KiB, 0.94–0.96 at 64 KiB; AES-192
/// 1.01–1.02 at 16 KiB, 0.99 at 20 KiB; AES-256 1.02–1.07 at 12 KiB, 0.98–1.02 at 16 KiB,
/// 0.96–0.99 at 20 KiB. There: 32 KiB (2048 blocks), 20 KiB and 16 KiB (1024).
///
/// Then the table's build got cheaper (`ctr::insn::build_table_after`: about 140 cycles for
/// rd2p on zmm rather than 260, measured by `perf` sealing 8 KiB messages) and its entries
/// cache-line aligned. FACE rd2p against plain, as before (four runs, 2026-11-27): AES-128
/// 1.01–1.03 at 16 KiB, 0.99–1.00 at 20 KiB, 0.98–0.99 at 24 KiB; AES-192 1.01–1.03 at 12 KiB,
/// 0.99–1.01 at 14 KiB, 0.98–0.99 at 16 KiB; AES-256 0.97–1.07 at 10 KiB, 0.96–0.99 at 12 KiB,
/// 0.93–0.96 at 16 KiB. Through the `aead` traits (`aeslab bench gcm`, six runs, this build
/// against the one before) AES-128 at 20 KiB sealed and opened as fast with FACE as without,
/// within the runs' spread. There now, just past the crossovers: 24 KiB (1536 blocks), 16 KiB
/// (1024) and 12 KiB (768).
///
/// Then the loop with rd2p summed two groups before each reduction (`insn::ByLaneAhead`,
/// AES-128 only: with more rounds the VAES port is the bound), which made it 2–3% faster from
/// 24 KiB. FACE rd2p against plain, sealing and opening one message, the builds alternated
/// (Emerald Rapids, 2026-12-03, eight to ten runs each, fastest of each): AES-128 sealing
/// 1.02 at 8 KiB, 0.97 at 12 KiB, 0.96 at 14 KiB, 0.95 at 16 KiB and 0.94 at 20 KiB; opening
/// 1.05, 0.99, 0.97, 0.97 and 0.96. AES-128 there now: 14 KiB (896 blocks).
///
/// Zen 4 takes CTR's threshold (20 KiB on `vaes512`). There (2026-12-02, this threshold
/// lowered to 4 KiB for the experiment, three runs of `bench gcm`) rd2p against plain broke
/// even at 16–24 KiB sealing and 24–32 KiB opening, with both key sizes, and was 5–9% ahead at
/// 64 KiB: the loop waits for pipes that the AES rounds share with the carry-less multiplies,
/// so the two rounds FACE skips save less than their share. 20 KiB stays.
pub fn face_pays_from_blocks(backend: BackendKind, rounds: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if backend == BackendKind::Vaes512 && crate::cpu::zmm_aes_full_rate() {
        return (rounds >= 14).then_some(4096);
    }
    #[cfg(target_arch = "x86_64")]
    if backend == BackendKind::Vaes512 && crate::cpu::zmm_clmul_apart_from_aes() {
        return Some(match rounds {
            10 => 896,
            12 => 1024,
            _ => 768,
        });
    }
    let _ = rounds;
    Some(crate::ctr::face_pays_from_blocks(backend))
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The FACE table a message on this thread builds and wipes ([`with_scratch_table`]).
    static SCRATCH_TABLE: core::cell::RefCell<FaceTable> = const { core::cell::RefCell::new(FaceTable::EMPTY) };
}

/// `f` on this thread's scratch FACE table, then the table wiped (also if `f` panics); `None`
/// (and `f` not run) when the thread has none to lend: it is being torn down, or the table is
/// in use.
///
/// Why not a table on the stack: it has to start zeroed (safe Rust writes a value before it is
/// used), and that `memset` of 4.7 KB took 1.1% of a 64 KiB message's time (about 120 cycles;
/// Emerald Rapids, `perf`, 2026-11-27), as much as building the table. Here the wipe that
/// every message needs anyway leaves the zeros for the next one. Sealing, `vaes512`, the
/// defaults, four alternated runs of each build (TSC ticks × 1.30): AES-128 at 24 KiB
/// 0.177–0.179 → 0.174–0.175 cycles/byte, AES-256 at 12 KiB 0.232–0.241 → 0.226–0.235 and at
/// 16 KiB 0.224–0.231 → 0.218–0.228.
#[cfg(feature = "std")]
fn with_scratch_table<R>(f: impl FnOnce(&mut FaceTable) -> R) -> Option<R> {
    /// The table lent, wiped when given back.
    struct Lent<'a>(core::cell::RefMut<'a, FaceTable>);
    impl Drop for Lent<'_> {
        fn drop(&mut self) {
            self.0.clear();
        }
    }
    SCRATCH_TABLE
        .try_with(|scratch| {
            let mut table = Lent(scratch.try_borrow_mut().ok()?);
            Some(f(&mut table.0))
        })
        .ok()
        .flatten()
}

impl Gcm {
    /// The fastest constant-time backend, FACE rd2+ on the messages where it pays
    /// ([`face_pays_from_blocks`]), the fastest GHASH, 16-byte tags.
    #[inline]
    pub fn new(key: &[u8]) -> Result<Gcm, Error> {
        Gcm::with_choices(key, default_backend(), FaceLevel::FASTEST, false, GhashImpl::fastest(), 16)
    }

    /// With every choice explicit; an error for a bad key length, a tag length outside 12..=16,
    /// or a backend or GHASH this CPU lacks. A FACE level other than `None` runs on messages
    /// of at least CTR's [`crate::ctr::face_pays_from_blocks`] blocks.
    /// The variable-time `table` backend is an error here (see
    /// [`Gcm::with_options_variable_time`]).
    #[inline]
    pub fn with_options(key: &[u8], backend: BackendKind, face: FaceLevel, ghash: GhashImpl, tag_len: usize) -> Result<Gcm, Error> {
        crate::aes::refuse_variable_time(backend, "AES-GCM", "Gcm::with_options_variable_time")?;
        Gcm::with_options_variable_time(key, backend, face, ghash, tag_len)
    }

    /// [`Gcm::with_options`] on any backend, the variable-time `table` included.
    #[inline]
    pub fn with_options_variable_time(key: &[u8], backend: BackendKind, face: FaceLevel, ghash: GhashImpl, tag_len: usize) -> Result<Gcm, Error> {
        Gcm::with_choices(key, backend, face, true, ghash, tag_len)
    }

    /// [`Gcm::with_options_variable_time`], and `face_asked` says whether the FACE level was
    /// the caller's (see [`Gcm::face_pays_at`]).
    #[inline]
    fn with_choices(key: &[u8], backend: BackendKind, face: FaceLevel, face_asked: bool, ghash: GhashImpl, tag_len: usize) -> Result<Gcm, Error> {
        if !(12..=16).contains(&tag_len) {
            return Err(Error::InvalidTagLength(tag_len));
        }
        let ghash = ghash.check().ok_or(Error::BackendUnavailable { backend: ghash.name(), requires: ghash.requires() })?;
        let wrap = |aes, ghash| Ok(Gcm { ghash, aes, face, face_asked, tag_len });
        new_key(backend, key, ghash, wrap, |wrap| {
            let mut h = WipedBlock([0; 16]);
            let aes = AnyAes::scheduled(backend, key, Some(&mut h.0))?;
            wrap(aes, GhashKey::new(&h.0, ghash))
        })
    }

    /// Tag length in bytes (12 to 16).
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// The AES backend running CTR.
    pub fn backend(&self) -> BackendKind {
        self.aes.kind()
    }

    /// The GHASH implementation.
    pub fn ghash_impl(&self) -> GhashImpl {
        self.ghash.imp()
    }

    /// J0 for `nonce`.
    fn j0(&self, nonce: &[u8]) -> Result<u128, Error> {
        Ok(match nonce.len() {
            0 => return Err(Error::InvalidNonceLength(0)),
            12 => {
                // The nonce, then the 32-bit counter 1.
                let [a, b, c] = crate::ct::be_words::<3>(nonce);
                crate::ct::u128_from_be_words([a, b, c, 1])
            }
            n => {
                let mut acc = 0u128;
                self.ghash.update(&mut acc, nonce);
                self.ghash.update(&mut acc, &lengths_block(0, n));
                acc
            }
        })
    }

    fn check_lengths(msg_len: usize) -> Result<(), Error> {
        if msg_len as u64 > MAX_MESSAGE {
            return Err(Error::MessageTooLong { len: msg_len as u64, max: MAX_MESSAGE });
        }
        Ok(())
    }

    /// One message: E_K(J0), then the keystream from inc32(J0) over `buf` with the GHASH of
    /// the AD and the ciphertext; returns the tag.
    #[inline]
    fn crypt(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], decrypt: bool) -> Result<Block, Error> {
        Self::check_lengths(buf.len())?;
        let j0 = self.j0(nonce)?;
        // FACE when it is on and the message is long enough for the table to pay for itself;
        // shorter messages run plain CTR, which is then the faster. (No threshold is below
        // `FACE_PAYS_FROM_BLOCKS`: shorter messages do not look it up.)
        let blocks = buf.len() / 16;
        let face_pays = self.face != FaceLevel::None && blocks >= FACE_PAYS_FROM_BLOCKS && self.face_pays_at(blocks);
        // Plain CTR on the AES-instruction backends: one indirect call to the kernel, which
        // owns the whole message. The rest is in `crypt_other`, whose stack frame (the FACE
        // table, the short-message buffers) this path does not pay for.
        if !face_pays
            && let Some(tag) = plain_message(&self.aes, self.face, &self.ghash, j0, ad, buf, decrypt)
        {
            return Ok(tag);
        }
        Ok(self.crypt_other(j0, face_pays, ad, buf, decrypt))
    }

    /// Whether a message of `blocks` blocks builds its FACE table: from CTR's threshold when
    /// the level was asked for, from GCM's own ([`face_pays_from_blocks`]) under the defaults.
    #[inline(never)]
    fn face_pays_at(&self, blocks: usize) -> bool {
        let from = if self.face_asked {
            Some(crate::ctr::face_pays_from_blocks(self.aes.kind()))
        } else {
            face_pays_from_blocks(self.aes.kind(), self.aes.rounds())
        };
        from.is_some_and(|from| blocks >= from)
    }

    /// [`Gcm::crypt`] with FACE, or on a backend without a whole-message kernel.
    #[inline(never)]
    fn crypt_other(&self, j0: u128, face_pays: bool, ad: &[u8], buf: &mut [u8], decrypt: bool) -> Block {
        if !face_pays {
            return self.crypt_from_table(j0, None, ad, buf, decrypt);
        }
        #[cfg(feature = "std")]
        if let Some(tag) = with_scratch_table(|table| self.crypt_from_table(j0, Some(table), ad, buf, decrypt)) {
            return tag;
        }
        let mut table = FaceTable::EMPTY;
        self.crypt_from_table(j0, Some(&mut table), ad, buf, decrypt)
    }

    /// [`Gcm::crypt_other`] with FACE from `table` (empty: built here), or without. Never
    /// inlined: `crypt_other` calls it in three places (no table, the thread's scratch table,
    /// a table on the stack), and inlined it was compiled three times over — the short-message
    /// buffers, the CTR-then-GHASH loop and the tail each in triplicate — for a call that the
    /// work behind it dwarfs.
    #[inline(never)]
    fn crypt_from_table(&self, j0: u128, mut table: Option<&mut FaceTable>, ad: &[u8], buf: &mut [u8], decrypt: bool) -> Block {
        let gcm = any_as_dyn!(&self.aes, GcmEngine);
        // The FACE table of this message (bytes 0, 5, 10 of the counter never change with the
        // 32-bit counter).
        let ctr = Counter::Be32.advance(j0, 1);
        if let Some(t) = table.as_deref_mut() {
            engine(&self.aes).build_table(self.face, ctr, t);
        }
        // The AES-instruction backends: the whole message in one kernel, from the table
        // (`crypt` asked them already without one).
        if table.is_some()
            && let Some(tag) = gcm.message(self.face, table.as_deref(), &self.ghash, j0, ad, buf, decrypt)
        {
            return tag;
        }
        if ad.len() <= SHORT_AD {
            // Buffers sized to the message: zeroing the larger ones cost 16-byte messages 10%.
            if buf.len() <= 112 {
                return self.crypt_short::<8, { 8 + SHORT_AD / 16 }>(j0, ad, buf, decrypt);
            }
            if buf.len() <= 240 {
                return self.crypt_short::<16, { 16 + SHORT_AD / 16 }>(j0, ad, buf, decrypt);
            }
            if buf.len() <= SHORT_MESSAGE {
                return self.crypt_short::<32, { 32 + SHORT_AD / 16 }>(j0, ad, buf, decrypt);
            }
        }
        let (blocks, tail) = buf.as_chunks_mut::<16>();
        // E(J0), and the keystream of a partial last block, in one call (two blocks in flight).
        let tail_ctr = Counter::Be32.advance(j0, 1 + blocks.len() as u128);
        let mut pre = [j0.to_be_bytes(), tail_ctr.to_be_bytes()];
        self.aes.encrypt_blocks(&mut pre[..if tail.is_empty() { 1 } else { 2 }]);
        let mut g = GhashState { key: &self.ghash, acc: 0, decrypt };
        self.ghash.update(&mut g.acc, ad);
        let mut ctr = ctr;
        let mut done = 0;
        while done < blocks.len() {
            let n = (blocks.len() - done).min(usize::try_from(blocks_to_wrap(ctr)).unwrap_or(usize::MAX));
            xor_then_ghash(engine(&self.aes), self.face, table.as_deref_mut(), ctr, &mut blocks[done..done + n], &mut g);
            done += n;
            ctr = Counter::Be32.advance(ctr, n as u128);
        }
        // The partial last block (hashed as ciphertext: before decrypting, after encrypting)
        // and the lengths block, hashed in one call.
        let mut last = [[0u8; 16]; 2];
        let n_last = if tail.is_empty() { 0 } else { 1 };
        xor_keeping_ciphertext(tail, &pre[1], &mut last[0][..tail.len()], decrypt);
        last[n_last] = lengths_block(ad.len(), buf.len());
        self.ghash.update_blocks(&mut g.acc, &last[..n_last + 1]);
        let tag = masked_tag(g.acc, &pre[0]);
        crate::ct::wipe(pre.as_flattened_mut());
        crate::ct::wipe(last.as_flattened_mut());
        tag
    }

    /// A short message in two kernel calls rather than five: the keystream and the tag's mask
    /// E(J0) in one plain-CTR pass from J0 (at most 32 blocks, all in flight), then GHASH over
    /// AD, ciphertext and lengths laid out in one buffer (one aggregated reduction). Constant
    /// time as the long path is: the lengths, not the data, decide the layout. `KS` keystream
    /// blocks (E(J0) and up to `KS − 1` of message), `H` = `KS` + AD blocks.
    fn crypt_short<const KS: usize, const H: usize>(&self, j0: u128, ad: &[u8], buf: &mut [u8], decrypt: bool) -> Block {
        let n = buf.len().div_ceil(16);
        debug_assert!(n < KS && ad.len().div_ceil(16) + KS <= H);
        let mut ks = [[0u8; 16]; KS];
        xor_plain_cut(engine(&self.aes), Counter::Be32, j0, &mut ks[..1 + n]);
        // The hashed input: AD and ciphertext, each zero-padded to whole blocks, then lengths.
        let ad_blocks = ad.len().div_ceil(16);
        let mut hashed = [[0u8; 16]; H];
        hashed.as_flattened_mut()[..ad.len()].copy_from_slice(ad);
        let text = &mut hashed.as_flattened_mut()[16 * ad_blocks..16 * ad_blocks + buf.len()];
        xor_keeping_ciphertext(buf, ks[1..].as_flattened(), text, decrypt);
        hashed[ad_blocks + n] = lengths_block(ad.len(), buf.len());
        let mut acc = 0u128;
        self.ghash.update_blocks(&mut acc, &hashed[..ad_blocks + n + 1]);
        let tag = masked_tag(acc, &ks[0]);
        // (The rest of both buffers was never written.)
        crate::ct::wipe(ks[..1 + n].as_flattened_mut());
        crate::ct::wipe(hashed[..ad_blocks + n + 1].as_flattened_mut());
        tag
    }

    /// Encrypts `buf` in place and returns the tag (`tag_len` bytes of the returned block).
    pub fn encrypt_in_place_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Block, Error> {
        self.crypt(nonce, ad, buf, false)
    }

    /// Decrypts `buf` in place if `tag` (`tag_len` bytes) authenticates it; otherwise wipes it
    /// (the `aead` traits instead leave the ciphertext, as RustCrypto's `aes-gcm` does).
    pub fn decrypt_in_place_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        self.decrypt_or(nonce, ad, buf, tag, OnForgery::Wipe)
    }

    /// Decrypts and checks in one pass (the stitched loop hashes the ciphertext as it
    /// decrypts); a forgery's buffer is then wiped or re-encrypted to the ciphertext it held.
    /// Either way no unauthenticated plaintext is left in it.
    ///
    /// `#[inline]`: left to itself the compiler stopped inlining it into the `aead` traits'
    /// open when `GhashKey::powers_for` came in (2026-11-29), and a 16-byte open in a user's
    /// crate went from 67 to 106 TSC ticks on Zen 5 (the tag waited in memory between calls).
    #[inline]
    fn decrypt_or(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8], on_forgery: OnForgery) -> Result<(), Error> {
        if tag.len() != self.tag_len {
            return Err(Error::InvalidTagLength(tag.len()));
        }
        let expect = self.crypt(nonce, ad, buf, true)?;
        if constant_time_eq(&expect[..self.tag_len], tag) {
            return Ok(());
        }
        match on_forgery {
            OnForgery::Wipe => crate::ct::wipe(buf),
            // CTR is its own inverse: the same keystream again gives the ciphertext back.
            OnForgery::RestoreCiphertext => {
                self.crypt(nonce, ad, buf, false)?;
            }
        }
        Err(Error::AuthenticationFailed)
    }

    /// Ciphertext ‖ tag. ([`Gcm::encrypt_in_place_detached`] does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn seal(&self, nonce: &[u8], ad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(plaintext.len() + self.tag_len);
        out.extend_from_slice(plaintext);
        let tag = self.encrypt_in_place_detached(nonce, ad, &mut out)?;
        out.extend_from_slice(&tag[..self.tag_len]);
        Ok(out)
    }

    /// The plaintext of ciphertext ‖ tag, or an error (and nothing else).
    /// ([`Gcm::decrypt_in_place_detached`] does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn open(&self, nonce: &[u8], ad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
        let Some(body) = sealed.len().checked_sub(self.tag_len) else {
            return Err(Error::CiphertextTooShort { len: sealed.len(), tag: self.tag_len });
        };
        let mut out = sealed[..body].to_vec();
        self.decrypt_in_place_detached(nonce, ad, &mut out, &sealed[body..])?;
        Ok(out)
    }
}

/// GCM's lengths block: the AD's and the text's lengths in bits, big-endian.
fn lengths_block(ad_len: usize, text_len: usize) -> Block {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&(ad_len as u64 * 8).to_be_bytes());
    b[8..].copy_from_slice(&(text_len as u64 * 8).to_be_bytes());
    b
}

/// XORs `keystream` into `data` and copies the ciphertext side to `ciphertext` (GHASH's
/// input): the input when decrypting, the output when encrypting.
fn xor_keeping_ciphertext(data: &mut [u8], keystream: &[u8], ciphertext: &mut [u8], decrypt: bool) {
    if decrypt {
        ciphertext.copy_from_slice(data);
    }
    for (b, k) in data.iter_mut().zip(keystream) {
        *b ^= k;
    }
    if !decrypt {
        ciphertext.copy_from_slice(data);
    }
}

/// The tag: GHASH's result masked with E(J0).
fn masked_tag(acc: u128, ek_j0: &Block) -> Block {
    let mut tag = acc.to_be_bytes();
    for (t, e) in tag.iter_mut().zip(ek_j0) {
        *t ^= e;
    }
    tag
}

/// AES-GCM with a `K`-byte key, `N`-byte nonces (96 bits unless said; other lengths go
/// through GHASH as SP 800-38D says) and 16-byte tags: the RustCrypto `aead` 0.6 traits.
/// `new` uses the fastest constant-time backend, FACE rd2+ and the fastest GHASH.
#[derive(Clone, Debug)]
pub struct AesGcm<K: AesKeySize, N: ArraySize = U12> {
    inner: Gcm,
    _key: PhantomData<(K, N)>,
}

/// AES-128-GCM with 96-bit nonces and 16-byte tags (the `aead` traits).
pub type Aes128Gcm = AesGcm<cipher::consts::U16>;
/// AES-192-GCM with 96-bit nonces and 16-byte tags (the `aead` traits).
pub type Aes192Gcm = AesGcm<cipher::consts::U24>;
/// AES-256-GCM with 96-bit nonces and 16-byte tags (the `aead` traits).
pub type Aes256Gcm = AesGcm<cipher::consts::U32>;

impl<K: AesKeySize, N: ArraySize> AesGcm<K, N> {
    /// The `aead` types on a chosen backend, FACE level and GHASH (16-byte tags); an error when
    /// this CPU lacks them.
    pub fn with_options(key: &cipher::Key<Self>, backend: BackendKind, face: FaceLevel, ghash: GhashImpl) -> Result<Self, Error> {
        Ok(AesGcm { inner: Gcm::with_options(key, backend, face, ghash, 16)?, _key: PhantomData })
    }

    /// [`AesGcm::with_options`] on any backend, the variable-time `table` included.
    pub fn with_options_variable_time(key: &cipher::Key<Self>, backend: BackendKind, face: FaceLevel, ghash: GhashImpl) -> Result<Self, Error> {
        Ok(AesGcm { inner: Gcm::with_options_variable_time(key, backend, face, ghash, 16)?, _key: PhantomData })
    }

    /// The native-API cipher behind it.
    pub fn as_gcm(&self) -> &Gcm {
        &self.inner
    }
}

impl<K: AesKeySize, N: ArraySize> KeySizeUser for AesGcm<K, N> {
    type KeySize = K;
}

impl<K: AesKeySize, N: ArraySize> KeyInit for AesGcm<K, N> {
    #[inline]
    fn new(key: &cipher::Key<Self>) -> Self {
        // The key length is fixed by the type and the defaults are available by construction.
        // (Not through `Gcm::new`: unwrapping a `Result<Gcm, _>` moved the whole key once more.)
        let ghash = GhashImpl::fastest().check().expect("the fastest GHASH is available");
        let wrap = |aes, ghash| AesGcm { inner: Gcm { ghash, aes, face: FaceLevel::FASTEST, face_asked: false, tag_len: 16 }, _key: PhantomData };
        new_key(default_backend(), key, ghash, wrap, |wrap| {
            // `h` is `Some` whenever the schedule is asked for the zero block. The fallback is
            // never taken; it keeps the expression free of a panic, whose unwinding (dropping
            // `aes` on the way) made the compiler build the key object in a temporary and copy
            // it. (`new_default_wrapped`, not `scheduled`: its `Result` was one copy more.)
            let mut h = WipedBlock([0; 16]);
            AnyAes::new_default_wrapped(key, Some(&mut h.0), |aes, h| wrap(aes, GhashKey::new(h.unwrap_or(&[0; 16]), ghash)))
        })
    }
}

/// The key object that `wrap` builds from `key` scheduled on backend `kind` and a GHASH key on
/// `ghash`, made inside the call that returns it (so, written in place).
///
/// Where `kind` has a stitched ISA with `ghash` (the usual case: VAES with VPCLMULQDQ of the
/// same width, AES-NI with PCLMULQDQ, ARMv8 with PMULL) and the CPU has it, one kernel makes
/// both keys ([`key_setup::one_kernel`]). Otherwise `two_kernels` does, given `wrap` back:
/// the AES schedule with H = E_K(0^128) (see `Backend::schedule_encrypting_zero`), then the
/// powers of H from their own kernel (see `GhashKey::new`).
#[inline(always)]
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(unused_variables))] // No stitched ISA.
fn new_key<T, W: FnOnce(AnyAes, GhashKey) -> T>(
    kind: BackendKind,
    key: &[u8],
    ghash: Available,
    wrap: W,
    two_kernels: impl FnOnce(W) -> T,
) -> T {
    match kind {
        #[cfg(target_arch = "x86_64")]
        BackendKind::Aesni => key_setup::one_kernel::<crate::simd::x86::AesNi, T, W>(key, ghash, wrap, two_kernels),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Vaes256 => key_setup::one_kernel::<crate::simd::x86::VaesYmm, T, W>(key, ghash, wrap, two_kernels),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Vaes512 => key_setup::one_kernel::<crate::simd::x86::VaesZmm, T, W>(key, ghash, wrap, two_kernels),
        #[cfg(target_arch = "aarch64")]
        BackendKind::Armv8 => key_setup::one_kernel::<crate::simd::aarch64::NeonAes, T, W>(key, ghash, wrap, two_kernels),
        _ => two_kernels(wrap),
    }
}

crate::aead_glue::aead_in_out!([K: AesKeySize, N: ArraySize] AesGcm<K, N>, N);

/// What a failed open leaves in the buffer.
#[derive(Clone, Copy)]
enum OnForgery {
    Wipe,
    RestoreCiphertext,
}

impl<K: AesKeySize, N: ArraySize> DetachedAead for AesGcm<K, N> {
    fn seal_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Block, aead::Error> {
        self.inner.encrypt_in_place_detached(nonce, ad, buf).map_err(|_| aead::Error)
    }

    /// RustCrypto's behaviour: a forgery leaves the ciphertext in the buffer.
    fn open_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &Block) -> Result<(), aead::Error> {
        self.inner.decrypt_or(nonce, ad, buf, tag, OnForgery::RestoreCiphertext).map_err(|_| aead::Error)
    }
}

#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// A FACE message builds its table in the thread's scratch table and leaves its blocks
    /// wiped, whether the message was sealed, opened, or refused.
    #[test]
    fn the_scratch_table_is_wiped_after_every_message() {
        let key = [3u8; 32];
        let gcm = Gcm::with_options(&key, crate::aes::default_backend(), FaceLevel::Rd2p, GhashImpl::fastest(), 16).unwrap();
        let mut buf = std::vec![5u8; 64 * 1024];
        let is_empty = |t: &FaceTable| t.blocks.iter().all(|b| *b == [0; 16]);
        let tag = gcm.encrypt_in_place_detached(&[1; 12], b"ad", &mut buf).unwrap();
        assert!(SCRATCH_TABLE.with_borrow(is_empty), "after sealing");
        let sealed = buf.clone();
        gcm.decrypt_in_place_detached(&[1; 12], b"ad", &mut buf, &tag).unwrap();
        assert!(SCRATCH_TABLE.with_borrow(is_empty), "after opening");
        assert_eq!(buf, std::vec![5u8; 64 * 1024]);
        let (mut forged, mut bad) = (sealed, tag);
        bad[0] ^= 1;
        assert!(gcm.decrypt_in_place_detached(&[1; 12], b"ad", &mut forged, &bad).is_err());
        assert!(SCRATCH_TABLE.with_borrow(is_empty), "after a refused tag");
        // With the scratch table lent out, a message builds its table on the stack instead,
        // and seals the same.
        let mut again = std::vec![5u8; 64 * 1024];
        let tag_again = SCRATCH_TABLE.with_borrow_mut(|_| gcm.encrypt_in_place_detached(&[1; 12], b"ad", &mut again).unwrap());
        assert_eq!(tag_again, tag);
    }

    /// Keys are shared between threads, with zmm's upper powers made lazily inside them
    /// (`ghash/table.rs`): they stay `Send` and `Sync` (a build error otherwise).
    #[test]
    fn key_objects_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<Gcm>();
        shared::<Aes128Gcm>();
        shared::<Aes256Gcm>();
    }

    /// zmm's powers above H^16 are made by the first message that reads them, not by the key:
    /// around that boundary (the AD's blocks, the data's and the lengths block adding up to
    /// 16), messages seal and open as with portable GHASH on a new key, on a key whose upper
    /// powers an earlier message made, and on one whose upper powers another thread is making
    /// (in a private copy); and a message of at most 16 blocks leaves them unmade.
    #[test]
    fn upper_powers_are_made_by_the_first_message_that_reads_them() {
        if !(BackendKind::Vaes512.available() && GhashImpl::Vpclmul512.available()) {
            std::eprintln!("skipped: needs vaes512 ({}) and vpclmul512 ({})", BackendKind::Vaes512.requires(), GhashImpl::Vpclmul512.requires());
            return;
        }
        for key in [&[0x3cu8; 16][..], &[0xc3u8; 32][..]] {
            let with = |ghash| Gcm::with_options(key, BackendKind::Vaes512, FaceLevel::None, ghash, 16).unwrap();
            let reference = with(GhashImpl::Portable);
            let made = with(GhashImpl::Vpclmul512);
            made.seal(&[0; 12], &[], &[0; 1024]).unwrap();
            assert!(made.ghash.upper_powers_made());
            for ad_len in [0usize, 13, 16, 40, 300] {
                for len in [0usize, 1, 16, 200, 223, 224, 225, 239, 240, 241, 255, 256, 257, 511, 512, 1420] {
                    let ad: Vec<u8> = (0..ad_len).map(|i| i as u8).collect();
                    let msg: Vec<u8> = (0..len).map(|i| (i * 7 + ad_len) as u8).collect();
                    let nonce = [len as u8; 12];
                    let fresh = with(GhashImpl::Vpclmul512);
                    let claimed = fresh.clone();
                    claimed.ghash.pretend_upper_powers_claimed();
                    let expected = reference.seal(&nonce, &ad, &msg).unwrap();
                    let what = std::format!("AES-{} AD {ad_len} data {len}", key.len() * 8);
                    for (gcm, which) in [(&fresh, "new key"), (&made, "made"), (&claimed, "being made")] {
                        let sealed = gcm.seal(&nonce, &ad, &msg).unwrap();
                        assert!(sealed == expected, "{what}, {which}");
                        assert!(gcm.open(&nonce, &ad, &sealed).unwrap() == msg, "{what}, {which}");
                    }
                    let blocks = ad_len.div_ceil(16) + len.div_ceil(16) + 1;
                    assert_eq!(fresh.ghash.upper_powers_made(), blocks > 16, "{what}");
                }
            }
        }
    }

    /// The zmm loop's two ways of multiplying a group (`insn::GroupProduct`): a CPU runs one of
    /// them by default (Intel the schoolbook, others Karatsuba; each leaves its sums by lane
    /// with AES-128, and the schoolbook also with the others), and both must seal and open
    /// as GCM does without the stitched loop (the same backend beside portable GHASH), with
    /// every key length, plain and FACE, on lengths around a group (512 bytes), the loop's copy
    /// of the round keys (from 6 or 16 groups), FACE's threshold and the tails.
    #[test]
    fn both_stitched_products_match_the_unstitched_path() {
        if !(BackendKind::Vaes512.available() && GhashImpl::Vpclmul512.available()) {
            std::eprintln!("skipped: needs vaes512 ({}) and vpclmul512 ({})", BackendKind::Vaes512.requires(), GhashImpl::Vpclmul512.requires());
            return;
        }
        let lengths = [0, 15, 511, 512, 513, 1041, 1536, 3072, 8192, 8709, 16 * 1024 + 300, 21 * 1024 + 5, 70_000];
        for key_len in [16, 24, 32] {
            let key: Vec<u8> = (0..key_len).map(|i| (i as u8).wrapping_mul(37) ^ 0x5a).collect();
            for level in [FaceLevel::None, FaceLevel::Rd2p] {
                let reference = Gcm::with_options(&key, BackendKind::Vaes512, level, GhashImpl::Portable, 16).unwrap();
                for schoolbook in [false, true] {
                    let mut gcm = Gcm::with_options(&key, BackendKind::Vaes512, level, GhashImpl::Vpclmul512, 16).unwrap();
                    gcm.ghash.set_stitched_schoolbook(schoolbook);
                    for &len in &lengths {
                        let msg: Vec<u8> = (0..len).map(|i| (i * 131 + len) as u8).collect();
                        let ad: Vec<u8> = (0..len % 37).map(|i| i as u8).collect();
                        let mut nonce = [0xa5u8; 12];
                        nonce[..8].copy_from_slice(&(len as u64).to_le_bytes());
                        let what = std::format!("AES-{} {level} schoolbook {schoolbook} len {len}", key_len * 8);
                        let sealed = gcm.seal(&nonce, &ad, &msg).unwrap();
                        assert!(sealed == reference.seal(&nonce, &ad, &msg).unwrap(), "{what}");
                        assert!(gcm.open(&nonce, &ad, &sealed).unwrap() == msg, "{what}");
                        let mut forged = sealed.clone();
                        forged[len / 2] ^= 1;
                        assert!(gcm.open(&nonce, &ad, &forged).is_err(), "{what}");
                    }
                }
            }
        }
    }
}
