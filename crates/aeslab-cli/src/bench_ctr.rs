//! `aeslab bench ctr`: every aeslab backend × FACE level and the peers, in calibrated cycles,
//! laid out as the FACE paper's Table 3 (cycles/byte) and Table 4 (key set-up).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use aeslab::aes::{AnyAes, BackendKind};
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use aeslab_measure::{Calibration, Plan, calibrate, interleaved, interleaved_each};
use clap::Args;

use crate::CliResult;
use crate::peers::ctr::{CTR_PEERS, CtrPeer, OpenSsl, PER_MESSAGE_AESLAB, PeerKind};
use crate::progress::Progress;
use crate::records::{KeySetup, Record, Throughput, figure, noise_footnote};

#[derive(Args, Clone)]
pub struct BenchCtrArgs {
    /// Message sizes in bytes.
    #[arg(long, value_delimiter = ',', default_value = crate::args::MESSAGE_SIZES, value_parser = crate::args::bench_bytes)]
    pub sizes: Vec<usize>,
    /// Key sizes in bits.
    #[arg(long, value_delimiter = ',', default_value = "128,192,256")]
    pub keys: Vec<u32>,
    /// Only these aeslab backends (default: every available one).
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    /// Threads for aeslab's keystream (peers run on one). Above 1, aeslab's rows run on one
    /// thread too, in the same run, and the summary gives the ratio.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub out: crate::args::Output,
    /// Internal: measure only OpenSSL, as a child with AES-NI masked.
    #[arg(long, hide = true)]
    pub openssl_only: bool,
}

impl BenchCtrArgs {
    /// The thread counts aeslab's rows run on: 1, and `--threads` if more.
    fn thread_counts(&self) -> Vec<usize> {
        if self.threads > 1 { vec![1, self.threads] } else { vec![1] }
    }

    fn validate(&self) -> Result<(), String> {
        if self.sizes.is_empty() || self.sizes.contains(&0) {
            return Err("--sizes must list positive byte counts".into());
        }
        if let Some(k) = self.keys.iter().find(|k| ![128, 192, 256].contains(*k)) {
            return Err(format!("--keys: {k} is not an AES key size (128, 192 or 256)"));
        }
        if self.keys.is_empty() {
            return Err("--keys must list at least one key size".into());
        }
        if self.threads == 0 {
            return Err("--threads must be at least 1".into());
        }
        for name in &self.backends {
            let kind = BackendKind::from_name(name).map_err(|e| e.to_string())?;
            if !kind.available() {
                return Err(aeslab::Error::BackendUnavailable { backend: kind.name(), requires: kind.requires() }.to_string());
            }
        }
        Ok(())
    }

    /// The aeslab backends to measure.
    fn kinds(&self) -> Vec<BackendKind> {
        BackendKind::available_kinds()
            .filter(|k| self.backends.is_empty() || self.backends.iter().any(|b| b == k.name()))
            .collect()
    }

    fn plan(&self) -> Plan {
        if self.out.quick { Plan::QUICK } else { Plan::FULL }
    }
}

/// Deterministic key and IV (the IV's byte 15 is not aligned, as a real one would not be).
fn key_and_iv(bits: u32) -> (Vec<u8>, [u8; 16]) {
    let key: Vec<u8> = (0..bits / 8).map(|i| (i as u8).wrapping_mul(0x9d).wrapping_add(0x2b)).collect();
    let iv: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(0x3b) ^ 0xa7);
    (key, iv)
}

/// aeslab as a CTR peer (threaded when asked).
struct Aeslab {
    ctr: DynCtr,
    threads: usize,
}

impl CtrPeer for Aeslab {
    fn apply(&mut self, buf: &mut [u8]) {
        // On one thread, the call a single-threaded user makes.
        if self.threads == 1 {
            self.ctr.apply_keystream(buf);
        } else {
            self.ctr.apply_keystream_threaded(buf, self.threads);
        }
    }
}

