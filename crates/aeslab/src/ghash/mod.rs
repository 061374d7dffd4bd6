//! GHASH (SP 800-38D §6.4), a universal hash over GF(2^128): portable constant-time code
//! (`portable.rs`), or carry-less multiplies through one aggregated-reduction body
//! (`clmul.rs`) on PCLMULQDQ/VPCLMULQDQ at xmm, ymm or zmm (`x86.rs`) or ARMv8 PMULL
//! (`aarch64.rs`). Nothing here knows AES: GCM (`gcm`) brings the key H and the ciphertext.

#![deny(unsafe_code)]

#[cfg(target_arch = "aarch64")]
mod aarch64;
// The generic carry-less code; its power tables and products are used only where an
// architecture has a carry-less multiplier to instantiate them with.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) mod clmul;
mod portable;
mod table;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(target_arch = "aarch64")]
use aarch64::Carryless;
#[cfg(target_arch = "x86_64")]
use x86::Carryless;

use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU8, Ordering};

use zeroize::Zeroize;

use crate::Block;
pub(crate) use clmul::{ClmulIsa, ClmulReg};
pub(crate) use table::{Powers, Spare};
use table::{HALF, PowerTable};

/// How GHASH multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GhashImpl {
    /// Portable, constant time (integer multiplications on thinned operands).
    Portable,
    /// PCLMULQDQ on xmm registers, 8 blocks aggregated.
    Pclmul,
    /// VPCLMULQDQ on ymm registers, 16 blocks aggregated.
    Vpclmul256,
    /// VPCLMULQDQ on zmm registers, 32 blocks aggregated.
    Vpclmul512,
    /// ARMv8 PMULL on NEON registers, 8 blocks aggregated.
    Pmull,
}

impl GhashImpl {
    /// Every implementation, available or not.
    pub const ALL: [GhashImpl; 5] =
        [GhashImpl::Portable, GhashImpl::Pclmul, GhashImpl::Vpclmul256, GhashImpl::Vpclmul512, GhashImpl::Pmull];

    /// Its name, as `--ghash` takes it.
    pub fn name(self) -> &'static str {
        match self {
            GhashImpl::Portable => "portable",
            GhashImpl::Pclmul => "pclmul",
            GhashImpl::Vpclmul256 => "vpclmul256",
            GhashImpl::Vpclmul512 => "vpclmul512",
            GhashImpl::Pmull => "pmull",
        }
    }

    /// The CPU features it needs.
    pub fn requires(self) -> &'static str {
        match self {
            GhashImpl::Portable => "",
            GhashImpl::Pclmul => "pclmulqdq, ssse3",
            GhashImpl::Vpclmul256 => "vpclmulqdq, avx2",
            GhashImpl::Vpclmul512 => "vpclmulqdq, avx512f, avx512bw",
            GhashImpl::Pmull => "aarch64 pmull",
        }
    }

    /// How many powers of H its key holds: a group of 8 registers of blocks, one power per
    /// block (none for the portable code, which multiplies by H alone).
    fn powers_used(self) -> usize {
        match self {
            GhashImpl::Portable => 0,
            GhashImpl::Pclmul | GhashImpl::Pmull => clmul::GROUP,
            GhashImpl::Vpclmul256 => 2 * clmul::GROUP,
            GhashImpl::Vpclmul512 => 4 * clmul::GROUP,
        }
    }

    /// Whether its key makes the powers above H^16 only when a message first reads them
    /// (`table.rs`): zmm's, the one width whose groups read past them.
    fn upper_powers_later(self) -> bool {
        self.powers_used() > HALF
    }

    /// Whether this CPU can run it.
    pub fn available(self) -> bool {
        self == GhashImpl::Portable || carryless(self).is_some()
    }

    /// It with its token, if this CPU can run it: what [`GhashKey::new`] takes. Inlined, as
    /// every AES-GCM key set-up asks (a few loads and tests of the detected features).
    #[inline]
    pub(crate) fn check(self) -> Option<Available> {
        let clmul = match self {
            GhashImpl::Portable => None,
            _ => Some(carryless(self)?),
        };
        Some(Available { imp: self, clmul })
    }

    /// The fastest this CPU has. Found once (every AES-GCM key asks): its index in
    /// [`GhashImpl::ALL`] in an atomic byte, as for the default AES backend.
    #[inline]
    pub fn fastest() -> GhashImpl {
        const UNKNOWN: u8 = u8::MAX;
        static FASTEST: AtomicU8 = AtomicU8::new(UNKNOWN);
        /// The first look-up: which is the fastest, stored for the next ones.
        #[cold]
        fn find(fastest_index: &AtomicU8) -> GhashImpl {
            let fastest = [GhashImpl::Pmull, GhashImpl::Vpclmul512, GhashImpl::Vpclmul256, GhashImpl::Pclmul]
                .into_iter()
                .find(|g| g.available())
                .unwrap_or(GhashImpl::Portable);
            let index = GhashImpl::ALL.iter().position(|g| *g == fastest).expect("every GHASH is in ALL");
            fastest_index.store(index as u8, Ordering::Relaxed);
            fastest
        }
        match FASTEST.load(Ordering::Relaxed) {
            UNKNOWN => find(&FASTEST),
            index => GhashImpl::ALL[usize::from(index)],
        }
    }
}

