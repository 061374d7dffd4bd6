//! `aeslab bench aez`: every AEZ path against zears and Yawning's Go AEZ (assembly and
//! `noasm`), in seed 002's layout: ns/op and MB/s per message size, plus cycles/byte.

use std::fmt::Write as _;

use aeslab::aes::BackendKind;
use aeslab::aez::Aez;
use aeslab_measure::{Calibration, Plan, calibrate, interleaved};
use clap::Args;

use crate::CliResult;
use crate::peers::aez::{Zears, key, message, nonce};
use crate::peers::go;
use crate::progress::Progress;
use crate::records::AezRecord;

/// Seed 002's message sizes.
pub const SEED_SIZES: [usize; 11] = [1, 32, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 1_024_768];

#[derive(Args, Clone)]
pub struct BenchAezArgs {
    /// Message sizes in bytes (default: seed 002's).
    #[arg(long, value_delimiter = ',', value_parser = crate::args::bench_bytes)]
    pub sizes: Vec<usize>,
    /// Only these aeslab paths (default: every constant-time backend available).
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    #[command(flatten)]
    pub out: crate::args::Output,
}

pub struct AezBench {
    pub records: Vec<AezRecord>,
    pub cal: Calibration,
    pub notes: Vec<String>,
}

impl BenchAezArgs {
    fn sizes(&self) -> Vec<usize> {
        if self.sizes.is_empty() { SEED_SIZES.to_vec() } else { self.sizes.clone() }
    }

    fn kinds(&self) -> Result<Vec<BackendKind>, String> {
        let all: Vec<BackendKind> = BackendKind::available_kinds().filter(|k| k.constant_time()).collect();
        if self.backends.is_empty() {
            return Ok(all);
        }
        self.backends
            .iter()
            .map(|n| {
                let k = BackendKind::from_name(n).map_err(|e| e.to_string())?;
                if !k.constant_time() {
                    return Err(aeslab::Error::VariableTime { backend: k.name(), scheme: "AEZ" }.to_string());
                }
                if !k.available() {
                    return Err(aeslab::Error::BackendUnavailable { backend: k.name(), requires: k.requires() }.to_string());
                }
                Ok(k)
            })
            .collect()
    }
}

pub fn measure(args: &BenchAezArgs, progress: &Progress) -> Result<AezBench, String> {
    let sizes = args.sizes();
    let kinds = args.kinds()?;
    let (key, nonce) = (key(), nonce());
    let plan = if args.out.quick { Plan::QUICK } else { Plan::FULL };
    let mut cal = calibrate();
    let mut records = Vec::new();
    let mut notes = Vec::new();

    let ours: Vec<(BackendKind, Aez)> =
        kinds.iter().map(|&k| Aez::with_backend(&key, k).map(|a| (k, a)).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let zears = Zears::new(&key);
    for &size in &sizes {
        progress.step(&format!("bench aez: {size} bytes"));
        cal.refresh();
        let msg = message(size);
        // Every implementation must produce the same ciphertext before it is timed.
        let expect = ours[0].1.encrypt(&nonce, &[], 16, &msg).map_err(|e| e.to_string())?;
        for (k, a) in &ours {
            if a.encrypt(&nonce, &[], 16, &msg).as_ref() != Ok(&expect) {
                return Err(format!("aeslab {k} produced a different AEZ ciphertext for {size} bytes"));
            }
        }
        if zears.encrypt(&nonce, &msg) != expect {
            return Err(format!("zears produced a different AEZ ciphertext for {size} bytes"));
        }
        let mut bufs: Vec<Vec<u8>> = (0..=ours.len()).map(|_| vec![0u8; size + 16]).collect();
        let (zbuf, obufs) = bufs.split_last_mut().expect("at least one buffer");
        let mut jobs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for ((_, a), buf) in ours.iter().zip(obufs.iter_mut()) {
            let nonce = &nonce;
            // τ = 16 and a buffer of size + 16 bytes: encryption cannot fail.
            jobs.push(Box::new(move || {
                let _ = a.encrypt_in_place(nonce, &[], 16, buf);
            }));
        }
        let zears_ref = &zears;
        let nonce_ref = &nonce;
        jobs.push(Box::new(move || zears_ref.encrypt_in_place(nonce_ref, zbuf)));
        let timings = interleaved(&cal, plan, &mut jobs);
        let names = ours.iter().map(|(k, _)| ("aeslab", k.name().to_string())).chain([(Zears::IMPLEMENTATION, Zears::BACKEND.to_string())]);
        for ((implementation, backend), t) in names.zip(timings) {
            let ns = t.nanos;
            records.push(AezRecord {
                implementation: implementation.into(),
                backend,
                bytes: size,
                ns_per_op: ns,
                mb_per_s: size as f64 / ns * 1e3,
                cycles_per_byte: t.cycles / size.max(1) as f64,
                spread: t.spread,
            });
        }
    }

    // Yawning's Go AEZ, with and without assembly, when Go is installed.
    for noasm in [false, true] {
        progress.step(&format!("bench aez: Go peer{}", if noasm { " (noasm)" } else { "" }));
        match go::aez(noasm, &sizes, args.out.quick, &cal) {
            Ok(mut r) => records.append(&mut r),
            Err(e) => notes.push(format!("Yawning's Go AEZ{} was not measured: {e}", if noasm { " (noasm)" } else { "" })),
        }
    }
    Ok(AezBench { records, cal, notes })
}

/// Seed 002's table, one block of rows per implementation, then a computed summary.
pub fn markdown(b: &AezBench) -> String {
    let mut groups: Vec<(String, String)> = Vec::new();
    for r in &b.records {
        let g = (r.implementation.clone(), r.backend.clone());
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let header = ["Version", "Message Size", "ns/op", "MB/s", "cycles/byte"].map(String::from);
    let mut rows = Vec::new();
    for (i, (implementation, backend)) in groups.iter().enumerate() {
        if i > 0 {
            rows.push(vec![String::new(); 5]);
        }
        for (n, r) in b.records.iter().filter(|r| &r.implementation == implementation && &r.backend == backend).enumerate() {
            let name = if n == 0 { format!("{implementation} {backend}") } else { String::new() };
            rows.push(vec![
                name,
                r.bytes.to_string(),
                crate::records::figure(r.ns_per_op, 0, r.spread),
                format!("{:.2}", r.mb_per_s),
                crate::records::figure(r.cycles_per_byte, 3, r.spread),
            ]);
        }
    }
    let mut s = String::from("AEZ encryption, tau 16, no AD:\n\n");
    s += &crate::markdown::table(&header, &rows);
    s += &crate::records::noise_footnote(&b.records);
    s += &summary(b);
    for n in &b.notes {
        let _ = writeln!(s, "\nNote: {n}");
    }
    s
}

fn at<'a>(b: &'a AezBench, implementation: &str, bytes: usize) -> impl Iterator<Item = &'a AezRecord> {
    let implementation = implementation.to_string();
    b.records.iter().filter(move |r| r.implementation == implementation && r.bytes == bytes)
}

