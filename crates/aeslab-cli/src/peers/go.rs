//! The Go peers (`peers/go`): built with the `go` on PATH into the target directory, then run
//! as child processes that print JSON records.

use std::path::PathBuf;
use std::process::Command;

use aeslab::aez::Aez;
use aeslab::gcm::Gcm;
use aeslab_measure::Calibration;

use super::ctr::{CtrPeer, OpenSsl};
use crate::records::{AezRecord, Throughput};

/// The Go module's directory, as it was when aeslab was built.
fn module_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../peers/go")
}

/// Builds (once per process) and returns the peer binary, with the `noasm` tag or without.
/// An error says why the Go peers are skipped.
fn binary(noasm: bool) -> Result<PathBuf, String> {
    let dir = module_dir();
    if !dir.join("go.mod").exists() {
        return Err(format!("the Go peer module is not at {}", dir.display()));
    }
    let go = which_go().ok_or("`go` is not on PATH")?;
    let out_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.join("go-peers")))
        .unwrap_or_else(|| std::env::temp_dir().join("aeslab-go-peers"));
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let bin = out_dir.join(if noasm { "peers-noasm" } else { "peers" });
    let mut cmd = Command::new(go);
    cmd.current_dir(&dir).arg("build").arg("-o").arg(&bin);
    if noasm {
        cmd.args(["-tags", "noasm"]);
    }
    let out = cmd.arg(".").output().map_err(|e| format!("running go build: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("go build failed: {}", err.lines().last().unwrap_or("").trim()));
    }
    Ok(bin)
}

fn which_go() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|p| p.join("go")).find(|p| p.is_file())
}

