//! `aeslab-ctgrind`: the constant-time check. Run under valgrind memcheck
//! (`scripts/check-constant-time.sh` does), it marks every secret input (keys, plaintexts,
//! ACE states) as undefined and runs each path: key set-up and block encryption/decryption on
//! every AES backend, CTR keystream at every FACE level, AEZ encryption, ACE-AE-128 sealing,
//! ACE-H-256 and the ACE permutation. Memcheck reports any branch or memory address that
//! depends on undefined data; the harness counts those reports per path.
//!
//! The variable-time `table` backend is the negative control: its S-box lookups are indexed
//! by secrets, so it must be flagged — proof that the check can fail. The exit status is 0 only
//! when every constant-time path is clean and the control is flagged.
//!
//! Not covered here: AEAD *opening*, whose accept/reject branch depends on the tag comparison
//! by design (the comparison itself reads every byte), and the backends valgrind 3.19 cannot
//! execute (VAES, AVX-512), which `aeslab-dudect` covers by timing (`scripts/check-timing-leaks.sh`).

mod valgrind;

use aeslab::ace::{AceAe128, AceBackend, AceHash256, AceMessage, LaneStates};
use aeslab::aes::{AnyAes, BackendKind};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use valgrind::{errors_so_far, mark_public, mark_secret, running_on_valgrind};

/// Deterministic "random" bytes (the values do not matter; memcheck tracks definedness).
fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(0x9d).wrapping_add(seed)).collect()
}

fn secret(n: usize, seed: u8) -> Vec<u8> {
    let b = bytes(n, seed);
    mark_secret(&b);
    b
}

/// Runs AES key set-up (every key size) and block encryption and decryption.
fn aes_path(kind: BackendKind) {
    for key_len in [16, 24, 32] {
        let key = secret(key_len, 1);
        let aes = AnyAes::new_variable_time(kind, &key).expect("available");
        let mut blocks: Vec<[u8; 16]> = secret(16 * 37, 2).chunks_exact(16).map(|c| c.try_into().unwrap()).collect();
        aes.encrypt_blocks(&mut blocks);
        aes.decrypt_blocks(&mut blocks);
        for b in &blocks {
            mark_public(b);
        }
    }
}

/// CTR at one FACE level from a counter just before the byte-15 wrap (the IV is public).
fn ctr_path(kind: BackendKind, level: FaceLevel) {
    let key = secret(16, 3);
    let mut iv = bytes(16, 4);
    iv[15] = 0xf0;
    let mut ctr = DynCtr::new_variable_time(&key, &iv, kind, level, Counter::Be128).expect("available");
    let mut data = secret(700, 5);
    ctr.apply_keystream(&mut data[..33]);
    ctr.apply_keystream(&mut data[33..]);
    mark_public(&data);
}

/// AEZ encryption: extract (16-byte key through BLAKE2b, and a 48-byte key), AEZ-tiny and
/// AEZ-core lengths.
fn aez_path(kind: BackendKind) {
    for key_len in [16, 48] {
        let key = secret(key_len, 6);
        let aez = Aez::with_backend(&key, kind).expect("constant-time backend");
        for len in [0, 1, 15, 31, 32, 100, 600] {
            let msg = secret(len, 7);
            let out = aez.encrypt(&bytes(12, 8), &[&bytes(5, 9)], 16, &msg).expect("tau = 16");
            mark_public(&out);
        }
    }
}

/// The ACE permutation on a full register of secret states, ACE-AE-128 sealing and ACE-H-256.
fn ace_path(backend: AceBackend) {
    let mut states = LaneStates::default();
    for lane in 0..backend.lanes() {
        let s: [u8; 40] = secret(40, lane as u8).try_into().unwrap();
        states.set(lane, &s);
    }
    backend.permute(&mut states).expect("an available backend");
    for lane in 0..backend.lanes() {
        mark_public(&states.get(lane));
    }
    let key: [u8; 16] = secret(16, 10).try_into().unwrap();
    let ace = AceAe128::with_backend(&key, backend).expect("available");
    let mut buffers: Vec<Vec<u8>> = (0..backend.lanes()).map(|i| secret(7 * i + 3, 11)).collect();
    let mut messages: Vec<AceMessage<'_>> = buffers
        .iter_mut()
        .map(|b| AceMessage { nonce: [7; 16], ad: b"header", buffer: b, tag: [0; 16] })
        .collect();
    ace.seal_many(&mut messages);
    for m in &messages {
        mark_public(m.buffer);
        mark_public(&m.tag);
    }
    let inputs: Vec<Vec<u8>> = (0..backend.lanes()).map(|i| secret(9 * i + 1, 12)).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    for d in AceHash256::hash_many_with(backend, &refs).expect("available") {
        mark_public(&d);
    }
}

fn main() -> std::process::ExitCode {
    if !running_on_valgrind() {
        eprintln!("aeslab-ctgrind: error: run me under valgrind (scripts/check-constant-time.sh does)");
        return std::process::ExitCode::from(2);
    }
    let mut failures = 0;
    let mut control_flagged = true;
    let mut run = |name: String, constant_time: bool, f: &mut dyn FnMut()| {
        let before = errors_so_far();
        f();
        let found = errors_so_far() - before;
        match (constant_time, found) {
            (true, 0) => println!("clean    {name}"),
            (true, n) => {
                println!("LEAKS    {name} ({n} memcheck reports)");
                failures += 1;
            }
            (false, 0) => {
                println!("NOT FLAGGED {name} (negative control)");
                control_flagged = false;
            }
            (false, n) => println!("flagged  {name} ({n} memcheck reports; variable time, as expected)"),
        }
    };
    let mut skipped = Vec::new();
    for kind in BackendKind::ALL.iter().copied() {
        if !kind.available() {
            skipped.push(kind.name());
            continue;
        }
        let ct = kind.constant_time();
        run(format!("aes {kind} (key set-up, encrypt, decrypt)"), ct, &mut || aes_path(kind));
        for level in FaceLevel::ALL {
            run(format!("ctr {kind} FACE {level}"), ct, &mut || ctr_path(kind, level));
        }
        if ct {
            run(format!("aez {kind} (encrypt)"), true, &mut || aez_path(kind));
        }
    }
    let mut ace_skipped = Vec::new();
    for backend in AceBackend::ALL {
        if backend.available() {
            run(format!("ace {} (permutation, seal, hash)", backend.name()), true, &mut || ace_path(backend));
        } else {
            ace_skipped.push(backend.name());
        }
    }
    if !skipped.is_empty() || !ace_skipped.is_empty() {
        println!(
            "skipped: AES backends {:?} and ACE backends {:?} — valgrind 3.19 cannot execute VAES/AVX-512 \
             (it hides them from CPUID); `aeslab-dudect` (scripts/check-timing-leaks.sh) times them instead",
            skipped, ace_skipped
        );
    }
    if control_flagged {
        println!("negative control: table flagged");
    } else {
        println!("negative control: table NOT flagged — the check cannot see secret-indexed loads");
    }
    if failures == 0 && control_flagged {
        println!("constant-time check passed");
        std::process::ExitCode::SUCCESS
    } else {
        println!("constant-time check FAILED: {failures} leaking path(s)");
        std::process::ExitCode::FAILURE
    }
}
