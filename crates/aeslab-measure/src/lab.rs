//! Running instruction chains and the pipelining experiment, through the timing method of
//! [`crate::timing`]: all the chains of a run are timed together, interleaved, each sample
//! next to its own add-chain calibration.

use crate::chains::{InstrChain, PipelineChain};
use crate::clock::Calibration;
use crate::timing::{Body, Plan, Timing, time_interleaved};

/// One measured instruction chain.
#[derive(Clone, Copy, Debug)]
pub struct InstrResult {
    pub cycles_per_instr: f64,
    /// Wall time of one timed run of `count` instructions.
    pub total_ns: f64,
    /// Instructions per timed run (`count` rounded to whole loop iterations).
    pub count: u64,
    /// Relative spread of the estimate, and whether it is within the plan's tolerance.
    pub spread: f64,
    pub settled: bool,
}

/// Measures each chain in runs of about `count` instructions.
///
/// # Safety
/// The CPU has every feature each chain requires (`chain.missing()` is `None`).
pub unsafe fn run_instr(chains: &[&InstrChain], cal: &Calibration, count: u64, plan: Plan) -> Vec<InstrResult> {
    let iters: Vec<u64> = chains.iter().map(|c| (count / c.per_iter).max(1)).collect();
    // SAFETY (each body): the caller checked the chains' features.
    let mut runs: Vec<Box<dyn FnMut(u64)>> =
        chains.iter().map(|c| Box::new(move |k: u64| unsafe { (c.run)(k) }) as Box<dyn FnMut(u64)>).collect();
    let mut bodies: Vec<Body<'_>> = runs.iter_mut().map(|b| b.as_mut() as Body<'_>).collect();
    let timings = time_interleaved(cal.clock, cal.ticks_per_ns, plan, &mut bodies, &iters);
    chains
        .iter()
        .zip(iters)
        .zip(timings)
        .map(|((c, k), t)| InstrResult {
            cycles_per_instr: t.cycles / c.per_iter as f64,
            total_ns: t.nanos * k as f64,
            count: k * c.per_iter,
            spread: t.spread,
            settled: t.settled,
        })
        .collect()
}

/// One measured body of the pipelining experiment.
#[derive(Clone, Copy, Debug)]
pub struct PipelineResult {
    pub ns_per_op: f64,
    /// 10^6 bytes per second of blocks processed.
    pub mb_per_s: f64,
    pub cycles_per_block: f64,
    pub spread: f64,
    pub settled: bool,
}

/// Measures each pipelining body in runs of about `aes_instructions` AES instructions.
///
/// # Safety
/// The CPU has every feature each chain requires (`chain.missing()` is `None`).
pub unsafe fn run_pipeline(chains: &[&PipelineChain], cal: &Calibration, aes_instructions: u64, plan: Plan) -> Vec<PipelineResult> {
    // AES-128's 11 round keys and room for the largest operation (16 zmm registers); every body
    // works on its own blocks.
    let keys: Vec<u8> = (0..176u32).map(|i| (i * 37 + 11) as u8).collect();
    let mut blocks: Vec<Vec<u8>> = chains.iter().map(|c| vec![0u8; 16 * c.blocks_per_op.max(64)]).collect();
    let iters: Vec<u64> = chains.iter().map(|c| (aes_instructions / (c.ops_per_iter * 10 * c.n as u64)).max(1)).collect();
    let kp = keys.as_ptr();
    // SAFETY (each body): the caller checked the features; `keys` holds 176 bytes and each
    // body's blocks at least `16 · blocks_per_op`.
    let mut runs: Vec<Box<dyn FnMut(u64) + '_>> = chains
        .iter()
        .zip(blocks.iter_mut())
        .map(|(c, b)| {
            let bp = b.as_mut_ptr();
            Box::new(move |k: u64| unsafe { (c.run)(k, kp, bp) }) as Box<dyn FnMut(u64)>
        })
        .collect();
    let mut bodies: Vec<Body<'_>> = runs.iter_mut().map(|b| b.as_mut() as Body<'_>).collect();
    let timings: Vec<Timing> = time_interleaved(cal.clock, cal.ticks_per_ns, plan, &mut bodies, &iters);
    chains
        .iter()
        .zip(timings)
        .map(|(c, t)| {
            let ops = c.ops_per_iter as f64;
            let ns_per_op = t.nanos / ops;
            PipelineResult {
                ns_per_op,
                mb_per_s: (16 * c.blocks_per_op) as f64 / ns_per_op * 1e3,
                cycles_per_block: t.cycles / ops / c.blocks_per_op as f64,
                spread: t.spread,
                settled: t.settled,
            }
        })
        .collect()
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
    /// per instruction through the whole path (generated chain, sampling, calibration), and
    /// independent adds (destinations rotating over six registers) run faster than the chain.
    #[test]
    fn dependent_adds_measure_one_cycle_and_independent_ones_less() {
        if crate::machine::emulated() {
            // Under qemu there are no cycles to measure (scripts/test-aarch64.sh).
            return;
        }
        let cal = calibrate();
        let r = unsafe { run_instr(&[add(Kind::Latency), add(Kind::Throughput)], &cal, 200_000, Plan::QUICK) };
        let (lat, thr) = (r[0], r[1]);
        assert!((lat.cycles_per_instr - 1.0).abs() <= 0.1, "{} cycles per add", lat.cycles_per_instr);
        assert!(lat.total_ns > 0.0 && lat.count == 200_000);
        assert!(thr.cycles_per_instr < 0.8 * lat.cycles_per_instr, "{thr:?} vs {lat:?}");
    }
}
