//! FACE and plain CTR for the AES-instruction backends (AES-NI, VAES ymm/zmm, ARMv8), one body
//! for every register width.
//!
//! FACE: the state entering round `after + 1` for counter `base | x` is `C ⊕ T[x]`; with
//! consecutive counters, a register of `LANES` blocks is one unaligned load of `T[x..x+LANES]`
//! and one XOR with the broadcast `C` — no counter arithmetic, no byte swap, `after` fewer
//! rounds. `C` changes every 256 blocks and is recomputed in registers (two AESENCs for rd2p)
//! without leaving the loop; groups are aligned so that none straddles that change. The
//! plaintext is folded into the last round key: AESENCLAST(s, k ⊕ p) = AESENCLAST(s, k) ⊕ p.
//!
//! The low 32 bits of the counter never wrap inside one call (the stream cuts there), so
//! counters are only ever added.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::marker::PhantomData;

use super::cache::{FaceTable, TABLE_OVERHANG};
use super::{CtrEngine, FaceLevel};
use crate::Block;
use crate::aes::insn::{AesInsn, AesIsa, AesRound, IN_FLIGHT};
use crate::aes::key_schedule::RoundKeys;
use crate::simd::{Kernel, MAX_LANES, Reg, SliceKernel, copy_bytes, mask_reaches_next_page, read_u128};

/// `C = S_AFTER(base | 0)`: whitening and `AFTER` AESENCs, in registers.
#[inline(always)]
pub(crate) unsafe fn segment_constant<R: AesRound, const AFTER: usize>(keys: &RoundKeys, base: u128) -> R {
    unsafe {
        // Made in registers (see `Reg::broadcast_u128`), big-endian as the block is.
        let mut c = R::broadcast_u128(base.swap_bytes()).xor(R::broadcast(&keys.keys[0]));
        for key in &keys.keys[1..=AFTER] {
            c = c.enc(R::broadcast(key));
        }
        c
    }
}

/// Rounds `AFTER + 1 .. NR` on the registers of `s`, then the last round with the plaintext at
/// `dst` folded into its key (AESENCLAST(s, k ⊕ p) = AESENCLAST(s, k) ⊕ p); the result replaces
/// `dst`. The last register holds `last` bytes: fewer than a register's go through masked loads
/// and stores, by bytes where the register has byte masks ([`Reg::BYTE_MASKS`]), else by blocks
/// (`last` is then a whole number of blocks).
///
/// Each round key is broadcast from memory where it is used, not held in a register: with
/// eight states and the loop's own values live, up to 15 keys do not fit beside them in 16
/// ymm or xmm registers, and the register allocator's choices then swung plain CTR's speed by
/// 1.3–1.5× from build to build. A broadcast load per round and group of registers is 14
/// loads per 16 blocks; FACE's loops measured 4–12% faster this way on Zen 3.
#[inline(always)]
unsafe fn finish<R: AesRound, const NR: usize, const AFTER: usize, const N: usize>(keys: &RoundKeys, s: &mut [R; N], dst: *mut Block, last: usize) {
    unsafe {
        for key in &keys.keys[AFTER + 1..NR] {
            let k = R::broadcast(key);
            for x in s.iter_mut() {
                *x = x.enc(k);
            }
        }
        let k_last = R::broadcast(&keys.keys[NR]);
        for (j, x) in s.iter().enumerate() {
            let p = dst.add(j * R::LANES);
            if j + 1 < N || last == 16 * R::LANES {
                x.enc_last(k_last.xor(R::load(p))).store(p);
            } else if R::BYTE_MASKS {
                x.enc_last(k_last.xor(R::load_bytes(p.cast(), last))).store_bytes(p.cast(), last);
            } else {
                debug_assert_eq!(last % 16, 0);
                x.enc_last(k_last.xor(R::load_partial(p, last / 16))).store_partial(p, last / 16);
            }
        }
    }
}

