//! `aeslab bench ace`: seed 004's comparison — cycles per byte of permutation state for each
//! SIMD backend against the scalar reference, with ± over repeated runs, plus ACE-AE-128 and
//! ACE-H-256 with one message and with a full register of messages.

use std::fmt::Write as _;

use aeslab::ace::{AceAe128, AceBackend, AceHash256, AceMessage, LaneStates};
use aeslab_measure::{Calibration, Plan, calibrate, interleaved, interleaved_each};
use clap::Args;

use crate::CliResult;
use crate::progress::Progress;
use crate::records::AceRecord;

/// Bytes in one ACE state.
const STATE_BYTES: usize = 40;

#[derive(Args, Clone)]
pub struct BenchAceArgs {
    /// Message length for the AEAD and hash rows.
    #[arg(long, default_value_t = 4096, value_parser = crate::args::bench_bytes)]
    pub bytes: usize,
    /// Only these backends (default: every one the CPU has; `scalar` is always measured, as
    /// the reference).
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    #[command(flatten)]
    pub out: crate::args::Output,
}

pub struct AceBench {
    pub records: Vec<AceRecord>,
    pub cal: Calibration,
    pub runs: usize,
}

impl BenchAceArgs {
    fn backends(&self) -> Result<Vec<AceBackend>, String> {
        let mut list = vec![AceBackend::Scalar];
        let chosen: Vec<AceBackend> = if self.backends.is_empty() {
            AceBackend::ALL.into_iter().filter(|b| b.available()).collect()
        } else {
            self.backends
                .iter()
                .map(|n| AceBackend::from_name(n).and_then(AceBackend::check).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?
        };
        for b in chosen {
            if !list.contains(&b) {
                list.push(b);
            }
        }
        Ok(list)
    }
}

/// The median of `xs` and half their interquartile range: robust to the bursts of noise
/// this shared machine has, where a mean and standard deviation are not.
fn median_and_spread(xs: &[f64]) -> (f64, f64) {
    use aeslab_measure::stats::{median, quantile};
    let m = median(xs).unwrap_or(f64::NAN);
    let spread = (quantile(xs, 0.75).unwrap_or(m) - quantile(xs, 0.25).unwrap_or(m)) / 2.0;
    (m, spread)
}

pub fn measure(args: &BenchAceArgs, progress: &Progress) -> Result<AceBench, String> {
    let backends = args.backends()?;
    let plan = if args.out.quick { Plan::QUICK } else { Plan::FULL };
    let runs = if args.out.quick { 3 } else { 7 };
    let mut cal = calibrate();
    let mut records = Vec::new();

    // The permutation: every backend on states it keeps permuting, interleaved; the whole
    // comparison repeated `runs` times for the ± column.
    let mut per_run: Vec<Vec<f64>> = vec![Vec::new(); backends.len()];
    let mut spreads = vec![0.0f64; backends.len()];
    for run in 0..runs {
        progress.step(&format!("bench ace: permutation, run {} of {runs}", run + 1));
        cal.refresh();
        let mut jobs: Vec<_> = backends.iter().map(|&b| (b, LaneStates::default())).collect();
        // The backends were checked when the command parsed them: permute cannot fail.
        let timings = interleaved_each(&cal, plan, &mut jobs, |(b, s)| {
            let _ = b.permute(s);
        });
        for (((t, b), cpb), sp) in timings.iter().zip(&backends).zip(per_run.iter_mut()).zip(spreads.iter_mut()) {
            cpb.push(t.cycles / (STATE_BYTES * b.lanes()) as f64);
            *sp = sp.max(t.spread);
        }
    }
    for ((b, cpb), &sp) in backends.iter().zip(&per_run).zip(&spreads) {
        let (mid, spread) = median_and_spread(cpb);
        records.push(AceRecord {
            implementation: "aeslab",
            op: "perm",
            backend: b.name().into(),
            lanes: b.lanes(),
            bytes: STATE_BYTES * b.lanes(),
            cycles_per_byte: mid,
            plus_minus: Some(spread),
            spread: sp,
        });
    }

    // AEAD and hash: one message on each backend, and one message per lane.
    let n = args.bytes;
    let key = [0x42u8; 16];
    let msg: Vec<u8> = (0..n).map(|i| (i * 5 + 3) as u8).collect();
    let reference_ct = AceAe128::new(&key).seal(&[7; 16], &[], &msg);
    let reference_md = AceHash256::hash_many_with(AceBackend::Scalar, &[&msg]).map_err(|e| e.to_string())?[0];
    // Each backend with one message, and with one message per lane.
    let mut shapes = Vec::new();
    for &b in &backends {
        shapes.push((b, 1));
        if b.lanes() > 1 {
            shapes.push((b, b.lanes()));
        }
    }
    let ciphers: Vec<AceAe128> =
        backends.iter().map(|&b| AceAe128::with_backend(&key, b).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    for op in ["aead", "hash"] {
        progress.step(&format!("bench ace: {op}"));
        cal.refresh();
        let mut buffers: Vec<Vec<Vec<u8>>> = shapes.iter().map(|&(_, lanes)| vec![msg.clone(); lanes]).collect();
        let mut jobs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for (&(b, lanes), bufs) in shapes.iter().zip(buffers.iter_mut()) {
            let ace = &ciphers[backends.iter().position(|&x| x == b).expect("listed")];
            let msg = &msg;
            if op == "aead" {
                // Checked before timing: every lane's ciphertext is the scalar one.
                let mut check: Vec<Vec<u8>> = vec![msg.clone(); lanes];
                let mut messages: Vec<AceMessage<'_>> =
                    check.iter_mut().map(|buf| AceMessage { nonce: [7; 16], ad: &[], buffer: buf, tag: [0; 16] }).collect();
                ace.seal_many(&mut messages);
                if messages.iter().any(|m| [&*m.buffer, &m.tag[..]].concat() != reference_ct) {
                    return Err(format!("ACE-AE-128 on {} with {lanes} lanes differs from the scalar reference", b.name()));
                }
                jobs.push(Box::new(move || {
                    let mut messages: Vec<AceMessage<'_>> =
                        bufs.iter_mut().map(|buf| AceMessage { nonce: [7; 16], ad: &[], buffer: buf, tag: [0; 16] }).collect();
                    ace.seal_many(&mut messages);
                }));
            } else {
                let inputs: Vec<&[u8]> = vec![msg.as_slice(); lanes];
                if AceHash256::hash_many_with(b, &inputs).map_err(|e| e.to_string())?.iter().any(|d| *d != reference_md) {
                    return Err(format!("ACE-H-256 on {} with {lanes} lanes differs from the scalar reference", b.name()));
                }
                jobs.push(Box::new(move || {
                    std::hint::black_box(AceHash256::hash_many_with(b, &inputs).expect("checked"));
                }));
            }
        }
        for (t, &(b, lanes)) in interleaved(&cal, plan, &mut jobs).iter().zip(&shapes) {
            records.push(AceRecord {
                implementation: "aeslab",
                op,
                backend: b.name().into(),
                lanes,
                bytes: n,
                cycles_per_byte: t.cycles / (n.max(1) * lanes) as f64,
                plus_minus: None,
                spread: t.spread,
            });
        }
    }
    Ok(AceBench { records, cal, runs })
}

fn find<'a>(b: &'a AceBench, op: &str, backend: &str, lanes: usize) -> Option<&'a AceRecord> {
    b.records.iter().find(|r| r.op == op && r.backend == backend && r.lanes == lanes)
}

