//! The one error type. It sits below every other module, so it carries names (backends, FACE
//! levels, what a backend requires) rather than types of the modules above it.

#![deny(unsafe_code)]

use core::fmt;

/// A name asked for that matched nothing (a backend, a FACE level), kept inline so that errors
/// need no allocator: up to [`AskedName::CAPACITY`] bytes; a longer name is cut at a character
/// boundary and ends in `…`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AskedName {
    bytes: [u8; AskedName::CAPACITY],
    len: u8,
}

impl AskedName {
    /// The most bytes kept.
    pub const CAPACITY: usize = 32;

    /// The name, or its first characters and `…`.
    pub fn as_str(&self) -> &str {
        // Only whole UTF-8 characters are ever copied in (see `From<&str>`).
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or_default()
    }
}

impl From<&str> for AskedName {
    fn from(name: &str) -> Self {
        const ELLIPSIS: &str = "…";
        let mut out = AskedName { bytes: [0; Self::CAPACITY], len: 0 };
        let (kept, cut) = if name.len() <= Self::CAPACITY {
            (name, false)
        } else {
            let mut end = Self::CAPACITY - ELLIPSIS.len();
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            (&name[..end], true)
        };
        out.bytes[..kept.len()].copy_from_slice(kept.as_bytes());
        let mut len = kept.len();
        if cut {
            out.bytes[len..len + ELLIPSIS.len()].copy_from_slice(ELLIPSIS.as_bytes());
            len += ELLIPSIS.len();
        }
        out.len = len as u8;
        out
    }
}

impl PartialEq<str> for AskedName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for AskedName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for AskedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for AskedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// `a, b, c` without allocating.
struct Listed(&'static [&'static str]);

impl fmt::Display for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// Errors reported by aeslab's public API. Each renders as one clear sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// AES keys are 16, 24 or 32 bytes long.
    InvalidKeyLength(usize),
    /// No AES backend has this name.
    UnknownBackend {
        /// The name asked for.
        name: AskedName,
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
        name: AskedName,
        /// The names there are.
        known: &'static [&'static str],
    },
    /// No FACE level has this name.
    UnknownFaceLevel {
        /// The name asked for.
        name: AskedName,
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
    /// A batch call's output slice does not have one entry per input.
    OutputLength {
        /// Inputs (messages) given.
        inputs: usize,
        /// Entries in the output slice.
        outputs: usize,
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
            Error::UnknownBackend { name, known } => write!(f, "unknown backend `{name}` (known: {})", Listed(known)),
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
                write!(f, "unknown ACE backend `{name}` (known: {})", Listed(known))
            }
            Error::UnknownFaceLevel { name, known } => write!(f, "unknown FACE level `{name}` (known: {})", Listed(known)),
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
            Error::OutputLength { inputs, outputs } => {
                write!(f, "an output slice of {outputs} entries for {inputs} inputs (expected one per input)")
            }
            Error::BackendUnavailable { backend, requires } => write!(
                f,
                "backend `{backend}` is not available on this CPU (it requires {requires})"
            ),
        }
    }
}

impl core::error::Error for Error {}

#[cfg(test)]
mod tests {
    use crate::error::AskedName;
    use alloc::format;

    #[test]
    fn asked_names_are_kept_whole_or_cut_at_a_character_boundary() {
        assert_eq!(AskedName::from("vaes1024"), "vaes1024");
        assert_eq!(AskedName::from(""), "");
        let exact = "x".repeat(AskedName::CAPACITY);
        assert_eq!(AskedName::from(exact.as_str()), exact.as_str());
        // 33 bytes: 29 kept and the 3-byte ellipsis.
        let long = "y".repeat(AskedName::CAPACITY + 1);
        assert_eq!(AskedName::from(long.as_str()).as_str(), format!("{}…", "y".repeat(29)));
        // Two-byte characters: the cut may not split one.
        let wide = "é".repeat(20);
        let cut = AskedName::from(wide.as_str());
        assert_eq!(cut.as_str(), format!("{}…", "é".repeat(14)));
        assert_eq!(format!("{cut:?}"), format!("{:?}", cut.as_str()));
    }
}
