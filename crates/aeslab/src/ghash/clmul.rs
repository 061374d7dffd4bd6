//! GHASH with carry-less multiplication: PCLMULQDQ on xmm, VPCLMULQDQ on ymm and zmm, PMULL on
//! ARMv8 — one body for every width.
//!
//! A register holds `LANES` blocks. A group of `GROUP × LANES` blocks is multiplied by the
//! powers H^n … H^1 (block k of n by H^(n−k)), the accumulator folded into the first block,
//! and the partial products summed unreduced; then one reduction per 128-bit lane and an XOR
//! of the lanes give the new accumulator — the aggregated reduction, which takes the reduction
//! (the serial part) out of the per-block cost. (AES-GCM's zmm loop on Intel skips the lanes'
//! XOR between its groups: [`Sum::schoolbook_add_by_lane`].)
//!
//! Representation: a block is byte-reversed into a 128-bit integer whose bit 127 is the
//! coefficient of x^0 (GCM's bit order read backwards). A carry-less product of two such
//! integers is then the 255-bit reflected product one bit short of alignment, so each power is
//! stored as H^k·x^-1 (`GhashKey::new`, `mod.rs`): the products come out aligned and need no shift. The
//! reduction folds the low 64 bits twice with one carry-less multiply by x^128 mod g in
//! reflected form (0xc2 << 56) and one qword swap each — no shifts, which on Intel cores with
//! AVX-512 share the port that VAES uses.
//!
//! Carry-less multiplication runs in constant time; there is no branch or table on data.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use super::table::{HALF, PAIRED, PowerTable};
use super::{Available, GhashKey, POWERS};
use crate::Block;
use crate::simd::{BlockIsa, MAX_LANES, Reg, RegisterSpace, load_blocks, mask_reaches_next_page};

/// Registers per group.
pub(crate) const GROUP: usize = 8;

/// A register of `LANES` GHASH blocks (`x86.rs`: xmm, ymm, zmm; `aarch64.rs`: NEON), with the
/// carry-less operations beside [`Reg`]'s block moves (of which `byte_reverse` turns block
/// bytes into the reversed-polynomial integer).
///
/// # Safety
/// As for [`Reg`]: only where a token of an ISA with the register's carry-less multiply exists.
pub trait ClmulReg: Reg {
    /// The one-block register of the same instruction set (the accumulator's).
    type Lane: ClmulReg<Lane = Self::Lane>;
    /// Carry-less products of 64-bit halves, per lane: low×low, high×high, low×high, high×low
    /// (`lh`: the low half of `self` times the high half of `o`).
    unsafe fn clmul_ll(self, o: Self) -> Self;
    unsafe fn clmul_hh(self, o: Self) -> Self;
    unsafe fn clmul_lh(self, o: Self) -> Self;
    unsafe fn clmul_hl(self, o: Self) -> Self;
    /// Per 128-bit lane: the two qwords swapped.
    unsafe fn swap_qwords(self) -> Self;
    /// Per 128-bit lane: the low qword of `self`, then the low qword of `o`.
    unsafe fn unpack_low_qwords(self, o: Self) -> Self;
    /// `0xc2 << 56` in the high qword of every lane: x^128 mod g, reflected, less its x^0 term.
    unsafe fn poly() -> Self;
    /// The XOR of all lanes.
    unsafe fn fold_lanes(self) -> Self::Lane;
    /// `x` in lane 0, zero elsewhere.
    unsafe fn from_lane0(x: Self::Lane) -> Self;
    /// Lane 0 alone (the other lanes dropped, not added: see [`ClmulReg::fold_lanes`]).
    unsafe fn lane0(self) -> Self::Lane;
    /// `x` in every lane.
    unsafe fn broadcast_lane(x: Self::Lane) -> Self;
    /// Each lane `p` (a byte-reversed block, as the carry-less code holds it) times x^-1: the
    /// stored form of H from H ([`super::times_inverse_x`]). x86 does it in the vector
    /// register, as AES-GCM's key kernel has H in one and the powers wait for it (the trip
    /// through general registers took about 10 cycles on Zen 5); aarch64 through general
    /// registers.
    unsafe fn times_inverse_x(self) -> Self;
}

/// The unreduced product sum of a group: the low, middle and high 128-bit parts per lane.
#[derive(Clone, Copy)]
pub(crate) struct Sum<V> {
    lo: V,
    mid: V,
    hi: V,
}

