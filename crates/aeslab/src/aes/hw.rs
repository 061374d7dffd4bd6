//! The AES round instructions (AESENC and friends; AESE/AESMC on ARMv8) at every register
//! width, with one body.
//!
//! A register holds `LANES` blocks (xmm and ARM's q registers 1, ymm 2, zmm 4); the body keeps
//! 8 registers in flight — 8, 16 or 32 blocks — which covers the AES unit's latency ×
//! throughput product on current cores (Zen 4: latency 4, 4 block-rounds per cycle ⇒ 16
//! blocks). Round keys are broadcast into registers once per call, and the round count is a
//! const generic so the rounds unroll and the keys stay in registers.
//!
//! AES instructions run in constant time: no branch or memory index depends on key or data.

#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use super::key_schedule::{MAX_ROUNDS, RoundKeys};
use crate::Block;
use crate::aez::{CHUNK_PAIRS, PairOffsets, PowerRing};

/// A register of `LANES` AES blocks (GHASH's carry-less registers, `gcm/clmul.rs`, build on its
/// block moves). All methods are `unsafe`: the caller must be compiled with (and running on a
/// CPU with) the features the implementation needs.
pub(crate) trait AesVec: Copy {
    const LANES: usize;
    unsafe fn zero() -> Self;
    /// Loads `LANES` consecutive blocks.
    unsafe fn load(src: *const Block) -> Self;
    unsafe fn store(self, dst: *mut Block);
    /// The same block in every lane.
    unsafe fn broadcast(k: &Block) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    unsafe fn enc(self, k: Self) -> Self;
    unsafe fn enc_last(self, k: Self) -> Self;
    unsafe fn dec(self, k: Self) -> Self;
    unsafe fn dec_last(self, k: Self) -> Self;
    /// 32-bit lane addition (counters).
    unsafe fn add32(self, o: Self) -> Self;
    /// Reverses the 16 bytes of every block (little-endian counter ↔ big-endian block).
    unsafe fn byte_reverse(self) -> Self;
    /// `n` in the low 32 bits of every block, zero elsewhere.
    unsafe fn splat_low32(n: u32) -> Self;
    /// Block `l` of the register holds `l` in its low 32 bits.
    unsafe fn lane_index() -> Self;
    /// Loads the first `n < LANES` blocks (the rest are zero) without touching memory beyond.
    unsafe fn load_partial(src: *const Block, n: usize) -> Self;
    /// Stores the first `n < LANES` blocks without touching memory beyond.
    unsafe fn store_partial(self, dst: *mut Block, n: usize);
    /// The first `n < LANES` blocks, zero in the others.
    unsafe fn keep_first(self, n: usize) -> Self;
    /// From two registers holding `LANES` consecutive 32-byte pairs (a, a', b, b', …), the
    /// register of first halves and the register of second halves.
    unsafe fn split_pairs(lo: Self, hi: Self) -> (Self, Self);
    /// Inverse of [`AesVec::split_pairs`].
    unsafe fn join_pairs(first: Self, second: Self) -> (Self, Self);
}

/// XOR of the `LANES` blocks of a register.
#[inline(always)]
unsafe fn xor_lanes<V: AesVec>(v: V) -> Block {
    unsafe {
        let mut buf = [[0u8; 16]; 4];
        v.store(buf.as_mut_ptr());
        let mut acc = 0u128;
        for b in &buf[..V::LANES] {
            acc ^= u128::from_ne_bytes(*b);
        }
        acc.to_ne_bytes()
    }
}

/// AES4's four round keys (J, I, L, 0), broadcast.
#[inline(always)]
unsafe fn aes4_keys<V: AesVec>(keys: &[Block]) -> [V; 4] {
    assert_eq!(keys.len(), 4, "AES4 takes four round keys");
    unsafe { [V::broadcast(&keys[0]), V::broadcast(&keys[1]), V::broadcast(&keys[2]), V::broadcast(&keys[3])] }
}

#[inline(always)]
unsafe fn aes4_regs<V: AesVec>(k: &[V; 4], s: &mut [V]) {
    unsafe {
        for key in k {
            for x in s.iter_mut() {
                *x = x.enc(*key);
            }
        }
    }
}

/// `s[u] = AES4(s[u]) ⊕ add[u]`. AES4's last round key is zero, so the XOR that follows it
/// is that round's key: AESENC(x, 0) ⊕ y = AESENC(x, y) — one instruction fewer per register.
#[inline(always)]
unsafe fn aes4_then_xor<V: AesVec>(k: &[V; 4], s: &mut [V], add: &[V]) {
    unsafe {
        for key in &k[..3] {
            for x in s.iter_mut() {
                *x = x.enc(*key);
            }
        }
        for (x, y) in s.iter_mut().zip(add) {
            *x = x.enc(*y);
        }
    }
}

