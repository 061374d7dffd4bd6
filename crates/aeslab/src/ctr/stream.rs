//! Byte-level CTR streams: a key object, a first counter block and a position. Partial blocks,
//! seeking, the RustCrypto `cipher` 0.5 stream traits, and a multi-threaded keystream.
//!
//! A stream cuts its data into pieces at every wrap of the low 32 bits of the counter; each
//! piece goes to the backend's engine in one call, and [`Counter`] says how the counter moves
//! on across a cut. With FACE the stream keeps the table it built (in a box, made once, when
//! FACE is first used) and reuses it while counter bytes 0, 5 and 10 stay the same. Without the
//! `alloc` feature no table is kept: a call long enough for one to pay builds it on the stack,
//! as GCM does per message, and shorter calls run plain CTR (the same keystream).

#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::boxed::Box;
#[cfg(feature = "std")]
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
#[cfg(feature = "std")]
use core::sync::atomic::{AtomicUsize, Ordering};

use cipher::consts::U16;
use cipher::inout::InOutBuf;
use cipher::{
    IvSizeUser, KeyIvInit, KeySizeUser, OverflowError, SeekNum, StreamCipher, StreamCipherError,
    StreamCipherSeek,
};

use super::{Counter, CtrEngine, FaceLevel, FaceTable, blocks_to_wrap, engine, face_min_call_blocks, face_pays_from_blocks, table_key};
use crate::aes::{Aes, AesKeySize, AnyAes, BackendKind};
use crate::{Block, Error};

/// How the counter block advances, as a type (the RustCrypto way); [`Counter`] is the same at
/// run time.
pub trait CounterMode: Clone + Send + Sync + 'static {
    /// The run-time [`Counter`] it stands for.
    const COUNTER: Counter;
    /// Its name in reports: the counter's width in bits.
    const NAME: &'static str;
}

/// The whole 16-byte block is one big-endian counter, wrapping from 2^128 − 1 to 0
/// (SP 800-38A; `openssl enc -aes-*-ctr`).
#[derive(Clone, Copy, Debug)]
pub struct Ctr128BE;

/// A 96-bit nonce and a 32-bit big-endian counter that wraps mod 2^32 (GCM, RFC 3686).
#[derive(Clone, Copy, Debug)]
pub struct Ctr32BE;

impl CounterMode for Ctr128BE {
    const COUNTER: Counter = Counter::Be128;
    const NAME: &'static str = "128";
}

impl CounterMode for Ctr32BE {
    const COUNTER: Counter = Counter::Be32;
    const NAME: &'static str = "32";
}

/// `data[i] ^= E(ctr_i)` over whole blocks from counter `ctr`, cut at every wrap of the low 32
/// bits; with FACE, `table` is (re)built when it does not hold the piece's table.
pub(crate) fn xor_keystream(aes: &AnyAes, counter: Counter, level: FaceLevel, table: &mut FaceTable, mut ctr: u128, data: &mut [Block]) {
    let engine = engine(aes);
    let mut done = 0;
    while done < data.len() {
        let n = (data.len() - done).min(usize::try_from(blocks_to_wrap(ctr)).unwrap_or(usize::MAX));
        let piece = &mut data[done..done + n];
        if level == FaceLevel::None {
            engine.xor_plain(ctr, piece);
        } else {
            if !table.holds(level, ctr) {
                engine.build_table(level, ctr, table);
                table.mark_built(level, ctr);
            }
            engine.xor_face(level, table, ctr, piece);
        }
        done += n;
        ctr = counter.advance(ctr, n as u128);
    }
}

/// Where a stream keeps FACE's table between calls: in a box where there is a heap, nowhere
/// without one (see the module docs).
#[cfg(feature = "alloc")]
type KeptTable = Option<Box<FaceTable>>;
#[cfg(not(feature = "alloc"))]
type KeptTable = ();

