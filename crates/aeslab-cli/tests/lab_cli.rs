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
    assert_eq!(keys, ["clock", "cpu", "cycles_per_tsc_tick", "results"]);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    let mut rk: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
    rk.sort();
    assert_eq!(rk, ["count", "cycles_per_instr", "instr", "kind", "total_ns", "width"]);
    assert_eq!(r["instr"], "add");
    assert_eq!(r["width"], "gpr");
    assert_eq!(r["kind"], "latency");
    assert!(r["count"].as_u64().unwrap() >= 100_000);
    assert!(r["cycles_per_instr"].as_f64().unwrap() > 0.0 && r["total_ns"].as_f64().unwrap() > 0.0);
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

#[cfg(target_arch = "x86_64")]
#[test]
fn pipeline_json_shape_and_go_listing() {
    let out = aeslab(&["pipeline", "--quick", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["bench"] == "Single"));
    for r in results {
        let mut keys: Vec<_> = r.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, ["bench", "cycles_per_block", "mb_per_s", "n", "ns_per_op", "variant", "width"]);
    }
    // Multi and the four Nomem assignments for N = 1..16 on xmm (N = 16 needs AVX-512VL).
    for variant in ["one-register", "random", "const-key", "const-block"] {
        let ns: Vec<u64> = results
            .iter()
            .filter(|r| r["bench"] == "Nomem" && r["variant"] == variant && r["width"] == "xmm")
            .map(|r| r["n"].as_u64().unwrap())
            .collect();
        assert!(ns.len() >= 15, "{variant}: {ns:?}");
    }

    let text = aeslab(&["pipeline", "--quick"]);
    let listing = String::from_utf8(text.stdout).unwrap();
    assert!(listing.lines().any(|l| l.starts_with("BenchmarkSingle") && l.contains(" ns/op\t") && l.contains(" MB/s\t")));
    assert!(listing.lines().any(|l| l.starts_with("BenchmarkMulti/4 ")));
    assert!(listing.contains("Conclusion (computed from the measurements above):"));
    // Every series gets a verdict (which one is the CPU's business, not the test's).
    for series in ["Multi (xmm)", "Nomem/one-register (xmm)", "Nomem/const-key (zmm)", "Nomem/const-block (ymm)"] {
        let line = listing.lines().find(|l| l.starts_with(&format!("- {series}: "))).unwrap_or_else(|| panic!("{series}: {listing}"));
        assert!(line.contains("latency-bound") || line.contains("throughput-bound from N = "), "{line}");
    }
}
