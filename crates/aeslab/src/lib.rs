//! aeslab: fast and constant-time AES — AES-GCM, AES-CTR (with FACE caching), AEZ v5 and the
//! ACE permutation's AEAD and hash, on AES-NI, VAES (ymm and zmm), ARMv8 and bitsliced
//! backends, picked at run time for the CPU.
//!
//! # Quick start
//!
//! AES-GCM through the RustCrypto `aead` traits (one key object, a fresh nonce per message):
//!
//! ```
//! use aead::{Aead, KeyInit};
//! use aeslab::gcm::Aes128Gcm;
//!
//! let cipher = Aes128Gcm::new(&[0x42; 16].into());
//! let nonce = [7u8; 12].into(); // never twice under one key
//! let sealed = cipher.encrypt(&nonce, b"attack at dawn".as_ref()).unwrap();
//! assert_eq!(sealed.len(), 14 + 16); // ciphertext and tag
//! assert_eq!(cipher.decrypt(&nonce, sealed.as_ref()).unwrap(), b"attack at dawn");
//! ```
//!
//! The same with associated data through aeslab's own API, which takes any AES key length:
//!
//! ```
//! use aeslab::gcm::Gcm;
//!
//! let gcm = Gcm::new(&[0x42; 32]).unwrap(); // AES-256-GCM
//! let sealed = gcm.seal(&[7; 12], b"header", b"attack at dawn").unwrap();
//! assert_eq!(gcm.open(&[7; 12], b"header", &sealed).unwrap(), b"attack at dawn");
//! // A forgery is an error, and nothing of its plaintext is released.
//! assert!(gcm.open(&[7; 12], b"other header", &sealed).is_err());
//! ```
//!
//! AES-CTR through the RustCrypto `cipher` traits; the counter never wraps (a call that would
//! run past the end of the counter space is refused):
//!
//! ```
//! use aeslab::ctr::Aes128Ctr;
//! use cipher::{KeyIvInit, StreamCipher};
//!
//! let mut data = *b"sixteen bytes!!!and some more";
//! Aes128Ctr::new(&[1; 16].into(), &[0; 16].into()).apply_keystream(&mut data);
//! Aes128Ctr::new(&[1; 16].into(), &[0; 16].into()).apply_keystream(&mut data);
//! assert_eq!(&data, b"sixteen bytes!!!and some more");
//! ```
//!
//! AEZ, the robust AEAD (any key length, any authenticator length τ; here 16 bytes):
//!
//! ```
//! use aeslab::aez::Aez;
//!
//! let aez = Aez::new(b"any length of key");
//! let sealed = aez.encrypt(b"nonce", &[b"header"], 16, b"hello").unwrap();
//! assert_eq!(sealed.len(), 5 + 16);
//! assert_eq!(aez.decrypt(b"nonce", &[b"header"], 16, &sealed).unwrap(), b"hello");
//! ```
//!
//! ACE-AE-128 and ACE-H-256, one message at a time or a batch across SIMD lanes:
//!
//! ```
//! use aeslab::ace::{AceAe128, AceHash256};
//!
//! let ace = AceAe128::new(&[3; 16]);
//! let sealed = ace.seal(&[9; 16], b"header", b"lightweight");
//! assert_eq!(ace.open(&[9; 16], b"header", &sealed).unwrap(), b"lightweight");
//! let digests = AceHash256::hash_many(&[b"one", b"two"]);
//! assert_ne!(digests[0], digests[1]);
//! ```
//!
//! # Features
//!
//! - `std` (default; implies `alloc`): the thread pool behind `apply_keystream_threaded` and
//!   the `AESLAB_CPU_MASK` environment variable. Without it the crate is `#![no_std]` and builds
//!   for microcontrollers (`thumbv7em-none-eabihf`) and `wasm32-unknown-unknown`; CPU features
//!   are still detected at run time (CPUID on x86-64, the kernel's capabilities on aarch64).
//! - `alloc` (default): the APIs that return a `Vec` (`Gcm::seal`/`open`, `Aez::encrypt`/
//!   `decrypt`/`prf`, `AceAe128::seal`/`open`/`open_many`, `AceHash256::hash_many`,
//!   [`cpu::features`]) and FACE's 4 KiB table in a CTR stream. Without it nothing allocates:
//!   each of those has an in-place or `_into` form, key objects hold their round keys inline
//!   (the bitsliced backends' keys then take up to 7.5 KiB on x86-64, 960 bytes elsewhere), and
//!   CTR streams run plain CTR, which gives the same keystream without the table.
//!
//! Which backend runs: [`aes::default_backend`] is the fastest constant-time one this CPU has
//! (`aeslab cpu` lists them); `with_options`/`with_backend` constructors choose one, and the
//! variable-time T-table backend runs only through constructors whose names say so. The
//! `examples/` directory has whole programs: sealing a file, choosing a backend, and measuring
//! FACE on your own CPU.
//!
//! # Layout
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

#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

// `alloc`: the Vec-returning APIs and boxed tables; `std` adds the thread pool and
// `AESLAB_CPU_MASK`.
#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

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
pub use error::{AskedName, Error};

/// One 16-byte AES block.
pub type Block = [u8; 16];