/// The multiples of L in the offsets of `LANES` consecutive pairs, with `j` XORed in: entry
/// `t` serves pairs `8q + t·LANES ..` (`LANES` divides 8, so a register's pairs share one
/// power of I). Built once per pass; the loop then needs one broadcast and one XOR per register
/// for `offset ⊕ J`.
#[inline(always)]
unsafe fn l_multiples_with<V: AesVec>(offs: &PairOffsets, j: V) -> [V; 8] {
    unsafe {
        let mut lj = [j; 8];
        for (t, x) in lj.iter_mut().enumerate().take(8 / V::LANES) {
            *x = V::load(offs.l.as_ptr().add(t * V::LANES)).xor(j);
        }
        lj
    }
}

/// `offset ⊕ J` of pairs `p .. p + LANES` (`p` a multiple of `LANES`), from the ring of powers
/// of I.
#[inline(always)]
unsafe fn pair_offsets_j<V: AesVec>(powers: &[Block; 16], lj: &[V; 8], p: usize) -> V {
    unsafe { V::broadcast(&powers[(p / 8) % 16]).xor(lj[(p % 8) / V::LANES]) }
}

/// Registers of pairs the AEZ-core kernels keep in flight. Pass 2 holds four arrays of them
/// plus 7 keys and constants: 4 fits AVX-512's 32 registers (8 spilled and measured slower).
const AEZ_UNITS: usize = 4;

/// How many of the pairs of register `u` of a step of `m` pairs exist (`LANES` but in the
/// last step). `FULL`: the step has all its `U · LANES` pairs, known at compile time.
#[inline(always)]
fn unit_pairs<V: AesVec, const FULL: bool>(u: usize, m: usize) -> usize {
    if FULL { V::LANES } else { m.saturating_sub(u * V::LANES).min(V::LANES) }
}

/// The first `n` blocks at `src` (`n ≤ LANES`; zeros after them).
#[inline(always)]
unsafe fn load_blocks<V: AesVec>(src: *const Block, n: usize) -> V {
    unsafe {
        match n {
            0 => V::zero(),
            _ if n >= V::LANES => V::load(src),
            _ => V::load_partial(src, n),
        }
    }
}

/// Stores the first `n` blocks of `v` (`n ≤ LANES`).
#[inline(always)]
unsafe fn store_blocks<V: AesVec>(v: V, dst: *mut Block, n: usize) {
    unsafe {
        match n {
            0 => {}
            _ if n >= V::LANES => v.store(dst),
            _ => v.store_partial(dst, n),
        }
    }
}

/// The pairs of a step of `m` pairs at `mem` as `U` registers of first halves and `U` of
/// second halves; missing pairs are zero. Memory is laid out as pairs (a, a', b, b', …) when
/// `interleaved`, else, for a register with all its pairs, as a register of first halves
/// followed by one of second halves. A register with some pairs missing is always read as
/// pairs, and only as many blocks as exist.
#[inline(always)]
unsafe fn load_pairs<V: AesVec, const U: usize, const FULL: bool>(mem: *const Block, m: usize, interleaved: bool) -> ([V; U], [V; U]) {
    unsafe {
        let (mut a, mut b) = ([V::zero(); U], [V::zero(); U]);
        for u in 0..U {
            let base = mem.add(2 * u * V::LANES);
            let k = unit_pairs::<V, FULL>(u, m);
            if k == V::LANES {
                (a[u], b[u]) = (V::load(base), V::load(base.add(V::LANES)));
                if interleaved {
                    (a[u], b[u]) = V::split_pairs(a[u], b[u]);
                }
            } else {
                let lo = (2 * k).min(V::LANES);
                let (x, y) = (load_blocks::<V>(base, lo), load_blocks::<V>(base.add(V::LANES), 2 * k - lo));
                (a[u], b[u]) = V::split_pairs(x, y);
            }
        }
        (a, b)
    }
}

/// The inverse of [`load_pairs`]: writes only the pairs that exist.
#[inline(always)]
unsafe fn store_pairs<V: AesVec, const U: usize, const FULL: bool>(mem: *mut Block, a: &[V; U], b: &[V; U], m: usize, interleaved: bool) {
    unsafe {
        for u in 0..U {
            let base = mem.add(2 * u * V::LANES);
            let k = unit_pairs::<V, FULL>(u, m);
            if k == V::LANES {
                let (lo, hi) = if interleaved { V::join_pairs(a[u], b[u]) } else { (a[u], b[u]) };
                lo.store(base);
                hi.store(base.add(V::LANES));
            } else {
                let (x, y) = V::join_pairs(a[u], b[u]);
                let lo = (2 * k).min(V::LANES);
                store_blocks(x, base, lo);
                store_blocks(y, base.add(V::LANES), 2 * k - lo);
            }
        }
    }
}

