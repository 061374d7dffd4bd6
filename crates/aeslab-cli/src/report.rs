//! `aeslab report`: every seed's report, reproduced on this machine.
//!
//! One section per seed, each in that seed's own format, from measurements made in this run,
//! each followed by a computed summary; `report.json` holds every record and the SVG plots
//! sit beside REPORT.md.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use aeslab::ctr::FaceLevel;
use aeslab_measure::machine;
use clap::Args;

use crate::CliResult;
use crate::args::Output;
use crate::bench_ace::{self, BenchAceArgs};
use crate::bench_gcm::{self, BenchGcmArgs, GcmBench};
use crate::bench_aez::{self, AezBench, BenchAezArgs};
use crate::bench_ctr::{self, BenchCtrArgs, CtrBench};
use crate::cpu::CpuReport;
use crate::instr::{self, InstrArgs};
use crate::pipeline::{self, PipelineArgs, PipelineReport};
use crate::plots::{self, Series};
use crate::progress::Progress;
use crate::records::{InstrRecord, Opened, Throughput};

#[derive(Args)]
pub struct ReportArgs {
    /// Directory to write REPORT.md, report.json and the SVG plots into.
    #[arg(long, default_value = "report")]
    out: PathBuf,
    /// Shorter measurements (within 2 minutes).
    #[arg(long)]
    quick: bool,
}

/// The AES units' peak, from the instruction table: block-rounds per cycle at each width.
struct AesUnit {
    /// (width, block-rounds per cycle, latency in cycles)
    widths: Vec<(&'static str, f64, Option<f64>, f64)>,
}

impl AesUnit {
    fn from_instr(records: &[InstrRecord]) -> Option<AesUnit> {
        let mut widths = Vec::new();
        for (instr, width, lanes) in [("aesenc", "xmm", 1.0), ("vaesenc", "ymm", 2.0), ("vaesenc", "zmm", 4.0)] {
            let of = |kind: &str| {
                records.iter().find(|r| r.instr == instr && r.width == width && r.kind == kind).map(|r| r.cycles_per_instr)
            };
            if let Some(t) = of("throughput") {
                widths.push((width, lanes / t, of("latency"), lanes));
            }
        }
        (!widths.is_empty()).then_some(AesUnit { widths })
    }

    /// The most block-rounds per cycle any width reaches.
    fn peak(&self) -> (&'static str, f64) {
        self.widths.iter().map(|w| (w.0, w.1)).fold(("", 0.0), |a, b| if b.1 > a.1 { b } else { a })
    }

