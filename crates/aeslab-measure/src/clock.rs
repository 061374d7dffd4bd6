//! The tick clock and its calibration to core cycles.

use crate::stats;

/// Which counter [`Clock::now`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// x86-64 time-stamp counter, read with LFENCE on both sides so that no earlier
    /// instruction is still running and no later one has started.
    Tsc,
    /// The OS monotonic clock in nanoseconds (other architectures, until they get a counter).
    Monotonic,
}

impl Clock {
    /// The clock used on this architecture.
    pub fn native() -> Clock {
        if cfg!(target_arch = "x86_64") { Clock::Tsc } else { Clock::Monotonic }
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::Tsc => "tsc",
            Clock::Monotonic => "monotonic-ns",
        }
    }

    /// Current tick count.
    #[inline(always)]
    pub fn now(self) -> u64 {
        match self {
            Clock::Tsc => tsc(),
            Clock::Monotonic => monotonic_ns(),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn tsc() -> u64 {
    let lo: u32;
    let hi: u32;
    // SAFETY: LFENCE and RDTSC are available on every x86-64 CPU and touch only eax/edx.
    unsafe {
        core::arch::asm!(
            "lfence",
            "rdtsc",
            "lfence",
            out("eax") lo,
            out("edx") hi,
            options(nostack, nomem, preserves_flags),
        );
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn tsc() -> u64 {
    monotonic_ns()
}

fn monotonic_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Runs `iterations × 100` dependent 1-cycle `add`s (a chain: each reads the last one's result).
///
/// The addend is a register, not an immediate: Golden Cove-class Intel cores fold chains of
/// `add reg, imm` in the renamer and run them several per cycle (measured here: ~3.3 per
/// cycle), while `add reg, reg` always takes one ALU cycle.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
pub fn dependent_add_chain(iterations: u64) {
    if iterations == 0 {
        return;
    }
    let mut x = 0u64;
    // SAFETY: plain register arithmetic and a counted loop; no memory is touched.
    unsafe {
        core::arch::asm!(
            "2:",
            ".rept 100",
            "add {x}, {one}",
            ".endr",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            one = in(reg) 1u64,
            n = inout(reg) iterations => _,
            options(nostack, nomem),
        );
    }
    core::hint::black_box(x);
}

/// Core cycles per clock tick, measured now.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    pub clock: Clock,
    /// Core cycles per tick (for the TSC: core frequency / TSC frequency).
    pub cycles_per_tick: f64,
    /// Spread of the repeated measurements: interquartile range / median.
    pub spread: f64,
    /// Clock ticks per nanosecond of wall time (for the TSC: its frequency in GHz).
    pub ticks_per_ns: f64,
}

impl Calibration {
    pub fn ticks_to_cycles(&self, ticks: f64) -> f64 {
        ticks * self.cycles_per_tick
    }
}

/// Calibrates the native clock against a dependent `add` chain: times the chain at `n` and
/// `2n` iterations (the difference cancels call and loop-exit overhead) 15 times, and takes
/// the median. About 20 ms.
#[cfg(target_arch = "x86_64")]
pub fn calibrate() -> Calibration {
    let clock = Clock::Tsc;
    let n: u64 = 20_000; // 2 million adds ≈ 0.6 ms at 3.5 GHz
    dependent_add_chain(10 * n); // warm up: let the core reach its running frequency
    let mut ratios = Vec::with_capacity(15);
    for _ in 0..15 {
        let t0 = clock.now();
        dependent_add_chain(n);
        let t1 = clock.now();
        dependent_add_chain(2 * n);
        let t2 = clock.now();
        let extra_ticks = (t2 - t1) as f64 - (t1 - t0) as f64;
        if extra_ticks > 0.0 {
            ratios.push((100 * n) as f64 / extra_ticks);
        }
    }
    Calibration {
        clock,
        cycles_per_tick: stats::median(&ratios).unwrap_or(f64::NAN),
        spread: stats::relative_iqr(&ratios).unwrap_or(f64::NAN),
        ticks_per_ns: ticks_per_ns(clock),
    }
}

/// Without a calibrated counter, ticks are nanoseconds and cycles are not known.
#[cfg(not(target_arch = "x86_64"))]
pub fn calibrate() -> Calibration {
    Calibration { clock: Clock::Monotonic, cycles_per_tick: f64::NAN, spread: f64::NAN, ticks_per_ns: 1.0 }
}

/// Ticks per wall-clock nanosecond, over 20 ms against the OS monotonic clock.
#[cfg(target_arch = "x86_64")]
fn ticks_per_ns(clock: Clock) -> f64 {
    let start = std::time::Instant::now();
    let t0 = clock.now();
    while start.elapsed() < std::time::Duration::from_millis(20) {}
    let ticks = clock.now() - t0;
    ticks as f64 / start.elapsed().as_nanos() as f64
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn tsc_advances() {
        let a = Clock::Tsc.now();
        dependent_add_chain(1000);
        let b = Clock::Tsc.now();
        assert!(b > a);
    }

    /// The harness, not the CPU: a TSC-timed add chain calibrated against itself must come out
    /// at one cycle per add (checks the n/2n differencing and the unit conversion).
    #[test]
    fn add_chain_measures_one_cycle_per_add_after_calibration() {
        let cal = calibrate();
        assert!(cal.cycles_per_tick.is_finite() && cal.cycles_per_tick > 0.1 && cal.cycles_per_tick < 10.0);
        let mut per_add = Vec::new();
        for _ in 0..9 {
            let t0 = Clock::Tsc.now();
            dependent_add_chain(10_000);
            let t1 = Clock::Tsc.now();
            dependent_add_chain(20_000);
            let t2 = Clock::Tsc.now();
            let ticks = ((t2 - t1) as f64) - ((t1 - t0) as f64);
            per_add.push(cal.ticks_to_cycles(ticks) / 1_000_000.0);
        }
        let m = stats::median(&per_add).unwrap();
        assert!((m - 1.0).abs() < 0.1, "{m} cycles per add");
    }
}
