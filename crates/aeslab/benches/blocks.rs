//! Block throughput of every available backend (ECB over 16 KiB, in place), per key size.
//! A baseline for later work: `cargo bench -p aeslab --bench blocks`.

use std::hint::black_box;

use aeslab::aes::{AnyAes, BackendKind};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BYTES: usize = 16 * 1024;

fn blocks(c: &mut Criterion) {
    for key_bits in [128usize, 192, 256] {
        let mut group = c.benchmark_group(format!("aes{key_bits}-encrypt-16KiB"));
        group.throughput(Throughput::Bytes(BYTES as u64));
        let key = vec![0x2bu8; key_bits / 8];
        for kind in BackendKind::available_kinds() {
            let aes = AnyAes::new_variable_time(kind, &key).unwrap();
            let mut data = vec![[0u8; 16]; BYTES / 16];
            group.bench_function(kind.name(), |b| b.iter(|| aes.encrypt_blocks(black_box(&mut data))));
        }
        group.finish();
    }
    let mut group = c.benchmark_group("aes128-decrypt-16KiB");
    group.throughput(Throughput::Bytes(BYTES as u64));
    for kind in BackendKind::available_kinds() {
        let aes = AnyAes::new_variable_time(kind, &[0x2bu8; 16]).unwrap();
        let mut data = vec![[0u8; 16]; BYTES / 16];
        group.bench_function(kind.name(), |b| b.iter(|| aes.decrypt_blocks(black_box(&mut data))));
    }
    group.finish();
}

criterion_group!(benches, blocks);
criterion_main!(benches);