    fn summary(&self) -> String {
        let mut s = String::from("\nSummary (computed from the table above):\n\n");
        for (width, rounds, latency, lanes) in &self.widths {
            let _ = write!(s, "- AES rounds on {width}: {rounds:.2} block-rounds per cycle");
            if let Some(l) = latency {
                // Little's law: blocks in flight = latency × rate.
                let blocks = l * rounds;
                let _ = write!(
                    s,
                    ", latency {l:.2} cycles, so about {blocks:.0} blocks ({:.0} registers) in flight to keep the unit busy",
                    (blocks / lanes).ceil()
                );
            }
            s += ".\n";
        }
        let (w, peak) = self.peak();
        let _ = writeln!(s, "- The AES-unit limit used below: {peak:.2} block-rounds per cycle ({w}).");
        s
    }
}

/// Whether an AES round instruction (`aesenc`/`vaesenc`) was timed but left out as too noisy.
fn has_noisy_aes_round(ins: &instr::InstrReport) -> bool {
    ins.measured.iter().any(|(_, c, m)| c.instr.ends_with("aesenc") && instr::noisy(m))
}

pub fn run(args: &ReportArgs) -> CliResult {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let progress = Progress::new(true);
    progress.step("calibrating");
    let cpu = CpuReport::collect();
    let mut md = String::from("# aeslab report\n\n");
    let _ = writeln!(md, "- Date: {}", machine::utc_date());
    let _ = writeln!(md, "- Compiler: {}", env!("AESLAB_RUSTC_VERSION"));
    let _ = writeln!(
        md,
        "- Peers in this run: {}, aws-lc-rs 1, RustCrypto aes 0.9 + ctr 0.10 and aes-gcm 0.11 (with aes 0.8 + ctr 0.9 and aes-gcm 0.10 beside them), ring 0.17, zears 0.2, and from `peers/go` (when `go` is on PATH) Go's crypto/aes CTR and Yawning's AEZ",
        crate::peers::openssl_version()
    );
    let _ = writeln!(md, "- Mode: {}", if args.quick { "quick" } else { "full" });
    md += &cpu.markdown();
    md += "\nPlots: [AES-128-CTR](ctr-aes128.svg) · [AES-192-CTR](ctr-aes192.svg) · [AES-256-CTR](ctr-aes256.svg) · \
           [FACE ablation](face-ablation.svg) · [AEZ](aez.svg) · [instructions](instr.svg) · [pipelining](pipeline.svg)\n";
    let mut records: Vec<serde_json::Value> = Vec::new();

    // Seed 001: the instruction table, in the seed's own form (its title one level down).
    let instr_args = InstrArgs { json: false, filter: None, count: 100_000 };
    let ins = instr::measure(&instr_args, &progress)?;
    let ins_records = instr::json(&ins).results;
    let unit = AesUnit::from_instr(&ins_records);
    md += "\n## Seed 001: crypto instruction latency and throughput\n\n";
    md += &instr::markdown(&ins).replacen("# Main Report", "### Main Report", 1);
    match &unit {
        Some(u) => md += &u.summary(),
        // Under emulation (qemu) or on a busy machine the AES rows can all be too noisy to use:
        // say so rather than that the CPU has no AES instructions.
        None if has_noisy_aes_round(&ins) => {
            md += "\nSummary: the AES round instructions' figures were too noisy in this run (see the table), \
                   so the sections below give no distance to an AES-unit limit.\n"
        }
        None => {
            md += "\nSummary: no AES round instruction was measured on this CPU (see the skipped rows), so \
                   the sections below give no distance to an AES-unit limit.\n"
        }
    }
    md += "\n![instruction latency vs throughput](instr.svg)\n";
    records.extend(ins_records.iter().map(to_json));

    // Seed 000: the pipelining experiment, as Go's benchmark listing, and its conclusion.
    let pipe = pipeline::measure(&PipelineArgs { out: Output { json: false, quick: args.quick } }, &progress);
    md += "\n## Seed 000: one block vs N blocks in flight (AES-NI and VAES)\n\n";
    match &pipe {
        Ok(p) => {
            md += &format!("```\n{}```\n\n{}", pipeline::listing(p), pipeline::conclusion(p));
            md += "\n![throughput vs blocks in flight](pipeline.svg)\n";
            records.extend(p.results.iter().map(to_json));
        }
        Err(e) => md += &format!("Not measured: {e}.\n"),
    }

    // Seed 003: FACE AES-CTR, every backend × level against the CTR peers.
    // The seed's sizes (1024, 4096, 20480, 40960) among a message's range from 16 B to 64 KiB.
    let ctr_sizes = if args.quick { vec![64, 1420, 4096, 40960] } else { vec![16, 64, 256, 1024, 1420, 4096, 16384, 20480, 40960, 65536] };
    let ctr_args = BenchCtrArgs {
        sizes: ctr_sizes,
        keys: vec![128, 192, 256],
        backends: Vec::new(),
        threads: 1,
        out: Output { json: false, quick: args.quick },
        openssl_only: false,
    };
    let ctr = bench_ctr::measure(&ctr_args, &progress)?;
    md += "\n## Seed 003: FACE AES-CTR (Tables 3 and 4)\n\n";
    md += &bench_ctr::markdown(&ctr);
    if let Some(u) = &unit {
        md += &ctr_limit(&ctr, u);
    }
    md += "\n![AES-128-CTR by message size](ctr-aes128.svg)\n\n![FACE ablation](face-ablation.svg)\n";
    records.extend(ctr.records.iter().map(to_json));

    // Seed 002: AEZ, every constant-time path against zears and Yawning's Go AEZ.
    let aez_args = BenchAezArgs { sizes: Vec::new(), backends: Vec::new(), out: Output { json: false, quick: args.quick } };
    let aez = bench_aez::measure(&aez_args, &progress)?;
    md += "\n## Seed 002: AEZ v5 by message size\n\n";
    md += &bench_aez::markdown(&aez);
    if let Some(u) = &unit {
        md += &aez_limit(&aez, u);
    }
    md += "\n![AEZ by message size](aez.svg)\n";
    records.extend(aez.records.iter().map(to_json));

    // Seed 004: the ACE permutation, SIMD lanes against the scalar reference; AEAD and hash.
    let ace_args = BenchAceArgs { bytes: 4096, backends: Vec::new(), out: Output { json: false, quick: args.quick } };
    let ace = bench_ace::measure(&ace_args, &progress)?;
    md += "\n## Seed 004: ACE, SIMD lanes against the reference\n\n";
    md += &bench_ace::markdown(&ace);
    records.extend(ace.records.iter().map(to_json));

    // Beyond the seeds: AES-GCM on FACE-CTR against the GCM peers.
    let gcm_sizes = if args.quick { vec![64, 1420, 16384] } else { vec![16, 64, 256, 1420, 4096, 16384, 65536] };
    let gcm_args = BenchGcmArgs { sizes: gcm_sizes, keys: vec![128, 256], key_per_message: false, out: Output { json: false, quick: args.quick } };
    let gcm = bench_gcm::measure(&gcm_args, &progress)?;
    md += "\n## AES-GCM on FACE-CTR (beyond the seeds)\n\n";
    md += &bench_gcm::markdown(&gcm);
    md += "\n![AES-128-GCM by message size](gcm-aes128.svg)\n\n![AES-256-GCM by message size](gcm-aes256.svg)\n";
    records.extend(gcm.records.iter().map(to_json));
    records.extend(gcm.opened.iter().map(|t| to_json(&Opened::new(t.clone()))));
    records.extend(gcm.setup.iter().map(to_json));

    progress.step("plots");
    draw_plots(&args.out, &ins_records, pipe.as_ref().ok(), &ctr, &aez, &gcm)?;
    progress.finish();

    let json = serde_json::to_string_pretty(&serde_json::json!({ "records": records })).map_err(|e| e.to_string())?;
    let json_path = args.out.join("report.json");
    std::fs::write(&json_path, json).map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;
    let path = args.out.join("REPORT.md");
    std::fs::write(&path, &md).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{md}");
    eprintln!("wrote {}, {} and the plots in {}", path.display(), json_path.display(), args.out.display());
    Ok(())
}

/// One record for `report.json`'s list.
fn to_json<T: serde::Serialize>(r: &T) -> serde_json::Value {
    serde_json::to_value(r).expect("records serialise")
}

/// Single-thread CTR throughput records (the report runs no threaded ones).
fn ctr_records(b: &CtrBench) -> impl Iterator<Item = &Throughput> {
    bench_ctr::throughput(b, |t| t.threads == 1)
}

/// The best aeslab CTR figure per key size against the AES-unit bound: `Nr − 2` AES
/// instructions per block with FACE rd2p (rounds 0–2 come from the cache, one of them the
/// whitening XOR), or `Nr` without.
fn ctr_limit(b: &CtrBench, unit: &AesUnit) -> String {
    let (width, peak) = unit.peak();
    let mut s = String::from("\nDistance to the AES-unit limit (from the instruction table):\n\n");
    let largest = b.sizes.iter().copied().max().unwrap_or(0);
    for &bits in &b.keys {
        let rounds = match bits {
            128 => 10.0,
            192 => 12.0,
            _ => 14.0,
        };
        let best = ctr_records(b)
            .filter(|t| t.implementation == "aeslab" && t.key_bits == bits && t.bytes == largest)
            .min_by(|x, y| x.cycles_per_byte.total_cmp(&y.cycles_per_byte));
        let Some(best) = best else { continue };
        let face = FaceLevel::from_name(&best.face).unwrap_or(FaceLevel::None);
        let skipped = match face {
            FaceLevel::Rd2 | FaceLevel::Rd2p => 2.0,
            FaceLevel::Rd1 | FaceLevel::Rd1p => 1.0,
            FaceLevel::Rd0 | FaceLevel::None => 0.0,
        };
        let bound = (rounds - skipped) / 16.0 / peak;
        let _ = writeln!(
            s,
            "- AES-{bits}, {largest} B: {} + {} at {:.3} cycles/byte; the bound for {} AES instructions per block at {peak:.2} block-rounds/cycle ({width}) is {bound:.3}, so {:.0}% of the AES units' peak.",
            best.backend,
            best.face,
            best.cycles_per_byte,
            rounds - skipped,
            100.0 * bound / best.cycles_per_byte
        );
    }
    s
}

/// AEZ-core's two passes cost five AES4 calls (20 block-rounds) per 32-byte pair: two in the
/// first pass, three in the second (E^{2,i}(S), E^{0,0}, E^{1,i}).
fn aez_limit(b: &AezBench, unit: &AesUnit) -> String {
    let (width, peak) = unit.peak();
    let bound = 20.0 / 32.0 / peak;
    let best = b
        .records
        .iter()
        .filter(|r| r.implementation == "aeslab")
        .min_by(|x, y| x.cycles_per_byte.total_cmp(&y.cycles_per_byte));
    match best {
        Some(best) => format!(
            "\nDistance to the AES-unit limit: aeslab's best figure, {} at {} B, is {:.3} cycles/byte; AEZ-core needs 20 block-rounds per 32 bytes, {bound:.3} cycles/byte at {peak:.2} block-rounds/cycle ({width}), so {:.0}% of the peak.\n",
            best.backend,
            best.bytes,
            best.cycles_per_byte,
            100.0 * bound / best.cycles_per_byte
        ),
        None => String::new(),
    }
}

fn draw_plots(
    out: &Path,
    ins: &[InstrRecord],
    pipe: Option<&PipelineReport>,
    ctr: &CtrBench,
    aez: &AezBench,
    gcm: &GcmBench,
) -> Result<(), String> {
    // AES-CTR by size, one plot per key size: each aeslab backend at its best FACE level
    // across sizes (rd2p where it exists), and every peer.
    for &bits in &ctr.keys {
        let mut lines: BTreeMap<(usize, String), Vec<(f64, f64)>> = BTreeMap::new();
        for t in ctr_records(ctr).filter(|t| t.key_bits == bits) {
            let keep = t.implementation != "aeslab" || t.face == "rd2p";
            if keep {
                let order = bench_ctr::row_order(&t.implementation, &t.backend, &t.face).0;
                let name = if t.implementation == "aeslab" {
                    format!("aeslab {} + rd2p", t.backend)
                } else {
                    format!("{} ({})", t.implementation, t.backend)
                };
                lines.entry((order, name)).or_default().push((t.bytes as f64, t.cycles_per_byte));
            }
        }
        let series: Vec<Series> = lines.into_iter().map(|((_, name), points)| Series { name, points }).collect();
        plots::by_size(&out.join(format!("ctr-aes{bits}.svg")), &format!("AES-{bits}-CTR"), "cycles/byte (log)", &series)?;
    }

    // FACE ablation: speed-up of each level over none, per backend, at the size nearest 4 KiB.
    let near = ctr.sizes.iter().copied().min_by_key(|x| x.abs_diff(4096)).unwrap_or(0);
    let bits = ctr.keys.first().copied().unwrap_or(128);
    let mut series = Vec::new();
    for kind in aeslab::aes::BackendKind::available_kinds() {
        let of = |face: FaceLevel| {
            ctr_records(ctr)
                .find(|t| t.implementation == "aeslab" && t.backend == kind.name() && t.key_bits == bits && t.bytes == near && t.face == face.name())
                .map(|t| t.cycles_per_byte)
        };
        let Some(none) = of(FaceLevel::None) else { continue };
        let points = FaceLevel::ALL.iter().enumerate().filter_map(|(i, &l)| of(l).map(|v| (i as f64, none / v))).collect();
        series.push(Series { name: kind.name().to_string(), points });
    }
    let level = |x: f64| FaceLevel::ALL.get(x.round() as usize).map_or(String::new(), |l| l.name().to_string());
    plots::linear(
        &out.join("face-ablation.svg"),
        &format!("FACE ablation, AES-{bits}, {near} B"),
        "FACE level",
        "speed-up over no FACE (×)",
        &series,
        &level,
    )?;

    // AEZ by size, per implementation and path.
    let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in &aez.records {
        lines.entry(format!("{} {}", r.implementation, r.backend)).or_default().push((r.bytes as f64, r.cycles_per_byte));
    }
    let series: Vec<Series> = lines.into_iter().map(|(name, points)| Series { name, points }).collect();
    plots::by_size(&out.join("aez.svg"), "AEZ v5 encryption (tau 16, no AD)", "cycles/byte (log)", &series)?;

    // AES-GCM by size, one plot per key size: aeslab with and without FACE, and every peer.
    for bits in [128, 256] {
        let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        for r in gcm.records.iter().filter(|r| r.key_bits == bits) {
            lines.entry(format!("{} {}", r.implementation, r.backend)).or_default().push((r.bytes as f64, r.cycles_per_byte));
        }
        let series: Vec<Series> = lines.into_iter().map(|(name, points)| Series { name, points }).collect();
        plots::by_size(&out.join(format!("gcm-aes{bits}.svg")), &format!("AES-{bits}-GCM seal"), "cycles/byte (log)", &series)?;
    }

    // Instructions: latency and reciprocal throughput side by side.
    let mut names = Vec::new();
    let (mut latency, mut throughput) = (Vec::new(), Vec::new());
    for r in ins.iter().filter(|r| r.kind == "latency") {
        if let Some(t) = ins.iter().find(|t| t.kind == "throughput" && t.instr == r.instr && t.width == r.width) {
            names.push(if r.width == "gpr" || r.width == "xmm" { r.instr.to_string() } else { format!("{} {}", r.instr, r.width) });
            latency.push(r.cycles_per_instr);
            throughput.push(t.cycles_per_instr);
        }
    }
    plots::bars(
        &out.join("instr.svg"),
        "Instruction latency and throughput",
        "cycles",
        &names,
        &[("latency (cycles)".to_string(), latency), ("cycles per instruction at full throughput".to_string(), throughput)],
    )?;

    // Pipelining: MB/s against blocks in flight, one line per experiment and width.
    if let Some(p) = pipe {
        let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
        for r in p.results.iter().filter(|r| r.bench != "Single") {
            let name = if r.variant == "-" { format!("{} {}", r.bench, r.width) } else { format!("{}/{} {}", r.bench, r.variant, r.width) };
            lines.entry(name).or_default().push((r.n as f64, r.mb_per_s));
        }
        let series: Vec<Series> = lines.into_iter().map(|(name, points)| Series { name, points }).collect();
        plots::linear(&out.join("pipeline.svg"), "Throughput vs blocks in flight", "blocks (registers) in flight", "MB/s", &series, &|x| {
            format!("{x:.0}")
        })?;
    }
    Ok(())
}
