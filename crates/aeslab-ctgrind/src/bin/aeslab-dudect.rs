//! `aeslab-dudect`: the statistical constant-time check, for the paths valgrind cannot run.
//!
//! valgrind 3.19 executes neither VAES nor AVX-512, so `aeslab-ctgrind` cannot look at the
//! `vaes256`/`vaes512`/`bitslice-avx512` backends, the ymm/zmm GHASH or ACE's `avx512`. This
//! harness times them instead, dudect-style (`aeslab_measure::leak`): each path runs on a
//! fixed secret and on fresh random secrets in random order, and Welch's t-test compares the
//! two timing distributions. It covers every AES backend and GHASH this CPU has (not only the
//! ones valgrind misses), key set-up included, and the tag checks of GCM, AEZ and ACE-AE, where
//! a forged tag one byte away from the right one (fixed class) is compared with random tags.
//!
//! Negative control: the variable-time `table` backend must be flagged, or the test could not
//! see a leak on this machine and the run fails. Its T-table loads are cached, so timing
//! differences come from cache misses: before every timing the harness reads a buffer larger
//! than the L1 and L2 caches (twice the L2 by default, `--evict-kib`) so that each run starts with the tables out of
//! the near caches — for every path alike, which also makes secret-indexed loads in the
//! constant-time code, were there any, visible.
//!
//! Statistical, so it runs from `scripts/check-timing-leaks.sh`, not from `cargo test`.

use std::hint::black_box;
use std::process::ExitCode;

use aeslab::ace::{AceAe128, AceBackend, AceMessage, LaneStates};
use aeslab::aes::{AnyAes, BackendKind, default_backend};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel};
use aeslab::gcm::Gcm;
use aeslab::ghash::GhashImpl;
use aeslab_measure::leak::{Class, LEAK_THRESHOLD, Verdict, fixed_vs_random};
use aeslab_measure::{Clock, machine};
use clap::Parser;
use rand::RngCore;
use rand::rngs::StdRng;

#[derive(Parser)]
#[command(about = "Fixed-versus-random timing-leak test (dudect style) of every aeslab path this CPU has")]
// A later option wins: the script re-runs a failed path by appending `--only NAME --exact`.
#[command(args_override_self = true)]
struct Args {
    /// Timings per path (both classes together).
    #[arg(long, default_value_t = 100_000)]
    samples: usize,
    /// Timings for the negative control (the table backend).
    #[arg(long, default_value_t = 100_000)]
    control_samples: usize,
    /// KiB read before every timing to push the previous run's data out of the near caches
    /// (0: no eviction). Default: twice the L2 cache (4096 where its size is unknown).
    #[arg(long)]
    evict_kib: Option<usize>,
    /// Only the paths whose name contains this.
    #[arg(long)]
    only: Option<String>,
    /// With --only: the path with exactly that name.
    #[arg(long, requires = "only")]
    exact: bool,
}

/// The secret inputs of one timing, and the public ones that go with them.
struct Input {
    key: [u8; 32],
    data: [u8; DATA],
    /// GCM tags, AEZ ciphertexts: what the tag checks get.
    tag: [u8; 16],
}

/// Bytes of message per timing: a few blocks, so that per-byte work does not swamp key set-up.
const DATA: usize = 256;

impl Default for Input {
    fn default() -> Self {
        Input { key: [0; 32], data: [0; DATA], tag: [0; 16] }
    }
}

/// The fixed class's secret is all zeros: for T-table AES, a zero key and plaintext make all
/// sixteen first-round lookups hit the same entry, the most distinguishable case.
fn secrets(class: Class, rng: &mut StdRng, input: &mut Input) {
    match class {
        Class::Fixed => {
            input.key = [0; 32];
            input.data = [0; DATA];
        }
        Class::Random => {
            rng.fill_bytes(&mut input.key);
            rng.fill_bytes(&mut input.data);
        }
    }
}

const NONCE: [u8; 12] = [0x5a; 12];
const AD: &[u8] = b"associated data";

/// A path to time: its name, whether it claims constant time, and how to run it.
struct Path {
    /// What `--only` matches.
    name: String,
    what: String,
    constant_time: bool,
    measure: Box<dyn Fn(&mut Harness) -> Verdict>,
}

