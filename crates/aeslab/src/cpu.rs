//! The CPU features aeslab's backends use, as detected at run time.

/// Names (as `is_x86_feature_detected!` spells them) of the relevant features this CPU has.
pub fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
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
                if std::arch::is_aarch64_feature_detected!($f) {
                    found.push($f);
                }
            )*};
        }
        probe!("neon", "aes", "pmull", "sha2", "sha3");
    }
    found
}
