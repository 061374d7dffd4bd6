//! aeslab: fast and constant-time AES.
//!
//! The modules form a DAG, from registers up to the modes; a module never names one above it
//! (`tests/layering.rs` checks this, macro bodies included):
//!
//! ```text
//!     cpu   ct   error   aead_glue    below everything
//!               simd                  ISA tokens, block registers, kernel entry
//!             /      \
//!          aes        ghash           the block cipher; GHASH (no AES in it)
//!        /     \         |
//!      aez     ctr       |
//!                \       |
//!                  gcm ---
//!      ace (beside them, on simd)
//! ```
//!
//! - [`aes`]: the block cipher — one key schedule, three backend families (T-tables,
//!   bitsliced on `u64` and SIMD words, AES instructions on xmm/ymm/zmm/NEON), the one list of
//!   backends, one runtime dispatch that picks the fastest constant-time backend the CPU has,
//!   and the round-level API the modes build on.
//! - [`ctr`]: AES-CTR with FACE counter-mode caching; [`aez`]: AEZ v5 on AES rounds;
//!   [`gcm`]: AES-GCM on CTR and GHASH; [`ace`]: the ACE permutation, ACE-AE-128 and
//!   ACE-H-256, scalar and in SIMD lanes.
//! - Key objects are immutable once made (`&self` to encrypt or seal, `Send + Sync`); a
//!   message's state lives in the call, or in a stream object for CTR.
//!
//! `unsafe` is denied crate-wide and allowed only in the files whose kernels run instructions
//! that need CPU features (`simd`, the SIMD kernels of each module, `ct::wipe`'s barrier); each
//! unsafe block there says which token or guarantee makes it sound.
//!
//! This crate contains no measurement code; timing lives in `aeslab-measure` and the CLI.

#![deny(unsafe_code)]

pub mod ace;
mod aead_glue;
pub mod aes;
pub mod aez;
pub mod cpu;
mod ct;
pub mod ctr;
mod error;
pub mod gcm;
pub mod ghash;
mod simd;

pub use aes::{Aes128, Aes192, Aes256};
pub use error::Error;

/// One 16-byte AES block.
pub type Block = [u8; 16];
