//! AEZ v5 (Hoang, Krovetz, Rogaway): authenticated encryption by enciphering.
//!
//! Encrypt appends τ zero bytes to the message and enciphers the whole string with a
//! wide-block cipher tweaked by the nonce and associated data. Decrypt deciphers and checks
//! that those bytes are still zero. Any key length (Extract: BLAKE2b-384 unless the key is
//! already 48 bytes), nonces of any length, any number of AD strings, any τ.
//!
//! Every path is constant time: AES-NI, VAES and the bitsliced backends run the AES rounds;
//! the variable-time `table` backend is refused.
//!
//! `tweak.rs` is the tweakable block cipher E^{j,i}_K, `scheme.rs` AEZ-hash, -prf, -tiny and
//! -core over it, and `kernels.rs` AEZ-core's passes in registers and what each backend family
//! runs AEZ with.

#![deny(unsafe_code)]

mod kernels;
mod scheme;
mod tweak;

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};
use blake2::Digest;
use cipher::consts::{U16, U48};
use cipher::{KeyInit, KeySizeUser};
use zeroize::Zeroize;

use crate::aead_glue::DetachedAead;
use crate::aes::{BackendKind, default_backend};
use crate::ct::constant_time_is_zero;
use crate::{Block, Error};
use tweak::{Tweakable, to_block, to_u128};

/// Extract: a 48-byte key is used as it is; any other length is hashed with BLAKE2b to 48 bytes.
pub fn extract(key: &[u8]) -> [u8; 48] {
    if let Ok(k) = <[u8; 48]>::try_from(key) {
        return k;
    }
    let mut h = blake2::Blake2b::<U48>::new();
    h.update(key);
    h.finalize().into()
}

/// An AEZ key on one backend.
pub struct Aez {
    t: Tweakable,
}

impl Aez {
    /// AEZ with `key` (any length) on the fastest constant-time backend.
    pub fn new(key: &[u8]) -> Aez {
        Aez::with_backend(key, default_backend()).expect("the default backend is constant-time and available")
    }

    /// AEZ on a chosen backend; an error for a backend this CPU lacks or for `table`.
    pub fn with_backend(key: &[u8], kind: BackendKind) -> Result<Aez, Error> {
        let mut k = extract(key);
        let t = Tweakable::new(&k, kind);
        k.zeroize();
        Ok(Aez { t: t? })
    }

    /// The AES backend running its rounds.
    pub fn backend(&self) -> BackendKind {
        self.t.kind
    }

    /// The tweakable blockcipher E^{j,i}_K (j = −1 selects AES10).
    pub fn e(&self, j: i64, i: u64, x: &Block) -> Block {
        to_block(self.t.e(j, i, to_u128(x)))
    }

    /// AEZ-hash of the nonce and AD strings with a tag length of `tau_bits` bits.
    pub fn hash(&self, nonce: &[u8], ad: &[&[u8]], tau_bits: u32) -> Block {
        to_block(scheme::hash(&self.t, nonce, ad, tau_bits))
    }

    /// The largest authenticator, in bytes: the hash encodes τ in bits in 32 bits.
    pub const MAX_TAU: usize = (u32::MAX / 8) as usize;

    fn check_tau(tau: usize) -> Result<(), Error> {
        if tau > Self::MAX_TAU {
            return Err(Error::TauTooLarge { tau, max: Self::MAX_TAU });
        }
        Ok(())
    }

    /// AEZ-prf(Δ, τ): τ bytes; an error when τ exceeds [`Aez::MAX_TAU`].
    #[cfg(feature = "alloc")]
    pub fn prf(&self, delta: &Block, tau: usize) -> Result<Vec<u8>, Error> {
        // Before allocating: a τ past the limit may be past what can be allocated.
        Self::check_tau(tau)?;
        let mut out = vec![0u8; tau];
        self.prf_into(delta, &mut out)?;
        Ok(out)
    }

    /// AEZ-prf(Δ, τ) into `out`, τ = `out.len()`; an error when τ exceeds [`Aez::MAX_TAU`].
    pub fn prf_into(&self, delta: &Block, out: &mut [u8]) -> Result<(), Error> {
        Self::check_tau(out.len())?;
        scheme::prf(&self.t, to_u128(delta), out);
        Ok(())
    }

    /// Δ = AEZ-hash(τ, N, A); `tau` was checked against [`Aez::MAX_TAU`].
    fn delta(&self, nonce: &[u8], ad: &[&[u8]], tau: usize) -> u128 {
        // [τ]_128 of the specification is the tag length in bits; MAX_TAU keeps it in 32 bits.
        scheme::hash(&self.t, nonce, ad, (tau * 8) as u32)
    }

