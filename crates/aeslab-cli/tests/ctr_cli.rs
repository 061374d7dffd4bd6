//! `aeslab ctr` and `aeslab bench ctr` as a user runs them.

mod common;
use common::aeslab;

use aeslab::aes::BackendKind;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};

const KEY: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const CT: &str = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee";

#[test]
fn ctr_encrypts_sp800_38a_f5_1_and_decrypts_back_on_every_backend_and_level() {
    let pt = hex::decode(PT).unwrap();
    for kind in BackendKind::available_kinds() {
        for level in FaceLevel::ALL {
            let args = ["ctr", "--key", KEY, "--iv", IV, "--backend", kind.name(), "--face", level.name(), "--allow-variable-time"];
            let out = aeslab(&args, &pt);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(hex::encode(&out.stdout), CT, "{kind} {level}");
            let back = aeslab(&args, &out.stdout);
            assert_eq!(back.stdout, pt, "{kind} {level}");
        }
    }
    // Defaults: counter 128, default backend, rd2p.
    let out = aeslab(&["ctr", "--key", KEY, "--iv", IV], &pt);
    assert_eq!(hex::encode(&out.stdout), CT);
}

#[test]
fn ctr_counter_32_ends_at_its_last_block_instead_of_wrapping() {
    // Two blocks before the end of the 32-bit counter space.
    let iv = "000102030405060708090a0bfffffffe";
    let data = vec![0x5au8; 100];
    let out = aeslab(&["ctr", "--key", KEY, "--iv", iv, "--counter", "32"], &data);
    assert!(!out.status.success(), "100 bytes need 7 blocks, 2 are left");
    assert!(out.stdout.is_empty(), "no keystream is written, repeated or not");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the 32-bit counter has keystream for 32 more bytes, not 100"), "{err}");
    // Up to the end it works, and matches the library.
    let out = aeslab(&["ctr", "--key", KEY, "--iv", iv, "--counter", "32"], &data[..32]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut expect = data[..32].to_vec();
    DynCtr::new_variable_time(&hex::decode(KEY).unwrap(), &hex::decode(iv).unwrap(), BackendKind::Ct64, FaceLevel::None, Counter::Be32)
        .unwrap()
        .apply_keystream(&mut expect);
    assert_eq!(out.stdout, expect);
    // The 128-bit counter carries on into byte 11.
    let out128 = aeslab(&["ctr", "--key", KEY, "--iv", iv, "--counter", "128"], &data);
    assert!(out128.status.success());
    assert_eq!(out128.stdout[..32], expect[..]);
    // The probe of issue 21: one block left, two asked for.
    let probe = aeslab(&["ctr", "--counter", "32", "--key", KEY, "--iv", "000000000000000000000000ffffffff"], &[0u8; 32]);
    assert!(!probe.status.success() && probe.stdout.is_empty());
}

#[test]
fn ctr_empty_input_gives_empty_output() {
    let out = aeslab(&["ctr", "--key", KEY, "--iv", IV], b"");
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn ctr_bad_arguments_are_one_line_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["ctr", "--key", "zz", "--iv", IV], "--key is not valid hex"),
        (&["ctr", "--key", "abc", "--iv", IV], "--key is not valid hex"),
        (&["ctr", "--key", "00112233", "--iv", IV], "invalid AES key length 4 bytes"),
        (&["ctr", "--key", KEY, "--iv", "0011"], "invalid IV length 2 bytes"),
        (&["ctr", "--key", KEY, "--iv", IV, "--backend", "nosuch"], "unknown backend `nosuch`"),
        (&["ctr", "--key", KEY, "--iv", IV, "--face", "rd3"], "unknown FACE level `rd3`"),
        (&["ctr", "--key", KEY, "--iv", IV, "--counter", "64"], "invalid value '64'"),
        (&["ctr", "--iv", IV], "--key"),
    ];
    for (args, msg) in cases {
        let out = aeslab(args, b"hello");
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

fn keys_of(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn bench_ctr_json_records_have_the_documented_shapes() {
    let out = aeslab(
        &["bench", "ctr", "--quick", "--json", "--sizes", "1024", "--keys", "128", "--backends", "ct64"],
        b"",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let throughput: Vec<_> = records.iter().filter(|r| r.get("op").is_none()).collect();
    let setup: Vec<_> = records.iter().filter(|r| r.get("op").is_some()).collect();
    for r in &throughput {
        assert_eq!(
            keys_of(r),
            ["backend", "bytes", "cycles_per_byte", "face", "gbytes_per_s", "impl", "key_bits", "threads"]
        );
        assert_eq!(r["bytes"], 1024);
        assert_eq!(r["key_bits"], 128);
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0);
        assert!(r["gbytes_per_s"].as_f64().unwrap() > 0.0);
    }
    for r in &setup {
        assert_eq!(keys_of(r), ["backend", "cycles", "face", "impl", "key_bits", "op", "us"]);
        assert_eq!(r["op"], "key_setup");
    }
    // ct64 at every level, and every peer.
    let impls: Vec<&str> = throughput.iter().map(|r| r["impl"].as_str().unwrap()).collect();
    for name in ["aeslab", "openssl", "aws-lc-rs", "rustcrypto"] {
        assert!(impls.contains(&name), "{name} missing");
    }
    let faces: Vec<&str> = throughput
        .iter()
        .filter(|r| r["impl"] == "aeslab" && r["backend"] == "ct64")
        .map(|r| r["face"].as_str().unwrap())
        .collect();
    assert_eq!(faces, ["none", "rd0", "rd1", "rd1p", "rd2", "rd2p"]);
    // RustCrypto's current release beside the previous one, and a message at a time through
    // the traits (key set-up included) for aeslab's default and for RustCrypto.
    let backends: Vec<(&str, &str)> =
        throughput.iter().map(|r| (r["impl"].as_str().unwrap(), r["backend"].as_str().unwrap())).collect();
    for row in [
        ("rustcrypto", "aes 0.9 + ctr 0.10"),
        ("rustcrypto", "aes 0.8 + ctr 0.9"),
        ("aeslab", "per message: AesCtr::new + apply_keystream"),
        ("rustcrypto", "per message: ctr 0.10 + aes 0.9 new + apply_keystream"),
    ] {
        assert!(backends.contains(&row), "{row:?} missing");
    }
    assert_eq!(setup.iter().filter(|r| r["impl"] == "aeslab").count(), 6);
}

/// `--threads 2` times aeslab's rows on one thread and on two in the same run. The sizes start
/// below the length the library shares: the pool used to start only after the timing had pinned
/// the thread, with one thread, and every row ran on one.
#[test]
fn bench_ctr_threads_times_one_and_two_threads() {
    let out = aeslab(
        &["bench", "ctr", "--quick", "--json", "--threads", "2", "--sizes", "16,1024", "--keys", "128", "--backends", "ct64"],
        b"",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut rows: Vec<(String, u64, u64)> = records
        .iter()
        .filter(|r| r.get("op").is_none() && r["impl"] == "aeslab" && r["backend"] == "ct64")
        .map(|r| (r["face"].as_str().unwrap().to_string(), r["threads"].as_u64().unwrap(), r["bytes"].as_u64().unwrap()))
        .collect();
    rows.sort();
    let mut expect = Vec::new();
    for face in ["none", "rd0", "rd1", "rd1p", "rd2", "rd2p"] {
        for threads in [1, 2] {
            for bytes in [16, 1024] {
                expect.push((face.to_string(), threads, bytes));
            }
        }
    }
    expect.sort();
    assert_eq!(rows, expect);
    // The peers, and aeslab's per-message row, run on one thread.
    assert!(records.iter().filter(|r| r.get("op").is_none() && r["backend"] != "ct64").all(|r| r["threads"] == 1));
}

#[test]
fn bench_ctr_rejects_bad_options() {
    for (args, msg) in [
        (&["bench", "ctr", "--keys", "100"][..], "not an AES key size"),
        (&["bench", "ctr", "--sizes", "0"], "--sizes must list positive"),
        (&["bench", "ctr", "--backends", "nosuch"], "unknown backend"),
        (&["bench", "ctr", "--threads", "0"], "--threads must be at least 1"),
        (&["bench", "ctr", "--sizes", "x"], "invalid value 'x'"),
    ] {
        let out = aeslab(args, b"");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}
