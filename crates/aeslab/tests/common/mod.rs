//! Helpers shared by the library's tests.

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
