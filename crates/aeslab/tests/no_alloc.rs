//! The library's alloc-free API: what a user of `--no-default-features` (no `alloc`, no `std`)
//! has, checked against known answers on every path this CPU runs. CI runs this file through
//! `compat/no-alloc`, a crate that depends on aeslab without its default features, so the
//! library is built without `alloc` (the test itself still has std for the harness and the
//! vector files), and `cargo test --workspace` runs it with the defaults: the two must agree.

mod common;

use aead::{AeadInOut, KeyInit};
use aeslab::ace::{AceAe128, AceHash256, AceMessage};
use aeslab::aes::BackendKind;
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use aeslab::gcm::{Aes128Gcm, Gcm};
use aeslab::ghash::GhashImpl;
use aeslab::{AskedName, Error};
use cipher::{KeyIvInit, StreamCipher};

use common::{aez_vectors, field16, hex_of, lwc_cases};

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// SP 800-38A F.5.1 through the RustCrypto traits.
#[test]
fn ctr_through_the_traits_gives_sp800_38a_f5_1() {
    let key = unhex("2b7e151628aed2a6abf7158809cf4f3c");
    let iv = unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    let mut buf = unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51");
    let mut ctr = aeslab::ctr::Aes128Ctr::new(key.as_slice().try_into().unwrap(), iv.as_slice().try_into().unwrap());
    ctr.apply_keystream(&mut buf);
    assert_eq!(hex::encode(buf), "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff");
}

/// FACE without a kept table: a call long enough builds one on the stack (with `alloc`, in the
/// stream's box); many short calls run plain CTR. Every way gives the plain keystream.
#[test]
fn ctr_with_face_gives_the_plain_keystream_however_it_is_cut() {
    let key = [0x42u8; 16];
    // Low counter bytes near a 2^8 carry and a 2^32 wrap of the 32-bit counter's space.
    let iv = unhex("000102030405060708090a0bfffffff0");
    let len = 64 * 1024 + 5;
    for kind in common::aes_backends("tests/no_alloc.rs").into_iter().filter(|k| k.constant_time()) {
        let mut plain = vec![0u8; len];
        DynCtr::new(&key, &iv, kind, FaceLevel::None, Counter::Be128).unwrap().apply_keystream(&mut plain);
        for face in FaceLevel::ALL {
            let mut whole = vec![0u8; len];
            DynCtr::new(&key, &iv, kind, face, Counter::Be128).unwrap().apply_keystream(&mut whole);
            assert!(whole == plain, "{kind} {face}: one call");
            let mut cut = vec![0u8; len];
            let mut stream = DynCtr::new(&key, &iv, kind, face, Counter::Be128).unwrap();
            for piece in cut.chunks_mut(1000) {
                stream.apply_keystream(piece);
            }
            assert!(cut == plain, "{kind} {face}: 1000-byte calls");
        }
    }
}

/// GCM test cases 2 and 3 of McGrew and Viega's specification, sealed and opened in place on
/// every backend and GHASH this CPU has, and through `AeadInOut`.
#[test]
fn gcm_in_place_gives_the_specification_cases() {
    let cases = [
        (
            "00000000000000000000000000000000",
            "000000000000000000000000",
            "00000000000000000000000000000000",
            "0388dace60b6a392f328c2b971b2fe78",
            "ab6e47d42cec13bdf53a67b21257bddf",
        ),
        (
            "feffe9928665731c6d6a8f9467308308",
            "cafebabefacedbaddecaf888",
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
            "4d5c2af327cd64a62cf35abd2ba6fab4",
        ),
    ];
    let ghashes: Vec<GhashImpl> = GhashImpl::ALL.into_iter().filter(|g| g.available()).collect();
    for (key, nonce, pt, ct, tag) in cases {
        let (key, nonce, pt) = (unhex(key), unhex(nonce), unhex(pt));
        for kind in common::aes_backends("tests/no_alloc.rs").into_iter().filter(|k| k.constant_time()) {
            for &ghash in &ghashes {
                let gcm = Gcm::with_options(&key, kind, FaceLevel::None, ghash, 16).unwrap();
                let mut buf = pt.clone();
                let t = gcm.encrypt_in_place_detached(&nonce, b"", &mut buf).unwrap();
                assert_eq!((hex::encode(&buf), hex::encode(t)), (ct.to_string(), tag.to_string()), "{kind} {ghash:?}");
                gcm.decrypt_in_place_detached(&nonce, b"", &mut buf, &t).unwrap();
                assert!(buf == pt);
            }
        }
        let gcm = Aes128Gcm::new_from_slice(&key).unwrap();
        let mut buf = pt.clone();
        let t = gcm.encrypt_inout_detached(nonce.as_slice().try_into().unwrap(), b"", buf.as_mut_slice().into()).unwrap();
        assert_eq!(hex::encode(t), tag);
        let mut bad = t;
        bad[0] ^= 1;
        assert!(gcm.decrypt_inout_detached(nonce.as_slice().try_into().unwrap(), b"", buf.as_mut_slice().into(), &bad).is_err());
    }
}

