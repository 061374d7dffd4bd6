//! Hostile input through the library's public API: each kind of bad input gets an `Err` with a
//! clear message, never a panic, and an AEAD that rejects a ciphertext leaves nothing of it
//! behind. One test per kind of input (the CLI's twins are in aeslab-cli/tests/hostile.rs).

mod common;

use aead::{Aead, AeadInOut, KeyInit};
use aeslab::Error;
use aeslab::ace::{AceAe128, AceBackend, AceHash256, AceMessage};
use aeslab::aes::{Aes128, AnyAes, BackendKind};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, Aes128Ctr, DynCtr, FaceLevel};
use aeslab::gcm::{Gcm, GhashImpl};
use cipher::{KeyIvInit, StreamCipher};

const KEY: [u8; 16] = *b"0123456789abcdef";
const IV: [u8; 16] = [0xf0; 16];

fn sealed_aez() -> Vec<u8> {
    Aez::new(&KEY).encrypt(b"nonce", &[b"ad"], 16, b"a message of some length").unwrap()
}

fn sealed_ace() -> Vec<u8> {
    AceAe128::new(&KEY).seal(&IV, b"ad", b"a message of some length")
}

#[test]
fn wrong_key_lengths() {
    for len in [0, 15, 17, 31, 33, 48] {
        let key = vec![7u8; len];
        for kind in common::aes_backends("tests/hostile.rs") {
            assert_eq!(AnyAes::new_variable_time(kind, &key).err().unwrap(), Error::InvalidKeyLength(len), "{kind}");
        }
        let err = DynCtr::new_variable_time(&key, &IV, BackendKind::Ct64, FaceLevel::Rd2p, Counter::Be128).unwrap_err();
        assert_eq!(err.to_string(), format!("invalid AES key length {len} bytes (expected 16, 24 or 32)"));
        assert!(Aes128::new_from_slice(&key).is_err());
        assert!(Aes128Ctr::new_from_slices(&key, &IV).is_err());
        assert!(<AceAe128 as KeyInit>::new_from_slice(&key).is_err());
        assert_eq!(Gcm::new(&key).err(), Some(Error::InvalidKeyLength(len)));
    }
    // AEZ takes keys of any length by design (Extract), the empty key included.
    assert_eq!(Aez::new(&[]).encrypt(b"n", &[], 16, b"m").unwrap().len(), 17);
}

#[test]
fn wrong_iv_and_nonce_lengths() {
    for len in [0, 12, 15, 17, 32] {
        let iv = vec![1u8; len];
        let err = DynCtr::new_variable_time(&KEY, &iv, BackendKind::Ct64, FaceLevel::None, Counter::Be32).unwrap_err();
        assert_eq!(err, Error::InvalidIvLength(len));
        assert!(Aes128Ctr::new_from_slices(&KEY, &iv).is_err());
    }
    // ACE-AE-128's nonce is 16 bytes: the aead trait refuses a slice of any other length.
    let ace = AceAe128::new(&KEY);
    for len in [0, 12, 15, 17] {
        assert!(aead::Nonce::<AceAe128>::try_from(&vec![0u8; len][..]).is_err(), "{len}");
    }
    // AEZ takes nonces of any length, the empty one included, and they are all distinct.
    let aez = Aez::new(&KEY);
    let c0 = aez.encrypt(&[], &[], 16, b"m").unwrap();
    let c1 = aez.encrypt(&[0], &[], 16, b"m").unwrap();
    assert_ne!(c0, c1);
    assert_eq!(ace.seal(&IV, b"", b"").len(), 16);
    // GCM takes any non-zero nonce length (12 bytes is the fast path) and tags of 12–16 bytes.
    let gcm = Gcm::new(&KEY).unwrap();
    assert_eq!(gcm.seal(&[], b"", b"m"), Err(Error::InvalidNonceLength(0)));
    assert_eq!(gcm.open(&[], b"", &[0; 17]), Err(Error::InvalidNonceLength(0)));
    assert_eq!(gcm.seal(&[1], b"", b"m").unwrap().len(), 17);
    for tag_len in [0, 11, 17] {
        let err = Gcm::with_options_variable_time(&KEY, BackendKind::Ct64, FaceLevel::None, GhashImpl::Portable, tag_len).err();
        assert_eq!(err, Some(Error::InvalidTagLength(tag_len)));
    }
    let mut body = [0u8; 4];
    assert_eq!(gcm.decrypt_in_place_detached(&[1; 12], b"", &mut body, &[0; 15]), Err(Error::InvalidTagLength(15)));
}

