//! AES-GCM (SP 800-38D) on FACE-CTR.
//!
//! The keystream is aeslab's CTR with the 32-bit counter (`Ctr32BE`) on any AES backend and
//! FACE level; with a 96-bit nonce the counter block is `nonce ‖ 1` and the FACE table is built
//! once per message for the 256-block segments the message spans. GHASH runs with carry-less
//! multiplies where the CPU has them — one aggregated-reduction body (`clmul.rs`) over
//! PCLMULQDQ/VPCLMULQDQ on xmm, ymm, zmm (`pclmul.rs`) or ARMv8 PMULL (`pmull.rs`) — else in
//! portable constant-time code (`ghash.rs`). On the AES-instruction backends the GHASH of one
//! group of blocks runs in the same loop body as the AES rounds of the next (`stitch.rs`, when
//! the GHASH has the backend's register width); otherwise the two alternate per 4 KiB chunk,
//! which stays in L1 between the CTR pass and the GHASH pass.
//!
//! [`Gcm`] takes keys of 16, 24 or 32 bytes, nonces of any non-zero length (other than 12
//! bytes through GHASH), tags of 12 to 16 bytes. [`Aes128Gcm`], [`Aes192Gcm`] and
//! [`Aes256Gcm`] are the RustCrypto `aead` 0.6 types (96-bit nonce, 16-byte tag). Opening a
//! forgery returns an error and wipes the buffer.

mod clmul;
mod ghash;
#[cfg(target_arch = "x86_64")]
mod pclmul;
#[cfg(target_arch = "aarch64")]
mod pmull;
pub(crate) mod stitch;

/// This architecture's carry-less GHASH: `available(imp)` and `update(imp, …)`.
#[cfg(target_arch = "x86_64")]
use pclmul as carryless;
#[cfg(target_arch = "aarch64")]
use pmull as carryless;

use core::marker::PhantomData;

use aead::{AeadCore, AeadInOut, TagPosition};
use cipher::consts::{U12, U16};
use cipher::inout::InOutBuf;
use cipher::{KeyInit, KeySizeUser};
use zeroize::Zeroize;

use crate::aes::traits::AesKeySize;
use crate::aes::{BackendKind, default_backend};
use crate::ct::constant_time_eq;
use crate::ctr::{DynCtr, FaceLevel};
use crate::{Block, Error};
use stitch::GhashStitch;

/// Bytes per CTR-then-GHASH step when the two are not stitched: small enough to stay in L1.
const CHUNK: usize = 4096;

/// Plaintext limit of SP 800-38D: 2^39 − 256 bits.
pub const MAX_MESSAGE: u64 = (1 << 36) - 32;

/// How GHASH multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GhashImpl {
    /// Portable, constant time (integer multiplications on thinned operands).
    Portable,
    /// PCLMULQDQ on xmm registers, 8 blocks aggregated.
    Pclmul,
    /// VPCLMULQDQ on ymm registers, 16 blocks aggregated.
    Vpclmul256,
    /// VPCLMULQDQ on zmm registers, 32 blocks aggregated.
    Vpclmul512,
    /// ARMv8 PMULL on NEON registers, 8 blocks aggregated.
    Pmull,
}

impl GhashImpl {
    pub const ALL: [GhashImpl; 5] =
        [GhashImpl::Portable, GhashImpl::Pclmul, GhashImpl::Vpclmul256, GhashImpl::Vpclmul512, GhashImpl::Pmull];