/// Runs the peer and returns its stdout.
fn run(bin: &PathBuf, args: &[&str]) -> Result<String, String> {
    let out = Command::new(bin).args(args).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// The peer's throughput output (a JSON list of `{"backend", "bytes", "ns_per_op", …}`) as
/// `go` records for AES-`bits`, its wall-clock ns converted with this run's calibration.
fn throughput(out: &str, bits: u32, cal: &Calibration) -> Result<Vec<Throughput>, String> {
    let values: Vec<serde_json::Value> = serde_json::from_str(out).map_err(|e| format!("unreadable output: {e}"))?;
    Ok(values
        .iter()
        .map(|v| {
            let bytes = v["bytes"].as_u64().unwrap_or(0) as usize;
            let ns = v["ns_per_op"].as_f64().unwrap_or(f64::NAN);
            Throughput {
                implementation: "go".into(),
                backend: v["backend"].as_str().unwrap_or_default().to_string(),
                face: "none".into(),
                key_bits: bits,
                bytes,
                threads: 1,
                cycles_per_byte: cal.nanos_to_cycles(ns) / bytes.max(1) as f64,
                gbytes_per_s: bytes as f64 / ns,
                spread: 0.0,
            }
        })
        .collect())
}

fn size_list(sizes: &[usize]) -> String {
    sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

/// Go's crypto/aes + crypto/cipher CTR for AES-`key.len()*8`, a message per call, each under
/// its own IV: its output is checked against OpenSSL's first (under `iv` and under message 1's
/// IV, [`super::ctr::message_iv`]), and its wall-clock ns are converted with this run's
/// calibration.
pub fn ctr(key: &[u8], iv: &[u8; 16], sizes: &[usize], quick: bool, cal: &Calibration) -> Result<Vec<Throughput>, String> {
    let bin = binary(false)?;
    let bits = key.len() as u32 * 8;
    let (key_hex, iv_hex) = (hex::encode(key), hex::encode(iv));
    let check = run(&bin, &["ctr-check", "-key", &key_hex, "-iv", &iv_hex, "-size", "1000"])?;
    let expect: Vec<String> = [*iv, super::ctr::message_iv(iv, 1)]
        .iter()
        .map(|iv| {
            let mut out = super::bench_message(1000);
            OpenSsl::new(key, iv).apply(&mut out);
            hex::encode(out)
        })
        .collect();
    if !check.lines().map(str::trim).eq(expect.iter().map(String::as_str)) {
        return Err(format!("its AES-{bits}-CTR output differs from OpenSSL's"));
    }
    let sizes = size_list(sizes);
    let mut argv = vec!["ctr", "-key", &key_hex, "-iv", &iv_hex, "-sizes", &sizes];
    if quick {
        argv.push("-quick");
    }
    throughput(&run(&bin, &argv)?, bits, cal)
}

/// Go's crypto/aes + cipher.NewGCM, sealing with `ad`, each message under its own nonce as
/// [`super::gcm::message_nonce`] makes them: its output is checked against aeslab's first,
/// under message 0's and message 1's nonces.
pub fn gcm(key: &[u8], ad: &[u8], sizes: &[usize], quick: bool, cal: &Calibration) -> Result<Vec<Throughput>, String> {
    let bin = binary(false)?;
    let bits = key.len() as u32 * 8;
    let key_hex = hex::encode(key);
    let check = run(&bin, &["gcm-check", "-key", &key_hex, "-size", "1000"])?;
    let gcm = Gcm::new(key).map_err(|e| e.to_string())?;
    let mut expect = Vec::new();
    for seq in [0, 1] {
        expect.push(hex::encode(gcm.seal(&super::gcm::message_nonce(seq), ad, &super::bench_message(1000)).map_err(|e| e.to_string())?));
    }
    if !check.lines().map(str::trim).eq(expect.iter().map(String::as_str)) {
        return Err(format!("its AES-{bits}-GCM output differs from aeslab's"));
    }
    let sizes = size_list(sizes);
    let mut argv = vec!["gcm", "-key", &key_hex, "-sizes", &sizes];
    if quick {
        argv.push("-quick");
    }
    throughput(&run(&bin, &argv)?, bits, cal)
}

/// The same GCM opening in place (`gcm-open`, with the nonce and AD of [`gcm`], which checks
/// the peer's sealing against aeslab's first). The peer itself checks that every timed open
/// verifies and that a wrong tag is refused, and fails otherwise.
pub fn gcm_open(key: &[u8], sizes: &[usize], quick: bool, cal: &Calibration) -> Result<Vec<Throughput>, String> {
    let bin = binary(false)?;
    let key_hex = hex::encode(key);
    let sizes = size_list(sizes);
    let mut argv = vec!["gcm-open", "-key", &key_hex, "-sizes", &sizes];
    if quick {
        argv.push("-quick");
    }
    throughput(&run(&bin, &argv)?, key.len() as u32 * 8, cal)
}

/// Yawning's Go AEZ, with its assembly or `noasm`, on the inputs of `super::aez`: its
/// output is checked against aeslab's first.
pub fn aez(noasm: bool, sizes: &[usize], quick: bool, cal: &Calibration) -> Result<Vec<AezRecord>, String> {
    let bin = binary(noasm)?;
    let check = run(&bin, &["aez-check", "-size", "100"])?;
    let ours = Aez::new(&super::aez::key()).encrypt(&super::aez::nonce(), &[], 16, &super::aez::message(100));
    if check.trim() != hex::encode(ours.map_err(|e| e.to_string())?) {
        return Err("its ciphertext differs from aeslab's".into());
    }
    let sizes = size_list(sizes);
    let mut argv = vec!["aez", "-sizes", &sizes];
    if quick {
        argv.push("-quick");
    }
    let mut records: Vec<AezRecord> = serde_json::from_str(&run(&bin, &argv)?).map_err(|e| format!("unreadable output: {e}"))?;
    // Go measured wall time; convert with this process's calibration.
    for r in &mut records {
        r.cycles_per_byte = cal.nanos_to_cycles(r.ns_per_op) / r.bytes.max(1) as f64;
    }
    Ok(records)
}
