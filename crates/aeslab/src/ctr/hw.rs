//! FACE and plain CTR for the AES-instruction backends (AES-NI, VAES ymm/zmm), one body for
//! every register width.
//!
//! FACE: the state entering round `after + 1` for counter `base | x` is `C ⊕ T[x]`; with
//! consecutive counters, a register of `LANES` blocks is one unaligned load of `T[x..x+LANES]`
//! and one XOR with the broadcast `C` — no counter arithmetic, no byte swap, `after` fewer
//! rounds. `C` changes every 256 blocks and is recomputed in registers (two AESENCs for rd2p)
//! without leaving the loop. The plaintext is folded into the last round key:
//! AESENCLAST(s, k ⊕ p) = AESENCLAST(s, k) ⊕ p.

#![cfg(target_arch = "x86_64")]

use core::arch::x86_64::*;

use crate::Block;
use crate::aes::hw::{AesVec, IN_FLIGHT, key_registers};
use crate::aes::key_schedule::{MAX_ROUNDS, RoundKeys};
use crate::ctr::advance;

type Keys<V> = [V; MAX_ROUNDS + 1];

/// Rounds `AFTER + 1 .. NR`, then the last round with `dst`'s plaintext folded into its key;
/// the result replaces `dst`.
#[inline(always)]
unsafe fn finish<V: AesVec, const NR: usize, const AFTER: usize>(k: &Keys<V>, s: &mut [V], dst: *mut Block) {
    unsafe {
        for key in &k[AFTER + 1..NR] {
            for x in s.iter_mut() {
                *x = x.enc(*key);
            }
        }
        for (j, x) in s.iter().enumerate() {
            let p = dst.add(j * V::LANES);
            x.enc_last(k[NR].xor(V::load(p))).store(p);
        }
    }
}

/// `data[i] ^= E(C ⊕ T[i])` starting after round `AFTER` (`t` is the slice of the table
/// for these counters).
#[inline(always)]
unsafe fn segment_xor<V: AesVec, const NR: usize, const AFTER: usize>(k: &Keys<V>, c: V, t: &[Block], data: &mut [Block]) {
    unsafe {
        let (lanes, n) = (V::LANES, data.len());
        let mut i = 0;
        while i + IN_FLIGHT * lanes <= n {
            let mut s = [V::zero(); IN_FLIGHT];
            for (j, x) in s.iter_mut().enumerate() {
                *x = V::load(t.as_ptr().add(i + j * lanes)).xor(c);
            }
            finish::<V, NR, AFTER>(k, &mut s, data.as_mut_ptr().add(i));
            i += IN_FLIGHT * lanes;
        }
        while i + lanes <= n {
            let mut s = [V::load(t.as_ptr().add(i)).xor(c)];
            finish::<V, NR, AFTER>(k, &mut s, data.as_mut_ptr().add(i));
            i += lanes;
        }
        if i < n {
            // Fewer blocks than a register (only at the ends of a run): pad table and data.
            let m = n - i;
            let (mut tb, mut db) = ([[0u8; 16]; 4], [[0u8; 16]; 4]);
            tb[..m].copy_from_slice(&t[i..]);
            db[..m].copy_from_slice(&data[i..]);
            let mut s = [V::load(tb.as_ptr()).xor(c)];
            finish::<V, NR, AFTER>(k, &mut s, db.as_mut_ptr());
            data[i..].copy_from_slice(&db[..m]);
        }
    }
}

/// A whole FACE run: segment by segment, with the round keys in registers throughout and each
/// segment constant `C = S_AFTER(base | 0)` computed in registers (whitening + `AFTER` AESENCs).
#[inline(always)]
unsafe fn face_run<V: AesVec, const NR: usize, const AFTER: usize>(
    keys: &RoundKeys,
    t: &[Block],
    mut ctr: u128,
    data: &mut [Block],
    wrap32: bool,
) {
    unsafe {
        let k = key_registers::<V>(keys);
        let mut done = 0;
        while done < data.len() {
            let x = (ctr & 0xff) as usize;
            let n = (data.len() - done).min(256 - x);
            let mut c = V::broadcast(&(ctr & !0xff).to_be_bytes()).xor(k[0]);
            for key in &k[1..=AFTER] {
                c = c.enc(*key);
            }
            segment_xor::<V, NR, AFTER>(&k, c, &t[x..x + n], &mut data[done..done + n]);
            done += n;
            ctr = advance(ctr, n as u128, wrap32);
        }
    }
}

