//! The AES round instructions (AESENC and friends; AESE/AESMC on ARMv8) at every register
//! width, with one body: [`AesInsn<I>`] for each ISA token `I` — `aesni`, `vaes256`, `vaes512`
//! (`x86.rs`) and `armv8` (`aarch64.rs`).
//!
//! A register holds `LANES` blocks (xmm and ARM's q registers 1, ymm 2, zmm 4). The bodies keep
//! [`IN_FLIGHT`] registers in flight — 8, 16 or 32 blocks — which covers the AES unit's
//! latency × throughput product on current cores (latency 4 at 4 block-rounds per cycle: 16
//! blocks). Round keys are broadcast into registers once per call, and the round count is a
//! const generic so the rounds unroll and the keys stay in registers.
//!
//! No closures here or in anything a kernel inlines (traits and plain loops rather than
//! `array::from_fn` or `fold`): a closure's body is not compiled with the caller's target
//! features, and where the optimizer does not inline it every intrinsic inside becomes a call
//! (with the workspace's release profile that once made kernels about five times slower).
//!
//! AES instructions run in constant time: no branch or memory index depends on key or data.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86;

use core::marker::PhantomData;

use cipher::array::ArraySize;

use super::key_schedule::{self, MAX_ROUNDS, RoundKeys};
use super::{Backend, Rounds};
use crate::simd::{BlockIsa, Kernel, Reg};
use crate::{Block, Error};

#[cfg(target_arch = "aarch64")]
pub use aarch64::Armv8;
#[cfg(target_arch = "x86_64")]
pub use x86::{Aesni, Vaes256, Vaes512};

/// A register of blocks that runs AES rounds, x86's way: a round is SubBytes, ShiftRows,
/// MixColumns, then the XOR of the round key (ARMv8 adds the XOR to match, `aarch64.rs`).
///
/// # Safety
/// As for [`Reg`]: only where a token of an ISA with the register's AES instructions exists.
pub trait AesRound: Reg {
    unsafe fn enc(self, k: Self) -> Self;
    unsafe fn enc_last(self, k: Self) -> Self;
    unsafe fn dec(self, k: Self) -> Self;
    unsafe fn dec_last(self, k: Self) -> Self;
    /// The key schedule's SubWord on the low word of the register.
    unsafe fn sub_word(w: u32) -> u32;
    /// InvMixColumns of one block (AESIMC), for the decryption keys.
    unsafe fn inv_mix_columns(b: &Block) -> Block;
    /// The whole encryption key schedule kept in registers, where the ISA's S-box can run a
    /// schedule step there (x86: AES-128 and AES-256 as one AESENCLAST chain, AES-192 by
    /// AESKEYGENASSIST): about 40 to 90 cycles for AES-128 against about 300 for the word-wise
    /// schedule through general registers. `None` leaves the key length (or ISA) to
    /// [`key_schedule::expand`] with [`AesRound::sub_word`].
    /// With `zero_block`, the all-zero block encrypted under the new keys goes there too
    /// (AES-GCM's H), run through the rounds as their keys are made.
    unsafe fn expand_key(_key: &[u8], _zero_block: Option<&mut Block>) -> Option<RoundKeys> {
        None
    }
}

/// An ISA token with AES round instructions, as a backend: its name, its batch and the
/// one-block register that short inputs use.
pub trait AesIsa: BlockIsa<Reg: AesRound> {
    /// The backend's name (`--backend NAME`).
    const NAME: &'static str;
    /// Blocks per batch: `IN_FLIGHT` registers.
    type Batch: ArraySize;
    /// The one-block register of the same instruction set (xmm, q): a few blocks go through
    /// it rather than through masked loads and stores of a wide one.
    type One: AesRound;
}

/// Registers of blocks in flight.
pub(crate) const IN_FLIGHT: usize = 8;

/// Round keys broadcast into registers, `[0..=MAX_ROUNDS]`.
pub(crate) type KeyRegs<R> = [R; MAX_ROUNDS + 1];

/// Every round key of `keys` broadcast into a register (the slots past the last are zero).
/// (Broadcasting into every slot from a clamped index measured 5% slower in AES-NI's FACE
/// loop: the register allocator then rotated the keys through registers each iteration.)
#[inline(always)]
pub(crate) unsafe fn key_registers<R: Reg>(keys: &RoundKeys) -> KeyRegs<R> {
    unsafe {
        let mut k = [R::zero(); MAX_ROUNDS + 1];
        for (i, key) in keys.used().iter().enumerate() {
            k[i] = R::broadcast(key);
        }
        k
    }
}