/// A group of `N` registers (1 ..= `IN_FLIGHT`) that starts and finishes: `N` is a constant in every body, so the registers stay in registers. (A loop over
/// a run-time count of registers kept them in memory and walked the slice at every round:
/// about 400 instructions for a 64-byte message instead of 100.)
trait Group {
    /// # Safety
    /// The group's blocks are valid, and its ISA's instructions may run.
    unsafe fn run<const N: usize>(&mut self);
}

/// `g.run::<nv>()` for `nv` in 1 ..= `IN_FLIGHT`.
#[inline(always)]
unsafe fn run_short<G: Group>(g: &mut G, nv: usize) {
    unsafe {
        match nv {
            1 => g.run::<1>(),
            2 => g.run::<2>(),
            3 => g.run::<3>(),
            4 => g.run::<4>(),
            5 => g.run::<5>(),
            6 => g.run::<6>(),
            7 => g.run::<7>(),
            _ => g.run::<IN_FLIGHT>(),
        }
    }
}

/// FACE's group: register `j` is `T[x + j·LANES ..] ⊕ C`; `m` blocks from `data`.
struct FaceGroup<R, const NR: usize, const AFTER: usize> {
    keys: *const RoundKeys,
    t: *const Block,
    c: R,
    data: *mut Block,
    m: usize,
}

impl<R: AesRound, const NR: usize, const AFTER: usize> Group for FaceGroup<R, NR, AFTER> {
    #[inline(always)]
    unsafe fn run<const N: usize>(&mut self) {
        unsafe {
            let mut s = [R::zero(); N];
            for (j, v) in s.iter_mut().enumerate() {
                *v = R::load(self.t.add(j * R::LANES)).xor(self.c);
            }
            finish::<R, NR, AFTER, N>(&*self.keys, &mut s, self.data, 16 * (self.m - (N - 1) * R::LANES));
        }
    }
}

/// Plain CTR's group: the next counters, byte-swapped and whitened; `bytes` from `data`.
struct PlainGroup<R, const NR: usize> {
    keys: *const RoundKeys,
    next: R,
    step: R,
    data: *mut Block,
    bytes: usize,
}

impl<R: AesRound, const NR: usize> Group for PlainGroup<R, NR> {
    #[inline(always)]
    unsafe fn run<const N: usize>(&mut self) {
        unsafe {
            let keys = &*self.keys;
            let k0 = R::broadcast(&keys.keys[0]);
            let mut s = [R::zero(); N];
            for v in s.iter_mut() {
                *v = self.next.byte_reverse().xor(k0);
                self.next = self.next.add32(self.step);
            }
            finish::<R, NR, 0, N>(keys, &mut s, self.data, self.bytes - 16 * (N - 1) * R::LANES);
        }
    }
}

/// A whole FACE run, `IN_FLIGHT` registers at a time with the round keys in registers
/// throughout. Register `j` of a group starts at counter byte `x_j`; it reads `T[x_j..]` and
/// XORs the constant of its segment, recomputed at each wrap of byte 15.
#[inline(always)]
unsafe fn face_run<R: AesRound, const NR: usize, const AFTER: usize>(
    keys: &RoundKeys,
    t: &[Block],
    ctr: u128,
    data: *mut Block,
    n: usize,
) {
    unsafe {
        assert!(t.len() >= 256 + TABLE_OVERHANG);
        let (lanes, group) = (R::LANES, IN_FLIGHT * R::LANES);
        let mut x = (ctr & 0xff) as usize;
        let mut base = ctr & !0xff;
        let c = segment_constant::<R, AFTER>(keys, base);
        let mut g = FaceGroup::<R, NR, AFTER> { keys, t: t.as_ptr(), c, data, m: group };
        let mut i = 0;
        while i < n {
            // Whole groups inside the segment: one load and one XOR per register.
            while n - i >= group && x + group <= 256 {
                (g.t, g.data, g.m) = (t.as_ptr().add(x), data.add(i), group);
                g.run::<IN_FLIGHT>();
                i += group;
                x += group;
            }
            if i == n {
                break;
            }
            if x == 256 {
                // The low 32 bits do not wrap inside a run: the next segment is base + 256.
                (x, base) = (0, base.wrapping_add(256));
                g.c = segment_constant::<R, AFTER>(keys, base);
                continue;
            }
            // A short group: to the end of the segment (after which groups are aligned to
            // `group`, which divides 256, and none straddles a segment again) or of the data.
            // Its last register may read up to `LANES − 1` entries past `x + m`, inside the
            // table's overhang.
            let m = (n - i).min(256 - x);
            (g.t, g.data, g.m) = (t.as_ptr().add(x), data.add(i), m);
            run_short(&mut g, m.div_ceil(lanes));
            i += m;
            x += m;
        }
    }
}

