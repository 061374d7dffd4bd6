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