/// AES-CTR with a key of any AES length, a backend and FACE level chosen at run time, and
/// either counter: the stream behind the typed [`AesCtr`].
#[derive(Clone)]
pub struct DynCtr {
    key: AnyAes,
    counter: Counter,
    face: FaceLevel,
    iv: u128,
    /// Keystream bytes used so far.
    pos: u128,
    /// FACE's table, built once it pays (see [`face_pays_from_blocks`]) and kept while it
    /// stays valid.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    table: KeptTable,
    /// Blocks run plain CTR, with FACE asked for, since the table last served, and the
    /// counter bytes 0, 5, 10 they shared (a table is only good for one such triple): once
    /// they reach [`face_pays_from_blocks`] the table is built. Calls shorter than
    /// [`face_min_call_blocks`] do not count: they run plain even with a table.
    plain_run: ([u8; 3], u64),
}

impl fmt::Debug for DynCtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DynCtr({}, face {}, pos {}) {{ .. }}", self.key.kind(), self.face, self.pos)
    }
}

impl DynCtr {
    /// `key`: 16, 24 or 32 bytes; `iv`: the first counter block; `backend`: a constant-time
    /// one (the variable-time `table` is an error: see [`DynCtr::new_variable_time`]).
    #[inline]
    pub fn new(key: &[u8], iv: &[u8], backend: BackendKind, face: FaceLevel, counter: Counter) -> Result<Self, Error> {
        crate::aes::refuse_variable_time(backend, "AES-CTR", "DynCtr::new_variable_time")?;
        DynCtr::new_variable_time(key, iv, backend, face, counter)
    }

    /// [`DynCtr::new`] on any backend, the variable-time `table` included.
    #[inline]
    pub fn new_variable_time(key: &[u8], iv: &[u8], backend: BackendKind, face: FaceLevel, counter: Counter) -> Result<Self, Error> {
        // A reference, not a copy: the IV is read where the caller wrote it (`ct::be_words`).
        let iv: &[u8; 16] = iv.try_into().map_err(|_| Error::InvalidIvLength(iv.len()))?;
        Ok(DynCtr::from_key(AnyAes::new_variable_time(backend, key)?, iv, face, counter))
    }

    /// A stream on an already scheduled key.
    #[inline]
    pub fn from_key(key: AnyAes, iv: &[u8; 16], face: FaceLevel, counter: Counter) -> Self {
        DynCtr { key, counter, face, iv: crate::ct::be_u128(iv), pos: 0, table: KeptTable::default(), plain_run: ([0; 3], 0) }
    }

    /// The AES backend producing the keystream.
    pub fn backend(&self) -> BackendKind {
        self.key.kind()
    }

    /// The FACE level it was asked for (used once a table pays).
    pub fn face_level(&self) -> FaceLevel {
        self.face
    }

    /// How its counter block advances.
    pub fn counter(&self) -> Counter {
        self.counter
    }

    /// The counter block of keystream block `block`.
    fn counter_at(&self, block: u128) -> u128 {
        self.counter.advance(self.iv, block)
    }

    /// The table kept from earlier calls, if any.
    fn kept_table(&self) -> Option<&FaceTable> {
        #[cfg(feature = "alloc")]
        return self.table.as_deref();
        #[cfg(not(feature = "alloc"))]
        return None;
    }

    /// Builds the FACE table for the current position now, rather than once it pays. (Without
    /// the `alloc` feature streams keep no table, and this does nothing.)
    pub fn precompute(&mut self) {
        #[cfg(feature = "alloc")]
        if self.face != FaceLevel::None {
            let ctr = self.counter_at(self.pos / 16);
            let table = self.table.get_or_insert_with(Box::default);
            if !table.holds(self.face, ctr) {
                engine(&self.key).build_table(self.face, ctr, table);
                table.mark_built(self.face, ctr);
            }
        }
    }

    /// Whether the next block runs with FACE: the level is not `none` and the table is built
    /// for the counter there. (A stream builds it once it pays: see
    /// [`face_pays_from_blocks`](super::face_pays_from_blocks). Without `alloc`, always false:
    /// only a call long enough for a table builds one, for that call.)
    pub fn uses_face(&self) -> bool {
        let ctr = self.counter_at(self.pos / 16);
        self.face != FaceLevel::None && self.kept_table().is_some_and(|t| t.holds(self.face, ctr))
    }

    /// Position in keystream bytes.
    pub fn position(&self) -> u128 {
        self.pos
    }