/// [`face_run`] unrolled for the key's rounds and the cached round `after` (0, 1 or 2).
///
/// # Safety
/// Runs AES instructions on `R`: the caller holds a token of an ISA with them. `data .. data +
/// n` is valid for reads and writes; `t` holds a table built for these counters.
#[inline(always)]
pub(crate) unsafe fn face_xor<R: AesRound>(
    keys: &RoundKeys,
    after: usize,
    t: &[Block],
    ctr: u128,
    data: *mut Block,
    n: usize,
) {
    unsafe {
        match (keys.rounds, after) {
            (10, 0) => face_run::<R, 10, 0>(keys, t, ctr, data, n),
            (10, 1) => face_run::<R, 10, 1>(keys, t, ctr, data, n),
            (10, _) => face_run::<R, 10, 2>(keys, t, ctr, data, n),
            (12, 0) => face_run::<R, 12, 0>(keys, t, ctr, data, n),
            (12, 1) => face_run::<R, 12, 1>(keys, t, ctr, data, n),
            (12, _) => face_run::<R, 12, 2>(keys, t, ctr, data, n),
            (_, 0) => face_run::<R, 14, 0>(keys, t, ctr, data, n),
            (_, 1) => face_run::<R, 14, 1>(keys, t, ctr, data, n),
            (_, _) => face_run::<R, 14, 2>(keys, t, ctr, data, n),
        }
    }
}

/// Plain CTR over `bytes` at `data`: counters kept little-endian in registers (a 32-bit add per
/// block), byte-swapped to big-endian blocks, whitened and encrypted (round keys from memory,
/// see [`finish`]). `bytes` is whole blocks unless `R` has byte masks.
#[inline(always)]
unsafe fn plain_run<R: AesRound, const NR: usize>(keys: &RoundKeys, ctr: u128, data: *mut Block, bytes: usize) {
    unsafe {
        let (lanes, group) = (R::LANES, IN_FLIGHT * R::LANES);
        let next = R::broadcast_u128(ctr).add32(R::lane_index());
        let step = R::splat_low32(lanes as u32);
        let mut g = PlainGroup::<R, NR> { keys, next, step, data, bytes: 16 * group };
        let mut i = 0;
        while bytes - 16 * i >= 16 * group {
            g.data = data.add(i);
            g.run::<IN_FLIGHT>();
            i += group;
        }
        if 16 * i < bytes {
            let m = bytes - 16 * i;
            (g.data, g.bytes) = (data.add(i), m);
            run_short(&mut g, m.div_ceil(16 * lanes));
        }
    }
}

/// [`plain_run`] unrolled for the key's rounds.
///
/// # Safety
/// Runs AES instructions on `R`: the caller holds a token of an ISA with them. The `bytes` at
/// `data` are valid for reads and writes, and are whole blocks unless `R` has byte masks.
#[inline(always)]
pub(crate) unsafe fn plain_xor<R: AesRound>(keys: &RoundKeys, ctr: u128, data: *mut Block, bytes: usize) {
    unsafe {
        match keys.rounds {
            10 => plain_run::<R, 10>(keys, ctr, data, bytes),
            12 => plain_run::<R, 12>(keys, ctr, data, bytes),
            _ => plain_run::<R, 14>(keys, ctr, data, bytes),
        }
    }
}

