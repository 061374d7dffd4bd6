//! AES-CTR with every FACE level on every backend: SP 800-38A F.5, OpenSSL (Ctr128BE), an
//! independent Ctr32BE reference, and each backend's own `none` path, with counters started
//! just before every carry FACE cares about.

mod common;

use aeslab::aes::BackendKind;
use aeslab::ctr::{Aes128Ctr, Aes128Ctr32, Aes256Ctr, Counter, DynCtr, FaceLevel, face_min_call_blocks, face_pays_from_blocks};
use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
use openssl::symm::{Cipher, encrypt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn combos() -> Vec<(BackendKind, FaceLevel)> {
    let mut v = Vec::new();
    for kind in common::aes_backends("tests/ctr.rs") {
        for level in FaceLevel::ALL {
            v.push((kind, level));
        }
    }
    assert!(v.len() >= 2 * 6, "table and ct64 at least");
    v
}

const F5_IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const F5_PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
/// (key, ciphertext) of SP 800-38A F.5.1 / F.5.3 / F.5.5; F.5.2/4/6 decrypt them back.
const F5: &[(&str, &str)] = &[
    (
        "2b7e151628aed2a6abf7158809cf4f3c",
        "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
    ),
    (
        "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94\
1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050",
    ),
    (
        "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5\
2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
    ),
];

#[test]
fn sp800_38a_f5_on_every_backend_and_level() {
    for (kind, level) in combos() {
        for (key, ct) in F5 {
            // `precompute`: FACE from the first block (a stream builds its table only once it
            // pays, which four blocks never do).
            let mut c = DynCtr::new_variable_time(&h(key), &h(F5_IV), kind, level, Counter::Be128).unwrap();
            c.precompute();
            let mut buf = h(F5_PT);
            c.apply_keystream(&mut buf);
            assert_eq!(hex::encode(&buf), *ct, "{kind} {level} encrypt key {key}");
            let mut d = DynCtr::new_variable_time(&h(key), &h(F5_IV), kind, level, Counter::Be128).unwrap();
            d.precompute();
            d.apply_keystream(&mut buf);
            assert_eq!(hex::encode(&buf), F5_PT, "{kind} {level} decrypt key {key}");
        }
    }
}

/// CTR with a 128-bit big-endian counter: OpenSSL's `aes-*-ctr` wherever the system has
/// OpenSSL.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn reference_ctr128(key: &[u8], iv: &[u8], data: &[u8]) -> Vec<u8> {
    let cipher = match key.len() {
        16 => Cipher::aes_128_ctr(),
        24 => Cipher::aes_192_ctr(),
        _ => Cipher::aes_256_ctr(),
    };
    encrypt(cipher, key, Some(iv), data).unwrap()
}

/// On 32-bit x86 and big-endian targets (no OpenSSL for the tests there): from first
/// principles, as below.
#[cfg(any(target_arch = "x86", target_endian = "big"))]
fn reference_ctr128(key: &[u8], iv: &[u8], data: &[u8]) -> Vec<u8> {
    let c0 = u128::from_be_bytes(iv.try_into().unwrap());
    rustcrypto_ctr(key, data, |i| c0.wrapping_add(i as u128).to_be_bytes())
}

/// Ctr32BE from first principles: nonce ‖ (c + i mod 2^32).
fn reference_ctr32(key: &[u8], iv: &[u8], data: &[u8]) -> Vec<u8> {
    let c0 = u32::from_be_bytes(iv[12..16].try_into().unwrap());
    rustcrypto_ctr(key, data, |i| {
        let mut block = [0u8; 16];
        block[..12].copy_from_slice(&iv[..12]);
        block[12..].copy_from_slice(&c0.wrapping_add(i as u32).to_be_bytes());
        block
    })
}