/// Karatsuba's halves of a group's powers, registers of `LANES` blocks: the qwords of register
/// `r` hold, per lane, (low ⊕ high) of power register `r`, then of power register
/// `r + GROUP/2`. The carry-less multiply picks either qword, so half as many registers. Room
/// for the widest registers; a narrower width uses the first `GROUP / 2 × LANES` blocks.
pub(crate) const HALVES: usize = POWERS / 2;

/// Stack space for [`HALVES`] blocks from its first 64-byte boundary ([`RegisterSpace`]).
pub(crate) const HALVES_SPACE: usize = HALVES + MAX_LANES;

/// The halves of the powers H^(GROUP × LANES) … H^1 at `h` (see [`HALVES`]), made in
/// registers (a few shuffles and XORs, cheap beside a message of more than a group) and stored
/// in the first `GROUP / 2 × LANES` blocks of `space` (from its 64-byte boundary), which are
/// returned; the rest of `space` is not touched, so a narrower width neither zeroes nor wipes
/// what it does not use.
#[inline(always)]
pub(crate) unsafe fn karatsuba_halves<V: ClmulReg>(h: *const Block, space: &mut RegisterSpace<HALVES_SPACE>) -> &mut [Block] {
    const { assert!(GROUP / 2 * V::LANES <= RegisterSpace::<HALVES_SPACE>::BLOCKS) };
    let first = space.first();
    // SAFETY: the caller's ISA; the `GROUP / 2 × LANES` blocks stored are inside `space`
    // (asserted above), and each is written before the slice over them is made.
    unsafe {
        for r in 0..GROUP / 2 {
            let low = V::load(h.add(r * V::LANES));
            let high = V::load(h.add((r + GROUP / 2) * V::LANES));
            low.xor(low.swap_qwords())
                .unpack_low_qwords(high.xor(high.swap_qwords()))
                .store(first.add(r * V::LANES));
        }
        core::slice::from_raw_parts_mut(first, GROUP / 2 * V::LANES)
    }
}

impl<V: ClmulReg> Sum<V> {
    #[inline(always)]
    pub(crate) unsafe fn zero() -> Sum<V> {
        unsafe { Sum { lo: V::zero(), mid: V::zero(), hi: V::zero() } }
    }

    /// The sum computed here ([`Reg::computed_here`] on each part): a group summed ahead of
    /// another finishes its own XORs before the next group's products join them. Without it,
    /// LLVM re-associated the two groups' XORs into one tree and kept the first group's
    /// products, 24 registers, on the stack until the second group's end (zmm, 2026-12-03).
    #[inline(always)]
    pub(crate) unsafe fn computed_here(self) -> Sum<V> {
        unsafe { Sum { lo: self.lo.computed_here(), mid: self.mid.computed_here(), hi: self.hi.computed_here() } }
    }

    /// Adds register `r` of a group (`x`: byte-reversed data, the accumulator folded into
    /// register 0) times its power at `h` (H^(GROUP × LANES) … H^1), by Karatsuba: low×low,
    /// high×high, and (x_lo ⊕ x_hi)(h_lo ⊕ h_hi) with the power's side from `halves`
    /// ([`karatsuba_halves`]) — three multiplies where the schoolbook takes four. On Zen 3 and
    /// Zen 4 the multiplier is what a stitched GCM loop waits for (one VPCLMULQDQ per two
    /// cycles, in a pipe the AES rounds share); the extra swap and XOR go to other pipes.
    #[inline(always)]
    pub(crate) unsafe fn karatsuba_add(&mut self, h: *const Block, halves: *const Block, r: usize, x: V) {
        unsafe {
            let p = V::load(h.add(r * V::LANES));
            self.lo = self.lo.xor(x.clmul_ll(p));
            self.hi = self.hi.xor(x.clmul_hh(p));
            let folded = x.xor(x.swap_qwords());
            let half = V::load(halves.add((r % (GROUP / 2)) * V::LANES));
            let m = if r < GROUP / 2 { folded.clmul_ll(half) } else { folded.clmul_lh(half) };
            self.mid = self.mid.xor(m);
        }
    }

    /// [`Sum::karatsuba_add`] with the same power in every lane, as
    /// [`Sum::schoolbook_add_by_lane`] takes it: register `r`'s first power and its half
    /// (lane 0 of `halves`' register, which holds the folded halves of registers `r` and `r +
    /// GROUP / 2`), each broadcast. The product of every lane is the schoolbook's, so a group
    /// summed so and reduced by [`Sum::reduce_karatsuba_by_lane`] leaves the sums by lane
    /// that [`Sum::schoolbook_add_by_lane`] says stand for the accumulator.
    #[inline(always)]
    pub(crate) unsafe fn karatsuba_add_by_lane(&mut self, h: *const Block, halves: *const Block, r: usize, x: V) {
        unsafe {
            let p = V::broadcast(&*h.add(r * V::LANES));
            self.lo = self.lo.xor(x.clmul_ll(p));
            self.hi = self.hi.xor(x.clmul_hh(p));
            let folded = x.xor(x.swap_qwords());
            let half = V::broadcast(&*halves.add((r % (GROUP / 2)) * V::LANES));
            let m = if r < GROUP / 2 { folded.clmul_ll(half) } else { folded.clmul_lh(half) };
            self.mid = self.mid.xor(m);
        }
    }

