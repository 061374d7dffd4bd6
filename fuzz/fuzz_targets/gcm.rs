//! AES-GCM on a fuzzed backend × GHASH × FACE level, key, nonce (any length), AD, message and
//! tag length must seal to what `ct64` with the portable GHASH and no FACE seals (the
//! reference: no SIMD, no stitching, no caching), open it again, and refuse a flipped bit
//! anywhere in the nonce, AD, ciphertext or tag, leaving no plaintext in the buffer: the native
//! API wipes it, the `aead` traits (`Aes128Gcm`, `Aes256Gcm`) leave the ciphertext as
//! RustCrypto's `aes-gcm` does.

#![no_main]

use aead::{AeadInOut, KeyInit};
use aeslab::aes::BackendKind;
use aeslab::ctr::FaceLevel;
use aeslab::gcm::{Aes128Gcm, Aes256Gcm, Gcm, GhashImpl};
use arbitrary::{Result, Unstructured};
use common::{bytes, filled, length};

mod common;
common::fuzz_cases!(one_case);

/// A message length: mostly short or up to a few 32-block groups and their tails; one case in
/// sixteen long enough that FACE, when asked for, builds its table (CTR's thresholds are 20–40
/// KiB).
fn message_len(u: &mut Unstructured) -> Result<usize> {
    if u.ratio(1u8, 16u8)? { u.int_in_range(20_000..=70_000) } else { length(u, 2200) }
}

fn one_case(u: &mut Unstructured) -> Result<()> {
    let key_len = *u.choose(&[16usize, 24, 32])?;
    let key = u.bytes(key_len)?.to_vec();
    // 12 bytes is the fast path; any other length goes through GHASH for J0.
    let nonce_len = if u.arbitrary()? { 12 } else { u.int_in_range(1..=40)? };
    let nonce = filled(u, nonce_len)?;
    let ad = bytes(u, 600)?;
    let len = message_len(u)?;
    let msg = filled(u, len)?;
    let tag_len = u.int_in_range(12..=16usize)?;

    let reference = Gcm::with_options(&key, BackendKind::Ct64, FaceLevel::None, GhashImpl::Portable, tag_len).expect("valid key");
    let mut expect = msg.clone();
    let expect_tag = reference.encrypt_in_place_detached(&nonce, &ad, &mut expect).expect("valid nonce");

    let kinds: Vec<BackendKind> = BackendKind::available_kinds().filter(|k| k.constant_time()).collect();
    let ghashes: Vec<GhashImpl> = GhashImpl::ALL.into_iter().filter(|g| g.available()).collect();
    let (kind, ghash, level) = (*u.choose(&kinds)?, *u.choose(&ghashes)?, *u.choose(&FaceLevel::ALL)?);
    let what = format!("{kind} {ghash:?} {level:?}, key {} B, nonce {} B, AD {} B, message {len} B, tag {tag_len} B", key.len(), nonce.len(), ad.len());
    let gcm = Gcm::with_options(&key, kind, level, ghash, tag_len).expect("available and constant time");
    let mut buf = msg.clone();
    let tag = gcm.encrypt_in_place_detached(&nonce, &ad, &mut buf).expect("valid nonce");
    assert_eq!(buf, expect, "{what}: ciphertext");
    assert_eq!(tag[..tag_len], expect_tag[..tag_len], "{what}: tag");
    gcm.decrypt_in_place_detached(&nonce, &ad, &mut buf, &tag[..tag_len]).expect("its own seal opens");
    assert_eq!(buf, msg, "{what}: round trip");

    // One flipped bit in the nonce, the AD, the ciphertext or the tag.
    let (mut bad_nonce, mut bad_ad, mut bad_ct, mut bad_tag) = (nonce.clone(), ad.clone(), expect.clone(), expect_tag[..tag_len].to_vec());
    let target = match u.int_in_range(0..=3u8)? {
        0 => &mut bad_nonce,
        1 if !bad_ad.is_empty() => &mut bad_ad,
        2 if !bad_ct.is_empty() => &mut bad_ct,
        _ => &mut bad_tag,
    };
    let at = u.int_in_range(0..=target.len() - 1)?;
    target[at] ^= 1 << u.int_in_range(0..=7u8)?;
    let mut forged = bad_ct.clone();
    assert!(gcm.decrypt_in_place_detached(&bad_nonce, &bad_ad, &mut forged, &bad_tag).is_err(), "{what}: a flipped bit opened");
    assert!(forged.iter().all(|&b| b == 0), "{what}: a refused buffer was not wiped");

    // The `aead` types (default backend, GHASH and FACE), where their sizes fit the case.
    if nonce.len() == 12 && tag_len == 16 && key.len() != 24 {
        let n = aead::Nonce::<Aes128Gcm>::try_from(&nonce[..]).expect("12 bytes");
        let bad_n = aead::Nonce::<Aes128Gcm>::try_from(&bad_nonce[..]).expect("12 bytes");
        let (sealed, tag, refused) = if key.len() == 16 {
            let gcm = Aes128Gcm::new_from_slice(&key).expect("16 bytes");
            traits_case(&gcm, &n, &bad_n, &ad, &bad_ad, &msg, &bad_ct, &bad_tag)
        } else {
            let gcm = Aes256Gcm::new_from_slice(&key).expect("32 bytes");
            traits_case(&gcm, &n, &bad_n, &ad, &bad_ad, &msg, &bad_ct, &bad_tag)
        };
        assert_eq!(sealed, expect, "traits, {what}: ciphertext");
        assert_eq!(tag[..], expect_tag[..], "traits, {what}: tag");
        assert_eq!(refused, bad_ct, "traits, {what}: a refused buffer does not hold its ciphertext");
    }
    Ok(())
}

/// Seals `msg`, opens it, and opens the forgery; returns the ciphertext and the tag (the caller
/// compares them with the reference's) and what the forgery's buffer holds after the refusal.
#[allow(clippy::too_many_arguments)]
fn traits_case<A: AeadInOut<NonceSize = aead::consts::U12, TagSize = aead::consts::U16>>(
    gcm: &A,
    nonce: &aead::Nonce<A>,
    bad_nonce: &aead::Nonce<A>,
    ad: &[u8],
    bad_ad: &[u8],
    msg: &[u8],
    bad_ct: &[u8],
    bad_tag: &[u8],
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut buf = msg.to_vec();
    let tag = gcm.encrypt_inout_detached(nonce, ad, buf.as_mut_slice().into()).expect("fits");
    let sealed = buf.clone();
    gcm.decrypt_inout_detached(nonce, ad, buf.as_mut_slice().into(), &tag).expect("its own seal opens");
    assert_eq!(buf, msg, "traits: round trip");
    let mut forged = bad_ct.to_vec();
    let bad_tag = aead::Tag::<A>::try_from(bad_tag).expect("16 bytes");
    assert!(gcm.decrypt_inout_detached(bad_nonce, bad_ad, forged.as_mut_slice().into(), &bad_tag).is_err(), "traits: a flipped bit opened");
    (sealed, tag.to_vec(), forged)
}
