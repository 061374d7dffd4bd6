//! x86-64 feature detection by CPUID and XGETBV, without `std`.
//!
//! Not the `cpufeatures` crate: it counts VAES and VPCLMULQDQ as AVX-512 features (it asks the
//! OS for the zmm state), so on an AVX2 CPU with VAES on ymm (AMD Zen 3) it reports neither.
//! Here each feature needs only the register state its instructions use: xmm for SSE/AES-NI,
//! ymm for AVX/AVX2/VAES/VPCLMULQDQ, zmm for AVX-512.

#![allow(unsafe_code)]

use core::arch::x86_64::{__cpuid, __cpuid_count, CpuidResult};
use core::sync::atomic::{AtomicU32, Ordering};

/// The features aeslab asks about, once, for everything that lists them (`$then` is called
/// with the list): name (as `is_x86_feature_detected!` spells it), CPUID leaf (1, or 7
/// sub-leaf 0), register, bit, and the register state the OS must save for it.
macro_rules! with_features {
    ($then:ident) => {
        $then! {
            "sse2" (1, Edx, 26, None),
            "ssse3" (1, Ecx, 9, None),
            "sse4.1" (1, Ecx, 19, None),
            "aes" (1, Ecx, 25, None),
            "pclmulqdq" (1, Ecx, 1, None),
            "avx" (1, Ecx, 28, Ymm),
            "avx2" (7, Ebx, 5, Ymm),
            "bmi2" (7, Ebx, 8, None),
            "sha" (7, Ebx, 29, None),
            "gfni" (7, Ecx, 8, None),
            "vaes" (7, Ecx, 9, Ymm),
            "vpclmulqdq" (7, Ecx, 10, Ymm),
            "avx512f" (7, Ebx, 16, Zmm),
            "avx512bw" (7, Ebx, 30, Zmm),
            "avx512vl" (7, Ebx, 31, Zmm),
        }
    };
}

/// `FEATURES`, the table detection walks, and `compiled_in`, which answers under Miri.
macro_rules! feature_table {
    ($($name:tt ($leaf:expr, $reg:ident, $bit:expr, $state:ident),)*) => {
        const FEATURES: &[(&str, u32, Reg, u32, State)] = &[$(($name, $leaf, Reg::$reg, $bit, State::$state),)*];

        /// Whether the build enables `feature` at compile time (`-C target-feature`).
        fn compiled_in(feature: &str) -> bool {
            match feature {
                $($name => cfg!(target_feature = $name),)*
                _ => false,
            }
        }
    };
}

with_features!(feature_table);

#[derive(Clone, Copy)]
enum Reg {
    Ebx,
    Ecx,
    Edx,
}

/// The register state a feature's instructions need the OS to save on a context switch.
#[derive(Clone, Copy, PartialEq)]
enum State {
    /// xmm only (always saved on x86-64).
    None,
    /// xmm and the upper halves of ymm (XCR0 bits 1 and 2).
    Ymm,
    /// ymm, the opmask registers and the zmm upper halves and registers 16–31 (XCR0 bits 5–7).
    Zmm,
}

/// Bit `i` set: `FEATURES[i]` is supported; bit 30 set: [`ZMM_AES_FULL_RATE`]; bit 29 set:
/// [`ZMM_CLMUL_APART`]; bit 31 set: detection has run.
static DETECTED: AtomicU32 = AtomicU32::new(0);
const DONE: u32 = 1 << 31;
/// An AMD core of family 0x1A or later (Zen 5 on): see [`zmm_aes_full_rate`].
const ZMM_AES_FULL_RATE: u32 = 1 << 30;
/// An Intel core: see [`zmm_clmul_apart_from_aes`].
const ZMM_CLMUL_APART: u32 = 1 << 29;
const _: () = assert!(FEATURES.len() < 29);

fn register(r: &CpuidResult, reg: Reg) -> u32 {
    match reg {
        Reg::Ebx => r.ebx,
        Reg::Ecx => r.ecx,
        Reg::Edx => r.edx,
    }
}