struct Variant {
    implementation: &'static str,
    backend: String,
    face: FaceLevel,
    threads: usize,
    make: Box<dyn Fn() -> Box<dyn CtrPeer>>,
}

fn variants(args: &BenchCtrArgs, key: &[u8], iv: [u8; 16]) -> Vec<Variant> {
    let mut v = Vec::new();
    if !args.openssl_only {
        for kind in args.kinds() {
            for (face, threads) in FaceLevel::ALL.into_iter().flat_map(|face| args.thread_counts().into_iter().map(move |n| (face, n))) {
                let key = key.to_vec();
                v.push(Variant {
                    implementation: "aeslab",
                    backend: kind.name().to_string(),
                    face,
                    threads,
                    make: Box::new(move || {
                        let mut ctr = DynCtr::new_variable_time(&key, &iv, kind, face, Counter::Be128).expect("available backend");
                        ctr.precompute();
                        Box::new(Aeslab { ctr, threads })
                    }),
                });
            }
        }
    }
    for peer in CTR_PEERS.iter().filter(|p| !args.openssl_only || p.implementation == "openssl") {
        let key = key.to_vec();
        let make = peer.make;
        // aeslab's per-message row runs the default: FACE asked for, built once it pays.
        let face = if peer.backend == PER_MESSAGE_AESLAB { FaceLevel::FASTEST } else { FaceLevel::None };
        v.push(Variant {
            implementation: peer.implementation,
            backend: peer.backend.to_string(),
            face,
            threads: 1,
            make: Box::new(move || make(&key, &iv)),
        });
    }
    v
}

/// Everything `bench ctr` measured.
pub struct CtrBench {
    pub records: Vec<Record>,
    pub cal: Calibration,
    pub sizes: Vec<usize>,
    pub keys: Vec<u32>,
    pub notes: Vec<String>,
}

pub fn measure(args: &BenchCtrArgs, progress: &Progress) -> Result<CtrBench, String> {
    args.validate()?;
    if args.threads > 1 {
        // The timing pins this thread to its CPU while it runs, and threads inherit that: a
        // pool started inside a timed run (by its warm-up call, the first long enough to
        // share) would get one thread, on this CPU, and every row would run on one thread.
        // rayon sizes its global pool when first asked, so ask now.
        let pool = rayon::current_num_threads();
        if pool < args.threads {
            eprintln!("note: {} threads asked for, but the thread pool has {pool} (one per CPU this process may use)", args.threads);
        }
    }
    let mut cal = calibrate();
    let plan = args.plan();
    let mut records = Vec::new();
    let mut notes = Vec::new();
    for &bits in &args.keys {
        let (key, iv) = key_and_iv(bits);
        let vars = variants(args, &key, iv);
        for &size in &args.sizes {
            progress.step(&format!("bench ctr: AES-{bits}, {size} bytes"));
            // The core clock can drift between groups (turbo, the other tenant): re-calibrate.
            cal = calibrate();
            // Every implementation must produce OpenSSL's ciphertext before it is timed.
            let message = crate::peers::bench_message(size);
            let mut expect = message.clone();
            OpenSsl::new(&key, &iv).apply(&mut expect);
            // Each peer with its own copy of the message.
            let mut jobs: Vec<(Box<dyn CtrPeer>, Vec<u8>)> = Vec::new();
            for var in &vars {
                let mut out = message.clone();
                let mut check = (var.make)();
                check.apply(&mut out);
                if out != expect {
                    return Err(format!("{} {} {} produced wrong AES-{bits}-CTR output", var.implementation, var.backend, var.face));
                }
                jobs.push(((var.make)(), message.clone()));
            }
            let timings = interleaved_each(&cal, plan, &mut jobs, |(p, b)| p.apply(b));
            for (var, t) in vars.iter().zip(timings) {
                records.push(Record::Throughput(Throughput {
                    implementation: var.implementation.to_string(),
                    backend: var.backend.clone(),
                    face: var.face.name().to_string(),
                    key_bits: bits,
                    bytes: size,
                    threads: var.threads,
                    cycles_per_byte: t.cycles / size as f64,
                    gbytes_per_s: size as f64 / t.nanos,
                    spread: t.spread,
                }));
            }
        }
        progress.step(&format!("bench ctr: AES-{bits} key set-up"));
        records.extend(key_setup(args, &cal, plan, &key, iv, bits));
    }
    if !args.openssl_only {
        match openssl_bitsliced(args) {
            Ok(mut child) => records.append(&mut child),
            Err(e) => notes.push(format!("OpenSSL with AES-NI masked was not measured: {e}")),
        }
        progress.step("bench ctr: Go peer");
        match go_ctr(args, &cal) {
            Ok(mut go) => records.append(&mut go),
            Err(e) => notes.push(format!("Go's crypto/aes CTR was not measured: {e}")),
        }
    }
    Ok(CtrBench { records, cal, sizes: args.sizes.clone(), keys: args.keys.clone(), notes })
}

