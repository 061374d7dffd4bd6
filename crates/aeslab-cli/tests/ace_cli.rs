//! `aeslab kat ace`, `aeslab kat ace-hash` and `aeslab bench ace` as a user runs them.

mod common;
use common::aeslab;

fn vector_file(file: &str) -> String {
    common::vector_file("ace", file)
}

fn last_line(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default().to_string()
}

#[test]
fn kat_ace_and_ace_hash_pass_on_every_backend() {
    let backends = ["scalar", "sse", "avx2", "avx512"];
    for backend in backends.iter().filter(|b| aeslab::ace::AceBackend::from_name(b).unwrap().available()) {
        let out = aeslab(&["kat", "ace", &vector_file("ACE.txt"), "--backend", backend], b"");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(last_line(&out), "1089 passed, 0 failed", "{backend}");
        let out = aeslab(&["kat", "ace-hash", &vector_file("ACE-HASH.txt"), "--backend", backend], b"");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(last_line(&out), "1025 passed, 0 failed", "{backend}");
    }
}

#[test]
fn kat_ace_counts_failures_and_rejects_bad_files() {
    let dir = std::env::temp_dir().join(format!("aeslab-ace-kat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Flip one ciphertext nibble of case 3 and one digest nibble of case 2.
    let text = std::fs::read_to_string(vector_file("ACE.txt")).unwrap();
    let bad = text.replacen("CT = 0306025F", "CT = 1306025F", 1);
    assert_ne!(bad, text);
    let f = dir.join("ACE-bad.txt");
    std::fs::write(&f, bad).unwrap();
    let out = aeslab(&["kat", "ace", f.to_str().unwrap()], b"");
    assert!(!out.status.success());
    assert_eq!(last_line(&out), "1088 passed, 1 failed");
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL case #2"));

    let text = std::fs::read_to_string(vector_file("ACE-HASH.txt")).unwrap();
    let f = dir.join("ACE-HASH-bad.txt");
    std::fs::write(&f, text.replacen("MD = C3E3", "MD = C3E4", 1)).unwrap();
    let out = aeslab(&["kat", "ace-hash", f.to_str().unwrap()], b"");
    assert!(!out.status.success());
    assert_eq!(last_line(&out), "1024 passed, 1 failed");

    for (content, msg) in [
        ("Count = 1\nKey = zz\n", "`Key` is not hex"),
        ("no equals sign here\n", "expected `Name = value`"),
        ("\n\n", "holds no vectors"),
        ("Count = 1\nKey = 00\nNonce = 000102030405060708090A0B0C0D0E0F\nPT =\nAD =\nCT = 00\n", "`Key` is not 16 bytes"),
    ] {
        let f = dir.join("bad.txt");
        std::fs::write(&f, content).unwrap();
        let out = aeslab(&["kat", "ace", f.to_str().unwrap()], b"");
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{err}");
    }
    let out = aeslab(&["kat", "ace", &vector_file("ACE.txt"), "--backend", "neon"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown ACE backend `neon`"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[cfg_attr(not(target_arch = "x86_64"), ignore = "the SIMD ACE backends are x86-64 only")]
fn bench_ace_json_has_the_documented_records() {
    let out = aeslab(&["bench", "ace", "--quick", "--json", "--bytes", "100", "--backends", "sse"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut shapes = Vec::new();
    for r in &records {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["backend", "bytes", "cycles_per_byte", "impl", "lanes", "op"]);
        assert_eq!(r["impl"], "aeslab");
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0);
        shapes.push((r["op"].as_str().unwrap().to_string(), r["backend"].as_str().unwrap().to_string(), r["lanes"].as_u64().unwrap(), r["bytes"].as_u64().unwrap()));
    }
    // The scalar reference is always measured; sse once per message and once per lane.
    for expect in [
        ("perm", "scalar", 1, 40),
        ("perm", "sse", 4, 160),
        ("aead", "scalar", 1, 100),
        ("aead", "sse", 1, 100),
        ("aead", "sse", 4, 100),
        ("hash", "scalar", 1, 100),
        ("hash", "sse", 4, 100),
    ] {
        let e = (expect.0.to_string(), expect.1.to_string(), expect.2, expect.3);
        assert!(shapes.contains(&e), "missing {expect:?} in {shapes:?}");
    }
}

#[test]
#[cfg_attr(not(target_arch = "x86_64"), ignore = "the SIMD ACE backends are x86-64 only")]
fn bench_ace_listing_follows_seed_004() {
    let out = aeslab(&["bench", "ace", "--quick", "--bytes", "64", "--backends", "sse"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Arch: sse (4 lanes)"), "{text}");
    let aeslab_line = text.lines().find(|l| l.starts_with("aeslab: ")).unwrap();
    let ref_line = text.lines().find(|l| l.starts_with("Ref  : ")).unwrap();
    assert!(aeslab_line.contains("+-") && ref_line.contains("(x"), "{text}");
    assert!(text.contains("| ACE-AE-128 | sse |"), "{text}");
}