/// The XCR0 bits the OS enables (0 when the OS does not use XSAVE).
fn xcr0(leaf1: &CpuidResult) -> u64 {
    const OSXSAVE: u32 = 1 << 27;
    if leaf1.ecx & OSXSAVE == 0 {
        return 0;
    }
    let (lo, hi): (u32, u32);
    // SAFETY: XGETBV with ECX = 0 is defined when CPUID reports OSXSAVE (checked above: the OS
    // has set CR4.OSXSAVE); it reads XCR0 into edx:eax and touches nothing else.
    unsafe {
        core::arch::asm!("xgetbv", in("ecx") 0u32, out("eax") lo, out("edx") hi, options(nomem, nostack, preserves_flags));
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

/// Runs CPUID once and returns the bit set of `FEATURES` this CPU and OS support.
#[cold]
fn detect() -> u32 {
    // SAFETY: CPUID exists on every x86-64 CPU; leaf 7 is asked only when leaf 0 reports it.
    // (`__cpuid` is a safe function in newer Rust, `unsafe` under the MSRV.)
    #[allow(unused_unsafe)]
    let (leaf0, leaf1, leaf7) = unsafe {
        let none = CpuidResult { eax: 0, ebx: 0, ecx: 0, edx: 0 };
        let leaf0 = __cpuid(0);
        (leaf0, __cpuid(1), if leaf0.eax >= 7 { __cpuid_count(7, 0) } else { none })
    };
    let xcr0 = xcr0(&leaf1);
    let ymm = xcr0 & 0b110 == 0b110;
    let zmm = ymm && xcr0 & 0b1110_0000 == 0b1110_0000;
    let mut bits = DONE;
    for (i, &(_, leaf, reg, bit, state)) in FEATURES.iter().enumerate() {
        let words = if leaf == 1 { &leaf1 } else { &leaf7 };
        let state_ok = match state {
            State::None => true,
            State::Ymm => ymm,
            State::Zmm => zmm,
        };
        if register(words, reg) >> bit & 1 == 1 && state_ok {
            bits |= 1 << i;
        }
    }
    // The vendor string is EBX, EDX, ECX of leaf 0; the family is leaf 1's base family plus,
    // when that reads 0xF, its extended family.
    let amd = (leaf0.ebx, leaf0.edx, leaf0.ecx) == (u32::from_le_bytes(*b"Auth"), u32::from_le_bytes(*b"enti"), u32::from_le_bytes(*b"cAMD"));
    let base_family = leaf1.eax >> 8 & 0xf;
    let family = if base_family == 0xf { base_family + (leaf1.eax >> 20 & 0xff) } else { base_family };
    if amd && family >= 0x1a {
        bits |= ZMM_AES_FULL_RATE;
    }
    let intel = (leaf0.ebx, leaf0.edx, leaf0.ecx) == (u32::from_le_bytes(*b"Genu"), u32::from_le_bytes(*b"ineI"), u32::from_le_bytes(*b"ntel"));
    if intel {
        bits |= ZMM_CLMUL_APART;
    }
    DETECTED.store(bits, Ordering::Relaxed);
    bits
}

/// The detected bits, CPUID run the first time.
#[inline(always)]
fn detected_bits() -> u32 {
    let bits = DETECTED.load(Ordering::Relaxed);
    if bits & DONE == 0 { detect() } else { bits }
}

/// Whether this is an AMD core of family 0x1A or later (Zen 5 on), whose VAES on zmm runs at
/// the rate of VAES on ymm: 8 block-rounds per cycle, against 4 on Zen 4 and Intel's AVX-512
/// cores. (Under Miri, never.)
pub(super) fn zmm_aes_full_rate() -> bool {
    !cfg!(miri) && detected_bits() & ZMM_AES_FULL_RATE != 0
}

/// Whether this is an Intel core, whose zmm VPCLMULQDQ issues on a port apart from zmm VAES's
/// (see [`crate::cpu::zmm_clmul_apart_from_aes`]). (Under Miri, never.)
pub(super) fn zmm_clmul_apart_from_aes() -> bool {
    !cfg!(miri) && detected_bits() & ZMM_CLMUL_APART != 0
}

/// Whether the CPU and the OS support `feature`; names aeslab does not ask about are `false`.
/// Called with literals, so after inlining the lookup is one load and one bit test.
#[inline(always)]
pub(super) fn detected(feature: &str) -> bool {
    let Some(i) = FEATURES.iter().position(|f| f.0 == feature) else {
        return false;
    };
    // Under Miri there is no CPUID: the features the build enables are all there is.
    if cfg!(miri) {
        return compiled_in(feature);
    }
    detected_bits() >> i & 1 == 1
}

#[cfg(all(test, feature = "std"))]
mod tests {
    /// The same answers as the standard library's detection, feature by feature.
    #[test]
    fn agrees_with_std() {
        macro_rules! check {
            ($($f:tt $_row:tt,)*) => {$(
                assert_eq!(super::detected($f), std::arch::is_x86_feature_detected!($f), $f);
            )*};
        }
        with_features!(check);
        assert!(!super::detected("no-such-feature"));
    }

    /// Full-rate zmm AES only with zmm AES, and only on an AMD core of family 0x1A or later
    /// (read here through the standard library's CPUID).
    #[test]
    #[cfg_attr(miri, ignore = "Miri has no CPUID")]
    fn zmm_aes_full_rate_only_on_amd_family_1a_with_zmm_vaes() {
        // SAFETY (under the MSRV `__cpuid` is unsafe): CPUID leaves 0 and 1 exist on x86-64.
        #[allow(unused_unsafe)]
        let (leaf0, leaf1) = unsafe { (core::arch::x86_64::__cpuid(0), core::arch::x86_64::__cpuid(1)) };
        let vendor: std::vec::Vec<u8> = [leaf0.ebx, leaf0.edx, leaf0.ecx].iter().flat_map(|w| w.to_le_bytes()).collect();
        let family = (leaf1.eax >> 8 & 0xf) + if leaf1.eax >> 8 & 0xf == 0xf { leaf1.eax >> 20 & 0xff } else { 0 };
        let expect = vendor == b"AuthenticAMD" && family >= 0x1a && crate::cpu::has("vaes") && crate::cpu::has("avx512f");
        assert_eq!(crate::cpu::zmm_aes_full_rate(), expect, "{} family {family:#x}", std::string::String::from_utf8_lossy(&vendor));
    }

    /// The multiplier apart from the AES unit only with zmm VPCLMULQDQ, and only on an Intel
    /// core (read here through the standard library's CPUID).
    #[test]
    #[cfg_attr(miri, ignore = "Miri has no CPUID")]
    fn zmm_clmul_apart_only_on_intel_with_zmm_vpclmulqdq() {
        // SAFETY (under the MSRV `__cpuid` is unsafe): CPUID leaf 0 exists on x86-64.
        #[allow(unused_unsafe)]
        let leaf0 = unsafe { core::arch::x86_64::__cpuid(0) };
        let vendor: std::vec::Vec<u8> = [leaf0.ebx, leaf0.edx, leaf0.ecx].iter().flat_map(|w| w.to_le_bytes()).collect();
        let expect = vendor == b"GenuineIntel" && crate::cpu::has("vpclmulqdq") && crate::cpu::has("avx512f");
        assert_eq!(crate::cpu::zmm_clmul_apart_from_aes(), expect, "{}", std::string::String::from_utf8_lossy(&vendor));
    }
}
