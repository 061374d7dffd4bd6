//! `aeslab kat`: run a known-answer file and say how many vectors pass.

use std::path::PathBuf;

use aeslab::ace::{AceAe128, AceBackend, AceHash256};
use aeslab::aes::BackendKind;
use aeslab::aez::{Aez, extract};
use clap::{Args, Subcommand};
use digest::{FixedOutputReset, Update};
use serde_json::Value;

use crate::CliResult;

#[derive(Subcommand)]
pub enum KatCommand {
    /// AEZ vectors in the Go implementation's JSON (extract, e, hash, prf or encrypt schema,
    /// detected by the keys).
    Aez(KatArgs),
    /// ACE-AE-128 vectors in the NIST LWC KAT format (Count, Key, Nonce, PT, AD, CT).
    Ace(KatArgs),
    /// ACE-H-256 vectors in the NIST LWC KAT format (Count, Msg, MD).
    AceHash(KatArgs),
}

#[derive(Args)]
pub struct KatArgs {
    /// The vector file.
    file: PathBuf,
    /// Backend to run on (default: the fastest constant-time AES backend for AEZ, the widest
    /// ACE backend for ACE).
    #[arg(long)]
    backend: Option<String>,
}

fn backend(args: &KatArgs) -> Result<BackendKind, String> {
    crate::args::backend_or_default(args.backend.as_deref())
}

pub fn run(cmd: &KatCommand) -> CliResult {
    match cmd {
        KatCommand::Aez(args) => aez(args),
        KatCommand::Ace(args) => ace(args, false),
        KatCommand::AceHash(args) => ace(args, true),
    }
}

/// Prints the summary line; failures make the exit status non-zero.
fn finish(passed: usize, failed: usize) -> CliResult {
    println!("{passed} passed, {failed} failed");
    if failed > 0 { Err(format!("{failed} of {} vectors failed", passed + failed)) } else { Ok(()) }
}

fn hex_field(v: &Value, key: &str) -> Result<Vec<u8>, String> {
    let s = v.get(key).and_then(Value::as_str).ok_or_else(|| format!("vector without a string `{key}`"))?;
    hex::decode(s).map_err(|e| format!("`{key}` is not hex: {e}"))
}

fn int_field(v: &Value, key: &str) -> Result<i64, String> {
    v.get(key).and_then(Value::as_i64).ok_or_else(|| format!("vector without an integer `{key}`"))
}

fn list_field(v: &Value, key: &str) -> Result<Vec<Vec<u8>>, String> {
    let list = v.get(key).and_then(Value::as_array).ok_or_else(|| format!("vector without a list `{key}`"))?;
    list.iter()
        .map(|x| x.as_str().ok_or("non-string in `data`".to_string()).and_then(|s| hex::decode(s).map_err(|e| e.to_string())))
        .collect()
}

#[derive(Debug, PartialEq)]
enum Schema {
    Extract,
    E,
    Hash,
    Prf,
    Encrypt,
}

fn schema(v: &Value) -> Result<Schema, String> {
    let obj = v.as_object().ok_or("vectors must be JSON objects")?;
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort();
    Ok(match keys.as_slice() {
        ["a", "b"] => Schema::Extract,
        ["a", "b", "i", "j", "k"] => Schema::E,
        ["data", "k", "tau", "v"] => Schema::Hash,
        ["delta", "k", "r", "tau"] => Schema::Prf,
        ["c", "data", "k", "m", "nonce", "tau"] => Schema::Encrypt,
        other => return Err(format!("unknown AEZ vector schema with keys {other:?}")),
    })
}

/// Runs one vector; `Ok(false)` is a wrong answer, `Err` a malformed vector.
fn check(v: &Value, kind: BackendKind) -> Result<bool, String> {
    let key = |v: &Value| -> Result<Aez, String> { Aez::with_backend(&hex_field(v, "k")?, kind).map_err(|e| e.to_string()) };
    Ok(match schema(v)? {
        Schema::Extract => extract(&hex_field(v, "a")?).to_vec() == hex_field(v, "b")?,
        Schema::E => {
            let a: [u8; 16] = hex_field(v, "a")?.try_into().map_err(|_| "`a` is not 16 bytes")?;
            let i = u64::try_from(int_field(v, "i")?).map_err(|_| "`i` is negative")?;
            key(v)?.e(int_field(v, "j")?, i, &a).to_vec() == hex_field(v, "b")?
        }
        Schema::Hash => {
            let data = list_field(v, "data")?;
            let (nonce, ad) = data.split_first().ok_or("`data` needs the nonce first")?;
            let ad: Vec<&[u8]> = ad.iter().map(Vec::as_slice).collect();
            let tau = u32::try_from(int_field(v, "tau")?).map_err(|_| "bad `tau`")?;
            key(v)?.hash(nonce, &ad, tau).to_vec() == hex_field(v, "v")?
        }
        Schema::Prf => {
            let delta: [u8; 16] = hex_field(v, "delta")?.try_into().map_err(|_| "`delta` is not 16 bytes")?;
            let tau = usize::try_from(int_field(v, "tau")?).map_err(|_| "bad `tau`")?;
            key(v)?.prf(&delta, tau).map_err(|e| e.to_string())? == hex_field(v, "r")?
        }
        Schema::Encrypt => {
            let aez = key(v)?;
            let nonce = hex_field(v, "nonce")?;
            let data = list_field(v, "data")?;
            let ad: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let tau = usize::try_from(int_field(v, "tau")?).map_err(|_| "bad `tau`")?;
            let (m, c) = (hex_field(v, "m")?, hex_field(v, "c")?);
            aez.encrypt(&nonce, &ad, tau, &m).map_err(|e| e.to_string())? == c && aez.decrypt(&nonce, &ad, tau, &c).as_deref() == Ok(&m[..])
        }
    })
}

