//! The JSON records every benchmark prints (`--json`) and `report.json` collects.

use serde::Serialize;

/// Throughput of one implementation on one message size.
#[derive(Clone, Debug, Serialize)]
pub struct Throughput {
    #[serde(rename = "impl")]
    pub implementation: String,
    pub backend: String,
    pub face: String,
    pub key_bits: u32,
    pub bytes: usize,
    pub threads: usize,
    pub cycles_per_byte: f64,
    pub gbytes_per_s: f64,
}

/// Key set-up cost (and, with a FACE level, the table precomputation).
#[derive(Clone, Debug, Serialize)]
pub struct KeySetup {
    #[serde(rename = "impl")]
    pub implementation: String,
    pub backend: String,
    pub face: String,
    pub key_bits: u32,
    pub op: &'static str,
    pub cycles: f64,
    pub us: f64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Record {
    Throughput(Throughput),
    KeySetup(KeySetup),
}

/// Prints a benchmark's result: its records as JSON, or a title line (machine and calibration)
/// and its markdown.
pub fn print_bench<R: Serialize>(json: bool, name: &str, cycles_per_tick: f64, records: &[R], markdown: impl FnOnce() -> String) -> Result<(), String> {
    if json {
        println!("{}", serde_json::to_string_pretty(records).map_err(|e| e.to_string())?);
    } else {
        println!("# aeslab bench {name}\n\n{} · {cycles_per_tick:.4} core cycles/tick\n", aeslab_measure::machine::cpu_model());
        print!("{}", markdown());
    }
    Ok(())
}
