//! Every record the commands print — as JSON with `--json`, collected in `report.json` — and
//! the one way they print: [`print`] (JSON or markdown), and [`print_bench`] for the bench
//! commands (with the machine's title line and the note on noisy figures).

use aeslab_measure::Calibration;
use serde::{Deserialize, Serialize};

use crate::CliResult;

/// One AES backend as `aeslab cpu` lists it.
#[derive(Serialize)]
pub struct BackendInfo {
    pub name: &'static str,
    pub available: bool,
    pub constant_time: bool,
    pub batch: usize,
}

/// One instruction benchmark of `aeslab instr`, and the whole output.
#[derive(Serialize)]
pub struct InstrRecord {
    pub instr: &'static str,
    pub width: &'static str,
    pub kind: &'static str,
    pub cycles_per_instr: f64,
    pub total_ns: f64,
    pub count: u64,
}

/// A benchmark whose samples never agreed closely enough to trust its figure.
#[derive(Serialize)]
pub struct NoisyRecord {
    pub instr: &'static str,
    pub width: &'static str,
    pub kind: &'static str,
    /// The estimate from the fastest samples, for what it is worth.
    pub cycles_per_instr: f64,
    /// How far the estimate from the 10th percentiles lies from it, relative.
    pub spread: f64,
}

#[derive(Serialize)]
pub struct InstrJson {
    pub cpu: String,
    pub clock: &'static str,
    pub cycles_per_tsc_tick: f64,
    /// The settled benchmarks.
    pub results: Vec<InstrRecord>,
    /// The benchmarks too noisy to trust in this run (empty when all settled).
    pub noisy: Vec<NoisyRecord>,
}

/// One body of `aeslab pipeline`.
#[derive(Serialize, Clone)]
pub struct PipelineRecord {
    pub bench: &'static str,
    pub variant: &'static str,
    pub width: &'static str,
    pub n: usize,
    pub ns_per_op: f64,
    pub mb_per_s: f64,
    pub cycles_per_block: f64,
    /// Relative spread of the estimate (see `aeslab_measure::timing`); not in the JSON, whose
    /// shape is fixed, but flagged in the listing.
    #[serde(skip)]
    pub spread: f64,
}

/// One AEZ measurement of `aeslab bench aez`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AezRecord {
    #[serde(rename = "impl")]
    pub implementation: String,
    pub backend: String,
    pub bytes: usize,
    pub ns_per_op: f64,
    pub mb_per_s: f64,
    #[serde(default)]
    pub cycles_per_byte: f64,
    /// The figure's relative spread; not part of the JSON record.
    #[serde(skip)]
    pub spread: f64,
}

impl Measured for AezRecord {
    fn spread(&self) -> f64 {
        self.spread
    }
}

/// One ACE measurement of `aeslab bench ace`.
#[derive(Clone, Debug, Serialize)]
pub struct AceRecord {
    #[serde(rename = "impl")]
    pub implementation: &'static str,
    pub op: &'static str,
    pub backend: String,
    /// Independent states (messages) processed together.
    pub lanes: usize,
    /// Bytes per state (`perm`: 40 × lanes) or per message (`aead`, `hash`).
    pub bytes: usize,
    /// Over every byte processed (all lanes).
    pub cycles_per_byte: f64,
    /// `perm` only: half the interquartile range of `cycles_per_byte` over the repeated runs;
    /// shown in the listing, not part of the JSON record.
    #[serde(skip)]
    pub plus_minus: Option<f64>,
    /// The figure's relative spread (for `perm`, the largest over the runs); not in the JSON.
    #[serde(skip)]
    pub spread: f64,
}

impl Measured for AceRecord {
    fn spread(&self) -> f64 {
        self.spread
    }
}

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

/// Opening throughput of one AES-GCM implementation on one message size (`bench gcm`): a
/// seal's record and `"op": "open"`.
#[derive(Clone, Debug, Serialize)]
pub struct Opened {
    #[serde(flatten)]
    pub throughput: Throughput,
    pub op: &'static str,
}

impl Opened {
    pub fn new(throughput: Throughput) -> Opened {
        Opened { throughput, op: "open" }
    }
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

/// A key made for one message: its set-up, the message sealed, the key dropped (`bench gcm
/// --key-per-message`), per message.
#[derive(Clone, Debug, Serialize)]
pub struct KeyPerMessage {
    #[serde(rename = "impl")]
    pub implementation: String,
    pub backend: String,
    pub key_bits: u32,
    pub bytes: usize,
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
    Opened(Opened),
    KeySetup(KeySetup),
    KeyPerMessage(KeyPerMessage),
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

impl Measured for KeyPerMessage {
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
            Record::Opened(o) => o.throughput.spread,
            Record::KeySetup(k) => k.spread,
            Record::KeyPerMessage(k) => k.spread,
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

/// Prints `value` as pretty JSON, or `markdown()`.
pub fn print<T: Serialize + ?Sized>(json: bool, value: &T, markdown: impl FnOnce() -> String) -> CliResult {
    if json {
        println!("{}", serde_json::to_string_pretty(value).map_err(|e| e.to_string())?);
    } else {
        print!("{}", markdown());
    }
    Ok(())
}

/// Prints a benchmark's records as JSON (with a note on stderr when some were too noisy to
/// trust: the records' shape is fixed), or a title line (machine and calibration) and its
/// markdown.
pub fn print_bench<R: Serialize + Measured>(json: bool, name: &str, cal: &Calibration, records: &[R], markdown: impl FnOnce() -> String) -> CliResult {
    if json {
        let n = records.iter().filter(|r| noisy(r.spread())).count();
        if n > 0 {
            eprintln!(
                "aeslab: note: {n} of {} figures were too noisy to trust (spread over {:.0}%; the markdown output marks them); run again",
                records.len(),
                100.0 * NOISY_ABOVE
            );
        }
    }
    print(json, records, || {
        format!(
            "# aeslab bench {name}\n\n{} · clock {} · {:.4} core cycles/tick · {}\n\n{}",
            aeslab_measure::machine::cpu_model(),
            cal.clock.name(),
            cal.cycles_per_tick,
            crate::peers::openssl_version(),
            markdown()
        )
    })
}
