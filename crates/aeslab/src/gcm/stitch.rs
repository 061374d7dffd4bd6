//! GHASH stitched into the CTR loop: while the AES unit encrypts one group of registers, the
//! carry-less multiplier hashes another, in the same loop body, so the core overlaps the two
//! instead of running a CTR pass and then a GHASH pass.
//!
//! The CTR loops (`ctr::insn`) call [`GroupHook::before_group`] before each group is XORed
//! with its keystream. Sealing hashes the groups already written (one group behind the
//! keystream); opening hashes the group about to be decrypted (or ahead of it). Group sizes
//! match — `IN_FLIGHT` AES registers and `GROUP` carry-less registers of the same width — so in
//! the steady state each call hashes exactly one group; the end of the message is caught up
//! through the general GHASH.
//!
//! Each AES ISA has a partner ISA that adds its carry-less multiply on the same registers
//! ([`Stitched`]); the loop is entered under the partner.
//!
//! Constant time: the AES instructions and carry-less multiplies run in constant time, and which
//! blocks are hashed when depends only on lengths.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::marker::PhantomData;

use crate::Block;
use crate::aes::insn::{AesIsa, AesRound};
use crate::aes::key_schedule::RoundKeys;
use crate::ctr::insn::{GroupHook, face_xor, plain_xor};
use crate::ghash::clmul::{GROUP, absorb_group, update_blocks};
use crate::ghash::{ClmulIsa, ClmulReg, GhashImpl, GhashKey};
use crate::simd::{BlockIsa, Kernel, Reg, read_u128};

/// An AES ISA whose registers also multiply carry-less in a partner ISA: the GHASH of the same
/// width, and the ISA that has both.
pub(crate) trait Stitched: AesIsa + BlockIsa<Reg: ClmulReg> {
    /// The GHASH that runs on the same registers.
    const GHASH: GhashImpl;
    /// The ISA with both instruction sets.
    type Both: ClmulIsa + BlockIsa<Reg = Self::Reg>;
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Stitched;
    use crate::ghash::GhashImpl;
    use crate::simd::x86::{AesNi, AesNiPclmul, VaesVpclmulYmm, VaesVpclmulZmm, VaesYmm, VaesZmm};

    impl Stitched for AesNi {
        const GHASH: GhashImpl = GhashImpl::Pclmul;
        type Both = AesNiPclmul;
    }
    impl Stitched for VaesYmm {
        const GHASH: GhashImpl = GhashImpl::Vpclmul256;
        type Both = VaesVpclmulYmm;
    }
    impl Stitched for VaesZmm {
        const GHASH: GhashImpl = GhashImpl::Vpclmul512;
        type Both = VaesVpclmulZmm;
    }
}

#[cfg(target_arch = "aarch64")]
mod aarch64 {
    use super::Stitched;
    use crate::ghash::GhashImpl;
    use crate::simd::aarch64::{NeonAes, NeonAesPmull};

    impl Stitched for NeonAes {
        const GHASH: GhashImpl = GhashImpl::Pmull;
        type Both = NeonAesPmull;
    }
}

/// The GHASH state inside one stitched run, in registers.
struct ClmulHook<C: ClmulReg> {
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
    _width: PhantomData<C>,
}

impl<C: ClmulReg> ClmulHook<C> {
    /// Hashes `[next, end)` through the general GHASH. Inlined like everything here: only the
    /// entry of the partner ISA is compiled with the instructions.
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

impl<C: ClmulReg> GroupHook for ClmulHook<C> {
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

/// One stitched run over `data`: FACE from round `after + 1` with table `t`, or plain CTR,
/// with the ciphertext hashed into `acc`.
pub(crate) struct Run<'a, S> {
    pub(crate) keys: &'a RoundKeys,
    pub(crate) after: Option<usize>,
    pub(crate) table: &'a [Block],
    pub(crate) ctr: u128,
    pub(crate) data: &'a mut [Block],
    pub(crate) ghash: &'a GhashKey,
    pub(crate) acc: &'a mut u128,
    pub(crate) decrypt: bool,
    pub(crate) isa: PhantomData<S>,
}

impl<S: BlockIsa> Kernel for Run<'_, S>
where
    S::Reg: AesRound + ClmulReg,
{
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `S`, which has both the AES and the carry-less instructions of
        // its registers (the caller made its token); every access to the data goes through
        // the one pointer below.
        unsafe {
            let powers = self.ghash.powers();
            let group = GROUP * <S::Reg as Reg>::LANES;
            debug_assert!(powers.len() >= group);
            let (p, n) = (self.data.as_mut_ptr(), self.data.len());
            let mut hook = ClmulHook::<S::Reg> {
                group_powers: powers.as_ptr().add(powers.len() - group),
                powers: powers.as_ptr(),
                powers_len: powers.len(),
                acc: <<S::Reg as ClmulReg>::Lane as Reg>::broadcast_u128(read_u128(&*self.acc)),
                next: p,
                end: p.add(n),
                decrypt: self.decrypt,
                _width: PhantomData,
            };
            let ctr = read_u128(&self.ctr);
            match self.after {
                Some(after) => face_xor::<S::Reg, _>(self.keys, after, self.table, ctr, p, n, &mut hook),
                None => plain_xor::<S::Reg, _>(self.keys, ctr, p, n, &mut hook),
            }
            hook.catch_up(p.add(n));
            let mut acc = [0u8; 16];
            hook.acc.store(&mut acc);
            *self.acc = u128::from_le_bytes(acc);
        }
    }
}

/// Runs a stitched pass of `run`'s shape under `S`'s token, if this CPU has it; `false`
/// (nothing done) otherwise.
pub(crate) fn enter<S: BlockIsa>(run: Run<'_, S>) -> bool
where
    S::Reg: AesRound + ClmulReg,
{
    match S::detect() {
        Some(isa) => {
            isa.enter(run);
            true
        }
        None => false,
    }
}