#[test]
fn empty_input() {
    // Nothing to encrypt is not an error: CTR gives nothing, AEADs give the tag alone.
    let mut ctr = Aes128Ctr::new(&KEY.into(), &IV.into());
    let mut nothing = [0u8; 0];
    ctr.apply_keystream(&mut nothing);
    let aez = Aez::new(&KEY);
    let tag_only = aez.encrypt(b"n", &[], 16, b"").unwrap();
    assert_eq!(aez.decrypt(b"n", &[], 16, &tag_only).unwrap(), b"");
    let ace = AceAe128::new(&KEY);
    assert_eq!(ace.open(&IV, b"", &ace.seal(&IV, b"", b"")).unwrap(), b"");
    assert_eq!(AceHash256::hash_many(&[b""]).len(), 1);
    // Opening nothing is a ciphertext too short to hold its tag.
    assert_eq!(aez.decrypt(b"n", &[], 16, b"").unwrap_err(), Error::CiphertextTooShort { len: 0, tag: 16 });
    assert_eq!(ace.open(&IV, b"", b"").unwrap_err(), Error::CiphertextTooShort { len: 0, tag: 16 });
}

#[test]
fn truncated_ciphertext() {
    let (aez_ct, ace_ct) = (sealed_aez(), sealed_ace());
    for cut in [1, 10, 16, aez_ct.len() - 1, aez_ct.len()] {
        let err = Aez::new(&KEY).decrypt(b"nonce", &[b"ad"], 16, &aez_ct[..aez_ct.len() - cut]).unwrap_err();
        assert!(matches!(err, Error::AuthenticationFailed | Error::CiphertextTooShort { .. }), "{cut}: {err}");
        let err = AceAe128::new(&KEY).open(&IV, b"ad", &ace_ct[..ace_ct.len() - cut]).unwrap_err();
        assert!(matches!(err, Error::AuthenticationFailed | Error::CiphertextTooShort { .. }), "{cut}: {err}");
        let gcm = Gcm::new(&KEY).unwrap();
        let gcm_ct = gcm.seal(&IV[..12], b"ad", b"a message of some length").unwrap();
        let err = gcm.open(&IV[..12], b"ad", &gcm_ct[..gcm_ct.len() - cut.min(gcm_ct.len())]).unwrap_err();
        assert!(matches!(err, Error::AuthenticationFailed | Error::CiphertextTooShort { .. }), "{cut}: {err}");
    }
}

