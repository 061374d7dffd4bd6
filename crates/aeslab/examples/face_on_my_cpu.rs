//! How much FACE saves on this CPU: AES-128-CTR over one long stream, without FACE and at
//! each FACE level, on every constant-time backend the CPU has.
//!
//! ```text
//! cargo run --release --example face_on_my_cpu            # 1 MiB, best of 7
//! cargo run --release --example face_on_my_cpu -- --quick # 64 KiB, best of 3
//! ```
//!
//! FACE (Park and Lee, TCHES 2018) caches what 256 consecutive counter blocks share in rounds
//! 0–2; how much that is worth depends on the backend and the CPU. A one-off wall-clock
//! figure on a shared machine moves by several percent between runs: compare the levels of one
//! run with each other, not with another run. (`aeslab bench ctr` measures in core cycles,
//! interleaved, against peers.)

use std::hint::black_box;
use std::time::Instant;

use aeslab::aes::BackendKind;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (len, runs) = if quick { (64 << 10, 3) } else { (1 << 20, 7) };
    let mut buf = vec![0u8; len];
    println!("AES-128-CTR over {} KiB, GB/s (best of {runs}):", len >> 10);
    print!("{:16}", "backend");
    for level in FaceLevel::ALL {
        print!("{:>8}", level.name());
    }
    println!("{:>12}", "rd2p gain");
    for kind in BackendKind::available_kinds().filter(|k| k.constant_time()) {
        print!("{:16}", kind.name());
        let mut rates = Vec::new();
        for level in FaceLevel::ALL {
            let mut best = f64::INFINITY;
            for _ in 0..runs {
                let mut ctr = DynCtr::new(&[7; 16], &[0; 16], kind, level, Counter::Be128).expect("available");
                // Build the table before the clock starts: this measures the steady state of a
                // long stream (a short message pays the build; see the report's crossover).
                ctr.precompute();
                let start = Instant::now();
                ctr.apply_keystream(&mut buf);
                best = best.min(start.elapsed().as_secs_f64());
                black_box(&buf);
            }
            let rate = len as f64 / best / 1e9;
            rates.push(rate);
            print!("{rate:>8.2}");
        }
        println!("{:>11.2}×", rates[rates.len() - 1] / rates[0]);
    }
}
