//! ACE: the permutation's known answer, the NIST LWC KATs (../shared/testvectors/ace) on every
//! backend, one message at a time and in lockstep batches of mixed lengths, and tampering.

mod common;

use aead::{Aead, AeadInOut, KeyInit, Payload};
use aeslab::ace::{AceAe128, AceBackend, AceHash256, AceMessage, LaneStates, permute};
use digest::{Digest, FixedOutputReset, Update};
use rand::{Rng, SeedableRng};

use common::{field16 as key, lwc_cases as kat};

fn backends() -> Vec<AceBackend> {
    let b = common::ace_backends("tests/ace.rs");
    assert!(b.contains(&AceBackend::Scalar));
    b
}

#[test]
fn permutation_of_zero_matches_the_specification() {
    let expected = hex::decode(
        "5c93691ad5060935dc19ce947ead550dac12bee1a64b670ef516e8be1dfa60da409892a4e4ccbc15",
    )
    .unwrap();
    let mut s = [0u8; 40];
    permute(&mut s);
    assert_eq!(s.to_vec(), expected);
    for backend in backends() {
        let mut lanes = LaneStates::default();
        backend.permute(&mut lanes).unwrap();
        for lane in 0..backend.lanes() {
            assert_eq!(lanes.get(lane).to_vec(), expected, "{backend:?} lane {lane}");
        }
    }
}

#[test]
fn lanes_are_independent() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    for backend in backends() {
        let mut lanes = LaneStates::default();
        let inputs: Vec<[u8; 40]> = (0..backend.lanes()).map(|_| rng.random()).collect();
        for (i, s) in inputs.iter().enumerate() {
            lanes.set(i, s);
        }
        backend.permute(&mut lanes).unwrap();
        for (i, s) in inputs.iter().enumerate() {
            let mut one = *s;
            permute(&mut one);
            assert_eq!(lanes.get(i), one, "{backend:?} lane {i}");
        }
    }
}

#[test]
fn aead_kat_one_message_at_a_time_on_every_backend() {
    let cases = kat("ACE.txt");
    assert_eq!(cases.len(), 1089);
    for backend in backends() {
        for case in &cases {
            let ace = AceAe128::with_backend(&key(case, "Key"), backend).unwrap();
            let nonce = key(case, "Nonce");
            let sealed = ace.seal(&nonce, &case["AD"], &case["PT"]);
            assert_eq!(sealed, case["CT"], "{backend:?}");
            assert_eq!(ace.open(&nonce, &case["AD"], &sealed).unwrap(), case["PT"]);
            let mut bad = sealed.clone();
            let bit = (case["PT"].len() * 8 + 7) % (bad.len() * 8);
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(ace.open(&nonce, &case["AD"], &bad), Err(aeslab::Error::AuthenticationFailed));
        }
    }
}

#[test]
fn aead_kat_in_batches_of_mixed_lengths_on_every_backend() {
    let cases = kat("ACE.txt");
    for backend in backends() {
        // Every case has the same key; batches of consecutive cases mix AD and message lengths.
        let ace = AceAe128::with_backend(&key(&cases[0], "Key"), backend).unwrap();
        for batch in cases.chunks(backend.lanes() + 3) {
            let mut buffers: Vec<Vec<u8>> = batch.iter().map(|c| c["PT"].clone()).collect();
            let mut messages: Vec<AceMessage<'_>> = batch
                .iter()
                .zip(buffers.iter_mut())
                .map(|(c, b)| AceMessage { nonce: key(c, "Nonce"), ad: &c["AD"], buffer: b, tag: [0; 16] })
                .collect();
            ace.seal_many(&mut messages);
            // Corrupt the tag of every third message; the others must open.
            for (i, (m, c)) in messages.iter_mut().zip(batch).enumerate() {
                let mut expected = m.buffer.to_vec();
                expected.extend_from_slice(&m.tag);
                assert_eq!(expected, c["CT"], "{backend:?}");
                if i % 3 == 1 {
                    m.tag[15] ^= 0x80;
                }
            }
            let verdicts = ace.open_many(&mut messages);
            for (i, ((m, c), v)) in messages.iter().zip(batch).zip(verdicts).enumerate() {
                if i % 3 == 1 {
                    assert_eq!(v, Err(aeslab::Error::AuthenticationFailed));
                    assert!(m.buffer.iter().all(|&b| b == 0), "rejected buffer wiped");
                } else {
                    assert_eq!(v, Ok(()));
                    assert_eq!(m.buffer.to_vec(), c["PT"]);
                }
            }
        }
    }
}

#[test]
fn hash_kat_streaming_and_in_batches_on_every_backend() {
    let cases = kat("ACE-HASH.txt");
    // Messages of 0..=1024 bytes (the issue text says 1024 cases; the file holds 1025).
    assert_eq!(cases.len(), 1025);
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for backend in backends() {
        let mut h = AceHash256::with_backend(backend).unwrap();
        for case in &cases {
            // Fed in random pieces, so the 8-byte buffering is exercised.
            let msg = &case["Msg"];
            let mut at = 0;
            while at < msg.len() {
                let n = rng.random_range(1..=msg.len() - at);
                Update::update(&mut h, &msg[at..at + n]);
                at += n;
            }
            assert_eq!(h.finalize_fixed_reset().to_vec(), case["MD"], "{backend:?} {}", msg.len());
        }
        let messages: Vec<&[u8]> = cases.iter().map(|c| c["Msg"].as_slice()).collect();
        let digests = AceHash256::hash_many_with(backend, &messages).unwrap();
        for (d, c) in digests.iter().zip(&cases) {
            assert_eq!(d.to_vec(), c["MD"], "{backend:?} batch");
        }
    }
    assert_eq!(AceHash256::digest(&cases[5]["Msg"]).to_vec(), cases[5]["MD"]);
}

#[test]
fn aead_traits_round_trip_and_reject() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    let key: [u8; 16] = rng.random();
    let ace = <AceAe128 as KeyInit>::new(&key.into());
    let nonce: [u8; 16] = rng.random();
    let msg: Vec<u8> = (0..1000).map(|_| rng.random()).collect();
    let ct = ace.encrypt(&nonce.into(), Payload { msg: &msg, aad: b"header" }).unwrap();
    assert_eq!(ct, AceAe128::new(&key).seal(&nonce, b"header", &msg));
    assert_eq!(ace.decrypt(&nonce.into(), Payload { msg: &ct, aad: b"header" }).unwrap(), msg);
    assert!(ace.decrypt(&nonce.into(), Payload { msg: &ct, aad: b"headex" }).is_err());
    // Detached decryption with a wrong tag wipes the buffer it decrypted into.
    let (body, tag) = ct.split_at(msg.len());
    let mut buf = body.to_vec();
    let mut bad_tag: [u8; 16] = tag.try_into().unwrap();
    bad_tag[0] ^= 1;
    assert!(ace.decrypt_inout_detached(&nonce.into(), b"header", buf.as_mut_slice().into(), &bad_tag.into()).is_err());
    assert!(buf.iter().all(|&b| b == 0));
    assert!(matches!(AceAe128::new(&key).open(&nonce, b"", &ct[..15]), Err(aeslab::Error::CiphertextTooShort { .. })));
}

#[test]
fn backend_names_and_errors() {
    for b in AceBackend::ALL {
        assert_eq!(AceBackend::from_name(b.name()), Ok(b));
    }
    let err = AceBackend::from_name("neon").unwrap_err().to_string();
    assert!(err.contains("unknown ACE backend `neon`") && err.contains("avx512"), "{err}");
    assert!(AceBackend::widest().available());
}
