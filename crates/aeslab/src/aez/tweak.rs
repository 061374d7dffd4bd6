//! AEZ's tweakable blockcipher E^{j,i}_K (AEZ v5 §1.5), written once over the AES backends.
//!
//! - `E^{−1,i}(X) = AES10(X ⊕ i·L)`, ten full rounds with keys I, J, L, I, J, L, I, J, L, I;
//! - `E^{j,i}(X) = AES4(X ⊕ j·J ⊕ 2^⌈i/8⌉·I ⊕ (i mod 8)·L)` for j ≥ 0, four full rounds with
//!   keys J, I, L, 0.
//!
//! Neither has initial whitening. The offsets are multiples in GF(2^128) of secret blocks by
//! *public* integers (j and i are positions, not data); doubling is branch-free.

#![deny(unsafe_code)]

use zeroize::Zeroize;

use super::kernels::{AezEngine, AezRounds};
use crate::aes::BackendKind;
use crate::{Block, Error};

/// Doubling in GF(2^128) (big-endian blocks, x^128 + x^7 + x^2 + x + 1), without a branch on
/// the secret top bit.
#[inline(always)]
pub(crate) fn dbl(x: u128) -> u128 {
    (x << 1) ^ (0u128.wrapping_sub(x >> 127) & 0x87)
}

/// `n·x` for a public integer `n` (double-and-add over the bits of `n`).
pub(crate) fn mul(mut n: u64, x: u128) -> u128 {
    let (mut acc, mut p) = (0u128, x);
    while n != 0 {
        if n & 1 != 0 {
            acc ^= p;
        }
        p = dbl(p);
        n >>= 1;
    }
    acc
}

#[inline(always)]
pub(crate) fn to_u128(b: &Block) -> u128 {
    u128::from_be_bytes(*b)
}

#[inline(always)]
pub(crate) fn to_block(x: u128) -> Block {
    x.to_be_bytes()
}