    /// Starts over from a new first counter block (keeping the key, backend and FACE level).
    pub fn restart(&mut self, iv: &[u8; 16]) {
        self.iv = crate::ct::be_u128(iv);
        self.pos = 0;
    }

    /// Moves to keystream byte `pos`.
    pub fn seek_to(&mut self, pos: u128) {
        self.pos = pos;
    }

    /// The keystream over `data` from the start of keystream block `block` on (its last
    /// block may be partial). Plain CTR, the usual case for a message, is one call to the
    /// engine, tail included.
    #[inline]
    fn xor_bytes_at(&mut self, block: u128, data: &mut [u8]) {
        let ctr = self.counter_at(block);
        let n = data.len().div_ceil(16);
        // A call too short for FACE whose counter's low 32 bits do not wrap inside it (the
        // usual message) goes straight to the engine. The rest (FACE's bookkeeping, the cut at
        // a wrap) runs out of line, where its stack frame and registers are not paid here:
        // inline, they made a 16-byte call 17 ns instead of 12 (Zen 3).
        // (16 blocks, the least of `face_min_call_blocks`, first: a short message then reads
        // no backend's figure. In `bench ctr` on Zen 5 a 16-byte call with FACE asked for had
        // taken about a cycle more than with `none`; with this, the two read the same, 29.7–29.9
        // cycles, three runs.)
        let face = self.face != FaceLevel::None && n >= 16 && n >= face_min_call_blocks(self.key.kind(), self.key.rounds());
        if !face && n as u64 <= blocks_to_wrap(ctr) {
            super::xor_plain_bytes(&self.key, ctr, data);
        } else {
            self.xor_blocks_at(ctr, face, data);
        }
    }

    /// [`Self::xor_bytes_at`] from counter `ctr`, with FACE if `face` and it pays.
    #[inline(never)]
    fn xor_blocks_at(&mut self, ctr: u128, face: bool, data: &mut [u8]) {
        let n = data.len().div_ceil(16);
        if face && self.face_pays(ctr, n) {
            self.plain_run.1 = 0;
            #[cfg(feature = "alloc")]
            let table = self.table.get_or_insert_with(Box::default);
            // Nowhere to keep it: this call's table lives on the stack, wiped on drop.
            #[cfg(not(feature = "alloc"))]
            let table = &mut FaceTable::default();
            let (blocks, tail) = data.as_chunks_mut::<16>();
            xor_keystream(&self.key, self.counter, self.face, table, ctr, blocks);
            if !tail.is_empty() {
                let tail_ctr = self.counter.advance(ctr, blocks.len() as u128);
                xor_plain_cut_bytes(engine(&self.key), self.counter, tail_ctr, tail);
            }
        } else {
            // Plain CTR gives the same keystream without a table.
            xor_plain_cut_bytes(engine(&self.key), self.counter, ctr, data);
        }
    }

    /// Whether to run `n` blocks (at least [`face_min_call_blocks`]) from `ctr` with FACE:
    /// when the table is ready for them, or when the blocks run plain under the same counter
    /// bytes 0, 5, 10, these included, reach [`face_pays_from_blocks`]. (Short messages under
    /// fresh nonces never build a table.)
    /// Without `alloc`, when this call alone reaches it: a table is not kept across calls.
    fn face_pays(&mut self, ctr: u128, n: usize) -> bool {
        if cfg!(not(feature = "alloc")) {
            return n as u64 >= face_pays_from_blocks(self.key.kind()) as u64;
        }
        if self.kept_table().is_some_and(|t| t.holds(self.face, ctr)) {
            return true;
        }
        let key = table_key(ctr);
        if self.plain_run.0 != key {
            self.plain_run = (key, 0);
        }
        self.plain_run.1 = self.plain_run.1.saturating_add(n as u64);
        self.plain_run.1 >= face_pays_from_blocks(self.key.kind()) as u64
    }

    /// Index of the last keystream block this stream may use: its counter never wraps, so the
    /// space ends at counter 2^32 − 1 (32-bit counter) or 2^128 − 1 (128-bit). Past it the
    /// counter would come back to values it may already have used — keystream reuse.
    /// (OpenSSL's CTR wraps there instead; RustCrypto's `ctr` refuses, one block earlier.)
    fn last_block(&self) -> u128 {
        match self.counter {
            Counter::Be128 => u128::MAX - self.iv,
            Counter::Be32 => u128::from(u32::MAX - self.iv as u32),
        }
    }