#[test]
fn flipped_tag_bit_releases_nothing() {
    // AEZ, in place: the buffer is wiped.
    let aez = Aez::new(&KEY);
    let mut ct = sealed_aez();
    *ct.last_mut().unwrap() ^= 1;
    let mut buf = ct.clone();
    assert_eq!(aez.decrypt_in_place(b"nonce", &[b"ad"], 16, &mut buf), Err(Error::AuthenticationFailed));
    assert!(buf.iter().all(|&b| b == 0));
    assert_eq!(aez.decrypt(b"nonce", &[b"ad"], 16, &ct), Err(Error::AuthenticationFailed));

    // AEZ through the aead traits: the in-out buffer is wiped.
    let nonce = aead::Nonce::<Aez>::from([3u8; 16]);
    let mut body = b"sixteen byte msg and more".to_vec();
    let mut tag = aez.encrypt_inout_detached(&nonce, b"", body.as_mut_slice().into()).unwrap();
    tag[0] ^= 0x80;
    assert!(aez.decrypt_inout_detached(&nonce, b"", body.as_mut_slice().into(), &tag).is_err());
    assert!(body.iter().all(|&b| b == 0));

    // GCM, in place: the buffer is wiped.
    let gcm = Gcm::new(&KEY).unwrap();
    let mut body = b"a message of some length".to_vec();
    let mut tag = gcm.encrypt_in_place_detached(&IV[..12], b"ad", &mut body).unwrap();
    tag[15] ^= 1;
    assert_eq!(gcm.decrypt_in_place_detached(&IV[..12], b"ad", &mut body, &tag), Err(Error::AuthenticationFailed));
    assert!(body.iter().all(|&b| b == 0));

    // ACE-AE-128, one message and a batch: the rejected message's buffer is wiped, the good
    // one's is opened.
    let ace = AceAe128::new(&KEY);
    let mut ct = sealed_ace();
    *ct.last_mut().unwrap() ^= 1;
    assert_eq!(ace.open(&IV, b"ad", &ct), Err(Error::AuthenticationFailed));
    assert!(Aead::decrypt(&ace, &IV.into(), &ct[..]).is_err());
    let (mut good, mut bad) = (b"good message".to_vec(), b"bad message".to_vec());
    let mut batch = [
        AceMessage { nonce: IV, ad: b"", buffer: &mut good, tag: [0; 16] },
        AceMessage { nonce: IV, ad: b"", buffer: &mut bad, tag: [0; 16] },
    ];
    ace.seal_many(&mut batch);
    batch[1].tag[15] ^= 1;
    let verdicts = ace.open_many(&mut batch);
    assert_eq!(verdicts, vec![Ok(()), Err(Error::AuthenticationFailed)]);
    assert_eq!(good, b"good message");
    assert!(bad.iter().all(|&b| b == 0));
}

#[test]
fn huge_tau() {
    let aez = Aez::new(&KEY);
    for tau in [usize::MAX, usize::MAX / 8 + 1, Aez::MAX_TAU + 1] {
        let too_large = Error::TauTooLarge { tau, max: Aez::MAX_TAU };
        assert_eq!(aez.encrypt(b"n", &[], tau, b"m"), Err(too_large.clone()));
        assert_eq!(aez.decrypt(b"n", &[], tau, b"m"), Err(too_large.clone()));
        assert_eq!(aez.prf(&[0; 16], tau), Err(too_large.clone()));
        let mut buf = *b"untouched";
        assert_eq!(aez.encrypt_in_place(b"n", &[], tau, &mut buf), Err(too_large.clone()));
        assert_eq!(&buf, b"untouched");
        assert!(too_large.to_string().contains("too large"));
    }
    // A buffer too short for the authenticator it must hold.
    let mut buf = [0u8; 4];
    assert_eq!(aez.encrypt_in_place(b"n", &[], 16, &mut buf), Err(Error::CiphertextTooShort { len: 4, tag: 16 }));
}

#[test]
fn unknown_backend_names() {
    for name in ["", "nope", "AESNI ", "vaes1024", "table "] {
        let err = BackendKind::from_name(name).unwrap_err();
        assert_eq!(err, Error::UnknownBackend { name: name.into(), known: BackendKind::NAMES });
        assert!(err.to_string().contains("known: table, ct64"), "{err}");
        assert!(AnyAes::with_backend_name(name, &KEY).is_err());
        assert_eq!(AceBackend::from_name(name).unwrap_err(), Error::UnknownAceBackend { name: name.into(), known: AceBackend::NAMES });
        assert_eq!(FaceLevel::from_name(name).unwrap_err(), Error::UnknownFaceLevel { name: name.into(), known: FaceLevel::NAMES });
    }
}

#[test]
fn variable_time_backend_refused_by_the_aeads() {
    let err = Aez::with_backend(&KEY, BackendKind::Table).err().unwrap();
    assert!(matches!(err, Error::VariableTime { backend: "table", .. }), "{err}");
}

