//! The AES-GCM peers, measured in the same process as aeslab: OpenSSL, aws-lc-rs, ring and
//! RustCrypto `aes-gcm` (0.11 and 0.10), each keyed once, sealing and opening with the AD
//! [`AD`] under the nonce each call is given. aeslab is measured twice: its native `Gcm`, and
//! `Aes128Gcm`/`Aes256Gcm` through the RustCrypto `aead` traits (`AeadInOut`), the way a user's
//! crate calls it.
//!
//! Nonces: every implementation's output is first checked against the others under [`NONCE`];
//! then each timed seal gets the next [`message_nonce`], written into a fresh array just before
//! the call, as a user's record layer does. That matters: a nonce the caller has just written
//! costs more where it is read back in pieces its stores do not cover (aeslab reads it in
//! 4-byte words for that reason), and in a loop that wrote the nonce's last 8 bytes before each
//! 16-byte seal, aes-gcm 0.11 and ring took 3–6% longer than with a fixed one (Zen 5,
//! 2026-11-29). A timed open alternates one message's two states under one nonce (see
//! `bench_gcm::checked_open_timings`), likewise written afresh before each call, as a receiver
//! copies it out of the packet.

use aeslab::aes::default_backend;
use aeslab::ctr::FaceLevel;
use aeslab::gcm::{Gcm, GhashImpl};

/// The nonce every implementation's output is checked under, and the base of the timed
/// messages' nonces ([`message_nonce`]).
pub const NONCE: [u8; 12] = [0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88];

/// The nonce of message `seq` under one key, as TLS 1.3 and QUIC make theirs: the sequence
/// number, big-endian, XORed into the last 8 bytes of a fixed IV ([`NONCE`], which is message
/// 0's). The timed loops write it into a fresh array before every seal, as a user does.
pub fn message_nonce(seq: u64) -> [u8; 12] {
    let mut nonce = NONCE;
    let last: &mut [u8; 8] = (&mut nonce[4..]).try_into().expect("8 bytes");
    super::xor_sequence_number(last, seq);
    nonce
}

pub const AD: &[u8] = b"sixteen byte AD!";

/// The backend label of aeslab's row through the `aead` traits.
pub const TRAITS: &str = "aead traits";

/// One GCM implementation, keyed once: seals a buffer in place and returns the tag.
pub trait GcmPeer {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16];
}

/// A keyed implementation that also opens, as its users call it: checks `tag` over the
/// ciphertext in `buf` and decrypts it in place. `false` when the tag does not verify (what
/// `buf` then holds is the implementation's business).
pub trait GcmOpen: GcmPeer {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool;
}

impl GcmPeer for Gcm {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        self.encrypt_in_place_detached(nonce, AD, buf).expect("valid nonce and length")
    }
}

impl GcmOpen for Gcm {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        self.decrypt_in_place_detached(nonce, AD, buf, tag).is_ok()
    }
}

/// OpenSSL's EVP AES-GCM: one context keyed for sealing, one for opening (an EVP context is
/// keyed for one direction).
struct OpenSslGcm {
    seal: openssl::cipher_ctx::CipherCtx,
    open: openssl::cipher_ctx::CipherCtx,
}

impl GcmPeer for OpenSslGcm {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        openssl_seal(&mut self.seal, nonce, buf)
    }
}

/// Seals `buf` with an EVP context keyed for sealing: the key was scheduled once, and each
/// message sets only its nonce.
fn openssl_seal(ctx: &mut openssl::cipher_ctx::CipherCtx, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
    ctx.encrypt_init(None, None, Some(nonce)).expect("EVP_EncryptInit_ex");
    ctx.cipher_update(AD, None).expect("AAD");
    let n = buf.len();
    ctx.cipher_update_inplace(buf, n).expect("EVP_EncryptUpdate");
    ctx.cipher_final(&mut []).expect("EVP_EncryptFinal_ex");
    let mut tag = [0u8; 16];
    ctx.tag(&mut tag).expect("GET_TAG");
    tag
}

impl GcmOpen for OpenSslGcm {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        let ctx = &mut self.open;
        let n = buf.len();
        // EVP_DecryptFinal_ex checks the tag set before it.
        ctx.decrypt_init(None, None, Some(nonce)).is_ok()
            && ctx.cipher_update(AD, None).is_ok()
            && ctx.cipher_update_inplace(buf, n).is_ok()
            && ctx.set_tag(tag).is_ok()
            && ctx.cipher_final(&mut []).is_ok()
    }
}

struct AwsLcGcm(aws_lc_rs::aead::LessSafeKey);