/// Whitening, `NR − 1` full rounds and the last round on every register of `s`.
#[inline(always)]
unsafe fn rounds<R: AesRound, const NR: usize, const DECRYPT: bool>(k: &KeyRegs<R>, s: &mut [R]) {
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
#[inline(always)]
unsafe fn crypt_blocks<R: AesRound, const NR: usize, const DECRYPT: bool>(keys: &RoundKeys, blocks: &mut [Block]) {
    unsafe {
        let k = key_registers::<R>(keys);
        let mut wide = blocks.chunks_exact_mut(IN_FLIGHT * R::LANES);
        for chunk in &mut wide {
            let p = chunk.as_mut_ptr();
            let mut s = [R::zero(); IN_FLIGHT];
            for (i, x) in s.iter_mut().enumerate() {
                *x = R::load(p.add(i * R::LANES));
            }
            rounds::<R, NR, DECRYPT>(&k, &mut s);
            for (i, x) in s.iter().enumerate() {
                x.store(p.add(i * R::LANES));
            }
        }
        // Whole registers one at a time, then one padded register for the last blocks.
        let mut single = wide.into_remainder().chunks_exact_mut(R::LANES);
        for chunk in &mut single {
            let mut s = [R::load(chunk.as_ptr())];
            rounds::<R, NR, DECRYPT>(&k, &mut s);
            s[0].store(chunk.as_mut_ptr());
        }
        let tail = single.into_remainder();
        if !tail.is_empty() {
            let mut buf = [[0u8; 16]; 4];
            buf[..tail.len()].copy_from_slice(tail);
            let mut s = [R::load(buf.as_ptr())];
            rounds::<R, NR, DECRYPT>(&k, &mut s);
            s[0].store(buf.as_mut_ptr());
            tail.copy_from_slice(&buf[..tail.len()]);
        }
    }
}

/// Block encryption or decryption, as a kernel.
struct Crypt<'a, I, const DECRYPT: bool> {
    keys: &'a RoundKeys,
    blocks: &'a mut [Block],
    isa: PhantomData<I>,
}

impl<I: AesIsa, const DECRYPT: bool> Kernel for Crypt<'_, I, DECRYPT> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `I`, whose token the backend holds.
        unsafe {
            match self.keys.rounds {
                10 => crypt_blocks::<I::Reg, 10, DECRYPT>(self.keys, self.blocks),
                12 => crypt_blocks::<I::Reg, 12, DECRYPT>(self.keys, self.blocks),
                _ => crypt_blocks::<I::Reg, 14, DECRYPT>(self.keys, self.blocks),
            }
        }
    }
}

/// Full rounds with the `N` given keys and no whitening (AEZ's AES4, AES10), `IN_FLIGHT`
/// registers at a time; a last partial register uses masked loads and stores.
#[inline(always)]
unsafe fn rounds_only<R: AesRound, const N: usize>(keys: &[Block], blocks: &mut [Block]) {
    unsafe {
        let mut k = [R::zero(); N];
        for (r, key) in k.iter_mut().zip(keys) {
            *r = R::broadcast(key);
        }
        let (lanes, n) = (R::LANES, blocks.len());
        let p = blocks.as_mut_ptr();
        let mut i = 0;
        while i + IN_FLIGHT * lanes <= n {
            let mut s = [R::zero(); IN_FLIGHT];
            for (j, x) in s.iter_mut().enumerate() {
                *x = R::load(p.add(i + j * lanes));
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
            let mut x = if m == lanes { R::load(p.add(i)) } else { R::load_partial(p.add(i), m) };
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
unsafe fn rounds_only_any<R: AesRound>(keys: &[Block], blocks: &mut [Block]) {
    unsafe {
        match keys.len() {
            4 => rounds_only::<R, 4>(keys, blocks),
            10 => rounds_only::<R, 10>(keys, blocks),
            _ => {
                for key in keys {
                    rounds_only::<R, 1>(core::slice::from_ref(key), blocks);
                }
            }
        }
    }
}

/// Round keys for [`Rounds::rounds_only`] on an AES-instruction backend: up to ten keys and the
/// token of the ISA that runs them. Wiped on drop.
pub struct InsnRoundKeys<I> {
    keys: [Block; 10],
    len: usize,
    isa: I,
}

impl<I> Drop for InsnRoundKeys<I> {
    fn drop(&mut self) {
        crate::ct::wipe(self.keys.as_flattened_mut());
    }
}

impl<I: Copy> InsnRoundKeys<I> {
    /// The keys.
    pub(crate) fn keys(&self) -> &[Block] {
        &self.keys[..self.len]
    }

    /// The token that runs them.
    pub(crate) fn isa(&self) -> I {
        self.isa
    }
}

struct RoundsOnly<'a, I> {
    keys: &'a [Block],
    blocks: &'a mut [Block],
    isa: PhantomData<I>,
}

impl<I: AesIsa> Kernel for RoundsOnly<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `I`, whose token the keys hold. A few blocks (AEZ's single E
        // calls) go through one-block registers: no masked loads and stores, whose results do
        // not forward to the next load.
        unsafe {
            if self.blocks.len() <= 4 {
                rounds_only_any::<I::One>(self.keys, self.blocks)
            } else {
                rounds_only_any::<I::Reg>(self.keys, self.blocks)
            }
        }
    }
}

/// Whitening and `rounds` full rounds on each block, one block per register.
struct FirstRounds<'a, I> {
    keys: &'a RoundKeys,
    blocks: &'a mut [Block],
    rounds: usize,
    isa: PhantomData<I>,
}

impl<I: AesIsa> Kernel for FirstRounds<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        // SAFETY: entered under `I`, whose token the backend holds.
        unsafe {
            let k0 = I::One::broadcast(&self.keys.keys[0]);
            for b in self.blocks.iter_mut() {
                let mut s = I::One::load(b).xor(k0);
                for key in &self.keys.keys[1..=self.rounds] {
                    s = s.enc(I::One::broadcast(key));
                }
                s.store(b);
            }
        }
    }
}