    /// The lanes' sums after a group summed by [`Sum::karatsuba_add_by_lane`], each reduced in
    /// its lane and not added.
    #[inline(always)]
    pub(crate) unsafe fn reduce_karatsuba_by_lane(self) -> V {
        unsafe { reduce_lanes(Sum { lo: self.lo, mid: self.mid.xor(self.lo).xor(self.hi), hi: self.hi }) }
    }

    /// [`Sum::karatsuba_add`] by the schoolbook: low×low, high×high and the two cross
    /// products, four multiplies and no fold of the data's halves (one qword swap and one XOR
    /// fewer a register, one multiply more), for a loop whose multiplier has issue slots to
    /// spare ([`crate::cpu::zmm_clmul_apart_from_aes`]). Reduced by [`Sum::reduce_schoolbook`].
    #[inline(always)]
    pub(crate) unsafe fn schoolbook_add(&mut self, h: *const Block, r: usize, x: V) {
        unsafe { mul_add(self, x, V::load(h.add(r * V::LANES))) }
    }

    /// The accumulator after a group summed by [`Sum::schoolbook_add`]: its middle part is the
    /// cross products' sum already.
    #[inline(always)]
    pub(crate) unsafe fn reduce_schoolbook(self) -> V::Lane {
        unsafe { reduce(self) }
    }

    /// [`Sum::schoolbook_add`] with the same power in every lane of a register: the power of
    /// register `r`'s first block, H^(GROUP × LANES − r × LANES), broadcast from `h` (H^(GROUP
    /// × LANES) … H^1). Summed so, and reduced lane by lane without adding the lanes
    /// ([`Sum::reduce_by_lane`]), a group leaves in lane `j` a sum `A_j` whose share of the
    /// accumulator is `A_j · H^-j`: every block's product is its power's times `H^j`. Folded
    /// into register 0 of the next group lane by lane, `A_j` is multiplied by H^(GROUP × LANES)
    /// as the accumulator is, and lane `j` of a group whose powers are H^n … H^1 lane by lane
    /// (every other group, and the tails) multiplies it by H^(n − j), which is `H^-j · H^n`:
    /// such a group takes the lanes back to one accumulator, in its own reduction, with no
    /// inverse power anywhere.
    ///
    /// Why: the lanes' XOR after every reduction (three lane extracts and three XORs on zmm)
    /// is gone from the loop's groups, and so is its latency from the chain that carries the
    /// accumulator from group to group.
    #[inline(always)]
    pub(crate) unsafe fn schoolbook_add_by_lane(&mut self, h: *const Block, r: usize, x: V) {
        unsafe { self.schoolbook_add_broadcast(h.add(r * V::LANES), x) }
    }

    /// [`Sum::schoolbook_add`] of `x` times the one power at `p`, broadcast to every lane
    /// ([`Sum::schoolbook_add_by_lane`] takes register `r`'s from a group's powers; a group
    /// summed ahead of another takes it from the paired powers, `table.rs`).
    #[inline(always)]
    pub(crate) unsafe fn schoolbook_add_broadcast(&mut self, p: *const Block, x: V) {
        unsafe { mul_add(self, x, V::broadcast(&*p)) }
    }

    /// The lanes' sums after a group summed by [`Sum::schoolbook_add_by_lane`], each reduced in
    /// its lane and not added.
    #[inline(always)]
    pub(crate) unsafe fn reduce_by_lane(self) -> V {
        unsafe { reduce_lanes(self) }
    }

    /// Adds `x` times `p` (a register of powers) by Karatsuba as [`Sum::karatsuba_add`] does,
    /// the power's folded halves made here (for powers read once, not a group's).
    #[inline(always)]
    pub(crate) unsafe fn karatsuba_add_folded(&mut self, x: V, p: V) {
        unsafe {
            self.lo = self.lo.xor(x.clmul_ll(p));
            self.hi = self.hi.xor(x.clmul_hh(p));
            self.mid = self.mid.xor(x.xor(x.swap_qwords()).clmul_ll(p.xor(p.swap_qwords())));
        }
    }

