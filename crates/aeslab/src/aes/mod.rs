//! The AES block cipher: one key schedule, three backend families, the one list of backends,
//! and the round-level API the modes build on.
//!
//! | backend | type | family (file) | constant time | blocks per batch |
//! |---|---|---|---|---|
//! | `table` | [`TableVartime`] | T-tables (`table.rs`) | **no** | 1 |
//! | `ct64` | [`Ct64`] | [`Sliced`] on `u64` (`sliced/u64.rs`) | yes | 4 |
//! | `bitslice-sse`, `-avx2`, `-avx512` | [`BitsliceSse`], … | [`Sliced`] on xmm, ymm, zmm (`sliced/x86.rs`) | yes | 8, 16, 32 |
//! | `aesni`, `vaes256`, `vaes512` | [`Aesni`], … | [`AesInsn`] on xmm, ymm, zmm (`insn/x86.rs`) | yes | 8, 16, 32 |
//! | `armv8` (aarch64) | `Armv8` | [`AesInsn`] on q registers (`insn/aarch64.rs`) | yes | 8 |
//!
//! [`default_backend`] is the fastest constant-time backend the CPU has; it never picks
//! `table`. [`Aes128`], [`Aes192`] and [`Aes256`] use it; [`AnyAes`] and
//! [`Aes128::with_backend`] take a backend by [`BackendKind`] or name.
//!
//! The modes see AES through [`Backend`] and [`Rounds`] and add their own kernels for each
//! family (`ctr`, `aez`, `gcm`); `backend_list!` is the one list of backends, which each
//! mode expands for its dispatch. Nothing here names a mode.

#![deny(unsafe_code)]

mod api;
pub(crate) mod consts;
pub(crate) mod insn;
pub(crate) mod key_schedule;
pub(crate) mod sliced;
pub(crate) mod table;

use core::sync::atomic::{AtomicU8, Ordering};

use cipher::array::ArraySize;
use cipher::typenum::Unsigned;

pub use api::{Aes, Aes128, Aes128With, Aes192, Aes192With, Aes256, Aes256With, AesKeySize, AesWith};
#[cfg(target_arch = "aarch64")]
pub use insn::Armv8;
pub use insn::AesInsn;
#[cfg(target_arch = "x86_64")]
pub use insn::{Aesni, Vaes256, Vaes512};
#[cfg(target_arch = "x86_64")]
pub use sliced::{BitsliceAvx2, BitsliceAvx512, BitsliceSse};
pub use sliced::{Ct64, Sliced};
pub use table::TableVartime;

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
    /// What scheduling needs once [`Backend::ready`]'s checks have passed (the ISA token).
    type Ready: Copy;
    /// The checks of [`Backend::new`]: this CPU runs the backend and `key_len` is an AES key
    /// length.
    fn ready(key_len: usize) -> Result<Self::Ready, Error>;
    /// Schedules `key`, whose length [`Backend::ready`] accepted. It cannot fail, so the key
    /// object goes straight into its place: returned through a `Result`, it was copied out of
    /// it again (a store-forwarding stall that cost more than the schedule itself).
    fn schedule(ready: Self::Ready, key: &[u8]) -> Self;
    /// [`Backend::schedule`], and the all-zero block encrypted under the new key into
    /// `zero_block`: AES-GCM's hash key H, which every GCM key set-up needs next. Backends with
    /// a key-schedule instruction run the block through the rounds as the keys are made, where
    /// its latency hides in the schedule's; the others encrypt it afterwards.
    #[inline]
    fn schedule_encrypting_zero(ready: Self::Ready, key: &[u8], zero_block: &mut Block) -> Self {
        let keyed = Self::schedule(ready, key);
        *zero_block = [0; 16];
        keyed.encrypt_blocks(core::slice::from_mut(zero_block));
        keyed
    }
    /// [`Backend::schedule`], or with a `zero_block` [`Backend::schedule_encrypting_zero`],
    /// the key object handed to `wrap` (an [`AnyAes`] variant)
    /// inside the scheduling call, with the encrypted zero block when one was asked for: the
    /// schedule is then stored once, where the caller's `AnyAes` lives, and a key object made
    /// from both (AES-GCM's: the round keys and the powers of H) is one expression, built in
    /// place. (Returned by value and wrapped after, it was made in a temporary and copied, 256
    /// bytes through `memcpy`, whose wide loads wait on the schedule's 16-byte stores: a fifth
    /// of a 16-byte message's key set-up and keystream.)
    #[inline]
    fn schedule_wrapped<T, W: FnOnce(Self, Option<&Block>) -> T>(ready: Self::Ready, key: &[u8], zero_block: Option<&mut Block>, wrap: W) -> T {
        match zero_block {
            Some(z) => {
                let keyed = Self::schedule_encrypting_zero(ready, key, z);
                wrap(keyed, Some(z))
            }
            None => wrap(Self::schedule(ready, key), None),
        }
    }
    /// Schedules `key`. Fails on a bad key length or when the CPU lacks the backend.
    #[inline]
    fn new(key: &[u8]) -> Result<Self, Error> {
        let ready = Self::ready(key.len())?;
        Ok(Self::schedule(ready, key))
    }
    /// 10, 12 or 14.
    fn rounds(&self) -> usize;
    /// Encrypts `blocks` in place (ECB: each block alone).
    fn encrypt_blocks(&self, blocks: &mut [Block]);
    /// Decrypts `blocks` in place.
    fn decrypt_blocks(&self, blocks: &mut [Block]);
}