/// The key schedule with the AES instructions: in registers where the ISA has it
/// ([`AesRound::expand_key`]), else the word-wise schedule with its SubWord, and the key object
/// handed to `wrap` in the same call (see [`Backend::schedule_wrapped`]). The key length is
/// checked before, so the kernel makes the schedule itself, which the compiler then writes
/// straight into the caller's object: wrapped in a `Result`, written through a reference, or
/// wrapped in the caller's enum after the call, it was copied again on its way up to `Aes::new`
/// (more time than computing it).
///
/// With `ZERO_BLOCK`, also the all-zero block's encryption into `zero_block` (AES-GCM's H). A
/// const parameter, so that the kernel a plain key set-up enters is compiled without the
/// block's rounds and branch (a runtime `Option` would be one kernel for both callers).
struct Expand<'a, I: AesIsa, T, W: FnOnce(AesInsn<I>, Option<&Block>) -> T, const ZERO_BLOCK: bool> {
    key: &'a [u8],
    zero_block: Option<&'a mut Block>,
    isa: I,
    wrap: W,
}

impl<I: AesIsa, T, W: FnOnce(AesInsn<I>, Option<&Block>) -> T, const ZERO_BLOCK: bool> Kernel for Expand<'_, I, T, W, ZERO_BLOCK> {
    type Output = T;
    #[inline(always)]
    fn run(self) -> T {
        let mut zero_block = if ZERO_BLOCK { self.zero_block } else { None };
        // SAFETY: entered under `I` (AES instructions present).
        let keyed = unsafe { AesInsn::schedule_in_kernel(self.isa, self.key, zero_block.as_deref_mut()) };
        (self.wrap)(keyed, zero_block.as_deref())
    }
}

impl<I: AesIsa> AesInsn<I> {
    /// The body of [`Expand`]: the schedule of `key` (its length already checked, as
    /// [`Backend::ready`] does), and with `zero_block` the all-zero block's encryption there.
    /// Also what AES-GCM's key kernel runs, with the powers of H after it in the same body.
    ///
    /// # Safety
    /// Only inside a kernel entered under an ISA with `I`'s AES instructions.
    #[inline(always)]
    pub(crate) unsafe fn schedule_in_kernel(isa: I, key: &[u8], mut zero_block: Option<&mut Block>) -> AesInsn<I> {
        // SAFETY: the caller runs under `I`'s AES instructions.
        if let Some(enc) = unsafe { I::Reg::expand_key(key, zero_block.as_deref_mut()) } {
            return AesInsn { enc, isa };
        }
        let enc = key_schedule::expand_checked(key, InsnKeyOps::<I>(PhantomData));
        if let Some(z) = zero_block {
            *z = [0; 16];
            Crypt::<I, false> { keys: &enc, blocks: core::slice::from_mut(z), isa: PhantomData }.run();
        }
        AesInsn { enc, isa }
    }
}

/// Decryption: the equivalent-inverse keys are derived in the call (an AESIMC per inner round,
/// independent of the data and of each other, so they overlap with the loads) rather than
/// kept. A key object is then one schedule, 248 bytes, which halves its set-up and every copy
/// of it the modes make; decrypting pays about ten AESIMC per call.
struct Decrypt<'a, I> {
    enc: &'a RoundKeys,
    blocks: &'a mut [Block],
    isa: PhantomData<I>,
}