/// `data` XOR the encryptions of `counter(0)`, `counter(1)`, … under RustCrypto's `aes` 0.9,
/// an implementation independent of aeslab.
fn rustcrypto_ctr(key: &[u8], data: &[u8], counter: impl Fn(usize) -> [u8; 16]) -> Vec<u8> {
    use aes09::cipher::{BlockCipherEncrypt, KeyInit};
    fn keystream<C: BlockCipherEncrypt + KeyInit>(key: &[u8], counters: &[[u8; 16]]) -> Vec<u8> {
        let cipher = C::new_from_slice(key).unwrap();
        let mut ks = Vec::with_capacity(16 * counters.len());
        for counter in counters {
            let mut block = aes09::cipher::Block::<C>::try_from(&counter[..]).unwrap();
            cipher.encrypt_block(&mut block);
            ks.extend_from_slice(&block);
        }
        ks
    }
    let counters: Vec<[u8; 16]> = (0..data.len().div_ceil(16)).map(counter).collect();
    let ks = match key.len() {
        16 => keystream::<aes09::Aes128>(key, &counters),
        24 => keystream::<aes09::Aes192>(key, &counters),
        _ => keystream::<aes09::Aes256>(key, &counters),
    };
    data.iter().zip(ks).map(|(d, k)| d ^ k).collect()
}

/// Start counters just before each carry: byte 15, byte 14, the 32-bit wrap, a change of
/// byte 10 (the rd1p/rd2p table rebuild), the 128-bit wrap to zero, and a random one.
fn start_counters(rng: &mut StdRng) -> Vec<[u8; 16]> {
    let mut random = [0u8; 16];
    rng.fill(&mut random[..]);
    let mut with_tail = |tail: &[u8]| {
        let mut c = [0u8; 16];
        rng.fill(&mut c[..]);
        c[16 - tail.len()..].copy_from_slice(tail);
        c
    };
    let back = |n: u8| 0u8.wrapping_sub(n);
    vec![
        with_tail(&[back(3)]),                                   // byte 15 wraps after 3 blocks
        with_tail(&[0xff, back(7)]),                             // byte 14 wraps
        with_tail(&[0xff, 0xff, 0xff, back(40)]),                // 32-bit wrap
        with_tail(&[0x00, 0xff, 0xff, 0xff, 0xff, back(50)]),    // carry into byte 10
        [0xff; 15].into_iter().chain([back(20)]).collect::<Vec<_>>().try_into().unwrap(), // 2^128 wrap
        random,
    ]
}

/// Keystream bytes from first counter block `iv` to the end of the counter space.
fn room_bytes(iv: &[u8; 16], counter: Counter) -> u128 {
    let c = u128::from_be_bytes(*iv);
    let blocks = match counter {
        Counter::Be128 => (u128::MAX - c).saturating_add(1),
        Counter::Be32 => u128::from(u32::MAX - c as u32) + 1,
    };
    blocks.saturating_mul(16)
}

/// Applies the keystream to `data` in random chunks (some of them 0 bytes or one byte).
fn apply_chunked(c: &mut DynCtr, data: &mut [u8], rng: &mut StdRng) {
    let mut at = 0;
    while at < data.len() {
        let n = match rng.random_range(0..4) {
            0 => rng.random_range(0..=17),
            1 => rng.random_range(0..=600),
            _ => rng.random_range(0..=20_000),
        }
        .min(data.len() - at);
        c.apply_keystream(&mut data[at..at + n]);
        at += n;
    }
}

