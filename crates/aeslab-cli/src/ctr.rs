//! `aeslab ctr`: AES-CTR from stdin to stdout (the same command decrypts).

use std::io::{Read, Write};

use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use clap::{Args, ValueEnum};

use crate::CliResult;
use crate::args::{Stream, backend_or_default, face_or, parse_hex, require_open};

#[derive(Clone, Copy, ValueEnum)]
pub enum CounterArg {
    /// The whole block is a 128-bit big-endian counter (SP 800-38A, `openssl enc -aes-*-ctr`).
    #[value(name = "128")]
    C128,
    /// 96-bit nonce and a 32-bit big-endian counter (GCM, RFC 3686).
    #[value(name = "32")]
    C32,
}

#[derive(Args)]
pub struct CtrArgs {
    /// AES key in hex: 16, 24 or 32 bytes.
    #[arg(long)]
    key: String,
    /// The first counter block in hex: 16 bytes.
    #[arg(long)]
    iv: String,
    /// Counter width.
    #[arg(long, value_enum, default_value = "128")]
    counter: CounterArg,
    /// Backend name (see `aeslab cpu`); default: the fastest constant-time one.
    #[arg(long)]
    backend: Option<String>,
    /// FACE level: none, rd0, rd1, rd1p, rd2, rd2p; default: rd2p.
    #[arg(long)]
    face: Option<String>,
    /// Accept a variable-time backend (`table`): its timing depends on the key and the data.
    #[arg(long)]
    allow_variable_time: bool,
}

pub fn run(args: &CtrArgs) -> CliResult {
    let key = parse_hex("key", &args.key)?;
    let iv = parse_hex("iv", &args.iv)?;
    let backend = backend_or_default(args.backend.as_deref())?;
    let level = face_or(args.face.as_deref(), FaceLevel::FASTEST)?;
    let counter = match args.counter {
        CounterArg::C128 => Counter::Be128,
        CounterArg::C32 => Counter::Be32,
    };
    let mut ctr = if args.allow_variable_time {
        DynCtr::new_variable_time(&key, &iv, backend, level, counter)
    } else {
        DynCtr::new(&key, &iv, backend, level, counter)
    }
    .map_err(|e| e.to_string())?;

    // Closed streams are errors (Rust would read a closed stdin as empty and drop writes to a
    // closed stdout).
    require_open(Stream::Stdin)?;
    require_open(Stream::Stdout)?;
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("reading stdin: {e}")),
        };
        // Refused before anything of this chunk is written: past the end of the counter space
        // the keystream would repeat.
        ctr.try_apply_keystream(&mut buf[..n]).map_err(|e| e.to_string())?;
        output.write_all(&buf[..n]).map_err(|e| format!("writing stdout: {e}"))?;
    }
    output.flush().map_err(|e| format!("writing stdout: {e}"))
}