    /// The accumulator after a group summed by [`Sum::karatsuba_add`] (or
    /// [`Sum::karatsuba_add_folded`]): the middle part less
    /// the other two (what Karatsuba's product adds), then the reduction.
    #[inline(always)]
    pub(crate) unsafe fn reduce_karatsuba(self) -> V::Lane {
        unsafe { reduce(Sum { lo: self.lo, mid: self.mid.xor(self.lo).xor(self.hi), hi: self.hi }) }
    }
}

/// Register `r` of the group at `chunk`, byte-reversed, with the accumulator `a` folded into
/// register 0. `a` is a whole register: the accumulator in lane 0 and zeros
/// ([`ClmulReg::from_lane0`]), or one sum per lane ([`Sum::schoolbook_add_by_lane`]), which
/// this folds into the lanes of register 0 each to its own.
#[inline(always)]
pub(crate) unsafe fn group_register<V: ClmulReg>(chunk: *const Block, r: usize, a: V) -> V {
    unsafe {
        let x = V::load(chunk.add(r * V::LANES)).byte_reverse();
        if r == 0 { x.xor(a) } else { x }
    }
}

#[inline(always)]
unsafe fn mul_add<V: ClmulReg>(s: &mut Sum<V>, x: V, h: V) {
    unsafe {
        s.lo = s.lo.xor(x.clmul_ll(h));
        s.hi = s.hi.xor(x.clmul_hh(h));
        s.mid = s.mid.xor(x.clmul_lh(h)).xor(x.clmul_hl(h));
    }
}

/// `hi·2^128 ⊕ mid·2^64 ⊕ lo` reduced per lane, then the lanes' XOR. Each fold moves the low
/// qword of a 128-bit part up by 128 bits reduced (x^128 ≡ x^7 + x^2 + x + 1): the swap puts
/// it 128 bits higher, the multiply by `poly` adds its x^7, x^2, x terms; the fold of `lo` lands
/// in `mid`, the fold of `mid` in `hi`, which is then the reduced product.
#[inline(always)]
unsafe fn reduce<V: ClmulReg>(s: Sum<V>) -> V::Lane {
    unsafe { reduce_lanes(s).fold_lanes() }
}

/// [`reduce`] without the lanes' XOR: each lane's own reduced product.
#[inline(always)]
unsafe fn reduce_lanes<V: ClmulReg>(s: Sum<V>) -> V {
    unsafe {
        let poly = V::poly();
        let mid = s.mid.xor(s.lo.swap_qwords()).xor(s.lo.clmul_lh(poly));
        s.hi.xor(mid.swap_qwords()).xor(mid.clmul_lh(poly))
    }
}

/// The accumulator `a` after the `GROUP × LANES` blocks at `chunk`; `h` points at the powers
/// H^(GROUP × LANES) … H^1. `a` is a register, as [`group_register`] takes it: the
/// accumulator in lane 0, or one sum per lane, which this takes back to one. By Karatsuba, the powers' halves folded here: 26 multiplies where
/// the schoolbook took 34 (a sealed message's last whole group when no tail follows, and long
/// AD): 2–7% faster from 128 bytes to 1 KiB on Zen 5 at every width (2026-11-26; zmm from 512
/// bytes, its group).
#[inline(always)]
pub(crate) unsafe fn absorb_group<V: ClmulReg>(h: *const Block, a: V, chunk: *const Block) -> V::Lane {
    unsafe {
        let mut s = Sum::<V>::zero();
        for r in 0..GROUP {
            s.karatsuba_add_folded(group_register::<V>(chunk, r, a), V::load(h.add(r * V::LANES)));
        }
        s.reduce_karatsuba()
    }
}

/// The accumulator `a` after the blocks `blocks` (block byte order), one block per 128-bit
/// register, against the powers that line up with them, H^m … H^1 at `h` (m = `blocks.len()`),
/// by the schoolbook: its four multiplies start at once, while Karatsuba's middle one waits for
/// the XOR of the halves, and short messages wait for this chain. In registers: the accumulator
/// does not go through memory, whose store a short message would wait on. The short tails of
/// [`update_blocks`] (every tail on ymm and xmm).
#[inline(always)]
unsafe fn absorb_blocks_by_lane<V: ClmulReg>(h: *const Block, a: V::Lane, blocks: &[Block]) -> V::Lane {
    unsafe {
        let mut s = Sum { lo: V::Lane::zero(), mid: V::Lane::zero(), hi: V::Lane::zero() };
        for (k, b) in blocks.iter().enumerate() {
            let mut x = V::Lane::load(b).byte_reverse();
            if k == 0 {
                x = x.xor(a);
            }
            mul_add(&mut s, x, V::Lane::load(h.add(k)));
        }
        reduce(s)
    }
}

