//! AEZ v5 known answers (../shared/testvectors/aez, from the Go implementation) on every
//! constant-time path, plus round trips and tampering.

mod common;

use aeslab::aes::BackendKind;
use aeslab::aez::{Aez, extract};

use common::{aez_vectors as vectors, hex_of as h};

/// The constant-time backends this CPU has: every AEZ path.
fn paths() -> Vec<BackendKind> {
    let p: Vec<_> = common::aes_backends("tests/aez_kat.rs").into_iter().filter(|k| k.constant_time()).collect();
    assert!(p.contains(&BackendKind::Ct64));
    p
}

#[test]
fn extract_vectors() {
    let v = vectors("extract.json");
    assert_eq!(v.len(), 110);
    for case in v {
        assert_eq!(extract(&h(&case["a"])).to_vec(), h(&case["b"]));
    }
}

#[test]
fn e_vectors_on_every_path() {
    let v = vectors("e.json");
    assert_eq!(v.len(), 534);
    for kind in paths() {
        for case in &v {
            let aez = Aez::with_backend(&h(&case["k"]), kind).unwrap();
            let a: [u8; 16] = h(&case["a"]).try_into().unwrap();
            let (j, i) = (case["j"].as_i64().unwrap(), case["i"].as_u64().unwrap());
            assert_eq!(aez.e(j, i, &a).to_vec(), h(&case["b"]), "{kind} j={j} i={i}");
        }
    }
}

#[test]
fn hash_vectors_on_every_path() {
    let v = vectors("hash.json");
    for kind in paths() {
        for case in &v {
            let aez = Aez::with_backend(&h(&case["k"]), kind).unwrap();
            let data: Vec<Vec<u8>> = case["data"].as_array().unwrap().iter().map(h).collect();
            let ad: Vec<&[u8]> = data[1..].iter().map(Vec::as_slice).collect();
            let tau_bits = case["tau"].as_u64().unwrap() as u32;
            assert_eq!(aez.hash(&data[0], &ad, tau_bits).to_vec(), h(&case["v"]), "{kind}");
        }
    }
}

#[test]
fn prf_vectors_on_every_path() {
    let v = vectors("prf.json");
    for kind in paths() {
        for case in &v {
            let aez = Aez::with_backend(&h(&case["k"]), kind).unwrap();
            let delta: [u8; 16] = h(&case["delta"]).try_into().unwrap();
            let tau = case["tau"].as_u64().unwrap() as usize;
            assert_eq!(aez.prf(&delta, tau).unwrap(), h(&case["r"]), "{kind}");
        }
    }
}

fn check_encrypt_file(file: &str, expect_count: usize) {
    let v = vectors(file);
    assert_eq!(v.len(), expect_count, "{file}");
    for kind in paths() {
        for (n, case) in v.iter().enumerate() {
            let aez = Aez::with_backend(&h(&case["k"]), kind).unwrap();
            let nonce = h(&case["nonce"]);
            let data: Vec<Vec<u8>> = case["data"].as_array().unwrap().iter().map(h).collect();
            let ad: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let tau = case["tau"].as_u64().unwrap() as usize;
            let (m, c) = (h(&case["m"]), h(&case["c"]));
            assert_eq!(aez.encrypt(&nonce, &ad, tau, &m).unwrap(), c, "{file} #{n} {kind} encrypt (|m| = {})", m.len());
            assert_eq!(aez.decrypt(&nonce, &ad, tau, &c).unwrap(), m, "{file} #{n} {kind} decrypt");
            // Any flipped bit is rejected when there is an authenticator.
            if tau > 0 {
                let mut bad = c.clone();
                let bit = n % (8 * bad.len());
                bad[bit / 8] ^= 1 << (bit % 8);
                assert!(aez.decrypt(&nonce, &ad, tau, &bad).is_err(), "{file} #{n} {kind} accepted a flipped bit");
            }
        }
    }
}

#[test]
fn encrypt_vectors_on_every_path() {
    check_encrypt_file("encrypt.json", 1024);
}

#[test]
fn encrypt_variant_vectors_on_every_path() {
    check_encrypt_file("encrypt_16_byte_key.json", 4);
    check_encrypt_file("encrypt_33_byte_ad.json", 4);
    check_encrypt_file("encrypt_no_ad.json", 4);
}

