//! Bitsliced AES, written once for any word width (Käsper–Schwabe style): the circuit, the
//! packing, and the backend family [`Sliced<I>`] — `ct64` on `u64` (`u64.rs`) and
//! `bitslice-sse`/`-avx2`/`-avx512` on xmm/ymm/zmm (`x86.rs`).
//!
//! A state is eight words `q[0..8]`; word `q[j]` holds bit `j` of every state byte of
//! `W::BLOCKS` blocks. Inside a word the bit for (row, column, block) sits at
//! `row·4n + column·n + block` with `n = W::BLOCKS`, so
//! - a row is a contiguous run of `4n` bits: MixColumns' "the row below" is a rotation of the
//!   whole word by `4n` bits ([`Word::rotate_rows`]);
//! - a column is a contiguous run of `n` bits inside its row: ShiftRows rotates each row by
//!   whole columns ([`Word::shift_rows`]).
//!
//! A word's methods are safe because a word exists only where its ISA does: the only ways to
//! make one ([`Word::load`], [`Word::gather`], and the getters below that use them) take the
//! ISA's token, and every other method works on a word that already exists.
//!
//! Constant time: after packing, every operation is a fixed sequence of XOR/AND/NOT, rotations
//! and shuffles by constants, whatever the key and data. Packing and unpacking index memory only
//! by block and byte positions, which are public.

#![deny(unsafe_code)]

mod u64;
#[cfg(target_arch = "x86_64")]
mod x86;

use cipher::array::ArraySize;
use zeroize::Zeroize;

use super::key_schedule::{self, RoundKeys};
use super::{Backend, Rounds};
use crate::simd::{Isa, Kernel};
use crate::{Block, Error};

pub use u64::Ct64;
#[cfg(target_arch = "x86_64")]
pub use x86::{BitsliceAvx2, BitsliceAvx512, BitsliceSse};

/// One bitsliced plane word holding `BLOCKS` blocks' worth of one bit position.
pub trait Word: Copy {
    /// The instruction set its operations need; its token is the proof that makes them safe.
    type Isa: Isa;
    /// Blocks per word (the word is `16 · BLOCKS` bits wide).
    const BLOCKS: usize;
    fn xor(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn not(self) -> Self;
    /// Row `r` of the result is row `(r + n) mod 4` of `self`.
    fn rotate_rows(self, n: u32) -> Self;
    /// Row `r` rotated so that column `c` of the result is column `(c + r) mod 4` of `self`.
    fn shift_rows(self) -> Self;
    /// Inverse of [`Word::shift_rows`].
    fn inv_shift_rows(self) -> Self;
    /// Loads the word from its `2 · BLOCKS` bytes, little-endian: bit `i` of the word is bit
    /// `i % 8` of byte `i / 8`.
    fn load(isa: Self::Isa, bytes: &[u8]) -> Self;
    fn store(self, bytes: &mut [u8]);
    /// A word of the same kind with every 64-bit lane set to `x`.
    fn splat_as(self, x: u64) -> Self;
    /// Shifts each 64-bit lane right (`shr`) or left (`shl`) by 1, 2 or 4 bits.
    fn shr(self, bits: u32) -> Self;
    fn shl(self, bits: u32) -> Self;
    /// Loads `BLOCKS` blocks into eight words so that byte `i` of word `k` is the byte whose
    /// bits belong at position `8i + k` (the layout of `position`); [`ortho`] then yields the planes.
    fn gather(isa: Self::Isa, blocks: &[Block]) -> [Self; 8];
    /// Inverse of [`Word::gather`].
    fn scatter(words: &[Self; 8], blocks: &mut [Block]);
}

/// The eight bit planes of a bitsliced state; `q[0]` holds the least significant bits.
pub(crate) type State<W> = [W; 8];

/// The AES S-box as a Boolean circuit (Boyar–Peralta: 32 AND, 83 XOR, 4 XNOR), applied to
/// every byte of the state at once. `u0` is the most significant input bit, `s0` the most
/// significant output bit.
#[inline(always)]
pub(crate) fn sub_bytes<W: Word>(q: &mut State<W>) {
    let (u0, u1, u2, u3, u4, u5, u6, u7) = (q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0]);

