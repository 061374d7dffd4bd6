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
    /// The figure's relative spread (`aeslab_measure::timing`); not part of the JSON record.
    #[serde(skip)]
    pub spread: f64,
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
    /// The figure's relative spread; not part of the JSON record.
    #[serde(skip)]
    pub spread: f64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Record {
    Throughput(Throughput),
    KeySetup(KeySetup),
}

/// Above this relative spread (see `aeslab_measure::timing`) a benchmark figure is marked as
/// too noisy to trust.
pub const NOISY_ABOVE: f64 = 0.05;

/// A record measured here, with the spread of its figure. Peers timed by their own harness (Go,
/// OpenSSL in a child process) report none: 0.
pub trait Measured {
    fn spread(&self) -> f64;
}

impl Measured for Throughput {
    fn spread(&self) -> f64 {
        self.spread
    }
}

impl Measured for KeySetup {
    fn spread(&self) -> f64 {
        self.spread
    }
}

impl Measured for Record {
    fn spread(&self) -> f64 {
        match self {
            Record::Throughput(t) => t.spread,
            Record::KeySetup(k) => k.spread,
        }
    }
}

/// Whether a spread is too large to print its figure as solid.
pub fn noisy(spread: f64) -> bool {
    spread > NOISY_ABOVE
}

/// `value` to `decimals` places, marked `?` when its spread says it is too noisy to trust.
pub fn figure(value: f64, decimals: usize, spread: f64) -> String {
    format!("{value:.decimals$}{}", if noisy(spread) { "?" } else { "" })
}

/// The line under a table with marked figures (empty when none is).
pub fn noise_footnote<R: Measured>(records: &[R]) -> String {
    if records.iter().any(|r| noisy(r.spread())) {
        format!(
            "\n`?`: too noisy to trust — the figure's fastest samples and its 10th percentile differ by more than {:.0}% (the other tenant was busy); run again.\n",
            100.0 * NOISY_ABOVE
        )
    } else {
        String::new()
    }
}

/// Prints a benchmark's result: its records as JSON, or a title line (machine and calibration)
/// and its markdown.
pub fn print_bench<R: Serialize + Measured>(json: bool, name: &str, cycles_per_tick: f64, records: &[R], markdown: impl FnOnce() -> String) -> Result<(), String> {
    if json {
        println!("{}", serde_json::to_string_pretty(records).map_err(|e| e.to_string())?);
        // The records' shape is fixed, so the warning goes beside them.
        let n = records.iter().filter(|r| noisy(r.spread())).count();
        if n > 0 {
            eprintln!(
                "aeslab: note: {n} of {} figures were too noisy to trust (spread over {:.0}%; the markdown output marks them); run again",
                records.len(),
                100.0 * NOISY_ABOVE
            );
        }
    } else {
        println!("# aeslab bench {name}\n\n{} · {cycles_per_tick:.4} core cycles/tick\n", aeslab_measure::machine::cpu_model());
        print!("{}", markdown());
    }
    Ok(())
}
