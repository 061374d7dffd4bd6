//! The tick clock and its calibration to core cycles.

use crate::stats;

/// Which counter [`Clock::now`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// x86-64 time-stamp counter, read with LFENCE on both sides so that no earlier
    /// instruction is still running and no later one has started.
    Tsc,
    /// aarch64 virtual counter (CNTVCT_EL0), read after an ISB.
    CntVct,
    /// The kernel's hardware cycle counter for this thread (perf_event_open), user mode only.
    PerfCycles { fd: i32 },
    /// The OS monotonic clock in nanoseconds (other architectures).
    Monotonic,
}

impl Clock {
    /// The architecture's free-running counter (needs calibration to give cycles).
    pub fn native() -> Clock {
        if cfg!(target_arch = "x86_64") {
            Clock::Tsc
        } else if cfg!(target_arch = "aarch64") {
            Clock::CntVct
        } else {
            Clock::Monotonic
        }
    }

    /// The hardware cycle counter if the kernel offers it, else [`Clock::native`].
    pub fn best() -> Clock {
        perf_cycles().unwrap_or_else(Clock::native)
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::Tsc => "tsc",
            Clock::CntVct => "cntvct",
            Clock::PerfCycles { .. } => "perf-cycles",
            Clock::Monotonic => "monotonic-ns",
        }
    }

    /// Whether ticks are core cycles themselves (no calibration involved).
    pub fn counts_cycles(self) -> bool {
        matches!(self, Clock::PerfCycles { .. })
    }

    /// Current tick count.
    #[inline(always)]
    pub fn now(self) -> u64 {
        match self {
            Clock::Tsc => tsc(),
            Clock::CntVct => cntvct(),
            Clock::PerfCycles { fd } => read_counter(fd),
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

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn cntvct() -> u64 {
    let v: u64;
    // SAFETY: Linux lets EL0 read CNTVCT_EL0; the ISB keeps earlier instructions from being
    // reordered past the read.
    unsafe {
        core::arch::asm!("isb", "mrs {v}, cntvct_el0", v = out(reg) v, options(nostack, nomem, preserves_flags));
    }
    v
}

#[cfg(not(target_arch = "aarch64"))]
#[inline(always)]
fn cntvct() -> u64 {
    monotonic_ns()
}

fn monotonic_ns() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Opens the hardware cycle counter for this thread, user mode only. `None` where the kernel
/// or the hypervisor does not offer it (as in most VMs, this one included).
fn perf_cycles() -> Option<Clock> {
    // struct perf_event_attr, PERF_ATTR_SIZE_VER5 = 112 bytes: type u32 @0, size u32 @4,
    // config u64 @8, flags u64 @40 (bit 5 exclude_kernel, bit 6 exclude_hv).
    let mut attr = [0u64; 14];
    attr[0] = 112u64 << 32; // type PERF_TYPE_HARDWARE = 0, size 112
    attr[1] = 0; // config PERF_COUNT_HW_CPU_CYCLES
    attr[5] = (1 << 5) | (1 << 6);
    // SAFETY: the attribute buffer is 112 bytes and outlives the call; pid 0 and cpu −1 mean
    // "this thread, on any CPU"; no group, no flags.
    let fd = unsafe { libc::syscall(libc::SYS_perf_event_open, attr.as_ptr(), 0, -1, -1, 0) };
    if fd < 0 {
        return None;
    }
    let clock = Clock::PerfCycles { fd: fd as i32 };
    // A counter that opens but does not count (some hypervisors) is no counter.
    let before = clock.now();
    dependent_add_chain(1000);
    (clock.now() > before).then_some(clock)
}

fn read_counter(fd: i32) -> u64 {
    let mut v = 0u64;
    // SAFETY: reads 8 bytes into `v` from a perf counter descriptor this process opened.
    let n = unsafe { libc::read(fd, (&mut v as *mut u64).cast(), 8) };
    if n == 8 { v } else { 0 }
}

/// One `add x += one` of the calibration chain, and the loop's decrement-and-branch, in this
/// architecture's syntax.
#[cfg(target_arch = "x86_64")]
macro_rules! add_chain_asm {
    (add) => { "add {x}, {one}" };
    (loop) => { "dec {n}\njnz 2b" };
}
#[cfg(target_arch = "aarch64")]
macro_rules! add_chain_asm {
    (add) => { "add {x}, {x}, {one}" };
    (loop) => { "subs {n}, {n}, #1\nb.ne 2b" };
}

/// Runs `iterations × 100` dependent 1-cycle `add`s (a chain: each reads the last one's result).
///
/// The addend is a register, not an immediate: Golden Cove-class Intel cores fold chains of
/// `add reg, imm` in the renamer and run them several per cycle (measured here: ~3.3 per
/// cycle), while `add reg, reg` always takes one ALU cycle.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
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
            add_chain_asm!(add),
            ".endr",
            add_chain_asm!(loop),
            x = inout(reg) x,
            one = in(reg) 1u64,
            n = inout(reg) iterations => _,
            options(nostack, nomem),
        );
    }
    core::hint::black_box(x);
}

/// A dependent chain in plain Rust where there is no assembly for it.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn dependent_add_chain(iterations: u64) {
    let mut x = 0u64;
    for _ in 0..iterations * 100 {
        x = core::hint::black_box(x + 1);
    }
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

    /// Core cycles in `ns` nanoseconds of wall time (for peers timed by another process).
    pub fn nanos_to_cycles(&self, ns: f64) -> f64 {
        ns * self.ticks_per_ns * self.cycles_per_tick
    }
}

/// Calibrates the native clock (TSC, CNTVCT) against a dependent `add` chain. About 40 ms.
pub fn calibrate() -> Calibration {
    calibrate_clock(Clock::native())
}

impl Calibration {
    /// Re-measures cycles per tick (the core's speed drifts: turbo, wide-vector licences, the
    /// other tenant). About 10 ms; the wall-clock rate is kept.
    pub fn refresh(&mut self) {
        if !self.clock.counts_cycles() {
            let (ratio, spread) = add_chain_ratio(self.clock, 10_000, 9);
            self.cycles_per_tick = ratio;
            self.spread = spread;
        }
    }
}

/// Core cycles per tick from `repeats` timings of a dependent `add` chain at `n` and `2n`
/// iterations; (median, relative interquartile range).
fn add_chain_ratio(clock: Clock, n: u64, repeats: usize) -> (f64, f64) {
    dependent_add_chain(10 * n); // warm up: let the core reach its running frequency
    let mut ratios = Vec::with_capacity(repeats);
    for _ in 0..repeats {
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
    (stats::median(&ratios).unwrap_or(f64::NAN), stats::relative_iqr(&ratios).unwrap_or(f64::NAN))
}

/// Calibrates `clock`. The perf cycle counter needs none. Any other clock is timed on a
/// dependent `add` chain at `n` and `2n` iterations (the difference cancels call and loop-exit
/// overhead), 15 times, and the median kept.
pub fn calibrate_clock(clock: Clock) -> Calibration {
    // 2 million adds per timing ≈ 0.6 ms at 3.5 GHz.
    let (measured, spread) = add_chain_ratio(clock, 20_000, 15);
    Calibration {
        clock,
        cycles_per_tick: if clock.counts_cycles() { 1.0 } else { measured },
        spread,
        ticks_per_ns: ticks_per_ns(clock),
    }
}

/// Ticks per wall-clock nanosecond, over 20 ms against the OS monotonic clock.
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
}