    // Top linear layer.
    let t1 = u0.xor(u3);
    let t2 = u0.xor(u5);
    let t3 = u0.xor(u6);
    let t4 = u3.xor(u5);
    let t5 = u4.xor(u6);
    let t6 = t1.xor(t5);
    let t7 = u1.xor(u2);
    let t8 = u7.xor(t6);
    let t9 = u7.xor(t7);
    let t10 = t6.xor(t7);
    let t11 = u1.xor(u5);
    let t12 = u2.xor(u5);
    let t13 = t3.xor(t4);
    let t14 = t6.xor(t11);
    let t15 = t5.xor(t11);
    let t16 = t5.xor(t12);
    let t17 = t9.xor(t16);
    let t18 = u3.xor(u7);
    let t19 = t7.xor(t18);
    let t20 = t1.xor(t19);
    let t21 = u6.xor(u7);
    let t22 = t7.xor(t21);
    let t23 = t2.xor(t22);
    let t24 = t2.xor(t10);
    let t25 = t20.xor(t17);
    let t26 = t3.xor(t16);
    let t27 = t1.xor(t12);

    // Shared non-linear middle: inversion in GF(2^4)^2.
    let m1 = t13.and(t6);
    let m2 = t23.and(t8);
    let m3 = t14.xor(m1);
    let m4 = t19.and(u7);
    let m5 = m4.xor(m1);
    let m6 = t3.and(t16);
    let m7 = t22.and(t9);
    let m8 = t26.xor(m6);
    let m9 = t20.and(t17);
    let m10 = m9.xor(m6);
    let m11 = t1.and(t15);
    let m12 = t4.and(t27);
    let m13 = m12.xor(m11);
    let m14 = t2.and(t10);
    let m15 = m14.xor(m11);
    let m16 = m3.xor(m2);
    let m17 = m5.xor(t24);
    let m18 = m8.xor(m7);
    let m19 = m10.xor(m15);
    let m20 = m16.xor(m13);
    let m21 = m17.xor(m15);
    let m22 = m18.xor(m13);
    let m23 = m19.xor(t25);
    let m24 = m22.xor(m23);
    let m25 = m22.and(m20);
    let m26 = m21.xor(m25);
    let m27 = m20.xor(m21);
    let m28 = m23.xor(m25);
    let m29 = m28.and(m27);
    let m30 = m26.and(m24);
    let m31 = m20.and(m23);
    let m32 = m27.and(m31);
    let m33 = m27.xor(m25);
    let m34 = m21.and(m22);
    let m35 = m24.and(m34);
    let m36 = m24.xor(m25);
    let m37 = m21.xor(m29);
    let m38 = m32.xor(m33);
    let m39 = m23.xor(m30);
    let m40 = m35.xor(m36);
    let m41 = m38.xor(m40);
    let m42 = m37.xor(m39);
    let m43 = m37.xor(m38);
    let m44 = m39.xor(m40);
    let m45 = m42.xor(m41);
    let m46 = m44.and(t6);
    let m47 = m40.and(t8);
    let m48 = m39.and(u7);
    let m49 = m43.and(t16);
    let m50 = m38.and(t9);
    let m51 = m37.and(t17);
    let m52 = m42.and(t15);
    let m53 = m45.and(t27);
    let m54 = m41.and(t10);
    let m55 = m44.and(t13);
    let m56 = m40.and(t23);
    let m57 = m39.and(t19);
    let m58 = m43.and(t3);
    let m59 = m38.and(t22);
    let m60 = m37.and(t20);
    let m61 = m42.and(t1);
    let m62 = m45.and(t4);
    let m63 = m41.and(t2);

