//! Interleaved timing of several implementations of the same job, by the method of
//! [`crate::timing`]: each candidate's calls are grouped into samples of about 15 µs, every
//! round times every candidate, each sample next to its own add-chain calibration, and the
//! figure is the fastest sample. Interleaving makes a noisy neighbour or a change of core speed
//! hit every candidate alike, so their ratios hold even when absolute times drift.

use crate::clock::Calibration;
use crate::timing::{self, Body, time_interleaved, units_for};

pub use crate::timing::{Plan, Timing};

/// Times every candidate; each closure does one call of the job, and [`Timing`] is per call.
/// Candidates of different types go in boxed (`Box<dyn FnMut()>` is itself `FnMut`).
pub fn interleaved<F: FnMut()>(cal: &Calibration, plan: Plan, candidates: &mut [F]) -> Vec<Timing> {
    let mut runs: Vec<Box<dyn FnMut(u64) + '_>> = candidates
        .iter_mut()
        .map(|f| {
            Box::new(move |calls: u64| {
                for _ in 0..calls {
                    f();
                }
            }) as Box<dyn FnMut(u64)>
        })
        .collect();
    let mut bodies: Vec<Body<'_>> = runs.iter_mut().map(|b| b.as_mut() as Body<'_>).collect();
    let calls: Vec<u64> =
        bodies.iter_mut().map(|b| units_for(cal.clock, cal.ticks_per_ns, &mut **b, timing::SAMPLE_NS)).collect();
    time_interleaved(cal.clock, cal.ticks_per_ns, plan, &mut bodies, &calls)
}

/// [`interleaved`] with one job for every item, each candidate `job` on its own item (an
/// implementation with its own buffer, say).
pub fn interleaved_each<T, J: Fn(&mut T) + Copy>(cal: &Calibration, plan: Plan, items: &mut [T], job: J) -> Vec<Timing> {
    let mut candidates: Vec<_> = items.iter_mut().map(|item| move || job(item)).collect();
    interleaved(cal, plan, &mut candidates)
}
