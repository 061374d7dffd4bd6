//! The CPU features aeslab's backends use, as detected at run time.
//!
//! Detection needs no `std`: on x86-64, CPUID and XGETBV (the OS's support of the AVX and
//! AVX-512 register state) directly (`x86.rs`); on aarch64, the `cpufeatures` crate (the
//! kernel's hardware capabilities on Linux and Android, `sysctl` on Apple).
//!
//! With the `std` feature, `AESLAB_CPU_MASK` (comma-separated feature names, as `is_x86_feature_detected!` spells
//! them, e.g. `vaes,avx512f`) makes aeslab treat those features as absent, as OpenSSL's
//! `OPENSSL_ia32cap` does: to measure or test as on a CPU without them. Masking only ever
//! removes backends, so it cannot make an unsupported instruction run.
//!
//! Masking a feature also masks every feature that implies it, because no CPU has those without
//! it and because the compiler assumes the same: code compiled with
//! `#[target_feature(enable = "avx512f")]` may use AVX2 instructions, so `AESLAB_CPU_MASK=avx2`
//! must take away the AVX-512 paths too. [`IMPLIES`] is Rust's own implication table for the
//! features aeslab looks at.

#![deny(unsafe_code)]

use core::sync::atomic::{AtomicU8, Ordering};

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
#[cfg(feature = "std")]
use {alloc::string::String, std::sync::OnceLock};

// x86-64: CPUID directly (see `x86.rs` for why not `cpufeatures`).
#[cfg(target_arch = "x86_64")]
mod x86;
#[cfg(target_arch = "x86_64")]
use x86 as probe;

#[cfg(target_arch = "aarch64")]
mod probe {
    // `cpufeatures` reports AES and PMULL together as "aes" (Linux's HWCAP_AES | HWCAP_PMULL).
    cpufeatures::new!(aes, "aes");
    cpufeatures::new!(sha2, "sha2");
    cpufeatures::new!(sha3, "sha3");

    /// Whether the CPU supports `feature` (as `is_aarch64_feature_detected!` spells it); names
    /// not listed here are `false`.
    #[inline(always)]
    pub(super) fn detected(feature: &str) -> bool {
        match feature {
            "neon" => cfg!(target_feature = "neon"),
            "aes" | "pmull" => aes::get(),
            "sha2" => sha2::get(),
            "sha3" => sha3::get(),
            _ => false,
        }
    }
}

/// Whether this CPU has `feature` (named as `is_x86_feature_detected!` /
/// `is_aarch64_feature_detected!` spell it: `"aes"`, `"vaes"`, `"avx512f"`, `"pmull"`, …) and
/// [`masked`] does not hide it. Features aeslab does not look at are reported absent; so is
/// every feature on architectures without run-time detection.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
pub fn has(feature: &str) -> bool {
    probe::detected(feature) && !masked(feature)
}

/// Whether this CPU has `feature`: never, on an architecture aeslab detects nothing on.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn has(_feature: &str) -> bool {
    false
}

/// Whether VAES on zmm registers runs at the instruction rate of VAES on ymm, so that a zmm
/// kernel makes twice the block-rounds per cycle: on AMD Zen 5 and later (family 0x1A on),
/// 8 block-rounds per cycle against 4 on ymm. Zen 4 and Intel's AVX-512 cores run one zmm
/// VAES where they run two on ymm, 4 block-rounds per cycle either way. No CPUID bit says
/// which; the vendor and family do, and cores not known to run zmm at full rate are taken not
/// to. FACE's thresholds depend on it: a round saved is worth half as much there
/// ([`crate::ctr::face_pays_from_blocks`], [`crate::gcm::face_pays_from_blocks`]). `false`
/// when VAES or AVX-512 is absent or masked, and on other architectures.
///
/// Found once and kept (see `Found`): a stream asks at every call of 16 blocks or more.
#[inline]
pub fn zmm_aes_full_rate() -> bool {
    fn find() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            x86::zmm_aes_full_rate() && has("vaes") && has("avx512f")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }
    static FOUND: Found = Found::new();
    FOUND.get(find)
}

