//! The one timing method of aeslab's instruments: `aeslab instr`, `aeslab pipeline` and every
//! benchmark time their bodies through [`time_interleaved`].
//!
//! On a shared VM a timing sees the code plus whatever the other tenant, the hypervisor and the
//! kernel did meanwhile, in bursts; and the core's clock against the TSC drifts by a few percent
//! from one moment to the next. So:
//!
//! - **Pin and warm up.** The thread stays on the core it started on (no migration inside a
//!   sample), and each body runs untimed before it is timed (caches, branch predictors, the wide
//!   vector units' power-up).
//! - **Calibrate next to what is timed.** Every sample is a dependent `add` chain (one add per
//!   core cycle) timed right before the body, so ticks turn into cycles at the core speed of that
//!   moment, not of a calibration seconds earlier.
//! - **Many short samples, interleaved.** Samples last about 15 µs, and rounds visit every body
//!   in turn, so a burst of noise spoils a few samples of each body instead of every sample of
//!   one.
//! - **The minimum.** A disturbance only ever adds time, so the fastest samples are the
//!   undisturbed ones: the estimate takes the minimum of the add chain's samples and of the
//!   body's, each. The clock reads' own cost is measured and taken off every sample.
//! - **Settled, or said not to be.** The same estimate from the 10th percentiles instead of the
//!   minima must agree with it within the plan's tolerance: then at least a tenth of the samples
//!   confirm the minimum. A body that is not settled gets more rounds; if it still is not, its
//!   [`Timing::spread`] says by how much, and the instruments print it as noisy rather than as a
//!   solid number.

use crate::clock::{Clock, dependent_add_chain};
use crate::{machine, stats};

/// One body to time: `run(units)` does `units` units of work (loop iterations of an instruction
/// chain, calls of a benchmarked function).
pub type Body<'a> = &'a mut dyn FnMut(u64);

/// How much to sample.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Rounds per pass; each round visits every body that is not settled yet.
    pub rounds: usize,
    /// Samples of each body per round (one untimed warm-up run precedes them).
    pub samples_per_round: usize,
    /// Passes at most: a body still unsettled after a pass gets another.
    pub passes: usize,
    /// The largest relative gap between the 10th-percentile and the minimum estimates of a
    /// settled body.
    pub tolerance: f64,
}

impl Plan {
    /// `aeslab instr`: 64 samples per chain over 8 rounds, up to 4 passes, settled within 1%.
    pub const INSTR: Plan = Plan { rounds: 8, samples_per_round: 8, passes: 4, tolerance: 0.01 };
    /// The benchmarks: 40 samples per candidate over 20 rounds, up to 3 passes, settled within 2%
    /// (real code touches memory, and its samples vary more than a register chain's).
    pub const FULL: Plan = Plan { rounds: 20, samples_per_round: 2, passes: 3, tolerance: 0.02 };
    /// Quick benchmarks and the pipelining experiment: 16 samples over 8 rounds, 2 passes.
    pub const QUICK: Plan = Plan { rounds: 8, samples_per_round: 2, passes: 2, tolerance: 0.02 };
}

/// The cost of one unit of a body.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Core cycles per unit.
    pub cycles: f64,
    /// Nanoseconds per unit.
    pub nanos: f64,
    /// How far the estimate from the 10th percentiles lies from the one from the minima,
    /// relative: small when many samples confirm the minimum.
    pub spread: f64,
    /// Whether the spread is within the plan's tolerance.
    pub settled: bool,
    /// Timed samples and units per sample.
    pub samples: usize,
    pub units_per_sample: u64,
}

/// Iterations of the 100-add chain per calibration sample: 40 000 cycles, about 12 µs on a
/// 3.3 GHz core, many times the TSC's granularity (25 ticks on the Zen 3 VM).
const ADD_ITERS: u64 = 400;

/// Target length of a body's sample, in nanoseconds.
pub const SAMPLE_NS: f64 = 15_000.0;

/// The smallest tick count two back-to-back clock reads show: taken off every sample.
fn read_overhead(clock: Clock) -> u64 {
    (0..1000)
        .map(|_| {
            let t0 = clock.now();
            clock.now() - t0
        })
        .min()
        .unwrap_or(0)
}

/// Ticks of one timed run of `run(units)`, less the clock reads' cost.
#[inline(always)]
fn timed(clock: Clock, overhead: u64, run: &mut dyn FnMut(u64), units: u64) -> f64 {
    let t0 = clock.now();
    run(units);
    let t1 = clock.now();
    (t1 - t0).saturating_sub(overhead) as f64
}

/// Units of `body` that fill about `ns` nanoseconds at `ticks_per_ns` (doubling from 1 after a
/// warm-up run, the last count timed twice); at least 1.
pub fn units_for(clock: Clock, ticks_per_ns: f64, body: Body<'_>, ns: f64) -> u64 {
    let want = (ns * ticks_per_ns).max(1.0);
    body(1);
    let mut units = 1u64;
    loop {
        let mut ticks = timed(clock, 0, body, units);
        if ticks >= want / 2.0 || units >= 1 << 40 {
            // One timing stretched by the other tenant or an interrupt would stop the doubling
            // early and make every sample too short (a CI run once got 140 units for 50 µs,
            // 4.7 µs): time the same count again and scale by the faster of the two.
            ticks = ticks.min(timed(clock, 0, body, units));
            return ((units as f64 * want / ticks.max(1.0)).round() as u64).max(1);
        }
        units *= 2;
    }
}