    /// Keystream bytes left before the end of the counter space (`u128::MAX` when more than
    /// that).
    pub fn remaining(&self) -> u128 {
        self.last_block().checked_add(1).and_then(|blocks| blocks.checked_mul(16)).map_or(u128::MAX, |end| end.saturating_sub(self.pos))
    }

    /// `Ok` if `len` more keystream bytes lie inside the counter space; otherwise the error,
    /// and a call of that length would be refused.
    pub fn check_remaining(&self, len: usize) -> Result<(), Error> {
        if len == 0 {
            return Ok(());
        }
        match self.pos.checked_add(len as u128 - 1) {
            Some(last_byte) if last_byte / 16 <= self.last_block() => Ok(()),
            _ => Err(Error::CounterExhausted {
                counter_bits: match self.counter {
                    Counter::Be128 => 128,
                    Counter::Be32 => 32,
                },
                requested: len,
                remaining: self.remaining(),
            }),
        }
    }

    /// XORs the keystream into `buf` and advances; an error, with `buf` untouched, if that
    /// would run past the end of the counter space.
    pub fn try_apply_keystream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.check_remaining(buf.len())?;
        self.apply_unchecked(buf);
        Ok(())
    }

    /// XORs the keystream into `buf` and advances.
    ///
    /// # Panics
    /// If that would run past the end of the counter space, as RustCrypto's streams do (see
    /// [`DynCtr::try_apply_keystream`]).
    pub fn apply_keystream(&mut self, buf: &mut [u8]) {
        if let Err(e) = self.try_apply_keystream(buf) {
            panic!("aeslab CTR: {e}");
        }
    }

    /// [`DynCtr::apply_keystream`] without the check: the caller made it. Inline, with the
    /// rare start inside a used block out of line: as a call of its own, its frame (five
    /// registers saved and restored) was paid by every message (16-byte calls, Zen 5: about
    /// 0.7 TSC ticks of 16).
    #[inline]
    fn apply_unchecked(&mut self, buf: &mut [u8]) {
        let rest = if !self.pos.is_multiple_of(16) { self.finish_partial_block(buf) } else { buf };
        if !rest.is_empty() {
            self.xor_bytes_at(self.pos / 16, rest);
            self.pos += rest.len() as u128;
        }
    }

    /// XORs the bytes of `buf` that finish the partly used keystream block; returns the rest of
    /// `buf`.
    #[inline(never)]
    fn finish_partial_block<'a>(&mut self, buf: &'a mut [u8]) -> &'a mut [u8] {
        let offset = (self.pos % 16) as usize;
        let n = buf.len().min(16 - offset);
        if n == 0 {
            return buf;
        }
        let mut ks = [0u8; 16];
        self.xor_bytes_at(self.pos / 16, &mut ks);
        for (b, k) in buf[..n].iter_mut().zip(&ks[offset..]) {
            *b ^= k;
        }
        crate::ct::wipe(&mut ks);
        self.pos += n as u128;
        &mut buf[n..]
    }

    /// [`DynCtr::apply_keystream`] on up to `threads` threads of rayon's global pool (made once
    /// per process and kept, so a call costs a few microseconds of hand-off rather than a
    /// thread spawn each): the buffer is cut into pieces of 32 to 256 KiB, which the calling
    /// thread (from the front) and clones of this stream on pool threads (from the back) take
    /// one at a time, each seeking to its piece. Buffers shorter than 256 KiB per thread run on
    /// the calling thread alone. Needs the `std` feature.
    ///
    /// A pool thread that has gone to sleep (rayon's threads do within 20 µs without work)
    /// is slow to wake on a VM. On a 2-vCPU Emerald Rapids VM, after an idle spell, the
    /// helper's job began 65–100 µs after the call, as long as a 1 MiB call takes on one
    /// thread, and a 1 MiB call ran at 0.67–0.94× one thread's speed (1.30–1.71× at 4 MiB).
    /// Calls that follow each other closely find the pool awake (1.8–2.3× at 4 MiB there).
    ///
    /// # Panics
    /// As [`DynCtr::apply_keystream`], before any thread starts.
    #[cfg(feature = "std")]
    pub fn apply_keystream_threaded(&mut self, buf: &mut [u8], threads: usize) {
        if let Err(e) = self.check_remaining(buf.len()) {
            panic!("aeslab CTR: {e}");
        }
        // At least a piece each. Waking a thread that has gone to sleep takes tens of
        // microseconds on a VM: on Zen 3, 256 KiB on two threads (about 7 µs each on vaes256)
        // ran slower than on one while the calling thread slept at the end of every call
        // waiting for its helper. Since it spins there instead (`apply_on_pool`), 512 KiB on
        // two threads ran 1.17–1.76× faster than on one on Zen 5 (medians, 2026-11-26).
        const MIN_PER_THREAD: usize = POOL_PIECE;
        // A buffer too short to share runs here, without asking rayon's registry for the
        // pool's size or paying the parallel part's stack frame: about 20 cycles on a
        // 16-byte call.
        let threads = threads.clamp(1, (buf.len() / MIN_PER_THREAD).max(1));
        if threads == 1 {
            self.apply_unchecked(buf);
        } else {
            self.apply_on_pool(buf, threads);
        }
    }

    /// [`Self::apply_keystream_threaded`] on up to `threads ≥ 2` threads, the buffer checked.
    ///
    /// The buffer goes out in pieces ([`pool_piece`]), one at a time to whichever thread asks
    /// next: this one, and clones of this stream on pool threads. A pool thread that sleeps
    /// takes tens of microseconds to wake on a VM (on Zen 5, 40 µs or more: half of a 4 MiB
    /// call on one thread), and with the buffer cut in fixed halves the call waited
    /// for it. Now this thread works on until the pieces run out, and a late helper only takes
    /// what is left; then it spins while a helper is still on a piece, rather than sleep in the
    /// scope's wait and be woken as slowly itself. (`in_place_scope`: `scope` would move this
    /// call itself onto a pool thread and back, two hand-offs where one suffices.)
    #[cfg(feature = "std")]
    #[inline(never)]
    fn apply_on_pool(&mut self, buf: &mut [u8], threads: usize) {
        let threads = threads.min(rayon::current_num_threads());
        if threads == 1 {
            self.apply_unchecked(buf);
            return;
        }
        let start = self.pos;
        let len = buf.len() as u128;
        // The bytes not yet taken, and their keystream offset. The calling thread takes its
        // pieces from the front and the helpers theirs from the back, so that a buffer
        // processed again (in place, in a loop) is mostly in the same core's cache as last time.
        let pieces = std::sync::Mutex::new((buf, 0u128));
        let run = |stream: &mut Self, from_front: bool| loop {
            let taken = {
                // A panic elsewhere cannot leave the queue half-updated: take it anyway.
                let mut queue = pieces.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                take_piece(&mut queue, from_front, threads)
            };
            let Some((piece, offset)) = taken else { break };
            stream.seek_to(start + offset);
            stream.apply_unchecked(piece);
        };
        let helpers: Vec<Self> = (1..threads).map(|_| self.clone()).collect();
        // Helpers between the start and the end of their job.
        let working = AtomicUsize::new(0);
        rayon::in_place_scope(|scope| {
            for mut helper in helpers {
                let (run, working) = (&run, &working);
                scope.spawn(move |_| {
                    working.fetch_add(1, Ordering::Relaxed);
                    run(&mut helper, false);
                    // Its key wiped while the calling thread still spins.
                    drop(helper);
                    working.fetch_sub(1, Ordering::Release);
                });
            }
            // This stream takes pieces too, and keeps what it builds (FACE's table).
            run(self, true);
            // The scope's end waits for the helpers' jobs, and a thread that is not one of the
            // pool's (the usual caller) waits there asleep. When a helper was still on its last
            // piece, this thread's own wake-up made the call's median on two threads slower
            // than on one at 1 MiB (0.59–0.87×; 1.60–1.77× spinning) and 1.08–1.73× at 4 MiB
            // (1.72–1.88×) on Zen 5, 2026-11-26. So it spins while a helper works, for at most
            // `SPIN_LIMIT` rounds in case that helper was preempted. (A helper that has not
            // started, asleep in the pool, is waited for asleep: it may take tens of
            // microseconds to wake, and spinning would hold a core it may need.)
            let mut rounds = 0;
            while working.load(Ordering::Acquire) != 0 && rounds < SPIN_LIMIT {
                core::hint::spin_loop();
                rounds += 1;
            }
        });
        self.pos = start + len;
    }
}