/// The accumulator `a` after one block `b` (block byte order); `h1` is H^1. For AES-GCM's
/// lengths block and an AD of one block or less, which the general [`update_blocks`] would
/// take through memory.
#[inline(always)]
pub(crate) unsafe fn absorb_block<V: ClmulReg>(h1: &Block, a: V::Lane, b: &Block) -> V::Lane {
    unsafe { absorb_register::<V>(h1, a, V::Lane::load(b)) }
}

/// [`absorb_block`] of a block already in a register `b` (block byte order, as loaded): also
/// AES-GCM's last, partial AD block, read from the caller's bytes straight into a register. By
/// the schoolbook, as [`absorb_blocks_by_lane`].
#[inline(always)]
pub(crate) unsafe fn absorb_register<V: ClmulReg>(h1: &Block, a: V::Lane, b: V::Lane) -> V::Lane {
    unsafe {
        let mut s = Sum::<V::Lane>::zero();
        mul_add(&mut s, b.byte_reverse().xor(a), V::Lane::load(h1));
        reduce(s)
    }
}

/// The accumulator `a` after a tail of `m` blocks (at most a group) held in registers
/// `regs`, as loaded (block byte order, the lanes past the `m`-th block zero), with `extra`
/// XORed into register `extra_at` (AES-GCM's lengths block in the lane after the data; `GROUP`
/// for none), against the powers that line up with them, H^m … H^1 at `h`. Those are
/// consecutive in memory as the blocks are, so a register of them loads whole, the last
/// through a masked load that reads nothing past them (the zero lanes add nothing). By
/// Karatsuba, the powers' halves folded here. What [`update_blocks`] does with a long tail on
/// zmm, and AES-GCM with a sealed message's tail in the registers that encrypted it
/// (`gcm::insn::hash_tail`). (`extra` goes in here, not into a copy of `regs`: a write at a
/// run-time index put the copy on the stack, and a 16-byte seal took 10% longer on Zen 5. As an
/// `Option`, a seal with 200 bytes of AD took 20–30% longer.)
#[inline(always)]
pub(crate) unsafe fn absorb_tail<V: ClmulReg>(h: *const Block, m: usize, a: V::Lane, regs: &[V; GROUP], (extra_at, extra): (usize, V)) -> V::Lane {
    unsafe {
        debug_assert!(m <= GROUP * V::LANES);
        let mut s = Sum::<V>::zero();
        for (r, &x) in regs.iter().enumerate().take(m.div_ceil(V::LANES)) {
            absorb_tail_register(&mut s, h, m, a, r, x, (extra_at, extra));
        }
        s.reduce_karatsuba()
    }
}

/// Register `r < m.div_ceil(LANES)` of [`absorb_tail`]'s tail (`x`, as loaded) added to `s`:
/// for a caller that spreads the registers over other work (AES-GCM's opening, between the
/// tail's AES rounds).
#[inline(always)]
pub(crate) unsafe fn absorb_tail_register<V: ClmulReg>(s: &mut Sum<V>, h: *const Block, m: usize, a: V::Lane, r: usize, x: V, (extra_at, extra): (usize, V)) {
    unsafe {
        let k = r * V::LANES;
        let mut x = if r == extra_at { x.xor(extra) } else { x }.byte_reverse();
        if r == 0 {
            x = x.xor(V::from_lane0(a));
        }
        s.karatsuba_add_folded(x, load_blocks::<V>(h.add(k), (m - k).min(V::LANES)));
    }
}

/// The shortest tail [`update_blocks`] hashes in whole zmm registers. Shorter ones go one block
/// per 128-bit register, which measured faster on Zen 5 (2026-11-26; AES-128-GCM seal,
/// cycles/byte, one block at a time against zmm): 96 bytes, 7 blocks with the lengths, 1.75–1.83
/// against 1.89–2.04; 128 bytes, 9 blocks, 1.42–1.52 against 1.30–1.36. Presumably the masked
/// load of the last register, which spans stores made just before it and so is not forwarded,
/// and the lanes' final XOR lengthen the chain more than the fewer multiplies shorten it. On ymm
/// the wide tail made 1420 bytes no faster and 64 bytes 25% slower (its masked load is
/// VPMASKMOVQ), so ymm keeps one block per register.
const WIDE_TAIL_FROM: usize = 8;