    // Bottom linear layer (with the affine constant 0x63 folded in as NOTs).
    let l0 = m61.xor(m62);
    let l1 = m50.xor(m56);
    let l2 = m46.xor(m48);
    let l3 = m47.xor(m55);
    let l4 = m54.xor(m58);
    let l5 = m49.xor(m61);
    let l6 = m62.xor(l5);
    let l7 = m46.xor(l3);
    let l8 = m51.xor(m59);
    let l9 = m52.xor(m53);
    let l10 = m53.xor(l4);
    let l11 = m60.xor(l2);
    let l12 = m48.xor(m51);
    let l13 = m50.xor(l0);
    let l14 = m52.xor(m61);
    let l15 = m55.xor(l1);
    let l16 = m56.xor(l0);
    let l17 = m57.xor(l1);
    let l18 = m58.xor(l8);
    let l19 = m63.xor(l4);
    let l20 = l0.xor(l1);
    let l21 = l1.xor(l7);
    let l22 = l3.xor(l12);
    let l23 = l18.xor(l2);
    let l24 = l15.xor(l9);
    let l25 = l6.xor(l10);
    let l26 = l7.xor(l9);
    let l27 = l8.xor(l10);
    let l28 = l11.xor(l14);
    let l29 = l11.xor(l17);
    q[7] = l6.xor(l24);
    q[6] = l16.xor(l26).not();
    q[5] = l19.xor(l28).not();
    q[4] = l6.xor(l21);
    q[3] = l20.xor(l22);
    q[2] = l25.xor(l29);
    q[1] = l13.xor(l27).not();
    q[0] = l6.xor(l23).not();
}

/// `y ↦ A⁻¹(y ⊕ 0x63)`, the affine map with `InvSubBytes = L ∘ SubBytes ∘ L`
/// (since `L ∘ SubBytes` is inversion in GF(2^8)).
#[inline(always)]
fn inv_affine<W: Word>(q: &mut State<W>) {
    let old = *q;
    for i in 0..8 {
        q[i] = old[(i + 2) % 8].xor(old[(i + 5) % 8]).xor(old[(i + 7) % 8]);
    }
    // A⁻¹(0x63) = 0x05: bits 0 and 2.
    q[0] = q[0].not();
    q[2] = q[2].not();
}

#[inline(always)]
pub(crate) fn inv_sub_bytes<W: Word>(q: &mut State<W>) {
    inv_affine(q);
    sub_bytes(q);
    inv_affine(q);
}

/// Multiplication by x in GF(2^8) on every byte: a renaming of planes plus the reduction
/// XORs of the top bit into bits 1, 3 and 4.
#[inline(always)]
fn xtime<W: Word>(t: &State<W>) -> State<W> {
    [t[7], t[0].xor(t[7]), t[1], t[2].xor(t[7]), t[3].xor(t[7]), t[4], t[5], t[6]]
}

#[inline(always)]
pub(crate) fn shift_rows<W: Word>(q: &mut State<W>) {
    for w in q.iter_mut() {
        *w = w.shift_rows();
    }
}

#[inline(always)]
fn inv_shift_rows<W: Word>(q: &mut State<W>) {
    for w in q.iter_mut() {
        *w = w.inv_shift_rows();
    }
}

/// MixColumns: `out_r = 2·(a_r ⊕ a_{r+1}) ⊕ a_{r+1} ⊕ (a_{r+2} ⊕ a_{r+3})`.
#[inline(always)]
pub(crate) fn mix_columns<W: Word>(q: &mut State<W>) {
    let (mut r1, mut t) = (*q, *q);
    for i in 0..8 {
        r1[i] = q[i].rotate_rows(1);
        t[i] = q[i].xor(r1[i]);
    }
    let xt = xtime(&t);
    for i in 0..8 {
        q[i] = xt[i].xor(r1[i]).xor(t[i].rotate_rows(2));
    }
}