/// `T_r[x] = S_r(base | x) ⊕ S_r(base | 0)` for x = 0..256, and the overhang (entries 256 ..
/// 256 + `TABLE_OVERHANG` repeat the first ones): 256 × r AES block-rounds, `IN_FLIGHT`
/// registers at a time.
#[inline(always)]
unsafe fn build_table<R: AesRound>(keys: &RoundKeys, ctr: u128, r: usize, t: &mut [Block]) {
    unsafe {
        match r {
            0 => build_table_after::<R, 0>(keys, ctr, t),
            1 => build_table_after::<R, 1>(keys, ctr, t),
            _ => build_table_after::<R, 2>(keys, ctr, t),
        }
    }
}

/// [`build_table`] for `r = AFTER`, with one XOR a register besides the rounds.
///
/// Within the table only byte 15 of the counter changes. Register `j` of group `g` holds `x =
/// g·G + j·LANES + lane` (`G` = `IN_FLIGHT · LANES` blocks a group, a power of two), where
/// `j·LANES + lane < G`, so its whitened blocks are `W_j ⊕ D_g`: `W_j = (base | j·LANES +
/// lane) ⊕ k_0`, made once, and `D_g` the byte `g·G` in byte 15, one add a group. Counters
/// stepped per register (an add, a byte shuffle and an XOR each) and a last XOR with
/// `S_r(base | 0)` kept the two 512-bit vector ports of Emerald Rapids busier than the AES
/// rounds (24 cycles a group of zmm registers against the rounds' 16). `S_r(base | 0)` is
/// folded into round `r`'s key (AESENC(s, k ⊕ c) = AESENC(s, k) ⊕ c), or for `r = 0` into
/// `W_j`. The overhang is stored from the registers that hold entries 0 .. `TABLE_OVERHANG`,
/// not copied back from the table: loads right behind the table's stores waited for them.
#[inline(always)]
unsafe fn build_table_after<R: AesRound, const AFTER: usize>(keys: &RoundKeys, ctr: u128, t: &mut [Block]) {
    unsafe {
        let group = IN_FLIGHT * R::LANES;
        assert!(t.len() >= 256 + TABLE_OVERHANG && AFTER <= 2 && group.is_power_of_two() && group <= 256);
        let base = ctr & !0xff;
        let s0 = segment_constant::<R, AFTER>(keys, base);
        let mut k = [R::zero(); 2];
        for (key, round_key) in k[..AFTER].iter_mut().zip(&keys.keys[1..]) {
            *key = R::broadcast(round_key);
        }
        let mut k0 = R::broadcast(&keys.keys[0]);
        if AFTER == 0 {
            k0 = k0.xor(s0);
        } else {
            k[AFTER - 1] = k[AFTER - 1].xor(s0);
        }
        let mut w = [R::zero(); IN_FLIGHT];
        let mut next = R::broadcast_u128(base).add32(R::lane_index());
        let step = R::splat_low32(R::LANES as u32);
        for v in w.iter_mut() {
            *v = next.byte_reverse().xor(k0);
            next = next.add32(step);
        }
        // Byte 15 is the top byte of the block's last 32-bit lane: adding `G << 24` there adds
        // `G` to it, and the last group's carry out of the lane is dropped.
        let d_step = R::broadcast_u128((group as u128) << 120);
        let mut d = R::zero();
        let p = t.as_mut_ptr();
        for g in 0..256 / group {
            let mut s = [R::zero(); IN_FLIGHT];
            for j in 0..IN_FLIGHT {
                s[j] = w[j].xor(d);
            }
            for key in &k[..AFTER] {
                for v in s.iter_mut() {
                    *v = v.enc(*key);
                }
            }
            for (j, v) in s.iter().enumerate() {
                let at = g * group + j * R::LANES;
                v.store(p.add(at));
                // (A branch on the entry's index, which is public.)
                if at < TABLE_OVERHANG {
                    v.store(p.add(256 + at));
                }
            }
            d = d.add32(d_step);
        }
    }
}

