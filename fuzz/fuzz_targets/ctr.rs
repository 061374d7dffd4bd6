//! CTR on a fuzzed backend × FACE level × counter start × chunking must equal the reference:
//! counter blocks built here, one at a time, and encrypted by `ct64` (no FACE, no batching).

#![no_main]

use aeslab::aes::{AnyAes, BackendKind};
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use arbitrary::{Result, Unstructured};

mod common;
common::fuzz_cases!(one_case);

/// The first counter block: random, or a few blocks before a carry out of byte 15, or before
/// the end of the 32-bit or of the 128-bit counter space.
fn initial_counter(u: &mut Unstructured) -> Result<u128> {
    let random = u128::from_be_bytes(u.arbitrary()?);
    let before = u.int_in_range(0..=40u128)?;
    Ok(match u.int_in_range(0..=3u8)? {
        0 => random,
        1 => random | 0xff,
        2 => (random & !0xffff_ffff) | (0xffff_ffff - before),
        _ => u128::MAX - before,
    })
}

fn one_case(u: &mut Unstructured) -> Result<()> {
    let key_len = *u.choose(&[16usize, 24, 32])?;
    let key = u.bytes(key_len)?.to_vec();
    let kinds: Vec<BackendKind> = BackendKind::available_kinds().collect();
    let kind = *u.choose(&kinds)?;
    let level = *u.choose(&FaceLevel::ALL)?;
    let counter = if u.arbitrary()? { Counter::Be32 } else { Counter::Be128 };
    let iv = initial_counter(u)?;
    let start = u.int_in_range(0..=2048u128)?;
    let len = u.int_in_range(0..=3000usize)?;
    let plain: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();

    let mut ours = plain.clone();
    let mut ctr = DynCtr::new_variable_time(&key, &iv.to_be_bytes(), kind, level, counter).expect("valid key and IV");
    ctr.seek_to(start);
    // The stream stops at the end of its counter space: a chunk that would pass it is refused
    // and left as it was, exactly when it needs more than what is left.
    let mut at = 0;
    while at < len {
        let n = u.int_in_range(1..=len - at)?;
        let room = ctr.remaining();
        let before = ours[at..at + n].to_vec();
        match ctr.try_apply_keystream(&mut ours[at..at + n]) {
            Ok(()) => assert!(n as u128 <= room, "{n} bytes given with {room} left"),
            Err(_) => {
                assert!(n as u128 > room && ours[at..at + n] == before[..], "refused {n} bytes with {room} left");
                break;
            }
        }
        at += n;
    }
    let (ours, plain) = (&ours[..at], &plain[..at]);

    let reference = AnyAes::new_variable_time(BackendKind::Ct64, &key).expect("valid key");
    let mut expect = plain.to_vec();
    let mut ks = [[0u8; 16]];
    for (i, byte) in expect.iter_mut().enumerate() {
        let pos = start + i as u128;
        if i == 0 || pos % 16 == 0 {
            let blocks = pos / 16;
            let block_counter = if counter == Counter::Be32 {
                (iv & !0xffff_ffff) | ((iv as u32).wrapping_add(blocks as u32) as u128)
            } else {
                iv.wrapping_add(blocks)
            };
            ks = [block_counter.to_be_bytes()];
            reference.encrypt_blocks(&mut ks);
        }
        *byte ^= ks[0][(pos % 16) as usize];
    }
    assert_eq!(ours, &expect[..], "{kind} {level:?} {counter:?} iv {iv:032x} start {start}");
    Ok(())
}