/// InvMixColumns as MixColumns after `a_r ⊕ 4·(a_r ⊕ a_{r+2})`: the circulant (0e 0b 0d 09)
/// is (02 03 01 01)·(05 00 04 00).
#[inline(always)]
fn inv_mix_columns<W: Word>(q: &mut State<W>) {
    let mut d = *q;
    for i in 0..8 {
        d[i] = q[i].xor(q[i].rotate_rows(2));
    }
    let d4 = xtime(&xtime(&d));
    for i in 0..8 {
        q[i] = q[i].xor(d4[i]);
    }
    mix_columns(q);
}

#[inline(always)]
pub(crate) fn add_round_key<W: Word>(q: &mut State<W>, k: &State<W>) {
    for i in 0..8 {
        q[i] = q[i].xor(k[i]);
    }
}

/// Largest word in bytes (zmm on x86-64, `u64` elsewhere); sizes the stack buffers used for
/// packing and, without `alloc`, the inline room of [`SlicedStates`].
#[cfg(target_arch = "x86_64")]
pub(crate) const MAX_WORD_BYTES: usize = 64;
#[cfg(not(target_arch = "x86_64"))]
pub(crate) const MAX_WORD_BYTES: usize = 8;

/// Bit position in a plane of byte `4·col + row` of block `blk`, for words of `n` blocks:
/// the layout every [`Word::gather`] must produce (after [`ortho`]).
#[cfg(test)]
const fn position(n: usize, blk: usize, byte: usize) -> usize {
    let (col, row) = (byte / 4, byte % 4);
    row * 4 * n + col * n + blk
}

/// Exchanges the bits `(b >> s) & m` with `a & m`: one step of the transposition.
#[inline(always)]
fn swap_move<W: Word>(a: &mut W, b: &mut W, s: u32, m: W) {
    let t = a.shr(s).xor(*b).and(m);
    *b = b.xor(t);
    *a = a.xor(t.shl(s));
}

/// Transposes every 8×8 bit block across the eight words: bit `j` of byte `i` of word `k`
/// trades places with bit `k` of byte `i` of word `j`. Its own inverse.
#[inline(always)]
pub(crate) fn ortho<W: Word>(q: &mut [W; 8]) {
    let masks = [(1, 0x5555_5555_5555_5555u64), (2, 0x3333_3333_3333_3333), (4, 0x0f0f_0f0f_0f0f_0f0f)];
    for (s, m) in masks {
        let m = q[0].splat_as(m);
        let s_words = s as usize;
        for k in 0..8 {
            // Pair word k (index bit clear) with word k + s (index bit set): bit e + s of
            // word k trades with bit e of word k + s.
            if k & s_words == 0 {
                let (lo, hi) = q.split_at_mut(k + s_words);
                swap_move(&mut lo[k], &mut hi[0], s, m);
            }
        }
    }
}

/// Packs up to `W::BLOCKS` blocks into planes (missing blocks are zero).
#[inline(always)]
pub(crate) fn pack<W: Word>(isa: W::Isa, blocks: &[Block]) -> State<W> {
    let mut q = if blocks.len() == W::BLOCKS {
        W::gather(isa, blocks)
    } else {
        let mut padded = [[0u8; 16]; MAX_WORD_BYTES / 2];
        padded[..blocks.len()].copy_from_slice(blocks);
        let q = W::gather(isa, &padded[..W::BLOCKS]);
        padded.zeroize();
        q
    };
    ortho(&mut q);
    q
}

/// Unpacks planes into up to `W::BLOCKS` blocks (`blocks.len()` of them are written).
#[inline(always)]
pub(crate) fn unpack<W: Word>(q: &State<W>, blocks: &mut [Block]) {
    let mut r = *q;
    ortho(&mut r);
    if blocks.len() == W::BLOCKS {
        W::scatter(&r, blocks);
    } else {
        let mut padded = [[0u8; 16]; MAX_WORD_BYTES / 2];
        W::scatter(&r, &mut padded[..W::BLOCKS]);
        let n = blocks.len();
        blocks.copy_from_slice(&padded[..n]);
        padded.zeroize();
    }
}