/// XOR of the lanes of `regs` that hold pairs of a step of `m` pairs (a register's lanes are
/// its pairs' first or second halves).
#[inline(always)]
unsafe fn sum_pairs<V: AesVec, const U: usize, const FULL: bool>(regs: &[V; U], m: usize) -> V {
    unsafe {
        let mut sum = V::zero();
        for (u, r) in regs.iter().enumerate() {
            let k = unit_pairs::<V, FULL>(u, m);
            sum = sum.xor(if k == V::LANES { *r } else { r.keep_first(k) });
        }
        sum
    }
}

/// What both passes share: AES4's keys, the L part of `offset ⊕ J` by position, and I.
struct PassConsts<V> {
    k: [V; 4],
    lj: [V; 8],
    i0: V,
}

impl<V: AesVec> PassConsts<V> {
    #[inline(always)]
    unsafe fn new(keys: &[Block], offs: &PairOffsets, j1: &Block, i0: &Block) -> Self {
        assert_eq!(keys[3], [0u8; 16], "AES4's last round key is zero");
        unsafe { PassConsts { k: aes4_keys::<V>(keys), lj: l_multiples_with(offs, V::broadcast(j1)), i0: V::broadcast(i0) } }
    }
}

/// One pass of AEZ-core in steps of `U` registers of pairs. A step is split in two: `start`
/// needs nothing from the step before (pass 1: loads and the first AES4; pass 2: E^{2,i}(S),
/// which needs no data), `finish` does the rest. The loop starts step k + 1 before finishing
/// step k, so the AES unit always sees two steps' independent chains next to each other in
/// program order; left to the out-of-order window, one step's dependent rounds fill the
/// scheduler and the next step's independent ones wait behind them.
///
/// A step has `m` pairs: all `U · LANES` (`FULL`) but in the last step, where the missing
/// pairs are zeros in registers and are neither read nor written in memory.
///
/// Between the passes, each register's worth of pairs (`LANES` pairs, `2·LANES` blocks) is
/// kept as a register of first halves followed by one of second halves: pass 1 stores and
/// pass 2 loads them without the pair shuffles. Only a register of the last step with fewer
/// than `LANES` pairs stays in pairs.
///
/// No closures here or in anything a kernel inlines (a trait, loops rather than
/// `array::from_fn` or `fold`): a closure's body is not compiled with the caller's target
/// features, and where the optimizer does not inline it every intrinsic inside becomes a call.
/// (With the workspace's release profile that made the kernels about five times slower.)
trait PassSteps<V: AesVec> {
    /// What `start` hands to `finish`.
    type Started<const U: usize>: Copy;
    /// The `m` pairs from `first`, held at `mem`; `pw` is the ring of powers of I.
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; 16], first: usize, mem: *const Block, m: usize) -> Self::Started<U>;
    /// Returns what the pass XORs up, lane by lane (zero in the lanes of missing pairs).
    unsafe fn finish<const U: usize, const FULL: bool>(&self, pw: &[Block; 16], first: usize, mem: *mut Block, started: Self::Started<U>, m: usize) -> V;
}

/// Starts the step of the `m` pairs from `first`.
#[inline(always)]
unsafe fn start_step<V: AesVec, P: PassSteps<V>>(pass: &P, pw: &[Block; 16], first: usize, mem: *const Block, m: usize) -> P::Started<AEZ_UNITS> {
    unsafe {
        if m == AEZ_UNITS * V::LANES {
            pass.start::<AEZ_UNITS, true>(pw, first, mem, m)
        } else {
            pass.start::<AEZ_UNITS, false>(pw, first, mem, m)
        }
    }
}

