//! `aeslab cpu`: what this machine offers aeslab.

use aeslab::aes::{BackendKind, default_backend};
use aeslab_measure::{calibrate, machine};
use clap::Args;
use serde::Serialize;

use crate::CliResult;
use crate::records::BackendInfo;

#[derive(Args)]
pub struct CpuArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
pub struct CpuReport {
    pub cpu: String,
    pub features: Vec<&'static str>,
    pub backends: Vec<BackendInfo>,
    pub default_backend: &'static str,
    pub cycles_per_tsc_tick: f64,
    #[serde(skip)]
    pub clock: &'static str,
    #[serde(skip)]
    pub calibration_spread: f64,
}

impl CpuReport {
    pub fn collect() -> CpuReport {
        let cal = calibrate();
        CpuReport {
            cpu: machine::cpu_model(),
            features: aeslab::cpu::features(),
            backends: BackendKind::ALL
                .iter()
                .map(|k| BackendInfo {
                    name: k.name(),
                    available: k.available(),
                    constant_time: k.constant_time(),
                    batch: k.batch(),
                })
                .collect(),
            default_backend: default_backend().name(),
            cycles_per_tsc_tick: cal.cycles_per_tick,
            clock: cal.clock.name(),
            calibration_spread: cal.spread,
        }
    }

    /// The report as markdown (used by `aeslab cpu` and the report header).
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        s += &format!("- CPU: {}\n", self.cpu);
        s += &format!("- Features: {}\n", self.features.join(" "));
        s += &format!(
            "- Clock: {}, {:.4} core cycles per tick (calibrated on a dependent `add` chain; spread {:.1}%)\n",
            self.clock,
            self.cycles_per_tsc_tick,
            100.0 * self.calibration_spread
        );
        s += &format!("- Default backend: {}\n\n", self.default_backend);
        let yes_no = |v: bool| if v { "yes" } else { "no" }.to_string();
        let header = ["backend", "available", "constant time", "blocks per batch"].map(String::from);
        let rows: Vec<Vec<String>> = self
            .backends
            .iter()
            .map(|b| vec![b.name.to_string(), yes_no(b.available), yes_no(b.constant_time), b.batch.to_string()])
            .collect();
        s += &crate::markdown::table(&header, &rows);
        s
    }
}

pub fn run(args: &CpuArgs) -> CliResult {
    let report = CpuReport::collect();
    crate::records::print(args.json, &report, || report.markdown())
}