impl GcmPeer for AwsLcGcm {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        use aws_lc_rs::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(AD), buf).expect("seal");
        tag.as_ref().try_into().expect("16 bytes")
    }
}

impl GcmOpen for AwsLcGcm {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        use aws_lc_rs::aead::{Aad, Nonce};
        self.0.open_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(AD), tag, buf).is_ok()
    }
}

struct RingGcm(ring::aead::LessSafeKey);

impl GcmPeer for RingGcm {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        use ring::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(AD), buf).expect("seal");
        tag.as_ref().try_into().expect("16 bytes")
    }
}

impl GcmOpen for RingGcm {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        use ring::aead::{Aad, Nonce, Tag};
        self.0.open_in_place_separate_tag(Nonce::assume_unique_for_key(*nonce), Aad::from(AD), Tag::from(*tag), buf, 0..).is_ok()
    }
}

/// An `aead` 0.6 AEAD sealing and opening through `AeadInOut` (aeslab's types and RustCrypto's
/// 0.11).
struct AeadInOutGcm<A>(Box<A>);

impl<A: aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16>> GcmPeer for AeadInOutGcm<A> {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        let tag = self.0.encrypt_inout_detached(nonce.into(), AD, buf.into()).expect("seal");
        tag.into()
    }
}

impl<A: aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16>> GcmOpen for AeadInOutGcm<A> {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        self.0.decrypt_inout_detached(nonce.into(), AD, buf.into(), &(*tag).into()).is_ok()
    }
}

fn aead_in_out<A>(key: &[u8]) -> Result<Box<dyn GcmOpen>, String>
where
    A: aead::KeyInit + aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16> + 'static,
{
    Ok(Box::new(AeadInOutGcm(Box::new(A::new_from_slice(key).map_err(|e| e.to_string())?))))
}

enum RustCryptoGcm {
    K128(Box<aes_gcm::Aes128Gcm>),
    K256(Box<aes_gcm::Aes256Gcm>),
}

impl GcmPeer for RustCryptoGcm {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        use aes_gcm::aead::AeadInPlace;
        let nonce = aes_gcm::Nonce::from_slice(nonce);
        let tag = match self {
            RustCryptoGcm::K128(c) => c.encrypt_in_place_detached(nonce, AD, buf),
            RustCryptoGcm::K256(c) => c.encrypt_in_place_detached(nonce, AD, buf),
        };
        tag.expect("seal").into()
    }
}

impl GcmOpen for RustCryptoGcm {
    fn open(&mut self, nonce: &[u8; 12], buf: &mut [u8], tag: &[u8; 16]) -> bool {
        use aes_gcm::aead::AeadInPlace;
        let nonce = aes_gcm::Nonce::from_slice(nonce);
        let tag = aes_gcm::Tag::from_slice(tag);
        match self {
            RustCryptoGcm::K128(c) => c.decrypt_in_place_detached(nonce, AD, buf, tag),
            RustCryptoGcm::K256(c) => c.decrypt_in_place_detached(nonce, AD, buf, tag),
        }
        .is_ok()
    }
}

/// OpenSSL's GCM context keyed with `key` (16 or 32 bytes) for sealing: the throughput rows
/// seal with it, the key set-up table times it.
fn openssl_key(key: &[u8]) -> Result<openssl::cipher_ctx::CipherCtx, String> {
    let mut ctx = openssl::cipher_ctx::CipherCtx::new().map_err(|e| e.to_string())?;
    ctx.encrypt_init(Some(openssl_cipher(key)), Some(key), None).map_err(|e| e.to_string())?;
    Ok(ctx)
}

/// The same for opening.
fn openssl_open_key(key: &[u8]) -> Result<openssl::cipher_ctx::CipherCtx, String> {
    let mut ctx = openssl::cipher_ctx::CipherCtx::new().map_err(|e| e.to_string())?;
    ctx.decrypt_init(Some(openssl_cipher(key)), Some(key), None).map_err(|e| e.to_string())?;
    Ok(ctx)
}

fn openssl_cipher(key: &[u8]) -> &'static openssl::cipher::CipherRef {
    if key.len() == 16 { openssl::cipher::Cipher::aes_128_gcm() } else { openssl::cipher::Cipher::aes_256_gcm() }
}

/// aws-lc-rs's AES-GCM key, likewise.
fn aws_lc_key(key: &[u8]) -> Result<aws_lc_rs::aead::LessSafeKey, String> {
    let alg = if key.len() == 16 { &aws_lc_rs::aead::AES_128_GCM } else { &aws_lc_rs::aead::AES_256_GCM };
    Ok(aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(alg, key).map_err(|e| e.to_string())?))
}