/// Runs a pass over the `n` pairs at `pairs`, in pipelined steps of `AEZ_UNITS` registers
/// (see [`PassSteps`]), the last one partial. Returns the XOR of what the steps return.
///
/// The powers of I come from a [`PowerRing`], filled a chunk of 64 pairs ahead: the doublings
/// are a dependent chain, and filled just before use they measured slower.
#[inline(always)]
unsafe fn run_pass<V: AesVec, P: PassSteps<V>>(pairs: &mut [[u8; 32]], offs: &PairOffsets, pass: &P) -> Block {
    unsafe {
        let (n, base) = (pairs.len(), pairs.as_mut_ptr());
        let wide = AEZ_UNITS * V::LANES;
        assert!(wide <= CHUNK_PAIRS, "a step started ahead stays within the next chunk");
        let mut acc = V::zero();
        if n > 0 {
            let mut ring = PowerRing::new(offs);
            let mut first = 0usize;
            let mut cur = start_step(pass, &ring.powers, 0, base.cast(), wide.min(n));
            loop {
                // On reaching chunk c ≥ 1, fill chunk c + 1 (if there are pairs in it).
                if first.is_multiple_of(CHUNK_PAIRS) && first > 0 && n > first + CHUNK_PAIRS {
                    ring.fill(first / CHUNK_PAIRS + 1);
                }
                let next = first + wide;
                if next >= n {
                    break;
                }
                // A step with a next one has all its pairs.
                let started = start_step(pass, &ring.powers, next, base.add(next).cast(), wide.min(n - next));
                acc = acc.xor(pass.finish::<AEZ_UNITS, true>(&ring.powers, first, base.add(first).cast(), cur, wide));
                cur = started;
                first = next;
            }
            // The last step, with nothing left to start.
            let (m, mem) = (n - first, base.add(first).cast());
            acc = acc.xor(if m == wide {
                pass.finish::<AEZ_UNITS, true>(&ring.powers, first, mem, cur, m)
            } else {
                pass.finish::<AEZ_UNITS, false>(&ring.powers, first, mem, cur, m)
            });
        }
        xor_lanes(acc)
    }
}

/// Pass 1.
struct Pass1<V> {
    c: PassConsts<V>,
}

impl<V: AesVec> PassSteps<V> for Pass1<V> {
    /// W and M'.
    type Started<const U: usize> = ([V; U], [V; U]);

    /// Loads the pairs (the message: interleaved); W = M ⊕ E^{1,i}(M').
    #[inline(always)]
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; 16], first: usize, mem: *const Block, m: usize) -> ([V; U], [V; U]) {
        unsafe {
            let c = &self.c;
            let (m_half, mp) = load_pairs::<V, U, FULL>(mem, m, true);
            let mut w = mp;
            for (u, x) in w.iter_mut().enumerate() {
                *x = x.xor(pair_offsets_j(pw, &c.lj, first + u * V::LANES));
            }
            aes4_then_xor(&c.k, &mut w, &m_half);
            (w, mp)
        }
    }

    /// X = M' ⊕ E^{0,0}(W); stores (W, X) and returns ⊕X.
    #[inline(always)]
    unsafe fn finish<const U: usize, const FULL: bool>(
        &self,
        _pw: &[Block; 16],
        _first: usize,
        mem: *mut Block,
        (w, mp): ([V; U], [V; U]),
        m: usize,
    ) -> V {
        unsafe {
            let mut x = w;
            for v in &mut x {
                *v = v.xor(self.c.i0);
            }
            aes4_then_xor(&self.c.k, &mut x, &mp);
            store_pairs::<V, U, FULL>(mem, &w, &x, m, false);
            sum_pairs::<V, U, FULL>(&x, m)
        }
    }
}

/// Pass 2; `s2j` is S ⊕ 2J ⊕ J.
struct Pass2<V> {
    c: PassConsts<V>,
    s2j: V,
}

impl<V: AesVec> PassSteps<V> for Pass2<V> {
    /// E = E^{2,i}(S).
    type Started<const U: usize> = [V; U];

    #[inline(always)]
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; 16], first: usize, _mem: *const Block, _m: usize) -> [V; U] {
        unsafe {
            let mut e = [self.s2j; U];
            for (u, x) in e.iter_mut().enumerate() {
                *x = x.xor(pair_offsets_j(pw, &self.c.lj, first + u * V::LANES));
            }
            aes4_regs(&self.c.k, &mut e);
            e
        }
    }

    /// Returns ⊕(W ⊕ E); stores the ciphertext pairs interleaved.
    #[inline(always)]
    unsafe fn finish<const U: usize, const FULL: bool>(&self, pw: &[Block; 16], first: usize, mem: *mut Block, e: [V; U], m: usize) -> V {
        unsafe {
            let c = &self.c;
            let (mut l, mut r) = load_pairs::<V, U, FULL>(mem, m, false);
            let mut t = [V::zero(); U];
            for u in 0..U {
                l[u] = l[u].xor(e[u]);
                r[u] = r[u].xor(e[u]);
                t[u] = r[u].xor(c.i0);
            }
            let y = sum_pairs::<V, U, FULL>(&l, m);
            aes4_then_xor(&c.k, &mut t, &l);
            for u in 0..U {
                l[u] = t[u];
                t[u] = l[u].xor(pair_offsets_j(pw, &c.lj, first + u * V::LANES));
            }
            aes4_then_xor(&c.k, &mut t, &r);
            store_pairs::<V, U, FULL>(mem, &t, &l, m, true);
            y
        }
    }
}