/// A yes-or-no question about this CPU, answered on the first call and kept in an atomic byte
/// (0: not yet asked, 1: yes, 2: no), so that later calls are one load and one compare; the
/// first call's look-up is out of line. Every ISA token's detection keeps its answer in one
/// (`simd::isa!`), and so do [`zmm_aes_full_rate`] and [`zmm_clmul_apart_from_aes`]. [`has`]
/// looks its features up on every call: the detected bits, then `AESLAB_CPU_MASK`'s list
/// behind a `OnceLock`. Asked that way at every
/// stream call of 16 blocks or more ([`crate::ctr::face_min_call_blocks`]), it made 256-byte
/// calls with FACE asked for (the default) 13–19% slower than without (`vaes512`, Zen 5,
/// 2026-11-29). The answers cannot change while the process runs: the detection is fixed, and
/// the mask is read once.
pub(crate) struct Found(AtomicU8);

impl Found {
    pub(crate) const fn new() -> Found {
        Found(AtomicU8::new(0))
    }

    #[inline(always)]
    pub(crate) fn get(&self, find: fn() -> bool) -> bool {
        match self.0.load(Ordering::Relaxed) {
            0 => self.first(find),
            v => v == 1,
        }
    }

    #[cold]
    #[inline(never)]
    fn first(&self, find: fn() -> bool) -> bool {
        let yes = find();
        self.0.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
        yes
    }
}

/// Whether zmm VPCLMULQDQ issues at one per cycle on a port apart from zmm VAES's, so that
/// a stitched GCM loop can trade other work for carry-less multiplies: on Intel's AVX-512
/// cores, whose port 0 runs VAES and port 5 the multiplies and the shuffles (XORs go to
/// either). On AMD the multiplier is what such a loop waits for (Zen 3 and Zen 4 take one
/// VPCLMULQDQ every other cycle, in pipes the AES rounds share; Zen 5's zmm AES-128-GCM loop
/// is bound by it too, see [`crate::gcm::face_pays_from_blocks`]). No CPUID bit says which;
/// the vendor does, and other cores are taken not to. `false` when VPCLMULQDQ or AVX-512 is
/// absent or masked, and on other architectures.
///
/// Found once and kept (see `Found`).
#[inline]
pub fn zmm_clmul_apart_from_aes() -> bool {
    fn find() -> bool {
        zmm_clmul_apart_given_zmm_clmul() && has("vpclmulqdq") && has("avx512f")
    }
    static FOUND: Found = Found::new();
    FOUND.get(find)
}

/// [`zmm_clmul_apart_from_aes`] for a caller that holds zmm VPCLMULQDQ already (a GHASH key
/// made for it): the vendor's part alone, without the features' and the mask's look-ups.
#[inline]
pub(crate) fn zmm_clmul_apart_given_zmm_clmul() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        x86::zmm_clmul_apart_from_aes()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Feature → the features it implies (directly), as rustc's `#[target_feature]` treats them.
#[cfg(target_arch = "x86_64")]
pub const IMPLIES: &[(&str, &[&str])] = &[
    ("sse3", &["sse2"]),
    ("ssse3", &["sse3"]),
    ("sse4.1", &["ssse3"]),
    ("sse4.2", &["sse4.1"]),
    ("avx", &["sse4.2"]),
    ("avx2", &["avx"]),
    ("fma", &["avx"]),
    ("f16c", &["avx"]),
    ("avx512f", &["avx2", "fma", "f16c"]),
    ("avx512bw", &["avx512f"]),
    ("avx512vl", &["avx512f"]),
    ("aes", &["sse2"]),
    ("pclmulqdq", &["sse2"]),
    ("vaes", &["avx2", "aes"]),
    ("vpclmulqdq", &["avx", "pclmulqdq"]),
    ("gfni", &["sse2"]),
    ("sha", &["sse2"]),
];

/// Feature → the features it implies (directly).
#[cfg(target_arch = "aarch64")]
pub const IMPLIES: &[(&str, &[&str])] = &[("aes", &["neon"]), ("pmull", &["neon"]), ("sha2", &["neon"]), ("sha3", &["sha2"])];

/// Feature → the features it implies (none: no feature is detected on this architecture).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub const IMPLIES: &[(&str, &[&str])] = &[];

/// The names `AESLAB_CPU_MASK` lists, lower-cased.
#[cfg(feature = "std")]
fn mask_list() -> Vec<String> {
    std::env::var("AESLAB_CPU_MASK")
        .unwrap_or_default()
        .split(',')
        .map(|f| f.trim().to_ascii_lowercase())
        .filter(|f| !f.is_empty())
        .collect()
}