/// Seed 004's listing (per SIMD backend: aeslab, then the scalar reference with the ratio),
/// then the AEAD/hash table and a computed summary.
pub fn markdown(b: &AceBench) -> String {
    let mut s = format!(
        "ACE permutation, cycles per byte of state (median ± half the interquartile range over {} runs):\n\n```\n",
        b.runs
    );
    let reference = find(b, "perm", "scalar", 1);
    let perms: Vec<&AceRecord> = b.records.iter().filter(|r| r.op == "perm" && r.backend != "scalar").collect();
    for (i, r) in perms.iter().enumerate() {
        if i > 0 {
            s += "\n\n********************************************************************************\n\n";
        }
        let _ = writeln!(s, "Arch: {} ({} lanes)", r.backend, r.lanes);
        let _ = writeln!(s, "aeslab: {:.2}   +-{:.2}", r.cycles_per_byte, r.plus_minus.unwrap_or(0.0));
        if let Some(rf) = reference {
            let _ = writeln!(
                s,
                "Ref  : {:.2}   +-{:.2}  (x{:.2})",
                rf.cycles_per_byte,
                rf.plus_minus.unwrap_or(0.0),
                rf.cycles_per_byte / r.cycles_per_byte
            );
        }
    }
    if let (true, Some(rf)) = (perms.is_empty(), reference) {
        let _ = writeln!(s, "Ref (scalar): {:.2}   +-{:.2}", rf.cycles_per_byte, rf.plus_minus.unwrap_or(0.0));
    }
    s += "```\n\nRef is aeslab's scalar reference (one state in `u32` arithmetic).\n\n";

    let bytes = b.records.iter().find(|r| r.op != "perm").map_or(0, |r| r.bytes);
    let _ = writeln!(s, "ACE-AE-128 seal and ACE-H-256, {bytes}-byte messages, cycles/byte:\n");
    let header = ["op", "backend", "1 message", "lanes", "a full register of messages", "vs scalar"].map(String::from);
    let mut rows = Vec::new();
    for op in ["aead", "hash"] {
        let scalar = find(b, op, "scalar", 1).map(|r| r.cycles_per_byte);
        for r in b.records.iter().filter(|r| r.op == op && r.lanes == 1) {
            let many = b.records.iter().find(|x| x.op == op && x.backend == r.backend && x.lanes > 1);
            let best = many.map_or(r.cycles_per_byte, |m| m.cycles_per_byte);
            rows.push(vec![
                if op == "aead" { "ACE-AE-128".into() } else { "ACE-H-256".into() },
                r.backend.clone(),
                crate::records::figure(r.cycles_per_byte, 2, r.spread),
                many.map_or("1".into(), |m| m.lanes.to_string()),
                many.map_or("—".into(), |m| crate::records::figure(m.cycles_per_byte, 2, m.spread)),
                scalar.map_or("—".into(), |sc| format!("{:.2}×", sc / best)),
            ]);
        }
    }
    s += &crate::markdown::table(&header, &rows);
    s += &crate::records::noise_footnote(&b.records);
    s += &summary(b);
    s
}