/// AEZ-core pass 1 in registers over all the pairs (see `aez/scheme.rs`):
/// W = M ⊕ E^{1,i}(M'), X = M' ⊕ E^{0,0}(W); returns the pairs done (all) and ⊕X.
/// `keys` are AES4's (J, I, L, 0); `offs` gives the pair offsets; `j1` = J, `i0` = I.
#[inline(always)]
pub(crate) unsafe fn aez_pass1<V: AesVec>(
    keys: &[Block],
    pairs: &mut [[u8; 32]],
    offs: &PairOffsets,
    j1: &Block,
    i0: &Block,
) -> (usize, Block) {
    unsafe {
        (pairs.len(), run_pass(pairs, offs, &Pass1 { c: PassConsts::<V>::new(keys, offs, j1, i0) }))
    }
}

/// AEZ-core pass 2 in registers: with E = E^{2,i}(S), L = W ⊕ E, R = X ⊕ E; L ⊕= E^{0,0}(R);
/// R ⊕= E^{1,i}(L); the pair becomes (R, L). Returns the pairs done (all) and ⊕(W ⊕ E).
/// `s2` = S ⊕ 2·J.
#[inline(always)]
pub(crate) unsafe fn aez_pass2<V: AesVec>(
    keys: &[Block],
    pairs: &mut [[u8; 32]],
    offs: &PairOffsets,
    s2: &Block,
    j1: &Block,
    i0: &Block,
) -> (usize, Block) {
    unsafe {
        // E^{2,i}(S) takes S ⊕ 2J ⊕ offset = (S ⊕ 2J ⊕ J) ⊕ (offset ⊕ J).
        let s2j = V::broadcast(s2).xor(V::broadcast(j1));
        (pairs.len(), run_pass(pairs, offs, &Pass2 { c: PassConsts::<V>::new(keys, offs, j1, i0), s2j }))
    }
}

/// Registers in flight.
pub(crate) const IN_FLIGHT: usize = 8;

/// The round keys broadcast into registers.
#[inline(always)]
pub(crate) unsafe fn key_registers<V: AesVec>(keys: &RoundKeys) -> [V; MAX_ROUNDS + 1] {
    unsafe {
        let mut k = [V::zero(); MAX_ROUNDS + 1];
        for (i, key) in keys.used().iter().enumerate() {
            k[i] = V::broadcast(key);
        }
        k
    }
}

#[inline(always)]
unsafe fn rounds<V: AesVec, const NR: usize, const DECRYPT: bool>(
    k: &[V; MAX_ROUNDS + 1],
    s: &mut [V],
) {
    unsafe {
        for x in s.iter_mut() {
            *x = x.xor(k[0]);
        }
        for key in &k[1..NR] {
            for x in s.iter_mut() {
                *x = if DECRYPT { x.dec(*key) } else { x.enc(*key) };
            }
        }
        for x in s.iter_mut() {
            *x = if DECRYPT { x.dec_last(k[NR]) } else { x.enc_last(k[NR]) };
        }
    }
}

/// Encrypts (or, with the equivalent-inverse keys, decrypts) `blocks` in place.
///
/// # Safety
/// The caller is compiled with the target features `V` needs and the CPU has them.
#[inline(always)]
pub(crate) unsafe fn crypt_blocks<V: AesVec, const NR: usize, const DECRYPT: bool>(
    keys: &RoundKeys,
    blocks: &mut [Block],
) {
    unsafe {
        let k = key_registers::<V>(keys);
        let mut wide = blocks.chunks_exact_mut(IN_FLIGHT * V::LANES);
        for chunk in &mut wide {
            let p = chunk.as_mut_ptr();
            let mut s = [V::zero(); IN_FLIGHT];
            for (i, x) in s.iter_mut().enumerate() {
                *x = V::load(p.add(i * V::LANES));
            }
            rounds::<V, NR, DECRYPT>(&k, &mut s);
            for (i, x) in s.iter().enumerate() {
                x.store(p.add(i * V::LANES));
            }
        }
        // Whole registers one at a time, then one padded register for the last blocks.
        let mut single = wide.into_remainder().chunks_exact_mut(V::LANES);
        for chunk in &mut single {
            let mut s = [V::load(chunk.as_ptr())];
            rounds::<V, NR, DECRYPT>(&k, &mut s);
            s[0].store(chunk.as_mut_ptr());
        }
        let tail = single.into_remainder();
        if !tail.is_empty() {
            let mut buf = [[0u8; 16]; 4];
            buf[..tail.len()].copy_from_slice(tail);
            let mut s = [V::load(buf.as_ptr())];
            rounds::<V, NR, DECRYPT>(&k, &mut s);
            s[0].store(buf.as_mut_ptr());
            tail.copy_from_slice(&buf[..tail.len()]);
        }
    }
}

