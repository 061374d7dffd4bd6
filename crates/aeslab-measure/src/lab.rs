//! Running instruction chains and the pipelining experiment.
//!
//! Method (as nanoBench / uops.info): run the body for `k` and then `2k` loop iterations and
//! take the difference, which cancels the call, loop set-up and exit; repeat and keep the
//! median; warm up first so the core is at its running frequency.

use std::time::Instant;

use crate::chains::{InstrChain, PipelineChain};
use crate::clock::Calibration;
use crate::stats;

/// Repetitions of the `k` / `2k` measurement.
const REPEATS: usize = 9;

/// One measured instruction chain.
#[derive(Clone, Copy, Debug)]
pub struct InstrResult {
    pub cycles_per_instr: f64,
    /// Wall time for `count` instructions.
    pub total_ns: f64,
    /// Instructions in the timed run (`count` rounded to whole loop iterations).
    pub count: u64,
}

/// The median cost of one unit of `body(k)` in core cycles and nanoseconds, from `k` vs `2k`.
fn difference(cal: &Calibration, k: u64, mut body: impl FnMut(u64)) -> (f64, f64) {
    body((k / 4).max(1)); // warm up
    let (mut cycles, mut ns) = (Vec::with_capacity(REPEATS), Vec::with_capacity(REPEATS));
    for _ in 0..REPEATS {
        let (w0, t0) = (Instant::now(), cal.clock.now());
        body(k);
        let (w1, t1) = (Instant::now(), cal.clock.now());
        body(2 * k);
        let (w2, t2) = (Instant::now(), cal.clock.now());
        let ticks = (t2 - t1) as f64 - (t1 - t0) as f64;
        let wall = (w2 - w1).as_nanos() as f64 - (w1 - w0).as_nanos() as f64;
        cycles.push(cal.ticks_to_cycles(ticks) / k as f64);
        ns.push(wall / k as f64);
    }
    (stats::median(&cycles).unwrap_or(f64::NAN), stats::median(&ns).unwrap_or(f64::NAN))
}

/// Measures one chain over about `count` instructions.
///
/// # Safety
/// The CPU has every feature the chain requires (`chain.missing()` is `None`).
pub unsafe fn run_instr(chain: &InstrChain, cal: &Calibration, count: u64) -> InstrResult {
    let iters = (count / chain.per_iter).max(1);
    // SAFETY: the caller checked the chain's features.
    let (cycles_per_iter, ns_per_iter) = difference(cal, iters, |k| unsafe { (chain.run)(k) });
    InstrResult {
        cycles_per_instr: cycles_per_iter / chain.per_iter as f64,
        total_ns: ns_per_iter * iters as f64,
        count: iters * chain.per_iter,
    }
}

/// One measured body of the pipelining experiment.
#[derive(Clone, Copy, Debug)]
pub struct PipelineResult {
    pub ns_per_op: f64,
    /// 10^6 bytes per second of blocks processed.
    pub mb_per_s: f64,
    pub cycles_per_block: f64,
}

/// Measures one pipelining body over about `aes_instructions` AES instructions.
///
/// # Safety
/// The CPU has every feature the chain requires (`chain.missing()` is `None`).
pub unsafe fn run_pipeline(chain: &PipelineChain, cal: &Calibration, aes_instructions: u64) -> PipelineResult {
    // AES-128's 11 round keys and room for the largest operation (16 zmm registers).
    let keys: Vec<u8> = (0..176u32).map(|i| (i * 37 + 11) as u8).collect();
    let mut blocks = vec![0u8; 16 * 64];
    assert!(16 * chain.blocks_per_op <= blocks.len());
    let per_iter = chain.ops_per_iter * (10 * chain.n as u64);
    let iters = (aes_instructions / per_iter).max(1);
    let (kp, bp) = (keys.as_ptr(), blocks.as_mut_ptr());
    // SAFETY: the caller checked the features; the buffers have the sizes `run` needs.
    let (cycles_per_iter, ns_per_iter) = difference(cal, iters, |k| unsafe { (chain.run)(k, kp, bp) });
    let ops = chain.ops_per_iter as f64;
    let ns_per_op = ns_per_iter / ops;
    PipelineResult {
        ns_per_op,
        mb_per_s: (16 * chain.blocks_per_op) as f64 / ns_per_op * 1e3,
        cycles_per_block: cycles_per_iter / ops / chain.blocks_per_op as f64,
    }
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::*;
    use crate::chains::{INSTR, Kind};
    use crate::clock::calibrate;

    fn add(kind: Kind) -> &'static InstrChain {
        INSTR.iter().find(|c| c.instr == "add" && c.kind == kind).unwrap()
    }

    /// The harness, not the CPU: a dependent chain of 1-cycle adds measures 1.0 ± 0.1 cycles
    /// per instruction through the whole path (chain, n/2n differencing, calibration).
    #[test]
    fn dependent_adds_measure_one_cycle() {
        if crate::machine::emulated() {
            // Under qemu there are no cycles to measure (scripts/test-aarch64.sh).
            return;
        }
        let cal = calibrate();
        let r = unsafe { run_instr(add(Kind::Latency), &cal, 2_000_000) };
        assert!((r.cycles_per_instr - 1.0).abs() <= 0.1, "{} cycles per add", r.cycles_per_instr);
        assert!(r.total_ns > 0.0 && r.count >= 2_000_000 / 2);
    }

    /// Independent adds (destinations rotating over six registers) run faster than a chain.
    #[test]
    fn independent_adds_are_faster_than_dependent_ones() {
        if crate::machine::emulated() {
            return;
        }
        let cal = calibrate();
        let lat = unsafe { run_instr(add(Kind::Latency), &cal, 2_000_000) };
        let thr = unsafe { run_instr(add(Kind::Throughput), &cal, 2_000_000) };
        assert!(thr.cycles_per_instr < 0.8 * lat.cycles_per_instr, "{thr:?} vs {lat:?}");
    }
}
