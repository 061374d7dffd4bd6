//! Seal a file with AES-256-GCM, or open one sealed by this program.
//!
//! ```text
//! cargo run --example seal_file -- seal KEYHEX plain.txt sealed.bin
//! cargo run --example seal_file -- open KEYHEX sealed.bin plain.txt
//! ```
//!
//! KEYHEX is 64 hex digits (32 bytes). The sealed file is a random 12-byte nonce, then the
//! ciphertext and its 16-byte tag. A file that does not authenticate is an error, and nothing
//! is written: an AEAD releases no plaintext it has not authenticated.

use std::process::ExitCode;

use aead::{Aead, KeyInit};
use aeslab::gcm::Aes256Gcm;
use rand::RngCore;

fn run(args: &[String]) -> Result<(), String> {
    let [mode, key_hex, input, output] = args else {
        return Err("usage: seal_file seal|open KEYHEX INPUT OUTPUT".into());
    };
    let key: [u8; 32] = hex::decode(key_hex)
        .map_err(|e| format!("KEYHEX: {e}"))?
        .try_into()
        .map_err(|k: Vec<u8>| format!("KEYHEX: {} bytes, AES-256 takes 32", k.len()))?;
    let cipher = Aes256Gcm::new(&key.into());
    let data = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let out = match mode.as_str() {
        "seal" => {
            // A random 96-bit nonce per file: under one key, keep well below 2^32 files.
            let mut nonce = [0u8; 12];
            rand::rng().fill_bytes(&mut nonce);
            let sealed = cipher.encrypt(&nonce.into(), data.as_slice()).map_err(|_| "message too long for GCM")?;
            [nonce.as_slice(), &sealed].concat()
        }
        "open" => {
            if data.len() < 12 + 16 {
                return Err(format!("{input}: {} bytes, shorter than a nonce and a tag", data.len()));
            }
            let (nonce, sealed) = data.split_at(12);
            let nonce: [u8; 12] = nonce.try_into().expect("12 bytes");
            cipher.decrypt(&nonce.into(), sealed).map_err(|_| format!("{input}: does not authenticate under this key"))?
        }
        other => return Err(format!("unknown mode {other:?}: seal or open")),
    };
    std::fs::write(output, out).map_err(|e| format!("{output}: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seal_file: {e}");
            ExitCode::FAILURE
        }
    }
}