struct Harness {
    clock: Clock,
    samples: usize,
    evict: Vec<u8>,
}

impl Harness {
    fn run(&mut self, samples: usize, make: impl FnMut(Class, &mut StdRng, &mut Input), run: impl FnMut(&mut Input)) -> Verdict {
        let evict = &mut self.evict;
        fixed_vs_random(self.clock, samples, make, run, || {
            // One read per cache line, summed so the reads cannot be dropped.
            let mut sum = 0u8;
            for line in evict.chunks(64) {
                sum = sum.wrapping_add(line[0]);
            }
            black_box(sum);
        })
    }
}

fn aes_path(kind: BackendKind, key_len: usize) -> Path {
    Path {
        name: format!("aes-{} {kind}", key_len * 8),
        what: "key set-up, encrypt and decrypt 4 blocks".into(),
        constant_time: kind.constant_time(),
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let aes = AnyAes::new_variable_time(kind, &input.key[..key_len]).expect("available");
                let mut blocks = [[0u8; 16]; 4];
                for (b, d) in blocks.iter_mut().zip(input.data.chunks_exact(16)) {
                    b.copy_from_slice(d);
                }
                aes.encrypt_blocks(&mut blocks);
                aes.decrypt_blocks(&mut blocks);
                black_box(&blocks);
            })
        }),
    }
}

fn ctr_path(kind: BackendKind, face: FaceLevel) -> Path {
    Path {
        name: format!("ctr {kind} FACE {face}"),
        what: format!("key set-up and {DATA} bytes"),
        constant_time: kind.constant_time(),
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let mut iv = [0xf0u8; 16];
                iv[..12].copy_from_slice(&NONCE);
                let mut ctr = DynCtr::new_variable_time(&input.key[..16], &iv, kind, face, Counter::Be128).expect("available");
                ctr.apply_keystream(&mut input.data);
                black_box(&input.data);
            })
        }),
    }
}

fn gcm_seal_path(kind: BackendKind, ghash: GhashImpl) -> Path {
    Path {
        name: format!("gcm seal {kind} ghash {}", ghash.name()),
        what: format!("key set-up and {DATA} bytes"),
        constant_time: kind.constant_time(),
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let gcm = Gcm::with_options_variable_time(&input.key[..16], kind, FaceLevel::FASTEST, ghash, 16).expect("available");
                let tag = gcm.encrypt_in_place_detached(&NONCE, AD, &mut input.data).expect("short message");
                black_box(tag);
            })
        }),
    }
}

/// The inputs of a tag check: `ciphertext` with the tag `near_miss` (fixed class: the right
/// tag with its last bit flipped) or a random tag (random class). An early-exit comparison
/// would read all sixteen bytes of the first and stop at the first byte of almost every other.
fn forgeries(ciphertext: [u8; DATA], near_miss: [u8; 16]) -> impl FnMut(Class, &mut StdRng, &mut Input) {
    move |class, rng, input| {
        input.data = ciphertext;
        match class {
            Class::Fixed => input.tag = near_miss,
            Class::Random => rng.fill_bytes(&mut input.tag),
        }
    }
}

/// GCM's tag check under one fixed key: the fixed class's tag differs from the right one only
/// in its last byte (an early-exit comparison would read all sixteen), the random class's
/// tags are random (such a comparison would stop at the first byte).
fn gcm_open_path(kind: BackendKind, ghash: GhashImpl) -> Path {
    Path {
        name: format!("gcm open {kind} ghash {}", ghash.name()),
        what: format!("tag check of a forged {DATA}-byte message"),
        constant_time: kind.constant_time(),
        measure: Box::new(move |h| {
            let key = [0x42u8; 16];
            let gcm = Gcm::with_options_variable_time(&key, kind, FaceLevel::FASTEST, ghash, 16).expect("available");
            let mut ciphertext = [0x17u8; DATA];
            let mut right = gcm.encrypt_in_place_detached(&NONCE, AD, &mut ciphertext).expect("short message");
            right[15] ^= 1;
            let near_miss = right;
            h.run(
                h.samples,
                forgeries(ciphertext, near_miss),
                |input| {
                    let verdict = gcm.decrypt_in_place_detached(&NONCE, AD, &mut input.data, &input.tag);
                    black_box(verdict.is_err());
                },
            )
        }),
    }
}