fn summary(b: &AceBench) -> String {
    let mut s = String::from("\nSummary (computed from the tables above):\n\n");
    let Some(reference) = find(b, "perm", "scalar", 1) else { return s };
    for (backend, target) in [("avx2", 2.0), ("avx512", 3.0)] {
        if let Some(r) = find(b, "perm", backend, if backend == "avx2" { 8 } else { 16 }) {
            let ratio = reference.cycles_per_byte / r.cycles_per_byte;
            let _ = writeln!(
                s,
                "- Permutation, {backend}: {:.2} cycles/byte, {ratio:.2}× the scalar reference (target ≥ {target}×: {}).",
                r.cycles_per_byte,
                if ratio >= target { "met" } else { "missed" }
            );
        }
    }
    for op in ["aead", "hash"] {
        let best = b.records.iter().filter(|r| r.op == op).min_by(|x, y| x.cycles_per_byte.total_cmp(&y.cycles_per_byte));
        if let (Some(best), Some(one)) = (best, find(b, op, "scalar", 1)) {
            let _ = writeln!(
                s,
                "- {}: one message {:.1} cycles/byte (scalar); {} messages at once on {} {:.2} cycles/byte each, {:.1}× the throughput.",
                if op == "aead" { "ACE-AE-128" } else { "ACE-H-256" },
                one.cycles_per_byte,
                best.lanes,
                best.backend,
                best.cycles_per_byte,
                one.cycles_per_byte / best.cycles_per_byte
            );
        }
    }
    s
}

pub fn run(args: &BenchAceArgs) -> CliResult {
    let progress = Progress::new(!args.out.json);
    let bench = measure(args, &progress)?;
    progress.finish();
    crate::records::print_bench(args.out.json, "ace", &bench.cal, &bench.records, || markdown(&bench))
}