/// GHASH over whole blocks. `powers` holds H^n … H^1 (n = `powers.len()`, at least
/// `GROUP × LANES` or else at least the number of blocks) as reversed-polynomial integers in
/// little-endian byte order, ready to load; `acc` likewise.
#[inline(always)]
pub(crate) unsafe fn update_blocks<V: ClmulReg>(powers: &[Block], acc: &mut Block, blocks: &[Block]) {
    unsafe {
        let group = GROUP * V::LANES;
        let n = powers.len();
        debug_assert!(n >= group.min(blocks.len()));
        let mut a = V::Lane::load(acc);
        let mut chunks = blocks.chunks_exact(group);
        for chunk in &mut chunks {
            a = absorb_group::<V>(powers.as_ptr().add(n - group), V::from_lane0(a), chunk.as_ptr());
        }
        // The tail: at most GROUP × LANES − 1 blocks, aggregated as a group is, against the
        // powers that line up with them (H^m … H^1).
        let tail = chunks.remainder();
        let m = tail.len();
        let h = powers.as_ptr().add(n - m);
        // The last register's masked load, when it leaves out blocks on the page after the
        // tail's last byte: a 300-byte AD that ended just before an unmapped page took 496 TSC
        // ticks to seal with a 64-byte message against 115 mid-page (Zen 5, 2026-11-29). Such a
        // tail goes one block per register instead.
        let wide = V::LANES == MAX_LANES && m >= WIDE_TAIL_FROM && {
            let last = m / V::LANES * V::LANES;
            m == last || !mask_reaches_next_page(tail.as_ptr().add(last).addr(), 16 * (m - last), 16 * V::LANES)
        };
        if wide {
            // On zmm, a whole register at a time ([`absorb_tail`]). One block per 128-bit
            // register, the 26 blocks after the whole groups of a 1420-byte AES-GCM message (its
            // tail and the lengths) took 104 multiplies, and the message 507 cycles on Zen 5
            // against 330 for 1536 bytes; this way, 0.358 → 0.25 cycles/byte (2026-11-26).
            // (That tail now goes through `gcm::insn::hash_tail`, from the registers that
            // encrypted it; this serves the AD and the other GHASH calls.) The last register
            // goes through a masked load that touches nothing past the blocks.
            let mut regs = [V::zero(); GROUP];
            for (r, x) in regs.iter_mut().enumerate().take(m.div_ceil(V::LANES)) {
                let k = r * V::LANES;
                *x = load_blocks::<V>(tail.as_ptr().add(k), (m - k).min(V::LANES));
            }
            a = absorb_tail::<V>(h, m, a, &regs, (GROUP, V::zero()));
        } else if m > 0 {
            // Short tails, and every tail on ymm and xmm: one block per 128-bit register.
            a = absorb_blocks_by_lane::<V>(h, a, tail);
        }
        a.store(acc);
    }
}

/// The products of two registers of stored powers, lane by lane, which are again stored powers:
/// on the stored form H^k·x^-1 a carry-less product and reduction gives `a·b·x` (the alignment
/// the module notes describe), so (H^j·x^-1)(H^k·x^-1)·x = H^(j+k)·x^-1. By Karatsuba (three
/// multiplies, not four; within a stage `b` is the same power, so its folded halves are made
/// once). The key set-up waits on these products' latency, which the schoolbook's shorter
/// middle term would cut, but on Zen 5 the zmm powers took 77 TSC ticks a key that way
/// against 72 by Karatsuba (2026-11-26): fewer instructions waiting on each stage.
#[inline(always)]
unsafe fn mul_stored<V: ClmulReg>(a: V, b: V) -> V {
    unsafe {
        let lo = a.clmul_ll(b);
        let hi = a.clmul_hh(b);
        let mid = a.xor(a.swap_qwords()).clmul_ll(b.xor(b.swap_qwords())).xor(lo).xor(hi);
        reduce_lanes(Sum { lo, mid, hi })
    }
}

/// The square of a register of stored powers, lane by lane (as [`mul_stored`] of `a` by
/// itself): the low and high halves' products only, as the cross terms cancel in
/// characteristic 2. Two multiplies before the reduction rather than three.
#[inline(always)]
unsafe fn square_stored<V: ClmulReg>(a: V) -> V {
    unsafe { reduce_lanes(Sum { lo: a.clmul_ll(a), mid: V::zero(), hi: a.clmul_hh(a) }) }
}