/// Whether `feature` is masked: named in `AESLAB_CPU_MASK`, or implying (through [`IMPLIES`])
/// a feature that is. The mask is read and closed over the implications once. (Without the
/// `std` feature there is no environment to read, and nothing is masked.)
#[cfg(not(feature = "std"))]
pub fn masked(_feature: &str) -> bool {
    false
}

/// Whether `feature` is masked: named in `AESLAB_CPU_MASK`, or implying (through [`IMPLIES`])
/// a feature that is. The mask is read and closed over the implications once.
#[cfg(feature = "std")]
pub fn masked(feature: &str) -> bool {
    static MASKED: OnceLock<Vec<String>> = OnceLock::new();
    let closed = MASKED.get_or_init(|| {
        let mut out = mask_list();
        // Everything the table says implies a masked feature; names it does not know (`sse2`,
        // `pmull`, …) stay masked as named.
        for (f, _) in IMPLIES {
            if masked_by(f, &out) && !out.iter().any(|m| m == f) {
                out.push(String::from(*f));
            }
        }
        out
    });
    closed.iter().any(|m| m == feature)
}

#[cfg(feature = "std")]
fn masked_by(feature: &str, mask: &[String]) -> bool {
    mask.iter().any(|m| m == feature)
        || IMPLIES.iter().filter(|(f, _)| *f == feature).flat_map(|(_, implied)| implied.iter()).any(|i| masked_by(i, mask))
}

/// Every named feature detected, minus the features `AESLAB_CPU_MASK` masks.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_has {
    ($($f:tt),+) => { $($crate::cpu::has($f))&&+ };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_has;

/// Names (as `is_x86_feature_detected!` spells them) of the relevant features this CPU has.
/// (Without the `alloc` feature, ask for each with [`has`].)
#[cfg(feature = "alloc")]
pub fn features() -> Vec<&'static str> {
    // Nothing is pushed on architectures with no detection.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(unused_mut))]
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if has($f) {
                    found.push($f);
                }
            )*};
        }
        probe!(
            "sse2", "ssse3", "sse4.1", "aes", "pclmulqdq", "avx", "avx2", "bmi2", "sha", "gfni",
            "vaes", "vpclmulqdq", "avx512f", "avx512bw", "avx512vl"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if has($f) {
                    found.push($f);
                }
            )*};
        }
        probe!("neon", "aes", "pmull", "sha2", "sha3");
    }
    found
}

// The mask exists with `std`; the implication table checked here is x86-64's.
#[cfg(all(test, feature = "std", target_arch = "x86_64"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn mask(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn masking_a_feature_masks_what_implies_it() {
        let avx2 = mask(&["avx2"]);
        for f in ["avx2", "avx512f", "avx512bw", "avx512vl", "vaes"] {
            assert!(masked_by(f, &avx2), "{f} survives masking avx2");
        }
        for f in ["avx", "aes", "pclmulqdq", "ssse3", "vpclmulqdq", "sha"] {
            assert!(!masked_by(f, &avx2), "{f} masked with avx2");
        }
        // AES-NI and PCLMULQDQ take their vector forms with them.
        assert!(masked_by("vaes", &mask(&["aes"])) && masked_by("vpclmulqdq", &mask(&["pclmulqdq"])));
        // SSSE3 takes everything above it.
        let ssse3 = mask(&["ssse3"]);
        for f in ["sse4.1", "avx", "avx2", "avx512f", "vaes", "vpclmulqdq"] {
            assert!(masked_by(f, &ssse3), "{f} survives masking ssse3");
        }
        assert!(!masked_by("aes", &ssse3) && !masked_by("sse2", &ssse3));
        assert!(!masked_by("avx2", &mask(&[])));
    }

    /// A kept answer is the first look-up's, and the look-up runs once.
    #[test]
    fn found_asks_once() {
        use core::sync::atomic::AtomicUsize;
        static ASKED: AtomicUsize = AtomicUsize::new(0);
        fn no() -> bool {
            ASKED.fetch_add(1, Ordering::Relaxed);
            false
        }
        let found = Found::new();
        assert!(!found.get(no) && !found.get(no) && !found.get(no));
        assert_eq!(ASKED.load(Ordering::Relaxed), 1);
        let yes = Found::new();
        assert!(yes.get(|| true) && yes.get(|| false), "the first answer is kept");
    }
}
