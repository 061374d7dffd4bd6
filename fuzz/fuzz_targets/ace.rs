//! ACE-AE-128 and ACE-H-256: every backend, on a fuzzed batch of messages of mixed lengths,
//! agrees with the scalar reference; each message opens; a flipped tag rejects only its own
//! message and wipes it.

#![no_main]

use aeslab::ace::{AceAe128, AceBackend, AceHash256, AceMessage};
use arbitrary::{Result, Unstructured};
use common::bytes;
use digest::Digest;

mod common;
common::fuzz_cases!(one_case);

struct Case {
    nonce: [u8; 16],
    ad: Vec<u8>,
    msg: Vec<u8>,
}

fn seal_all(ace: &AceAe128, cases: &[Case]) -> Vec<(Vec<u8>, [u8; 16])> {
    let mut bufs: Vec<Vec<u8>> = cases.iter().map(|c| c.msg.clone()).collect();
    let mut batch: Vec<AceMessage> = cases
        .iter()
        .zip(bufs.iter_mut())
        .map(|(c, b)| AceMessage { nonce: c.nonce, ad: &c.ad, buffer: b, tag: [0; 16] })
        .collect();
    ace.seal_many(&mut batch);
    let tags: Vec<[u8; 16]> = batch.iter().map(|m| m.tag).collect();
    bufs.into_iter().zip(tags).collect()
}

fn one_case(u: &mut Unstructured) -> Result<()> {
    let key: [u8; 16] = u.arbitrary()?;
    let mut cases = Vec::new();
    for _ in 0..u.int_in_range(1..=20)? {
        let nonce = u.arbitrary()?;
        let ad = bytes(u, 40)?;
        let msg = bytes(u, 100)?;
        cases.push(Case { nonce, ad, msg });
    }
    let reference = seal_all(&AceAe128::with_backend(&key, AceBackend::Scalar).expect("scalar"), &cases);
    let messages: Vec<&[u8]> = cases.iter().map(|c| c.msg.as_slice()).collect();
    let digests = AceHash256::hash_many_with(AceBackend::Scalar, &messages).expect("scalar");
    for (c, d) in cases.iter().zip(&digests) {
        assert_eq!(&AceHash256::digest(&c.msg)[..], d, "streamed hash differs");
    }

    for backend in AceBackend::ALL.into_iter().filter(|b| b.available()) {
        let ace = AceAe128::with_backend(&key, backend).expect("available");
        let sealed = seal_all(&ace, &cases);
        assert_eq!(sealed, reference, "{backend:?} seals differently");
        assert_eq!(AceHash256::hash_many_with(backend, &messages).expect("available"), digests, "{backend:?}");

        let victim = u.int_in_range(0..=cases.len() - 1)?;
        let mut bufs: Vec<Vec<u8>> = sealed.iter().map(|(b, _)| b.clone()).collect();
        let mut batch: Vec<AceMessage> = cases
            .iter()
            .zip(bufs.iter_mut())
            .zip(&sealed)
            .map(|((c, b), (_, tag))| AceMessage { nonce: c.nonce, ad: &c.ad, buffer: b, tag: *tag })
            .collect();
        batch[victim].tag[u.int_in_range(0..=15)?] ^= 1 << u.int_in_range(0..=7u8)?;
        let verdicts = ace.open_many(&mut batch);
        for (i, (verdict, (c, buf))) in verdicts.iter().zip(cases.iter().zip(&bufs)).enumerate() {
            if i == victim {
                assert!(verdict.is_err() && buf.iter().all(|&b| b == 0), "{backend:?} message {i}");
            } else {
                assert!(verdict.is_ok() && *buf == c.msg, "{backend:?} message {i}");
            }
        }
    }
    Ok(())
}
