//! `aeslab gcm` and `aeslab bench gcm` as a user runs them.

mod common;
use common::aeslab;

const K3: &str = "feffe9928665731c6d6a8f9467308308";
const N3: &str = "cafebabefacedbaddecaf888";

#[test]
fn gcm_seal_matches_the_specification_and_open_round_trips() {
    // Test case 3 of the GCM specification.
    let pt = hex::decode("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255").unwrap();
    let out = aeslab(&["gcm", "seal", "--key", K3, "--nonce", N3], &pt);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        hex::encode(&out.stdout),
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985\
4d5c2af327cd64a62cf35abd2ba6fab4"
    );
    for face in ["none", "rd1", "rd2p"] {
        for backend in ["ct64", "table"] {
            let args = ["gcm", "open", "--key", K3, "--nonce", N3, "--face", face, "--backend", backend, "--allow-variable-time"];
            let opened = aeslab(&args, &out.stdout);
            assert!(opened.status.success() && opened.stdout == pt, "{face} {backend}");
        }
    }
    // A 12-byte tag and AD: seal and open agree, and the output is 12 bytes longer.
    let sealed = aeslab(&["gcm", "seal", "--key", K3, "--nonce", "01", "--ad", "abcd", "--tag-len", "12"], b"hello");
    assert_eq!(sealed.stdout.len(), 5 + 12);
    let opened = aeslab(&["gcm", "open", "--key", K3, "--nonce", "01", "--ad", "abcd", "--tag-len", "12"], &sealed.stdout);
    assert_eq!(opened.stdout, b"hello");
}

#[test]
fn bench_gcm_json_has_bench_ctrs_record_shape() {
    let out = aeslab(&["bench", "gcm", "--quick", "--json", "--sizes", "64,4096", "--keys", "128"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut impls: Vec<String> = Vec::new();
    let mut rows: Vec<(String, String)> = Vec::new();
    // Key set-up records (`op`), one per implementation that has a key object to time.
    let setup: Vec<&serde_json::Value> = records.iter().filter(|r| r["op"] == "key_setup").collect();
    for r in &setup {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["backend", "cycles", "face", "impl", "key_bits", "op", "us"]);
        assert!(r["cycles"].as_f64().unwrap() > 0.0);
    }
    let setup_impls: Vec<&str> = setup.iter().map(|r| r["impl"].as_str().unwrap()).collect();
    assert_eq!(setup_impls, ["aeslab", "openssl", "aws-lc-rs", "ring", "rustcrypto"]);
    for r in records.iter().filter(|r| r.get("op").is_none()) {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["backend", "bytes", "cycles_per_byte", "face", "gbytes_per_s", "impl", "key_bits", "threads"]);
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0);
        impls.push(r["impl"].as_str().unwrap().to_string());
        rows.push((r["impl"].as_str().unwrap().to_string(), r["backend"].as_str().unwrap().to_string()));
    }
    // Per size: aeslab's native Gcm at FACE none and rd2p and its aead-traits row; RustCrypto's
    // aes-gcm 0.11 and 0.10.
    for expect in ["aeslab", "openssl", "aws-lc-rs", "ring", "rustcrypto"] {
        let per_size = match expect {
            "aeslab" => 3,
            "rustcrypto" => 2,
            _ => 1,
        };
        assert_eq!(impls.iter().filter(|i| *i == expect).count(), 2 * per_size, "{expect}");
    }
    assert!(rows.iter().any(|(i, b)| i == "rustcrypto" && b == "aes-gcm 0.11"));
    assert!(rows.iter().any(|(i, b)| i == "aeslab" && b.starts_with("aead traits")));
    // Go's GCM runs from `peers/go` whenever `go` is on PATH.
    let has_go = std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("go").is_file()));
    assert_eq!(impls.iter().filter(|i| *i == "go").count(), if has_go { 2 } else { 0 });
    // Opening: the sealing record's shape and `"op": "open"`, one for every sealing record.
    let sealed: Vec<(&str, &str, u64)> = records
        .iter()
        .filter(|r| r.get("op").is_none())
        .map(|r| (r["impl"].as_str().unwrap(), r["backend"].as_str().unwrap(), r["bytes"].as_u64().unwrap()))
        .collect();
    let opened: Vec<&serde_json::Value> = records.iter().filter(|r| r["op"] == "open").collect();
    for r in &opened {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["backend", "bytes", "cycles_per_byte", "face", "gbytes_per_s", "impl", "key_bits", "op", "threads"]);
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0);
    }
    let opened: Vec<(&str, &str, u64)> =
        opened.iter().map(|r| (r["impl"].as_str().unwrap(), r["backend"].as_str().unwrap(), r["bytes"].as_u64().unwrap())).collect();
    assert_eq!(opened, sealed);
    assert_eq!(records.len(), setup.len() + 2 * sealed.len(), "records other than seal, open and key set-up");
}

/// `--key-per-message` adds, per size, one record per current implementation timing a key made,
/// one message sealed and the key dropped; without it there are none.
#[test]
fn bench_gcm_key_per_message_times_each_implementation_per_size() {
    let out = aeslab(&["bench", "gcm", "--quick", "--json", "--sizes", "64,1420", "--keys", "256", "--key-per-message"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let per_message: Vec<&serde_json::Value> = records.iter().filter(|r| r["op"] == "key_per_message").collect();
    for r in &per_message {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["backend", "bytes", "cycles", "impl", "key_bits", "op", "us"]);
        assert!(r["cycles"].as_f64().unwrap() > 0.0);
        assert_eq!(r["key_bits"], 256);
    }
    for size in [64, 1420] {
        let impls: Vec<&str> = per_message.iter().filter(|r| r["bytes"] == size).map(|r| r["impl"].as_str().unwrap()).collect();
        assert_eq!(impls, ["aeslab", "openssl", "aws-lc-rs", "ring", "rustcrypto"], "{size} B");
    }
    // The key set-up table is still there, and its records are told apart by `op`.
    assert_eq!(records.iter().filter(|r| r["op"] == "key_setup").count(), 5);
    let plain = aeslab(&["bench", "gcm", "--quick", "--json", "--sizes", "64", "--keys", "128"], b"");
    let records: Vec<serde_json::Value> = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(records.iter().all(|r| r["op"] != "key_per_message"));
}

/// The variable-time `table` backend only when asked for by name: `gcm seal --backend table`
/// used to run silently.
#[test]
fn gcm_and_ctr_refuse_the_table_backend_without_allow_variable_time() {
    for args in [
        &["gcm", "seal", "--key", K3, "--nonce", N3, "--backend", "table"][..],
        &["gcm", "open", "--key", K3, "--nonce", N3, "--backend", "table"],
        &["ctr", "--key", K3, "--iv", "000102030405060708090a0b0c0d0e0f", "--backend", "table"],
    ] {
        let out = aeslab(args, b"hello, world and then some");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && out.stdout.is_empty(), "{args:?}");
        assert!(err.contains("runs in variable time") && err.contains("--allow-variable-time"), "{args:?}: {err}");
        let mut allowed = args.to_vec();
        allowed.push("--allow-variable-time");
        let ok = aeslab(&allowed, b"hello, world and then some");
        // (`gcm open` of a plaintext then fails authentication, which is still not a refusal.)
        assert!(!String::from_utf8_lossy(&ok.stderr).contains("variable time"), "{allowed:?}");
    }
}
