//! `aeslab bench gcm`: AES-GCM sealing, aeslab (FACE-CTR + carry-less GHASH) against OpenSSL,
//! aws-lc-rs, ring and RustCrypto `aes-gcm` in the same process, interleaved, and Go's
//! crypto/cipher GCM from `peers/go` in a child process; the records have `bench ctr`'s shape.

use std::fmt::Write as _;

use aeslab::aes::default_backend;
use aeslab::ctr::FaceLevel;
use aeslab::gcm::{Gcm, GhashImpl};
use aeslab_measure::{Plan, calibrate, interleaved};
use clap::Args;

use crate::CliResult;
use crate::markdown::table;
use crate::progress::Progress;
use crate::records::{Throughput, figure, noise_footnote, print_bench};

#[derive(Args, Clone)]
pub struct BenchGcmArgs {
    /// Message sizes in bytes.
    #[arg(long, value_delimiter = ',', default_value = "1024,4096,16384,65536")]
    pub sizes: Vec<usize>,
    /// Key sizes in bits.
    #[arg(long, value_delimiter = ',', default_value = "128,256")]
    pub keys: Vec<u32>,
    /// Print JSON records instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Fewer samples (for `aeslab report --quick`).
    #[arg(long)]
    pub quick: bool,
}

const NONCE: [u8; 12] = [0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88];
const AD: &[u8] = b"sixteen byte AD!";

/// One GCM implementation, keyed once: seals a buffer in place and returns the tag.
trait GcmPeer {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16];
}

impl GcmPeer for Gcm {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16] {
        self.encrypt_in_place_detached(&NONCE, AD, buf).expect("valid nonce and length")
    }
}

struct OpenSslGcm(openssl::cipher_ctx::CipherCtx);

impl GcmPeer for OpenSslGcm {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16] {
        // The key was scheduled once; each message sets only its nonce.
        let ctx = &mut self.0;
        ctx.encrypt_init(None, None, Some(&NONCE)).expect("EVP_EncryptInit_ex");
        ctx.cipher_update(AD, None).expect("AAD");
        let n = buf.len();
        ctx.cipher_update_inplace(buf, n).expect("EVP_EncryptUpdate");
        ctx.cipher_final(&mut []).expect("EVP_EncryptFinal_ex");
        let mut tag = [0u8; 16];
        ctx.tag(&mut tag).expect("GET_TAG");
        tag
    }
}

struct AwsLcGcm(aws_lc_rs::aead::LessSafeKey);

impl GcmPeer for AwsLcGcm {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16] {
        use aws_lc_rs::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(NONCE), Aad::from(AD), buf).expect("seal");
        tag.as_ref().try_into().expect("16 bytes")
    }
}

struct RingGcm(ring::aead::LessSafeKey);

impl GcmPeer for RingGcm {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16] {
        use ring::aead::{Aad, Nonce};
        let tag = self.0.seal_in_place_separate_tag(Nonce::assume_unique_for_key(NONCE), Aad::from(AD), buf).expect("seal");
        tag.as_ref().try_into().expect("16 bytes")
    }
}

enum RustCryptoGcm {
    K128(Box<aes_gcm::Aes128Gcm>),
    K256(Box<aes_gcm::Aes256Gcm>),
}

impl GcmPeer for RustCryptoGcm {
    fn seal(&mut self, buf: &mut [u8]) -> [u8; 16] {
        use aes_gcm::aead::AeadInPlace;
        let nonce = aes_gcm::Nonce::from_slice(&NONCE);
        let tag = match self {
            RustCryptoGcm::K128(c) => c.encrypt_in_place_detached(nonce, AD, buf),
            RustCryptoGcm::K256(c) => c.encrypt_in_place_detached(nonce, AD, buf),
        };
        tag.expect("seal").into()
    }
}

/// One implementation measured: its record fields and the keyed peer.
struct Implementation {
    name: &'static str,
    backend: String,
    /// aeslab's FACE level; `none` for the peers.
    face: FaceLevel,
    peer: Box<dyn GcmPeer>,
}

fn peer(name: &'static str, backend: &str, peer: Box<dyn GcmPeer>) -> Implementation {
    Implementation { name, backend: backend.to_string(), face: FaceLevel::None, peer }
}

