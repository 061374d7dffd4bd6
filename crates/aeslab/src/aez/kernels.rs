//! AEZ-core's two passes in registers, for the AES-instruction backends: each pass over all
//! the pairs of a message in one kernel, `AEZ_UNITS` registers of pairs per step, pipelined.
//! The other backends run the batched passes of `scheme.rs` through AES4 calls. Which runs
//! where is [`AezEngine`]'s business, implemented here for the three backend families.
//!
//! The kernels are generic over the register (`AesRound`); AES instructions run in constant
//! time, and which blocks go where depends only on lengths.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::marker::PhantomData;

use super::tweak::{PairOffsets, PowerRing, RING_POWERS};
use crate::Block;
use crate::aes::insn::{AesInsn, AesIsa, AesRound, InsnRoundKeys};
use crate::aes::sliced::SlicedIsa;
use crate::aes::{Rounds, Sliced, TableVartime};
use crate::simd::{Kernel, load_blocks, store_blocks, xor_lanes};
use crate::Error;

/// AES4's four round keys (J, I, L, 0), as the kernels read them: from memory, broadcast at
/// each use. (Held in registers, they left too few for the pairs: with 16 ymm registers the
/// allocator spilled pass 1's pairs, and the VAES-ymm passes measured 10–13% slower.)
type Aes4Keys = [Block; 4];

#[inline(always)]
unsafe fn aes4_regs<V: AesRound>(k: &Aes4Keys, s: &mut [V]) {
    unsafe {
        for key in k {
            let key = V::broadcast(key);
            for x in s.iter_mut() {
                *x = x.enc(key);
            }
        }
    }
}