fn summary(b: &AezBench) -> String {
    let mut s = String::from("\nSummary (computed from the table above):\n\n");
    let sizes: Vec<usize> = {
        let mut v: Vec<usize> = b.records.iter().map(|r| r.bytes).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let main = sizes.iter().copied().min_by_key(|x| x.abs_diff(16384)).unwrap_or(0);
    let best = |bytes: usize, ct_only: bool| {
        at(b, "aeslab", bytes)
            .filter(|r| !ct_only || BackendKind::from_name(&r.backend).is_ok_and(|k| !matches!(k.name(), "aesni" | "vaes256" | "vaes512")))
            .min_by(|x, y| x.ns_per_op.total_cmp(&y.ns_per_op))
    };
    if let Some(top) = best(main, false) {
        let _ = write!(s, "- {main} B: fastest aeslab path is {} at {:.3} cycles/byte ({:.0} MB/s)", top.backend, top.cycles_per_byte, top.mb_per_s);
        for peer in ["yawning-aez-go", "zears"] {
            if let Some(p) = at(b, peer, main).next() {
                let _ = write!(s, "; {:.2}× {peer}", p.ns_per_op / top.ns_per_op);
            }
        }
        s += ".\n";
    }
    if let (Some(ct), Some(noasm)) = (best(main, true), at(b, "yawning-aez-go-noasm", main).next()) {
        let _ = writeln!(
            s,
            "- Constant-time software, {main} B: aeslab {} at {:.1} cycles/byte, {:.2}× Yawning's noasm path.",
            ct.backend,
            ct.cycles_per_byte,
            noasm.ns_per_op / ct.ns_per_op
        );
    }
    for short in [1usize, 32] {
        if let Some(top) = best(short, false) {
            let _ = write!(s, "- {short} B: aeslab {} {:.0} ns", top.backend, top.ns_per_op);
            for peer in ["yawning-aez-go", "yawning-aez-go-noasm", "zears"] {
                if let Some(p) = at(b, peer, short).next() {
                    let _ = write!(s, "; {peer} {:.0} ns", p.ns_per_op);
                }
            }
            s += ".\n";
        }
    }
    s
}

pub fn run(args: &BenchAezArgs) -> CliResult {
    let progress = Progress::new(!args.out.json);
    let bench = measure(args, &progress)?;
    progress.finish();
    crate::records::print_bench(args.out.json, "aez", &bench.cal, &bench.records, || markdown(&bench))
}