/// A constant-time SubWord for the key schedule: the four bytes go through the bitsliced
/// S-box circuit on `u64` planes (only the low four bits of each plane are used).
pub(crate) fn sub_word_ct(w: u32) -> u32 {
    let bytes = w.to_le_bytes();
    let mut q = [0u64; 8];
    for (i, b) in bytes.iter().enumerate() {
        for (j, plane) in q.iter_mut().enumerate() {
            *plane |= u64::from((b >> j) & 1) << i;
        }
    }
    sub_bytes(&mut q);
    let mut out = [0u8; 4];
    for (i, o) in out.iter_mut().enumerate() {
        for (j, plane) in q.iter().enumerate() {
            *o |= (((plane >> i) & 1) as u8) << j;
        }
    }
    u32::from_le_bytes(out)
}

/// Packed state `index` of `bytes` (states of words `W` stored one after another, each plane's
/// word in its `2 · BLOCKS` bytes).
#[inline(always)]
pub(crate) fn get_state<W: Word>(isa: W::Isa, bytes: &[u8], index: usize) -> State<W> {
    // One bounds check for the state, then fixed-size planes (no check per plane).
    let plane = 2 * W::BLOCKS;
    let state = &bytes[index * 8 * plane..(index + 1) * 8 * plane];
    let mut q = [W::load(isa, &state[..plane]); 8];
    for (w, p) in q.iter_mut().zip(state.chunks_exact(plane)).skip(1) {
        *w = W::load(isa, p);
    }
    q
}

/// Stores `q` as packed state `index` of `bytes`.
#[inline(always)]
pub(crate) fn set_state<W: Word>(bytes: &mut [u8], index: usize, q: &State<W>) {
    let plane = 2 * W::BLOCKS;
    let state = &mut bytes[index * 8 * plane..(index + 1) * 8 * plane];
    for (w, p) in q.iter().zip(state.chunks_exact_mut(plane)) {
        w.store(p);
    }
}

/// Packed states — the round keys of a key (one per round, the key replicated into every
/// block) or AES4/AES10 keys; wiped on drop. With `alloc` they are on the heap, allocated once
/// at their final size (growing a `Vec` would leave unwiped copies behind), so that a key
/// object stays small whatever the word width; without it they are inline, with room for
/// [`SlicedStates::MAX`] states of the widest word this target has.
#[derive(Clone)]
pub struct SlicedStates {
    #[cfg(feature = "alloc")]
    bytes: alloc::vec::Vec<u8>,
    #[cfg(not(feature = "alloc"))]
    room: [u8; SlicedStates::MAX * 8 * MAX_WORD_BYTES],
    /// Bytes in use, from the start of `room`.
    #[cfg(not(feature = "alloc"))]
    len: usize,
}

impl Default for SlicedStates {
    fn default() -> Self {
        Self::zeroed_bytes(0)
    }
}

impl Zeroize for SlicedStates {
    fn zeroize(&mut self) {
        self.bytes_mut().zeroize();
    }
}

impl Drop for SlicedStates {
    fn drop(&mut self) {
        #[cfg(feature = "alloc")]
        crate::ct::wipe(&mut self.bytes);
        #[cfg(not(feature = "alloc"))]
        crate::ct::wipe(&mut self.room);
    }
}

impl SlicedStates {
    /// The most states a value holds: AES-256's 15 round keys (AES10 takes 10).
    #[cfg_attr(feature = "alloc", allow(dead_code))]
    pub(crate) const MAX: usize = 15;

    #[cfg(feature = "alloc")]
    fn zeroed_bytes(len: usize) -> Self {
        SlicedStates { bytes: alloc::vec![0u8; len] }
    }

    #[cfg(not(feature = "alloc"))]
    fn zeroed_bytes(len: usize) -> Self {
        // More than the room is a bug in this crate (no caller asks for over MAX states).
        assert!(len <= Self::MAX * 8 * MAX_WORD_BYTES, "sliced states beyond their room");
        SlicedStates { room: [0; Self::MAX * 8 * MAX_WORD_BYTES], len }
    }