fn aez_encrypt_path(kind: BackendKind) -> Path {
    Path {
        name: format!("aez encrypt {kind}"),
        what: format!("key extraction and encryption of {} bytes", DATA - 16),
        constant_time: true,
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let aez = Aez::with_backend(&input.key[..16], kind).expect("constant-time backend");
                aez.encrypt_in_place(&NONCE, &[AD], 16, &mut input.data).expect("tau = 16");
                black_box(&input.data);
            })
        }),
    }
}

/// AEZ's check (the deciphered tail must be τ zero bytes) on forged ciphertexts under one
/// fixed key: one fixed forgery against random ones.
fn aez_decrypt_path(kind: BackendKind) -> Path {
    Path {
        name: format!("aez decrypt {kind}"),
        what: format!("decryption and check of a forged {DATA}-byte ciphertext"),
        constant_time: true,
        measure: Box::new(move |h| {
            let aez = Aez::with_backend(&[0x42; 16], kind).expect("constant-time backend");
            h.run(
                h.samples,
                |class, rng, input| match class {
                    Class::Fixed => input.data = [0x17; DATA],
                    Class::Random => rng.fill_bytes(&mut input.data),
                },
                |input| {
                    let verdict = aez.decrypt_in_place(&NONCE, &[AD], 16, &mut input.data);
                    black_box(verdict.is_err());
                },
            )
        }),
    }
}

fn ace_permutation_path(backend: AceBackend) -> Path {
    Path {
        name: format!("ace permutation {}", backend.name()),
        what: format!("{} states", backend.lanes()),
        constant_time: true,
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let mut states = LaneStates::default();
                for lane in 0..backend.lanes() {
                    let at = (lane * 40) % (DATA - 40);
                    states.set(lane, input.data[at..at + 40].try_into().expect("40 bytes"));
                }
                backend.permute(&mut states).expect("available");
                black_box(states.get(0));
            })
        }),
    }
}

fn ace_seal_path(backend: AceBackend) -> Path {
    Path {
        name: format!("ace-ae-128 seal {}", backend.name()),
        what: format!("key set-up and {DATA} bytes"),
        constant_time: true,
        measure: Box::new(move |h| {
            h.run(h.samples, secrets, |input| {
                let ace = AceAe128::with_backend(input.key[..16].try_into().expect("16 bytes"), backend).expect("available");
                let mut message = AceMessage { nonce: [7; 16], ad: AD, buffer: &mut input.data, tag: [0; 16] };
                ace.seal_many(std::slice::from_mut(&mut message));
                black_box(message.tag);
            })
        }),
    }
}

/// ACE-AE-128's tag check: a forged tag one bit from the right one against random tags.
fn ace_open_path(backend: AceBackend) -> Path {
    Path {
        name: format!("ace-ae-128 open {}", backend.name()),
        what: format!("tag check of a forged {DATA}-byte message"),
        constant_time: true,
        measure: Box::new(move |h| {
            let ace = AceAe128::with_backend(&[0x42; 16], backend).expect("available");
            let mut ciphertext = [0x17u8; DATA];
            let mut message = AceMessage { nonce: [7; 16], ad: AD, buffer: &mut ciphertext, tag: [0; 16] };
            ace.seal_many(std::slice::from_mut(&mut message));
            let mut near_miss = message.tag;
            near_miss[15] ^= 1;
            h.run(
                h.samples,
                forgeries(ciphertext, near_miss),
                |input| {
                    let mut message = AceMessage { nonce: [7; 16], ad: AD, buffer: &mut input.data, tag: input.tag };
                    let verdict = ace.open_many(std::slice::from_mut(&mut message));
                    black_box(verdict[0].is_err());
                },
            )
        }),
    }
}

