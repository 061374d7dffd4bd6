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