/// Table 4: key schedule alone (`face` none) and key schedule + FACE precompute per level.
fn key_setup(args: &BenchCtrArgs, cal: &Calibration, plan: Plan, key: &[u8], iv: [u8; 16], bits: u32) -> Vec<Record> {
    let mut names: Vec<(&'static str, String, FaceLevel)> = Vec::new();
    let mut jobs: Vec<Box<dyn FnMut()>> = Vec::new();
    if !args.openssl_only {
        for kind in args.kinds() {
            for face in FaceLevel::ALL {
                let key = key.to_vec();
                names.push(("aeslab", kind.name().to_string(), face));
                // Each key object stays where it is made (`black_box` gets a reference): passed
                // by value, a move of the whole object would be timed too.
                if face == FaceLevel::None {
                    jobs.push(Box::new(move || {
                        std::hint::black_box(&AnyAes::new_variable_time(kind, &key));
                    }));
                } else {
                    jobs.push(Box::new(move || {
                        let mut c = DynCtr::new_variable_time(&key, &iv, kind, face, Counter::Be128).expect("available backend");
                        c.precompute();
                        std::hint::black_box(&c);
                    }));
                }
            }
        }
    }
    // (The per-message rows set up their key in every call: the throughput table has them.)
    let streaming = |p: &&PeerKind| !p.backend.starts_with("per message");
    for peer in CTR_PEERS.iter().filter(streaming).filter(|p| !args.openssl_only || p.implementation == "openssl") {
        let (key, setup) = (key.to_vec(), peer.setup);
        names.push((peer.implementation, peer.backend.to_string(), FaceLevel::None));
        jobs.push(Box::new(move || setup(&key, &iv)));
    }
    let timings = interleaved(cal, plan, &mut jobs);
    names
        .into_iter()
        .zip(timings)
        .map(|((implementation, backend, face), t)| {
            Record::KeySetup(KeySetup {
                implementation: implementation.to_string(),
                backend,
                face: face.name().to_string(),
                key_bits: bits,
                op: "key_setup",
                cycles: t.cycles,
                us: t.nanos / 1000.0,
                spread: t.spread,
            })
        })
        .collect()
}

/// OpenSSL's constant-time bitsliced AES (AES-NI masked off), measured in a child process
/// because OPENSSL_ia32cap is read once per process.
fn openssl_bitsliced(args: &BenchCtrArgs) -> Result<Vec<Record>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let sizes = args.sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(",");
    let keys = args.keys.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(",");
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["bench", "ctr", "--openssl-only", "--json", "--sizes", &sizes, "--keys", &keys])
        .env("OPENSSL_ia32cap", "~0x200000000000000");
    if args.out.quick {
        cmd.arg("--quick");
    }
    let out = cmd.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let values: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let mut records = Vec::new();
    for v in values {
        let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        let backend = "bsaes (AES-NI masked)".to_string();
        if v.get("op").is_some() {
            records.push(Record::KeySetup(KeySetup {
                implementation: s("impl"),
                backend,
                face: s("face"),
                key_bits: v["key_bits"].as_u64().unwrap_or(0) as u32,
                op: "key_setup",
                cycles: f("cycles"),
                us: f("us"),
                spread: 0.0,
            }));
        } else {
            records.push(Record::Throughput(Throughput {
                implementation: s("impl"),
                backend,
                face: s("face"),
                key_bits: v["key_bits"].as_u64().unwrap_or(0) as u32,
                bytes: v["bytes"].as_u64().unwrap_or(0) as usize,
                threads: 1,
                cycles_per_byte: f("cycles_per_byte"),
                gbytes_per_s: f("gbytes_per_s"),
                spread: 0.0,
            }));
        }
    }
    Ok(records)
}