    pub fn name(self) -> &'static str {
        match self {
            GhashImpl::Portable => "portable",
            GhashImpl::Pclmul => "pclmul",
            GhashImpl::Vpclmul256 => "vpclmul256",
            GhashImpl::Vpclmul512 => "vpclmul512",
            GhashImpl::Pmull => "pmull",
        }
    }

    /// The CPU features it needs.
    pub fn requires(self) -> &'static str {
        match self {
            GhashImpl::Portable => "",
            GhashImpl::Pclmul => "pclmulqdq, ssse3",
            GhashImpl::Vpclmul256 => "vpclmulqdq, avx2",
            GhashImpl::Vpclmul512 => "vpclmulqdq, avx512f, avx512bw",
            GhashImpl::Pmull => "aarch64 pmull",
        }
    }

    /// Whether this CPU can run it.
    pub fn available(self) -> bool {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            self == GhashImpl::Portable || carryless::available(self)
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            self == GhashImpl::Portable
        }
    }

    /// The fastest this CPU has.
    pub fn fastest() -> GhashImpl {
        [GhashImpl::Pmull, GhashImpl::Vpclmul512, GhashImpl::Vpclmul256, GhashImpl::Pclmul]
            .into_iter()
            .find(|g| g.available())
            .unwrap_or(GhashImpl::Portable)
    }
}

/// `p·x^-1` in GCM's field, on the spec's integers (bit 127 is the coefficient of x^0): a
/// shift by one toward x^0, and when `p` had an x^0 term, `(p + g)/x` instead, whose
/// coefficients x^127, x^6, x, 1 are the constant. The carry-less code stores its powers of H
/// this way (see `clmul.rs`). Branch-free: the mask comes from the bit itself.
fn times_inverse_x(p: u128) -> u128 {
    let carry = (p >> 127).wrapping_neg();
    (p << 1) ^ (carry & 0xc200_0000_0000_0000_0000_0000_0000_0001)
}

/// The GHASH key: H and, for the carry-less backends, H^32 … H^1 (each times x^-1) ready to
/// load.
#[derive(Clone)]
pub(crate) struct GhashKey {
    h: u128,
    powers: Vec<Block>,
    imp: GhashImpl,
}

impl Drop for GhashKey {
    fn drop(&mut self) {
        self.h.zeroize();
        self.powers.zeroize();
    }
}

impl GhashKey {
    fn new(h: Block, imp: GhashImpl) -> GhashKey {
        let h = u128::from_be_bytes(h);
        let mut powers = Vec::new();
        if imp != GhashImpl::Portable {
            let mut p = h;
            for _ in 0..32 {
                powers.push(times_inverse_x(p).to_le_bytes());
                p = ghash::mul(p, h);
            }
            powers.reverse();
        }
        GhashKey { h, powers, imp }
    }

    /// `acc` absorbs whole blocks.
    fn update_blocks(&self, acc: &mut u128, blocks: &[Block]) {
        self.update(acc, blocks.as_flattened());
    }

    /// `acc` absorbs `data`, zero-padded to whole blocks.
    fn update(&self, acc: &mut u128, data: &[u8]) {
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if self.imp != GhashImpl::Portable {
            let (blocks, tail) = data.as_chunks::<16>();
            let mut a = acc.to_le_bytes();
            // SAFETY: a `GhashKey` with a carry-less implementation is built only after
            // `available()` confirmed the CPU has it (`Gcm::with_options`).
            unsafe { carryless::update(self.imp, &self.powers, &mut a, blocks) };
            if !tail.is_empty() {
                let mut last: Block = [0; 16];
                last[..tail.len()].copy_from_slice(tail);
                // SAFETY: as above.
                unsafe { carryless::update(self.imp, &self.powers, &mut a, &[last]) };
            }
            *acc = u128::from_le_bytes(a);
            return;
        }
        ghash::update_portable(self.h, acc, data);
    }
}

/// AES-GCM with a key of any AES length, chosen backend, FACE level and GHASH, and a tag of
/// `tag_len` bytes.
#[derive(Clone)]
pub struct Gcm {
    ctr: DynCtr,
    ghash: GhashKey,
    tag_len: usize,
}

impl core::fmt::Debug for Gcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gcm({}, face {}, ghash {}, tag {}) {{ .. }}", self.ctr.backend(), self.ctr.face_level(), self.ghash.imp.name(), self.tag_len)
    }
}

impl Gcm {
    /// The fastest constant-time backend, FACE rd2+, the fastest GHASH, 16-byte tags.
    pub fn new(key: &[u8]) -> Result<Gcm, Error> {
        Gcm::with_options(key, default_backend(), FaceLevel::FASTEST, GhashImpl::fastest(), 16)
    }

