//! FACE and plain CTR for the AES-instruction backends (AES-NI, VAES ymm/zmm, ARMv8), one body for
//! every register width.
//!
//! FACE: the state entering round `after + 1` for counter `base | x` is `C ⊕ T[x]`; with
//! consecutive counters, a register of `LANES` blocks is one unaligned load of `T[x..x+LANES]`
//! and one XOR with the broadcast `C` — no counter arithmetic, no byte swap, `after` fewer
//! rounds. `C` changes every 256 blocks and is recomputed in registers (two AESENCs for rd2p)
//! without leaving the loop; groups are aligned so that none straddles that change. The
//! plaintext is folded into the last round key:
//! AESENCLAST(s, k ⊕ p) = AESENCLAST(s, k) ⊕ p.

#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use crate::Block;
use crate::aes::hw::{AesVec, IN_FLIGHT, key_registers};
use crate::aes::key_schedule::{MAX_ROUNDS, RoundKeys};
use super::stream::advance;

type Keys<V> = [V; MAX_ROUNDS + 1];

/// Work interleaved with the keystream, one group of registers at a time, so that the core
/// overlaps the two: GCM stitches its GHASH in here (`gcm/stitch.rs`). Plain CTR passes `()`.
pub(crate) trait Stitch {
    /// Called before the `len` blocks at `group` are XORed with their keystream: what is below
    /// `group` is output, what is from `group` on is still input.
    unsafe fn before_group(&mut self, group: *const Block, len: usize);
}

impl Stitch for () {
    #[inline(always)]
    unsafe fn before_group(&mut self, _group: *const Block, _len: usize) {}
}

/// Table entries past 256 repeat the start, so the last register of a short group may load
/// whole registers past entry 255 (the entries it does not use).
pub(crate) const TABLE_OVERHANG: usize = 32;

/// The table for the AESENC backends: `T[0..256]` followed by `T[0..TABLE_OVERHANG]`.
pub(crate) fn extended_table(t: &[Block]) -> Vec<Block> {
    let mut v = Vec::with_capacity(256 + TABLE_OVERHANG);
    v.extend_from_slice(t);
    v.extend_from_slice(&t[..TABLE_OVERHANG]);
    v
}

/// Rounds `AFTER + 1 .. NR` on the first `nv` registers of `s`, then the last round with the
/// plaintext at `dst` folded into its key; the result replaces `dst`. The last register holds
/// `last` blocks (`last < LANES` uses masked loads and stores).
#[inline(always)]
unsafe fn finish<V: AesVec, const NR: usize, const AFTER: usize>(
    k: &Keys<V>,
    s: &mut [V],
    dst: *mut Block,
    last: usize,
) {
    unsafe {
        for key in &k[AFTER + 1..NR] {
            for x in s.iter_mut() {
                *x = x.enc(*key);
            }
        }
        let nv = s.len();
        for (j, x) in s.iter().enumerate() {
            let p = dst.add(j * V::LANES);
            if j + 1 < nv || last == V::LANES {
                x.enc_last(k[NR].xor(V::load(p))).store(p);
            } else {
                x.enc_last(k[NR].xor(V::load_partial(p, last))).store_partial(p, last);
            }
        }
    }
}

/// `C = S_AFTER(base | 0)`: whitening and `AFTER` AESENCs, in registers.
#[inline(always)]
unsafe fn segment_constant<V: AesVec, const AFTER: usize>(k: &Keys<V>, base: u128) -> V {
    unsafe {
        let mut c = V::broadcast(&base.to_be_bytes()).xor(k[0]);
        for key in &k[1..=AFTER] {
            c = c.enc(*key);
        }
        c
    }
}

