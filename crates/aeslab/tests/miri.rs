//! The subset that runs under Miri (`scripts/miri.sh`, in CI): short inputs through the
//! portable backend and, where Miri is built with the instructions enabled, the AES-NI one —
//! every kernel's edge cases in a few blocks (partial registers, a unit with no pairs in
//! AEZ's kernels, GCM's tail through its byte moves and one whole group of its loop, CTR's
//! partial blocks), with no FFI (no OpenSSL).
//! Outputs are checked between backends and by round trips; the known answers are checked
//! by the other tests, at full speed.
//!
//! Under plain `cargo test` it runs too, in a moment.

use aeslab::aes::{AnyAes, BackendKind};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use aeslab::gcm::{Gcm, GhashImpl};

/// The backends to compare: the portable `ct64`, and each other constant-time one this build
/// can run.
fn backends() -> Vec<BackendKind> {
    BackendKind::available_kinds().filter(|k| k.constant_time()).collect()
}

#[test]
fn aez_short_messages_agree_between_backends_and_round_trip() {
    // Lengths around AEZ's cases: empty, under 16, 16..32 (AEZ-tiny), and AEZ-core with a
    // final partial pair (its kernels' units with some or no pairs).
    for len in [0usize, 1, 15, 16, 17, 31, 32, 33, 47, 64, 65, 97] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
        let mut expect: Option<Vec<u8>> = None;
        for kind in backends() {
            let aez = Aez::with_backend(b"miri key", kind).unwrap();
            let sealed = aez.encrypt(b"nonce", &[b"ad"], 16, &msg).unwrap();
            assert_eq!(aez.decrypt(b"nonce", &[b"ad"], 16, &sealed).unwrap(), msg, "{kind} {len}");
            match &expect {
                Some(e) => assert_eq!(&sealed, e, "{kind} {len}"),
                None => expect = Some(sealed),
            }
        }
    }
}

#[test]
fn ctr_and_gcm_short_messages_agree_between_backends() {
    let key = [0x42u8; 16];
    // The 32-bit counter two blocks before the end of its space: the stream stops there.
    let mut iv = [0x24u8; 16];
    iv[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xfd]);
    for len in [0usize, 1, 15, 16, 17, 40, 48] {
        let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let mut expect: Option<(Vec<u8>, Vec<u8>)> = None;
        for kind in backends() {
            let mut ctr = data.clone();
            let mut stream = DynCtr::new(&key, &iv, kind, FaceLevel::None, Counter::Be32).unwrap();
            stream.try_apply_keystream(&mut ctr[..len.min(20)]).unwrap();
            stream.try_apply_keystream(&mut ctr[len.min(20)..]).unwrap();
            assert!(stream.try_apply_keystream(&mut [0u8; 1]).is_err() == (len == 48), "{kind} {len}");
            let ghash = if kind == BackendKind::Ct64 { GhashImpl::Portable } else { GhashImpl::fastest() };
            let gcm = Gcm::with_options(&key, kind, FaceLevel::None, ghash, 16).unwrap();
            let sealed = gcm.seal(&iv[..12], b"header", &data).unwrap();
            assert_eq!(gcm.open(&iv[..12], b"header", &sealed).unwrap(), data, "{kind} {len}");
            match &expect {
                Some((c, s)) => assert!(c == &ctr && s == &sealed, "{kind} {len}"),
                None => expect = Some((ctr, sealed)),
            }
        }
    }
}

/// GCM messages with whole groups (8 blocks on AES-NI): the loop, sealing's last group hashed in
/// the tail's rounds, and the Karatsuba halves the kernel makes only for such messages.
#[test]
fn gcm_messages_with_whole_groups_agree_between_backends() {
    let key = [0x17u8; 16];
    for len in [128usize, 131] {
        let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
        let mut expect: Option<Vec<u8>> = None;
        for kind in backends() {
            let ghash = if kind == BackendKind::Ct64 { GhashImpl::Portable } else { GhashImpl::fastest() };
            let gcm = Gcm::with_options(&key, kind, FaceLevel::None, ghash, 16).unwrap();
            let sealed = gcm.seal(&[9u8; 12], b"", &data).unwrap();
            assert_eq!(gcm.open(&[9u8; 12], b"", &sealed).unwrap(), data, "{kind} {len}");
            match &expect {
                Some(s) => assert!(s == &sealed, "{kind} {len}"),
                None => expect = Some(sealed),
            }
        }
    }
}

#[test]
fn block_cipher_round_trips_on_every_backend() {
    for kind in backends() {
        for key_len in [16, 24, 32] {
            let aes = AnyAes::new(kind, &[7u8; 32][..key_len]).unwrap();
            let mut blocks = [[0x5au8; 16]; 3];
            aes.encrypt_blocks(&mut blocks);
            aes.decrypt_blocks(&mut blocks);
            assert_eq!(blocks, [[0x5a; 16]; 3], "{kind} AES-{}", key_len * 8);
        }
    }
}

/// With AES-NI enabled in the build (as `scripts/miri-ci.sh` builds), detection offers the
/// AES-NI backend — under Miri from the compile-time features, since Miri has no CPUID — so
/// the tests above run its kernels and not only `ct64`.
#[cfg(all(target_arch = "x86_64", target_feature = "aes", target_feature = "ssse3"))]
#[test]
fn the_aes_ni_backend_runs_when_the_build_enables_it() {
    assert!(backends().contains(&BackendKind::Aesni), "{:?}", backends());
}