/// `s[u] = AES4(s[u]) ⊕ add[u]`. AES4's last round key is zero, so the XOR that follows it
/// is that round's key: AESENC(x, 0) ⊕ y = AESENC(x, y) — one instruction fewer per register.
#[inline(always)]
unsafe fn aes4_then_xor<V: AesRound>(k: &Aes4Keys, s: &mut [V], add: &[V]) {
    unsafe {
        for key in &k[..3] {
            let key = V::broadcast(key);
            for x in s.iter_mut() {
                *x = x.enc(key);
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
unsafe fn l_multiples_with<V: AesRound>(offs: &PairOffsets, j: V) -> [V; 8] {
    unsafe {
        let mut lj = [j; 8];
        for (t, x) in lj.iter_mut().enumerate().take(8 / V::LANES) {
            *x = V::load(offs.l.as_ptr().add(t * V::LANES)).xor(j);
        }
        lj
    }
}

/// `offset ⊕ J` of register `u` of the step of `U` registers from pair `first` (a multiple
/// of `U · LANES`), from the ring of powers of I.
///
/// Where a step is a whole number of eight-pair groups (ymm and zmm), `first` is a multiple of
/// 8: the power's index is `first / 8` plus a constant and the L part is a constant, so a step
/// loads its one or two powers once and a register costs two XORs. Worked out from
/// `first + u · LANES` for each register, the index arithmetic, the broadcast and the XOR were
/// five instructions a register; `vaes512` ran a 64 KiB message 2–3% faster this way (Zen 5,
/// 2026-11-29).
#[inline(always)]
unsafe fn pair_offsets_j<V: AesRound, const U: usize>(powers: &[Block; RING_POWERS], lj: &[V; 8], first: usize, u: usize) -> V {
    unsafe {
        if (U * V::LANES).is_multiple_of(8) {
            V::broadcast(&powers[(first / 8 + u * V::LANES / 8) % RING_POWERS]).xor(lj[u % (8 / V::LANES)])
        } else {
            let p = first + u * V::LANES;
            V::broadcast(&powers[(p / 8) % RING_POWERS]).xor(lj[(p % 8) / V::LANES])
        }
    }
}

/// Registers of pairs the AEZ-core kernels keep in flight. Pass 2 holds four arrays of them
/// plus 7 keys and constants: 4 fits AVX-512's 32 registers (8 spilled and measured slower).
const AEZ_UNITS: usize = 4;

/// How many of the pairs of register `u` of a step of `m` pairs exist (`LANES` but in the
/// last step). `FULL`: the step has all its `U · LANES` pairs, known at compile time.
#[inline(always)]
fn unit_pairs<V: AesRound, const FULL: bool>(u: usize, m: usize) -> usize {
    if FULL { V::LANES } else { m.saturating_sub(u * V::LANES).min(V::LANES) }
}

/// The pairs of a step of `m` pairs at `mem` as `U` registers of first halves and `U` of
/// second halves; missing pairs are zero. Memory is laid out as pairs (a, a', b, b', …) when
/// `interleaved`, else, for a register with all its pairs, as a register of first halves
/// followed by one of second halves. A register with some pairs missing is always read as
/// pairs, and only as many blocks as exist.
#[inline(always)]
unsafe fn load_pairs<V: AesRound, const U: usize, const FULL: bool>(mem: *const Block, m: usize, interleaved: bool) -> ([V; U], [V; U]) {
    unsafe {
        let (mut a, mut b) = ([V::zero(); U], [V::zero(); U]);
        for u in 0..U {
            let k = unit_pairs::<V, FULL>(u, m);
            // A pointer is made only to blocks that exist: `add` past the end of the data
            // would be undefined behaviour even unused (Miri flags it).
            if k == 0 {
                continue;
            }
            let base = mem.add(2 * u * V::LANES);
            if k == V::LANES {
                (a[u], b[u]) = (V::load(base), V::load(base.add(V::LANES)));
                if interleaved {
                    (a[u], b[u]) = V::unzip(a[u], b[u]);
                }
            } else {
                let lo = (2 * k).min(V::LANES);
                let x = load_blocks::<V>(base, lo);
                let y = if 2 * k > lo { load_blocks::<V>(base.add(V::LANES), 2 * k - lo) } else { V::zero() };
                (a[u], b[u]) = V::unzip(x, y);
            }
        }
        (a, b)
    }
}

/// The inverse of [`load_pairs`]: writes only the pairs that exist.
#[inline(always)]
unsafe fn store_pairs<V: AesRound, const U: usize, const FULL: bool>(mem: *mut Block, a: &[V; U], b: &[V; U], m: usize, interleaved: bool) {
    unsafe {
        for u in 0..U {
            let k = unit_pairs::<V, FULL>(u, m);
            // As in `load_pairs`: no pointer past the data.
            if k == 0 {
                continue;
            }
            let base = mem.add(2 * u * V::LANES);
            if k == V::LANES {
                let (lo, hi) = if interleaved { V::zip(a[u], b[u]) } else { (a[u], b[u]) };
                lo.store(base);
                hi.store(base.add(V::LANES));
            } else {
                let (x, y) = V::zip(a[u], b[u]);
                let lo = (2 * k).min(V::LANES);
                store_blocks(x, base, lo);
                if 2 * k > lo {
                    store_blocks(y, base.add(V::LANES), 2 * k - lo);
                }
            }
        }
    }
}

/// XOR of the lanes of `regs` that hold pairs of a step of `m` pairs (a register's lanes are
/// its pairs' first or second halves).
#[inline(always)]
unsafe fn sum_pairs<V: AesRound, const U: usize, const FULL: bool>(regs: &[V; U], m: usize) -> V {
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
struct PassConsts<'k, V> {
    k: &'k Aes4Keys,
    lj: [V; 8],
    i0: V,
}

impl<'k, V: AesRound> PassConsts<'k, V> {
    #[inline(always)]
    unsafe fn new(keys: &'k [Block], offs: &PairOffsets, j1: &Block, i0: &Block) -> Self {
        let k: &Aes4Keys = keys.try_into().expect("AES4 takes four round keys");
        assert_eq!(k[3], [0u8; 16], "AES4's last round key is zero");
        unsafe { PassConsts { k, lj: l_multiples_with(offs, V::broadcast(j1)), i0: V::broadcast(i0) } }
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
trait PassSteps<V: AesRound> {
    /// What `start` hands to `finish`.
    type Started<const U: usize>: Copy;
    /// The `m` pairs from `first`, held at `mem`; `pw` is the ring of powers of I.
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; RING_POWERS], first: usize, mem: *const Block, m: usize) -> Self::Started<U>;
    /// Returns what the pass XORs up, lane by lane (zero in the lanes of missing pairs).
    unsafe fn finish<const U: usize, const FULL: bool>(&self, pw: &[Block; RING_POWERS], first: usize, mem: *mut Block, started: Self::Started<U>, m: usize) -> V;
}

/// Starts the step of the `m` pairs from `first`.
#[inline(always)]
unsafe fn start_step<V: AesRound, P: PassSteps<V>>(pass: &P, pw: &[Block; RING_POWERS], first: usize, mem: *const Block, m: usize) -> P::Started<AEZ_UNITS> {
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
/// The powers of I come from a [`PowerRing`], each written as soon as the one it replaces is
/// no longer read, about 100 pairs before its first use: the doublings are a dependent chain,
/// and made just before use they measured slower.
#[inline(always)]
unsafe fn run_pass<V: AesRound, P: PassSteps<V>>(pairs: &mut [[u8; 32]], offs: &PairOffsets, pass: &P) -> Block {
    unsafe {
        let (n, base) = (pairs.len(), pairs.as_mut_ptr());
        let wide = AEZ_UNITS * V::LANES;
        // The pairs read at once, from the step being finished to the end of the one started
        // ahead, need at most 2·wide/8 + 1 powers: fewer than the ring's 16.
        assert!(2 * wide <= 8 * (RING_POWERS - 1), "two steps fit in the ring");
        let mut acc = V::zero();
        if n > 0 {
            let mut ring = PowerRing::new(offs);
            // The next power to write (the ring starts with 0 to 15).
            let mut written = RING_POWERS;
            let mut first = 0usize;
            let mut cur = start_step(pass, &ring.powers, 0, base.cast(), wide.min(n));
            loop {
                // No step reads a pair before `first` any more: every power up to 15 groups past
                // its group can be written (if there are pairs in it).
                while written < first / 8 + RING_POWERS && 8 * written < n {
                    ring.fill_one(written);
                    written += 1;
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
struct Pass1<'k, V> {
    c: PassConsts<'k, V>,
}

impl<V: AesRound> PassSteps<V> for Pass1<'_, V> {
    /// W and M'.
    type Started<const U: usize> = ([V; U], [V; U]);

    /// Loads the pairs (the message: interleaved); W = M ⊕ E^{1,i}(M').
    #[inline(always)]
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; RING_POWERS], first: usize, mem: *const Block, m: usize) -> ([V; U], [V; U]) {
        unsafe {
            let c = &self.c;
            let (m_half, mp) = load_pairs::<V, U, FULL>(mem, m, true);
            let mut w = mp;
            for (u, x) in w.iter_mut().enumerate() {
                *x = x.xor(pair_offsets_j::<V, U>(pw, &c.lj, first, u));
            }
            aes4_then_xor(c.k, &mut w, &m_half);
            (w, mp)
        }
    }

    /// X = M' ⊕ E^{0,0}(W); stores (W, X) and returns ⊕X.
    #[inline(always)]
    unsafe fn finish<const U: usize, const FULL: bool>(
        &self,
        _pw: &[Block; RING_POWERS],
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
            aes4_then_xor(self.c.k, &mut x, &mp);
            store_pairs::<V, U, FULL>(mem, &w, &x, m, false);
            sum_pairs::<V, U, FULL>(&x, m)
        }
    }
}

/// Pass 2; `s2j` is S ⊕ 2J ⊕ J.
struct Pass2<'k, V> {
    c: PassConsts<'k, V>,
    s2j: V,
}

impl<V: AesRound> PassSteps<V> for Pass2<'_, V> {
    /// E = E^{2,i}(S).
    type Started<const U: usize> = [V; U];

    #[inline(always)]
    unsafe fn start<const U: usize, const FULL: bool>(&self, pw: &[Block; RING_POWERS], first: usize, _mem: *const Block, _m: usize) -> [V; U] {
        unsafe {
            let mut e = [self.s2j; U];
            for (u, x) in e.iter_mut().enumerate() {
                *x = x.xor(pair_offsets_j::<V, U>(pw, &self.c.lj, first, u));
            }
            aes4_regs(self.c.k, &mut e);
            e
        }
    }

    /// Returns ⊕(W ⊕ E); stores the ciphertext pairs interleaved.
    #[inline(always)]
    unsafe fn finish<const U: usize, const FULL: bool>(&self, pw: &[Block; RING_POWERS], first: usize, mem: *mut Block, e: [V; U], m: usize) -> V {
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
            aes4_then_xor(c.k, &mut t, &l);
            for u in 0..U {
                l[u] = t[u];
                t[u] = l[u].xor(pair_offsets_j::<V, U>(pw, &c.lj, first, u));
            }
            aes4_then_xor(c.k, &mut t, &r);
            store_pairs::<V, U, FULL>(mem, &t, &l, m, true);
            y
        }
    }
}

/// AEZ-core pass 1 in registers over all the pairs (see `scheme.rs`):
/// W = M ⊕ E^{1,i}(M'), X = M' ⊕ E^{0,0}(W); returns the pairs done (all) and ⊕X.
/// `keys` are AES4's (J, I, L, 0); `offs` gives the pair offsets; `j1` = J, `i0` = I.
#[inline(always)]
unsafe fn pass1<V: AesRound>(
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
unsafe fn pass2<V: AesRound>(
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


/// One pass as a kernel: `PASS2` selects pass 2 (`s2` set).
struct Pass<'a, I, const PASS2: bool> {
    keys: &'a [Block],
    pairs: &'a mut [[u8; 32]],
    offs: &'a PairOffsets,
    s2: &'a Block,
    j1: &'a Block,
    i0: &'a Block,
    isa: PhantomData<I>,
}

impl<I: AesIsa, const PASS2: bool> Kernel for Pass<'_, I, PASS2> {
    type Output = (usize, Block);
    #[inline(always)]
    fn run(self) -> (usize, Block) {
        // SAFETY: entered under `I`, whose token the round keys hold.
        unsafe {
            if PASS2 {
                pass2::<I::Reg>(self.keys, self.pairs, self.offs, self.s2, self.j1, self.i0)
            } else {
                pass1::<I::Reg>(self.keys, self.pairs, self.offs, self.j1, self.i0)
            }
        }
    }
}

/// AES4 and AES10 on batches of blocks, and AEZ-core's passes where the backend has kernels
/// for them: what AEZ needs from a backend, one indirect call per use (see `tweak::HeldEngine`).
pub(crate) trait AezRounds: Send + Sync {
    fn aes4(&self, blocks: &mut [Block]);
    fn aes10(&self, blocks: &mut [Block]);
    /// AEZ-core pass 1 on all the pairs or (no kernel on this backend) none; returns the pairs
    /// done and their XOR sum. Pass 2 must then run on the same backend: the kernels' layout
    /// between the passes is their own.
    fn core_pass1(&self, pairs: &mut [[u8; 32]], offs: &PairOffsets, j1: &Block, i0: &Block) -> (usize, Block);
    /// AEZ-core pass 2, likewise.
    fn core_pass2(&self, pairs: &mut [[u8; 32]], offs: &PairOffsets, s2: &Block, j1: &Block, i0: &Block) -> (usize, Block);
}

/// AES4's keys (J, I, L, 0) and AES10's (I, J, L, I, J, L, I, J, L, I), prepared.
pub(crate) struct Engine<B: Rounds> {
    aes4: B::RoundKeys,
    aes10: B::RoundKeys,
}

impl<B: Rounds> Engine<B> {
    fn new(i: &Block, j: &Block, l: &Block) -> Result<Self, Error> {
        let mut aes4 = [*j, *i, *l, [0u8; 16]];
        let mut aes10 = [*i, *j, *l, *i, *j, *l, *i, *j, *l, *i];
        let e = Engine::<B> { aes4: B::prepare_round_keys(&aes4)?, aes10: B::prepare_round_keys(&aes10)? };
        crate::ct::wipe(aes4.as_flattened_mut());
        crate::ct::wipe(aes10.as_flattened_mut());
        Ok(e)
    }
}

/// How a backend family runs AEZ: its engine for one key.
pub(crate) trait AezEngine {
    /// What holds the prepared keys.
    type Engine: AezRounds;
    /// The AES rounds for AEZ with I, J and L; an error for a backend AEZ refuses.
    fn engine(i: &Block, j: &Block, l: &Block) -> Result<Self::Engine, Error>;
}

impl<I: AesIsa> AezRounds for Engine<AesInsn<I>> {
    fn aes4(&self, blocks: &mut [Block]) {
        AesInsn::<I>::rounds_only(&self.aes4, blocks);
    }
    fn aes10(&self, blocks: &mut [Block]) {
        AesInsn::<I>::rounds_only(&self.aes10, blocks);
    }
    fn core_pass1(&self, pairs: &mut [[u8; 32]], offs: &PairOffsets, j1: &Block, i0: &Block) -> (usize, Block) {
        let k: &InsnRoundKeys<I> = &self.aes4;
        k.isa().enter(Pass::<I, false> { keys: k.keys(), pairs, offs, s2: &[0; 16], j1, i0, isa: PhantomData })
    }
    fn core_pass2(&self, pairs: &mut [[u8; 32]], offs: &PairOffsets, s2: &Block, j1: &Block, i0: &Block) -> (usize, Block) {
        let k: &InsnRoundKeys<I> = &self.aes4;
        k.isa().enter(Pass::<I, true> { keys: k.keys(), pairs, offs, s2, j1, i0, isa: PhantomData })
    }
}

impl<I: AesIsa> AezEngine for AesInsn<I> {
    type Engine = Engine<AesInsn<I>>;
    fn engine(i: &Block, j: &Block, l: &Block) -> Result<Self::Engine, Error> {
        Engine::new(i, j, l)
    }
}

/// The bitsliced backends have no pass kernels: `scheme.rs`'s batched passes do the pairs.
impl<I: SlicedIsa> AezRounds for Engine<Sliced<I>> {
    fn aes4(&self, blocks: &mut [Block]) {
        Sliced::<I>::rounds_only(&self.aes4, blocks);
    }
    fn aes10(&self, blocks: &mut [Block]) {
        Sliced::<I>::rounds_only(&self.aes10, blocks);
    }
    fn core_pass1(&self, _pairs: &mut [[u8; 32]], _offs: &PairOffsets, _j1: &Block, _i0: &Block) -> (usize, Block) {
        (0, [0u8; 16])
    }
    fn core_pass2(&self, _pairs: &mut [[u8; 32]], _offs: &PairOffsets, _s2: &Block, _j1: &Block, _i0: &Block) -> (usize, Block) {
        (0, [0u8; 16])
    }
}

impl<I: SlicedIsa> AezEngine for Sliced<I> {
    type Engine = Engine<Sliced<I>>;
    fn engine(i: &Block, j: &Block, l: &Block) -> Result<Self::Engine, Error> {
        Engine::new(i, j, l)
    }
}

/// The engine of a backend AEZ refuses: no value of it exists.
pub(crate) enum Refused {}

impl AezRounds for Refused {
    fn aes4(&self, _blocks: &mut [Block]) {
        match *self {}
    }
    fn aes10(&self, _blocks: &mut [Block]) {
        match *self {}
    }
    fn core_pass1(&self, _pairs: &mut [[u8; 32]], _offs: &PairOffsets, _j1: &Block, _i0: &Block) -> (usize, Block) {
        match *self {}
    }
    fn core_pass2(&self, _pairs: &mut [[u8; 32]], _offs: &PairOffsets, _s2: &Block, _j1: &Block, _i0: &Block) -> (usize, Block) {
        match *self {}
    }
}

/// AEZ is constant time throughout: the variable-time T-tables are refused.
impl AezEngine for TableVartime {
    type Engine = Refused;
    fn engine(_i: &Block, _j: &Block, _l: &Block) -> Result<Refused, Error> {
        Err(Error::VariableTime { backend: <TableVartime as crate::aes::Backend>::NAME, scheme: "AEZ" })
    }
}