/// Rounds of `spin_loop` a threaded call spends at most waiting for a helper still at work: a
/// millisecond or a few (PAUSE takes tens to about 150 cycles on current cores), many pieces'
/// time.
#[cfg(feature = "std")]
const SPIN_LIMIT: u32 = 1 << 16;

/// The largest piece of a threaded call a thread takes at a time: 256 KiB, tens of
/// microseconds of keystream, so a lock per piece costs nothing beside it.
#[cfg(feature = "std")]
const POOL_PIECE: usize = 256 * 1024;

/// The smallest piece (but the last): 32 KiB, a few microseconds, still far above a lock's
/// cost, and a whole number of FACE segments (256 blocks).
#[cfg(feature = "std")]
const POOL_PIECE_MIN: usize = 32 * 1024;

/// The piece the next thread takes when `rest` bytes are left: a share of what is left that
/// shrinks with it (guided scheduling), so that the threads finish within a small piece of each
/// other; with fixed 256 KiB pieces the last one could leave a thread idle for 10 µs.
#[cfg(feature = "std")]
fn pool_piece(rest: usize, threads: usize) -> usize {
    let share = (rest / (2 * threads)).next_multiple_of(POOL_PIECE_MIN);
    share.clamp(POOL_PIECE_MIN, POOL_PIECE).min(rest)
}

