//! `aeslab pipeline`: seed 000's experiment, generalised. One block vs N blocks in flight, with
//! and without memory, in four register assignments, on xmm (AES-NI) and ymm/zmm (VAES).

use std::collections::BTreeMap;

use aeslab_measure::chains::{PIPELINE, PipelineChain};
use aeslab_measure::clock::{Calibration, calibrate};
use aeslab_measure::lab::{PipelineResult, run_pipeline};
use aeslab_measure::{Plan, machine};
use clap::Args;

use crate::CliResult;
use crate::progress::Progress;
use crate::records::PipelineRecord;

#[derive(Args, Clone)]
pub struct PipelineArgs {
    #[command(flatten)]
    pub out: crate::args::Output,
}

pub struct PipelineReport {
    pub cal: Calibration,
    pub results: Vec<PipelineRecord>,
    /// (benchmark, reason)
    pub skipped: Vec<(String, String)>,
}

/// A body whose samples agree less well than this is marked noisy in the listing.
const NOISY_ABOVE: f64 = 0.05;

/// `BenchmarkSingle`, `BenchmarkMulti/4`, `BenchmarkMulti/zmm/4`, `BenchmarkNomem/const-key/8`.
fn bench_name(bench: &str, variant: &str, width: &str, n: usize) -> String {
    let width = if width == "xmm" { String::new() } else { format!("{width}/") };
    match bench {
        "Single" => "BenchmarkSingle".into(),
        "Multi" => format!("BenchmarkMulti/{width}{n}"),
        _ => format!("BenchmarkNomem/{variant}/{width}{n}"),
    }
}

fn go_name(c: &PipelineChain) -> String {
    bench_name(c.bench, c.variant, c.width.name(), c.n)
}

pub fn measure(args: &PipelineArgs, progress: &Progress) -> Result<PipelineReport, String> {
    if PIPELINE.is_empty() {
        return Err("the pipelining experiment exists for x86-64 only (AES-NI and VAES)".into());
    }
    let cal = calibrate();
    let aes_instructions = if args.out.quick { 40_000 } else { 400_000 };
    let mut runnable = Vec::new();
    let mut skipped = Vec::new();
    for chain in PIPELINE {
        match chain.missing() {
            Some(reason) => skipped.push((go_name(chain), reason)),
            None => runnable.push(chain),
        }
    }
    progress.step(&format!("pipeline: {} bodies, interleaved", runnable.len()));
    let plan = if args.out.quick { Plan::QUICK } else { Plan::FULL };
    // SAFETY: `missing()` found every feature each chain needs.
    let measured: Vec<PipelineResult> = unsafe { run_pipeline(&runnable, &cal, aes_instructions, plan) };
    let results = runnable
        .iter()
        .zip(measured)
        .map(|(chain, r)| PipelineRecord {
            bench: chain.bench,
            variant: chain.variant,
            width: chain.width.name(),
            n: chain.n,
            ns_per_op: r.ns_per_op,
            mb_per_s: r.mb_per_s,
            cycles_per_block: r.cycles_per_block,
            spread: r.spread,
        })
        .collect();
    Ok(PipelineReport { cal, results, skipped })
}

fn record_name(r: &PipelineRecord) -> String {
    bench_name(r.bench, r.variant, r.width, r.n)
}

/// The listing in Go's benchmark format, with cycles/block added.
pub fn listing(r: &PipelineReport) -> String {
    let mut s = format!(
        "goos: linux\ngoarch: {}\ncpu: {}\nclock: {} ({:.4} core cycles per tick; every sample is calibrated next to itself, the fastest counts)\n",
        std::env::consts::ARCH,
        machine::cpu_model(),
        r.cal.clock.name(),
        r.cal.cycles_per_tick
    );
    for rec in &r.results {
        s += &format!(
            "{:<36}\t{:>10.2} ns/op\t{:>10.2} MB/s\t{:>8.2} cycles/block{}\n",
            record_name(rec),
            rec.ns_per_op,
            rec.mb_per_s,
            rec.cycles_per_block,
            if rec.spread <= NOISY_ABOVE { String::new() } else { format!("\tnoisy (spread {:.1}%)", 100.0 * rec.spread) }
        );
    }
    for (name, reason) in &r.skipped {
        s += &format!("{name:<36}\tskipped: {reason}\n");
    }
    s
}