// The kernels hand their fields to these as parameters: references passed to a function keep
// their aliasing facts (`noalias`) when it is inlined, fields of a struct do not. Without them
// the AES-256 plain loop spilled its counter states (1.5× slower on VAES-ymm).

#[inline(always)]
unsafe fn plain_slice<R: AesRound>(keys: &RoundKeys, ctr: u128, data: &mut [Block]) {
    unsafe { plain_xor::<R>(keys, ctr, data.as_mut_ptr(), 16 * data.len()) }
}

/// [`plain_slice`] on bytes, a partial block included: only for registers with byte masks.
#[inline(always)]
unsafe fn plain_bytes<R: AesRound>(keys: &RoundKeys, ctr: u128, data: &mut [u8]) {
    unsafe {
        debug_assert!(R::BYTE_MASKS);
        plain_xor::<R>(keys, ctr, data.as_mut_ptr().cast(), data.len())
    }
}

#[inline(always)]
unsafe fn face_slice<R: AesRound>(keys: &RoundKeys, after: usize, t: &[Block], ctr: u128, data: &mut [Block]) {
    unsafe { face_xor::<R>(keys, after, t, ctr, data.as_mut_ptr(), data.len()) }
}

// One kernel per job, so that each gets an entry of its own (in one entry, the jobs' loops
// compete for registers: plain CTR measured 30% slower on VAES-ymm when it shared one).

/// `dst[..src.len()] = src` for a partial block (`src.len() < 16`) in at most four moves of
/// 8, 4, 2 and 1 bytes: a copy of a length the compiler cannot see would be a call to `memcpy`.
/// The length is public.
#[inline(always)]
fn copy_partial(dst: &mut [u8], src: &[u8]) {
    let (n, mut i) = (src.len(), 0);
    debug_assert!(n < 16 && dst.len() >= n);
    if n & 8 != 0 {
        dst[i..i + 8].copy_from_slice(&src[i..i + 8]);
        i += 8;
    }
    if n & 4 != 0 {
        dst[i..i + 4].copy_from_slice(&src[i..i + 4]);
        i += 4;
    }
    if n & 2 != 0 {
        dst[i..i + 2].copy_from_slice(&src[i..i + 2]);
        i += 2;
    }
    if n & 1 != 0 {
        dst[i] = src[i];
    }
}

/// Plain CTR over `data` (whole blocks, then possibly a partial one) from counter `ctr`
/// under round keys `keys`: a [`SliceKernel`], its inputs in registers (the per-message path).
struct Plain<I>(PhantomData<I>);

impl<I: AesIsa> SliceKernel for Plain<I> {
    type Context = RoundKeys;
    #[inline(always)]
    fn run(keys: &RoundKeys, ctr: u128, data: &mut [u8]) {
        // SAFETY: entered under `I`, whose token the backend holds (its one-block register
        // runs the same instructions); `data` is exclusively borrowed for the run, and `last`
        // is a local block.
        unsafe {
            if <I::Reg as Reg>::BYTE_MASKS && data.len() != 16 {
                // On zmm the whole message runs in its registers, the last one read and written
                // through byte masks (AVX-512BW: fast loads and stores that touch no byte past
                // the mask): no block on the stack, no copies and no wipe for a partial block,
                // and a short message in a register or two rather than one block per xmm
                // register. `AesCtr::new` + `apply_keystream`, TSC ticks on Zen 5 (2026-11-26,
                // three alternating runs): 20 B 48–49 → 41–42, 64 B 44–45 → 40–41, 100 B 56–57
                // → 47, 112 B 53–54 → 44–45, 1420 B 118–122 → 116–117. One whole block stays on
                // xmm (no mask to make): 37–38 ticks against 40–41 through a mask.
                plain_bytes::<I::Reg>(keys, ctr, data);
                return;
            }
            let (blocks, tail) = data.as_chunks_mut::<16>();
            if !tail.is_empty() {
                // The partial last block runs through a whole block on the stack, in this same
                // call (not a second call per message). It is made first, so that its rounds
                // run beside the other blocks'. The low 32 bits do not wrap inside `data`, so
                // its counter is a plain add.
                let mut last = [0u8; 16];
                copy_partial(&mut last, tail);
                plain_xor::<I::One>(keys, ctr.wrapping_add(blocks.len() as u128), &mut last, 16);
                copy_partial(tail, &last[..tail.len()]);
                crate::ct::wipe(&mut last);
            }
            if blocks.is_empty() {
                return;
            }
            if <I::Reg as Reg>::LANES > 1 && blocks.len() <= IN_FLIGHT {
                // A short message: one block per xmm register, all in flight at once, and no
                // masked load or store for an odd block (VPMASKMOV's store is slow on AMD
                // cores, and a masked load waits for the stores before it): 16 bytes on
                // vaes256 went from 96 to 88 cycles a call on Zen 3.
                plain_slice::<I::One>(keys, ctr, blocks)
            } else {
                plain_slice::<I::Reg>(keys, ctr, blocks)
            }
        }
    }
}

