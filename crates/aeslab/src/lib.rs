//! aeslab: fast and constant-time AES.
//!
//! [`aes`] holds the block cipher: one key schedule, one file per backend (T-tables, `u64`
//! bitslicing, SIMD bitslicing at three widths, AES-NI, VAES at two widths) and one runtime
//! dispatch that picks the fastest constant-time backend the CPU has.
//!
//! [`aez`] is AEZ v5 on those AES rounds; [`ace`] is the ACE permutation, ACE-AE-128 and
//! ACE-H-256, scalar and in SIMD lanes. [`gcm`] is AES-GCM on FACE-CTR with carry-less
//! multiplication GHASH.
//!
//! This crate contains no measurement code; timing lives in `aeslab-measure` and the CLI.

pub mod ace;
pub mod aes;
pub mod aez;
pub mod cpu;
mod ct;
pub mod ctr;
mod error;
pub mod gcm;

pub use error::Error;

/// One 16-byte AES block.
pub type Block = [u8; 16];