/// The next piece of a threaded call from `rest` (the bytes not yet taken, and their offset
/// in the call), from its front or its back, with the piece's offset; `None` once all are
/// taken.
#[cfg(feature = "std")]
fn take_piece<'a>(rest: &mut (&'a mut [u8], u128), from_front: bool, threads: usize) -> Option<(&'a mut [u8], u128)> {
    let (bytes, offset) = (core::mem::take(&mut rest.0), rest.1);
    if bytes.is_empty() {
        return None;
    }
    let take = pool_piece(bytes.len(), threads);
    if from_front {
        let (piece, bytes) = bytes.split_at_mut(take);
        *rest = (bytes, offset + take as u128);
        Some((piece, offset))
    } else {
        // The piece starts a whole number of smallest pieces into the rest, on a FACE
        // segment's start like the front's pieces.
        let keep = (bytes.len() - take) / POOL_PIECE_MIN * POOL_PIECE_MIN;
        let (bytes, piece) = bytes.split_at_mut(keep);
        *rest = (bytes, offset);
        Some((piece, offset + keep as u128))
    }
}

/// Plain CTR over `data` from `ctr`, cut at every wrap of the low 32 bits.
pub(crate) fn xor_plain_cut(engine: &dyn CtrEngine, counter: Counter, ctr: u128, data: &mut [Block]) {
    xor_plain_cut_bytes(engine, counter, ctr, data.as_flattened_mut());
}

/// [`xor_plain_cut`] on bytes (the last block may be partial).
pub(crate) fn xor_plain_cut_bytes(engine: &dyn CtrEngine, counter: Counter, mut ctr: u128, data: &mut [u8]) {
    let mut done = 0;
    while done < data.len() {
        // At most 2^32 blocks, 2^36 bytes: fits a u64.
        let n = (data.len() - done).min(usize::try_from(blocks_to_wrap(ctr) * 16).unwrap_or(usize::MAX));
        engine.xor_plain_bytes(ctr, &mut data[done..done + n]);
        done += n;
        ctr = counter.advance(ctr, n.div_ceil(16) as u128);
    }
}

