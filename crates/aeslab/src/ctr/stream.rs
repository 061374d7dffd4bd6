//! Byte-level CTR streams on top of the block-level FACE core: counter modes, partial blocks,
//! seeking, the RustCrypto `cipher` 0.5 stream traits, and a multi-threaded keystream.

use core::fmt;
use core::marker::PhantomData;

use cipher::consts::U16;
use cipher::inout::InOutBuf;
use cipher::{
    IvSizeUser, KeyIvInit, KeySizeUser, OverflowError, SeekNum, StreamCipher, StreamCipherError,
    StreamCipherSeek,
};
use zeroize::Zeroize;

use super::{FaceBackend, FaceCtr, FaceLevel};
use crate::aes::{AnyAes, BackendKind, BackendVisitor, default_backend, traits::AesKeySize};
use crate::gcm::GhashImpl;
use crate::gcm::stitch::GhashStitch;
use crate::{Block, Error};

/// How the counter block advances.
pub trait CounterMode: Clone + Send + Sync + 'static {
    /// `true`: only the low 32 bits count (and wrap); `false`: all 128 bits.
    const WRAP32: bool;
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
    const WRAP32: bool = false;
    const NAME: &'static str = "128";
}

impl CounterMode for Ctr32BE {
    const WRAP32: bool = true;
    const NAME: &'static str = "32";
}

/// The counter `n` blocks after `ctr`.
pub(crate) fn advance(ctr: u128, n: u128, wrap32: bool) -> u128 {
    if wrap32 {
        (ctr & !0xffff_ffff) | u128::from((ctr as u32).wrapping_add(n as u32))
    } else {
        ctr.wrapping_add(n)
    }
}

/// The FACE core behind a trait object, so the backend can be chosen at run time.
trait DynCore: Send + Sync {
    fn xor_blocks(&mut self, ctr: u128, data: &mut [Block], wrap32: bool);
    fn xor_ghash(&mut self, ctr: u128, data: &mut [Block], wrap32: bool, g: &mut GhashStitch);
    fn stitches(&self, imp: GhashImpl) -> bool;
    fn precompute(&mut self, ctr: u128);
    fn boxed_clone(&self) -> Box<dyn DynCore>;
    fn level(&self) -> FaceLevel;
}

impl<B: FaceBackend> DynCore for FaceCtr<B> {
    fn xor_blocks(&mut self, ctr: u128, data: &mut [Block], wrap32: bool) {
        FaceCtr::xor_blocks(self, ctr, data, wrap32);
    }
    fn xor_ghash(&mut self, ctr: u128, data: &mut [Block], wrap32: bool, g: &mut GhashStitch) {
        FaceCtr::xor_ghash(self, ctr, data, wrap32, g);
    }
    fn stitches(&self, imp: GhashImpl) -> bool {
        FaceCtr::stitches(self, imp)
    }
    fn precompute(&mut self, ctr: u128) {
        FaceCtr::precompute(self, ctr);
    }
    fn boxed_clone(&self) -> Box<dyn DynCore> {
        Box::new(self.clone())
    }
    fn level(&self) -> FaceLevel {
        FaceCtr::level(self)
    }
}

struct MakeCore(FaceLevel);

impl BackendVisitor for MakeCore {
    type Output = Box<dyn DynCore>;
    fn visit<B: FaceBackend>(self, backend: &B) -> Box<dyn DynCore> {
        Box::new(FaceCtr::new(backend.clone(), self.0))
    }
}

/// AES-CTR with a key of any AES length, a backend and FACE level chosen at run time, and
/// either counter mode. The typed [`AesCtr`] wraps it.
pub struct DynCtr {
    core: Box<dyn DynCore>,
    backend: BackendKind,
    iv: u128,
    wrap32: bool,
    /// Keystream bytes used so far.
    pos: u128,
}

impl Clone for DynCtr {
    fn clone(&self) -> Self {
        DynCtr { core: self.core.boxed_clone(), ..*self }
    }
}

impl fmt::Debug for DynCtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DynCtr({}, face {}, pos {}) {{ .. }}", self.backend, self.core.level(), self.pos)
    }
}