/// The conclusion, computed from the data: for each series (bench, assignment, width), whether
/// more blocks in flight help at all (latency-bound when the best N is within 1.5× of N = 1),
/// and the smallest N that reaches 90% of the series' best throughput.
pub fn conclusion(r: &PipelineReport) -> String {
    let mut series: BTreeMap<(&str, &str, &str), Vec<&PipelineRecord>> = BTreeMap::new();
    for rec in r.results.iter().filter(|x| x.bench != "Single") {
        series.entry((rec.bench, rec.variant, rec.width)).or_default().push(rec);
    }
    let mut s = String::from("Conclusion (computed from the measurements above):\n\n");
    if let Some(single) = r.results.iter().find(|x| x.bench == "Single") {
        s += &format!(
            "- Single: one block, {:.1} cycles per block — ten dependent AES rounds, so {:.2} cycles per round.\n",
            single.cycles_per_block,
            single.cycles_per_block / 10.0
        );
    }
    for ((bench, variant, width), recs) in &series {
        let Some(first) = recs.iter().find(|x| x.n == 1) else { continue };
        let best = recs.iter().map(|x| x.mb_per_s).fold(f64::MIN, f64::max);
        let label = if *variant == "-" { format!("{bench} ({width})") } else { format!("{bench}/{variant} ({width})") };
        if best < 1.5 * first.mb_per_s {
            // Each block is one lane of a register: an AES instruction does `lanes` block-rounds.
            let lanes = match *width { "ymm" => 2.0, "zmm" => 4.0, _ => 1.0 };
            let per_instr = recs.iter().map(|x| x.cycles_per_block).fold(f64::MAX, f64::min) * lanes / 10.0;
            s += &format!(
                "- {label}: latency-bound — more blocks in flight do not help; best {:.0} MB/s, one AES instruction every {:.2} cycles (its latency).\n",
                best, per_instr
            );
        } else {
            let reach = recs.iter().filter(|x| x.mb_per_s >= 0.9 * best).map(|x| x.n).min().unwrap_or(0);
            let at = recs.iter().find(|x| x.n == reach).map_or(f64::NAN, |x| x.cycles_per_block);
            s += &format!(
                "- {label}: throughput-bound from N = {reach} registers ({:.0} MB/s ≥ 90% of the best {:.0} MB/s; {:.2} cycles/block).\n",
                recs.iter().find(|x| x.n == reach).map_or(f64::NAN, |x| x.mb_per_s),
                best,
                at
            );
        }
    }
    // Series this CPU cannot run (or AESLAB_CPU_MASK hides), once each, with the reason.
    let mut unmeasured: BTreeMap<(&str, &str, &str), &str> = BTreeMap::new();
    for c in PIPELINE.iter().filter(|c| c.bench != "Single") {
        let key = (c.bench, c.variant, c.width.name());
        if !series.contains_key(&key) && let Some((_, reason)) = r.skipped.iter().find(|(n, _)| *n == go_name(c)) {
            unmeasured.entry(key).or_insert(reason.as_str());
        }
    }
    for ((bench, variant, width), reason) in unmeasured {
        let label = if variant == "-" { format!("{bench} ({width})") } else { format!("{bench}/{variant} ({width})") };
        s += &format!("- {label}: not measured — {reason}.\n");
    }
    s
}

pub fn run(args: &PipelineArgs) -> CliResult {
    let progress = Progress::new(!args.out.json);
    let report = measure(args, &progress)?;
    progress.finish();
    let json = serde_json::json!({ "results": report.results });
    crate::records::print(args.out.json, &json, || format!("{}\n{}", listing(&report), conclusion(&report)))
}