/// Full rounds with the `N` given keys and no whitening (AEZ's AES4, AES10), `IN_FLIGHT`
/// registers at a time; a last partial register uses masked loads and stores.
#[inline(always)]
unsafe fn rounds_only<V: AesVec, const N: usize>(keys: &[Block], blocks: &mut [Block]) {
    unsafe {
        let mut k = [V::zero(); N];
        for (r, key) in k.iter_mut().zip(keys) {
            *r = V::broadcast(key);
        }
        let (lanes, n) = (V::LANES, blocks.len());
        let p = blocks.as_mut_ptr();
        let mut i = 0;
        while i + IN_FLIGHT * lanes <= n {
            let mut s = [V::zero(); IN_FLIGHT];
            for (j, x) in s.iter_mut().enumerate() {
                *x = V::load(p.add(i + j * lanes));
            }
            for key in &k {
                for x in s.iter_mut() {
                    *x = x.enc(*key);
                }
            }
            for (j, x) in s.iter().enumerate() {
                x.store(p.add(i + j * lanes));
            }
            i += IN_FLIGHT * lanes;
        }
        while i < n {
            let m = (n - i).min(lanes);
            let mut x = if m == lanes { V::load(p.add(i)) } else { V::load_partial(p.add(i), m) };
            for key in &k {
                x = x.enc(*key);
            }
            if m == lanes {
                x.store(p.add(i));
            } else {
                x.store_partial(p.add(i), m);
            }
            i += m;
        }
    }
}

/// [`rounds_only`] unrolled for AEZ's 4 and 10 rounds (other counts: one round at a time).
#[inline(always)]
pub(crate) unsafe fn rounds_only_any<V: AesVec>(keys: &[Block], blocks: &mut [Block]) {
    unsafe {
        match keys.len() {
            4 => rounds_only::<V, 4>(keys, blocks),
            10 => rounds_only::<V, 10>(keys, blocks),
            _ => {
                for key in keys {
                    rounds_only::<V, 1>(core::slice::from_ref(key), blocks);
                }
            }
        }
    }
}

/// Round keys for [`rounds_only`], wiped on drop.
pub struct RoundKeyList(pub(crate) Vec<Block>);