    fn bytes(&self) -> &[u8] {
        #[cfg(feature = "alloc")]
        return &self.bytes;
        #[cfg(not(feature = "alloc"))]
        return &self.room[..self.len];
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        #[cfg(feature = "alloc")]
        return &mut self.bytes;
        #[cfg(not(feature = "alloc"))]
        return &mut self.room[..self.len];
    }

    /// Room for `n` states of words `W`, zero.
    pub(crate) fn zeroed<W: Word>(n: usize) -> Self {
        Self::zeroed_bytes(n * 16 * W::BLOCKS)
    }

    #[inline(always)]
    pub(crate) fn set<W: Word>(&mut self, index: usize, q: &State<W>) {
        set_state(self.bytes_mut(), index, q);
    }

    #[inline(always)]
    pub(crate) fn get<W: Word>(&self, isa: W::Isa, index: usize) -> State<W> {
        get_state(isa, self.bytes(), index)
    }

    /// States held.
    pub(crate) fn len<W: Word>(&self) -> usize {
        self.bytes().len() / (16 * W::BLOCKS)
    }
}

/// Each of `keys` replicated into every block and packed.
#[inline(always)]
pub(crate) fn slice_round_keys<W: Word>(isa: W::Isa, keys: &[Block]) -> SlicedStates {
    let mut out = SlicedStates::zeroed::<W>(keys.len());
    let mut copies = [[0u8; 16]; MAX_WORD_BYTES / 2];
    for (r, k) in keys.iter().enumerate() {
        copies[..W::BLOCKS].fill(*k);
        out.set::<W>(r, &pack(isa, &copies[..W::BLOCKS]));
    }
    copies.zeroize();
    out
}

/// One full round: SubBytes, ShiftRows, MixColumns, AddRoundKey.
#[inline(always)]
pub(crate) fn full_round<W: Word>(q: &mut State<W>, k: &State<W>) {
    sub_bytes(q);
    shift_rows(q);
    mix_columns(q);
    add_round_key(q, k);
}

/// A key's round keys, sliced (`keys.len() == rounds + 1`).
#[derive(Clone)]
pub(crate) struct SlicedKeys {
    pub(crate) keys: SlicedStates,
    pub(crate) rounds: usize,
}

impl SlicedKeys {
    #[inline(always)]
    pub(crate) fn round<W: Word>(&self, isa: W::Isa, r: usize) -> State<W> {
        self.keys.get(isa, r)
    }
}

/// Encrypts one packed state.
#[inline(always)]
pub(crate) fn encrypt_state<W: Word>(isa: W::Isa, keys: &SlicedKeys, q: &mut State<W>) {
    add_round_key(q, &keys.round(isa, 0));
    encrypt_from_round(isa, keys, q, 1);
}

/// Runs full rounds `first..rounds` and the final round on a state that has finished round
/// `first - 1` (FACE starts here with the cached state).
#[inline(always)]
pub(crate) fn encrypt_from_round<W: Word>(isa: W::Isa, keys: &SlicedKeys, q: &mut State<W>, first: usize) {
    for r in first..keys.rounds {
        full_round(q, &keys.round(isa, r));
    }
    sub_bytes(q);
    shift_rows(q);
    add_round_key(q, &keys.round(isa, keys.rounds));
}

/// Decrypts one packed state with the straightforward inverse cipher.
#[inline(always)]
fn decrypt_state<W: Word>(isa: W::Isa, keys: &SlicedKeys, q: &mut State<W>) {
    add_round_key(q, &keys.round(isa, keys.rounds));
    for r in (1..keys.rounds).rev() {
        inv_shift_rows(q);
        inv_sub_bytes(q);
        add_round_key(q, &keys.round(isa, r));
        inv_mix_columns(q);
    }
    inv_shift_rows(q);
    inv_sub_bytes(q);
    add_round_key(q, &keys.round(isa, 0));
}

/// An ISA token with a bitsliced word, as a backend: its name and its batch.
pub trait SlicedIsa: Isa {
    type Word: Word<Isa = Self>;
    /// The backend's name (`--backend NAME`).
    const NAME: &'static str;
    /// Blocks per batch: one word's.
    type Batch: ArraySize;
}