#[test]
fn every_backend_and_level_matches_openssl_and_ctr32_reference() {
    let mut rng = StdRng::seed_from_u64(0xFACE);
    for (kind, level) in combos() {
        for key_len in [16, 24, 32] {
            for (case, iv) in start_counters(&mut rng).into_iter().enumerate() {
                let mut key = vec![0u8; key_len];
                rng.fill(&mut key[..]);
                let len = if case == 0 { rng.random_range(0..70_000) } else { rng.random_range(0..12_000) };
                let mut data = vec![0u8; len];
                rng.fill(&mut data[..]);

                for counter in [Counter::Be128, Counter::Be32] {
                    let wrap32 = counter == Counter::Be32;
                    // Up to the end of the counter space, which the stream refuses to pass.
                    let room = usize::try_from(room_bytes(&iv, counter)).unwrap_or(usize::MAX);
                    let len = len.min(room);
                    let data = &data[..len];
                    let expect = if wrap32 { reference_ctr32(&key, &iv, data) } else { reference_ctr128(&key, &iv, data) };
                    let what = format!("{kind} {level} AES-{} ctr{} case {case} len {len}", key_len * 8, if wrap32 { 32 } else { 128 });

                    let mut c = DynCtr::new_variable_time(&key, &iv, kind, level, counter).unwrap();
                    c.precompute();
                    let mut buf = data.to_vec();
                    apply_chunked(&mut c, &mut buf, &mut rng);
                    assert!(buf == expect, "{what}: chunked");
                    assert_eq!(c.position(), len as u128);
                    if len == room {
                        // At the end: one more byte is refused and left as it was.
                        let mut one = [7u8];
                        assert!(c.try_apply_keystream(&mut one).is_err(), "{what}: past the end");
                        assert_eq!(one, [7]);
                    }

                    // Seek to a random byte and decrypt from there.
                    if len > 0 {
                        let at = rng.random_range(0..len);
                        let mut d = DynCtr::new_variable_time(&key, &iv, kind, level, counter).unwrap();
                        d.seek_to(at as u128);
                        d.precompute();
                        let mut tail = expect[at..].to_vec();
                        d.apply_keystream(&mut tail);
                        assert!(tail == data[at..], "{what}: seek to {at}");
                    }
                }
            }
        }
    }
}

/// One message per call, as a user encrypts a record, at every length to 1100 bytes (more than
/// two zmm groups of 512): the short paths (a register per block, and on zmm the last register
/// through byte masks) and every tail shape, on every backend through `AesCtr::with_options`
/// at plain CTR and through `new`, with AES-128 and AES-256, against OpenSSL; each from a
/// counter 3 blocks before its low 32 bits carry.
#[test]
fn one_message_per_call_at_every_length_matches_openssl() {
    let mut rng = StdRng::seed_from_u64(0xC0DE);
    let kinds = common::aes_backends("tests/ctr.rs, one message per call");
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for len in 0..=1100 {
            let mut iv: [u8; 16] = rng.random();
            iv[12..].copy_from_slice(&(u32::MAX - 2).to_be_bytes());
            let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let expect = reference_ctr128(&key, &iv, &data);
            let mut got = data.clone();
            if key_len == 16 {
                Aes128Ctr::new(key.as_slice().try_into().unwrap(), &iv.into()).apply_keystream(&mut got);
            } else {
                Aes256Ctr::new(key.as_slice().try_into().unwrap(), &iv.into()).apply_keystream(&mut got);
            }
            assert!(got == expect, "new, AES-{} len {len}", key_len * 8);
            for &kind in &kinds {
                let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::None, Counter::Be128).unwrap();
                let mut got = data.clone();
                c.apply_keystream(&mut got);
                assert!(got == expect, "{kind}, AES-{} len {len}", key_len * 8);
            }
        }
    }
}

/// Messages that end at, just before and just after a 4 KiB boundary, in place, on every
/// backend, with and without FACE, against the reference. On the vector backends such a
/// message's last register would be read through a mask reaching the next page, and runs in a
/// copy instead (`ctr/insn.rs`, `masked_register_reaching_next_page`; FACE's last registers run
/// as plain CTR).
#[test]
fn messages_ending_at_a_page_boundary_match_the_reference() {
    let mut rng = StdRng::seed_from_u64(0x9A6E);
    let (mut memory, boundary) = common::memory_around_a_page_boundary();
    for key_len in [16, 32] {
        let key: Vec<u8> = (0..key_len).map(|_| rng.random()).collect();
        for len in [1, 15, 16, 17, 20, 31, 32, 33, 48, 63, 64, 65, 100, 127, 128, 129, 144, 255, 256, 257, 1000, 1420, 2000, 4096] {
            for end in [boundary, boundary - 1, boundary - 13, boundary - 16, boundary - 17, boundary + 1] {
                let iv: [u8; 16] = rng.random();
                let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
                let expect = reference_ctr128(&key, &iv, &data);
                for (kind, level) in combos() {
                    let mut c = DynCtr::new_variable_time(&key, &iv, kind, level, Counter::Be128).unwrap();
                    // FACE from the first block (with the table built, a call of enough blocks runs it).
                    c.precompute();
                    let buf = &mut memory[end - len..end];
                    buf.copy_from_slice(&data);
                    c.apply_keystream(buf);
                    assert!(buf == &expect[..], "{kind} {level} AES-{} len {len}, {} bytes from the boundary", key_len * 8, boundary as isize - end as isize);
                }
            }
        }
    }
}

