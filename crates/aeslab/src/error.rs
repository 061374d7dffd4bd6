//! The one error type. It sits below every other module, so it carries names (backends, FACE
//! levels, what a backend requires) rather than types of the modules above it.

#![deny(unsafe_code)]

use alloc::string::String;
use core::fmt;

/// Errors reported by aeslab's public API. Each renders as one clear sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// AES keys are 16, 24 or 32 bytes long.
    InvalidKeyLength(usize),
    /// No AES backend has this name.
    UnknownBackend {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: &'static [&'static str],
    },
    /// CTR takes a 16-byte initial counter block.
    InvalidIvLength(usize),
    /// A constant-time scheme was asked to run on a variable-time backend.
    VariableTime {
        /// The backend asked for.
        backend: &'static str,
        /// The scheme that refused it.
        scheme: &'static str,
    },
    /// A variable-time backend where the caller did not choose variable time by name.
    VariableTimeNotChosen {
        /// The backend asked for.
        backend: &'static str,
        /// The scheme that refused it.
        scheme: &'static str,
        /// The constructor (or CLI flag) that takes it.
        opt_in: &'static str,
    },
    /// The AEAD ciphertext did not authenticate (nothing is returned).
    AuthenticationFailed,
    /// The ciphertext is shorter than the tag it must contain.
    CiphertextTooShort {
        /// Its length in bytes.
        len: usize,
        /// The tag length in bytes.
        tag: usize,
    },
    /// No ACE backend has this name.
    UnknownAceBackend {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: &'static [&'static str],
    },
    /// No FACE level has this name.
    UnknownFaceLevel {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: &'static [&'static str],
    },
    /// AEZ's authenticator length τ is encoded in bits in 32 bits.
    TauTooLarge {
        /// The τ asked for, in bytes.
        tau: usize,
        /// The largest τ, in bytes.
        max: usize,
    },
    /// GCM tags are 12 to 16 bytes long.
    InvalidTagLength(usize),
    /// GCM nonces are at least one byte long.
    InvalidNonceLength(usize),
    /// The message exceeds the mode's limit.
    MessageTooLong {
        /// Its length in bytes.
        len: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// A CTR stream was asked for keystream past the end of its counter space: the counter
    /// would wrap and repeat keystream it may already have given out.
    CounterExhausted {
        /// The counter's width: 32 or 128.
        counter_bits: u32,
        /// Bytes asked for.
        requested: usize,
        /// Keystream bytes left before the end.
        remaining: u128,
    },
    /// The backend exists but this CPU lacks an instruction set it needs.
    BackendUnavailable {
        /// The backend asked for.
        backend: &'static str,
        /// The CPU features it needs.
        requires: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidKeyLength(n) => {
                write!(f, "invalid AES key length {n} bytes (expected 16, 24 or 32)")
            }
            Error::UnknownBackend { name, known } => write!(f, "unknown backend `{name}` (known: {})", known.join(", ")),
            Error::InvalidIvLength(n) => {
                write!(f, "invalid IV length {n} bytes (expected 16: the first counter block)")
            }
            Error::VariableTime { backend, scheme } => write!(
                f,
                "backend `{backend}` is variable-time; {scheme} runs only on constant-time backends"
            ),
            Error::VariableTimeNotChosen { backend, scheme, opt_in } => write!(
                f,
                "backend `{backend}` runs in variable time (its table lookups depend on the key and the data); \
                 {scheme} uses it only when asked for by name: `{opt_in}` in the library, \
                 `--allow-variable-time` in the CLI"
            ),
            Error::AuthenticationFailed => write!(f, "authentication failed: the ciphertext, nonce, associated data or key is wrong"),
            Error::CiphertextTooShort { len, tag } => {
                write!(f, "ciphertext of {len} bytes is shorter than its {tag}-byte authenticator")
            }
            Error::UnknownAceBackend { name, known } => {
                write!(f, "unknown ACE backend `{name}` (known: {})", known.join(", "))
            }
            Error::UnknownFaceLevel { name, known } => write!(f, "unknown FACE level `{name}` (known: {})", known.join(", ")),
            Error::TauTooLarge { tau, max } => {
                write!(f, "tau of {tau} bytes is too large (at most {max} bytes)")
            }
            Error::InvalidTagLength(n) => write!(f, "invalid tag length {n} bytes (expected 12 to 16)"),
            Error::InvalidNonceLength(n) => write!(f, "invalid nonce length {n} bytes (expected at least 1; 12 is the fast path)"),
            Error::MessageTooLong { len, max } => write!(f, "message of {len} bytes is too long (at most {max} bytes)"),
            Error::CounterExhausted { counter_bits, requested, remaining } => write!(
                f,
                "the {counter_bits}-bit counter has keystream for {remaining} more bytes, not {requested}: \
                 past that it would wrap and repeat keystream"
            ),
            Error::BackendUnavailable { backend, requires } => write!(
                f,
                "backend `{backend}` is not available on this CPU (it requires {requires})"
            ),
        }
    }
}

impl core::error::Error for Error {}
