use core::fmt;

/// Errors reported by aeslab's public API. Each renders as one clear sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// AES keys are 16, 24 or 32 bytes long.
    InvalidKeyLength(usize),
    /// No backend has this name.
    UnknownBackend(String),
    /// The backend exists but this CPU lacks an instruction set it needs.
    BackendUnavailable {
        backend: &'static str,
        requires: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidKeyLength(n) => {
                write!(f, "invalid AES key length {n} bytes (expected 16, 24 or 32)")
            }
            Error::UnknownBackend(name) => write!(
                f,
                "unknown backend `{name}` (known: {})",
                crate::aes::BackendKind::ALL
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Error::BackendUnavailable { backend, requires } => write!(
                f,
                "backend `{backend}` is not available on this CPU (it requires {requires})"
            ),
        }
    }
}

impl std::error::Error for Error {}