/// Each FACE level against the same backend's `none` path, both counter modes, long runs
/// (several segments) from a counter 3 blocks before byte 14 carries.
#[test]
fn every_level_matches_the_backends_own_plain_path() {
    let mut rng = StdRng::seed_from_u64(7);
    for kind in common::aes_backends("tests/ctr.rs") {
        for counter in [Counter::Be128, Counter::Be32] {
            let mut key = [0u8; 32];
            rng.fill(&mut key[..]);
            let mut iv = [0u8; 16];
            rng.fill(&mut iv[..]);
            iv[14] = 0xff;
            iv[15] = 0xfd;
            let data: Vec<u8> = (0..40_000u32).map(|i| i as u8).collect();
            let mut plain = data.clone();
            DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::None, counter).unwrap().apply_keystream(&mut plain);
            for level in FaceLevel::ALL {
                let mut buf = data.clone();
                DynCtr::new_variable_time(&key, &iv, kind, level, counter).unwrap().apply_keystream(&mut buf);
                assert!(buf == plain, "{kind} {level} {counter:?}");
            }
        }
    }
}

/// FACE's table is built once it pays: not for short messages under fresh nonces, but after
/// `face_pays_from_blocks(backend)` blocks of one stream in short calls, or at once for a long
/// call; the keystream is the same either way.
#[test]
fn face_table_is_built_once_it_pays() {
    let key = [3u8; 16];
    let kind = aeslab::aes::default_backend();
    let pays = face_pays_from_blocks(kind);
    let mut rng = StdRng::seed_from_u64(0x0512);
    // Fresh nonces, 64 bytes each: never.
    for _ in 0..100 {
        let mut iv = [0u8; 16];
        rng.fill(&mut iv[..]);
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        let mut msg = [0u8; 64];
        c.apply_keystream(&mut msg);
        assert!(!c.uses_face());
        assert_eq!(msg.to_vec(), reference_ctr128(&key, &iv, &[0u8; 64]));
    }
    // With AES-128 and AES-256, whose shortest FACE call may differ (`vaes512` on Zen 5).
    for (key, rounds) in [(vec![3u8; 16], 10), (vec![3u8; 32], 14)] {
        // One stream in calls of the fewest blocks FACE runs: plain until `pays` blocks, FACE
        // from then on.
        let iv = [0x42u8; 16];
        let total = 64 * 1024;
        let expect = reference_ctr128(&key, &iv, &vec![0u8; total]);
        let call = face_min_call_blocks(kind, rounds);
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        let mut buf = vec![0u8; total];
        for (i, chunk) in buf.chunks_mut(16 * call).enumerate() {
            c.apply_keystream(chunk);
            assert_eq!(c.uses_face(), (i + 1) * call >= pays, "after {} blocks", (i + 1) * call);
        }
        assert!(buf == expect);
        // In calls one block shorter: never, as plain CTR is faster on them even with a table.
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        let mut buf = vec![0u8; total];
        for chunk in buf.chunks_mut(16 * (call - 1)) {
            c.apply_keystream(chunk);
        }
        assert!(!c.uses_face());
        assert!(buf == expect);
        // Once the table is built, a call that short (run plain) still gives the right keystream.
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        c.precompute();
        let mut buf = vec![0u8; 16 * call];
        c.apply_keystream(&mut buf[..16 * (call - 1)]);
        assert!(c.uses_face(), "the kept table still holds the counter");
        c.apply_keystream(&mut buf[16 * (call - 1)..]);
        assert!(buf == expect[..buf.len()]);
        // One long call: at once.
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        let mut buf = vec![0u8; 16 * pays];
        c.apply_keystream(&mut buf);
        assert!(c.uses_face());
        assert!(buf == expect[..buf.len()]);
        // And never at level none.
        let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::None, Counter::Be128).unwrap();
        c.precompute();
        c.apply_keystream(&mut buf);
        assert!(!c.uses_face());
    }
}

