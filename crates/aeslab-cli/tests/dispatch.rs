//! The dispatch levels `.ci/run` tests at (`.ci/cpu-masks`): each `AESLAB_CPU_MASK` takes away
//! what it names, the default backend is the one the preference order gives for what is left,
//! and it changes at every level where the CPU had what that level removes.

mod common;

use common::aeslab_with_env;

/// `aeslab cpu --json` under `mask` (an empty mask overrides any mask this test runs under).
fn cpu(mask: &str) -> (Vec<String>, String) {
    let out = aeslab_with_env(&["cpu", "--json"], b"", &[("AESLAB_CPU_MASK", mask)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let features = v["features"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
    (features, v["default_backend"].as_str().unwrap().to_string())
}

/// The preference order, stated here independently of the library: the fastest constant-time
/// backend whose features are all present.
fn expected_default(features: &[String]) -> &'static str {
    let has = |f: &str| features.iter().any(|x| x == f);
    if cfg!(target_arch = "aarch64") {
        return if has("aes") { "armv8" } else { "ct64" };
    }
    if has("aes") && has("vaes") && has("avx512f") && has("avx512bw") {
        "vaes512"
    } else if has("aes") && has("vaes") && has("avx2") {
        "vaes256"
    } else if has("aes") && has("ssse3") {
        "aesni"
    } else if has("avx512f") && has("avx512bw") {
        "bitslice-avx512"
    } else if has("avx2") {
        "bitslice-avx2"
    } else if has("ssse3") {
        "bitslice-sse"
    } else {
        "ct64"
    }
}

/// (label, mask) from `.ci/cpu-masks`.
fn levels() -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/cpu-masks");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (label, mask) = l.split_once('|').expect("label|mask");
            (label.to_string(), mask.to_string())
        })
        .collect()
}

#[cfg(target_arch = "x86_64")]
#[test]
fn every_mask_level_takes_away_what_it_names_and_moves_the_default() {
    use std::io::Write;
    let (mut features, mut default) = cpu("");
    assert_eq!(default, expected_default(&features), "unmasked: {features:?}");
    let levels = levels();
    assert!(levels.len() >= 3, "{levels:?}");
    for (label, mask) in levels {
        let (f, d) = cpu(&mask);
        for named in mask.split(',') {
            assert!(!f.iter().any(|x| x == named), "{label}: {named} still reported: {f:?}");
        }
        assert_eq!(d, expected_default(&f), "{label} ({mask}): {f:?}");
        // The default moves exactly when the previous level's default needed something this
        // level removed.
        if expected_default(&f) != expected_default(&features) {
            assert_ne!(d, default, "{label}");
        } else {
            let _ = writeln!(
                std::io::stderr(),
                "note: {label} leaves the default at {d} on this CPU (it lacked what the level removes)"
            );
        }
        (features, default) = (f, d);
    }
    // The last level leaves nothing but the portable code.
    assert_eq!(default, "ct64");
}