/// H^(2p) in every lane, from H^p in every lane (`hp`) and the last register of the stage
/// that multiplied by it (`last`), whose last lane it is when there is one lane.
#[inline(always)]
unsafe fn doubled<V: ClmulReg>(hp: V, last: V) -> V {
    if V::LANES == 1 { last } else { unsafe { square_stored(hp) } }
}

/// H^n … H^1 in stored form in the last `n = GROUP × LANES` slots (the powers this width's
/// groups use; the slots before stay zero), from `h1` = H·x^-1 in stored form; on zmm only
/// H^16 … H^1, the rest made later ([`upper_powers_in_kernel`]). In stages: the
/// powers in (p, 2p] are H^(k−p)·H^p for p = 1, 2, 4, …, so a stage's products are independent
/// (log2(n) multiplies of latency rather than n − 1), and once a stage has at least `LANES` of
/// them they go a whole register at a time.
///
/// Latency, not the multiplier's throughput, bounds it: each stage waits for the one before,
/// and a product is three multiplies deep with its reduction. So nothing else goes between two
/// stages. Every power the stages multiply by is kept in every lane, made by squaring the
/// previous one beside the stage's products: taken out of a stage's result by a lane shuffle,
/// it put the shuffle's latency between every two stages, and the first register, made in
/// 128-bit registers and put together lane by lane, waited for four inserts. On Zen 5 the
/// zmm powers took 85 TSC ticks in a loop that way and 74 this way, 2026-11-26.
///
/// Nothing goes through memory until the powers are stored at the end: a load that spans two
/// stores cannot be forwarded and waits for both to reach the cache (on Zen 3 such loads were
/// the hottest instructions of the GCM key set-up), and even a forwarded load adds its latency
/// to the stage. So `h1` comes in a register, and the stages are written out register by
/// register: as a loop that stored each register and loaded it back for the next stage, Zen 5
/// took 119–121 TSC ticks for `Aes128Gcm::new` and 131–134 for `Aes256Gcm::new`; written out,
/// 117–118 and 129–132 (2026-11-26, interleaved runs).
///
/// The reductions stay carry-less multiplies, though the stages issue 56 of them and Zen 5
/// takes one per 2 cycles: reduced by shifts and XORs instead (six qword shifts left, three
/// right, two lane byte shifts), which leaves the multiplier to the products, `Aes128Gcm::new`
/// took 144–146 ticks rather than 115–119, and 130–134 with shifts for the squares alone
/// (Zen 5, alternating runs, 2026-11-26): the shifts' chain is the longer. zmm's last stage
/// alone is bound by the multiplier: a build without it took 92–97 ticks, so its 20 multiplies
/// cost about 40 cycles, one per 2 cycles. With shifts for its four reductions alone, the
/// set-up took 122–127 ticks. So that stage moved out of the key set-up (`table.rs`).
///
/// # Safety
/// Only inside a kernel entered under an ISA with `V`'s carry-less multiply (each GHASH's
/// `Powers` kernel, and AES-GCM's key kernel through [`GhashKey::new_in_kernel`]).
#[inline(always)]
pub(crate) unsafe fn powers_in_kernel<V: ClmulReg>(h1: V::Lane) -> [Block; POWERS] {
    let mut powers = [[0u8; 16]; POWERS];
    unsafe {
        debug_assert!(V::LANES <= MAX_LANES);
        // H^k sits at `POWERS − k`: ascending memory holds descending powers.
        let top = POWERS;
        let out = powers.as_mut_ptr();
        // The register [H^LANES, …, H^1] (`first`) and H^LANES in every lane (`hp`), from
        // H^1 … H^LANES each in every lane (H^2 and H^4 squares), written out for the widths
        // there are: as a loop over an array the compiler kept the array in memory.
        let h = V::broadcast_lane(h1);
        let (first, hp) = match V::LANES {
            1 => (h, h),
            2 => {
                let h2 = square_stored(h);
                (h.xor(h2.xor(h).keep_first(1)), h2)
            }
            _ => {
                debug_assert_eq!(V::LANES, 4);
                let h2 = square_stored(h);
                let h3 = mul_stored(h2, h);
                let h4 = square_stored(h2);
                // H^1 everywhere, then each lane below the last corrected by one power step.
                let first = h.xor(h2.xor(h).keep_first(3)).xor(h3.xor(h2).keep_first(2)).xor(h4.xor(h3).keep_first(1));
                (first, h4)
            }
        };
        // Register `i` of the group holds H^(i·LANES + LANES) … H^(i·LANES + 1). Stage by
        // stage, registers m … 2m−1 are registers 0 … m−1 times H^p (p = m·LANES) in every
        // lane, for m = 1, 2, 4.
        const { assert!(GROUP == 8) };
        let r0 = first;
        let r1 = mul_stored(r0, hp);
        let hp = doubled(hp, r1);
        let (r2, r3) = (mul_stored(r0, hp), mul_stored(r1, hp));
        let hp = doubled(hp, r3);
        for (i, r) in [r0, r1, r2, r3].into_iter().enumerate() {
            r.store(out.add(top - (i + 1) * V::LANES));
        }
        // zmm's last four registers (H^32 … H^17) wait for the first message that reads them
        // (`table.rs`); narrower widths make theirs here.
        if GROUP * V::LANES <= HALF {
            let (r4, r5, r6, r7) = (mul_stored(r0, hp), mul_stored(r1, hp), mul_stored(r2, hp), mul_stored(r3, hp));
            for (i, r) in [r4, r5, r6, r7].into_iter().enumerate() {
                r.store(out.add(top - (i + 5) * V::LANES));
            }
        }
    }
    powers
}