/// ring's AES-GCM key, likewise.
fn ring_key(key: &[u8]) -> Result<ring::aead::LessSafeKey, String> {
    let alg = if key.len() == 16 { &ring::aead::AES_128_GCM } else { &ring::aead::AES_256_GCM };
    Ok(ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(alg, key).map_err(|e| e.to_string())?))
}

/// One implementation measured: its record fields and the keyed peer.
pub struct Implementation {
    pub name: &'static str,
    pub backend: String,
    /// aeslab's FACE level; `none` for the peers.
    pub face: FaceLevel,
    pub peer: Box<dyn GcmOpen>,
}

fn peer(name: &'static str, backend: &str, peer: Box<dyn GcmOpen>) -> Implementation {
    Implementation { name, backend: backend.to_string(), face: FaceLevel::None, peer }
}

/// Every implementation measured, keyed with `key`: aeslab (FACE none and rd2p) and the peers,
/// each keyed for both directions.
pub fn implementations(key: &[u8]) -> Result<Vec<Implementation>, String> {
    let mut v = Vec::new();
    let backend = default_backend();
    for face in [FaceLevel::None, FaceLevel::Rd2p] {
        let gcm = Gcm::with_options_variable_time(key, backend, face, GhashImpl::fastest(), 16).map_err(|e| e.to_string())?;
        let label = format!("{backend}+{}/{}", GhashImpl::fastest().name(), face.name());
        v.push(Implementation { name: "aeslab", backend: label, face, peer: Box::new(gcm) });
    }
    let traits = if key.len() == 16 { aead_in_out::<aeslab::gcm::Aes128Gcm>(key)? } else { aead_in_out::<aeslab::gcm::Aes256Gcm>(key)? };
    v.push(Implementation { name: "aeslab", backend: format!("{TRAITS} ({backend})"), face: FaceLevel::Rd2p, peer: traits });
    v.push(peer("openssl", "evp", Box::new(OpenSslGcm { seal: openssl_key(key)?, open: openssl_open_key(key)? })));
    v.push(peer("aws-lc-rs", "aws-lc", Box::new(AwsLcGcm(aws_lc_key(key)?))));
    v.push(peer("ring", "ring 0.17", Box::new(RingGcm(ring_key(key)?))));
    let rc011 = if key.len() == 16 { aead_in_out::<aes_gcm011::Aes128Gcm>(key)? } else { aead_in_out::<aes_gcm011::Aes256Gcm>(key)? };
    v.push(peer("rustcrypto", "aes-gcm 0.11", rc011));
    use aes_gcm::KeyInit as _;
    let rc = if key.len() == 16 {
        RustCryptoGcm::K128(Box::new(aes_gcm::Aes128Gcm::new_from_slice(key).map_err(|e| e.to_string())?))
    } else {
        RustCryptoGcm::K256(Box::new(aes_gcm::Aes256Gcm::new_from_slice(key).map_err(|e| e.to_string())?))
    };
    v.push(peer("rustcrypto", "aes-gcm 0.10", Box::new(rc)));
    Ok(v)
}

/// A key made, one message sealed with it, the key dropped: what `bench gcm
/// --key-per-message` times. Returns the tag.
pub type KeyAndSeal = Box<dyn FnMut(&[u8; 12], &mut [u8]) -> [u8; 16]>;

/// A key-per-message job seals like a keyed peer: it makes its key inside.
impl GcmPeer for KeyAndSeal {
    fn seal(&mut self, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        self(nonce, buf)
    }
}

/// Each current implementation as a user with a key per message runs it: its name, its backend
/// label and a job that keys it with `key`, seals one message under the nonce it is given (and
/// the throughput rows' AD) and drops the key. aeslab and RustCrypto's aes-gcm 0.11 through the
/// `aead` traits, with the key object on the stack; ring, aws-lc-rs and OpenSSL through their
/// own APIs.
pub fn key_and_seals(key: &[u8]) -> Vec<(&'static str, &'static str, KeyAndSeal)> {
    let k = key.to_vec();
    let mut v: Vec<(&'static str, &'static str, KeyAndSeal)> = Vec::new();
    v.push(("aeslab", TRAITS, traits_key_and_seal::<aeslab::gcm::Aes128Gcm, aeslab::gcm::Aes256Gcm>(key)));
    let kk = k.clone();
    v.push(("openssl", "evp", Box::new(move |nonce, buf| openssl_seal(&mut openssl_key(&kk).expect("OpenSSL key"), nonce, buf))));
    let kk = k.clone();
    v.push(("aws-lc-rs", "aws-lc", Box::new(move |nonce, buf| AwsLcGcm(aws_lc_key(&kk).expect("aws-lc key")).seal(nonce, buf))));
    v.push(("ring", "ring 0.17", Box::new(move |nonce, buf| RingGcm(ring_key(&k).expect("ring key")).seal(nonce, buf))));
    v.push(("rustcrypto", "aes-gcm 0.11", traits_key_and_seal::<aes_gcm011::Aes128Gcm, aes_gcm011::Aes256Gcm>(key)));
    v
}

