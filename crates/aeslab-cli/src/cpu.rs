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
    /// From what length the default backend's defaults build FACE's table, in words.
    #[serde(skip)]
    pub face_from: String,
    /// How the stitched AES-GCM loops multiply a group of GHASH blocks, in words.
    #[serde(skip)]
    pub gcm_ghash_product: &'static str,
}

/// `blocks` 16-byte blocks in whole KiB, as the FACE thresholds are printed.
pub fn kib(blocks: usize) -> String {
    format!("{} KiB", blocks * 16 / 1024)
}

/// From what length AES-GCM's defaults build FACE's table on `kind` here with an AES-`bits` key
/// (`gcm::face_pays_from_blocks`), or "never".
pub fn gcm_face_from(kind: BackendKind, bits: u32) -> String {
    aeslab::gcm::face_pays_from_blocks(kind, 6 + bits as usize / 32).map_or("never".into(), kib)
}

/// From what length the library's defaults build FACE's table on `kind` here: CTR streams (and
/// the shortest call that then runs through it, per key size), and AES-GCM per key size
/// (`ctr::face_pays_from_blocks`, `ctr::face_min_call_blocks`, `gcm::face_pays_from_blocks`).
fn face_from(kind: BackendKind) -> String {
    let per_key = |f: &dyn Fn(u32) -> String| [128, 192, 256].iter().map(|&bits| format!("AES-{bits} {}", f(bits))).collect::<Vec<_>>().join(", ");
    let calls = per_key(&|bits| {
        let blocks = aeslab::ctr::face_min_call_blocks(kind, 6 + bits as usize / 32);
        if blocks >= 64 { kib(blocks) } else { format!("{} B", 16 * blocks) }
    });
    let gcm = per_key(&|bits| gcm_face_from(kind, bits));
    let rate = if aeslab::cpu::zmm_aes_full_rate() { "; zmm AES rounds at full rate" } else { "" };
    format!("CTR {} (then in calls from {calls}), AES-GCM {gcm} ({kind}{rate})", kib(aeslab::ctr::face_pays_from_blocks(kind)))
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
            face_from: face_from(default_backend()),
            gcm_ghash_product: if aeslab::cpu::zmm_clmul_apart_from_aes() {
                "the schoolbook on zmm (its carry-less multiplies on a port apart from VAES), Karatsuba on ymm and xmm"
            } else {
                "Karatsuba"
            },
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
        s += &format!("- Default backend: {}\n", self.default_backend);
        s += &format!("- FACE tables from (one message, the defaults): {}\n", self.face_from);
        s += &format!("- GHASH in the stitched AES-GCM loops: {}\n\n", self.gcm_ghash_product);
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
