//! Which AES backends this CPU has, and how to pick one.
//!
//! ```text
//! cargo run --example choose_backend
//! ```
//!
//! The default constructors (`Aes128::new`, `Aes128Ctr::new`, `Aes128Gcm::new`) take the
//! fastest constant-time backend the CPU has. The `with_backend`/`with_options` constructors
//! choose one; the variable-time T-table backend needs a constructor that says so by name.
//! Every backend computes the same thing, which this program checks.

use aeslab::aes::{AnyAes, BackendKind, default_backend};
use aeslab::ctr::{Aes128Ctr, FaceLevel};
use cipher::StreamCipher;

fn main() {
    let key = [0x2b; 16];
    println!("default backend: {}", default_backend());
    let mut reference = None;
    for &kind in BackendKind::ALL {
        if !kind.available() {
            println!("{:16} not on this CPU (needs {})", kind.name(), kind.requires());
            continue;
        }
        // `AnyAes::new` refuses the variable-time backend; asking for it takes its own name.
        let aes = if kind.constant_time() {
            AnyAes::new(kind, &key).expect("available")
        } else {
            assert!(AnyAes::new(kind, &key).is_err());
            AnyAes::new_variable_time(kind, &key).expect("available")
        };
        let mut blocks = [[0u8; 16]; 4];
        aes.encrypt_blocks(&mut blocks);
        let same = *reference.get_or_insert(blocks) == blocks;
        println!(
            "{:16} {:13} {:2} blocks per batch, first block {}{}",
            kind.name(),
            if kind.constant_time() { "constant time" } else { "VARIABLE time" },
            kind.batch(),
            hex::encode(blocks[0]),
            if same { "" } else { "  MISMATCH" }
        );
        assert!(same, "{kind} disagrees with the others");
    }

    // A CTR stream on a chosen backend and FACE level (an error if the CPU lacks it).
    let mut data = [0u8; 64];
    let mut ctr = Aes128Ctr::with_options(&key.into(), &[0; 16].into(), BackendKind::Ct64, FaceLevel::None)
        .expect("ct64 runs on every CPU");
    ctr.apply_keystream(&mut data);
    println!("AES-128-CTR keystream on ct64: {}…", hex::encode(&data[..16]));
}