impl DynCtr {
    /// `key`: 16, 24 or 32 bytes; `iv`: the first counter block; `wrap32` selects [`Ctr32BE`].
    pub fn new(key: &[u8], iv: &[u8], backend: BackendKind, level: FaceLevel, wrap32: bool) -> Result<Self, Error> {
        let iv: [u8; 16] = iv.try_into().map_err(|_| Error::InvalidIvLength(iv.len()))?;
        let aes = AnyAes::new(backend, key)?;
        Ok(DynCtr { core: aes.visit(MakeCore(level)), backend, iv: u128::from_be_bytes(iv), wrap32, pos: 0 })
    }

    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    pub fn face_level(&self) -> FaceLevel {
        self.core.level()
    }

    /// Builds the FACE tables for the current position now rather than on first use.
    pub fn precompute(&mut self) {
        self.core.precompute(self.counter(self.pos / 16));
    }

    fn counter(&self, block: u128) -> u128 {
        advance(self.iv, block, self.wrap32)
    }

    /// Position in keystream bytes.
    pub fn position(&self) -> u128 {
        self.pos
    }

    /// Starts over from a new first counter block (keeping the key, backend and FACE level).
    pub fn restart(&mut self, iv: &[u8; 16]) {
        self.iv = u128::from_be_bytes(*iv);
        self.pos = 0;
    }

    /// Moves to keystream byte `pos`.
    pub fn seek_to(&mut self, pos: u128) {
        self.pos = pos;
    }

    /// XORs the keystream into `buf` and advances.
    pub fn apply_keystream(&mut self, buf: &mut [u8]) {
        let mut rest = buf;
        let offset = (self.pos % 16) as usize;
        if offset != 0 {
            // Finish the partly used block.
            let n = rest.len().min(16 - offset);
            let ks = self.keystream_block(self.pos / 16);
            for (b, k) in rest[..n].iter_mut().zip(&ks[offset..]) {
                *b ^= k;
            }
            self.pos += n as u128;
            rest = &mut rest[n..];
        }
        let (blocks, tail) = rest.as_chunks_mut::<16>();
        if !blocks.is_empty() {
            let ctr = self.counter(self.pos / 16);
            self.core.xor_blocks(ctr, blocks, self.wrap32);
            self.pos += 16 * blocks.len() as u128;
        }
        if !tail.is_empty() {
            let ks = self.keystream_block(self.pos / 16);
            for (b, k) in tail.iter_mut().zip(ks) {
                *b ^= k;
            }
            self.pos += tail.len() as u128;
        }
    }

    /// Whether [`DynCtr::apply_blocks_ghash`] runs GHASH `imp` inside the keystream loop.
    pub(crate) fn stitches(&self, imp: GhashImpl) -> bool {
        self.core.stitches(imp)
    }

    /// The keystream over whole blocks with GCM's GHASH of the ciphertext into `g`; the
    /// position must be on a block boundary.
    pub(crate) fn apply_blocks_ghash(&mut self, blocks: &mut [Block], g: &mut GhashStitch) {
        debug_assert!(self.pos.is_multiple_of(16));
        let ctr = self.counter(self.pos / 16);
        self.core.xor_ghash(ctr, blocks, self.wrap32, g);
        self.pos += 16 * blocks.len() as u128;
    }

    fn keystream_block(&mut self, block: u128) -> Block {
        let mut ks = [[0u8; 16]];
        let ctr = self.counter(block);
        self.core.xor_blocks(ctr, &mut ks, self.wrap32);
        ks[0]
    }

