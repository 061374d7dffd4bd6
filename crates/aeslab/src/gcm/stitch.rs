//! GHASH stitched into the CTR loop: while the AES unit encrypts one group of registers, the
//! carry-less multiplier hashes another, in the same loop body, so the core overlaps the two
//! instead of running a CTR pass and then a GHASH pass.
//!
//! The CTR loops of `ctr/hw.rs` call [`Stitch::before_group`] before each group is XORed with
//! its keystream. Sealing hashes the groups already written (one group behind the keystream);
//! opening hashes the group about to be decrypted (or ahead of it). Group sizes match —
//! `IN_FLIGHT` AES registers and `GROUP` carry-less registers of the same width — so in the
//! steady state each call hashes exactly one group; the end of the message is caught up through
//! the general GHASH.
//!
//! Constant time: the AES instructions and carry-less multiplies run in constant time, and which
//! blocks are hashed when depends only on lengths.

use crate::Block;
use super::GhashKey;

/// What the keystream code carries through for GCM: the GHASH key, the accumulator, and whether
/// the data is ciphertext before the keystream (opening) or after it (sealing).
pub(crate) struct GhashStitch<'a> {
    pub(crate) key: &'a GhashKey,
    pub(crate) acc: u128,
    pub(crate) decrypt: bool,
}

