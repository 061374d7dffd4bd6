//! `aeslab instr`: seed 001's latency/throughput suite for the crypto instructions, on x86-64
//! and aarch64, as a markdown table in the seed's own form.

use aeslab_measure::chains::{INSTR, InstrChain};
use aeslab_measure::clock::{Calibration, Clock, calibrate_clock};
use aeslab_measure::lab::{InstrResult, run_instr};
use aeslab_measure::{Plan, machine};
use clap::Args;

use crate::CliResult;
use crate::progress::Progress;
use crate::records::{InstrJson, InstrRecord, NoisyRecord};

#[derive(Args, Clone)]
pub struct InstrArgs {
    /// Print JSON instead of the markdown table.
    #[arg(long)]
    pub json: bool,
    /// Only benchmarks whose name matches this regular expression (e.g. `^aes`, `zmm`).
    #[arg(long)]
    pub filter: Option<String>,
    /// Instructions per timed run. Each benchmark is many such runs, interleaved with the
    /// others, and the fastest counts: short runs slip between the bursts of a shared machine.
    #[arg(long, default_value_t = 100_000)]
    pub count: u64,
}

/// A benchmark is printed as a figure only when its samples agree within this much (the
/// method is in `aeslab_measure::timing`); above it, the output says it was too noisy.
pub const NOISY_ABOVE: f64 = 0.03;

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
    let cal = calibrate_clock(Clock::best());
    let mut runnable = Vec::new();
    let mut skipped = Vec::new();
    for chain in chains {
        match chain.missing() {
            Some(reason) => skipped.push((chain.name(), reason)),
            None => runnable.push(chain),
        }
    }
    progress.step(&format!("instr: {} benchmarks, interleaved", runnable.len()));
    // SAFETY: `missing()` found every feature each chain needs.
    let results = unsafe { run_instr(&runnable, &cal, args.count, Plan::INSTR) };
    let measured = runnable.into_iter().zip(results).map(|(c, r)| (c.name(), c, r)).collect();
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
    s += &format!("- Instructions per benchmark: {} per timed run\n", r.count);
    s += &format!(
        "- Method: many short runs of each benchmark, interleaved with the others and each next to \
         its own add-chain calibration; the fastest counts. A figure is printed only when the 10th \
         percentile of the runs agrees with the fastest within {:.0}%; the worst agreement in this run \
         was {:.1}%\n\n",
        100.0 * NOISY_ABOVE,
        100.0 * r.measured.iter().map(|(_, _, m)| m.spread).fold(0.0, f64::max)
    );
    s += "| benchmark | cycles/instr | total execution time |\n";
    s += "| --------- | ------------ | -------------------- |\n";
    for (name, _, m) in &r.measured {
        if noisy(m) {
            s += &format!(
                "|`{name}`| noisy (~{:.3}, spread {:.1}%) | {:.6} msec |\n",
                m.cycles_per_instr,
                100.0 * m.spread,
                m.total_ns / 1e6
            );
        } else {
            s += &format!("|`{name}`| {:.3} | {:.6} msec |\n", m.cycles_per_instr, m.total_ns / 1e6);
        }
    }
    if !r.skipped.is_empty() {
        s += "\nSkipped:\n\n";
        for (name, reason) in &r.skipped {
            s += &format!("- `{name}`: {reason}\n");
        }
    }
    s
}

/// Whether a result is too noisy to print as a figure (a spread that is not a number counts).
pub fn noisy(m: &InstrResult) -> bool {
    m.spread.is_nan() || m.spread > NOISY_ABOVE
}

pub fn json(r: &InstrReport) -> InstrJson {
    InstrJson {
        cpu: machine::cpu_model(),
        clock: r.cal.clock.name(),
        cycles_per_tsc_tick: r.cal.cycles_per_tick,
        noisy: r
            .measured
            .iter()
            .filter(|(_, _, m)| noisy(m))
            .map(|(_, c, m)| NoisyRecord {
                instr: c.instr,
                width: c.width.name(),
                kind: c.kind.name(),
                cycles_per_instr: m.cycles_per_instr,
                spread: m.spread,
            })
            .collect(),
        results: r
            .measured
            .iter()
            .filter(|(_, _, m)| !noisy(m))
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
    crate::records::print(args.json, &json(&report), || markdown(&report))
}