/// Go's CTR for every key size asked for.
fn go_ctr(args: &BenchCtrArgs, cal: &Calibration) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for &bits in &args.keys {
        let (key, iv) = key_and_iv(bits);
        records.extend(crate::peers::go::ctr(&key, &iv, &args.sizes, args.out.quick, cal)?.into_iter().map(Record::Throughput));
    }
    Ok(records)
}

type RowKey = (String, String, String);
/// Table rows in display order: (implementation, backend, FACE level) ranks, then names.
type RowOrder = (usize, usize, usize, RowKey);

/// Display rank of a row: implementation (aeslab first, then the peers), backend, FACE level.
pub fn row_order(implementation: &str, backend: &str, face: &str) -> (usize, usize, usize) {
    let i = ["aeslab", "openssl", "aws-lc-rs", "rustcrypto", "go"].iter().position(|x| *x == implementation).unwrap_or(9);
    let b = BackendKind::ALL.iter().position(|k| k.name() == backend).unwrap_or(99);
    let f = FaceLevel::ALL.iter().position(|l| l.name() == face).unwrap_or(9);
    (i, b, f)
}

/// Table 3, Table 4 and a computed summary, as markdown.
pub fn markdown(b: &CtrBench) -> String {
    let mut s = String::new();
    // Table 3.
    // (cycles/byte, spread) by (size, key bits), per row.
    type Cells = BTreeMap<(usize, u32), (f64, f64)>;
    let mut rows: BTreeMap<(RowOrder, usize), Cells> = BTreeMap::new();
    for r in &b.records {
        if let Record::Throughput(t) = r {
            let o = row_order(&t.implementation, &t.backend, &t.face);
            let key = ((o.0, o.1, o.2, (t.implementation.clone(), t.backend.clone(), t.face.clone())), t.threads);
            rows.entry(key).or_default().insert((t.bytes, t.key_bits), (t.cycles_per_byte, t.spread));
        }
    }
    let _ = writeln!(s, "AES-CTR, cycles/byte (lower is better), by message size and key size:\n");
    let mut header: Vec<String> = ["impl", "backend", "FACE"].map(String::from).to_vec();
    for size in &b.sizes {
        for k in &b.keys {
            header.push(format!("{size} B AES-{k}"));
        }
    }
    let table3: Vec<Vec<String>> = rows
        .iter()
        .map(|(((_, _, _, (i, be, f)), threads), cells)| {
            let i = if *threads > 1 { format!("{i}, {threads} threads") } else { i.clone() };
            let mut row = vec![i, be.clone(), f.clone()];
            for size in &b.sizes {
                for k in &b.keys {
                    row.push(cells.get(&(*size, *k)).map_or("—".into(), |&(v, spread)| figure(v, 3, spread)));
                }
            }
            row
        })
        .collect();
    s += &crate::markdown::table(&header, &table3);
    s += &noise_footnote(&b.records);
    // Table 4.
    let mut setup: BTreeMap<RowOrder, BTreeMap<u32, (f64, f64, f64)>> = BTreeMap::new();
    for r in &b.records {
        if let Record::KeySetup(k) = r {
            let o = row_order(&k.implementation, &k.backend, &k.face);
            let key = (o.0, o.1, o.2, (k.implementation.clone(), k.backend.clone(), k.face.clone()));
            setup.entry(key).or_default().insert(k.key_bits, (k.cycles, k.us, k.spread));
        }
    }
    let _ = writeln!(s, "\nKey set-up (FACE rows include building the FACE tables), cycles and µs:\n");
    let mut header: Vec<String> = ["impl", "backend", "FACE"].map(String::from).to_vec();
    header.extend(b.keys.iter().map(|k| format!("cycles AES-{k}")));
    header.extend(b.keys.iter().map(|k| format!("µs AES-{k}")));
    let table4: Vec<Vec<String>> = setup
        .iter()
        .map(|((_, _, _, (i, be, f)), cells)| {
            let mut row = vec![i.clone(), be.clone(), f.clone()];
            row.extend(b.keys.iter().map(|k| cells.get(k).map_or("—".into(), |c| figure(c.0, 0, c.2))));
            row.extend(b.keys.iter().map(|k| cells.get(k).map_or("—".into(), |c| figure(c.1, 3, c.2))));
            row
        })
        .collect();
    s += &crate::markdown::table(&header, &table4);
    s += &noise_footnote(&b.records);
    s += &summary(b);
    for n in &b.notes {
        let _ = writeln!(s, "\nNote: {n}");
    }
    s
}

