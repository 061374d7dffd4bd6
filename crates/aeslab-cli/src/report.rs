//! `aeslab report`: every seed's report, reproduced on this machine.
//!
//! Sections are added as the measurements behind them land; until then the report says which
//! ones are not built yet rather than showing anything it did not measure.

use std::path::PathBuf;

use aeslab_measure::machine;
use clap::Args;

use crate::CliResult;
use crate::cpu::CpuReport;

#[derive(Args)]
pub struct ReportArgs {
    /// Directory to write REPORT.md (and later report.json and plots) into.
    #[arg(long, default_value = "report")]
    out: PathBuf,
    /// Shorter measurements (within 2 minutes).
    #[arg(long)]
    quick: bool,
}

/// Seed sections not measured yet, with the command that will produce each.
const NOT_BUILT: &[(&str, &str)] = &[
    ("Seed 001: instruction latency/throughput table", "aeslab instr"),
    ("Seed 000: AES-NI pipelining experiment", "aeslab pipeline"),
    ("Seed 003: FACE AES-CTR, Tables 3 and 4", "aeslab bench ctr"),
    ("Seed 002: AEZ message-size table", "aeslab bench aez"),
    ("Seed 004: ACE reference vs SIMD", "aeslab bench ace"),
];

pub fn run(args: &ReportArgs) -> CliResult {
    let cpu = CpuReport::collect();
    let mut md = String::from("# aeslab report\n\n");
    md += &format!("- Date: {}\n", machine::utc_date());
    md += &format!("- Compiler: {}\n", env!("AESLAB_RUSTC_VERSION"));
    md += &format!("- Mode: {}\n", if args.quick { "quick" } else { "full" });
    md += &cpu.markdown();
    md += "\n## Not built yet\n\n";
    for (section, command) in NOT_BUILT {
        md += &format!("- {section} (`{command}`)\n");
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join("REPORT.md");
    std::fs::write(&path, &md).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print!("{md}");
    eprintln!("wrote {}", path.display());
    Ok(())
}