/// Long messages (every pair-count and fragment length past the vectors' 511 bytes) agree
/// across paths and round-trip, with tau 0, 16 and a long tau.
#[test]
fn long_messages_agree_across_paths_and_round_trip() {
    let key = b"a key of an unusual length";
    let nonce = [9u8; 16];
    let ad: [&[u8]; 2] = [b"header", b""];
    let reference = Aez::with_backend(key, BackendKind::Ct64).unwrap();
    for len in [0usize, 1, 15, 31, 32, 33, 47, 48, 63, 64, 65, 96, 1000, 1024 + 17, 4096 + 31, 20000] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        for tau in [0usize, 16, 40] {
            let c = reference.encrypt(&nonce, &ad, tau, &msg).unwrap();
            assert_eq!(c.len(), len + tau);
            for kind in paths() {
                let aez = Aez::with_backend(key, kind).unwrap();
                assert_eq!(aez.encrypt(&nonce, &ad, tau, &msg).unwrap(), c, "{kind} len {len} tau {tau}");
                assert_eq!(aez.decrypt(&nonce, &ad, tau, &c).unwrap(), msg, "{kind} len {len} tau {tau}");
            }
        }
    }
}

/// The register kernels run steps of up to 16 pairs, the last one partial, with the powers of
/// I filled 64 pairs ahead: every count of pairs from 0 to 70, and counts around 128, agree
/// with ct64 (which has no kernel) in both directions, with and without a fragment.
#[test]
fn every_pair_count_agrees_with_ct64() {
    let key = [0x5au8; 48];
    let reference = Aez::with_backend(&key, BackendKind::Ct64).unwrap();
    let kernels: Vec<Aez> = paths().into_iter().filter(|k| *k != BackendKind::Ct64).map(|k| Aez::with_backend(&key, k).unwrap()).collect();
    for pairs in (0..=70).chain(126..=130) {
        for frag in [0usize, 7, 16, 31] {
            // AEZ-core takes 32 · pairs + fragment + the final 32 bytes; τ = 16 is part of it.
            let len = 32 * pairs + frag + 16;
            let msg: Vec<u8> = (0..len).map(|i| (i * 31 + pairs) as u8).collect();
            let c = reference.encrypt(b"nonce", &[], 16, &msg).unwrap();
            for aez in &kernels {
                assert_eq!(aez.encrypt(b"nonce", &[], 16, &msg).unwrap(), c, "{} pairs {pairs} frag {frag}", aez.backend());
                assert_eq!(aez.decrypt(b"nonce", &[], 16, &c).unwrap(), msg, "{} pairs {pairs} frag {frag}", aez.backend());
            }
        }
    }
}

#[test]
fn failed_authentication_wipes_the_buffer_and_short_ciphertexts_are_errors() {
    let aez = Aez::new(b"k");
    let mut c = aez.encrypt(b"nonce", &[b"ad"], 16, b"a secret message of some length").unwrap();
    c[3] ^= 0x40;
    let mut buf = c.clone();
    assert_eq!(aez.decrypt_in_place(b"nonce", &[b"ad"], 16, &mut buf), Err(aeslab::Error::AuthenticationFailed));
    assert!(buf.iter().all(|&b| b == 0), "buffer wiped");
    assert!(matches!(aez.decrypt(b"nonce", &[b"ad"], 16, &c[..10]), Err(aeslab::Error::CiphertextTooShort { .. })));
    // Wrong AD, wrong nonce.
    let good = aez.encrypt(b"nonce", &[b"ad"], 16, b"m").unwrap();
    assert!(aez.decrypt(b"nonce", &[b"AD"], 16, &good).is_err());
    assert!(aez.decrypt(b"nonce!", &[b"ad"], 16, &good).is_err());
    assert!(Aez::with_backend(b"k", BackendKind::Table).is_err());
}

#[test]
fn aead_traits_round_trip_and_reject() {
    use aead::{Aead, AeadCore, KeyInit, Payload};
    let aez = <Aez as KeyInit>::new_from_slice(b"any length works").unwrap();
    let nonce = aead::Nonce::<Aez>::try_from(&[1u8; 16][..]).unwrap();
    let ct = Aead::encrypt(&aez, &nonce, Payload { msg: b"hello aead", aad: b"aad" }).unwrap();
    assert_eq!(ct.len(), 10 + 16);
    assert_eq!(ct, Aez::new(b"any length works").encrypt(&[1u8; 16], &[b"aad"], 16, b"hello aead").unwrap());
    assert_eq!(Aead::decrypt(&aez, &nonce, Payload { msg: &ct, aad: b"aad" }).unwrap(), b"hello aead");
    let mut bad = ct.clone();
    bad[0] ^= 1;
    assert!(Aead::decrypt(&aez, &nonce, Payload { msg: &bad, aad: b"aad" }).is_err());
    let _ = <Aez as AeadCore>::TAG_POSITION;
}