    /// With every choice explicit; an error for a bad key length, a tag length outside 12..=16,
    /// or a backend or GHASH this CPU lacks.
    pub fn with_options(key: &[u8], backend: BackendKind, level: FaceLevel, ghash: GhashImpl, tag_len: usize) -> Result<Gcm, Error> {
        if !(12..=16).contains(&tag_len) {
            return Err(Error::InvalidTagLength(tag_len));
        }
        if !ghash.available() {
            return Err(Error::BackendUnavailable { backend: ghash.name(), requires: ghash.requires() });
        }
        let mut ctr = DynCtr::new(key, &[0; 16], backend, level, true)?;
        // H = E_K(0^128): the keystream of the all-zero counter block.
        let mut h = [0u8; 16];
        ctr.apply_keystream(&mut h);
        let ghash = GhashKey::new(h, ghash);
        h.zeroize();
        Ok(Gcm { ctr, ghash, tag_len })
    }

    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    pub fn backend(&self) -> BackendKind {
        self.ctr.backend()
    }

    pub fn ghash_impl(&self) -> GhashImpl {
        self.ghash.imp
    }

    /// J0, and the stream positioned at inc32(J0) with E_K(J0) returned.
    fn start(&mut self, nonce: &[u8]) -> Result<Block, Error> {
        let j0 = match nonce.len() {
            0 => return Err(Error::InvalidNonceLength(0)),
            12 => {
                let mut j = [0u8; 16];
                j[..12].copy_from_slice(nonce);
                j[15] = 1;
                j
            }
            n => {
                let mut acc = 0u128;
                self.ghash.update(&mut acc, nonce);
                let mut lengths = [0u8; 16];
                lengths[8..].copy_from_slice(&(n as u64 * 8).to_be_bytes());
                self.ghash.update(&mut acc, &lengths);
                acc.to_be_bytes()
            }
        };
        self.ctr.restart(&j0);
        let mut ek_j0 = [0u8; 16];
        self.ctr.apply_keystream(&mut ek_j0);
        Ok(ek_j0)
    }

    fn tag(&self, ek_j0: &Block, mut acc: u128, ad_len: usize, msg_len: usize) -> Block {
        let mut lengths = [0u8; 16];
        lengths[..8].copy_from_slice(&(ad_len as u64 * 8).to_be_bytes());
        lengths[8..].copy_from_slice(&(msg_len as u64 * 8).to_be_bytes());
        self.ghash.update(&mut acc, &lengths);
        let mut tag = acc.to_be_bytes();
        for (t, e) in tag.iter_mut().zip(ek_j0) {
            *t ^= e;
        }
        tag
    }

    fn check_lengths(msg_len: usize) -> Result<(), Error> {
        if msg_len as u64 > MAX_MESSAGE {
            return Err(Error::MessageTooLong { len: msg_len as u64, max: MAX_MESSAGE });
        }
        Ok(())
    }

    /// The keystream over `buf` and GHASH of its ciphertext after `acc`. Whole blocks go
    /// through the stitched loop when the backend has one for this GHASH, otherwise CTR and
    /// GHASH alternate per `CHUNK`; the partial last block follows.
    fn crypt(&mut self, acc: u128, buf: &mut [u8], decrypt: bool) -> u128 {
        let (blocks, tail) = buf.as_chunks_mut::<16>();
        let mut g = GhashStitch { key: &self.ghash, acc, decrypt };
        let step = if self.ctr.stitches(self.ghash.imp) { blocks.len().max(1) } else { CHUNK / 16 };
        for chunk in blocks.chunks_mut(step) {
            self.ctr.apply_blocks_ghash(chunk, &mut g);
        }
        let mut acc = g.acc;
        if !tail.is_empty() {
            if decrypt {
                self.ghash.update(&mut acc, tail);
            }
            self.ctr.apply_keystream(tail);
            if !decrypt {
                self.ghash.update(&mut acc, tail);
            }
        }
        acc
    }