/// A whole FACE run, `IN_FLIGHT` registers at a time with the round keys in registers
/// throughout. Register `j` of a group starts at counter byte `x_j`; it reads `T[x_j..]` and
/// XORs the constant of its segment, recomputed at each wrap of byte 15.
///
/// The `n` blocks at `data` are one raw pointer rather than a slice so that `stitch` may read
/// them through the same pointer between groups (GCM hashes the ciphertext there).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn face_run<V: AesVec, S: Stitch, const NR: usize, const AFTER: usize>(
    keys: &RoundKeys,
    t: &[Block],
    ctr: u128,
    data: *mut Block,
    n: usize,
    wrap32: bool,
    stitch: &mut S,
) {
    unsafe {
        assert!(t.len() >= 256 + TABLE_OVERHANG);
        let k = key_registers::<V>(keys);
        let (lanes, group) = (V::LANES, IN_FLIGHT * V::LANES);
        let mut x = (ctr & 0xff) as usize;
        let mut base = ctr & !0xff;
        let mut c = segment_constant::<V, AFTER>(&k, base);
        let mut i = 0;
        while i < n {
            // Whole groups inside the segment: one load and one XOR per register.
            while n - i >= group && x + group <= 256 {
                let mut s = [V::zero(); IN_FLIGHT];
                for (j, v) in s.iter_mut().enumerate() {
                    *v = V::load(t.as_ptr().add(x + j * lanes)).xor(c);
                }
                stitch.before_group(data.add(i), group);
                finish::<V, NR, AFTER>(&k, &mut s, data.add(i), lanes);
                i += group;
                x += group;
            }
            if i == n {
                break;
            }
            if x == 256 {
                (x, base) = (0, advance(base, 256, wrap32));
                c = segment_constant::<V, AFTER>(&k, base);
                continue;
            }
            // A short group: to the end of the segment (after which groups are aligned to
            // `group`, which divides 256, and none straddles a segment again) or of the data.
            // Its last register may read up to `LANES − 1` entries past `x + m`, inside the
            // table's overhang.
            let m = (n - i).min(256 - x);
            let nv = m.div_ceil(lanes);
            let mut s = [V::zero(); IN_FLIGHT];
            for (j, v) in s.iter_mut().enumerate().take(nv) {
                *v = V::load(t.as_ptr().add(x + j * lanes)).xor(c);
            }
            stitch.before_group(data.add(i), m);
            finish::<V, NR, AFTER>(&k, &mut s[..nv], data.add(i), m - (nv - 1) * lanes);
            i += m;
            x += m;
        }
    }
}

/// Picks the unrolled body for the key's rounds and the cached round.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn face_run_any<V: AesVec, S: Stitch>(
    keys: &RoundKeys,
    after: usize,
    t: &[Block],
    ctr: u128,
    data: *mut Block,
    n: usize,
    wrap32: bool,
    st: &mut S,
) {
    unsafe {
        match (keys.rounds, after) {
            (10, 0) => face_run::<V, S, 10, 0>(keys, t, ctr, data, n, wrap32, st),
            (10, 1) => face_run::<V, S, 10, 1>(keys, t, ctr, data, n, wrap32, st),
            (10, _) => face_run::<V, S, 10, 2>(keys, t, ctr, data, n, wrap32, st),
            (12, 0) => face_run::<V, S, 12, 0>(keys, t, ctr, data, n, wrap32, st),
            (12, 1) => face_run::<V, S, 12, 1>(keys, t, ctr, data, n, wrap32, st),
            (12, _) => face_run::<V, S, 12, 2>(keys, t, ctr, data, n, wrap32, st),
            (_, 0) => face_run::<V, S, 14, 0>(keys, t, ctr, data, n, wrap32, st),
            (_, 1) => face_run::<V, S, 14, 1>(keys, t, ctr, data, n, wrap32, st),
            (_, _) => face_run::<V, S, 14, 2>(keys, t, ctr, data, n, wrap32, st),
        }
    }
}

/// Plain CTR: counters kept little-endian in registers (a 32-bit add per block), byte-swapped
/// to big-endian blocks, whitened and encrypted. The low 32 bits must not wrap in the `n`
/// blocks at `data`.
#[inline(always)]
unsafe fn plain_xor<V: AesVec, S: Stitch, const NR: usize>(keys: &RoundKeys, ctr: u128, data: *mut Block, n: usize, stitch: &mut S) {
    unsafe {
        let k = key_registers::<V>(keys);
        let (lanes, group) = (V::LANES, IN_FLIGHT * V::LANES);
        let mut next = V::broadcast(&ctr.to_le_bytes()).add32(V::lane_index());
        let step = V::splat_low32(lanes as u32);
        let mut s = [V::zero(); IN_FLIGHT];
        let mut i = 0;
        while n - i >= group {
            for v in s.iter_mut() {
                *v = next.byte_reverse().xor(k[0]);
                next = next.add32(step);
            }
            stitch.before_group(data.add(i), group);
            finish::<V, NR, 0>(&k, &mut s, data.add(i), lanes);
            i += group;
        }
        if i < n {
            let m = n - i;
            let nv = m.div_ceil(lanes);
            for v in s.iter_mut().take(nv) {
                *v = next.byte_reverse().xor(k[0]);
                next = next.add32(step);
            }
            stitch.before_group(data.add(i), m);
            finish::<V, NR, 0>(&k, &mut s[..nv], data.add(i), m - (nv - 1) * lanes);
        }
    }
}

#[inline(always)]
pub(crate) unsafe fn plain_xor_any<V: AesVec, S: Stitch>(keys: &RoundKeys, ctr: u128, data: *mut Block, n: usize, st: &mut S) {
    unsafe {
        match keys.rounds {
            10 => plain_xor::<V, S, 10>(keys, ctr, data, n, st),
            12 => plain_xor::<V, S, 12>(keys, ctr, data, n, st),
            _ => plain_xor::<V, S, 14>(keys, ctr, data, n, st),
        }
    }
}
