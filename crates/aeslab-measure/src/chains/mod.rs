//! Instruction chains: latency and throughput bodies per instruction, and the pipelining
//! experiment's bodies. The bodies are generated (`gen/chains.py`) into `x86_64.rs` and
//! `aarch64.rs`; this module describes them and says whether this CPU can run one.

#[cfg(target_arch = "aarch64")]
#[path = "aarch64.rs"]
mod arch;
#[cfg(target_arch = "x86_64")]
#[path = "x86_64.rs"]
mod arch;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub use arch::{INSTR, PIPELINE};

/// No chains on other architectures.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub static INSTR: &[InstrChain] = &[];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub static PIPELINE: &[PipelineChain] = &[];

/// Register width of a benchmark (the `width` field of the JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    Xmm,
    Ymm,
    Zmm,
    Neon,
    Gpr,
}

impl Width {
    pub fn name(self) -> &'static str {
        match self {
            Width::Xmm => "xmm",
            Width::Ymm => "ymm",
            Width::Zmm => "zmm",
            Width::Neon => "neon",
            Width::Gpr => "gpr",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Each instruction reads the previous one's result.
    Latency,
    /// Destinations rotate over 12 registers: nothing waits.
    Throughput,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Latency => "latency",
            Kind::Throughput => "throughput",
        }
    }
}

/// One instruction-chain body.
pub struct InstrChain {
    pub instr: &'static str,
    pub width: Width,
    pub kind: Kind,
    /// Instructions per loop iteration.
    pub per_iter: u64,
    /// CPU features the body needs.
    pub requires: &'static [&'static str],
    /// Runs `iters` iterations.
    ///
    /// # Safety
    /// The CPU has every feature in `requires`.
    pub run: unsafe fn(u64),
}

impl InstrChain {
    /// `aesenc-latency`, `vaesenc-zmm-throughput`: seed 001's names, with the width for the
    /// instructions that come in several.
    pub fn name(&self) -> String {
        let wide = INSTR.iter().filter(|c| c.instr == self.instr && c.kind == self.kind).count() > 1;
        if wide {
            format!("{}-{}-{}", self.instr, self.width.name(), self.kind.name())
        } else {
            format!("{}-{}", self.instr, self.kind.name())
        }
    }

    /// `None` when runnable, else which features are missing.
    pub fn missing(&self) -> Option<String> {
        missing(self.requires)
    }
}

/// One body of the pipelining experiment (x86-64).
pub struct PipelineChain {
    /// `Single`, `Multi` or `Nomem`.
    pub bench: &'static str,
    /// `-`, `one-register`, `random`, `const-key` or `const-block`.
    pub variant: &'static str,
    pub width: Width,
    /// Registers of blocks.
    pub n: usize,
    /// AES blocks per operation.
    pub blocks_per_op: usize,
    /// Operations per loop iteration.
    pub ops_per_iter: u64,
    pub requires: &'static [&'static str],
    /// Runs `iters` iterations; `keys` points to 11 round keys, `blocks` to the blocks.
    ///
    /// # Safety
    /// The CPU has every feature in `requires`; `keys` holds 176 bytes and `blocks` holds
    /// `16 · blocks_per_op` writable bytes.
    pub run: unsafe fn(u64, *const u8, *mut u8),
}

impl PipelineChain {
    pub fn missing(&self) -> Option<String> {
        missing(self.requires)
    }
}

/// `None` when every feature in `requires` is there, else what is absent: "CPU lacks avx512f",
/// or "vaes masked by AESLAB_CPU_MASK" for a feature the mask hides (as it hides it from
/// aeslab's dispatch).
fn missing(requires: &[&str]) -> Option<String> {
    let lacks: Vec<&str> = requires.iter().copied().filter(|f| !detected(f)).collect();
    let masked: Vec<&str> = requires.iter().copied().filter(|f| detected(f) && aeslab::cpu::masked(f)).collect();
    let mut reasons = Vec::new();
    if !lacks.is_empty() {
        reasons.push(format!("CPU lacks {}", lacks.join(", ")));
    }
    if !masked.is_empty() {
        reasons.push(format!("{} masked by AESLAB_CPU_MASK", masked.join(", ")));
    }
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// Whether this CPU has `name` and `AESLAB_CPU_MASK` does not hide it.
pub fn has_feature(name: &str) -> bool {
    detected(name) && !aeslab::cpu::masked(name)
}

/// Runtime feature detection by name (the detection macros want literals).
fn detected(name: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as d;
        match name {
            "aes" => d!("aes"),
            "pclmulqdq" => d!("pclmulqdq"),
            "sha" => d!("sha"),
            "gfni" => d!("gfni"),
            "avx" => d!("avx"),
            "avx2" => d!("avx2"),
            "vaes" => d!("vaes"),
            "vpclmulqdq" => d!("vpclmulqdq"),
            "avx512f" => d!("avx512f"),
            "avx512vl" => d!("avx512vl"),
            "avx512bw" => d!("avx512bw"),
            _ => false,
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        use std::arch::is_aarch64_feature_detected as d;
        match name {
            "aes" => d!("aes"),
            "sha2" => d!("sha2"),
            _ => false,
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = name;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_seed_001() {
        let names: Vec<String> = INSTR.iter().map(InstrChain::name).collect();
        #[cfg(target_arch = "x86_64")]
        for n in ["aesenc-latency", "aesenc-throughput", "vaesenc-zmm-throughput", "vaesenc-ymm-latency", "add-latency"] {
            assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
        }
        #[cfg(target_arch = "aarch64")]
        for n in ["aese-latency", "sha256h2-throughput", "pmull2-latency"] {
            assert!(names.iter().any(|x| x == n), "{n} missing from {names:?}");
        }
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "names are unique");
    }
}
