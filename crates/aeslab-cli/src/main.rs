//! `aeslab`: fast and constant-time AES, and the instruments that measure it.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod aez_cmd;
mod args;
mod bench_ace;
mod bench_aez;
mod bench_ctr;
mod bench_gcm;
mod cpu;
mod ctr;
mod gcm_cmd;
mod instr;
mod kat;
mod markdown;
mod peers;
mod pipeline;
mod plots;
mod progress;
mod records;
mod report;

#[derive(Parser)]
#[command(name = "aeslab", version, about = "Fast and constant-time AES, and the instruments that measure it")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// CPU model, detected features, every AES backend with its availability, and the
    /// calibrated core cycles per TSC tick.
    Cpu(cpu::CpuArgs),
    /// Latency and throughput of the crypto instructions (seed 001's table).
    Instr(instr::InstrArgs),
    /// One block vs N blocks in flight (seed 000's experiment, on xmm, ymm and zmm).
    Pipeline(pipeline::PipelineArgs),
    /// AES-CTR: read stdin, write stdout (the same command decrypts).
    Ctr(ctr::CtrArgs),
    /// AEZ v5: seal (encrypt) or open (decrypt and authenticate) stdin to stdout.
    Aez {
        #[command(subcommand)]
        which: aez_cmd::AezCommand,
    },
    /// AES-GCM: seal (encrypt, tag appended) or open (authenticate and decrypt) stdin to stdout.
    Gcm {
        #[command(subcommand)]
        which: gcm_cmd::GcmCommand,
    },
    /// Run a known-answer file: prints `N passed, M failed` and fails if any failed.
    Kat {
        #[command(subcommand)]
        which: kat::KatCommand,
    },
    /// Benchmarks against the peers, in calibrated core cycles.
    Bench {
        #[command(subcommand)]
        which: BenchCommand,
    },
    /// Reproduce the seed reports on this machine (writes REPORT.md into --out).
    Report(report::ReportArgs),
}

#[derive(Subcommand)]
enum BenchCommand {
    /// AES-CTR, every backend × FACE level, with OpenSSL, aws-lc-rs and RustCrypto (seed 003's
    /// Tables 3 and 4).
    Ctr(bench_ctr::BenchCtrArgs),
    /// AEZ, every constant-time path, with zears and Yawning's Go AEZ (seed 002's table).
    Aez(bench_aez::BenchAezArgs),
    /// The ACE permutation per backend against the scalar reference (seed 004), and
    /// ACE-AE-128 / ACE-H-256 with one message and with a full register of messages.
    Ace(bench_ace::BenchAceArgs),
    /// AES-GCM sealing and opening, aeslab against OpenSSL, aws-lc-rs, ring, RustCrypto aes-gcm and Go.
    Gcm(bench_gcm::BenchGcmArgs),
}

/// An error for the user: printed as one line, exit status 1.
pub type CliResult = Result<(), String>;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            // clap's message runs up to the first blank line (a missing argument is named on
            // the line after "not provided:"); fold it into one line.
            let text = e.to_string();
            let message: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            let message = message.join(" ");
            let message = message.trim_start_matches("error: ");
            eprintln!("aeslab: {} (see `aeslab --help`)", if message.is_empty() { "invalid arguments" } else { message });
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Cpu(args) => cpu::run(&args),
        Command::Ctr(args) => ctr::run(&args),
        Command::Instr(args) => instr::run(&args),
        Command::Pipeline(args) => pipeline::run(&args),
        Command::Bench { which: BenchCommand::Ctr(args) } => bench_ctr::run(&args),
        Command::Bench { which: BenchCommand::Aez(args) } => bench_aez::run(&args),
        Command::Bench { which: BenchCommand::Ace(args) } => bench_ace::run(&args),
        Command::Bench { which: BenchCommand::Gcm(args) } => bench_gcm::run(&args),
        Command::Aez { which } => aez_cmd::run(&which),
        Command::Gcm { which } => gcm_cmd::run(&which),
        Command::Kat { which } => kat::run(&which),
        Command::Report(args) => report::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("aeslab: error: {msg}");
            ExitCode::FAILURE
        }
    }
}
