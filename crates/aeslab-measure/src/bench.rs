//! Interleaved timing of several implementations of the same job.
//!
//! Each round runs every candidate once (one sample: enough calls to fill
//! [`Plan::sample_ticks`]); the reported figure is the median over rounds. Interleaving makes
//! a noisy neighbour or a frequency change hit every candidate alike, so their ratios hold
//! even when absolute times drift.

use crate::clock::{Calibration, Clock};
use crate::stats;

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Samples per candidate (the median is taken over these).
    pub rounds: usize,
    /// Minimum clock ticks per sample; calls are repeated until a sample is this long.
    pub sample_ticks: u64,
    /// Untimed calls before measuring (caches, branch predictors, frequency).
    pub warmup_calls: usize,
}

impl Plan {
    /// ~0.25 ms samples, 41 of them per candidate: short samples so that a burst of noise
    /// from the other tenant spoils few of them.
    pub const FULL: Plan = Plan { rounds: 41, sample_ticks: 600_000, warmup_calls: 50 };
    /// ~0.1 ms samples, 11 per candidate.
    pub const QUICK: Plan = Plan { rounds: 11, sample_ticks: 250_000, warmup_calls: 10 };
}

/// The median cost of one call of each candidate.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub ticks_per_call: f64,
    /// Relative interquartile range of the samples.
    pub spread: f64,
}

impl Timing {
    pub fn cycles(&self, cal: &Calibration) -> f64 {
        cal.ticks_to_cycles(self.ticks_per_call)
    }
    pub fn nanos(&self, cal: &Calibration) -> f64 {
        self.ticks_per_call / cal.ticks_per_ns
    }
}

/// Times every candidate, interleaved. Each closure does one call of the job.
pub fn interleaved(clock: Clock, plan: Plan, candidates: &mut [&mut dyn FnMut()]) -> Vec<Timing> {
    // Warm up, and find how many calls fill one sample.
    let mut calls = Vec::with_capacity(candidates.len());
    for f in candidates.iter_mut() {
        for _ in 0..plan.warmup_calls {
            f();
        }
        let t0 = clock.now();
        f();
        let one = (clock.now() - t0).max(1);
        calls.push((plan.sample_ticks / one).clamp(1, 1_000_000) as usize);
    }
    let mut samples = vec![Vec::with_capacity(plan.rounds); candidates.len()];
    for _ in 0..plan.rounds {
        for (i, f) in candidates.iter_mut().enumerate() {
            let t0 = clock.now();
            for _ in 0..calls[i] {
                f();
            }
            let ticks = clock.now() - t0;
            samples[i].push(ticks as f64 / calls[i] as f64);
        }
    }
    samples
        .iter()
        .map(|s| Timing {
            ticks_per_call: stats::median(s).unwrap_or(f64::NAN),
            spread: stats::relative_iqr(s).unwrap_or(f64::NAN),
        })
        .collect()
}