/// AES-CTR with a `K`-byte key and counter mode `M`: RustCrypto `KeyIvInit + StreamCipher +
/// StreamCipherSeek`. `new` uses the fastest constant-time backend at its fastest FACE level;
/// [`AesCtr::with_options`] picks both, and [`AesCtr::from_cipher`] takes an already expanded
/// [`Aes`] (what RustCrypto's `ctr` does through `InnerIvInit`).
#[derive(Clone, Debug)]
pub struct AesCtr<K: AesKeySize, M: CounterMode> {
    inner: DynCtr,
    _marker: PhantomData<(K, M)>,
}

/// AES-128-CTR, 128-bit big-endian counter.
pub type Aes128Ctr = AesCtr<cipher::consts::U16, Ctr128BE>;
/// AES-192-CTR, 128-bit big-endian counter.
pub type Aes192Ctr = AesCtr<cipher::consts::U24, Ctr128BE>;
/// AES-256-CTR, 128-bit big-endian counter.
pub type Aes256Ctr = AesCtr<cipher::consts::U32, Ctr128BE>;
/// AES-128-CTR, 96-bit nonce and 32-bit big-endian counter.
pub type Aes128Ctr32 = AesCtr<cipher::consts::U16, Ctr32BE>;
/// AES-192-CTR, 96-bit nonce and 32-bit big-endian counter.
pub type Aes192Ctr32 = AesCtr<cipher::consts::U24, Ctr32BE>;
/// AES-256-CTR, 96-bit nonce and 32-bit big-endian counter.
pub type Aes256Ctr32 = AesCtr<cipher::consts::U32, Ctr32BE>;

impl<K: AesKeySize, M: CounterMode> AesCtr<K, M> {
    /// With a chosen backend and FACE level; an error if this CPU lacks the backend.
    pub fn with_options(key: &cipher::Key<Self>, iv: &cipher::Iv<Self>, backend: BackendKind, face: FaceLevel) -> Result<Self, Error> {
        Ok(AesCtr { inner: DynCtr::new(key, iv, backend, face, M::COUNTER)?, _marker: PhantomData })
    }

    /// A stream on an already expanded key (as RustCrypto's `ctr` does through `InnerIvInit`),
    /// at the fastest FACE level.
    pub fn from_cipher(cipher: Aes<K>, iv: &cipher::Iv<Self>) -> Self {
        Self::on_key(cipher.into_any(), iv.as_ref())
    }

    /// The stream `new` and `from_cipher` make: `aes` at the fastest FACE level. Inlined, so
    /// that `new`'s stream is built where the scheduling call returns it.
    #[inline(always)]
    fn on_key(aes: AnyAes, iv: &[u8; 16]) -> Self {
        AesCtr { inner: DynCtr::from_key(aes, iv, FaceLevel::FASTEST, M::COUNTER), _marker: PhantomData }
    }

    /// The stream behind it, with its run-time choices.
    pub fn as_dyn(&self) -> &DynCtr {
        &self.inner
    }

    /// The stream behind it, mutably (to seek, restart or precompute).
    pub fn as_dyn_mut(&mut self) -> &mut DynCtr {
        &mut self.inner
    }

    /// [`StreamCipher::apply_keystream`] on `threads` threads (see [`DynCtr::apply_keystream_threaded`]).
    ///
    /// # Panics
    /// As [`DynCtr::apply_keystream`], before any thread starts.
    #[cfg(feature = "std")]
    pub fn apply_keystream_threaded(&mut self, buf: &mut [u8], threads: usize) {
        self.inner.apply_keystream_threaded(buf, threads);
    }
}

impl<K: AesKeySize, M: CounterMode> IvSizeUser for AesCtr<K, M> {
    type IvSize = U16;
}

impl<K: AesKeySize, M: CounterMode> KeySizeUser for AesCtr<K, M> {
    type KeySize = K;
}

/// Implemented directly rather than through `InnerIvInit` (whose blanket `KeyIvInit` schedules
/// an [`Aes`] and then moves it into the stream): the key object is built inside the
/// scheduling call, where the stream is returned. The move was a 264-byte `memcpy` between
/// the schedule and the first block, its 32-byte loads waiting on the schedule's 16-byte
/// stores.
impl<K: AesKeySize, M: CounterMode> KeyIvInit for AesCtr<K, M> {
    #[inline]
    fn new(key: &cipher::Key<Self>, iv: &cipher::Iv<Self>) -> Self {
        // The IV is read where the caller wrote it, word by word (`ct::be_words`), not copied
        // whole first.
        let iv: &[u8; 16] = iv.as_ref();
        AnyAes::new_default_wrapped(key, None, |aes, _| Self::on_key(aes, iv))
    }
}

