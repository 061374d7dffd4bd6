//! Messages as a user's crate sends them, through the RustCrypto traits, against the peers:
//! one key object, a fresh nonce or IV per message, at 16 B to 64 KiB. AES-GCM seal and open
//! (aeslab's `Aes128Gcm`/`Aes256Gcm`, RustCrypto aes-gcm 0.11, ring 0.17, aws-lc-rs), AES-CTR
//! per message (`KeyIvInit::new` + `apply_keystream`, key set-up included: aeslab's `AesCtr`,
//! RustCrypto ctr 0.10 over aes 0.9; aws-lc-rs, whose API keeps one key and takes an IV per
//! message, and aeslab run the same way), and key set-up alone. aws-lc-rs is left out where
//! its dev-dependency is (32-bit x86 and big-endian targets).
//!
//! `cargo bench -p aeslab --bench messages` (criterion's own report; `aeslab bench ctr` and
//! `aeslab bench gcm` measure the same rows with the calibrated, interleaved timer).

use std::hint::black_box;

use aead::AeadInOut;
use cipher::{KeyInit, KeyIvInit, StreamCipher};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime};

const SIZES: [usize; 7] = [16, 64, 256, 1420, 4096, 16384, 65536];

/// The next 96-bit nonce of a counter (a fresh one per message).
fn nonce(n: &mut u64) -> [u8; 12] {
    *n += 1;
    let mut out = [0u8; 12];
    out[4..].copy_from_slice(&n.to_be_bytes());
    out
}

fn seal_rustcrypto<A>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, key: &[u8], size: usize)
where
    A: KeyInit + AeadInOut<NonceSize = cipher::consts::U12>,
{
    let aead = A::new_from_slice(key).unwrap();
    let (mut buf, mut n) = (vec![0u8; size], 0u64);
    g.bench_function(name, |b| {
        b.iter(|| black_box(aead.encrypt_inout_detached(&nonce(&mut n).into(), b"", buf.as_mut_slice().into()).unwrap()))
    });
}

// Opening: one nonce, and each timed open verifies and decrypts with nothing copied back. The
// message M sealed is C under tag T_C, and C sealed again is M under T_M (sealing XORs the same
// keystream), so opening C with T_C leaves M in the buffer and opening M with T_M leaves C: the
// iterations alternate the two tags.
const OPEN_NONCE: [u8; 12] = [7; 12];

fn open_rustcrypto<A>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, key: &[u8], size: usize)
where
    A: KeyInit + AeadInOut<NonceSize = cipher::consts::U12>,
{
    let aead = A::new_from_slice(key).unwrap();
    let mut buf = vec![0u8; size];
    let sealed_tag = aead.encrypt_inout_detached(&OPEN_NONCE.into(), b"", buf.as_mut_slice().into()).unwrap();
    let message_tag = aead.encrypt_inout_detached(&OPEN_NONCE.into(), b"", buf.clone().as_mut_slice().into()).unwrap();
    let (tags, mut next) = ([sealed_tag, message_tag], 0);
    g.bench_function(name, |b| {
        b.iter(|| {
            aead.decrypt_inout_detached(&OPEN_NONCE.into(), b"", black_box(buf.as_mut_slice()).into(), &tags[next]).unwrap();
            next ^= 1;
        })
    });
}

/// Sealing and opening through ring's `aead` API, which aws-lc-rs has too: `$krate` is either
/// crate. Opening as `open_rustcrypto` does, by `$open_call` (the crates' opening in place
/// takes its tag and its buffer differently).
macro_rules! ring_api_gcm {
    ($seal:ident, $open:ident, $krate:ident, $name:literal,
     open: |$k:ident, $nonce:ident, $tag:ident, $buf:ident| $open_call:expr) => {
        fn $seal(g: &mut BenchmarkGroup<'_, WallTime>, key: &[u8], size: usize) {
            use $krate::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
            let alg = if key.len() == 16 { &$krate::aead::AES_128_GCM } else { &$krate::aead::AES_256_GCM };
            let sealing_key = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
            let (mut buf, mut n) = (vec![0u8; size], 0u64);
            g.bench_function($name, |b| {
                b.iter(|| {
                    let nonce = Nonce::assume_unique_for_key(nonce(&mut n));
                    black_box(sealing_key.seal_in_place_separate_tag(nonce, Aad::empty(), &mut buf).unwrap())
                })
            });
        }

        fn $open(g: &mut BenchmarkGroup<'_, WallTime>, key: &[u8], size: usize) {
            use $krate::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
            let alg = if key.len() == 16 { &$krate::aead::AES_128_GCM } else { &$krate::aead::AES_256_GCM };
            let opening_key = LessSafeKey::new(UnboundKey::new(alg, key).unwrap());
            let seal = |buf: &mut [u8]| opening_key.seal_in_place_separate_tag(Nonce::assume_unique_for_key(OPEN_NONCE), Aad::empty(), buf).unwrap();
            let mut buf = vec![0u8; size];
            let sealed_tag = seal(&mut buf);
            let message_tag = seal(&mut buf.clone());
            let (tags, mut next) = ([sealed_tag, message_tag], 0);
            g.bench_function($name, |b| {
                b.iter(|| {
                    let ($k, $nonce, $tag, $buf) = (&opening_key, Nonce::assume_unique_for_key(OPEN_NONCE), &tags[next], black_box(&mut buf));
                    $open_call.unwrap();
                    next ^= 1;
                })
            });
        }
    };
}

