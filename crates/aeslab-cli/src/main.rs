//! `aeslab`: fast and constant-time AES, and the instruments that measure it.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cpu;
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
    /// Reproduce the seed reports on this machine (writes REPORT.md into --out).
    Report(report::ReportArgs),
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
            // clap's first line states the problem; keep errors to one line.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!("aeslab: {} (see `aeslab --help`)", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Cpu(args) => cpu::run(&args),
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