fn aez(args: &KatArgs) -> CliResult {
    let kind = backend(args)?;
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let vectors: Vec<Value> =
        serde_json::from_str(&text).map_err(|e| format!("{} is not a JSON list of vectors: {e}", args.file.display()))?;
    if vectors.is_empty() {
        return Err(format!("{} holds no vectors", args.file.display()));
    }
    let (mut passed, mut failed) = (0, 0);
    for (n, v) in vectors.iter().enumerate() {
        match check(v, kind) {
            Ok(true) => passed += 1,
            Ok(false) => {
                failed += 1;
                println!("FAIL vector #{n}");
            }
            Err(e) => return Err(format!("vector #{n}: {e}")),
        }
    }
    finish(passed, failed)
}

/// One case of an LWC KAT file: `(name, bytes)` per line (`Count` has no bytes).
type LwcCase = Vec<(String, Vec<u8>)>;

/// The cases of a NIST LWC KAT file: blank-line separated blocks of `Name = HEX` lines.
fn lwc_cases(text: &str) -> Result<Vec<LwcCase>, String> {
    let mut cases = Vec::new();
    let mut current = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            if !current.is_empty() {
                cases.push(std::mem::take(&mut current));
            }
            continue;
        }
        let (name, value) = line.split_once('=').ok_or_else(|| format!("line {}: expected `Name = value`", n + 1))?;
        let (name, value) = (name.trim(), value.trim());
        let bytes = if name == "Count" {
            Vec::new()
        } else {
            hex::decode(value).map_err(|e| format!("line {}: `{name}` is not hex: {e}", n + 1))?
        };
        current.push((name.to_string(), bytes));
    }
    if !current.is_empty() {
        cases.push(current);
    }
    Ok(cases)
}

fn lwc_field<'a>(case: &'a [(String, Vec<u8>)], name: &str) -> Result<&'a [u8], String> {
    case.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_slice()).ok_or_else(|| format!("case without `{name}`"))
}

fn lwc_16(case: &[(String, Vec<u8>)], name: &str) -> Result<[u8; 16], String> {
    lwc_field(case, name)?.try_into().map_err(|_| format!("`{name}` is not 16 bytes"))
}

/// ACE-AE-128 (encrypt and decrypt each case) or ACE-H-256 vectors.
fn ace(args: &KatArgs, hash: bool) -> CliResult {
    let backend = match &args.backend {
        Some(n) => AceBackend::from_name(n).and_then(AceBackend::check).map_err(|e| e.to_string())?,
        None => AceBackend::widest(),
    };
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let cases = lwc_cases(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    if cases.is_empty() {
        return Err(format!("{} holds no vectors", args.file.display()));
    }
    let mut hasher = AceHash256::with_backend(backend).map_err(|e| e.to_string())?;
    let (mut passed, mut failed) = (0, 0);
    for (n, case) in cases.iter().enumerate() {
        let ok = if hash {
            hasher.update(lwc_field(case, "Msg").map_err(|e| format!("case #{n}: {e}"))?);
            hasher.finalize_fixed_reset().as_slice() == lwc_field(case, "MD").map_err(|e| format!("case #{n}: {e}"))?
        } else {
            let run = || -> Result<bool, String> {
                let ace = AceAe128::with_backend(&lwc_16(case, "Key")?, backend).map_err(|e| e.to_string())?;
                let nonce = lwc_16(case, "Nonce")?;
                let (pt, ad, ct) = (lwc_field(case, "PT")?, lwc_field(case, "AD")?, lwc_field(case, "CT")?);
                Ok(ace.seal(&nonce, ad, pt) == ct && ace.open(&nonce, ad, ct).as_deref() == Ok(pt))
            };
            run().map_err(|e| format!("case #{n}: {e}"))?
        };
        if ok {
            passed += 1;
        } else {
            failed += 1;
            println!("FAIL case #{n}");
        }
    }
    finish(passed, failed)
}