ring_api_gcm!(seal_ring, open_ring, ring, "ring 0.17",
    open: |key, nonce, tag, buf| key.open_in_place_separate_tag(nonce, ring::aead::Aad::empty(), *tag, buf, 0..));
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
ring_api_gcm!(seal_aws_lc, open_aws_lc, aws_lc_rs, "aws-lc-rs",
    open: |key, nonce, tag, buf| key.open_in_place_separate_tag(nonce, aws_lc_rs::aead::Aad::empty(), tag.as_ref(), buf));

fn gcm(c: &mut Criterion) {
    for key in [vec![0x2bu8; 16], vec![0x2bu8; 32]] {
        let bits = key.len() * 8;
        for &size in &SIZES {
            let mut g = c.benchmark_group(format!("aes{bits}gcm-seal-{size}B"));
            g.throughput(Throughput::Bytes(size as u64));
            if bits == 128 {
                seal_rustcrypto::<aeslab::gcm::Aes128Gcm>(&mut g, "aeslab", &key, size);
                seal_rustcrypto::<aes_gcm011::Aes128Gcm>(&mut g, "aes-gcm 0.11", &key, size);
            } else {
                seal_rustcrypto::<aeslab::gcm::Aes256Gcm>(&mut g, "aeslab", &key, size);
                seal_rustcrypto::<aes_gcm011::Aes256Gcm>(&mut g, "aes-gcm 0.11", &key, size);
            }
            seal_ring(&mut g, &key, size);
            #[cfg(not(any(target_arch = "x86", target_endian = "big")))]
            seal_aws_lc(&mut g, &key, size);
            g.finish();

            let mut g = c.benchmark_group(format!("aes{bits}gcm-open-{size}B"));
            g.throughput(Throughput::Bytes(size as u64));
            if bits == 128 {
                open_rustcrypto::<aeslab::gcm::Aes128Gcm>(&mut g, "aeslab", &key, size);
                open_rustcrypto::<aes_gcm011::Aes128Gcm>(&mut g, "aes-gcm 0.11", &key, size);
            } else {
                open_rustcrypto::<aeslab::gcm::Aes256Gcm>(&mut g, "aeslab", &key, size);
                open_rustcrypto::<aes_gcm011::Aes256Gcm>(&mut g, "aes-gcm 0.11", &key, size);
            }
            open_ring(&mut g, &key, size);
            #[cfg(not(any(target_arch = "x86", target_endian = "big")))]
            open_aws_lc(&mut g, &key, size);
            g.finish();
        }
    }
}

/// A CTR IV for the next message: the next nonce, then a 32-bit block counter from 0.
fn fresh_iv(n: &mut u64) -> [u8; 16] {
    let mut iv = [0u8; 16];
    iv[..12].copy_from_slice(&nonce(n));
    iv
}

fn ctr_per_message<C: KeyIvInit<IvSize = cipher::consts::U16> + StreamCipher>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, key: &[u8], size: usize) {
    let key = cipher::Key::<C>::try_from(key).unwrap();
    let (mut buf, mut n) = (vec![0u8; size], 0u64);
    g.bench_function(name, |b| {
        b.iter(|| {
            C::new(&key, &fresh_iv(&mut n).into()).apply_keystream(black_box(&mut buf));
        })
    });
}

/// aeslab's AES-CTR as aws-lc-rs's row runs: one stream made once, restarted at a fresh IV for
/// each message (`DynCtr::restart`; the RustCrypto traits have no call that keeps a key and
/// takes a new IV, so this is aeslab's own API, beside the traits' row above).
fn ctr_one_key<K: aeslab::aes::AesKeySize>(g: &mut BenchmarkGroup<'_, WallTime>, key: &[u8], size: usize) {
    type Stream<K> = aeslab::ctr::AesCtr<K, aeslab::ctr::Ctr128BE>;
    let key = cipher::Key::<Stream<K>>::try_from(key).unwrap();
    let mut stream = Stream::<K>::new(&key, &Default::default());
    let (mut buf, mut n) = (vec![0u8; size], 0u64);
    g.bench_function("aeslab, one key restarted", |b| {
        b.iter(|| {
            stream.as_dyn_mut().restart(&fresh_iv(&mut n));
            stream.apply_keystream(black_box(&mut buf));
        })
    });
}

