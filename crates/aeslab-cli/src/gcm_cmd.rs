//! `aeslab gcm seal|open`: AES-GCM from stdin to stdout, the tag appended to the ciphertext.

use aeslab::ctr::FaceLevel;
use aeslab::gcm::{Gcm, GhashImpl};
use clap::{Args, Subcommand};

use crate::CliResult;
use crate::args::{Stream, backend_or_default, face_or, parse_hex, read_stdin, require_open, write_stdout};

#[derive(Subcommand)]
pub enum GcmCommand {
    /// Encrypt stdin: writes the ciphertext followed by the tag. Reads all of stdin first
    /// (refusing it once it passes GCM's limit of 2^36 − 32 bytes).
    Seal(GcmArgs),
    /// Decrypt stdin (ciphertext ‖ tag): writes the message, or nothing (and fails) if it does
    /// not authenticate. Reads all of stdin first (refusing it once it passes GCM's limit).
    Open(GcmArgs),
}

#[derive(Args)]
pub struct GcmArgs {
    /// AES key in hex: 16, 24 or 32 bytes.
    #[arg(long)]
    key: String,
    /// Nonce in hex: 12 bytes is the fast path; any other non-zero length goes through GHASH.
    #[arg(long)]
    nonce: String,
    /// Associated data in hex.
    #[arg(long, default_value = "")]
    ad: String,
    /// Tag length in bytes, 12 to 16.
    #[arg(long, default_value_t = 16)]
    tag_len: usize,
    /// AES backend (default: the fastest constant-time one).
    #[arg(long)]
    backend: Option<String>,
    /// FACE level of the CTR keystream.
    #[arg(long, default_value = "rd2p")]
    face: String,
    /// Accept a variable-time backend (`table`): its timing depends on the key and the data.
    #[arg(long)]
    allow_variable_time: bool,
}

pub fn run(cmd: &GcmCommand) -> CliResult {
    let (args, seal) = match cmd {
        GcmCommand::Seal(a) => (a, true),
        GcmCommand::Open(a) => (a, false),
    };
    let key = parse_hex("key", &args.key)?;
    let nonce = parse_hex("nonce", &args.nonce)?;
    let ad = parse_hex("ad", &args.ad)?;
    let kind = backend_or_default(args.backend.as_deref())?;
    let level = face_or(Some(&args.face), FaceLevel::FASTEST)?;
    let gcm = if args.allow_variable_time {
        Gcm::with_options_variable_time(&key, kind, level, GhashImpl::fastest(), args.tag_len)
    } else {
        Gcm::with_options(&key, kind, level, GhashImpl::fastest(), args.tag_len)
    }
    .map_err(|e| e.to_string())?;
    require_open(Stream::Stdout)?;
    // Sealing takes a message up to GCM's limit; opening, that and the tag.
    let limit = aeslab::gcm::MAX_MESSAGE + if seal { 0 } else { args.tag_len as u64 };
    let input = read_stdin(limit, "AES-GCM")?;
    let output = if seal { gcm.seal(&nonce, &ad, &input) } else { gcm.open(&nonce, &ad, &input) }.map_err(|e| e.to_string())?;
    write_stdout(&output)
}