/// What `AESLAB_CPU_MASK` hides in [`backend_the_cpu_lacks`], and the AES backends that
/// hides.
#[cfg(target_arch = "x86_64")]
const MASK: (&str, &[BackendKind]) = (
    "vaes,avx512f,avx2",
    &[BackendKind::Vaes256, BackendKind::Vaes512, BackendKind::BitsliceAvx2, BackendKind::BitsliceAvx512],
);
#[cfg(target_arch = "aarch64")]
const MASK: (&str, &[BackendKind]) = ("aes,pmull", &[BackendKind::Armv8]);

/// Whether this process runs with `AESLAB_CPU_MASK=mask`. If not, runs `test` again in a child
/// process of this test binary with that mask (the mask is read once per process), checks it
/// passed and printed `expect`, and returns false: the caller then returns.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn under_mask(test: &str, mask: &str, expect: &str) -> bool {
    if std::env::var("AESLAB_CPU_MASK").as_deref() == Ok(mask) {
        return true;
    }
    // Cross-built runs (scripts/test-aarch64.sh) start the child through the emulator.
    let runner = std::env::var("AESLAB_TEST_RUNNER").unwrap_or_default();
    let mut command: Vec<String> = runner.split_whitespace().map(str::to_string).collect();
    command.push(std::env::current_exe().unwrap().to_string_lossy().into_owned());
    let out = std::process::Command::new(&command[0])
        .args(&command[1..])
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env("AESLAB_CPU_MASK", mask)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(expect), "{stdout}");
    false
}

/// Runs its body in a child process with `AESLAB_CPU_MASK` hiding instruction sets, as on a CPU
/// without them. (Elsewhere there are no instruction sets to hide.)
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn backend_the_cpu_lacks() {
    let (mask, hidden) = MASK;
    if !under_mask("backend_the_cpu_lacks", mask, &format!("masked backends refused: {}", hidden.len())) {
        return;
    }
    let mut refused = 0;
    for &kind in hidden {
        let err = AnyAes::new_variable_time(kind, &KEY).err().unwrap();
        assert!(err.to_string().contains("not available on this CPU"), "{err}");
        assert!(DynCtr::new_variable_time(&KEY, &IV, kind, FaceLevel::Rd2p, Counter::Be128).is_err());
        assert!(Aez::with_backend(&KEY, kind).is_err());
        let err = Gcm::with_options_variable_time(&KEY, kind, FaceLevel::Rd2p, GhashImpl::Portable, 16).err().unwrap();
        assert!(err.to_string().contains("not available on this CPU"), "{err}");
        assert_ne!(aeslab::aes::default_backend(), kind);
        refused += 1;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let err = AceAe128::with_backend(&KEY, AceBackend::Avx512).err().unwrap();
        assert!(matches!(err, Error::BackendUnavailable { backend: "avx512", .. }), "{err}");
        assert!(AceHash256::with_backend(AceBackend::Avx2).is_err());
        assert!(AceBackend::Avx512.permute(&mut aeslab::ace::LaneStates::default()).is_err());
        assert_eq!(AceBackend::widest(), AceBackend::Sse);
        let err = Gcm::with_options_variable_time(&KEY, BackendKind::Ct64, FaceLevel::Rd2p, GhashImpl::Vpclmul512, 16).err().unwrap();
        assert!(matches!(err, Error::BackendUnavailable { backend: "vpclmul512", .. }), "{err}");
    }
    #[cfg(target_arch = "aarch64")]
    {
        let err = Gcm::with_options_variable_time(&KEY, BackendKind::Ct64, FaceLevel::Rd2p, GhashImpl::Pmull, 16).err().unwrap();
        assert!(matches!(err, Error::BackendUnavailable { backend: "pmull", .. }), "{err}");
        assert_eq!(GhashImpl::fastest(), GhashImpl::Portable);
    }
    // What remains still works.
    assert!(Aez::new(&KEY).encrypt(b"n", &[], 16, b"m").is_ok());
    println!("masked backends refused: {refused}");
}

