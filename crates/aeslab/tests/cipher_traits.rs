//! The RustCrypto `cipher` 0.5 traits on the dispatching types and on per-backend types.

mod common;

use aeslab::aes::{Aes128, Aes128With, Aes192, Aes256, Aes256With, Ct64, TableVartime};
#[cfg(target_arch = "x86_64")]
use aeslab::aes::BackendKind;
use cipher::array::Array;
use cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

#[test]
fn dispatching_types_encrypt_fips197_vectors() {
    let pt = h("00112233445566778899aabbccddeeff");
    let key: Vec<u8> = (0u8..32).collect();

    let mut b = Array::try_from(&pt[..]).unwrap();
    let aes = Aes128::new_from_slice(&key[..16]).unwrap();
    aes.encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "69c4e0d86a7b0430d8cdb78070b4c55a");
    aes.decrypt_block(&mut b);
    assert_eq!(b.as_slice(), &pt[..]);

    let mut b = Array::try_from(&pt[..]).unwrap();
    Aes192::new_from_slice(&key[..24]).unwrap().encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "dda97ca4864cdfe06eaf70a0ec0d7191");

    let mut b = Array::try_from(&pt[..]).unwrap();
    Aes256::new_from_slice(&key).unwrap().encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "8ea2b7ca516745bfeafc49904b496089");

    assert!(Aes128::new_from_slice(&key[..15]).is_err());
}

/// Many blocks through `encrypt_blocks` (full batches plus a tail) and buffer-to-buffer agree
/// with one block at a time, on every available backend.
#[test]
fn batch_tail_and_b2b_paths_agree_on_every_backend() {
    let key = Array::try_from(&h("2b7e151628aed2a6abf7158809cf4f3c")[..]).unwrap();
    let input: Vec<_> = (0..77u8).map(|i| Array::from([i; 16])).collect();
    for kind in common::aes_backends("tests/cipher_traits.rs") {
        let aes = Aes128::with_backend_variable_time(&key, kind).unwrap();
        assert_eq!(aes.backend(), kind);
        let mut many = input.clone();
        aes.encrypt_blocks(&mut many);
        let mut b2b = vec![Array::default(); input.len()];
        aes.encrypt_blocks_b2b(&input, &mut b2b).unwrap();
        assert_eq!(many, b2b, "{kind}");
        for (i, block) in input.iter().enumerate() {
            let mut one = *block;
            aes.encrypt_block(&mut one);
            assert_eq!(one, many[i], "{kind} block {i}");
        }
        aes.decrypt_blocks(&mut many);
        assert_eq!(many, input, "{kind}");
    }
}

#[test]
fn per_backend_types() {
    let key: Vec<u8> = (0u8..32).collect();
    let pt = h("00112233445566778899aabbccddeeff");

    let mut b = Array::try_from(&pt[..]).unwrap();
    Aes128With::<Ct64>::new_from_slice(&key[..16]).unwrap().encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "69c4e0d86a7b0430d8cdb78070b4c55a");

    let mut b = Array::try_from(&pt[..]).unwrap();
    Aes256With::<TableVartime>::new_from_slice(&key).unwrap().encrypt_block(&mut b);
    assert_eq!(hex::encode(b), "8ea2b7ca516745bfeafc49904b496089");

    #[cfg(target_arch = "x86_64")]
    {
        use aeslab::aes::{Aesni, Vaes512};
        let k = Array::try_from(&key[..16]).unwrap();
        match Aes128With::<Vaes512>::try_new(&k) {
            Ok(c) => {
                let mut b = Array::try_from(&pt[..]).unwrap();
                c.encrypt_block(&mut b);
                assert_eq!(hex::encode(b), "69c4e0d86a7b0430d8cdb78070b4c55a");
            }
            Err(e) => assert!(!BackendKind::Vaes512.available(), "{e}"),
        }
        assert_eq!(Aes128With::<Aesni>::try_new(&k).is_ok(), BackendKind::Aesni.available());
    }
}