/// FACE over `data` from the table `t`, the cache ending after round `after`.
struct Face<'a, I> {
    keys: &'a RoundKeys,
    after: usize,
    t: &'a [Block],
    ctr: u128,
    data: &'a mut [Block],
    isa: PhantomData<I>,
}

impl<I: AesIsa> Kernel for Face<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: as for `Plain`.
        unsafe { face_slice::<I::Reg>(self.keys, self.after, self.t, read_u128(&self.ctr), self.data) }
    }
}

/// FACE's table `T_r` for the counters of `ctr`.
struct Table<'a, I> {
    keys: &'a RoundKeys,
    r: usize,
    ctr: u128,
    t: &'a mut [Block],
    isa: PhantomData<I>,
}

impl<I: AesIsa> Kernel for Table<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: as for `Plain`.
        unsafe { build_table::<I::Reg>(self.keys, read_u128(&self.ctr), self.r, self.t) }
    }
}

/// Where [`Plain`] would read the last register of `data` on `R` through a mask (`R`'s byte
/// masks, or the partial register of a run longer than `IN_FLIGHT` blocks on ymm) that leaves
/// out bytes on the next page ([`mask_reaches_next_page`]): that register's offset in `data`.
/// It then runs in a copy instead ([`AesInsn::xor_plain_bounced`]).
///
/// On Zen 5 (2026-11-29, TSC ticks, `DynCtr::apply_keystream`) a message that ended just
/// before an unmapped page took 805 against 18 mid-page at 20 bytes and 885 against 85 at
/// 1420 on zmm, and 710 against 62 at 255 bytes on ymm (AVX-512 masked off: VPMASKMOV); with
/// the copy (through `copy_bytes`), 42, 115 and 66. Plain's registers start every `16 ×
/// LANES` bytes from the start of `data`, so the test is exact: a run of whole registers, a
/// 4 KiB page in place above all, never takes the copy.
#[inline(always)]
fn masked_register_reaching_next_page<R: Reg>(data: &[u8]) -> Option<usize> {
    let width = 16 * R::LANES;
    let start = data.as_ptr().addr();
    // The usual message, whose last byte lies more than a register from the page's end, is
    // ruled out by one test; the exact one follows for the rest. (At 20 to 100 bytes on zmm
    // the exact test alone cost about a TSC tick of 18.)
    if width == 16 || start.wrapping_add(data.len()).wrapping_sub(1) % 4096 < 4096 - width {
        return None;
    }
    // The bytes the registers cover, as `Plain` cuts them.
    let span = if R::BYTE_MASKS {
        if data.len() == 16 {
            return None; // One block in an xmm register.
        }
        data.len()
    } else {
        let blocks = data.len() / 16;
        if R::LANES == 1 || blocks <= IN_FLIGHT {
            return None; // One block per xmm register; a partial block goes through the stack.
        }
        16 * blocks
    };
    if span == 0 {
        return None;
    }
    let last = (span - 1) / width * width;
    mask_reaches_next_page(start + last, span - last, width).then_some(last)
}