/// A GHASH implementation this CPU has, with its token (none for the portable code).
///
/// Two bytes, which the compiler puts together in one register. With a third, whether a
/// stitched loop runs the schoolbook, `Aes128Gcm::new` wrote it to the stack as a byte and a
/// word and copied it into the key kernel's arguments as one load that spans the two stores,
/// which waits until both reach the cache (40–50% of the samples of `new` outside its kernel,
/// Zen 4, 2026-12-02). That one is [`Available::stitched_schoolbook`], looked up where needed.
/// After: `new`'s own share of a key set-up's samples 17.5% → 8.6% (the kernel's the rest);
/// `bench gcm`'s key set-up over five alternated rounds, medians 0.93× (AES-128) and 0.98×
/// (AES-256) the time before, inside the machine's spread that day.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Available {
    imp: GhashImpl,
    clmul: Option<Carryless>,
}

impl Available {
    /// Which GHASH it is.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))] // For the stitched key set-up.
    pub(crate) fn imp(self) -> GhashImpl {
        self.imp
    }

    /// [`GhashKey::stitched_schoolbook`] for a key made on it: whether a stitched GCM loop
    /// beside it multiplies by the schoolbook, on zmm where the multiplier has issue slots to
    /// spare ([`crate::cpu::zmm_clmul_apart_from_aes`]). Looked up before any kernel is
    /// entered: AES-GCM's key set-up kernel called the look-up (not inlined) between the AES
    /// schedule and the powers, which cleared the upper halves of the registers (VZEROUPPER)
    /// and put the round keys and H through the stack around the call.
    #[inline]
    pub(crate) fn stitched_schoolbook(self) -> bool {
        self.imp == GhashImpl::Vpclmul512 && crate::cpu::zmm_clmul_apart_given_zmm_clmul()
    }
}

/// The powers of H that `clmul` uses (none without one), from H·x^-1 (`h1`), by value.
///
/// Never inlined, and each arm is the array itself (a kernel's result), with nothing around
/// it: as a call, each arm then writes straight into the caller's field (the return slot);
/// inlined, or wrapped, the arms' results met in one temporary that was then copied. And
/// `extern "C"`, which cannot unwind (a panic inside would abort; there is none): a call that
/// may unwind must leave its caller's object unwritten, so the compiler made the powers in a
/// temporary and copied them (512 bytes through `memcpy`, a tenth of `Aes128Gcm::new` on
/// Zen 3; gone with `panic = "abort"`).
#[inline(never)]
#[allow(improper_ctypes_definitions)] // Called from Rust only: the ABI is for `nounwind`.
extern "C" fn powers(clmul: Option<Carryless>, h1: u128) -> [Block; POWERS] {
    match clmul {
        Some(clmul) => clmul.powers(h1),
        None => [[0u8; 16]; POWERS],
    }
}

