//! `aeslab instr` and `aeslab pipeline` as a user runs them. These check the output's shape and
//! the harness, never the CPU's timings.

mod common;

fn aeslab(args: &[&str]) -> std::process::Output {
    common::aeslab(args, b"")
}

#[test]
fn instr_markdown_has_seed_001_form() {
    let out = aeslab(&["instr", "--filter", "^add-", "--count", "200000"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("# Main Report using 200000 instructions for each benchmark\n"), "{md}");
    assert!(md.contains("| benchmark | cycles/instr | total execution time |\n| --------- | ------------ | -------------------- |\n"));
    assert!(md.contains("- Clock: "));
    for name in ["add-latency", "add-throughput"] {
        let row = md.lines().find(|l| l.starts_with(&format!("|`{name}`|"))).unwrap_or_else(|| panic!("{name}: {md}"));
        assert!(row.ends_with(" msec |"), "{row}");
    }
}

#[test]
fn instr_json_has_the_documented_shape() {
    let out = aeslab(&["instr", "--json", "--filter", "^add-latency$", "--count", "200000"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["clock", "cpu", "cycles_per_tsc_tick", "noisy", "results"]);
    // The one benchmark is in `results` or, when this run was too noisy to trust, in `noisy`.
    let (results, noisy) = (v["results"].as_array().unwrap(), v["noisy"].as_array().unwrap());
    assert_eq!(results.len() + noisy.len(), 1, "{v}");
    for r in results {
        let mut rk: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        rk.sort();
        assert_eq!(rk, ["count", "cycles_per_instr", "instr", "kind", "total_ns", "width"]);
        assert_eq!(r["count"].as_u64().unwrap(), 200_000);
        assert!(r["cycles_per_instr"].as_f64().unwrap() > 0.0 && r["total_ns"].as_f64().unwrap() > 0.0);
    }
    for r in noisy {
        let mut rk: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        rk.sort();
        assert_eq!(rk, ["cycles_per_instr", "instr", "kind", "spread", "width"]);
        assert!(r["spread"].as_f64().unwrap() > 0.03);
    }
    let r = results.iter().chain(noisy).next().unwrap();
    assert_eq!((&r["instr"], &r["width"], &r["kind"]), (&"add".into(), &"gpr".into(), &"latency".into()));
}

#[test]
fn instr_rejects_bad_options() {
    for (args, msg) in [
        (&["instr", "--filter", "("][..], "not a valid regular expression"),
        (&["instr", "--filter", "^nosuchinstruction$"], "matches no benchmark"),
        (&["instr", "--count", "0"], "--count must be at least 1"),
    ] {
        let out = aeslab(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// The features `aeslab cpu --json` reports (what dispatch sees, `AESLAB_CPU_MASK` applied).
fn cpu_features() -> Vec<String> {
    let out = aeslab(&["cpu", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["features"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect()
}

/// Says on stderr (past the test harness's capture) what this run could not check.
fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "note: {line}");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn pipeline_json_shape_and_go_listing() {
    let features = cpu_features();
    let has = |f: &str| features.iter().any(|x| x == f);
    let out = aeslab(&["pipeline", "--quick", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    for r in results {
        let mut keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, ["bench", "cycles_per_block", "mb_per_s", "n", "ns_per_op", "variant", "width"]);
    }
    // The widths this CPU runs: xmm with AES-NI, ymm with VAES and AVX2, zmm with AVX-512F.
    let widths = [("xmm", has("aes")), ("ymm", has("vaes") && has("avx2")), ("zmm", has("vaes") && has("avx512f"))];
    let series_measured = |width: &str| results.iter().any(|r| r["width"] == width);
    for (width, runs) in widths {
        assert_eq!(series_measured(width), runs, "{width}: measured when the CPU runs it, only then");
        if !runs {
            note(&format!("pipeline_json_shape_and_go_listing: no {width} series on this CPU ({features:?})"));
        }
    }
    assert_eq!(results.iter().any(|r| r["bench"] == "Single"), has("aes"));
    if has("aes") {
        // Multi and the four Nomem assignments for N = 1..16 on xmm (N = 16 needs AVX-512VL).
        for variant in ["one-register", "random", "const-key", "const-block"] {
            let ns: Vec<u64> = results
                .iter()
                .filter(|r| r["bench"] == "Nomem" && r["variant"] == variant && r["width"] == "xmm")
                .map(|r| r["n"].as_u64().unwrap())
                .collect();
            assert!(ns.len() >= 15, "{variant}: {ns:?}");
        }
    }

    let text = aeslab(&["pipeline", "--quick"]);
    assert!(text.status.success());
    let listing = String::from_utf8(text.stdout).unwrap();
    assert!(listing.contains("Conclusion (computed from the measurements above):"));
    if has("aes") {
        assert!(listing.lines().any(|l| l.starts_with("BenchmarkSingle") && l.contains(" ns/op\t") && l.contains(" MB/s\t")));
        assert!(listing.lines().any(|l| l.starts_with("BenchmarkMulti/4 ")));
    }
    // Every series gets a line: a verdict where it was measured (which one is the CPU's
    // business, not the test's), else why not.
    for (series, width) in [("Multi (xmm)", "xmm"), ("Nomem/one-register (xmm)", "xmm"), ("Nomem/const-key (zmm)", "zmm"), ("Nomem/const-block (ymm)", "ymm")] {
        let line = listing.lines().find(|l| l.starts_with(&format!("- {series}: "))).unwrap_or_else(|| panic!("{series}: {listing}"));
        if series_measured(width) {
            assert!(line.contains("latency-bound") || line.contains("throughput-bound from N = "), "{line}");
        } else {
            assert!(line.contains("not measured — ") && (line.contains("CPU lacks") || line.contains("masked by AESLAB_CPU_MASK")), "{line}");
        }
    }
}