    /// [`DynCtr::apply_keystream`] on `threads` threads: the buffer is cut into contiguous
    /// pieces (on block boundaries); each spawned thread seeks a clone of this stream to its
    /// piece and the calling thread does the first piece itself.
    pub fn apply_keystream_threaded(&mut self, buf: &mut [u8], threads: usize) {
        // Spawning a thread costs tens of microseconds, which is what the fastest backends
        // need for a few hundred KiB: below this much per thread, one thread is faster.
        const MIN_PER_THREAD: usize = 512 * 1024;
        let threads = threads.clamp(1, (buf.len() / MIN_PER_THREAD).max(1));
        if threads == 1 {
            self.apply_keystream(buf);
            return;
        }
        let piece = buf.len().div_ceil(threads).div_ceil(16) * 16;
        let start = self.pos;
        let (first, rest) = buf.split_at_mut(piece.min(buf.len()));
        std::thread::scope(|scope| {
            let mut offset = first.len() as u128;
            for chunk in rest.chunks_mut(piece) {
                let mut part = self.clone();
                part.seek_to(start + offset);
                offset += chunk.len() as u128;
                scope.spawn(move || part.apply_keystream(chunk));
            }
            self.apply_keystream(first);
        });
        self.pos = start + buf.len() as u128;
    }
}

/// AES-CTR with a `K`-byte key and counter mode `M`: RustCrypto `KeyIvInit + StreamCipher +
/// StreamCipherSeek`. `new` uses the fastest constant-time backend at its fastest FACE level;
/// [`AesCtr::with_options`] picks both.
#[derive(Clone, Debug)]
pub struct AesCtr<K: AesKeySize, M: CounterMode> {
    inner: DynCtr,
    _marker: PhantomData<(K, M)>,
}

pub type Aes128Ctr = AesCtr<cipher::consts::U16, Ctr128BE>;
pub type Aes192Ctr = AesCtr<cipher::consts::U24, Ctr128BE>;
pub type Aes256Ctr = AesCtr<cipher::consts::U32, Ctr128BE>;
pub type Aes128Ctr32 = AesCtr<cipher::consts::U16, Ctr32BE>;
pub type Aes192Ctr32 = AesCtr<cipher::consts::U24, Ctr32BE>;
pub type Aes256Ctr32 = AesCtr<cipher::consts::U32, Ctr32BE>;

impl<K: AesKeySize, M: CounterMode> AesCtr<K, M> {
    /// With a chosen backend and FACE level; an error if this CPU lacks the backend.
    pub fn with_options(
        key: &cipher::Key<Self>,
        iv: &cipher::Iv<Self>,
        backend: BackendKind,
        level: FaceLevel,
    ) -> Result<Self, Error> {
        Ok(AesCtr { inner: DynCtr::new(key, iv, backend, level, M::WRAP32)?, _marker: PhantomData })
    }

    pub fn as_dyn(&self) -> &DynCtr {
        &self.inner
    }

    pub fn as_dyn_mut(&mut self) -> &mut DynCtr {
        &mut self.inner
    }

    /// [`StreamCipher::apply_keystream`] on `threads` threads (see [`DynCtr::apply_keystream_threaded`]).
    pub fn apply_keystream_threaded(&mut self, buf: &mut [u8], threads: usize) {
        self.inner.apply_keystream_threaded(buf, threads);
    }
}

impl<K: AesKeySize, M: CounterMode> KeySizeUser for AesCtr<K, M> {
    type KeySize = K;
}

impl<K: AesKeySize, M: CounterMode> IvSizeUser for AesCtr<K, M> {
    type IvSize = U16;
}

impl<K: AesKeySize, M: CounterMode> KeyIvInit for AesCtr<K, M> {
    fn new(key: &cipher::Key<Self>, iv: &cipher::Iv<Self>) -> Self {
        // The default backend is available by construction and the lengths are fixed by the
        // types, so this cannot fail.
        Self::with_options(key, iv, default_backend(), FaceLevel::FASTEST).expect("default backend")
    }
}

impl<K: AesKeySize, M: CounterMode> StreamCipher for AesCtr<K, M> {
    /// The counter wraps (2^128 blocks, or 2^32 for [`Ctr32BE`]), so any length is accepted.
    fn check_remaining(&self, _data_len: usize) -> Result<(), StreamCipherError> {
        Ok(())
    }

    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.inner.apply_keystream(buf.into_out_with_copied_in());
    }

    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        buf.zeroize();
        self.inner.apply_keystream(buf);
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
        self.inner.seek_to(bytes);
        Ok(())
    }
}