impl GhashStitch<'_> {
    pub(crate) fn imp(&self) -> super::GhashImpl {
        self.key.imp
    }

    /// Absorbs whole blocks (the unstitched path).
    pub(crate) fn absorb(&mut self, blocks: &[Block]) {
        self.key.update_blocks(&mut self.acc, blocks);
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use with_instructions::StitchVec;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod with_instructions {
    #[cfg(target_arch = "aarch64")]
    use core::arch::aarch64::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    use super::GhashStitch;
    use crate::Block;
    use crate::aes::hw::AesVec;
    use crate::aes::key_schedule::RoundKeys;
    use crate::ctr::hw::{Stitch, face_run_any, plain_xor_any};
    use crate::gcm::GhashImpl;
    use crate::gcm::clmul::{ClmulVec, GROUP, absorb_group, update_blocks};

    /// The GHASH state inside one stitched run, in registers.
    struct ClmulHook<C: ClmulVec> {
        /// H^(GROUP × LANES) … H^1: the last `GROUP × LANES` of the key's powers.
        group_powers: *const Block,
        /// Every power the key has, for the catch-up.
        powers: *const Block,
        powers_len: usize,
        acc: C::Lane,
        /// The first block not yet hashed, and the end of the data.
        next: *const Block,
        end: *const Block,
        decrypt: bool,
        _width: core::marker::PhantomData<C>,
    }

    impl<C: ClmulVec> ClmulHook<C> {
        /// Hashes `[next, end)` through the general GHASH. Inlined like everything here: only
        /// the `#[target_feature]` entry points below are compiled with the instructions.
        #[inline(always)]
        unsafe fn catch_up(&mut self, end: *const Block) {
            unsafe {
                let n = end.offset_from(self.next) as usize;
                if n == 0 {
                    return;
                }
                let powers = core::slice::from_raw_parts(self.powers, self.powers_len);
                let mut acc = [0u8; 16];
                self.acc.store(&mut acc);
                update_blocks::<C>(powers, &mut acc, core::slice::from_raw_parts(self.next, n));
                self.acc = C::Lane::load(&acc);
                self.next = end;
            }
        }
    }

    impl<C: ClmulVec> Stitch for ClmulHook<C> {
        #[inline(always)]
        unsafe fn before_group(&mut self, group: *const Block, len: usize) {
            unsafe {
                let g = GROUP * C::LANES;
                if self.decrypt {
                    // Opening must hash through the group (the input it is about to overwrite)
                    // and may hash ahead: whole groups of ciphertext, even where the keystream's
                    // groups are offset from them by a short first group.
                    let need = group.add(len);
                    while self.next < need && self.end.offset_from(self.next) >= g as isize {
                        self.acc = absorb_group::<C>(self.group_powers, self.acc, self.next);
                        self.next = self.next.add(g);
                    }
                    if self.next < need {
                        self.catch_up(need);
                    }
                } else {
                    // Sealing hashes the output below the group, a whole group at a time.
                    while group.offset_from(self.next) >= g as isize {
                        self.acc = absorb_group::<C>(self.group_powers, self.acc, self.next);
                        self.next = self.next.add(g);
                    }
                }
            }
        }
    }

    /// One stitched run over `data`: FACE from round `after + 1` with table `t`, or plain CTR.
    #[inline(always)]
    unsafe fn run<V: AesVec, C: ClmulVec>(
        keys: &RoundKeys,
        after: Option<usize>,
        t: &[Block],
        ctr: u128,
        data: &mut [Block],
        wrap32: bool,
        g: &mut GhashStitch,
    ) {
        unsafe {
            let powers = &g.key.powers;
            debug_assert!(powers.len() >= GROUP * C::LANES);
            // Every access to `data` below goes through this one pointer.
            let (p, n) = (data.as_mut_ptr(), data.len());
            let mut hook = ClmulHook::<C> {
                group_powers: powers.as_ptr().add(powers.len() - GROUP * C::LANES),
                powers: powers.as_ptr(),
                powers_len: powers.len(),
                acc: C::Lane::load(&g.acc.to_le_bytes()),
                next: p,
                end: p.add(n),
                decrypt: g.decrypt,
                _width: core::marker::PhantomData,
            };
            match after {
                Some(after) => face_run_any::<V, _>(keys, after, t, ctr, p, n, wrap32, &mut hook),
                None => plain_xor_any::<V, _>(keys, ctr, p, n, &mut hook),
            }
            hook.catch_up(p.add(n));
            let mut acc = [0u8; 16];
            hook.acc.store(&mut acc);
            g.acc = u128::from_le_bytes(acc);
        }
    }

    /// A stitched run: `run` compiled with an AES and a carry-less feature set.
    pub(crate) type StitchedRun =
        unsafe fn(&RoundKeys, Option<usize>, &[Block], u128, &mut [Block], bool, &mut GhashStitch);

    /// An AES register type with a stitched GCM loop: the GHASH of the same width, and the entry
    /// point compiled with both feature sets.
    pub(crate) trait StitchVec: AesVec {
        const GHASH: GhashImpl;
        /// # Safety
        /// The CPU has this type's AES features (a backend over it exists) and `g.key`'s GHASH
        /// is [`StitchVec::GHASH`] (built only after `available()` confirmed it).
        const STITCHED: StitchedRun;
    }

    macro_rules! stitch_vec {
        ($vec:ty, $imp:expr, $features:literal, $entry:ident) => {
            // SAFETY of the feature set: the AES half is the backend's (it exists only where
            // detected), the carry-less half is the GHASH implementation's (likewise).
            #[target_feature(enable = $features)]
            unsafe fn $entry(
                keys: &RoundKeys,
                after: Option<usize>,
                t: &[Block],
                ctr: u128,
                data: &mut [Block],
                wrap32: bool,
                g: &mut GhashStitch,
            ) {
                unsafe { run::<$vec, $vec>(keys, after, t, ctr, data, wrap32, g) }
            }

            impl StitchVec for $vec {
                const GHASH: GhashImpl = $imp;
                const STITCHED: StitchedRun = $entry;
            }
        };
    }

    #[cfg(target_arch = "x86_64")]
    stitch_vec!(__m128i, GhashImpl::Pclmul, "aes,ssse3,pclmulqdq", stitched_xmm);
    #[cfg(target_arch = "x86_64")]
    stitch_vec!(__m256i, GhashImpl::Vpclmul256, "aes,vaes,avx2,ssse3,pclmulqdq,vpclmulqdq", stitched_ymm);
    #[cfg(target_arch = "x86_64")]
    stitch_vec!(__m512i, GhashImpl::Vpclmul512, "aes,vaes,avx512f,avx512bw,ssse3,pclmulqdq,vpclmulqdq", stitched_zmm);
    // PMULL belongs to the AES extension in Rust's feature names.
    #[cfg(target_arch = "aarch64")]
    stitch_vec!(uint8x16_t, GhashImpl::Pmull, "aes,neon", stitched_neon);
}
