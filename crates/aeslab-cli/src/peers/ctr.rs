//! The AES-CTR peers, measured in the same process as aeslab.
//!
//! Each is a streaming context set up once: every call encrypts the next `n` bytes in place,
//! as aeslab's does. (aws-lc-rs exposes in-place CTR only per message, so each of its calls
//! starts a message; its label says so.) The "per message" rows are what a user's crate does
//! for each message under a fresh IV: `KeyIvInit::new(key, iv)` then `apply_keystream`, key
//! set-up included, through the RustCrypto `cipher` 0.5 traits — aeslab's `AesCtr` and
//! RustCrypto's `ctr` 0.10 over `aes` 0.9. Every call that starts a message takes the next IV
//! ([`message_iv`]), written just before it as a user's code does; the first is the IV itself,
//! which the output check uses.

use aws_lc_rs::cipher::{AES_128, AES_192, AES_256, EncryptingKey, EncryptionContext, UnboundCipherKey};
use aws_lc_rs::iv::FixedLength;
use cipher::{KeyIvInit, StreamCipher};
use ctr09::cipher::{KeyIvInit as KeyIvInit04, StreamCipher as StreamCipher04};
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use std::hint::black_box;

/// One CTR implementation: encrypts a buffer in place, continuing its keystream.
pub trait CtrPeer {
    fn apply(&mut self, buf: &mut [u8]);
}

/// A named way to build a peer (and so to time its key set-up).
pub struct PeerKind {
    /// The `impl` field of records.
    pub implementation: &'static str,
    /// The `backend` field: what the peer runs underneath.
    pub backend: &'static str,
    pub make: fn(&[u8], &[u8; 16]) -> Box<dyn CtrPeer>,
    /// The key set-up alone, as the key set-up table times it: a Rust context is made where it
    /// stays, as a user's local is (`black_box` gets a reference), so neither a move nor the
    /// `Box` of `make` is timed. OpenSSL's context is a heap object anyway.
    pub setup: fn(&[u8], &[u8; 16]),
}

pub const CTR_PEERS: &[PeerKind] = &[
    PeerKind {
        implementation: "openssl",
        backend: "evp",
        make: |k, iv| Box::new(OpenSsl::new(k, iv)),
        setup: |k, iv| drop(black_box(OpenSsl::new(k, iv))),
    },
    PeerKind {
        implementation: "aws-lc-rs",
        backend: "aws-lc (per message)",
        make: |k, iv| Box::new(AwsLc::new(k, iv)),
        setup: |k, iv| {
            black_box(&AwsLc::new(k, iv));
        },
    },
    PeerKind {
        implementation: "rustcrypto",
        backend: "aes 0.9 + ctr 0.10",
        make: |k, iv| rustcrypto_current(k, iv),
        setup: rustcrypto_current_setup,
    },
    PeerKind {
        implementation: "rustcrypto",
        backend: "aes 0.8 + ctr 0.9",
        make: |k, iv| rustcrypto(k, iv),
        setup: |k, iv| match k.len() {
            16 => in_place04::<ctr09::Ctr128BE<aes08::Aes128>>(k, iv),
            24 => in_place04::<ctr09::Ctr128BE<aes08::Aes192>>(k, iv),
            _ => in_place04::<ctr09::Ctr128BE<aes08::Aes256>>(k, iv),
        },
    },
    PeerKind {
        implementation: "aeslab",
        backend: PER_MESSAGE_AESLAB,
        make: |k, iv| per_message_aeslab(k, iv),
        setup: |k, iv| match k.len() {
            16 => in_place::<aeslab::ctr::Aes128Ctr>(k, iv),
            24 => in_place::<aeslab::ctr::Aes192Ctr>(k, iv),
            _ => in_place::<aeslab::ctr::Aes256Ctr>(k, iv),
        },
    },
    PeerKind {
        implementation: "rustcrypto",
        backend: PER_MESSAGE_RUSTCRYPTO,
        make: |k, iv| per_message_rustcrypto(k, iv),
        setup: rustcrypto_current_setup,
    },
];

