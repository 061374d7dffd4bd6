//! aeslab's AES-GCM under the names RustCrypto's `aes-gcm` exports, so that crate's own tests
//! run unchanged against it (see `Cargo.toml`).

// `aes` is aeslab (see `Cargo.toml`).
pub use aead;
pub use aes::gcm::{Aes128Gcm, Aes256Gcm};

/// `AesGcm<Cipher, NonceSize>` as RustCrypto spells it, for any aeslab AES type as the cipher.
pub type AesGcm<C, N> = aes::gcm::AesGcm<<C as cipher::KeySizeUser>::KeySize, N>;