/// Masking AVX2 takes away every path compiled with it — the ymm backends and GHASH, and also
/// the AVX-512 ones, since `#[target_feature(enable = "avx512f")]` lets the compiler use AVX2
/// instructions too. (The GHASH width detection once kept its ymm form when the CPU had the zmm
/// one; that shows on AVX-512 CPUs.)
#[cfg(target_arch = "x86_64")]
#[test]
fn masking_avx2_removes_every_path_that_may_use_it() {
    if !under_mask("masking_avx2_removes_every_path_that_may_use_it", "avx2", "no path uses avx2") {
        return;
    }
    for kind in [BackendKind::Vaes256, BackendKind::Vaes512, BackendKind::BitsliceAvx2, BackendKind::BitsliceAvx512] {
        assert!(!kind.available(), "{kind} available with avx2 masked");
    }
    for g in [GhashImpl::Vpclmul256, GhashImpl::Vpclmul512] {
        assert!(!g.available(), "{} available with avx2 masked", g.name());
    }
    assert!(!AceBackend::Avx2.available() && !AceBackend::Avx512.available());
    let features = aeslab::cpu::features();
    for f in ["avx2", "avx512f", "avx512bw", "avx512vl", "vaes"] {
        assert!(!features.contains(&f), "{f} still listed: {features:?}");
    }
    // What needs no AVX2 stays.
    if std::arch::is_x86_feature_detected!("aes") {
        assert!(BackendKind::Aesni.available());
        assert_eq!(aeslab::aes::default_backend(), BackendKind::Aesni);
    }
    println!("no path uses avx2");
}

/// The variable-time `table` backend only through a constructor whose name says so: the AEADs,
/// CTR and the block cipher refuse it otherwise (AEZ refuses it always).
#[test]
fn the_table_backend_needs_a_variable_time_constructor() {
    use aeslab::ctr::{Aes128Ctr, Counter, DynCtr, FaceLevel};
    use aeslab::gcm::{Aes128Gcm, Gcm, GhashImpl};
    use aeslab::{Aes128, Error};
    let table = BackendKind::Table;
    let refused = |r: Result<(), Error>, what: &str| match r {
        Err(Error::VariableTimeNotChosen { backend: "table", .. }) => {}
        other => panic!("{what}: {other:?}"),
    };
    let (key, iv) = ([1u8; 16], [2u8; 16]);
    refused(DynCtr::new(&key, &iv, table, FaceLevel::None, Counter::Be128).map(drop), "DynCtr::new");
    refused(Aes128Ctr::with_options(&key.into(), &iv.into(), table, FaceLevel::None).map(drop), "AesCtr::with_options");
    refused(Gcm::with_options(&key, table, FaceLevel::None, GhashImpl::Portable, 16).map(drop), "Gcm::with_options");
    refused(Aes128Gcm::with_options(&key.into(), table, FaceLevel::None, GhashImpl::Portable).map(drop), "AesGcm::with_options");
    refused(AnyAes::new(table, &key).map(drop), "AnyAes::new");
    refused(Aes128::with_backend(&key.into(), table).map(drop), "Aes::with_backend");
    // Asked for by name, it runs, and agrees with a constant-time backend.
    let mut a = [0u8; 40];
    let mut b = [0u8; 40];
    DynCtr::new_variable_time(&key, &iv, table, FaceLevel::None, Counter::Be128).unwrap().apply_keystream(&mut a);
    DynCtr::new(&key, &iv, BackendKind::Ct64, FaceLevel::None, Counter::Be128).unwrap().apply_keystream(&mut b);
    assert_eq!(a, b);
    let sealed = Gcm::with_options_variable_time(&key, table, FaceLevel::None, GhashImpl::Portable, 16).unwrap().seal(&[3; 12], b"", b"hi").unwrap();
    assert_eq!(sealed, Gcm::new(&key).unwrap().seal(&[3; 12], b"", b"hi").unwrap());
    assert!(AnyAes::new_variable_time(table, &key).is_ok() && Aes128::with_backend_variable_time(&key.into(), table).is_ok());
}
