//! Measurement for aeslab: a serialised cycle clock, the calibration that turns its ticks into
//! core cycles, and robust statistics.
//!
//! Inside a VM there are usually no hardware cycle counters, and the TSC ticks at a fixed
//! rate that is not the core clock. [`calibrate`] times a long chain of dependent 1-cycle
//! instructions (each `add` waits for the previous one, so the chain runs at exactly one
//! instruction per core cycle) and reports core cycles per tick at that moment.

pub mod bench;
pub mod chains;
pub mod clock;
pub mod lab;
pub mod leak;
pub mod machine;
pub mod stats;
pub mod timing;

pub use bench::{interleaved, interleaved_each};
pub use timing::{Plan, Timing};
pub use clock::{Calibration, Clock, calibrate};