impl Drop for RoundKeyList {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

/// Whitening and `rounds` full rounds on each block (FACE's cache set-up: a few blocks, once
/// per key and segment). `V` holds one block per register.
#[inline(always)]
pub(crate) unsafe fn head<V: AesVec>(keys: &RoundKeys, blocks: &mut [Block], rounds: usize) {
    debug_assert_eq!(V::LANES, 1);
    unsafe {
        for b in blocks {
            let mut s = V::load(b).xor(V::broadcast(&keys.keys[0]));
            for key in &keys.keys[1..=rounds] {
                s = s.enc(V::broadcast(key));
            }
            s.store(b);
        }
    }
}

/// The [`AesVec`] methods of a register that holds one block (xmm, ARM's q registers): with
/// `LANES = 1`, "fewer than LANES blocks" never occurs, and a register of pairs is a pair of
/// registers.
macro_rules! one_block_per_register {
    () => {
        #[inline(always)]
        unsafe fn load_partial(_src: *const $crate::Block, _n: usize) -> Self {
            unreachable!("a 128-bit register holds one block")
        }
        #[inline(always)]
        unsafe fn store_partial(self, _dst: *mut $crate::Block, _n: usize) {
            unreachable!("a 128-bit register holds one block")
        }
        #[inline(always)]
        unsafe fn keep_first(self, n: usize) -> Self {
            // "Fewer than one" block: none.
            debug_assert_eq!(n, 0);
            unsafe { Self::zero() }
        }
        #[inline(always)]
        unsafe fn split_pairs(lo: Self, hi: Self) -> (Self, Self) {
            (lo, hi)
        }
        #[inline(always)]
        unsafe fn join_pairs(first: Self, second: Self) -> (Self, Self) {
            (first, second)
        }
    };
}

/// Picks the unrolled body for the key's round count.
#[inline(always)]
pub(crate) unsafe fn crypt_any<V: AesVec, const DECRYPT: bool>(keys: &RoundKeys, blocks: &mut [Block]) {
    unsafe {
        match keys.rounds {
            10 => crypt_blocks::<V, 10, DECRYPT>(keys, blocks),
            12 => crypt_blocks::<V, 12, DECRYPT>(keys, blocks),
            _ => crypt_blocks::<V, 14, DECRYPT>(keys, blocks),
        }
    }
}

/// Defines a backend over an [`AesVec`] `$vec`: the type, its `Backend` impl with
/// `#[target_feature]` entry points, the key schedule `$expand` (SubWord by the AES
/// instruction: `aesni.rs`, `armv8.rs`), and `$one`, the one-block register FACE's set-up uses.
macro_rules! aes_insn_backend {
    ($(#[$doc:meta])* $name:ident, $vec:ty, $one:ty, $batch:ty, $label:literal, $features:literal,
     $expand:path, $detect:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            enc: $crate::aes::key_schedule::RoundKeys,
            dec: $crate::aes::key_schedule::RoundKeys,
        }

        impl $name {
            #[target_feature(enable = $features)]
            unsafe fn encrypt_impl(&self, blocks: &mut [$crate::Block]) {
                unsafe { $crate::aes::hw::crypt_any::<$vec, false>(&self.enc, blocks) }
            }

            #[target_feature(enable = $features)]
            unsafe fn decrypt_impl(&self, blocks: &mut [$crate::Block]) {
                unsafe { $crate::aes::hw::crypt_any::<$vec, true>(&self.dec, blocks) }
            }

            #[target_feature(enable = $features)]
            unsafe fn face_impl(&self, after: usize, t: &[$crate::Block], ctr: u128, data: &mut [$crate::Block], wrap32: bool) {
                unsafe { $crate::ctr::hw::face_run_any::<$vec, ()>(&self.enc, after, t, ctr, data.as_mut_ptr(), data.len(), wrap32, &mut ()) }
            }

            #[target_feature(enable = $features)]
            unsafe fn head_impl(&self, blocks: &mut [$crate::Block], rounds: usize) {
                unsafe { $crate::aes::hw::head::<$one>(&self.enc, blocks, rounds) }
            }

            #[target_feature(enable = $features)]
            unsafe fn plain_impl(&self, ctr: u128, data: &mut [$crate::Block]) {
                unsafe { $crate::ctr::hw::plain_xor_any::<$vec, ()>(&self.enc, ctr, data.as_mut_ptr(), data.len(), &mut ()) }
            }

            #[target_feature(enable = $features)]
            unsafe fn rounds_only_impl(keys: &[$crate::Block], blocks: &mut [$crate::Block]) {
                // A few blocks (AEZ's single E calls) go through one-block registers: no
                // masked loads and stores, whose results do not forward to the next load.
                unsafe {
                    if blocks.len() <= 4 {
                        $crate::aes::hw::rounds_only_any::<$one>(keys, blocks)
                    } else {
                        $crate::aes::hw::rounds_only_any::<$vec>(keys, blocks)
                    }
                }
            }

            #[target_feature(enable = $features)]
            unsafe fn aez_pass1_impl(
                keys: &[$crate::Block], pairs: &mut [[u8; 32]], offs: &$crate::aez::PairOffsets, j1: &$crate::Block, i0: &$crate::Block,
            ) -> (usize, $crate::Block) {
                unsafe { $crate::aes::hw::aez_pass1::<$vec>(keys, pairs, offs, j1, i0) }
            }

            #[target_feature(enable = $features)]
            unsafe fn aez_pass2_impl(
                keys: &[$crate::Block], pairs: &mut [[u8; 32]], offs: &$crate::aez::PairOffsets, s2: &$crate::Block,
                j1: &$crate::Block, i0: &$crate::Block,
            ) -> (usize, $crate::Block) {
                unsafe { $crate::aes::hw::aez_pass2::<$vec>(keys, pairs, offs, s2, j1, i0) }
            }
        }

        impl $crate::aes::RoundsOnly for $name {
            type Keys = $crate::aes::hw::RoundKeyList;

            fn prepare_round_keys(keys: &[$crate::Block]) -> Result<Self::Keys, $crate::Error> {
                if !<Self as $crate::aes::Backend>::available() {
                    return Err($crate::Error::BackendUnavailable { backend: $label, requires: $features });
                }
                Ok($crate::aes::hw::RoundKeyList(keys.to_vec()))
            }

            fn rounds_only(keys: &Self::Keys, blocks: &mut [$crate::Block]) {
                // SAFETY: a `RoundKeyList` for this backend exists only if `prepare_round_keys`
                // found the features.
                unsafe { Self::rounds_only_impl(&keys.0, blocks) }
            }

            fn aez_pass1(
                keys: &Self::Keys, pairs: &mut [[u8; 32]], offs: &$crate::aez::PairOffsets, j1: &$crate::Block, i0: &$crate::Block,
            ) -> (usize, $crate::Block) {
                // SAFETY: as for `rounds_only`.
                unsafe { Self::aez_pass1_impl(&keys.0, pairs, offs, j1, i0) }
            }

            fn aez_pass2(
                keys: &Self::Keys, pairs: &mut [[u8; 32]], offs: &$crate::aez::PairOffsets, s2: &$crate::Block,
                j1: &$crate::Block, i0: &$crate::Block,
            ) -> (usize, $crate::Block) {
                // SAFETY: as for `rounds_only`.
                unsafe { Self::aez_pass2_impl(&keys.0, pairs, offs, s2, j1, i0) }
            }
        }

        impl $crate::ctr::FaceBackend for $name {
            type Table = Vec<$crate::Block>;
            /// Segment constants are recomputed in registers; nothing is kept between calls.
            type SegCache = ();

            fn head(&self, blocks: &mut [$crate::Block], rounds: usize) {
                // SAFETY: a value of this type exists only if `new` found the features.
                unsafe { self.head_impl(blocks, rounds) }
            }

            fn prepare_table(&self, _level: $crate::ctr::FaceLevel, t: &[$crate::Block]) -> Vec<$crate::Block> {
                $crate::ctr::hw::extended_table(t)
            }

            fn face_run(
                &self,
                level: $crate::ctr::FaceLevel,
                t: &Vec<$crate::Block>,
                _seg: &mut (),
                ctr: u128,
                data: &mut [$crate::Block],
                wrap32: bool,
            ) {
                // SAFETY: a value of this type exists only if `new` found the features.
                unsafe { self.face_impl(level.table_round().expect("FACE level"), t, ctr, data, wrap32) }
            }

            fn plain_xor(&self, ctr: u128, data: &mut [$crate::Block]) {
                // SAFETY: as above.
                unsafe { self.plain_impl(ctr, data) }
            }

            fn stitches(&self, imp: $crate::gcm::GhashImpl) -> bool {
                imp == <$vec as $crate::gcm::stitch::StitchVec>::GHASH
            }

            fn xor_ghash(
                &self,
                level: $crate::ctr::FaceLevel,
                table: Option<&Vec<$crate::Block>>,
                seg: &mut (),
                ctr: u128,
                data: &mut [$crate::Block],
                wrap32: bool,
                g: &mut $crate::gcm::stitch::GhashStitch,
            ) {
                if !self.stitches(g.imp()) {
                    return $crate::ctr::xor_then_ghash(self, level, table, seg, ctr, data, wrap32, g);
                }
                let after = table.map(|_| level.table_round().expect("FACE level"));
                let t = table.map_or(&[][..], |t| &t[..]);
                // SAFETY: this backend exists, so the CPU has its AES features; the GHASH key
                // is `StitchVec::GHASH`, built only after `available()` found its features.
                unsafe { (<$vec as $crate::gcm::stitch::StitchVec>::STITCHED)(&self.enc, after, t, ctr, data, wrap32, g) }
            }
        }

        impl $crate::aes::Backend for $name {
            const NAME: &'static str = $label;
            const CONSTANT_TIME: bool = true;
            const REQUIRES: &'static str = $features;
            type Batch = $batch;

            fn available() -> bool {
                $detect
            }

            fn new(key: &[u8]) -> Result<Self, $crate::Error> {
                if !Self::available() {
                    return Err($crate::Error::BackendUnavailable { backend: $label, requires: $features });
                }
                // SAFETY: `$expand` needs the AES instructions, checked just above.
                let enc = unsafe { $expand(key)? };
                let dec = $crate::aes::key_schedule::equivalent_inverse(&enc);
                Ok($name { enc, dec })
            }

            fn rounds(&self) -> usize {
                self.enc.rounds
            }

            fn encrypt_blocks(&self, blocks: &mut [$crate::Block]) {
                // SAFETY: a value of this type exists only if `new` found the features.
                unsafe { self.encrypt_impl(blocks) }
            }

            fn decrypt_blocks(&self, blocks: &mut [$crate::Block]) {
                // SAFETY: as for encryption.
                unsafe { self.decrypt_impl(blocks) }
            }
        }
    };
}