/// ctr 0.10 + aes 0.9 keyed in place, for the key length of `key` (its streaming row and its
/// per-message row are keyed alike).
fn rustcrypto_current_setup(key: &[u8], iv: &[u8; 16]) {
    match key.len() {
        16 => in_place::<ctr010::Ctr128BE<aes09::Aes128>>(key, iv),
        24 => in_place::<ctr010::Ctr128BE<aes09::Aes192>>(key, iv),
        _ => in_place::<ctr010::Ctr128BE<aes09::Aes256>>(key, iv),
    }
}

/// `C` keyed where it stays (see [`PeerKind::setup`]), through `cipher` 0.5's `KeyIvInit`.
/// The lengths are checked before `new`, which returns the context itself: unwrapping
/// `new_from_slices`' `Result` could move it once more.
fn in_place<C: KeyIvInit>(key: &[u8], iv: &[u8; 16]) {
    let key = cipher::Key::<C>::try_from(key).expect("the key size the peer was chosen for");
    let iv = cipher::Iv::<C>::try_from(&iv[..]).expect("a 16-byte IV");
    black_box(&C::new(&key, &iv));
}

/// [`in_place`] through `cipher` 0.4's `KeyIvInit` (ctr 0.9).
fn in_place04<C: KeyIvInit04>(key: &[u8], iv: &[u8; 16]) {
    use ctr09::cipher::generic_array::GenericArray;
    black_box(&C::new(GenericArray::from_slice(key), GenericArray::from_slice(iv)));
}

/// The IV of message `seq`: `seq`, big-endian, XORed into the IV's first 8 bytes (the nonce
/// half), so every message's counter blocks start where the IV's do. Message 0's is `iv`.
pub fn message_iv(iv: &[u8; 16], seq: u64) -> [u8; 16] {
    let mut out = *iv;
    let first: &mut [u8; 8] = (&mut out[..8]).try_into().expect("8 bytes");
    super::xor_sequence_number(first, seq);
    out
}

/// The per-message rows' backend labels.
pub const PER_MESSAGE_AESLAB: &str = "per message: AesCtr::new + apply_keystream";
pub const PER_MESSAGE_RUSTCRYPTO: &str = "per message: ctr 0.10 + aes 0.9 new + apply_keystream";

pub struct OpenSsl(CipherCtx);

impl OpenSsl {
    pub fn new(key: &[u8], iv: &[u8; 16]) -> Self {
        let cipher = match key.len() {
            16 => Cipher::aes_128_ctr(),
            24 => Cipher::aes_192_ctr(),
            _ => Cipher::aes_256_ctr(),
        };
        let mut ctx = CipherCtx::new().expect("EVP_CIPHER_CTX_new");
        ctx.encrypt_init(Some(cipher), Some(key), Some(iv)).expect("EVP_EncryptInit_ex");
        OpenSsl(ctx)
    }
}

impl CtrPeer for OpenSsl {
    fn apply(&mut self, buf: &mut [u8]) {
        let n = buf.len();
        self.0.cipher_update_inplace(buf, n).expect("EVP_EncryptUpdate");
    }
}

pub struct AwsLc {
    key: EncryptingKey,
    iv: [u8; 16],
    /// The next message's sequence number ([`message_iv`]).
    seq: u64,
}

impl AwsLc {
    pub fn new(key: &[u8], iv: &[u8; 16]) -> Self {
        let alg = match key.len() {
            16 => &AES_128,
            24 => &AES_192,
            _ => &AES_256,
        };
        let key = EncryptingKey::ctr(UnboundCipherKey::new(alg, key).expect("aws-lc key")).expect("aws-lc ctr");
        AwsLc { key, iv: *iv, seq: 0 }
    }
}

impl CtrPeer for AwsLc {
    fn apply(&mut self, buf: &mut [u8]) {
        let ctx = EncryptionContext::Iv128(FixedLength::from(message_iv(&self.iv, self.seq)));
        self.seq += 1;
        self.key.less_safe_encrypt(buf, ctx).expect("aws-lc encrypt");
    }
}

struct RustCrypto<C>(C);

impl<C: StreamCipher04> CtrPeer for RustCrypto<C> {
    fn apply(&mut self, buf: &mut [u8]) {
        self.0.apply_keystream(buf);
    }
}