/// [`Backend::ready`] for a backend on instruction set `I` (named `name`): its token, if this
/// CPU has it (else an error that says what it lacks), once the key length is checked.
#[inline]
pub(crate) fn ready_on<I: crate::simd::Isa>(name: &'static str, key_len: usize) -> Result<I, Error> {
    let isa = I::detect().ok_or(Error::BackendUnavailable { backend: name, requires: I::FEATURES })?;
    key_schedule::check_key_len(key_len)?;
    Ok(isa)
}

/// AES rounds as building blocks for the modes, like RustCrypto's `aes::hazmat`: the first
/// rounds of this key (FACE's cache) and full rounds with caller-given keys and no whitening
/// (AEZ's AES4 and AES10).
pub trait Rounds: Backend {
    /// Round keys in the backend's form, with what runs them; wiped on drop.
    type RoundKeys: Send + Sync + 'static;
    /// Whitening and `rounds` full rounds of this key on every block, in place.
    fn first_rounds(&self, blocks: &mut [Block], rounds: usize);
    /// Prepares `keys` (one per round, at most ten). Fails when the CPU lacks the backend.
    fn prepare_round_keys(keys: &[Block]) -> Result<Self::RoundKeys, Error>;
    /// Every block through one full round per key.
    fn rounds_only(keys: &Self::RoundKeys, blocks: &mut [Block]);
}

/// The one list of backends: each `BackendKind` variant, its type, and the architecture it
/// exists on. `backend_list!([callback], args…)` expands to
/// `callback! { (args…) $( #[cfg(…)]* Variant(Type), )* }`; `aes` builds [`BackendKind`] and
/// [`AnyAes`] from it, and each mode its dispatch.
macro_rules! backend_list {
    ([$($callback:tt)*] $(, $arg:tt)*) => {
        $($callback)*! { ($($arg),*)
            Table($crate::aes::TableVartime),
            Ct64($crate::aes::Ct64),
            #[cfg(target_arch = "x86_64")] BitsliceSse($crate::aes::BitsliceSse),
            #[cfg(target_arch = "x86_64")] BitsliceAvx2($crate::aes::BitsliceAvx2),
            #[cfg(target_arch = "x86_64")] BitsliceAvx512($crate::aes::BitsliceAvx512),
            #[cfg(target_arch = "x86_64")] Aesni($crate::aes::Aesni),
            #[cfg(target_arch = "x86_64")] Vaes256($crate::aes::Vaes256),
            #[cfg(target_arch = "x86_64")] Vaes512($crate::aes::Vaes512),
            #[cfg(target_arch = "aarch64")] Armv8($crate::aes::Armv8),
        }
    };
}
pub(crate) use backend_list;

/// `value` (an `&AnyAes`) as `&dyn Trait` for the backend it holds: a mode's dispatch, one
/// indirect call per use. Every backend type must implement `Trait`.
macro_rules! any_as_dyn {
    ($value:expr, $trait:path) => {
        $crate::aes::backend_list!([$crate::aes::any_as_dyn_arms], ($value), ($trait))
    };
}
pub(crate) use any_as_dyn;