    /// Encrypts `msg` with a `tau`-byte authenticator: `|C| = |msg| + tau`; an error when τ
    /// exceeds [`Aez::MAX_TAU`]. ([`Aez::encrypt_in_place`] does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn encrypt(&self, nonce: &[u8], ad: &[&[u8]], tau: usize, msg: &[u8]) -> Result<Vec<u8>, Error> {
        Self::check_tau(tau)?;
        let mut out = vec![0u8; msg.len() + tau];
        out[..msg.len()].copy_from_slice(msg);
        self.encrypt_in_place(nonce, ad, tau, &mut out)?;
        Ok(out)
    }

    /// Encrypts in place: `buf` holds the message followed by `tau` bytes (overwritten). An
    /// error, with `buf` untouched, when τ is too large or `buf` is shorter than τ.
    pub fn encrypt_in_place(&self, nonce: &[u8], ad: &[&[u8]], tau: usize, buf: &mut [u8]) -> Result<(), Error> {
        Self::check_tau(tau)?;
        if buf.len() < tau {
            return Err(Error::CiphertextTooShort { len: buf.len(), tag: tau });
        }
        let delta = self.delta(nonce, ad, tau);
        if buf.len() == tau {
            // An empty message: the ciphertext is the PRF output.
            scheme::prf(&self.t, delta, buf);
        } else {
            let m = buf.len() - tau;
            buf[m..].fill(0);
            scheme::encipher(&self.t, delta, buf, false);
        }
        Ok(())
    }

    /// Decrypts and authenticates; on failure returns an error and releases nothing.
    /// ([`Aez::decrypt_in_place`] does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn decrypt(&self, nonce: &[u8], ad: &[&[u8]], tau: usize, ct: &[u8]) -> Result<Vec<u8>, Error> {
        let mut buf = ct.to_vec();
        let m = self.decrypt_in_place(nonce, ad, tau, &mut buf)?;
        buf.truncate(m);
        Ok(buf)
    }

    /// Decrypts in place and returns the message length; the message is `buf[..len]`. When
    /// authentication fails the whole buffer is wiped.
    pub fn decrypt_in_place(&self, nonce: &[u8], ad: &[&[u8]], tau: usize, buf: &mut [u8]) -> Result<usize, Error> {
        Self::check_tau(tau)?;
        if buf.len() < tau {
            return Err(Error::CiphertextTooShort { len: buf.len(), tag: tau });
        }
        let delta = self.delta(nonce, ad, tau);
        let m = buf.len() - tau;
        let ok = if m == 0 {
            // The ciphertext must be the PRF's output: XOR it in, then every byte must be zero.
            let mut expect = [0u8; 256];
            for (c, chunk) in buf.chunks_mut(expect.len()).enumerate() {
                let e = &mut expect[..chunk.len()];
                scheme::prf_at(&self.t, delta, c * 256, e);
                for (b, x) in chunk.iter_mut().zip(e.iter()) {
                    *b ^= x;
                }
            }
            crate::ct::wipe(&mut expect);
            constant_time_is_zero(buf)
        } else {
            scheme::encipher(&self.t, delta, buf, true);
            constant_time_is_zero(&buf[m..])
        };
        if ok {
            Ok(m)
        } else {
            buf.zeroize();
            Err(Error::AuthenticationFailed)
        }
    }
}

// RustCrypto `aead` 0.6: 16-byte nonce, 16-byte tag. AEZ's ciphertext is one enciphered
// string; the "tag" is its last 16 bytes, the rest replaces the message. The string is
// enciphered where it lies — message buffer and tag — without joining them on the heap.

impl KeySizeUser for Aez {
    type KeySize = U48;
}

impl KeyInit for Aez {
    fn new(key: &cipher::Key<Self>) -> Self {
        Aez::new(key)
    }

    /// Any key length: keys other than 48 bytes go through Extract (BLAKE2b).
    fn new_from_slice(key: &[u8]) -> Result<Self, cipher::InvalidLength> {
        Ok(Aez::new(key))
    }
}

crate::aead_glue::aead_in_out!([] Aez, U16);

impl DetachedAead for Aez {
    fn seal_detached(&self, nonce: &[u8], ad: &[u8], msg: &mut [u8]) -> Result<[u8; 16], aead::Error> {
        let delta = self.delta(nonce, &[ad], 16);
        let mut tag = [0u8; 16];
        if msg.is_empty() {
            scheme::prf(&self.t, delta, &mut tag);
        } else {
            scheme::encipher_split(&self.t, delta, msg, &mut tag, false);
        }
        Ok(tag)
    }

    fn open_detached(&self, nonce: &[u8], ad: &[u8], out: &mut [u8], tag: &[u8; 16]) -> Result<(), aead::Error> {
        let delta = self.delta(nonce, &[ad], 16);
        let mut check = *tag;
        let ok = if out.is_empty() {
            let mut expect = [0u8; 16];
            scheme::prf(&self.t, delta, &mut expect);
            for (c, e) in check.iter_mut().zip(expect) {
                *c ^= e;
            }
            crate::ct::wipe(&mut expect);
            constant_time_is_zero(&check)
        } else {
            scheme::encipher_split(&self.t, delta, out, &mut check, true);
            constant_time_is_zero(&check)
        };
        crate::ct::wipe(&mut check);
        if ok {
            Ok(())
        } else {
            crate::ct::wipe(out);
            Err(aead::Error)
        }
    }
}