impl<I: AesIsa> AesInsn<I> {
    /// Plain CTR over `data` whose last register, at `at`, would be read through a mask that
    /// reaches the next page (see [`masked_register_reaching_next_page`]): the registers before
    /// it in place, the rest (at most 64 bytes) in a copy on the stack. Out of line and cold.
    #[cold]
    #[inline(never)]
    fn xor_plain_bounced(&self, ctr: u128, data: &mut [u8], at: usize) {
        let (head, tail) = data.split_at_mut(at);
        if !head.is_empty() {
            self.isa().enter_slice::<Plain<I>>(self.enc_keys(), ctr, head);
        }
        let mut copy = [0u8; 16 * MAX_LANES];
        let copy = &mut copy[..tail.len()];
        // By `copy_bytes`, not `copy_from_slice`: `memcpy` may itself move the tail's end
        // through a mask.
        // SAFETY: `tail` and `copy` are distinct and both `tail.len()` bytes long.
        unsafe { copy_bytes(tail.as_ptr(), copy.as_mut_ptr(), tail.len()) };
        // The low 32 bits of the counter do not wrap inside `data`: a plain add.
        self.isa().enter_slice::<Plain<I>>(self.enc_keys(), ctr.wrapping_add((at / 16) as u128), copy);
        // SAFETY: as above.
        unsafe { copy_bytes(copy.as_ptr(), tail.as_mut_ptr(), tail.len()) };
        crate::ct::wipe(copy);
    }
}

impl<I: AesIsa> CtrEngine for AesInsn<I> {
    fn xor_plain(&self, ctr: u128, data: &mut [Block]) {
        self.xor_plain_bytes(ctr, data.as_flattened_mut());
    }

    fn xor_plain_bytes(&self, ctr: u128, data: &mut [u8]) {
        if let Some(at) = masked_register_reaching_next_page::<I::Reg>(data) {
            return self.xor_plain_bounced(ctr, data, at);
        }
        self.isa().enter_slice::<Plain<I>>(self.enc_keys(), ctr, data);
    }

    fn build_table(&self, level: FaceLevel, ctr: u128, table: &mut FaceTable) {
        let r = level.table_round().expect("a FACE level");
        self.isa().enter(Table::<I> { keys: self.enc_keys(), r, ctr, t: &mut table.blocks, isa: PhantomData });
    }

    fn xor_face(&self, level: FaceLevel, table: &mut FaceTable, ctr: u128, data: &mut [Block]) {
        let after = level.table_round().expect("a FACE level");
        // FACE's registers follow the table's segments, not the start of `data`, so its last
        // register may be partial anywhere in the last `LANES` blocks and read through a mask
        // up to `LANES − 1` blocks past the end (see `masked_register_reaching_next_page`).
        // When those blocks would be on the next page, the last `LANES` blocks run as plain
        // CTR instead, which takes its own copy if it needs one. (A whole-register run ends
        // no closer to the end than that, and the address is public.)
        let lanes = <I::Reg as Reg>::LANES;
        let end = data.as_ptr_range().end.addr().wrapping_sub(1);
        let (data, rest) = if lanes > 1 && !data.is_empty() && mask_reaches_next_page(end, 1, 16 * lanes - 15) {
            data.split_at_mut(data.len().saturating_sub(lanes))
        } else {
            (data, &mut [][..])
        };
        if !data.is_empty() {
            self.isa().enter(Face::<I> { keys: self.enc_keys(), after, t: &table.blocks, ctr, data, isa: PhantomData });
        }
        if !rest.is_empty() {
            self.xor_plain(ctr.wrapping_add(data.len() as u128), rest);
        }
    }
}