/// Generates [`AnyEngine`] from the one backend list.
macro_rules! define_any_engine {
    (() $($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {
        /// The AES rounds for AEZ on the backend chosen at run time: a variant per backend.
        #[allow(clippy::large_enum_variant)]
        pub(crate) enum AnyEngine {
            $( $(#[$cfg])* $variant(<$ty as AezEngine>::Engine), )*
        }

        impl AnyEngine {
            /// The engine for `kind` (the variable-time `table` backend is refused).
            fn new(kind: BackendKind, i: &Block, j: &Block, l: &Block) -> Result<Self, Error> {
                match kind {
                    $( $(#[$cfg])* BackendKind::$variant => <$ty as AezEngine>::engine(i, j, l).map(AnyEngine::$variant), )*
                }
            }

            /// The backend's engine on the heap, behind its own vtable.
            #[cfg(feature = "alloc")]
            fn boxed(self) -> alloc::boxed::Box<dyn AezRounds> {
                match self {
                    $( $(#[$cfg])* AnyEngine::$variant(e) => alloc::boxed::Box::new(e), )*
                }
            }

            /// As the trait object its uses call.
            #[cfg(not(feature = "alloc"))]
            #[inline(always)]
            fn as_dyn(&self) -> &dyn AezRounds {
                match self {
                    $( $(#[$cfg])* AnyEngine::$variant(e) => e, )*
                }
            }
        }
    };
}
crate::aes::backend_list!([define_any_engine]);

/// How a key holds its AES rounds: boxed behind the backend's own vtable where there is a
/// heap, inline in an enum without `alloc`. (The enum with a match before every call, or a
/// match to `&dyn`, ran AEZ 10–18% slower at 16–64 B on Zen 3, measured in one process against
/// the box; from 256 B on they were the same.)
#[cfg(feature = "alloc")]
type HeldEngine = alloc::boxed::Box<dyn AezRounds>;
#[cfg(not(feature = "alloc"))]
type HeldEngine = AnyEngine;

/// E^{j,i}_K for one key: the extracted I, J, L, the offsets that depend only on them, and the
/// AES rounds.
pub(crate) struct Tweakable {
    rounds: HeldEngine,
    pub(crate) i: u128,
    pub(crate) j: u128,
    /// `k·L` for k = 0..8.
    l_mult: [u128; 8],
    /// `k·J` for k = 0..8: every j of AEZ-core, and of AEZ-hash with up to three AD strings.
    j_mult: [u128; 8],
    pair_offsets: PairOffsets,
    pub(crate) kind: BackendKind,
}

impl Drop for Tweakable {
    fn drop(&mut self) {
        self.i.zeroize();
        self.j.zeroize();
        self.l_mult.zeroize();
        self.j_mult.zeroize();
    }
}

impl Tweakable {
    /// The AES rounds.
    #[inline(always)]
    pub(crate) fn rounds(&self) -> &dyn AezRounds {
        #[cfg(feature = "alloc")]
        return &*self.rounds;
        #[cfg(not(feature = "alloc"))]
        return self.rounds.as_dyn();
    }

    pub fn new(key: &[u8; 48], kind: BackendKind) -> Result<Self, Error> {
        let (i, j, l): (Block, Block, Block) =
            (key[..16].try_into().unwrap(), key[16..32].try_into().unwrap(), key[32..].try_into().unwrap());
        let engine = AnyEngine::new(kind, &i, &j, &l)?;
        #[cfg(feature = "alloc")]
        let rounds = engine.boxed();
        #[cfg(not(feature = "alloc"))]
        let rounds = engine;
        let lu = to_u128(&l);
        let (i, j) = (to_u128(&i), to_u128(&j));
        let (mut l_mult, mut j_mult) = ([0u128; 8], [0u128; 8]);
        for k in 0..8 {
            l_mult[k] = mul(k as u64, lu);
            j_mult[k] = mul(k as u64, j);
        }
        let pair_offsets = PairOffsets::new(i, &l_mult);
        Ok(Tweakable { rounds, i, j, l_mult, j_mult, pair_offsets, kind })
    }

    pub fn l(&self) -> u128 {
        self.l_mult[1]
    }

    /// `2^q·I`: the powers the key set-up computed (q ≤ 17), doubled on from there beyond.
    /// (q is a public position: the branches reveal nothing secret.)
    fn power_of_i(&self, q: u64) -> u128 {
        let offs = &self.pair_offsets;
        match q {
            0 => self.i,
            1..=16 => to_u128(&offs.first_powers[q as usize - 1]),
            _ => (17..q).fold(offs.after_first, |p, _| dbl(p)),
        }
    }

    /// `2^⌈i/8⌉·I ⊕ (i mod 8)·L`: the part of the AES4 offset that depends on i.
    pub fn i_offset(&self, i: u64) -> u128 {
        self.power_of_i(i.div_ceil(8)) ^ self.l_mult[(i % 8) as usize]
    }

    /// The offset of E^{j,i}: the block XORed into the input before the AES rounds. The
    /// small multiples that AEZ-core and AEZ-hash use are kept, not recomputed per call.
    pub fn offset(&self, j: i64, i: u64) -> u128 {
        if j < 0 {
            if i < 8 { self.l_mult[i as usize] } else { mul(i, self.l()) }
        } else {
            self.j_times(j as u64) ^ self.i_offset(i)
        }
    }

    /// `k·J`.
    pub fn j_times(&self, k: u64) -> u128 {
        if k < 8 { self.j_mult[k as usize] } else { mul(k, self.j) }
    }

    /// E^{j,i}_K(x) for one block.
    pub fn e(&self, j: i64, i: u64, x: u128) -> u128 {
        let mut b = [to_block(x ^ self.offset(j, i))];
        if j < 0 {
            self.rounds().aes10(&mut b);
        } else {
            self.rounds().aes4(&mut b);
        }
        to_u128(&b[0])
    }

    /// `out[k] = E^{j,i}(x)` for up to four `(j, i, x)` of one kind — all AES4 (j ≥ 0) or all
    /// AES10 (j = −1) — in one call to the backend, which runs them side by side.
    pub fn e_many(&self, inputs: &[(i64, u64, u128)], out: &mut [u128]) {
        assert!(inputs.len() <= 4 && out.len() == inputs.len(), "up to four blocks per batch");
        let aes10 = inputs.first().is_some_and(|(j, _, _)| *j < 0);
        debug_assert!(inputs.iter().all(|(j, _, _)| (*j < 0) == aes10), "one kind per batch");
        let mut b = [[0u8; 16]; 4];
        for (blk, (j, i, x)) in b.iter_mut().zip(inputs) {
            *blk = to_block(x ^ self.offset(*j, *i));
        }
        let b_used = &mut b[..inputs.len()];
        if aes10 {
            self.rounds().aes10(b_used);
        } else {
            self.rounds().aes4(b_used);
        }
        for (o, blk) in out.iter_mut().zip(b_used.iter()) {
            *o = to_u128(blk);
        }
        // `b` holds what is returned in `out`: wiping it would protect nothing more.
    }
}

impl Tweakable {
    /// What the AEZ-core kernels rebuild the pair offsets from (see [`PairOffsets`]).
    pub fn pair_offsets(&self) -> &PairOffsets {
        &self.pair_offsets
    }
}

/// AEZ-core's pair offsets `2^⌈i/8⌉·I ⊕ (i mod 8)·L` in two parts: pair `p` (counted from 0,
/// so i = p + 1) has `2^(p/8 + 1)·I ⊕ l[p % 8]`. The kernels rebuild a register of offsets
/// from one broadcast and one XOR, and double the power of I once per eight pairs
/// ([`PowerRing`]): nothing per pair is stored. Built with the key; wiped on drop.
pub(crate) struct PairOffsets {
    /// The powers of I of the first 128 pairs, `2^(q+1)·I` for q = 0..16: what a [`PowerRing`]
    /// starts with, so that a message starts without waiting for doublings.
    pub(crate) first_powers: [Block; RING_POWERS],
    /// `2^17·I`, the power of pairs 128..136.
    pub(crate) after_first: u128,
    /// `((k + 1) mod 8)·L` for k = 0..8, as blocks.
    pub(crate) l: [Block; 8],
}

impl PairOffsets {
    fn new(i: u128, l_mult: &[u128; 8]) -> Self {
        let mut power = dbl(i);
        let first_powers = core::array::from_fn(|_| {
            let b = to_block(power);
            power = dbl(power);
            b
        });
        PairOffsets { first_powers, after_first: power, l: core::array::from_fn(|k| to_block(l_mult[(k + 1) % 8])) }
    }
}

impl Drop for PairOffsets {
    fn drop(&mut self) {
        crate::ct::wipe(self.first_powers.as_flattened_mut());
        self.after_first.zeroize();
        crate::ct::wipe(self.l.as_flattened_mut());
    }
}

/// The powers of I a [`PowerRing`] holds: those of 128 consecutive pairs.
pub(crate) const RING_POWERS: usize = 16;

/// The powers of I of [`RING_POWERS`] consecutive groups of eight pairs, as blocks: pair `p`
/// uses `powers[(p / 8) % 16]`. It starts with the first 16 (from [`PairOffsets`]); a kernel
/// writes power `q` over power `q − 16` as soon as no step reads that one any more (up to two
/// a step), so the doublings (a dependent chain) run about 100 pairs before their results
/// are loaded, and a message of any length needs 256 bytes of powers. Wiped on drop.
pub(crate) struct PowerRing {
    pub(crate) powers: [Block; RING_POWERS],
    /// The power of the next group to fill.
    next: u128,
}

impl PowerRing {
    /// Powers 0 to 15 filled.
    #[inline(always)]
    pub(crate) fn new(offs: &PairOffsets) -> Self {
        PowerRing { powers: offs.first_powers, next: offs.after_first }
    }

    /// Writes power `q`, the one after the last written (powers are written in order, from 16).
    ///
    /// One at a time, at most two per step, rather than eight at once every 64 pairs. With the
    /// step's offsets of `kernels::pair_offsets_j`, on the Zen 5 (2026-11-29, a user's crate,
    /// `Aez::encrypt_in_place`, the builds alternated six times, best of each) a 16 KiB message
    /// took 1.8% less time on `vaes512`, 3.8% on `vaes256` and 2.5% on `aesni`, and a 64 KiB one
    /// 4.0%, 4.9% and 2.0% (1 KiB: the same); the offsets alone gained `vaes512` 2–3% and
    /// the others nothing. Eight at once were a dependent chain of about a hundred scalar
    /// instructions in one place of the loop. The kernels without any doublings (a wrong
    /// result) were faster still, by 6% at 64 KiB.
    #[inline(always)]
    pub(crate) fn fill_one(&mut self, q: usize) {
        self.powers[q % RING_POWERS] = to_block(self.next);
        self.next = dbl(self.next);
    }
}

impl Drop for PowerRing {
    fn drop(&mut self) {
        crate::ct::wipe(self.powers.as_flattened_mut());
        self.next.zeroize();
    }
}

/// The offsets `2^⌈i/8⌉·I ⊕ (i mod 8)·L` for i = start, start + 1, …, updated as i grows
/// (one doubling every eight steps).
pub(crate) struct IOffsets<'a> {
    t: &'a Tweakable,
    i: u64,
    power: u128,
}

impl<'a> IOffsets<'a> {
    pub fn starting_at(t: &'a Tweakable, i: u64) -> Self {
        IOffsets { t, i, power: t.power_of_i(i.div_ceil(8)) }
    }
}

impl Iterator for IOffsets<'_> {
    type Item = u128;
    #[inline]
    fn next(&mut self) -> Option<u128> {
        let out = self.power ^ self.t.l_mult[(self.i % 8) as usize];
        // ⌈i/8⌉ grows when i moves from a multiple of 8 to the next.
        if self.i.is_multiple_of(8) {
            self.power = dbl(self.power);
        }
        self.i += 1;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubling_reduces_by_0x87() {
        assert_eq!(dbl(1), 2);
        assert_eq!(dbl(1 << 127), 0x87);
        assert_eq!(mul(3, 1 << 127), (1 << 127) ^ 0x87);
        assert_eq!(mul(0, 12345), 0);
    }

    #[test]
    fn power_ring_and_l_multiples_give_the_pair_offsets() {
        let key: [u8; 48] = core::array::from_fn(|k| (k * 13 + 1) as u8);
        let t = Tweakable::new(&key, BackendKind::Ct64).unwrap();
        let offs = t.pair_offsets();
        let mut ring = PowerRing::new(offs);
        let mut written = RING_POWERS;
        for p in 0..640 {
            // As the kernels do: with pair p the first still read, every power up to p / 8 + 15.
            while written < p / 8 + RING_POWERS {
                ring.fill_one(written);
                written += 1;
            }
            let got = to_u128(&ring.powers[(p / 8) % 16]) ^ to_u128(&offs.l[p % 8]);
            assert_eq!(got, t.i_offset(p as u64 + 1), "i {}", p + 1);
            // The 15 groups after p's are ready too, for the step a kernel starts ahead.
            let q = p / 8 * 8 + 127;
            let ahead = to_u128(&ring.powers[(q / 8) % 16]) ^ to_u128(&offs.l[q % 8]);
            assert_eq!(ahead, t.i_offset(q as u64 + 1), "i {}", q + 1);
        }
    }

    #[test]
    fn incremental_offsets_match_direct_ones() {
        let key: [u8; 48] = core::array::from_fn(|k| (k * 29 + 7) as u8);
        let t = Tweakable::new(&key, BackendKind::Ct64).unwrap();
        for start in [0u64, 1, 7, 8, 9, 63, 64, 65, 127, 128, 129, 135, 136, 137, 300] {
            for (k, off) in IOffsets::starting_at(&t, start).take(40).enumerate() {
                assert_eq!(off, t.i_offset(start + k as u64), "start {start} step {k}");
            }
        }
        // Against the definition, doubling I from scratch (the kept powers end at i = 136).
        for i in 0u64..400 {
            let power = (0..i.div_ceil(8)).fold(t.i, |p, _| dbl(p));
            assert_eq!(t.i_offset(i), power ^ mul(i % 8, t.l()), "i {i}");
        }
    }
}
