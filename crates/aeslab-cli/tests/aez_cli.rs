//! `aeslab kat aez`, `aeslab aez seal|open` and `aeslab bench aez` as a user runs them.

mod common;
use common::aeslab;

fn vector_file(file: &str) -> String {
    common::vector_file("aez", file)
}

#[test]
fn kat_aez_runs_every_schema_and_reports_on_the_last_line() {
    for (file, n) in [("e.json", 534), ("hash.json", 27), ("prf.json", 16), ("extract.json", 110), ("encrypt.json", 1024)] {
        let out = aeslab(&["kat", "aez", &vector_file(file)], b"");
        assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().last().unwrap(), format!("{n} passed, 0 failed"), "{file}");
    }
    let out = aeslab(&["kat", "aez", &vector_file("encrypt_no_ad.json"), "--backend", "ct64"], b"");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().last().unwrap(), "4 passed, 0 failed");
}

#[test]
fn kat_aez_counts_failures_and_exits_nonzero() {
    let dir = std::env::temp_dir().join(format!("aeslab-kat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(vector_file("prf.json")).unwrap();
    let mut v: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    v[0]["r"] = serde_json::Value::String("00".repeat(v[0]["tau"].as_u64().unwrap() as usize));
    let bad = dir.join("prf-bad.json");
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let out = aeslab(&["kat", "aez", bad.to_str().unwrap()], b"");
    assert!(!out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().last().unwrap(), "15 passed, 1 failed");

    for (content, msg) in [("not json", "is not a JSON list"), ("[{\"x\": 1}]", "unknown AEZ vector schema"), ("[]", "holds no vectors")] {
        let f = dir.join("bad.json");
        std::fs::write(&f, content).unwrap();
        let out = aeslab(&["kat", "aez", f.to_str().unwrap()], b"");
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{err}");
    }
    let out = aeslab(&["kat", "aez", "/nonexistent/vectors.json"], b"");
    assert!(String::from_utf8(out.stderr).unwrap().starts_with("aeslab: error: cannot read"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn seal_then_open_round_trips_and_matches_the_library() {
    let msg = b"the message, longer than thirty-two bytes to use AEZ-core";
    let args = ["--key", "000102", "--nonce", "0a0b", "--ad", "aa", "--ad", ""];
    let sealed = aeslab(&[&["aez", "seal"][..], &args].concat(), msg);
    assert!(sealed.status.success());
    assert_eq!(sealed.stdout.len(), msg.len() + 16);
    let expect = aeslab::aez::Aez::new(&[0, 1, 2]).encrypt(&[0x0a, 0x0b], &[&[0xaa], &[]], 16, msg).unwrap();
    assert_eq!(sealed.stdout, expect);
    let opened = aeslab(&[&["aez", "open"][..], &args].concat(), &sealed.stdout);
    assert!(opened.status.success());
    assert_eq!(opened.stdout, msg);
    // tau 0 and a long tau; empty message.
    for tau in ["0", "40"] {
        let s = aeslab(&["aez", "seal", "--key", "00", "--nonce", "", "--tau", tau], b"");
        let o = aeslab(&["aez", "open", "--key", "00", "--nonce", "", "--tau", tau], &s.stdout);
        assert!(o.status.success() && o.stdout.is_empty(), "tau {tau}");
    }
}

#[test]
fn open_of_a_forgery_writes_nothing_and_fails() {
    let sealed = aeslab(&["aez", "seal", "--key", "00", "--nonce", "01"], b"attack at dawn").stdout;
    for (bad, args) in [
        ({ let mut c = sealed.clone(); c[0] ^= 1; c }, vec!["--key", "00", "--nonce", "01"]),
        (sealed.clone(), vec!["--key", "00", "--nonce", "02"]),
        (sealed.clone(), vec!["--key", "00", "--nonce", "01", "--ad", "ff"]),
        (sealed[..10].to_vec(), vec!["--key", "00", "--nonce", "01"]),
    ] {
        let out = aeslab(&[&["aez", "open"][..], &args].concat(), &bad);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn aez_bad_arguments_are_one_line_errors() {
    for (args, msg) in [
        (&["aez", "seal", "--key", "zz", "--nonce", "00"][..], "--key is not valid hex"),
        (&["aez", "seal", "--key", "00", "--nonce", "0"], "--nonce is not valid hex"),
        (&["aez", "seal", "--key", "00", "--nonce", "00", "--ad", "x"], "--ad is not valid hex"),
        (&["aez", "seal", "--key", "00", "--nonce", "00", "--tau", "99999999999"], "tau of 99999999999 bytes is too large"),
        (&["aez", "seal", "--key", "00", "--nonce", "00", "--backend", "table"], "variable-time"),
        (&["aez", "open", "--key", "00"], "--nonce"),
    ] {
        let out = aeslab(args, b"x");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn bench_aez_json_records_have_the_documented_shape() {
    let out = aeslab(&["bench", "aez", "--quick", "--json", "--sizes", "1,64", "--backends", "ct64"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let records: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    for r in &records {
        let mut keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, ["backend", "bytes", "cycles_per_byte", "impl", "mb_per_s", "ns_per_op"]);
    }
    let impls: Vec<&str> = records.iter().map(|r| r["impl"].as_str().unwrap()).collect();
    assert!(impls.contains(&"aeslab") && impls.contains(&"zears"));
    let allowed = ["aeslab", "zears", "yawning-aez-go", "yawning-aez-go-noasm"];
    assert!(impls.iter().all(|i| allowed.contains(i)), "{impls:?}");
}