/// The throughput records of `b` that satisfy `pred`.
pub fn throughput<'a>(b: &'a CtrBench, pred: impl Fn(&Throughput) -> bool + 'a) -> impl Iterator<Item = &'a Throughput> + 'a {
    b.records.iter().filter_map(|r| if let Record::Throughput(t) = r { Some(t) } else { None }).filter(move |t| pred(t))
}

/// The computed summary: best aeslab per key size at the largest size, its ratio to each peer,
/// and each backend's FACE gain at 4096 bytes (or the size closest to it).
fn summary(b: &CtrBench) -> String {
    let mut s = String::from("\nSummary (computed from the tables above):\n\n");
    let largest = *b.sizes.iter().max().unwrap_or(&0);
    for &k in &b.keys {
        let best = throughput(b, |t| t.implementation == "aeslab" && t.threads == 1 && t.key_bits == k && t.bytes == largest)
            .min_by(|x, y| x.cycles_per_byte.total_cmp(&y.cycles_per_byte));
        let Some(best) = best else { continue };
        let _ = write!(
            s,
            "- AES-{k}, {largest} B: fastest aeslab is {} + FACE {} at {:.3} cycles/byte ({:.2} GB/s)",
            best.backend, best.face, best.cycles_per_byte, best.gbytes_per_s
        );
        let peers: Vec<_> = throughput(b, |t| t.implementation != "aeslab" && t.key_bits == k && t.bytes == largest).collect();
        for p in peers {
            let _ = write!(s, "; {:.2}× {} ({})", p.cycles_per_byte / best.cycles_per_byte, p.implementation, p.backend);
        }
        s += ".\n";
    }
    s += &crossover(b, largest);
    let near_4k = b.sizes.iter().copied().min_by_key(|x| x.abs_diff(4096)).unwrap_or(0);
    let k = b.keys[0];
    let _ = writeln!(s, "- FACE gain at {near_4k} B, AES-{k} (cycles/byte without FACE ÷ with the best level):");
    for kind in BackendKind::available_kinds() {
        let of = |face: &str| {
            throughput(b, |t| {
                t.implementation == "aeslab" && t.threads == 1 && t.backend == kind.name() && t.key_bits == k && t.bytes == near_4k && t.face == face
            })
            .map(|t| t.cycles_per_byte)
            .next()
        };
        let best = FaceLevel::ALL[1..]
            .iter()
            .filter_map(|l| of(l.name()).map(|v| (*l, v)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(none), Some((level, v))) = (of("none"), best) {
            let _ = writeln!(s, "  - {kind}: {:.3} → {:.3} ({level}), {:.2}×", none, v, none / v);
        }
    }
    s += &thread_speedups(b);
    s
}

/// For each aeslab row measured on more than one thread: its speed-up over the same row on one
/// thread in the same run, at each size and key size.
fn thread_speedups(b: &CtrBench) -> String {
    let mut s = String::new();
    let many: Vec<&Throughput> = throughput(b, |t| t.implementation == "aeslab" && t.threads > 1).collect();
    let Some(threads) = many.first().map(|t| t.threads) else { return s };
    let _ = writeln!(s, "- {threads} threads against one (time on one thread ÷ time on {threads}, same run):");
    let mut lines: BTreeMap<(usize, usize, u32, &str, &str), Vec<String>> = BTreeMap::new();
    for t in many {
        let one = throughput(b, |o| {
            o.implementation == "aeslab" && o.threads == 1 && o.backend == t.backend && o.face == t.face && o.key_bits == t.key_bits && o.bytes == t.bytes
        })
        .next();
        if let Some(one) = one {
            let (_, backend, face) = row_order(&t.implementation, &t.backend, &t.face);
            lines.entry((backend, face, t.key_bits, &t.backend, &t.face)).or_default().push(format!("{} B {:.2}×", t.bytes, one.cycles_per_byte / t.cycles_per_byte));
        }
    }
    for ((_, _, k, backend, face), cells) in lines {
        let _ = writeln!(s, "  - {backend} + FACE {face}, AES-{k}: {}", cells.join(", "));
    }
    s
}

pub fn run(args: &BenchCtrArgs) -> CliResult {
    let progress = Progress::new(!args.out.json && !args.openssl_only);
    let bench = measure(args, &progress)?;
    progress.finish();
    crate::records::print_bench(args.out.json, "ctr", &bench.cal, &bench.records, || markdown(&bench))
}

/// FACE's break-even for one message under a fresh nonce, per backend and key size: the table's
/// cost (key set-up with rd2p's tables less without) over what rd2p saves per byte at the
/// largest size; and the length from which the library builds the table
/// ([`aeslab::ctr::face_pays_from_blocks`]).
fn crossover(b: &CtrBench, largest: usize) -> String {
    let mut s = format!(
        "- FACE rd2p's break-even for one message under a fresh nonce (its table's cost ÷ what it saves per byte at {largest} B), \
         and the length from which the library builds the table (`face_pays_from_blocks`):\n"
    );
    let setup = |backend: &str, face: &str, k: u32| {
        b.records.iter().find_map(|r| match r {
            Record::KeySetup(x) if x.implementation == "aeslab" && x.backend == backend && x.face == face && x.key_bits == k => Some(x.cycles),
            _ => None,
        })
    };
    let cpb = |backend: &str, face: &str, k: u32| {
        throughput(b, |t| t.implementation == "aeslab" && t.threads == 1 && t.backend == backend && t.face == face && t.key_bits == k && t.bytes == largest)
            .map(|t| t.cycles_per_byte)
            .next()
    };
    for kind in BackendKind::available_kinds() {
        let mut cells = Vec::new();
        for &k in &b.keys {
            let (Some(s0), Some(s2), Some(c0), Some(c2)) =
                (setup(kind.name(), "none", k), setup(kind.name(), "rd2p", k), cpb(kind.name(), "none", k), cpb(kind.name(), "rd2p", k))
            else {
                continue;
            };
            if c2 < c0 {
                cells.push(format!("AES-{k} {:.1} KiB", (s2 - s0) / (c0 - c2) / 1024.0));
            } else {
                cells.push(format!("AES-{k} never at these sizes"));
            }
        }
        if !cells.is_empty() {
            let pays = aeslab::ctr::face_pays_from_blocks(kind);
            let _ = writeln!(s, "  - {kind}: {}; the library: {} KiB ({pays} blocks)", cells.join(", "), pays / 64);
        }
    }
    s
}
