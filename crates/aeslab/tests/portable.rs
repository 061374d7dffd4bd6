//! The portable code — the `ct64` and `table` backends, the FACE cache at every level, AEZ on
//! `ct64`, ACE on `scalar` — on inputs small enough for Miri. `scripts/miri.sh` runs this file
//! and the library's unit tests under `cargo +nightly miri test`, where undefined behaviour (an
//! index out of bounds, an unaligned or uninitialised read, a bad pointer cast) stops the run.
//! The ordinary `cargo test` runs it too; the large sweeps are in the other test files.

mod common;

use aeslab::ace::{AceAe128, AceBackend, AceHash256};
use aeslab::aes::{AnyAes, BackendKind};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use common::{aez_vectors, field16, hex_of, lwc_cases};

const PORTABLE: [BackendKind; 2] = [BackendKind::Ct64, BackendKind::Table];

/// Vectors per file: enough to reach every code path, few enough for Miri (where one ACE-AE
/// case takes about a minute).
const CASES: usize = if cfg!(miri) { 2 } else { 6 };

#[test]
fn fips197_blocks_on_the_portable_backends() {
    let key: Vec<u8> = (0u8..32).collect();
    let pt: [u8; 16] = hex::decode("00112233445566778899aabbccddeeff").unwrap().try_into().unwrap();
    for kind in PORTABLE {
        for (len, ct) in [
            (16, "69c4e0d86a7b0430d8cdb78070b4c55a"),
            (24, "dda97ca4864cdfe06eaf70a0ec0d7191"),
            (32, "8ea2b7ca516745bfeafc49904b496089"),
        ] {
            let aes = AnyAes::new_variable_time(kind, &key[..len]).unwrap();
            // Five blocks: one full ct64 batch of four and a tail of one.
            let mut blocks = [pt; 5];
            aes.encrypt_blocks(&mut blocks);
            assert!(blocks.iter().all(|b| hex::encode(b) == ct), "{kind} AES-{}", len * 8);
            aes.decrypt_blocks(&mut blocks);
            assert_eq!(blocks, [pt; 5], "{kind} AES-{}", len * 8);
        }
    }
}

#[test]
fn face_cache_at_every_level_near_each_carry() {
    let key: Vec<u8> = (100u8..116).collect();
    // A few blocks before byte 15 carries, and before the end of the 32-bit and the 128-bit
    // counter spaces (3 blocks left: the data stops there, as the stream does).
    let starts = [
        (u128::from_be_bytes(*b"carry out of b15") | 0xfd, Counter::Be128, 6 * 16 + 5),
        ((0x0123_4567_89ab_cdef_u128 << 64) | 0xffff_fffd, Counter::Be32, 3 * 16),
        (u128::MAX - 2, Counter::Be128, 3 * 16),
    ];
    for kind in PORTABLE {
        for (iv, counter, len) in starts {
            let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut plain = data.clone();
            let mut ctr = DynCtr::new_variable_time(&key, &iv.to_be_bytes(), kind, FaceLevel::None, counter).unwrap();
            ctr.apply_keystream(&mut plain);
            for level in FaceLevel::ALL {
                // Starting mid-block, in two pieces: the partial-block and seek paths too.
                let mut buf = data.clone();
                let mut ctr = DynCtr::new_variable_time(&key, &iv.to_be_bytes(), kind, level, counter).unwrap();
                ctr.seek_to(3);
                ctr.precompute();
                ctr.apply_keystream(&mut buf[3..40]);
                ctr.apply_keystream(&mut buf[40..]);
                assert_eq!(buf[3..], plain[3..], "{kind} {level} iv {iv:032x}");
            }
        }
    }
}

#[test]
fn aez_on_ct64_matches_the_known_answers() {
    for case in aez_vectors("encrypt.json").iter().take(CASES) {
        let aez = Aez::with_backend(&hex_of(&case["k"]), BackendKind::Ct64).unwrap();
        let nonce = hex_of(&case["nonce"]);
        let data: Vec<Vec<u8>> = case["data"].as_array().unwrap().iter().map(hex_of).collect();
        let ad: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
        let tau = case["tau"].as_u64().unwrap() as usize;
        let (m, c) = (hex_of(&case["m"]), hex_of(&case["c"]));
        assert_eq!(aez.encrypt(&nonce, &ad, tau, &m).unwrap(), c);
        assert_eq!(aez.decrypt(&nonce, &ad, tau, &c).unwrap(), m);
    }
    // AEZ-core (messages of 32 bytes and more) and a rejected forgery.
    let aez = Aez::with_backend(b"key", BackendKind::Ct64).unwrap();
    let msg = [7u8; 70];
    let mut ct = aez.encrypt(b"n", &[b"ad"], 16, &msg).unwrap();
    assert_eq!(aez.decrypt(b"n", &[b"ad"], 16, &ct).unwrap(), msg);
    ct[0] ^= 1;
    assert!(aez.decrypt(b"n", &[b"ad"], 16, &ct).is_err());
}

#[test]
fn ace_on_scalar_matches_the_known_answers() {
    for case in lwc_cases("ACE.txt").iter().take(CASES) {
        let ace = AceAe128::with_backend(&field16(case, "Key"), AceBackend::Scalar).unwrap();
        let nonce = field16(case, "Nonce");
        assert_eq!(ace.seal(&nonce, &case["AD"], &case["PT"]), case["CT"]);
        assert_eq!(ace.open(&nonce, &case["AD"], &case["CT"]).unwrap(), case["PT"]);
    }
    let cases = lwc_cases("ACE-HASH.txt");
    let messages: Vec<&[u8]> = cases.iter().take(CASES).map(|c| c["Msg"].as_slice()).collect();
    let digests = AceHash256::hash_many_with(AceBackend::Scalar, &messages).unwrap();
    for (case, digest) in cases.iter().zip(digests) {
        assert_eq!(digest.to_vec(), case["MD"]);
    }
}