/// Key expansion with the constant-time schedule (the circuit's SubWord), sliced.
struct Expand<'a, I> {
    key: &'a [u8],
    isa: I,
}

impl<I: SlicedIsa> Kernel for Expand<'_, I> {
    type Output = SlicedKeys;
    #[inline(always)]
    fn run(self) -> SlicedKeys {
        // `Backend::ready` checked the length.
        let rk: RoundKeys = key_schedule::expand_checked(self.key, sub_word_ct);
        SlicedKeys { keys: slice_round_keys::<I::Word>(self.isa, rk.used()), rounds: rk.rounds }
    }
}

/// Block encryption or decryption, `BLOCKS` at a time (the last batch partial).
struct Crypt<'a, I, const DECRYPT: bool> {
    keys: &'a SlicedKeys,
    blocks: &'a mut [Block],
    isa: I,
}

impl<I: SlicedIsa, const DECRYPT: bool> Kernel for Crypt<'_, I, DECRYPT> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        for chunk in self.blocks.chunks_mut(I::Word::BLOCKS) {
            let mut q = pack::<I::Word>(self.isa, chunk);
            if DECRYPT {
                decrypt_state(self.isa, self.keys, &mut q);
            } else {
                encrypt_state(self.isa, self.keys, &mut q);
            }
            unpack(&q, chunk);
        }
    }
}

/// Whitening and `rounds` full rounds (the state FACE caches).
struct FirstRounds<'a, I> {
    keys: &'a SlicedKeys,
    blocks: &'a mut [Block],
    rounds: usize,
    isa: I,
}

impl<I: SlicedIsa> Kernel for FirstRounds<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        for chunk in self.blocks.chunks_mut(I::Word::BLOCKS) {
            let mut q = pack::<I::Word>(self.isa, chunk);
            add_round_key(&mut q, &self.keys.round(self.isa, 0));
            for r in 1..=self.rounds {
                full_round(&mut q, &self.keys.round(self.isa, r));
            }
            unpack(&q, chunk);
        }
    }
}

/// Full rounds with the given packed keys and no whitening (AEZ's AES4 and AES10).
struct RoundsOnly<'a, I> {
    keys: &'a SlicedStates,
    blocks: &'a mut [Block],
    isa: I,
}

impl<I: SlicedIsa> Kernel for RoundsOnly<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let rounds = self.keys.len::<I::Word>();
        for chunk in self.blocks.chunks_mut(I::Word::BLOCKS) {
            let mut q = pack::<I::Word>(self.isa, chunk);
            for r in 0..rounds {
                full_round(&mut q, &self.keys.get(self.isa, r));
            }
            unpack(&q, chunk);
        }
    }
}

/// Packs `keys` for the ISA (a kernel, so that packing runs with its features).
struct SliceKeys<'a, I> {
    keys: &'a [Block],
    isa: I,
}

impl<I: SlicedIsa> Kernel for SliceKeys<'_, I> {
    type Output = SlicedStates;
    #[inline(always)]
    fn run(self) -> SlicedStates {
        slice_round_keys::<I::Word>(self.isa, self.keys)
    }
}

/// Constant-time bitsliced AES on the words of ISA `I`: `Ct64`, `BitsliceSse`,
/// `BitsliceAvx2`, `BitsliceAvx512`.
#[derive(Clone)]
pub struct Sliced<I: SlicedIsa> {
    keys: SlicedKeys,
    isa: I,
}

impl<I: SlicedIsa> Sliced<I> {
    /// The sliced round keys (for the modes' kernels).
    pub(crate) fn keys(&self) -> &SlicedKeys {
        &self.keys
    }

    /// The token: this CPU runs `I`.
    pub(crate) fn isa(&self) -> I {
        self.isa
    }
}

