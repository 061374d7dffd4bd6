//! The AES block cipher: one key schedule, one file per backend, one runtime dispatch.
//!
//! | backend | file | constant time | blocks per batch |
//! |---|---|---|---|
//! | `table` ([`TableVartime`]) | `table.rs` | **no** | 1 |
//! | `ct64` ([`Ct64`]) | `ct64.rs` | yes | 4 |
//! | `bitslice-sse`, `-avx2`, `-avx512` | `bitslice.rs` | yes | 8, 16, 32 |
//! | `aesni` ([`Aesni`]) | `aesni.rs` | yes | 8 |
//! | `vaes256`, `vaes512` | `vaes.rs` | yes | 16, 32 |
//! | `armv8` (aarch64) | `armv8.rs` | yes | 8 |
//!
//! [`default_backend`] is the fastest constant-time backend the CPU has; it never picks
//! `table`. [`Aes128`], [`Aes192`] and [`Aes256`] use it; [`AnyAes`] and
//! [`Aes128::with_backend`] take a backend by [`BackendKind`] or name.

pub(crate) mod bitsliced;
mod consts;
mod ct64;
pub(crate) mod key_schedule;
pub(crate) mod table;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[macro_use]
pub(crate) mod hw;
#[cfg(target_arch = "aarch64")]
mod armv8;
#[cfg(target_arch = "x86_64")]
pub(crate) mod aesni;
#[cfg(target_arch = "x86_64")]
mod bitslice;
#[cfg(target_arch = "x86_64")]
mod vaes;

pub(crate) mod traits;

use std::sync::OnceLock;

use cipher::array::ArraySize;
use cipher::typenum::Unsigned;

pub use ct64::Ct64;
pub use table::TableVartime;
pub use traits::{Aes, Aes128, Aes128With, Aes192, Aes192With, Aes256, Aes256With, AesWith};

#[cfg(target_arch = "x86_64")]
pub use aesni::Aesni;
#[cfg(target_arch = "x86_64")]
pub use bitslice::{BitsliceAvx2, BitsliceAvx512, BitsliceSse};
#[cfg(target_arch = "x86_64")]
pub use vaes::{Vaes256, Vaes512};
#[cfg(target_arch = "aarch64")]
pub use armv8::Armv8;

use crate::{Block, Error};

/// An AES implementation. Keys of 16, 24 and 32 bytes; blocks processed `Batch` at a time.
pub trait Backend: Clone + Send + Sync + Sized + 'static {
    /// The name users select it by (`aeslab ... --backend NAME`).
    const NAME: &'static str;
    /// Whether its running time is independent of key and data.
    const CONSTANT_TIME: bool;
    /// The CPU features it needs, for error messages.
    const REQUIRES: &'static str;
    /// Blocks processed together (a full batch is the fast path).
    type Batch: ArraySize;
    /// Whether this CPU can run it.
    fn available() -> bool;
    /// Schedules `key`. Fails on a bad key length or when the CPU lacks the backend.
    fn new(key: &[u8]) -> Result<Self, Error>;
    /// 10, 12 or 14.
    fn rounds(&self) -> usize;
    fn encrypt_blocks(&self, blocks: &mut [Block]);
    fn decrypt_blocks(&self, blocks: &mut [Block]);
}

/// Full AES rounds (SubBytes, ShiftRows, MixColumns, AddRoundKey) with caller-given round
/// keys and no initial whitening: AEZ's AES4 and AES10. Implemented by the constant-time
/// backends; `Keys` exists only where the CPU has the backend's features.
use crate::aez::PairOffsets;

pub(crate) trait RoundsOnly: Backend {
    /// The round keys in the backend's form; wiped on drop.
    type Keys: Send + Sync + 'static;
    /// Prepares `keys` (one per round). Fails when the CPU lacks the backend.
    fn prepare_round_keys(keys: &[Block]) -> Result<Self::Keys, Error>;
    /// Every block through one full round per key.
    fn rounds_only(keys: &Self::Keys, blocks: &mut [Block]);

    /// AEZ-core's first pass over `pairs` in registers, where the backend has such a kernel
    /// (`aes/hw.rs`); returns the pairs done and their XOR sum. A kernel does all the pairs or
    /// (the default) none: between its two passes the pairs are in the kernel's own layout.
    fn aez_pass1(_keys: &Self::Keys, _pairs: &mut [[u8; 32]], _offs: &PairOffsets, _j1: &Block, _i0: &Block) -> (usize, Block) {
        (0, [0u8; 16])
    }

    /// AEZ-core's second pass, likewise.
    fn aez_pass2(
        _keys: &Self::Keys,
        _pairs: &mut [[u8; 32]],
        _offs: &PairOffsets,
        _s2: &Block,
        _j1: &Block,
        _i0: &Block,
    ) -> (usize, Block) {
        (0, [0u8; 16])
    }
}