/// Every path this CPU can run; the table backend's block cipher is the negative control.
fn paths() -> (Vec<Path>, Vec<String>) {
    let mut paths = Vec::new();
    let mut skipped = Vec::new();
    for kind in BackendKind::ALL.iter().copied() {
        if !kind.available() {
            skipped.push(format!("{kind} (needs {})", kind.requires()));
            continue;
        }
        paths.push(aes_path(kind, 16));
        if !kind.constant_time() {
            continue;
        }
        paths.push(aes_path(kind, 32));
        for face in [FaceLevel::None, FaceLevel::FASTEST] {
            paths.push(ctr_path(kind, face));
        }
        paths.push(gcm_seal_path(kind, GhashImpl::fastest()));
        paths.push(aez_encrypt_path(kind));
    }
    let default = default_backend();
    for ghash in GhashImpl::ALL {
        if !ghash.available() {
            skipped.push(format!("ghash {} (needs {})", ghash.name(), ghash.requires()));
            continue;
        }
        if ghash != GhashImpl::fastest() {
            paths.push(gcm_seal_path(default, ghash));
        }
        paths.push(gcm_open_path(default, ghash));
    }
    paths.push(aez_decrypt_path(default));
    for backend in AceBackend::ALL {
        if !backend.available() {
            skipped.push(format!("ace {} (needs {})", backend.name(), backend.requires()));
            continue;
        }
        paths.push(ace_permutation_path(backend));
        paths.push(ace_seal_path(backend));
        paths.push(ace_open_path(backend));
    }
    (paths, skipped)
}

fn describe(v: &Verdict) -> String {
    if v.compared == 0 {
        return format!("too few timings to compare ({} + {})", v.samples[0], v.samples[1]);
    }
    let crop = match v.cropped_at {
        None => "raw timings".to_string(),
        Some(q) => format!("cropped at the {:.1}th percentile", 100.0 * q),
    };
    format!(
        "max |t| {:.2} ({crop}; {} + {} timings; mean difference {:+.1} ticks)",
        v.t.abs(),
        v.samples[0],
        v.samples[1],
        v.mean_difference
    )
}

fn main() -> ExitCode {
    let args = Args::parse();
    let evict_kib = args.evict_kib.unwrap_or_else(|| machine::cache_size(2).map_or(4096, |l2| 2 * l2 / 1024));
    // One core throughout: a migration would change the caches under the measurement.
    let _pinned = machine::pin_to_current_cpu();
    let mut harness = Harness { clock: Clock::native(), samples: args.samples, evict: vec![1u8; evict_kib * 1024] };
    println!(
        "fixed vs random secrets, Welch's t, leak when |t| > {LEAK_THRESHOLD}; {} timings per path, \
         {} for the control; {} KiB read before each timing; clock {}",
        args.samples,
        args.control_samples,
        evict_kib,
        harness.clock.name()
    );
    let (paths, skipped) = paths();
    let mut leaks = 0;
    let mut control = None;
    let chosen = |p: &&Path| match &args.only {
        None => true,
        Some(o) if args.exact => p.name == *o,
        Some(o) => p.name.contains(o.as_str()),
    };
    for path in paths.iter().filter(chosen) {
        if !path.constant_time {
            harness.samples = args.control_samples;
        }
        let verdict = (path.measure)(&mut harness);
        harness.samples = args.samples;
        let line = format!("{} — {}", path.what, describe(&verdict));
        match (path.constant_time, verdict.leaks()) {
            (true, false) => println!("ok       {}: {line}", path.name),
            (true, true) => {
                println!("LEAKS    {}: {line}", path.name);
                leaks += 1;
            }
            (false, true) => {
                println!("flagged  {}: {line} (variable time, as expected)", path.name);
                control = Some(true);
            }
            (false, false) => {
                println!("NOT FLAGGED {}: {line} (negative control)", path.name);
                control = Some(false);
            }
        }
    }
    if !skipped.is_empty() {
        println!("not on this CPU: {}", skipped.join(", "));
    }
    match control {
        Some(true) => println!("negative control: table flagged"),
        Some(false) => println!("negative control: table NOT flagged — this run could not see a cache-timing leak"),
        None => println!("negative control: not run (filtered out)"),
    }
    if leaks == 0 && control != Some(false) {
        println!("timing-leak check passed");
        ExitCode::SUCCESS
    } else {
        println!("timing-leak check FAILED: {leaks} leaking path(s)");
        ExitCode::FAILURE
    }
}