/// [`KeyAndSeal`] through the `aead` 0.6 traits: `A128` or `A256` by the key's length, made by
/// `KeyInit::new` where the job runs (not boxed: an allocation per message would be timed).
fn traits_key_and_seal<A128, A256>(key: &[u8]) -> KeyAndSeal
where
    A128: aead::KeyInit<KeySize = aead::consts::U16> + aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16> + 'static,
    A256: aead::KeyInit<KeySize = aead::consts::U32> + aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16> + 'static,
{
    fn seal<A: aead::AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16>>(a: &A, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
        a.encrypt_inout_detached(nonce.into(), AD, buf.into()).expect("seal").into()
    }
    let key128: Option<[u8; 16]> = key.try_into().ok();
    let key256: Option<[u8; 32]> = key.try_into().ok();
    Box::new(move |nonce, buf| match (key128, key256) {
        (Some(k), _) => seal(&A128::new(&k.into()), nonce, buf),
        (_, Some(k)) => seal(&A256::new(&k.into()), nonce, buf),
        _ => unreachable!("bench gcm takes 128- and 256-bit keys"),
    })
}

/// A keyed AES-GCM made from scratch: what the key set-up table times.
pub type MakeKey = Box<dyn Fn()>;

/// Each implementation's key set-up, as it is keyed for the throughput rows: its name, its
/// backend label and a job that makes (and drops) one key object. The Rust key objects stay
/// where they are made (`black_box` gets a reference): passed by value, a move of the whole
/// object (832 bytes for aeslab's) would be timed too.
pub fn key_setups(key: &[u8]) -> Vec<(&'static str, &'static str, MakeKey)> {
    use std::hint::black_box;
    let k = key.to_vec();
    let mut v: Vec<(&'static str, &'static str, MakeKey)> = Vec::new();
    let key128: Option<[u8; 16]> = k.as_slice().try_into().ok();
    let key256: Option<[u8; 32]> = k.as_slice().try_into().ok();
    v.push((
        "aeslab",
        TRAITS,
        Box::new(move || {
            use aead::KeyInit;
            match (key128, key256) {
                (Some(k), _) => {
                    black_box(&aeslab::gcm::Aes128Gcm::new(&k.into()));
                }
                (_, Some(k)) => {
                    black_box(&aeslab::gcm::Aes256Gcm::new(&k.into()));
                }
                _ => {}
            }
        }),
    ));
    let kk = k.clone();
    v.push(("openssl", "evp", Box::new(move || drop(black_box(openssl_key(&kk).expect("OpenSSL key"))))));
    let kk = k.clone();
    v.push(("aws-lc-rs", "aws-lc", Box::new(move || drop(black_box(aws_lc_key(&kk).expect("aws-lc key"))))));
    let kk = k.clone();
    v.push(("ring", "ring 0.17", Box::new(move || {
        black_box(ring_key(&kk).expect("ring key"));
    })));
    v.push((
        "rustcrypto",
        "aes-gcm 0.11",
        Box::new(move || {
            use aead::KeyInit;
            match (key128, key256) {
                (Some(k), _) => {
                    black_box(&aes_gcm011::Aes128Gcm::new(&k.into()));
                }
                (_, Some(k)) => {
                    black_box(&aes_gcm011::Aes256Gcm::new(&k.into()));
                }
                _ => {}
            }
        }),
    ));
    v
}

#[cfg(test)]
mod tests {
    use super::{NONCE, message_nonce};

    /// Message 0's nonce is the fixed one the outputs are checked under; later ones differ in
    /// the last 8 bytes by the sequence number, big-endian, as TLS 1.3 makes them.
    #[test]
    fn message_nonces_are_the_iv_xor_the_sequence_number() {
        assert_eq!(message_nonce(0), NONCE);
        assert_eq!(message_nonce(1), [0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x89]);
        assert_eq!(message_nonce(0x0102_0304_0506_0708), [0xca, 0xfe, 0xba, 0xbe, 0xfb, 0xcc, 0xd8, 0xa9, 0xdb, 0xcc, 0xff, 0x80]);
    }
}