macro_rules! any_as_dyn_arms {
    ((($value:expr), ($trait:path)) $($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {
        match $value {
            $( $(#[$cfg])* $crate::aes::AnyAes::$variant(b) => b as &dyn $trait, )*
        }
    };
}
pub(crate) use any_as_dyn_arms;

/// `any_call!(value, b => expr)`: `expr` with `b` the backend that `value` (an `&AnyAes`)
/// holds, by its own type — each arm a direct call. The per-message paths dispatch this way
/// inside a function that is never inlined: one jump on the variant, as cheap as a vtable's
/// call, and the kernels are compiled in this crate only (see [`crate::ctr::engine`]).
macro_rules! any_call {
    ($value:expr, $b:ident => $body:expr) => {
        $crate::aes::backend_list!([$crate::aes::any_call_arms], ($value), ($b), ($body))
    };
}
pub(crate) use any_call;

macro_rules! any_call_arms {
    ((($value:expr), ($b:ident), ($body:expr)) $($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {
        match $value {
            $( $(#[$cfg])* $crate::aes::AnyAes::$variant($b) => $body, )*
        }
    };
}
pub(crate) use any_call_arms;

/// Generates [`BackendKind`] and [`AnyAes`] from the list.
macro_rules! define_backends {
    (() $($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {
        /// A backend, named at run time.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BackendKind {
            $( #[doc = concat!("The backend type `", stringify!($ty), "`.")] $(#[$cfg])* $variant, )*
        }

        /// An AES key scheduled for a backend chosen at run time.
        // Where only the portable backends exist, the T-table schedule dwarfs the bitsliced
        // one; boxing it would cost an allocation per key for the variable-time backend only.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone)]
        pub enum AnyAes {
            $( #[doc = concat!("A key scheduled for `", stringify!($ty), "`.")] $(#[$cfg])* $variant($ty), )*
        }

        impl BackendKind {
            /// Every backend this build knows, available or not.
            pub const ALL: &'static [BackendKind] = &[ $( $(#[$cfg])* BackendKind::$variant, )* ];

            /// Their names, in the same order.
            pub const NAMES: &'static [&'static str] = &[ $( $(#[$cfg])* <$ty as Backend>::NAME, )* ];

            /// Its name, as `--backend` and [`BackendKind::from_name`] take it.
            pub fn name(self) -> &'static str {
                match self { $( $(#[$cfg])* BackendKind::$variant => <$ty as Backend>::NAME, )* }
            }

            /// Whether its timing is independent of key and data (all but `table`).
            pub fn constant_time(self) -> bool {
                match self { $( $(#[$cfg])* BackendKind::$variant => <$ty as Backend>::CONSTANT_TIME, )* }
            }

            /// Blocks per batch.
            pub fn batch(self) -> usize {
                match self { $( $(#[$cfg])* BackendKind::$variant => <$ty as Backend>::Batch::USIZE, )* }
            }

            /// CPU features needed.
            pub fn requires(self) -> &'static str {
                match self { $( $(#[$cfg])* BackendKind::$variant => <$ty as Backend>::REQUIRES, )* }
            }

            /// Whether this CPU can run it.
            pub fn available(self) -> bool {
                match self { $( $(#[$cfg])* BackendKind::$variant => <$ty as Backend>::available(), )* }
            }
        }

        impl AnyAes {
            /// Schedules `key` for `kind`, a variable-time backend (`table`) included: the
            /// caller says by this name that it accepts timing that depends on key and data.
            #[inline]
            pub fn new_variable_time(kind: BackendKind, key: &[u8]) -> Result<Self, Error> {
                AnyAes::scheduled(kind, key, None)
            }

            /// [`AnyAes::new_variable_time`], and with `zero_block` the all-zero block
            /// encrypted under the key there (see [`Backend::schedule_encrypting_zero`]).
            #[inline]
            pub(crate) fn scheduled(kind: BackendKind, key: &[u8], zero_block: Option<&mut Block>) -> Result<Self, Error> {
                Ok(match kind {
                    $( $(#[$cfg])* BackendKind::$variant => {
                        let ready = <$ty as Backend>::ready(key.len())?;
                        <$ty as Backend>::schedule_wrapped(ready, key, zero_block, |b, _| AnyAes::$variant(b))
                    } )*
                })
            }

            /// Schedules `key` for the [`default_backend`], with no `Result` around the key
            /// object (see [`Backend::schedule`]), and hands it to `wrap` inside the scheduling
            /// call, so that a key object holding it (`Aes`, `AesCtr`, `AesGcm`) is built where it
            /// is returned, not put together from a copy of it (see
            /// [`Backend::schedule_wrapped`]).
            ///
            /// # Panics
            /// On a key length other than 16, 24 or 32 bytes (callers pass a typed key).
            ///
            /// With `zero_block`, the all-zero block encrypted under the key goes there (see
            /// [`Backend::schedule_encrypting_zero`]).
            ///
            /// Never inlined: as a call, every arm builds `T` straight in the caller's return
            /// slot. Inlined into a caller, the arms' results met in one temporary that was
            /// then copied to the caller's variable (264 bytes through `memcpy` for `Aes128`,
            /// a quarter of its key set-up in criterion on Zen 3).
            #[inline(never)]
            pub(crate) fn new_default_wrapped<T, W: FnOnce(AnyAes, Option<&Block>) -> T>(key: &[u8], zero_block: Option<&mut Block>, wrap: W) -> T {
                match default_backend() {
                    $( $(#[$cfg])* BackendKind::$variant => {
                        let ready = <$ty as Backend>::ready(key.len()).expect("the default backend runs here; the key type fixes its length");
                        <$ty as Backend>::schedule_wrapped(ready, key, zero_block, |b, z| wrap(AnyAes::$variant(b), z))
                    } )*
                }
            }

            /// The backend it was scheduled for.
            pub fn kind(&self) -> BackendKind {
                match self { $( $(#[$cfg])* AnyAes::$variant(_) => BackendKind::$variant, )* }
            }

            /// 10, 12 or 14.
            pub fn rounds(&self) -> usize {
                match self { $( $(#[$cfg])* AnyAes::$variant(b) => b.rounds(), )* }
            }

            /// Encrypts `blocks` in place (ECB: each block alone).
            pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
                match self { $( $(#[$cfg])* AnyAes::$variant(b) => b.encrypt_blocks(blocks), )* }
            }

            /// Decrypts `blocks` in place.
            pub fn decrypt_blocks(&self, blocks: &mut [Block]) {
                match self { $( $(#[$cfg])* AnyAes::$variant(b) => b.decrypt_blocks(blocks), )* }
            }
        }
    };
}

backend_list!([define_backends]);

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

impl AnyAes {
    /// Schedules `key` for `kind`, a constant-time backend; the variable-time `table` is an
    /// error here (see [`AnyAes::new_variable_time`]).
    #[inline]
    pub fn new(kind: BackendKind, key: &[u8]) -> Result<Self, Error> {
        refuse_variable_time(kind, "AES", "AnyAes::new_variable_time")?;
        AnyAes::new_variable_time(kind, key)
    }
}

/// The error for a variable-time `kind` where the caller did not ask for variable time by
/// name: `scheme` refuses it; `opt_in` is the constructor that takes it.
pub(crate) fn refuse_variable_time(kind: BackendKind, scheme: &'static str, opt_in: &'static str) -> Result<(), Error> {
    if kind.constant_time() {
        Ok(())
    } else {
        Err(Error::VariableTimeNotChosen { backend: kind.name(), scheme, opt_in })
    }
}

/// Its index in `BackendKind::ALL`, or `UNKNOWN_DEFAULT` before the first call to
/// [`default_backend`]. An atomic byte rather than a `OnceLock`, which needs `std`: two threads
/// that race both detect the same answer and store it.
static DEFAULT: AtomicU8 = AtomicU8::new(UNKNOWN_DEFAULT);
const UNKNOWN_DEFAULT: u8 = u8::MAX;

/// The fastest constant-time backend this CPU can run (detected once; afterwards one load,
/// inlined into every key set-up).
#[inline]
pub fn default_backend() -> BackendKind {
    match DEFAULT.load(Ordering::Relaxed) {
        UNKNOWN_DEFAULT => detect_default_backend(),
        index => BackendKind::ALL[usize::from(index)],
    }
}

/// The first call's detection, out of line.
#[cold]
#[inline(never)]
fn detect_default_backend() -> BackendKind {
    let kind = PREFERENCE.iter().copied().find(|k| k.available()).expect("ct64 is always available");
    let index = BackendKind::ALL.iter().position(|k| *k == kind).expect("every backend is in ALL");
    DEFAULT.store(index as u8, Ordering::Relaxed);
    kind
}

impl BackendKind {
    /// Looks a backend up by name; unknown names are an error.
    pub fn from_name(name: &str) -> Result<BackendKind, Error> {
        BackendKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownBackend { name: name.into(), known: BackendKind::NAMES })
    }

    /// The backends this CPU can run.
    pub fn available_kinds() -> impl Iterator<Item = BackendKind> {
        BackendKind::ALL.iter().copied().filter(|k| k.available())
    }
}

impl core::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for BackendKind {
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