impl<I: SlicedIsa> Backend for Sliced<I> {
    const NAME: &'static str = I::NAME;
    const CONSTANT_TIME: bool = true;
    const REQUIRES: &'static str = if I::FEATURES.is_empty() { "nothing" } else { I::FEATURES };
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
        Sliced { keys: isa.enter(Expand { key, isa }), isa }
    }

    fn rounds(&self) -> usize {
        self.keys.rounds
    }

    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        self.isa.enter(Crypt::<I, false> { keys: &self.keys, blocks, isa: self.isa });
    }

    fn decrypt_blocks(&self, blocks: &mut [Block]) {
        self.isa.enter(Crypt::<I, true> { keys: &self.keys, blocks, isa: self.isa });
    }
}

/// Round keys for [`Rounds::rounds_only`] on a bitsliced backend: packed, with the token.
pub struct SlicedRoundKeys<I> {
    keys: SlicedStates,
    isa: I,
}

impl<I: SlicedIsa> Rounds for Sliced<I> {
    type RoundKeys = SlicedRoundKeys<I>;

    fn first_rounds(&self, blocks: &mut [Block], rounds: usize) {
        self.isa.enter(FirstRounds { keys: &self.keys, blocks, rounds, isa: self.isa });
    }

    fn prepare_round_keys(keys: &[Block]) -> Result<Self::RoundKeys, Error> {
        let isa = I::detect().ok_or(Error::BackendUnavailable { backend: I::NAME, requires: I::FEATURES })?;
        Ok(SlicedRoundKeys { keys: isa.enter(SliceKeys { keys, isa }), isa })
    }

    fn rounds_only(keys: &Self::RoundKeys, blocks: &mut [Block]) {
        keys.isa.enter(RoundsOnly { keys: &keys.keys, blocks, isa: keys.isa });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::consts::{INV_SBOX, SBOX};
    use crate::simd::Portable;
    use alloc::vec::Vec;

    /// Packing puts byte `4·col + row` of block `blk` at bit `position(..)` of the planes
    /// (checked bit by bit for `u64` words), and unpacking inverts it.
    #[test]
    fn pack_places_bits_where_the_layout_says() {
        let blocks: Vec<Block> = (0..4u8).map(|b| core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ b.wrapping_mul(91))).collect();
        let q: State<u64> = pack(Portable, &blocks);
        for (blk, block) in blocks.iter().enumerate() {
            for (byte, v) in block.iter().enumerate() {
                for (j, plane) in q.iter().enumerate() {
                    assert_eq!((plane >> position(4, blk, byte)) & 1, u64::from((v >> j) & 1));
                }
            }
        }
        let mut back = [[0u8; 16]; 4];
        unpack(&q, &mut back);
        assert_eq!(back.to_vec(), blocks);
        let mut three = [[0u8; 16]; 3];
        unpack(&pack::<u64>(Portable, &blocks[..3]), &mut three);
        assert_eq!(three.to_vec(), blocks[..3].to_vec());
    }

    #[test]
    fn circuit_sbox_matches_definition_for_all_bytes() {
        for b in 0..=255u8 {
            let w = u32::from_le_bytes([b, b.wrapping_add(1), b ^ 0x5a, !b]);
            let expect = u32::from_le_bytes(w.to_le_bytes().map(|x| SBOX[x as usize]));
            assert_eq!(sub_word_ct(w), expect, "input {b:#04x}");
        }
    }

    #[test]
    fn circuit_inverse_sbox_matches_definition_for_all_bytes() {
        // Planes of u64: 64 bytes at a time through inv_sub_bytes.
        for base in (0..256).step_by(64) {
            let mut q = [0u64; 8];
            for i in 0..64 {
                for (j, plane) in q.iter_mut().enumerate() {
                    *plane |= (((base + i) as u64 >> j) & 1) << i;
                }
            }
            inv_sub_bytes(&mut q);
            for i in 0..64 {
                let mut v = 0u8;
                for (j, plane) in q.iter().enumerate() {
                    v |= (((plane >> i) & 1) as u8) << j;
                }
                assert_eq!(v, INV_SBOX[base + i], "input {:#04x}", base + i);
            }
        }
    }
}