/// AEZ's encrypt vectors in place, and the PRF into a caller's buffer.
#[test]
fn aez_in_place_gives_the_vectors() {
    let vectors = aez_vectors("encrypt.json");
    assert!(vectors.len() > 100);
    for kind in common::aes_backends("tests/no_alloc.rs").into_iter().filter(|k| k.constant_time()) {
        for case in &vectors {
            let aez = Aez::with_backend(&hex_of(&case["k"]), kind).unwrap();
            let data: Vec<Vec<u8>> = case["data"].as_array().unwrap().iter().map(hex_of).collect();
            let ad: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let tau = case["tau"].as_u64().unwrap() as usize;
            let (nonce, m, c) = (hex_of(&case["nonce"]), hex_of(&case["m"]), hex_of(&case["c"]));
            let mut buf = m.clone();
            buf.resize(m.len() + tau, 0);
            aez.encrypt_in_place(&nonce, &ad, tau, &mut buf).unwrap();
            assert!(buf == c, "{kind}");
            let n = aez.decrypt_in_place(&nonce, &ad, tau, &mut buf).unwrap();
            assert!(buf[..n] == m, "{kind}");
        }
        // AEZ-prf of an empty message is the ciphertext of an empty message: both ways agree.
        let aez = Aez::with_backend(b"prf key", kind).unwrap();
        let mut sealed = [0u8; 40];
        aez.encrypt_in_place(b"nonce", &[b"ad"], 40, &mut sealed).unwrap();
        let delta = aez.hash(b"nonce", &[b"ad"], 40 * 8);
        let mut prf = [0u8; 40];
        aez.prf_into(&delta, &mut prf).unwrap();
        assert_eq!(prf, sealed, "{kind}");
    }
}

/// ACE-AE-128's KAT through `seal_many` and `open_many_into`, in batches wider than any
/// backend's lanes (the batches are cut on the stack), with one forgery among them.
#[test]
fn ace_batches_give_the_kat_and_refuse_a_forgery() {
    let cases = lwc_cases("ACE.txt");
    let key = field16(&cases[0], "Key");
    assert!(cases.iter().all(|c| field16(c, "Key") == key), "one key across the KAT");
    let batch = &cases[..37.min(cases.len())];
    for backend in common::ace_backends("tests/no_alloc.rs") {
        let ace = AceAe128::with_backend(&key, backend).unwrap();
        let mut buffers: Vec<Vec<u8>> = batch.iter().map(|c| c["PT"].clone()).collect();
        let mut messages: Vec<AceMessage<'_>> = batch
            .iter()
            .zip(buffers.iter_mut())
            .map(|(c, b)| AceMessage { nonce: field16(c, "Nonce"), ad: &c["AD"], buffer: b, tag: [0; 16] })
            .collect();
        ace.seal_many(&mut messages);
        for (m, c) in messages.iter().zip(batch) {
            assert_eq!([&m.buffer[..], &m.tag[..]].concat(), c["CT"], "{backend:?}");
        }
        messages[5].tag[3] ^= 0x10;
        let mut verdicts = vec![Ok(()); messages.len()];
        ace.open_many_into(&mut messages, &mut verdicts).unwrap();
        for (i, ((m, c), v)) in messages.iter().zip(batch).zip(&verdicts).enumerate() {
            if i == 5 {
                assert_eq!(*v, Err(Error::AuthenticationFailed));
                assert!(m.buffer.iter().all(|&b| b == 0), "a forged message's buffer is wiped");
            } else {
                assert_eq!(*v, Ok(()), "{backend:?} {i}");
                assert_eq!(m.buffer[..], c["PT"][..]);
            }
        }
        let mut short = vec![Ok(()); messages.len() - 1];
        assert_eq!(
            ace.open_many_into(&mut messages, &mut short),
            Err(Error::OutputLength { inputs: batch.len(), outputs: batch.len() - 1 })
        );
    }
}

/// ACE-H-256's KAT through `hash_many_into`, more messages than lanes.
#[test]
fn ace_hash_many_into_gives_the_kat() {
    let cases = lwc_cases("ACE-HASH.txt");
    let messages: Vec<&[u8]> = cases.iter().map(|c| c["Msg"].as_slice()).collect();
    assert!(messages.len() > 16);
    for backend in common::ace_backends("tests/no_alloc.rs") {
        let mut digests = vec![[0u8; 32]; messages.len()];
        AceHash256::hash_many_into(backend, &messages, &mut digests).unwrap();
        for (d, c) in digests.iter().zip(&cases) {
            assert_eq!(d[..], c["MD"][..], "{backend:?}");
        }
        assert_eq!(
            AceHash256::hash_many_into(backend, &messages, &mut digests[1..]),
            Err(Error::OutputLength { inputs: messages.len(), outputs: messages.len() - 1 })
        );
    }
}

/// Names that match nothing come back in the error, inline, and render in its sentence.
#[test]
fn unknown_names_are_kept_in_the_error() {
    let err = BackendKind::from_name("vaes1024").unwrap_err();
    assert_eq!(err, Error::UnknownBackend { name: AskedName::from("vaes1024"), known: BackendKind::NAMES });
    assert!(err.to_string().starts_with("unknown backend `vaes1024` (known: table, ct64"), "{err}");
    let long = "x".repeat(100);
    let Err(Error::UnknownFaceLevel { name, .. }) = FaceLevel::from_name(&long) else { panic!("an unknown level") };
    assert_eq!(name.as_str(), format!("{}…", "x".repeat(29)));
    // The CPU's features are asked for one at a time.
    assert!(aeslab::cpu::has("sse2") || !cfg!(target_arch = "x86_64"));
}
