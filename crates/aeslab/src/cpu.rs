//! The CPU features aeslab's backends use, as detected at run time.
//!
//! `AESLAB_CPU_MASK` (comma-separated feature names, as `is_x86_feature_detected!` spells
//! them, e.g. `vaes,avx512f`) makes aeslab treat those features as absent, as OpenSSL's
//! `OPENSSL_ia32cap` does: to measure or test as on a CPU without them. Masking only ever
//! removes backends, so it cannot make an unsupported instruction run.

use std::sync::OnceLock;

/// Whether `AESLAB_CPU_MASK` names `feature`.
pub fn masked(feature: &str) -> bool {
    static MASK: OnceLock<Vec<String>> = OnceLock::new();
    MASK.get_or_init(|| {
        std::env::var("AESLAB_CPU_MASK")
            .unwrap_or_default()
            .split(',')
            .map(|f| f.trim().to_ascii_lowercase())
            .filter(|f| !f.is_empty())
            .collect()
    })
    .iter()
    .any(|m| m == feature)
}

/// `is_x86_feature_detected!`, minus the features `AESLAB_CPU_MASK` names.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_has {
    ($($f:tt),+) => { $(std::arch::is_x86_feature_detected!($f) && !$crate::cpu::masked($f))&&+ };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use x86_has;

/// Names (as `is_x86_feature_detected!` spells them) of the relevant features this CPU has.
pub fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) && !masked($f) {
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
                if std::arch::is_aarch64_feature_detected!($f) && !masked($f) {
                    found.push($f);
                }
            )*};
        }
        probe!("neon", "aes", "pmull", "sha2", "sha3");
    }
    found
}