/// The carry-less token for `imp`, where this architecture and CPU have one.
#[inline]
fn carryless(imp: GhashImpl) -> Option<Carryless> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    return Carryless::detect(imp);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = imp;
        None
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[derive(Clone, Copy, Debug)]
enum Carryless {}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
impl Carryless {
    fn update(self, _powers: &[Block], _acc: &mut Block, _blocks: &[Block]) {
        match self {}
    }
    fn powers(self, _h1: u128) -> [Block; POWERS] {
        match self {}
    }
    // `unsafe` for the signature the other architectures' tokens have (this type has no value).
    #[allow(unsafe_code)]
    unsafe fn upper_powers(self, _table: *mut Block) {
        match self {}
    }
}

/// `p·x^-1` in GCM's field, on the spec's integers (bit 127 is the coefficient of x^0): a
/// shift by one toward x^0, and when `p` had an x^0 term, `(p + g)/x` instead, whose
/// coefficients x^127, x^6, x, 1 are the constant. The carry-less code stores its powers of H
/// this way (see `clmul.rs`). Branch-free: the mask comes from the bit itself.
fn times_inverse_x(p: u128) -> u128 {
    let carry = (p >> 127).wrapping_neg();
    (p << 1) ^ (carry & 0xc200_0000_0000_0000_0000_0000_0000_0001)
}

/// Powers of H kept for the carry-less code: H^32 … H^1, enough for the widest group.
pub(crate) const POWERS: usize = 32;

/// A GHASH key: H and, for the carry-less implementations, H^32 … H^1 (each times x^-1)
/// ready to load, with the token that runs them. Immutable once made, but for zmm's upper
/// powers, made once by the first message that reads them (`table.rs`); wiped on drop.
///
/// The powers come first and the key is aligned to 64 bytes, so a zmm register of them (a
/// stitched AES-GCM loop loads eight every group) never spans two cache lines, wherever the
/// caller keeps the key (see [`crate::simd::RegisterSpace`] for the same on the stack).
#[derive(Clone)]
#[repr(C, align(64))]
pub(crate) struct GhashKey {
    powers: PowerTable,
    h: u128,
    imp: GhashImpl,
    clmul: Option<Carryless>,
    /// A stitched GCM loop multiplies its groups by the schoolbook rather than by Karatsuba:
    /// on zmm where the multiplier has issue slots to spare
    /// ([`crate::cpu::zmm_clmul_apart_from_aes`]).
    stitched_schoolbook: bool,
}

impl Drop for GhashKey {
    fn drop(&mut self) {
        self.h.zeroize();
        // Only the powers this width wrote: the slots before them were never anything but zero
        // (half the stores for ymm, a quarter for xmm).
        let used = self.imp.powers_used();
        crate::ct::wipe(self.powers.get_mut()[POWERS - used..].as_flattened_mut());
        // And the paired powers, which only zmm's key makes (with its upper half).
        if self.imp.upper_powers_later() {
            crate::ct::wipe(self.powers.paired_mut().as_flattened_mut());
        }
    }
}

impl GhashKey {
    /// The key for `h` on a GHASH this CPU has (not in an `Option`: the check is
    /// [`GhashImpl::check`]'s): H^k at index POWERS − k, as many as the width's groups use (the
    /// rest are zero and never read), by the carry-less multiply itself.
    ///
    /// One struct expression, with the powers returned by value from their kernel, so that a
    /// caller's struct expression (AES-GCM's key object) takes it in place. The powers are
    /// most of an AES-GCM key's bytes: made in a temporary and moved into the key object they
    /// were copied twice, and filled in after the key object was returned the object was
    /// copied whole (832 bytes through `memcpy` in a user's crate, and a quarter of
    /// `Aes128Gcm::new`'s samples in a perf profile on Zen 3).
    #[inline(always)]
    pub(crate) fn new(h: &Block, imp: Available) -> GhashKey {
        let h = u128::from_be_bytes(*h);
        GhashKey {
            h,
            powers: PowerTable::new(powers(imp.clmul, times_inverse_x(h)), !imp.imp.upper_powers_later()),
            imp: imp.imp,
            clmul: imp.clmul,
            stitched_schoolbook: imp.stitched_schoolbook(),
        }
    }