fn rustcrypto(key: &[u8], iv: &[u8; 16]) -> Box<dyn CtrPeer> {
    type C128 = ctr09::Ctr128BE<aes08::Aes128>;
    type C192 = ctr09::Ctr128BE<aes08::Aes192>;
    type C256 = ctr09::Ctr128BE<aes08::Aes256>;
    match key.len() {
        16 => Box::new(RustCrypto(C128::new(key.into(), iv.into()))),
        24 => Box::new(RustCrypto(C192::new(key.into(), iv.into()))),
        _ => Box::new(RustCrypto(C256::new(key.into(), iv.into()))),
    }
}

struct RustCryptoCurrent<C>(C);

impl<C: StreamCipher> CtrPeer for RustCryptoCurrent<C> {
    fn apply(&mut self, buf: &mut [u8]) {
        self.0.apply_keystream(buf);
    }
}

fn rustcrypto_current(key: &[u8], iv: &[u8; 16]) -> Box<dyn CtrPeer> {
    type C128 = ctr010::Ctr128BE<aes09::Aes128>;
    type C192 = ctr010::Ctr128BE<aes09::Aes192>;
    type C256 = ctr010::Ctr128BE<aes09::Aes256>;
    let iv = iv.into();
    match key.len() {
        16 => Box::new(RustCryptoCurrent(C128::new(key.try_into().expect("16 bytes"), iv))),
        24 => Box::new(RustCryptoCurrent(C192::new(key.try_into().expect("24 bytes"), iv))),
        _ => Box::new(RustCryptoCurrent(C256::new(key.try_into().expect("32 bytes"), iv))),
    }
}

/// A message at a time: each call sets up `C` from the key and the next message's IV and
/// encrypts the buffer.
struct PerMessage<C> {
    key: Vec<u8>,
    iv: [u8; 16],
    /// The next message's sequence number ([`message_iv`]).
    seq: u64,
    _c: core::marker::PhantomData<C>,
}

impl<C: KeyIvInit + StreamCipher> CtrPeer for PerMessage<C> {
    fn apply(&mut self, buf: &mut [u8]) {
        let key = cipher::Key::<C>::try_from(&self.key[..]).expect("key length of the type");
        let iv = message_iv(&self.iv, self.seq);
        self.seq += 1;
        let iv = cipher::Iv::<C>::try_from(&iv[..]).expect("16-byte IV");
        C::new(&key, &iv).apply_keystream(buf);
    }
}

fn per_message<C: KeyIvInit + StreamCipher + 'static>(key: &[u8], iv: &[u8; 16]) -> Box<dyn CtrPeer> {
    Box::new(PerMessage::<C> { key: key.to_vec(), iv: *iv, seq: 0, _c: core::marker::PhantomData })
}

fn per_message_aeslab(key: &[u8], iv: &[u8; 16]) -> Box<dyn CtrPeer> {
    match key.len() {
        16 => per_message::<aeslab::ctr::Aes128Ctr>(key, iv),
        24 => per_message::<aeslab::ctr::Aes192Ctr>(key, iv),
        _ => per_message::<aeslab::ctr::Aes256Ctr>(key, iv),
    }
}

fn per_message_rustcrypto(key: &[u8], iv: &[u8; 16]) -> Box<dyn CtrPeer> {
    match key.len() {
        16 => per_message::<ctr010::Ctr128BE<aes09::Aes128>>(key, iv),
        24 => per_message::<ctr010::Ctr128BE<aes09::Aes192>>(key, iv),
        _ => per_message::<ctr010::Ctr128BE<aes09::Aes256>>(key, iv),
    }
}

#[cfg(test)]
mod tests {
    use super::message_iv;

    /// Message 0's IV is the IV; later ones differ in the first 8 bytes (the nonce half) by the
    /// sequence number, big-endian, so each message's counter starts where the IV's does.
    #[test]
    fn message_ivs_change_the_nonce_half_only() {
        let iv: [u8; 16] = core::array::from_fn(|i| 0x10 + i as u8);
        assert_eq!(message_iv(&iv, 0), iv);
        let second = message_iv(&iv, 0x0102);
        assert_eq!(second[..8], [0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x17, 0x15]);
        assert_eq!(second[8..], iv[8..]);
    }
}