/// Lists every backend once: the [`BackendKind`] variant, the type, and the architecture it
/// exists on. Generates `BackendKind`, `AnyAes` and the matches between them.
macro_rules! backends {
    ($( $variant:ident($ty:ident) $(if $cfg:meta)? ),* $(,)?) => {
        /// A backend, named at run time.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BackendKind {
            $( $(#[cfg($cfg)])? $variant, )*
        }

        /// An AES key scheduled for a backend chosen at run time.
        #[derive(Clone)]
        pub enum AnyAes {
            $( $(#[cfg($cfg)])? $variant($ty), )*
        }

        impl BackendKind {
            /// Every backend this build knows, available or not.
            pub const ALL: &'static [BackendKind] = &[ $( $(#[cfg($cfg)])? BackendKind::$variant, )* ];

            pub fn name(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? BackendKind::$variant => $ty::NAME, )* }
            }

            pub fn constant_time(self) -> bool {
                match self { $( $(#[cfg($cfg)])? BackendKind::$variant => $ty::CONSTANT_TIME, )* }
            }

            /// Blocks per batch.
            pub fn batch(self) -> usize {
                match self {
                    $( $(#[cfg($cfg)])? BackendKind::$variant => <$ty as Backend>::Batch::USIZE, )*
                }
            }

            /// CPU features needed.
            pub fn requires(self) -> &'static str {
                match self { $( $(#[cfg($cfg)])? BackendKind::$variant => $ty::REQUIRES, )* }
            }

            /// Whether this CPU can run it.
            pub fn available(self) -> bool {
                match self { $( $(#[cfg($cfg)])? BackendKind::$variant => $ty::available(), )* }
            }
        }

        impl AnyAes {
            /// Schedules `key` for `kind`.
            pub fn new(kind: BackendKind, key: &[u8]) -> Result<Self, Error> {
                Ok(match kind {
                    $( $(#[cfg($cfg)])? BackendKind::$variant => AnyAes::$variant($ty::new(key)?), )*
                })
            }

            pub fn kind(&self) -> BackendKind {
                match self { $( $(#[cfg($cfg)])? AnyAes::$variant(_) => BackendKind::$variant, )* }
            }

            pub fn rounds(&self) -> usize {
                match self { $( $(#[cfg($cfg)])? AnyAes::$variant(b) => b.rounds(), )* }
            }

            pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
                match self { $( $(#[cfg($cfg)])? AnyAes::$variant(b) => b.encrypt_blocks(blocks), )* }
            }

            pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
                match self { $( $(#[cfg($cfg)])? AnyAes::$variant(b) => b.decrypt_blocks(blocks), )* }
            }

            /// Runs `f` on the concrete backend (monomorphised per backend).
            pub(crate) fn visit<V: BackendVisitor>(&self, v: V) -> V::Output {
                match self { $( $(#[cfg($cfg)])? AnyAes::$variant(b) => v.visit(b), )* }
            }
        }
    };
}

backends! {
    Table(TableVartime),
    Ct64(Ct64),
    BitsliceSse(BitsliceSse) if target_arch = "x86_64",
    BitsliceAvx2(BitsliceAvx2) if target_arch = "x86_64",
    BitsliceAvx512(BitsliceAvx512) if target_arch = "x86_64",
    Aesni(Aesni) if target_arch = "x86_64",
    Vaes256(Vaes256) if target_arch = "x86_64",
    Vaes512(Vaes512) if target_arch = "x86_64",
    Armv8(Armv8) if target_arch = "aarch64",
}

/// A computation generic over the backend type, for [`AnyAes::visit`].
pub(crate) trait BackendVisitor {
    type Output;
    fn visit<B: crate::ctr::FaceBackend>(self, backend: &B) -> Self::Output;
}

/// Constant-time backends, fastest first. `table` is deliberately absent.
const PREFERENCE: &[BackendKind] = &[
    #[cfg(target_arch = "aarch64")]
    BackendKind::Armv8,
    #[cfg(target_arch = "x86_64")]
    BackendKind::Vaes512,
    #[cfg(target_arch = "x86_64")]
    BackendKind::Vaes256,
    #[cfg(target_arch = "x86_64")]
    BackendKind::Aesni,
    #[cfg(target_arch = "x86_64")]
    BackendKind::BitsliceAvx512,
    #[cfg(target_arch = "x86_64")]
    BackendKind::BitsliceAvx2,
    #[cfg(target_arch = "x86_64")]
    BackendKind::BitsliceSse,
    BackendKind::Ct64,
];

/// The fastest constant-time backend this CPU can run (detected once).
pub fn default_backend() -> BackendKind {
    static DEFAULT: OnceLock<BackendKind> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        PREFERENCE
            .iter()
            .copied()
            .find(|k| k.available())
            .expect("ct64 is always available")
    })
}

impl BackendKind {
    /// Looks a backend up by name; unknown names are an error.
    pub fn from_name(name: &str) -> Result<BackendKind, Error> {
        BackendKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownBackend(name.to_string()))
    }

    /// The backends this CPU can run.
    pub fn available_kinds() -> impl Iterator<Item = BackendKind> {
        BackendKind::ALL.iter().copied().filter(|k| k.available())
    }
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BackendKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        BackendKind::from_name(s)
    }
}

impl AnyAes {
    /// Schedules `key` for the [`default_backend`].
    pub fn new_default(key: &[u8]) -> Result<Self, Error> {
        AnyAes::new(default_backend(), key)
    }

    /// Schedules `key` for the backend called `name`.
    pub fn with_backend_name(name: &str, key: &[u8]) -> Result<Self, Error> {
        AnyAes::new(BackendKind::from_name(name)?, key)
    }
}
