//! aeslab: fast and constant-time AES.
//!
//! [`aes`] holds the block cipher: one key schedule, one file per backend (T-tables, `u64`
//! bitslicing, SIMD bitslicing at three widths, AES-NI, VAES at two widths) and one runtime
//! dispatch that picks the fastest constant-time backend the CPU has.
//!
//! This crate contains no measurement code; timing lives in `aeslab-measure` and the CLI.

pub mod aes;
pub mod aez;
pub mod cpu;
pub mod ctr;
mod error;

pub use error::Error;

/// One 16-byte AES block.
pub type Block = [u8; 16];