/// Every implementation measured, keyed with `key`.
fn implementations(key: &[u8]) -> Result<Vec<Implementation>, String> {
    let mut v = Vec::new();
    let backend = default_backend();
    for face in [FaceLevel::None, FaceLevel::Rd2p] {
        let gcm = Gcm::with_options(key, backend, face, GhashImpl::fastest(), 16).map_err(|e| e.to_string())?;
        let label = format!("{backend}+{}/{}", GhashImpl::fastest().name(), face.name());
        v.push(Implementation { name: "aeslab", backend: label, face, peer: Box::new(gcm) });
    }
    let cipher = if key.len() == 16 { openssl::cipher::Cipher::aes_128_gcm() } else { openssl::cipher::Cipher::aes_256_gcm() };
    let mut ctx = openssl::cipher_ctx::CipherCtx::new().map_err(|e| e.to_string())?;
    ctx.encrypt_init(Some(cipher), Some(key), None).map_err(|e| e.to_string())?;
    v.push(peer("openssl", "evp", Box::new(OpenSslGcm(ctx))));
    let alg = if key.len() == 16 { &aws_lc_rs::aead::AES_128_GCM } else { &aws_lc_rs::aead::AES_256_GCM };
    let k = aws_lc_rs::aead::UnboundKey::new(alg, key).map_err(|e| e.to_string())?;
    v.push(peer("aws-lc-rs", "aws-lc", Box::new(AwsLcGcm(aws_lc_rs::aead::LessSafeKey::new(k)))));
    let alg = if key.len() == 16 { &ring::aead::AES_128_GCM } else { &ring::aead::AES_256_GCM };
    let k = ring::aead::UnboundKey::new(alg, key).map_err(|e| e.to_string())?;
    v.push(peer("ring", "ring 0.17", Box::new(RingGcm(ring::aead::LessSafeKey::new(k)))));
    use aes_gcm::KeyInit as _;
    let rc = if key.len() == 16 {
        RustCryptoGcm::K128(Box::new(aes_gcm::Aes128Gcm::new_from_slice(key).map_err(|e| e.to_string())?))
    } else {
        RustCryptoGcm::K256(Box::new(aes_gcm::Aes256Gcm::new_from_slice(key).map_err(|e| e.to_string())?))
    };
    v.push(peer("rustcrypto", "aes-gcm 0.10", Box::new(rc)));
    Ok(v)
}

pub struct GcmBench {
    pub records: Vec<Throughput>,
    pub cycles_per_tick: f64,
    /// Peers that could not be measured, and why.
    pub notes: Vec<String>,
}

/// Go's crypto/aes + cipher.NewGCM from `peers/go`: its output is checked against aeslab's
/// first, and its wall-clock ns are converted with this run's calibration.
fn go_gcm(args: &BenchGcmArgs, cal: &aeslab_measure::Calibration, bits: u32, key: &[u8]) -> Result<Vec<Throughput>, String> {
    let bin = crate::go_peers::binary(false)?;
    let key_hex = hex::encode(key);
    let check = crate::go_peers::run(&bin, &["gcm-check", "-key", &key_hex, "-size", "1000"])?;
    let gcm = Gcm::new(key).map_err(|e| e.to_string())?;
    let message: Vec<u8> = (0..1000).map(|i| (i * 7 + 3) as u8).collect();
    let expect = gcm.seal(&NONCE, AD, &message).map_err(|e| e.to_string())?;
    if check.trim() != hex::encode(&expect) {
        return Err(format!("its AES-{bits}-GCM output differs from aeslab's"));
    }
    let sizes = args.sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
    let mut argv = vec!["gcm", "-key", &key_hex, "-sizes", &sizes];
    if args.quick {
        argv.push("-quick");
    }
    let out = crate::go_peers::run(&bin, &argv)?;
    crate::go_peers::throughput(&out, bits, cal)
}

