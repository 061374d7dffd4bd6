//! The AES round instructions (AESENC and friends) at every register width, with one body.
//!
//! A register holds `LANES` blocks (xmm 1, ymm 2, zmm 4); the body keeps 8 registers in
//! flight — 8, 16 or 32 blocks — which covers the AES unit's latency × throughput product on
//! current cores (Zen 4: latency 4, 4 block-rounds per cycle ⇒ 16 blocks). Round keys are
//! broadcast into registers once per call, and the round count is a const generic so the
//! rounds unroll and the keys stay in registers.
//!
//! AES instructions run in constant time: no branch or memory index depends on key or data.

#![cfg(target_arch = "x86_64")]

use super::key_schedule::{MAX_ROUNDS, RoundKeys};
use crate::Block;

/// A register of `LANES` AES blocks. All methods are `unsafe`: the caller must be compiled
/// with (and running on a CPU with) the features the implementation needs.
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
    /// Blocks `first..LANES` from `other`, the others from `self` (`0 < first < LANES`).
    unsafe fn blend_from(self, other: Self, first: usize) -> Self;
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

/// Defines a backend over an [`AesVec`]: the type, its `Backend` impl with `#[target_feature]`
/// entry points, and an AES-NI key schedule (SubWord by AESENCLAST, see `aesni.rs`).
macro_rules! aes_insn_backend {
    ($(#[$doc:meta])* $name:ident, $vec:ty, $batch:ty, $label:literal, $features:literal,
     $detect:expr) => {
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
                unsafe { $crate::ctr::hw::face_run_any::<$vec>(&self.enc, after, t, ctr, data, wrap32) }
            }

            #[target_feature(enable = $features)]
            unsafe fn plain_impl(&self, ctr: u128, data: &mut [$crate::Block]) {
                unsafe { $crate::ctr::hw::plain_xor_any::<$vec>(&self.enc, ctr, data) }
            }

            #[target_feature(enable = $features)]
            unsafe fn rounds_only_impl(keys: &[$crate::Block], blocks: &mut [$crate::Block]) {
                unsafe { $crate::aes::hw::rounds_only_any::<$vec>(keys, blocks) }
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
        }

        impl $crate::ctr::FaceBackend for $name {
            type Table = Vec<$crate::Block>;
            /// Segment constants are recomputed in registers; nothing is kept between calls.
            type SegCache = ();

            fn head(&self, blocks: &mut [$crate::Block], rounds: usize) {
                // SAFETY: every backend of this kind requires AES-NI.
                unsafe { $crate::ctr::hw::head_aesni(&self.enc, blocks, rounds) }
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
                // SAFETY: every backend of this kind requires AES-NI, checked just above.
                let enc = unsafe { $crate::aes::aesni::expand_key(key)? };
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
