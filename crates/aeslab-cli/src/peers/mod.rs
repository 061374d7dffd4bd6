//! The implementations aeslab is measured against, in one place: AES-CTR (`ctr.rs`), AES-GCM
//! (`gcm.rs`) and AEZ (`aez.rs`) in this process, and the Go module `peers/go` in a child
//! process (`go.rs`). Every peer's output is checked before it is timed.

pub mod aez;
pub mod ctr;
pub mod gcm;
pub mod go;

/// The OpenSSL version string, e.g. "OpenSSL 3.0.19 27 Jan 2026".
pub fn openssl_version() -> &'static str {
    openssl::version::version()
}

/// Bytes `i * mul + add` (mod 256) for i in 0..n: how the Go peer builds its inputs too.
pub fn fill(n: usize, mul: usize, add: usize) -> Vec<u8> {
    (0..n).map(|i| (i * mul + add) as u8).collect()
}

/// The message the CTR and GCM benches time for `size` bytes (every peer gets its own copy),
/// and the Go peer's `*-check` commands encrypt: bytes `i * 7 + 3`.
pub fn bench_message(size: usize) -> Vec<u8> {
    fill(size, 7, 3)
}

/// `seq`, big-endian, XORed into the 8 bytes `eight`: how the benches make a message's nonce
/// or IV from a fixed one (TLS 1.3's construction; `gcm::message_nonce`, `ctr::message_iv`).
pub fn xor_sequence_number(eight: &mut [u8; 8], seq: u64) {
    *eight = (u64::from_be_bytes(*eight) ^ seq).to_be_bytes();
}