impl<K: AesKeySize, M: CounterMode> StreamCipher for AesCtr<K, M> {
    /// Refuses a call that would run past the end of the counter space (counter 2^128 − 1, or
    /// 2^32 − 1 for [`Ctr32BE`]): the counter never wraps, so keystream is never repeated. The
    /// trait's `apply_keystream` then panics, as RustCrypto's `ctr` does.
    fn check_remaining(&self, data_len: usize) -> Result<(), StreamCipherError> {
        self.inner.check_remaining(data_len).map_err(|_| StreamCipherError)
    }

    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.inner.apply_unchecked(buf.into_out_with_copied_in());
    }

    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.fill(0);
        self.inner.apply_unchecked(buf);
    }
}

impl<K: AesKeySize, M: CounterMode> StreamCipherSeek for AesCtr<K, M> {
    fn try_current_pos<T: SeekNum>(&self) -> Result<T, OverflowError> {
        let pos = self.inner.position();
        // `SeekNum` speaks in (blocks started, bytes of the last one used ∈ 1..=16).
        let (block, byte) = if pos.is_multiple_of(16) { (pos / 16, 16) } else { (pos / 16 + 1, (pos % 16) as u8) };
        T::from_block_byte(block, byte, 16)
    }

    fn try_seek<T: SeekNum>(&mut self, pos: T) -> Result<(), StreamCipherError> {
        let (block, byte): (u128, u8) = pos.into_block_byte(16).map_err(|_| StreamCipherError)?;
        let bytes = block.checked_mul(16).and_then(|b| b.checked_add(u128::from(byte))).ok_or(StreamCipherError)?;
        // Up to the end of the counter space, not past it.
        let end = self.inner.last_block().checked_add(1).and_then(|blocks| blocks.checked_mul(16));
        if end.is_some_and(|end| bytes > end) {
            return Err(StreamCipherError);
        }
        self.inner.seek_to(bytes);
        Ok(())
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::{POOL_PIECE, POOL_PIECE_MIN, take_piece};
    use alloc::vec;

    /// Taken from both ends in any order, the pieces cover the buffer once each, each starting
    /// on a FACE segment's boundary; none longer than 256 KiB but the one with the buffer's
    /// odd end (less than 32 KiB more), and none shorter than 32 KiB but where the ends meet.
    #[test]
    fn pieces_from_both_ends_tile_the_buffer() {
        for len in [1usize, 4095, POOL_PIECE_MIN + 1, 1 << 20, (4 << 20) + 37] {
            for pattern in [0b0u32, 0b1, 0b01, 0b0011, 0b0110_1101] {
                let mut buf = vec![0u8; len];
                let base = buf.as_ptr() as usize;
                let mut rest = (buf.as_mut_slice(), 0u128);
                let mut pieces = vec![];
                for turn in 0.. {
                    let Some((piece, offset)) = take_piece(&mut rest, pattern >> (turn % 8) & 1 == 0, 2) else { break };
                    assert_eq!(piece.as_ptr() as usize - base, offset as usize, "the offset is where the piece is");
                    pieces.push((offset as usize, piece.len(), turn));
                }
                let last_taken = pieces.len() - 1;
                pieces.sort();
                let mut next = 0;
                for &(offset, piece, turn) in &pieces {
                    assert_eq!(offset, next, "{len} {pattern:b}: a gap or an overlap");
                    assert!(piece > 0 && piece < POOL_PIECE + POOL_PIECE_MIN, "{len} {pattern:b}: piece {piece} long");
                    assert!(piece >= POOL_PIECE_MIN || turn == last_taken, "{len} {pattern:b}: piece {piece} short");
                    assert_eq!(offset % 4096, 0);
                    next += piece;
                }
                assert_eq!(next, len);
            }
        }
    }
}
