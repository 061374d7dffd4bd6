//! Messages as a user's crate sends them, through the RustCrypto traits, against the peers:
//! one key object, a fresh nonce or IV per message, at 16 B to 64 KiB. AES-GCM seal and open
//! (aeslab's `Aes128Gcm`/`Aes256Gcm`, RustCrypto aes-gcm 0.11, ring 0.17), AES-CTR per
//! message (`KeyIvInit::new` + `apply_keystream`, key set-up included: aeslab's `AesCtr`,
//! RustCrypto ctr 0.10 over aes 0.9), and key set-up alone.
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

fn open_rustcrypto<A>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, key: &[u8], size: usize)
where
    A: KeyInit + AeadInOut<NonceSize = cipher::consts::U12>,
{
    let aead = A::new_from_slice(key).unwrap();
    // One sealed message, opened again and again (the buffer is sealed back after each open).
    let nonce = [7u8; 12];
    let mut buf = vec![0u8; size];
    let tag = aead.encrypt_inout_detached(&nonce.into(), b"", buf.as_mut_slice().into()).unwrap();
    g.bench_function(name, |b| {
        b.iter(|| {
            aead.decrypt_inout_detached(&nonce.into(), b"", buf.as_mut_slice().into(), &tag).unwrap();
            aead.encrypt_inout_detached(&nonce.into(), b"", buf.as_mut_slice().into()).unwrap();
        })
    });
}

fn ring_alg(key: &[u8]) -> &'static ring::aead::Algorithm {
    if key.len() == 16 { &ring::aead::AES_128_GCM } else { &ring::aead::AES_256_GCM }
}

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
            let ring_key = ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(ring_alg(&key), &key).unwrap());
            let (mut buf, mut n) = (vec![0u8; size], 0u64);
            g.bench_function("ring 0.17", |b| {
                b.iter(|| {
                    let nonce = ring::aead::Nonce::assume_unique_for_key(nonce(&mut n));
                    black_box(ring_key.seal_in_place_separate_tag(nonce, ring::aead::Aad::empty(), &mut buf).unwrap())
                })
            });
            g.finish();

            let mut g = c.benchmark_group(format!("aes{bits}gcm-open-{size}B"));
            g.throughput(Throughput::Bytes(2 * size as u64));
            if bits == 128 {
                open_rustcrypto::<aeslab::gcm::Aes128Gcm>(&mut g, "aeslab (open + seal)", &key, size);
                open_rustcrypto::<aes_gcm011::Aes128Gcm>(&mut g, "aes-gcm 0.11 (open + seal)", &key, size);
            } else {
                open_rustcrypto::<aeslab::gcm::Aes256Gcm>(&mut g, "aeslab (open + seal)", &key, size);
                open_rustcrypto::<aes_gcm011::Aes256Gcm>(&mut g, "aes-gcm 0.11 (open + seal)", &key, size);
            }
            g.finish();
        }
    }
}

fn ctr_per_message<C: KeyIvInit + StreamCipher>(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, key: &[u8], size: usize) {
    let key = cipher::Key::<C>::try_from(key).unwrap();
    let (mut buf, mut n) = (vec![0u8; size], 0u64);
    g.bench_function(name, |b| {
        b.iter(|| {
            let mut iv = cipher::Iv::<C>::default();
            iv[..12].copy_from_slice(&nonce(&mut n));
            C::new(&key, &iv).apply_keystream(black_box(&mut buf));
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
                ctr_per_message::<ctr010::Ctr128BE<aes09::Aes128>>(&mut g, "ctr 0.10 + aes 0.9", &key, size);
            } else {
                ctr_per_message::<aeslab::ctr::Aes256Ctr>(&mut g, "aeslab", &key, size);
                ctr_per_message::<ctr010::Ctr128BE<aes09::Aes256>>(&mut g, "ctr 0.10 + aes 0.9", &key, size);
            }
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

fn key_setup(c: &mut Criterion) {
    let key = [0x2bu8; 16];
    let mut g = c.benchmark_group("key-setup-128");
    in_place(&mut g, "aeslab Aes128", || aeslab::Aes128::new(black_box(&key.into())));
    in_place(&mut g, "aes 0.9 Aes128", || aes09::Aes128::new(black_box(&key.into())));
    in_place(&mut g, "aeslab Aes128Gcm", || aeslab::gcm::Aes128Gcm::new(black_box(&key.into())));
    in_place(&mut g, "aes-gcm 0.11 Aes128Gcm", || aes_gcm011::Aes128Gcm::new(black_box(&key.into())));
    in_place(&mut g, "ring 0.17 AES_128_GCM", || {
        ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(&ring::aead::AES_128_GCM, black_box(&key)).unwrap())
    });
    g.finish();

    let key = [0x2bu8; 32];
    let mut g = c.benchmark_group("key-setup-256");
    in_place(&mut g, "aeslab Aes256", || aeslab::Aes256::new(black_box(&key.into())));
    in_place(&mut g, "aes 0.9 Aes256", || aes09::Aes256::new(black_box(&key.into())));
    in_place(&mut g, "aeslab Aes256Gcm", || aeslab::gcm::Aes256Gcm::new(black_box(&key.into())));
    in_place(&mut g, "aes-gcm 0.11 Aes256Gcm", || aes_gcm011::Aes256Gcm::new(black_box(&key.into())));
    in_place(&mut g, "ring 0.17 AES_256_GCM", || {
        ring::aead::LessSafeKey::new(ring::aead::UnboundKey::new(&ring::aead::AES_256_GCM, black_box(&key)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, key_setup, gcm, ctr);
criterion_main!(benches);
