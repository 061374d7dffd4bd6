//! `aeslab report`: every seed's report, reproduced on this machine.
//!
//! One section per seed, each in that seed's own format, from measurements made in this run.

use std::path::PathBuf;

use aeslab_measure::machine;
use clap::Args;

use crate::CliResult;
use crate::bench_ace::{self, BenchAceArgs};
use crate::bench_aez::{self, BenchAezArgs};
use crate::bench_ctr::{self, BenchCtrArgs};
use crate::cpu::CpuReport;
use crate::instr::{self, InstrArgs};
use crate::pipeline::{self, PipelineArgs};
use crate::progress::Progress;

#[derive(Args)]
pub struct ReportArgs {
    /// Directory to write REPORT.md (and later report.json and plots) into.
    #[arg(long, default_value = "report")]
    out: PathBuf,
    /// Shorter measurements (within 2 minutes).
    #[arg(long)]
    quick: bool,
}

pub fn run(args: &ReportArgs) -> CliResult {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let progress = Progress::new(true);
    progress.step("calibrating");
    let cpu = CpuReport::collect();
    let mut md = String::from("# aeslab report\n\n");
    md += &format!("- Date: {}\n", machine::utc_date());
    md += &format!("- Compiler: {}\n", env!("AESLAB_RUSTC_VERSION"));
    md += &format!("- Peers: {}, aws-lc-rs 1, RustCrypto aes 0.8 + ctr 0.9\n", crate::peers::openssl_version());
    md += &format!("- Mode: {}\n", if args.quick { "quick" } else { "full" });
    md += &cpu.markdown();
    let mut records: Vec<serde_json::Value> = Vec::new();

    // Seed 001: the instruction table, in the seed's own form (its title one level down).
    let instr_args = InstrArgs { json: false, filter: None, count: if args.quick { 200_000 } else { 1_000_000 } };
    let ins = instr::measure(&instr_args, &progress)?;
    md += "\n## Seed 001: crypto instruction latency and throughput\n\n";
    md += &instr::markdown(&ins).replacen("# Main Report", "### Main Report", 1);
    records.extend(instr::json(&ins).results.iter().map(|r| serde_json::to_value(r).expect("serialisable")));

    // Seed 000: the pipelining experiment, as Go's benchmark listing, and its conclusion.
    let pipe = pipeline::measure(&PipelineArgs { json: false, quick: args.quick }, &progress);
    md += "\n## Seed 000: one block vs N blocks in flight (AES-NI and VAES)\n\n";
    match pipe {
        Ok(p) => {
            md += &format!("```\n{}```\n\n{}", pipeline::listing(&p), pipeline::conclusion(&p));
            records.extend(p.results.iter().map(|r| serde_json::to_value(r).expect("serialisable")));
        }
        Err(e) => md += &format!("Not measured: {e}.\n"),
    }

    let ctr_args = BenchCtrArgs {
        sizes: vec![1024, 4096, 20480, 40960],
        keys: vec![128, 192, 256],
        backends: Vec::new(),
        threads: 1,
        json: false,
        quick: args.quick,
        openssl_only: false,
    };
    let ctr = bench_ctr::measure(&ctr_args, &progress)?;
    md += "\n## Seed 003: FACE AES-CTR (Tables 3 and 4)\n\n";
    md += &bench_ctr::markdown(&ctr);

    records.extend(ctr.records.iter().map(|r| serde_json::to_value(r).expect("serialisable")));

    // Seed 002: AEZ, every constant-time path against zears and Yawning's Go AEZ.
    let aez_args = BenchAezArgs { sizes: Vec::new(), backends: Vec::new(), json: false, quick: args.quick };
    let aez = bench_aez::measure(&aez_args, &progress)?;
    md += "\n## Seed 002: AEZ v5 by message size\n\n";
    md += &bench_aez::markdown(&aez);
    records.extend(aez.records.iter().map(|r| serde_json::to_value(r).expect("serialisable")));

    // Seed 004: the ACE permutation, SIMD lanes against the scalar reference; AEAD and hash.
    let ace_args = BenchAceArgs { bytes: 4096, backends: Vec::new(), json: false, quick: args.quick };
    let ace = bench_ace::measure(&ace_args, &progress)?;
    md += "\n## Seed 004: ACE, SIMD lanes against the reference\n\n";
    md += &bench_ace::markdown(&ace);
    records.extend(ace.records.iter().map(|r| serde_json::to_value(r).expect("serialisable")));
    progress.finish();
    let json = serde_json::to_string_pretty(&serde_json::json!({ "records": records }))
        .map_err(|e| e.to_string())?;
    let json_path = args.out.join("report.json");
    std::fs::write(&json_path, json).map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;

    let path = args.out.join("REPORT.md");
    std::fs::write(&path, &md).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{md}");
    eprintln!("wrote {} and {}", path.display(), json_path.display());
    Ok(())
}
