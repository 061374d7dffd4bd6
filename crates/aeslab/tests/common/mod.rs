//! Helpers shared by the library's tests (each test file uses some of them).
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// The text of `shared/testvectors/DIR/FILE`, found by walking up from this crate (the
/// repository sits beside `shared/`, in a work tree and in CI's fresh clone alike).
pub fn vector_text(dir: &str, file: &str) -> String {
    let mut at = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = at.join("shared/testvectors").join(dir).join(file);
        if candidate.exists() {
            return std::fs::read_to_string(candidate).unwrap();
        }
        assert!(at.pop(), "shared/testvectors/{dir}/{file} not found above {}", env!("CARGO_MANIFEST_DIR"));
    }
}

/// The vectors of `shared/testvectors/aez/FILE` (JSON from the Go implementation).
pub fn aez_vectors(file: &str) -> Vec<serde_json::Value> {
    serde_json::from_str(&vector_text("aez", file)).unwrap()
}

/// A hex string field of an AEZ vector.
pub fn hex_of(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

/// The cases of an LWC KAT file in `shared/testvectors/ace` (`Key = …` lines, blank-line
/// separated).
pub fn lwc_cases(file: &str) -> Vec<HashMap<String, Vec<u8>>> {
    vector_text("ace", file)
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            block
                .lines()
                .filter_map(|line| line.split_once('='))
                .map(|(k, v)| (k.trim().to_string(), hex::decode(v.trim()).unwrap_or_default()))
                .collect()
        })
        .collect()
}

/// A 16-byte field (key or nonce) of an LWC case.
pub fn field16(case: &HashMap<String, Vec<u8>>, name: &str) -> [u8; 16] {
    case[name].clone().try_into().unwrap()
}

/// Says on stderr which of the `wanted` things this test left out because the CPU (or
/// `AESLAB_CPU_MASK`) lacks them, with what each needs — one line per test, written past the
/// test harness's capture so that every run shows what it did not cover.
pub fn note_skipped(test: &str, skipped: &[(&str, &str)]) {
    use std::io::Write;
    use std::sync::Mutex;
    static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
    if !skipped.is_empty() {
        let list: Vec<String> = skipped.iter().map(|(name, needs)| format!("{name} (needs {needs})")).collect();
        let mask = std::env::var("AESLAB_CPU_MASK").map(|m| format!(" with AESLAB_CPU_MASK={m}")).unwrap_or_default();
        let line = format!("note: {test}: skipped on this CPU{mask}: {}", list.join(", "));
        let mut said = SAID.lock().unwrap();
        if !said.contains(&line) {
            let _ = writeln!(std::io::stderr(), "{line}");
            said.push(line);
        }
    }
}

/// The AES backends this CPU runs (noting the others).
pub fn aes_backends(test: &str) -> Vec<aeslab::aes::BackendKind> {
    let all = aeslab::aes::BackendKind::ALL;
    let skipped: Vec<_> = all.iter().filter(|k| !k.available()).map(|k| (k.name(), k.requires())).collect();
    note_skipped(test, &skipped);
    all.iter().copied().filter(|k| k.available()).collect()
}

/// The ACE backends this CPU runs (noting the others).
pub fn ace_backends(test: &str) -> Vec<aeslab::ace::AceBackend> {
    let all = aeslab::ace::AceBackend::ALL;
    let skipped: Vec<_> = all.iter().filter(|b| !b.available()).map(|b| (b.name(), b.requires())).collect();
    note_skipped(test, &skipped);
    all.into_iter().filter(|b| b.available()).collect()
}

/// The GHASH implementations this CPU runs (noting the others, but not those of the other
/// architecture).
pub fn ghash_impls(test: &str) -> Vec<aeslab::gcm::GhashImpl> {
    use aeslab::gcm::GhashImpl;
    let native = |g: &GhashImpl| if cfg!(target_arch = "aarch64") { *g != GhashImpl::Pclmul && *g != GhashImpl::Vpclmul256 && *g != GhashImpl::Vpclmul512 } else { *g != GhashImpl::Pmull };
    let all: Vec<GhashImpl> = GhashImpl::ALL.into_iter().filter(native).collect();
    let skipped: Vec<_> = all.iter().filter(|g| !g.available()).map(|g| (g.name(), g.requires())).collect();
    note_skipped(test, &skipped);
    all.into_iter().filter(|g| g.available()).collect()
}

/// Four 4 KiB pages of zeros and the offset in them of a 4 KiB boundary with more than two
/// pages before it and at least one after: for buffers of up to a page, placed to end at, just
/// before or just after it (where a masked move of a buffer's last register would reach the
/// next page).
pub fn memory_around_a_page_boundary() -> (Vec<u8>, usize) {
    let memory = vec![0u8; 4 * 4096];
    let boundary = 4096 * 3 - memory.as_ptr().addr() % 4096;
    (memory, boundary)
}
