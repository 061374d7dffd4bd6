//! `aeslab aez seal|open`: AEZ from stdin to stdout.

use aeslab::aez::Aez;
use clap::{Args, Subcommand};

use crate::CliResult;
use crate::args::{Stream, backend_or_default, parse_hex, read_stdin, require_open, write_stdout};

#[derive(Subcommand)]
pub enum AezCommand {
    /// Encrypt stdin: writes the message enciphered with `tau` bytes of authenticator. Reads all
    /// of stdin first (AEZ enciphers the message as a whole).
    Seal(AezArgs),
    /// Decrypt stdin: writes the message, or nothing (and fails) if it does not authenticate.
    /// Reads all of stdin first.
    Open(AezArgs),
}

#[derive(Args)]
pub struct AezArgs {
    /// Key in hex, any length (48 bytes is used as is; others go through BLAKE2b).
    #[arg(long)]
    key: String,
    /// Nonce in hex, any length.
    #[arg(long)]
    nonce: String,
    /// Associated data in hex; repeat for a vector of AD strings.
    #[arg(long)]
    ad: Vec<String>,
    /// Authenticator length in bytes.
    #[arg(long, default_value_t = 16)]
    tau: usize,
    /// Backend (default: the fastest constant-time one).
    #[arg(long)]
    backend: Option<String>,
}

pub fn run(cmd: &AezCommand) -> CliResult {
    let (args, seal) = match cmd {
        AezCommand::Seal(a) => (a, true),
        AezCommand::Open(a) => (a, false),
    };
    let key = parse_hex("key", &args.key)?;
    let nonce = parse_hex("nonce", &args.nonce)?;
    let ad: Vec<Vec<u8>> = args.ad.iter().map(|a| parse_hex("ad", a)).collect::<Result<_, _>>()?;
    let kind = backend_or_default(args.backend.as_deref())?;
    let aez = Aez::with_backend(&key, kind).map_err(|e| e.to_string())?;
    require_open(Stream::Stdout)?;
    // AEZ sets no length limit of its own: memory is the limit.
    let input = read_stdin(u64::MAX, "AEZ")?;
    let ad: Vec<&[u8]> = ad.iter().map(Vec::as_slice).collect();
    let output = if seal {
        aez.encrypt(&nonce, &ad, args.tau, &input).map_err(|e| e.to_string())?
    } else {
        aez.decrypt(&nonce, &ad, args.tau, &input).map_err(|e| e.to_string())?
    };
    write_stdout(&output)
}
