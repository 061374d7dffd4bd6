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