/// Picks the unrolled body for the key's rounds and the cached round.
#[inline(always)]
pub(crate) unsafe fn face_run_any<V: AesVec>(
    keys: &RoundKeys,
    after: usize,
    t: &[Block],
    ctr: u128,
    data: &mut [Block],
    wrap32: bool,
) {
    unsafe {
        match (keys.rounds, after) {
            (10, 0) => face_run::<V, 10, 0>(keys, t, ctr, data, wrap32),
            (10, 1) => face_run::<V, 10, 1>(keys, t, ctr, data, wrap32),
            (10, _) => face_run::<V, 10, 2>(keys, t, ctr, data, wrap32),
            (12, 0) => face_run::<V, 12, 0>(keys, t, ctr, data, wrap32),
            (12, 1) => face_run::<V, 12, 1>(keys, t, ctr, data, wrap32),
            (12, _) => face_run::<V, 12, 2>(keys, t, ctr, data, wrap32),
            (_, 0) => face_run::<V, 14, 0>(keys, t, ctr, data, wrap32),
            (_, 1) => face_run::<V, 14, 1>(keys, t, ctr, data, wrap32),
            (_, _) => face_run::<V, 14, 2>(keys, t, ctr, data, wrap32),
        }
    }
}

/// Plain CTR: counters kept little-endian in registers (a 32-bit add per block), byte-swapped
/// to big-endian blocks, whitened and encrypted. The low 32 bits must not wrap in `data`.
#[inline(always)]
unsafe fn plain_xor<V: AesVec, const NR: usize>(keys: &RoundKeys, ctr: u128, data: &mut [Block]) {
    unsafe {
        let k = key_registers::<V>(keys);
        let lanes = V::LANES;
        let mut next = V::broadcast(&ctr.to_le_bytes()).add32(V::lane_index());
        let step = V::splat_low32(lanes as u32);
        let n = data.len();
        let mut i = 0;
        while i + IN_FLIGHT * lanes <= n {
            let mut s = [V::zero(); IN_FLIGHT];
            for x in s.iter_mut() {
                *x = next.byte_reverse().xor(k[0]);
                next = next.add32(step);
            }
            finish::<V, NR, 0>(&k, &mut s, data.as_mut_ptr().add(i));
            i += IN_FLIGHT * lanes;
        }
        while i < n {
            let m = (n - i).min(lanes);
            let mut db = [[0u8; 16]; 4];
            db[..m].copy_from_slice(&data[i..i + m]);
            let mut s = [next.byte_reverse().xor(k[0])];
            next = next.add32(step);
            finish::<V, NR, 0>(&k, &mut s, db.as_mut_ptr());
            data[i..i + m].copy_from_slice(&db[..m]);
            i += m;
        }
    }
}

#[inline(always)]
pub(crate) unsafe fn plain_xor_any<V: AesVec>(keys: &RoundKeys, ctr: u128, data: &mut [Block]) {
    unsafe {
        match keys.rounds {
            10 => plain_xor::<V, 10>(keys, ctr, data),
            12 => plain_xor::<V, 12>(keys, ctr, data),
            _ => plain_xor::<V, 14>(keys, ctr, data),
        }
    }
}

/// Whitening and `rounds` full rounds with AESENC (FACE's cache set-up).
///
/// # Safety
/// The CPU has AES-NI.
#[target_feature(enable = "aes")]
pub(crate) unsafe fn head_aesni(keys: &RoundKeys, blocks: &mut [Block], rounds: usize) {
    unsafe {
        for b in blocks {
            let mut s = _mm_xor_si128(_mm_loadu_si128(b.as_ptr().cast()), _mm_loadu_si128(keys.keys[0].as_ptr().cast()));
            for key in &keys.keys[1..=rounds] {
                s = _mm_aesenc_si128(s, _mm_loadu_si128(key.as_ptr().cast()));
            }
            _mm_storeu_si128(b.as_mut_ptr().cast(), s);
        }
    }
}