/// The samples of one body.
#[derive(Default)]
struct Samples {
    /// Ticks of the add chain timed just before each body sample.
    adds: Vec<f64>,
    body: Vec<f64>,
}

impl Samples {
    /// Core cycles per unit from the `q`-quantiles (0 = the minima) of the two series.
    fn cycles(&self, clock: Clock, q: f64, units: u64) -> f64 {
        let body = stats::quantile(&self.body, q).unwrap_or(f64::NAN);
        let cycles_per_tick = if clock.counts_cycles() {
            1.0
        } else {
            (100 * ADD_ITERS) as f64 / stats::quantile(&self.adds, q).unwrap_or(f64::NAN)
        };
        body * cycles_per_tick / units as f64
    }
}

/// Times every body, `units[i]` units per sample, by the method in the module docs.
/// `ticks_per_ns` is the clock's wall rate (for [`Timing::nanos`]).
pub fn time_interleaved(clock: Clock, ticks_per_ns: f64, plan: Plan, bodies: &mut [Body<'_>], units: &[u64]) -> Vec<Timing> {
    assert_eq!(bodies.len(), units.len());
    // Pinned for the timing only: threads started between runs get the CPUs the caller had.
    let _pinned = machine::pin_to_current_cpu();
    let overhead = read_overhead(clock);
    // Warm up: the core to its running speed (about 2 ms), then each body.
    dependent_add_chain(50 * ADD_ITERS);
    for (body, &n) in bodies.iter_mut().zip(units) {
        body(n);
    }
    let mut samples: Vec<Samples> = bodies.iter().map(|_| Samples::default()).collect();
    let mut settled = vec![false; bodies.len()];
    for _pass in 0..plan.passes.max(1) {
        for _round in 0..plan.rounds.max(1) {
            for (i, body) in bodies.iter_mut().enumerate() {
                if settled[i] {
                    continue;
                }
                body(units[i].div_ceil(4)); // untimed: whatever ran before is out of the way
                for _ in 0..plan.samples_per_round.max(1) {
                    samples[i].adds.push(if clock.counts_cycles() {
                        0.0
                    } else {
                        timed(clock, overhead, &mut dependent_add_chain, ADD_ITERS)
                    });
                    samples[i].body.push(timed(clock, overhead, *body, units[i]));
                }
            }
        }
        for (i, s) in samples.iter().enumerate() {
            let (best, low) = (s.cycles(clock, 0.0, units[i]), s.cycles(clock, 0.1, units[i]));
            settled[i] = (low - best).abs() <= plan.tolerance * best;
        }
        if settled.iter().all(|&s| s) {
            break;
        }
    }
    samples
        .iter()
        .zip(units)
        .zip(settled)
        .map(|((s, &n), settled)| {
            let cycles = s.cycles(clock, 0.0, n);
            let low = s.cycles(clock, 0.1, n);
            Timing {
                cycles,
                nanos: stats::min(&s.body).unwrap_or(f64::NAN) / n as f64 / ticks_per_ns,
                spread: (low - cycles).abs() / cycles,
                settled,
                samples: s.body.len(),
                units_per_sample: n,
            }
        })
        .collect()
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::*;
    use crate::clock::calibrate;

    /// The method, not the CPU: the add chain timed as a body is one cycle per add (the body and
    /// the calibration are the same chain, so this holds under any load), and a chain of twice
    /// the length costs twice as much per unit.
    #[test]
    fn an_add_chain_measures_one_cycle_per_add_and_scales() {
        let cal = calibrate();
        let mut one = |n: u64| dependent_add_chain(n);
        let mut two = |n: u64| dependent_add_chain(2 * n);
        let mut bodies: [Body<'_>; 2] = [&mut one, &mut two];
        let t = time_interleaved(cal.clock, cal.ticks_per_ns, Plan::QUICK, &mut bodies, &[300, 300]);
        if machine::emulated() {
            return; // under qemu there are no cycles to measure (scripts/test-aarch64.sh)
        }
        assert!((t[0].cycles / 100.0 - 1.0).abs() < 0.05, "{:?}", t[0]);
        assert!((t[1].cycles / t[0].cycles - 2.0).abs() < 0.1, "{t:?}");
        assert!(t[0].samples >= 16 && t[0].nanos > 0.0 && t[0].units_per_sample == 300);
    }

    #[test]
    fn units_for_fills_the_requested_time() {
        let cal = calibrate();
        let mut body = |n: u64| dependent_add_chain(n);
        let units = units_for(cal.clock, cal.ticks_per_ns, &mut body, 50_000.0);
        let t0 = std::time::Instant::now();
        dependent_add_chain(units);
        let ns = t0.elapsed().as_nanos() as f64;
        if machine::emulated() {
            return;
        }
        // Wide bounds: a sample may be stretched by the other tenant; the point is the scale.
        assert!(units >= 1 && ns > 5_000.0 && ns < 2_000_000.0, "{units} units took {ns} ns");
    }
}
