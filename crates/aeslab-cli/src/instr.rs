//! `aeslab instr`: seed 001's latency/throughput suite for the crypto instructions, on x86-64
//! and aarch64, as a markdown table in the seed's own form.

use aeslab_measure::chains::{INSTR, InstrChain};
use aeslab_measure::clock::{Calibration, Clock, calibrate_clock};
use aeslab_measure::lab::{InstrResult, run_instr};
use aeslab_measure::machine;
use clap::Args;
use serde::Serialize;

use crate::CliResult;
use crate::progress::Progress;

#[derive(Args, Clone)]
pub struct InstrArgs {
    /// Print JSON instead of the markdown table.
    #[arg(long)]
    pub json: bool,
    /// Only benchmarks whose name matches this regular expression (e.g. `^aes`, `zmm`).
    #[arg(long)]
    pub filter: Option<String>,
    /// Instructions per benchmark.
    #[arg(long, default_value_t = 1_000_000)]
    pub count: u64,
}

#[derive(Serialize)]
pub struct InstrRecord {
    pub instr: &'static str,
    pub width: &'static str,
    pub kind: &'static str,
    pub cycles_per_instr: f64,
    pub total_ns: f64,
    pub count: u64,
}

#[derive(Serialize)]
pub struct InstrJson {
    pub cpu: String,
    pub clock: &'static str,
    pub cycles_per_tsc_tick: f64,
    pub results: Vec<InstrRecord>,
}

/// Everything one run measured.
pub struct InstrReport {
    pub cal: Calibration,
    pub count: u64,
    pub measured: Vec<(String, &'static InstrChain, InstrResult)>,
    /// (benchmark name, reason)
    pub skipped: Vec<(String, String)>,
}

pub fn measure(args: &InstrArgs, progress: &Progress) -> Result<InstrReport, String> {
    if args.count == 0 {
        return Err("--count must be at least 1".into());
    }
    let filter = match &args.filter {
        Some(f) => Some(regex::Regex::new(f).map_err(|e| format!("--filter is not a valid regular expression: {}", e.to_string().lines().last().unwrap_or("")))?),
        None => None,
    };
    let chains: Vec<&InstrChain> =
        INSTR.iter().filter(|c| filter.as_ref().is_none_or(|f| f.is_match(&c.name()))).collect();
    if chains.is_empty() {
        return Err(format!("--filter {} matches no benchmark", args.filter.as_deref().unwrap_or("")));
    }
    let mut cal = calibrate_clock(Clock::best());
    let mut measured = Vec::new();
    let mut skipped = Vec::new();
    for chain in chains {
        let name = chain.name();
        match chain.missing() {
            Some(reason) => skipped.push((name, reason)),
            None => {
                progress.step(&format!("instr: {name}"));
                cal.refresh();
                // SAFETY: `missing()` found every feature the chain needs.
                let r = unsafe { run_instr(chain, &cal, args.count) };
                measured.push((name, chain, r));
            }
        }
    }
    Ok(InstrReport { cal, count: args.count, measured, skipped })
}

/// What the clock is, for the header.
pub fn clock_description(cal: &Calibration) -> String {
    if aeslab_measure::machine::emulated() {
        format!(
            "{}, calibrated at {:.4} \"core cycles\" per tick — EMULATED: this process runs under \
             user-mode emulation (qemu), so every figure below describes the emulator, not a CPU, \
             and means nothing",
            cal.clock.name(),
            cal.cycles_per_tick
        )
    } else if cal.clock.counts_cycles() {
        format!("{} (hardware cycle counter)", cal.clock.name())
    } else {
        format!(
            "{}, calibrated at {:.4} core cycles per tick on a dependent `add` chain — not a cycle \
             counter: the figures assume the core ran at one speed, and are meaningless under emulation",
            cal.clock.name(),
            cal.cycles_per_tick
        )
    }
}

/// Seed 001's report: the header, then `| benchmark | cycles/instr | total execution time |`.
pub fn markdown(r: &InstrReport) -> String {
    let mut s = format!("# Main Report using {} instructions for each benchmark\n\n", r.count);
    s += &format!("- CPU: {}\n", machine::cpu_model());
    s += &format!("- Clock: {}\n", clock_description(&r.cal));
    s += &format!("- Instructions per benchmark: {}\n\n", r.count);
    s += "| benchmark | cycles/instr | total execution time |\n";
    s += "| --------- | ------------ | -------------------- |\n";
    for (name, _, m) in &r.measured {
        s += &format!("|`{name}`| {:.3} | {:.6} msec |\n", m.cycles_per_instr, m.total_ns / 1e6);
    }
    if !r.skipped.is_empty() {
        s += "\nSkipped:\n\n";
        for (name, reason) in &r.skipped {
            s += &format!("- `{name}`: {reason}\n");
        }
    }
    s
}

pub fn json(r: &InstrReport) -> InstrJson {
    InstrJson {
        cpu: machine::cpu_model(),
        clock: r.cal.clock.name(),
        cycles_per_tsc_tick: r.cal.cycles_per_tick,
        results: r
            .measured
            .iter()
            .map(|(_, c, m)| InstrRecord {
                instr: c.instr,
                width: c.width.name(),
                kind: c.kind.name(),
                cycles_per_instr: m.cycles_per_instr,
                total_ns: m.total_ns,
                count: m.count,
            })
            .collect(),
    }
}

pub fn run(args: &InstrArgs) -> CliResult {
    let progress = Progress::new(!args.json);
    let report = measure(args, &progress)?;
    progress.finish();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&report)).map_err(|e| e.to_string())?);
    } else {
        print!("{}", markdown(&report));
    }
    Ok(())
}