#[test]
fn rustcrypto_stream_traits_and_seek() {
    let key = h("2b7e151628aed2a6abf7158809cf4f3c");
    let iv = h(F5_IV);
    let mut c = Aes128Ctr::new_from_slices(&key, &iv).unwrap();
    let mut buf = h(F5_PT);
    c.apply_keystream(&mut buf);
    assert_eq!(hex::encode(&buf), F5[0].1);
    assert_eq!(c.current_pos::<u64>(), 64);

    // Seek back into the middle of a block and re-apply: the plaintext comes back.
    c.seek(21u64);
    assert_eq!(c.current_pos::<u64>(), 21);
    c.apply_keystream(&mut buf[21..]);
    assert_eq!(&buf[21..], &h(F5_PT)[21..]);

    let mut d = Aes256Ctr::new_from_slices(&h(F5[2].0), &iv).unwrap();
    let mut b = h(F5_PT);
    d.apply_keystream(&mut b);
    assert_eq!(hex::encode(&b), F5[2].1);

    assert!(Aes128Ctr::new_from_slices(&key[..15], &iv).is_err());
    assert!(Aes128Ctr32::new_from_slices(&key, &iv[..12]).is_err());
    assert!(DynCtr::new_variable_time(&key, &iv[..8], BackendKind::Ct64, FaceLevel::Rd2p, Counter::Be128).is_err());
    assert_eq!(FaceLevel::from_name("rd2p").unwrap(), FaceLevel::Rd2p);
    assert!(FaceLevel::from_name("rd3").is_err());
}

/// `from_cipher` on an expanded key gives the stream `new` gives on the raw key: SP 800-38A
/// F.5, then a long message (FACE pays on it) from counters just before a 32-bit and a 64-bit
/// carry (a 16-bit one for the 32-bit counter), against the reference and against `new`.
#[test]
fn from_cipher_is_new_on_an_expanded_key() {
    use aeslab::aes::{Aes128, Aes256};
    use cipher::KeyInit;
    let iv: cipher::Iv<Aes128Ctr> = h(F5_IV).as_slice().try_into().unwrap();
    let mut buf = h(F5_PT);
    Aes128Ctr::from_cipher(Aes128::new_from_slice(&h(F5[0].0)).unwrap(), &iv).apply_keystream(&mut buf);
    assert_eq!(hex::encode(&buf), F5[0].1);
    let mut buf = h(F5_PT);
    Aes256Ctr::from_cipher(Aes256::new_from_slice(&h(F5[2].0)).unwrap(), &iv).apply_keystream(&mut buf);
    assert_eq!(hex::encode(&buf), F5[2].1);

    let mut rng = StdRng::seed_from_u64(0x0f_c1_9e);
    let mut msg = vec![0u8; 9000 + 7];
    rng.fill(&mut msg[..]);
    for carry_byte in [12usize, 8] {
        let key: [u8; 16] = rng.random();
        let mut iv = [0u8; 16];
        rng.fill(&mut iv[..carry_byte]);
        iv[carry_byte..].fill(0xff);
        iv[15] = 0xf0;
        let iv = cipher::Iv::<Aes128Ctr>::from(iv);
        let (mut via_cipher, mut via_new) = (msg.clone(), msg.clone());
        Aes128Ctr::from_cipher(Aes128::new(&key.into()), &iv).apply_keystream(&mut via_cipher);
        Aes128Ctr::new(&key.into(), &iv).apply_keystream(&mut via_new);
        assert_eq!(via_cipher, reference_ctr128(&key, &iv, &msg), "carry at byte {carry_byte}");
        assert_eq!(via_cipher, via_new);

        // The 32-bit counter ends at 2^32 − 1 instead of carrying: cross its 16-bit carry.
        let mut iv = iv;
        iv[12..].copy_from_slice(&[0, 0, 0xff, 0xf0]);
        let (mut via_cipher, mut via_new) = (msg.clone(), msg.clone());
        Aes128Ctr32::from_cipher(Aes128::new(&key.into()), &iv).apply_keystream(&mut via_cipher);
        Aes128Ctr32::new(&key.into(), &iv).apply_keystream(&mut via_new);
        assert_eq!(via_cipher, reference_ctr32(&key, &iv, &msg));
        assert_eq!(via_cipher, via_new);
    }
}