    pub(crate) fn imp(&self) -> GhashImpl {
        self.imp
    }

    /// Whether a stitched GCM loop multiplies its groups by the schoolbook (`gcm::insn`).
    pub(crate) fn stitched_schoolbook(&self) -> bool {
        self.stitched_schoolbook
    }

    /// The other product form than this CPU's, for tests that run both on every machine.
    #[cfg(all(test, target_arch = "x86_64"))]
    pub(crate) fn set_stitched_schoolbook(&mut self, on: bool) {
        self.stitched_schoolbook = on;
    }

    /// The powers (times x^-1) that GHASH over at most `blocks` blocks at a time reads, as the
    /// carry-less code loads them, H^n … H^1 with H^1 last: H^16 … H^1 up to 16 blocks (only
    /// the last 8 × LANES of the width in use are filled), H^32 … H^1 beyond (zmm's groups
    /// read them all; its upper half is made the first time, see `table.rs`). `spare` holds
    /// them instead while another thread is making the key's.
    #[inline(always)]
    pub(crate) fn powers_for<'a>(&'a self, blocks: usize, spare: &'a mut Spare<'_>) -> Powers<'a> {
        match self.clmul {
            Some(clmul) if blocks > HALF && self.imp.upper_powers_later() => self.powers.full(clmul, spare),
            _ => self.powers.lower(),
        }
    }

    /// Whether zmm's upper powers are made (a test's view).
    #[cfg(test)]
    pub(crate) fn upper_powers_made(&self) -> bool {
        self.powers.is_ready()
    }

    /// A test's view of another thread making zmm's upper powers right now (for `gcm`'s tests,
    /// which run where zmm can).
    #[cfg(all(test, feature = "std", target_arch = "x86_64"))]
    pub(crate) fn pretend_upper_powers_claimed(&self) {
        self.powers.pretend_claimed();
    }

    /// `acc` absorbs whole blocks.
    pub(crate) fn update_blocks(&self, acc: &mut u128, blocks: &[Block]) {
        self.update(acc, blocks.as_flattened());
    }

    /// `acc` absorbs `data`, zero-padded to whole blocks.
    pub(crate) fn update(&self, acc: &mut u128, data: &[u8]) {
        let Some(clmul) = self.clmul else {
            return portable::update_portable(self.h, acc, data);
        };
        let (blocks, tail) = data.as_chunks::<16>();
        let mut room = MaybeUninit::uninit();
        let mut spare = Spare::new(&mut room);
        // The powers the kernel reads: a whole group's when there is one, else one per block.
        let used = self.imp.powers_used();
        let read = if blocks.len() >= used { used } else { blocks.len().max(1) };
        let powers = self.powers_for(blocks.len(), &mut spare).last(read);
        let mut a = acc.to_le_bytes();
        clmul.update(powers, &mut a, blocks);
        if !tail.is_empty() {
            let mut last: Block = [0; 16];
            last[..tail.len()].copy_from_slice(tail);
            clmul.update(powers, &mut a, &[last]);
        }
        *acc = u128::from_le_bytes(a);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Each carry-less width's key holds exactly H^k·x^-1 at `POWERS − k` for the k its groups
    /// use, and zeros before them (what the drop's partial wipe relies on), on an H with bits
    /// at both ends so that every power needs its reduction. zmm's key holds H^16 … H^1 until
    /// a call reads more, and then all 32 and the paired powers H^64, H^60, …, H^36, whether
    /// it made them in the key or, as when another thread is making them, in a private copy.
    #[test]
    fn powers_are_where_the_kernels_and_the_wipe_expect_them() {
        let h_bytes: Block = [0x80, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0x01];
        let h = u128::from_be_bytes(h_bytes);
        let check = |name: &str, table: &[Block], used: usize| {
            let mut power = h;
            for k in 1..=used {
                let stored = u128::from_le_bytes(table[table.len() - k]);
                assert_eq!(stored, times_inverse_x(power), "{name}: H^{k}");
                power = portable::mul(power, h);
            }
            assert!(table[..table.len() - used].iter().all(|b| *b == [0; 16]), "{name}: slots before the used powers");
        };
        let check_read = |name: &str, powers: Powers<'_>, used: usize| check(name, powers.last(used), used);
        let h32 = (1..32).fold(h, |p, _| portable::mul(p, h));
        let check_paired = |name: &str, paired: &[Block]| {
            assert_eq!(paired.len(), table::PAIRED);
            for (r, stored) in paired.iter().enumerate() {
                let mut power = h32;
                for _ in 0..32 - 4 * r {
                    power = portable::mul(power, h);
                }
                assert_eq!(u128::from_le_bytes(*stored), times_inverse_x(power), "{name}: paired power of register {r}");
            }
        };
        let read_paired = |powers: Powers<'_>| powers.paired_made().to_vec();
        let mut ran = 0;
        for imp in GhashImpl::ALL {
            let Some(available) = imp.check() else { continue };
            let used = imp.powers_used();
            let mut key = GhashKey::new(&h_bytes, available);
            if imp != GhashImpl::Vpclmul512 {
                check(imp.name(), key.powers.get_mut(), used);
                continue;
            }
            let mut room = MaybeUninit::uninit();
            let mut spare = Spare::new(&mut room);
            check_read("zmm", key.powers_for(HALF, &mut spare), HALF);
            // Before any call needs them, the upper half is zero (and a clone leaves it so).
            let mut fresh = key.clone();
            check("zmm, upper half unmade", fresh.powers.get_mut(), HALF);
            // Claimed by another thread: made in a private copy, the key's own left alone.
            fresh.powers.pretend_claimed();
            check_read("zmm, in a private copy", fresh.powers_for(HALF + 1, &mut spare), POWERS);
            check_paired("zmm, in a private copy", &read_paired(fresh.powers_for(HALF + 1, &mut spare)));
            assert!(spare.is_used());
            drop(spare);
            check("zmm, still unmade in the key", fresh.powers.get_mut(), HALF);
            // Made in the key by the first call that needs them, and kept (and cloned).
            let mut room = MaybeUninit::uninit();
            let mut spare = Spare::new(&mut room);
            check_read("zmm, made", key.powers_for(HALF + 1, &mut spare), POWERS);
            assert!(!spare.is_used() && key.upper_powers_made());
            check_read("zmm, again", key.powers_for(POWERS, &mut spare), POWERS);
            check_paired("zmm, made", &read_paired(key.powers_for(POWERS, &mut spare)));
            drop(spare);
            let mut made = key.clone();
            check("zmm, made then cloned", made.powers.get_mut(), POWERS);
            check_paired("zmm, made then cloned", made.powers.paired_mut());
            check("zmm, made in the key", key.powers.get_mut(), POWERS);
            check_paired("zmm, made in the key", key.powers.paired_mut());
            ran += 1;
        }
        assert_eq!(ran, usize::from(GhashImpl::Vpclmul512.available()));
    }

    /// Threads that share a new zmm key and hash the same long input at once agree with the
    /// portable GHASH, whichever of them made the upper powers (and whichever made a copy in its spare).
    #[test]
    fn threads_sharing_a_new_key_agree() {
        let Some(available) = GhashImpl::Vpclmul512.check() else { return };
        let portable = GhashImpl::Portable.check().expect("always available");
        let data: Vec<u8> = (0..40 * 16 + 5).map(|i| (i * 7 + 3) as u8).collect();
        for round in 0..50u8 {
            let h = [round ^ 0x5a; 16];
            let mut expected = 0;
            GhashKey::new(&h, portable).update(&mut expected, &data);
            let key = GhashKey::new(&h, available);
            std::thread::scope(|s| {
                let workers: Vec<_> = (0..4)
                    .map(|_| {
                        s.spawn(|| {
                            let mut acc = 0;
                            key.update(&mut acc, &data);
                            acc
                        })
                    })
                    .collect();
                for w in workers {
                    assert_eq!(w.join().expect("no panic"), expected, "round {round}");
                }
            });
        }
    }
}
