//! Every available AES backend against known answers and against OpenSSL.

mod common;

use aeslab::Block;
use aeslab::aes::{AnyAes, BackendKind, default_backend};
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
use openssl::symm::{Cipher, Crypter, Mode};
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
use rand::rngs::StdRng;
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
use rand::{Rng, SeedableRng};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn blocks_of(bytes: &[u8]) -> Vec<Block> {
    bytes.chunks_exact(16).map(|c| c.try_into().unwrap()).collect()
}

fn available() -> Vec<BackendKind> {
    let kinds = common::aes_backends("tests/block_cipher.rs");
    // The portable backends must always be there.
    assert!(kinds.contains(&BackendKind::Table) && kinds.contains(&BackendKind::Ct64));
    kinds
}

/// (key, plaintext, ciphertext): FIPS-197 Appendix C.1–C.3.
const FIPS197_C: &[(&str, &str, &str)] = &[
    ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    (
        "000102030405060708090a0b0c0d0e0f1011121314151617",
        "00112233445566778899aabbccddeeff",
        "dda97ca4864cdfe06eaf70a0ec0d7191",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "00112233445566778899aabbccddeeff",
        "8ea2b7ca516745bfeafc49904b496089",
    ),
];

const SP800_38A_PLAINTEXT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

/// (key, ciphertext): SP 800-38A F.1.1/F.1.3/F.1.5 (ECB encrypt; F.1.2/4/6 are the decryptions).
const SP800_38A_ECB: &[(&str, &str)] = &[
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf\
43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
    ),
    (
        "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        "bd334f1d6e45f25ff712a214571fa5cc974104846d0ad3ad7734ecb3ecee4eef\
ef7afd2270e2e60adce0ba2face6444e9a4b41ba738d6c72fb16691603c18e0e",
    ),
    (
        "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870\
b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
    ),
];

#[test]
fn fips197_appendix_c_on_every_backend() {
    for kind in available() {
        for (key, pt, ct) in FIPS197_C {
            let aes = AnyAes::new_variable_time(kind, &h(key)).unwrap();
            let mut b = blocks_of(&h(pt));
            aes.encrypt_blocks(&mut b);
            assert_eq!(hex::encode(b[0]), *ct, "{kind} encrypt, key {key}");
            aes.decrypt_blocks(&mut b);
            assert_eq!(hex::encode(b[0]), *pt, "{kind} decrypt, key {key}");
        }
    }
}

#[test]
fn sp800_38a_f1_ecb_on_every_backend() {
    for kind in available() {
        for (key, ct) in SP800_38A_ECB {
            let aes = AnyAes::new_variable_time(kind, &h(key)).unwrap();
            // All four blocks in one call (a partial batch) and one block per call.
            let mut together = blocks_of(&h(SP800_38A_PLAINTEXT));
            aes.encrypt_blocks(&mut together);
            assert_eq!(hex::encode(together.concat()), *ct, "{kind} ECB encrypt, key {key}");
            let mut single = blocks_of(&h(SP800_38A_PLAINTEXT));
            for b in single.iter_mut() {
                aes.encrypt_blocks(std::slice::from_mut(b));
            }
            assert_eq!(together, single, "{kind} one block at a time");
            aes.decrypt_blocks(&mut together);
            assert_eq!(hex::encode(together.concat()), SP800_38A_PLAINTEXT, "{kind} ECB decrypt, key {key}");
        }
    }
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn openssl_ecb(key: &[u8], data: &[u8], mode: Mode) -> Vec<u8> {
    let cipher = match key.len() {
        16 => Cipher::aes_128_ecb(),
        24 => Cipher::aes_192_ecb(),
        _ => Cipher::aes_256_ecb(),
    };
    let mut c = Crypter::new(cipher, mode, key, None).unwrap();
    c.pad(false);
    let mut out = vec![0u8; data.len() + 16];
    let n = c.update(data, &mut out).unwrap();
    let m = c.finalize(&mut out[n..]).unwrap();
    out.truncate(n + m);
    out
}

/// 10 000 random keys and batches per backend; batch lengths 1 ..= 3 × (largest batch) + 1 so
/// that every full-batch, partial-batch and single-register tail path runs.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn every_backend_matches_openssl_on_random_inputs() {
    let max_batch = BackendKind::ALL.iter().map(|k| k.batch()).max().unwrap();
    let mut rng = StdRng::seed_from_u64(0x00ae_51ab);
    for kind in available() {
        for i in 0..10_000 {
            let key_len = [16, 24, 32][i % 3];
            let mut key = vec![0u8; key_len];
            rng.fill(&mut key[..]);
            // Every length in turn, so each backend sees all of 1..=3·max+1 many times.
            let n = 1 + i % (3 * max_batch + 1);
            let mut data = vec![0u8; 16 * n];
            rng.fill(&mut data[..]);

            let aes = AnyAes::new_variable_time(kind, &key).unwrap();
            let mut b = blocks_of(&data);
            aes.encrypt_blocks(&mut b);
            let ct = b.concat();
            assert_eq!(ct, openssl_ecb(&key, &data, Mode::Encrypt), "{kind} encrypt, case {i}");
            aes.decrypt_blocks(&mut b);
            assert_eq!(b.concat(), data, "{kind} decrypt, case {i}");
            assert_eq!(openssl_ecb(&key, &ct, Mode::Decrypt), data);
        }
    }
}

#[test]
fn dispatch_never_picks_table_and_picks_an_available_constant_time_backend() {
    let d = default_backend();
    assert_ne!(d, BackendKind::Table);
    assert!(d.constant_time() && d.available());
    assert!(!BackendKind::Table.constant_time());
    assert_eq!(AnyAes::new_default(&[0u8; 16]).unwrap().kind(), d);
    // The default is the fastest available: nothing preferred over it may be available.
    #[cfg(target_arch = "x86_64")]
    if BackendKind::Vaes512.available() {
        assert_eq!(d, BackendKind::Vaes512);
    }
}

#[test]
fn unknown_and_unavailable_backends_are_errors() {
    let err = AnyAes::with_backend_name("aes-magic", &[0u8; 16]).err().unwrap();
    assert!(err.to_string().contains("unknown backend `aes-magic`"), "{err}");
    for kind in BackendKind::ALL.iter().filter(|k| !k.available()) {
        let err = AnyAes::new_variable_time(*kind, &[0u8; 16]).err().unwrap();
        assert!(err.to_string().contains("not available on this CPU"), "{err}");
    }
}

#[test]
fn names_round_trip_and_bad_key_lengths_are_errors() {
    for kind in BackendKind::ALL {
        assert_eq!(BackendKind::from_name(kind.name()).unwrap(), *kind);
        if kind.available() {
            for len in [0, 15, 17, 31, 33] {
                let err = AnyAes::new_variable_time(*kind, &vec![0u8; len]).err().unwrap();
                assert_eq!(err, aeslab::Error::InvalidKeyLength(len));
            }
        }
    }
}