    /// Encrypts `buf` in place and returns the tag (`tag_len` bytes of the returned block).
    pub fn encrypt_in_place_detached(&mut self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Block, Error> {
        Self::check_lengths(buf.len())?;
        let ek_j0 = self.start(nonce)?;
        let mut acc = 0u128;
        self.ghash.update(&mut acc, ad);
        let acc = self.crypt(acc, buf, false);
        Ok(self.tag(&ek_j0, acc, ad.len(), buf.len()))
    }

    /// Decrypts `buf` in place if `tag` (`tag_len` bytes) authenticates it; otherwise wipes it.
    pub fn decrypt_in_place_detached(&mut self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8]) -> Result<(), Error> {
        Self::check_lengths(buf.len())?;
        if tag.len() != self.tag_len {
            return Err(Error::InvalidTagLength(tag.len()));
        }
        let ek_j0 = self.start(nonce)?;
        let mut acc = 0u128;
        self.ghash.update(&mut acc, ad);
        let acc = self.crypt(acc, buf, true);
        let expect = self.tag(&ek_j0, acc, ad.len(), buf.len());
        if constant_time_eq(&expect[..self.tag_len], tag) {
            Ok(())
        } else {
            buf.zeroize();
            Err(Error::AuthenticationFailed)
        }
    }

    /// Ciphertext ‖ tag.
    pub fn seal(&mut self, nonce: &[u8], ad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = plaintext.to_vec();
        let tag = self.encrypt_in_place_detached(nonce, ad, &mut out)?;
        out.extend_from_slice(&tag[..self.tag_len]);
        Ok(out)
    }

    /// The plaintext of ciphertext ‖ tag, or an error (and nothing else).
    pub fn open(&mut self, nonce: &[u8], ad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
        let Some(body) = sealed.len().checked_sub(self.tag_len) else {
            return Err(Error::CiphertextTooShort { len: sealed.len(), tag: self.tag_len });
        };
        let mut out = sealed[..body].to_vec();
        self.decrypt_in_place_detached(nonce, ad, &mut out, &sealed[body..])?;
        Ok(out)
    }
}

/// AES-GCM with a `K`-byte key, 96-bit nonces and 16-byte tags: the RustCrypto `aead` 0.6
/// traits. `new` uses the fastest constant-time backend, FACE rd2+ and the fastest GHASH.
#[derive(Clone, Debug)]
pub struct AesGcm<K: AesKeySize> {
    inner: Gcm,
    _key: PhantomData<K>,
}

pub type Aes128Gcm = AesGcm<cipher::consts::U16>;
pub type Aes192Gcm = AesGcm<cipher::consts::U24>;
pub type Aes256Gcm = AesGcm<cipher::consts::U32>;

impl<K: AesKeySize> AesGcm<K> {
    pub fn as_gcm(&self) -> &Gcm {
        &self.inner
    }
}

impl<K: AesKeySize> KeySizeUser for AesGcm<K> {
    type KeySize = K;
}

impl<K: AesKeySize> KeyInit for AesGcm<K> {
    fn new(key: &cipher::Key<Self>) -> Self {
        // The key length is fixed by the type and the defaults are available by construction.
        AesGcm { inner: Gcm::new(key).expect("valid key length, available defaults"), _key: PhantomData }
    }
}

impl<K: AesKeySize> AeadCore for AesGcm<K> {
    type NonceSize = U12;
    type TagSize = U16;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<K: AesKeySize> AeadInOut for AesGcm<K> {
    fn encrypt_inout_detached(
        &self,
        nonce: &aead::Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<aead::Tag<Self>> {
        // The stream's position is per message: work on a clone (a few hundred bytes).
        let mut gcm = self.inner.clone();
        let tag = gcm.encrypt_in_place_detached(nonce, associated_data, buffer.into_out_with_copied_in()).map_err(|_| aead::Error)?;
        Ok(tag.into())
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &aead::Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &aead::Tag<Self>,
    ) -> aead::Result<()> {
        let mut gcm = self.inner.clone();
        gcm.decrypt_in_place_detached(nonce, associated_data, buffer.into_out_with_copied_in(), tag).map_err(|_| aead::Error)
    }
}