/// H^32 … H^17 into the upper half of `table` (H^k at `POWERS − k`) from H^16 … H^1 in its
/// lower half: the last stage of [`powers_in_kernel`] on zmm, registers 4 … 7 of the group as
/// registers 0 … 3 times H^16 in every lane, made by the first message that reads them; then
/// the paired powers H^64, H^60, …, H^36 (`table.rs`) into the `PAIRED` blocks after H^1.
///
/// # Safety
/// Only inside a kernel entered under an ISA with `V`'s carry-less multiply, `V` of 4 lanes;
/// `table` points at POWERS blocks whose lower half holds the powers and `PAIRED` blocks
/// after them, and no other thread reads or writes its upper half or the paired blocks
/// meanwhile.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // Only x86 has zmm.
pub(crate) unsafe fn upper_powers_in_kernel<V: ClmulReg>(table: *mut Block) {
    debug_assert_eq!(GROUP * V::LANES, POWERS);
    debug_assert_eq!(GROUP, PAIRED);
    unsafe {
        let hp = V::broadcast_lane(V::Lane::load(table.add(POWERS - HALF)));
        let mut upper = [V::zero(); GROUP / 2];
        for (i, u) in upper.iter_mut().enumerate() {
            let r = V::load(table.add(POWERS - (i + 1) * V::LANES));
            *u = mul_stored(r, hp);
            u.store(table.add(POWERS - (i + 1 + GROUP / 2) * V::LANES));
        }
        // The paired powers: register `r`'s first power, H^(32 − 4r), times H^32 (lane 0 of
        // the last upper register made). Every lane is multiplied; lane 0 is kept.
        let h32 = V::broadcast_lane(upper[GROUP / 2 - 1].lane0());
        for r in 0..GROUP {
            let first = if r < GROUP / 2 { upper[GROUP / 2 - 1 - r] } else { V::load(table.add(r * V::LANES)) };
            mul_stored(first, h32).lane0().store(table.add(POWERS + r));
        }
    }
}

impl GhashKey {
    /// [`GhashKey::new`] inside a kernel that already runs `V`'s carry-less multiply: the
    /// powers made in the same body, with no call (AES-GCM's key kernel, which gets H from the
    /// key schedule in a register and goes on to the powers).
    ///
    /// # Safety
    /// Only inside a kernel entered under an ISA with `V`'s carry-less multiply, and `imp` is
    /// the GHASH of `V`'s width (its token then exists, and the powers are the ones it reads).
    /// `stitched_schoolbook` is `imp`'s [`Available::stitched_schoolbook`], looked up before
    /// the kernel.
    #[inline(always)]
    pub(crate) unsafe fn new_in_kernel<V: ClmulReg>(h: &Block, imp: Available, stitched_schoolbook: bool) -> GhashKey {
        debug_assert_eq!(imp.imp.powers_used(), GROUP * V::LANES);
        // SAFETY: the caller runs under `V`'s carry-less multiply; `h` is 16 bytes.
        let h1 = unsafe { V::Lane::load(h).byte_reverse().times_inverse_x() };
        // SAFETY: as above.
        GhashKey {
            h: u128::from_be_bytes(*h),
            powers: PowerTable::new(unsafe { powers_in_kernel::<V>(h1) }, !imp.imp.upper_powers_later()),
            imp: imp.imp,
            clmul: imp.clmul,
            stitched_schoolbook,
        }
    }
}

/// An ISA token with carry-less multiplication on its block registers: a GHASH implementation.
pub trait ClmulIsa: BlockIsa<Reg: ClmulReg> {}