impl<I: AesIsa> Kernel for Decrypt<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let mut dec = RoundKeys::EMPTY;
        key_schedule::equivalent_inverse_into(self.enc, InsnKeyOps::<I>(PhantomData), &mut dec);
        Crypt::<I, true> { keys: &dec, blocks: self.blocks, isa: PhantomData }.run();
    }
}

/// The key schedule's SubWord and InvMixColumns by the AES instructions (AESENCLAST or AESE
/// with a zero key; AESIMC).
struct InsnKeyOps<I>(PhantomData<I>);

impl<I: AesIsa> key_schedule::SubWord for InsnKeyOps<I> {
    #[inline(always)]
    fn sub_word(&self, w: u32) -> u32 {
        // SAFETY: only made inside `AesInsn::schedule_in_kernel` and `Decrypt`, which run in
        // kernels entered under an ISA with `I`'s AES instructions.
        unsafe { I::One::sub_word(w) }
    }
}

impl<I: AesIsa> key_schedule::InvMixColumns for InsnKeyOps<I> {
    #[inline(always)]
    fn inv_mix_columns(&self, b: &Block) -> Block {
        // SAFETY: as for `sub_word`.
        unsafe { I::One::inv_mix_columns(b) }
    }
}

/// AES on the round instructions of ISA `I`: `Aesni`, `Vaes256`, `Vaes512`, `Armv8`.
#[derive(Clone)]
pub struct AesInsn<I: AesIsa> {
    enc: RoundKeys,
    isa: I,
}

impl<I: AesIsa> AesInsn<I> {
    /// The encryption round keys (for the modes' kernels).
    pub(crate) fn enc_keys(&self) -> &RoundKeys {
        &self.enc
    }

    /// The token: this CPU runs `I`.
    pub(crate) fn isa(&self) -> I {
        self.isa
    }
}

impl<I: AesIsa> Backend for AesInsn<I> {
    const NAME: &'static str = I::NAME;
    const CONSTANT_TIME: bool = true;
    const REQUIRES: &'static str = I::FEATURES;
    type Batch = I::Batch;

    fn available() -> bool {
        I::detect().is_some()
    }

    type Ready = I;

    #[inline]
    fn ready(key_len: usize) -> Result<I, Error> {
        super::ready_on(I::NAME, key_len)
    }

    #[inline]
    fn schedule(isa: I, key: &[u8]) -> Self {
        Self::schedule_wrapped(isa, key, None, |keyed, _| keyed)
    }

    #[inline]
    fn schedule_encrypting_zero(isa: I, key: &[u8], zero_block: &mut Block) -> Self {
        Self::schedule_wrapped(isa, key, Some(zero_block), |keyed, _| keyed)
    }

    #[inline]
    fn schedule_wrapped<T, W: FnOnce(Self, Option<&Block>) -> T>(isa: I, key: &[u8], zero_block: Option<&mut Block>, wrap: W) -> T {
        match zero_block {
            Some(z) => isa.enter_in_place(Expand::<I, T, W, true> { key, zero_block: Some(z), isa, wrap }),
            None => isa.enter_in_place(Expand::<I, T, W, false> { key, zero_block: None, isa, wrap }),
        }
    }

    fn rounds(&self) -> usize {
        self.enc.rounds
    }

    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        self.isa.enter(Crypt::<I, false> { keys: &self.enc, blocks, isa: PhantomData });
    }

    fn decrypt_blocks(&self, blocks: &mut [Block]) {
        self.isa.enter(Decrypt::<I> { enc: &self.enc, blocks, isa: PhantomData });
    }
}

impl<I: AesIsa> Rounds for AesInsn<I> {
    type RoundKeys = InsnRoundKeys<I>;

    fn first_rounds(&self, blocks: &mut [Block], rounds: usize) {
        self.isa.enter(FirstRounds::<I> { keys: &self.enc, blocks, rounds, isa: PhantomData });
    }

    fn prepare_round_keys(keys: &[Block]) -> Result<Self::RoundKeys, Error> {
        let isa = I::detect().ok_or(Error::BackendUnavailable { backend: I::NAME, requires: I::FEATURES })?;
        assert!(keys.len() <= 10, "up to ten round keys");
        let mut k = InsnRoundKeys { keys: [[0u8; 16]; 10], len: keys.len(), isa };
        k.keys[..keys.len()].copy_from_slice(keys);
        Ok(k)
    }

    fn rounds_only(keys: &Self::RoundKeys, blocks: &mut [Block]) {
        keys.isa.enter(RoundsOnly::<I> { keys: keys.keys(), blocks, isa: PhantomData });
    }
}