#[test]
fn threaded_keystream_equals_single_threaded() {
    let key = [7u8; 16];
    let mut iv = [0u8; 16];
    iv[15] = 0xf0;
    let data: Vec<u8> = (0..(1 << 20) + 37).map(|i| (i * 31) as u8).collect();
    for kind in [aeslab::aes::default_backend(), BackendKind::Ct64] {
        let mut one = data.clone();
        let mut a = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
        a.apply_keystream(&mut one[..5]);
        a.apply_keystream(&mut one[5..]);
        for threads in [2, 3] {
            let mut many = data.clone();
            let mut b = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::Rd2p, Counter::Be128).unwrap();
            b.apply_keystream(&mut many[..5]);
            b.apply_keystream_threaded(&mut many[5..], threads);
            assert!(many == one, "{kind} {threads} threads");
            assert_eq!(b.position(), data.len() as u128);
        }
    }
}

/// The counter never wraps: a call that would run past counter 2^32 − 1 (32-bit) or 2^128 − 1
/// (128-bit) is refused, with the buffer left as it was, where it used to repeat keystream.
#[test]
fn the_counter_space_ends_instead_of_wrapping() {
    use aeslab::Error;
    let key = [0u8; 16];
    for kind in common::aes_backends("tests/ctr.rs") {
        for (counter, iv, bits) in [
            (Counter::Be32, [[0x11u8; 12].as_slice(), &[0xff; 4]].concat(), 32),
            (Counter::Be128, vec![0xff; 16], 128),
        ] {
            let mut c = DynCtr::new_variable_time(&key, &iv, kind, FaceLevel::FASTEST, counter).unwrap();
            assert_eq!(c.remaining(), 16);
            let mut buf = [0u8; 32];
            let err = c.try_apply_keystream(&mut buf).unwrap_err();
            assert_eq!(err, Error::CounterExhausted { counter_bits: bits, requested: 32, remaining: 16 }, "{kind}");
            assert_eq!((buf, c.position()), ([0; 32], 0), "{kind}: nothing done");
            // The last block is there, and then nothing.
            c.try_apply_keystream(&mut buf[..10]).unwrap();
            c.try_apply_keystream(&mut buf[10..16]).unwrap();
            let iv16: [u8; 16] = iv.as_slice().try_into().unwrap();
            assert_eq!(&buf[..16], &reference_ctr32(&key, &iv16, &[0; 16])[..], "{kind}");
            assert!(c.try_apply_keystream(&mut buf[16..17]).is_err(), "{kind}");
            assert!(c.try_apply_keystream(&mut []).is_ok(), "{kind}: nothing is always fine");
        }
    }
    // Through the RustCrypto traits: `try_apply_keystream` and seeking past the end fail.
    let mut iv = [0u8; 16];
    iv[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xfe]);
    let mut c = Aes128Ctr32::new_from_slices(&key, &iv).unwrap();
    assert!(c.try_apply_keystream(&mut [0u8; 33]).is_err());
    assert!(c.try_apply_keystream(&mut [0u8; 32]).is_ok());
    assert!(c.try_apply_keystream(&mut [0u8; 1]).is_err());
    assert!(c.try_seek(32u64).is_ok());
    assert!(c.try_seek(33u64).is_err());
}

#[test]
#[should_panic(expected = "end of keystream reached")]
fn apply_keystream_panics_past_the_end_as_rustcrypto_does() {
    let mut iv = [0u8; 16];
    iv[12..].copy_from_slice(&[0xff; 4]);
    let mut c = Aes128Ctr32::new_from_slices(&[0u8; 16], &iv).unwrap();
    c.apply_keystream(&mut [0u8; 17]);
}
