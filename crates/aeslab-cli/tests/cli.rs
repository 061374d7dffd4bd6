//! The `aeslab` binary as a user runs it.

mod common;

fn aeslab(args: &[&str]) -> std::process::Output {
    common::aeslab(args, b"")
}

#[test]
fn cpu_json_has_the_documented_shape() {
    let out = aeslab(&["cpu", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let obj = v.as_object().unwrap();
    let mut keys: Vec<_> = obj.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["backends", "cpu", "cycles_per_tsc_tick", "default_backend", "features"]);
    assert!(v["cpu"].is_string());
    assert!(v["features"].as_array().unwrap().iter().all(|f| f.is_string()));
    let backends = v["backends"].as_array().unwrap();
    let names: Vec<_> = backends.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"table") && names.contains(&"ct64"));
    for b in backends {
        let mut bk: Vec<_> = b.as_object().unwrap().keys().map(String::as_str).collect();
        bk.sort();
        assert_eq!(bk, ["available", "batch", "constant_time", "name"]);
        assert!(b["batch"].as_u64().unwrap() >= 1);
    }
    let table = backends.iter().find(|b| b["name"] == "table").unwrap();
    assert_eq!(table["constant_time"], false);
    // The default is a listed, available, constant-time backend, never `table`.
    let default = v["default_backend"].as_str().unwrap();
    let d = backends.iter().find(|b| b["name"] == default).unwrap();
    assert_eq!(d["available"], true);
    assert_eq!(d["constant_time"], true);
    #[cfg(target_arch = "x86_64")]
    {
        let ratio = v["cycles_per_tsc_tick"].as_f64().unwrap();
        assert!(ratio > 0.2 && ratio < 10.0, "{ratio}");
    }
}

#[test]
fn cpu_text_lists_every_backend() {
    let out = aeslab(&["cpu"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for name in ["table", "ct64", "Default backend"] {
        assert!(text.contains(name), "{text}");
    }
}

#[test]
fn every_subcommand_has_help() {
    for args in [&["--help"][..], &["cpu", "--help"], &["report", "--help"]] {
        let out = aeslab(args);
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8(out.stdout).unwrap().contains("Usage: aeslab"), "{args:?}");
    }
}

#[test]
fn bad_arguments_give_one_error_line_and_a_nonzero_exit() {
    for args in [&["cpu", "--bogus"][..], &["frobnicate"], &[]] {
        let out = aeslab(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("aeslab: "), "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn report_writes_every_section_the_json_records_and_the_plots() {
    let dir = std::env::temp_dir().join(format!("aeslab-report-test-{}", std::process::id()));
    let out = aeslab(&["report", "--quick", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(dir.join("REPORT.md")).unwrap();
    assert!(md.starts_with("# aeslab report"));
    for header in ["- Mode: quick", "- Compiler: rustc", "- Clock: ", "core cycles per tick", "- Features: "] {
        assert!(md.contains(header), "{header} missing from the header");
    }
    for section in ["## Seed 001", "## Seed 000", "## Seed 003", "## Seed 002", "## Seed 004", "## AES-GCM"] {
        assert!(md.contains(section), "{section} missing");
    }
    // Per SIMD backend "Ref  : …"; a CPU without one (aarch64) lists the scalar reference alone.
    assert!(md.contains("Ref  : ") || md.contains("Ref (scalar): "), "seed 004's listing");
    if cfg!(target_arch = "x86_64") {
        // Computed from the AESENC chains' throughput figures (x86-64's instruction table): a
        // limit where one is in the JSON records; where the rows were there but too noisy (under
        // qemu), a summary that says so; without AES-NI, one that says none was measured.
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
        let aes_round_figure = json["records"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["instr"].as_str().is_some_and(|i| i.ends_with("aesenc")) && r["kind"] == "throughput");
        if aes_round_figure {
            assert!(md.contains("The AES-unit limit used below"), "seed 001's computed summary");
            assert!(md.contains("of the AES units' peak"), "seed 003's distance to the limit");
        } else if md.lines().any(|l| l.starts_with("|`") && l.contains("aesenc-") && l.contains("`| noisy")) {
            assert!(md.contains("figures were too noisy in this run"), "seed 001's summary under noise");
            assert!(!md.contains("of the AES units' peak"));
        } else {
            assert!(md.contains("no AES round instruction was measured on this CPU"), "seed 001's summary without AES-NI");
            assert!(!md.contains("of the AES units' peak"));
        }
    }

    // Every plot exists, is an SVG with its title, and is linked from REPORT.md.
    for (file, title) in [
        ("ctr-aes128.svg", "AES-128-CTR"),
        ("ctr-aes192.svg", "AES-192-CTR"),
        ("ctr-aes256.svg", "AES-256-CTR"),
        ("face-ablation.svg", "FACE ablation"),
        ("aez.svg", "AEZ v5 encryption"),
        ("instr.svg", "Instruction latency and throughput"),
        ("pipeline.svg", "Throughput vs blocks in flight"),
        ("gcm-aes128.svg", "AES-128-GCM seal"),
        ("gcm-aes256.svg", "AES-256-GCM seal"),
    ] {
        if file == "pipeline.svg" && !cfg!(target_arch = "x86_64") {
            // Seed 000's experiment runs on x86-64's xmm/ymm/zmm only.
            continue;
        }
        let svg = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(svg.starts_with("<svg") && svg.contains(title), "{file}");
        assert!(md.contains(&format!("({file})")), "{file} not linked");
    }

    // report.json holds the records of every bench command.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let records = json["records"].as_array().unwrap();
    let has = |pred: &dyn Fn(&serde_json::Value) -> bool| records.iter().any(pred);
    // Seed 001's rows (the add chains run everywhere: a record, or under emulation possibly a
    // figure the table marks noisy); the AES round instruction and seed 000's pipelining
    // (x86-64's) where the CPU has AES instructions and the table showed them.
    assert!(has(&|r| r["instr"] == "add" && r["kind"] == "latency") || md.contains("|`add-latency`| noisy"));
    let aes_round = if cfg!(target_arch = "x86_64") { "aesenc" } else { "aese" };
    if md.contains(&format!("|`{aes_round}-throughput`| ")) && !md.contains(&format!("|`{aes_round}-throughput`| noisy")) {
        assert!(has(&|r| r["instr"] == aes_round && r["kind"] == "throughput"));
    }
    if md.lines().any(|l| l.starts_with("BenchmarkSingle") && l.contains(" ns/op")) {
        assert!(has(&|r| r.get("cycles_per_block").is_some()));
    }
    assert!(has(&|r| r["face"] == "rd2p" && r["key_bits"] == 256));
    assert!(has(&|r| r["op"] == "key_setup"));
    assert!(has(&|r| r["op"] == "open" && r["impl"] == "aeslab" && r["backend"].as_str().is_some_and(|b| b.starts_with("aead traits"))));
    assert!(md.contains("AES-128-GCM open, cycles/byte") && md.contains("AES-256-GCM open, cycles/byte"));
    assert!(has(&|r| r.get("ns_per_op").is_some() && r["impl"] == "zears"));
    assert!(has(&|r| r["op"] == "perm" && r["backend"] == "scalar"));
    assert!(has(&|r| r["op"] == "aead"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_into_an_unwritable_place_is_an_error() {
    let out = aeslab(&["report", "--quick", "--out", "/proc/aeslab-cannot-write-here"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("aeslab: error: cannot create"), "{err}");
}