/// aws-lc-rs's AES-CTR: one key made once (its API takes the IV per call), a fresh IV per
/// message.
#[cfg(not(any(target_arch = "x86", target_endian = "big")))]
fn ctr_aws_lc(g: &mut BenchmarkGroup<'_, WallTime>, key: &[u8], size: usize) {
    use aws_lc_rs::cipher::{AES_128, AES_256, EncryptingKey, EncryptionContext, UnboundCipherKey};
    let alg = if key.len() == 16 { &AES_128 } else { &AES_256 };
    let ctr_key = EncryptingKey::ctr(UnboundCipherKey::new(alg, key).unwrap()).unwrap();
    let (mut buf, mut n) = (vec![0u8; size], 0u64);
    g.bench_function("aws-lc-rs", |b| {
        b.iter(|| {
            ctr_key.less_safe_encrypt(black_box(&mut buf), EncryptionContext::Iv128(fresh_iv(&mut n).into())).unwrap();
        })
    });
}

fn ctr(c: &mut Criterion) {
    for key in [vec![0x2bu8; 16], vec![0x2bu8; 32]] {
        let bits = key.len() * 8;
        for &size in &SIZES {
            let mut g = c.benchmark_group(format!("aes{bits}ctr-per-message-{size}B"));
            g.throughput(Throughput::Bytes(size as u64));
            if bits == 128 {
                ctr_per_message::<aeslab::ctr::Aes128Ctr>(&mut g, "aeslab", &key, size);
                ctr_one_key::<cipher::consts::U16>(&mut g, &key, size);
                ctr_per_message::<ctr010::Ctr128BE<aes09::Aes128>>(&mut g, "ctr 0.10 + aes 0.9", &key, size);
            } else {
                ctr_per_message::<aeslab::ctr::Aes256Ctr>(&mut g, "aeslab", &key, size);
                ctr_one_key::<cipher::consts::U32>(&mut g, &key, size);
                ctr_per_message::<ctr010::Ctr128BE<aes09::Aes256>>(&mut g, "ctr 0.10 + aes 0.9", &key, size);
            }
            #[cfg(not(any(target_arch = "x86", target_endian = "big")))]
            ctr_aws_lc(&mut g, &key, size);
            g.finish();
        }
    }
}

/// Times `make` as key set-up: the key object is made and dropped where it lives, and only a
/// reference to it goes to `black_box`. (Passed by value, `black_box` timed a move of the
/// object as well: a copy whose cost grows with its size, 264 bytes for aeslab's `Aes128`, 832
/// for its `Aes128Gcm`, and which waits on the stores that just made it.)
fn in_place<T>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, make: impl Fn() -> T) {
    g.bench_function(name, |b| {
        b.iter(|| {
            let k = make();
            black_box(&k);
        })
    });
}

/// One key-setup group: the block cipher against aes 0.9, AES-GCM against aes-gcm 0.11, ring and
/// aws-lc-rs.
macro_rules! key_setup_group {
    ($c:expr, $bits:literal, $bytes:literal, $aes:ident, $gcm:ident, $ring:ident) => {{
        let key = [0x2bu8; $bytes];
        let mut g = $c.benchmark_group(concat!("key-setup-", $bits));
        in_place(&mut g, concat!("aeslab ", stringify!($aes)), || aeslab::$aes::new(black_box(&key.into())));
        in_place(&mut g, concat!("aes 0.9 ", stringify!($aes)), || aes09::$aes::new(black_box(&key.into())));
        in_place(&mut g, concat!("aeslab ", stringify!($gcm)), || aeslab::gcm::$gcm::new(black_box(&key.into())));
        in_place(&mut g, concat!("aes-gcm 0.11 ", stringify!($gcm)), || aes_gcm011::$gcm::new(black_box(&key.into())));
        in_place(&mut g, concat!("ring 0.17 ", stringify!($ring)), || {
            ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(&ring::aead::$ring, black_box(&key)).unwrap())
        });
        #[cfg(not(any(target_arch = "x86", target_endian = "big")))]
        in_place(&mut g, concat!("aws-lc-rs ", stringify!($ring)), || {
            aws_lc_rs::aead::LessSafeKey::new(aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::$ring, black_box(&key)).unwrap())
        });
        g.finish();
    }};
}

fn key_setup(c: &mut Criterion) {
    key_setup_group!(c, 128, 16, Aes128, Aes128Gcm, AES_128_GCM);
    key_setup_group!(c, 256, 32, Aes256, Aes256Gcm, AES_256_GCM);
}

criterion_group!(benches, key_setup, gcm, ctr);
criterion_main!(benches);
