//! The AEZ peer in this process: zears (Rust, on RustCrypto `aes` 0.8). The Go peer is in
//! `go.rs`. Both encrypt the inputs below, which `peers/go` builds the same way.

use super::fill;

/// The 48-byte key every AEZ implementation is measured with.
pub fn key() -> Vec<u8> {
    fill(48, 7, 1)
}

/// The 16-byte nonce every AEZ implementation is measured with.
pub fn nonce() -> Vec<u8> {
    fill(16, 1, 0)
}

/// A message of `n` bytes, as the Go peer builds it.
pub fn message(n: usize) -> Vec<u8> {
    fill(n, 3, 0)
}

/// zears, named as the tables show it.
pub struct Zears(zears::Aez);

impl Zears {
    pub const IMPLEMENTATION: &'static str = "zears";
    pub const BACKEND: &'static str = "aes 0.8 (autodetect)";

    pub fn new(key: &[u8]) -> Self {
        Zears(zears::Aez::new(key))
    }

    /// AEZ encryption with τ = 16 and no AD, as a new vector.
    pub fn encrypt(&self, nonce: &[u8], message: &[u8]) -> Vec<u8> {
        self.0.encrypt(nonce, &[], 16, message)
    }

    /// In place: `buf` holds the message followed by 16 bytes for the tag.
    pub fn encrypt_in_place(&self, nonce: &[u8], buf: &mut [u8]) {
        self.0.encrypt_inplace(nonce, &[], 16, buf)
    }
}