pub fn measure(args: &BenchGcmArgs, progress: &Progress) -> Result<GcmBench, String> {
    if args.sizes.is_empty() || args.sizes.contains(&0) {
        return Err("--sizes must list positive byte counts".into());
    }
    if args.keys.is_empty() || args.keys.iter().any(|k| ![128, 256].contains(k)) {
        return Err("--keys must list 128 and/or 256 (the key sizes every peer offers)".into());
    }
    let plan = if args.quick { Plan::QUICK } else { Plan::FULL };
    let mut records = Vec::new();
    let mut notes = Vec::new();
    let mut cal = calibrate();
    for &bits in &args.keys {
        let key: Vec<u8> = (0..bits / 8).map(|i| (i as u8).wrapping_mul(0x9d).wrapping_add(0x2b)).collect();
        let mut impls = implementations(&key)?;
        for &size in &args.sizes {
            progress.step(&format!("bench gcm: AES-{bits}, {size} bytes"));
            cal.refresh();
            // Every implementation must produce the same ciphertext and tag before it is timed.
            let message: Vec<u8> = (0..size).map(|i| (i * 7 + 3) as u8).collect();
            let mut expect = message.clone();
            let expect_tag = impls[0].peer.seal(&mut expect);
            for i in impls.iter_mut() {
                let mut out = message.clone();
                if i.peer.seal(&mut out) != expect_tag || out != expect {
                    return Err(format!("{} {} produced a different AES-{bits}-GCM output for {size} bytes", i.name, i.backend));
                }
            }
            let mut bufs: Vec<Vec<u8>> = impls.iter().map(|_| message.clone()).collect();
            let timings = {
                let mut jobs: Vec<Box<dyn FnMut() + '_>> = impls
                    .iter_mut()
                    .zip(bufs.iter_mut())
                    .map(|(i, buf)| {
                        Box::new(move || {
                            std::hint::black_box(i.peer.seal(buf));
                        }) as Box<dyn FnMut()>
                    })
                    .collect();
                let mut refs: Vec<&mut dyn FnMut()> = jobs.iter_mut().map(|j| j.as_mut() as &mut dyn FnMut()).collect();
                interleaved(&cal, plan, &mut refs)
            };
            for (i, t) in impls.iter().zip(timings) {
                records.push(Throughput {
                    implementation: i.name.to_string(),
                    backend: i.backend.clone(),
                    face: i.face.name().to_string(),
                    key_bits: bits,
                    bytes: size,
                    threads: 1,
                    cycles_per_byte: t.cycles / size as f64,
                    gbytes_per_s: size as f64 / t.nanos,
                    spread: t.spread,
                });
            }
        }
        progress.step(&format!("bench gcm: AES-{bits}, Go peer"));
        match go_gcm(args, &cal, bits, &key) {
            Ok(mut go) => records.append(&mut go),
            Err(e) => notes.push(format!("Go's crypto/cipher GCM (AES-{bits}) was not measured: {e}")),
        }
    }
    Ok(GcmBench { records, cycles_per_tick: cal.cycles_per_tick, notes })
}

/// A table per key size: cycles/byte per implementation and size, and the ratio of OpenSSL's
/// figure to aeslab's best.
pub fn markdown(b: &GcmBench) -> String {
    let mut s = String::new();
    let mut keys: Vec<u32> = b.records.iter().map(|r| r.key_bits).collect();
    keys.dedup();
    let mut sizes: Vec<usize> = b.records.iter().map(|r| r.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for bits in keys {
        let _ = writeln!(s, "AES-{bits}-GCM seal, cycles/byte (fastest samples of interleaved runs):\n");
        let mut header = vec!["impl".to_string(), "backend".to_string()];
        header.extend(sizes.iter().map(|n| format!("{n} B")));
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut names: Vec<(String, String)> = Vec::new();
        for r in b.records.iter().filter(|r| r.key_bits == bits) {
            if !names.contains(&(r.implementation.clone(), r.backend.clone())) {
                names.push((r.implementation.clone(), r.backend.clone()));
            }
        }
        let record = |imp: &str, backend: &str, n: usize| {
            b.records.iter().find(|r| r.key_bits == bits && r.implementation == imp && r.backend == backend && r.bytes == n)
        };
        let cpb = |imp: &str, backend: &str, n: usize| record(imp, backend, n).map(|r| r.cycles_per_byte);
        for (imp, backend) in &names {
            let mut row = vec![imp.clone(), backend.clone()];
            row.extend(sizes.iter().map(|&n| record(imp, backend, n).map_or("—".into(), |r| figure(r.cycles_per_byte, 3, r.spread))));
            rows.push(row);
        }
        s += &table(&header, &rows);
        s += &noise_footnote(&b.records);
        for &n in &sizes {
            let best = names.iter().filter(|(i, _)| i == "aeslab").filter_map(|(i, bk)| cpb(i, bk, n)).fold(f64::INFINITY, f64::min);
            let peers: Vec<String> = ["openssl", "aws-lc-rs", "ring", "rustcrypto", "go"]
                .iter()
                .filter_map(|p| names.iter().find(|(i, _)| i == p).and_then(|(i, bk)| cpb(i, bk, n)).map(|c| format!("{p} {:.2}×", c / best)))
                .collect();
            let _ = writeln!(s, "- {n} B: aeslab's best {best:.3} cycles/byte; peers' time relative to it: {}", peers.join(", "));
        }
        s += "\n";
    }
    for n in &b.notes {
        let _ = writeln!(s, "Note: {n}");
    }
    s
}

pub fn run(args: &BenchGcmArgs) -> CliResult {
    let progress = Progress::new(!args.json);
    let b = measure(args, &progress)?;
    progress.finish();
    print_bench(args.json, "gcm", b.cycles_per_tick, &b.records, || markdown(&b))
}
