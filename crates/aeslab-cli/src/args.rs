//! What the commands share in reading their arguments and their input: hex strings, backend
//! and FACE-level names, the output flags, stdin and stdout.

use std::io::{Read, Write};

use aeslab::aes::{BackendKind, default_backend};
use aeslab::ctr::FaceLevel;

use crate::CliResult;

/// Decodes a hex argument, naming it in the error.
pub fn parse_hex(what: &str, s: &str) -> Result<Vec<u8>, String> {
    hex::decode(s.trim()).map_err(|e| format!("--{what} is not valid hex ({e})"))
}

/// The AES backend a `--backend` argument names, or the default (the fastest constant-time one).
pub fn backend_or_default(name: Option<&str>) -> Result<BackendKind, String> {
    name.map_or(Ok(default_backend()), |n| BackendKind::from_name(n).map_err(|e| e.to_string()))
}

/// The FACE level a `--face` argument names, or `default`.
pub fn face_or(name: Option<&str>, default: FaceLevel) -> Result<FaceLevel, String> {
    name.map_or(Ok(default), |n| FaceLevel::from_name(n).map_err(|e| e.to_string()))
}

/// All of stdin (the AEADs work on a whole message).
pub fn read_stdin() -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).map_err(|e| format!("reading stdin: {e}"))?;
    Ok(input)
}

/// Writes `bytes` to stdout and flushes it.
pub fn write_stdout(bytes: &[u8]) -> CliResult {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|_| out.flush()).map_err(|e| format!("writing stdout: {e}"))
}

/// The output flags every measuring command shares.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Output {
    /// Print JSON instead of markdown tables.
    #[arg(long)]
    pub json: bool,
    /// Fewer samples and runs (what `aeslab report --quick` uses).
    #[arg(long)]
    pub quick: bool,
}

/// The message sizes the benches default to: a TLS/QUIC record's range from 16 B up, a
/// 1420-byte packet, a 4 KiB sector, 16 KiB records and 64 KiB.
pub const MESSAGE_SIZES: &str = "16,64,256,1420,4096,16384,65536";
