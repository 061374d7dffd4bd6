//! The ACE permutation (sLiSCP-light-320), written once over a "lane word": `u32` for the
//! scalar reference, or a SIMD register holding the same 32-bit word of 4, 8 or 16
//! independent states.
//!
//! The state is five 64-bit words A, B, C, D, E; each is handled as two big-endian 32-bit
//! halves, so a state is ten 32-bit words `A0 A1 B0 B1 C0 C1 D0 D1 E0 E1` (A0 = bytes 0..4).
//! One step:
//!
//! ```text
//! A ← SB-64(A, rc0)   C ← SB-64(C, rc1)   E ← SB-64(E, rc2)
//! B ← B ⊕ C ⊕ (1^56 ‖ sc0)   D ← D ⊕ E ⊕ (1^56 ‖ sc1)   E ← E ⊕ A ⊕ (1^56 ‖ sc2)
//! (A, B, C, D, E) ← (D, C, A, E, B)
//! ```
//!
//! SB-64 is 8 rounds of the Simeck-64 Feistel round with the key replaced by the constant
//! `0xfffffffe ⊕ rc_bit`. Everything is rotations, AND and XOR on public constants: no branch
//! and no memory index depends on the state, so every lane word is constant-time as long as
//! its operations are (they are single SIMD or ALU instructions).

#![deny(unsafe_code)]

/// Round constants of the three Simeck boxes (`rc0`, `rc1`, `rc2`, one bit per Simeck round,
/// least significant bit first) and the step constants (`sc0`, `sc1`, `sc2`) for the 16
/// steps, from the ACE specification (NIST LWC round 2), table 2.
const STEP_CONSTANTS: [[u8; 6]; 16] = [
    [0x07, 0x53, 0x43, 0x50, 0x28, 0x14],
    [0x0a, 0x5d, 0xe4, 0x5c, 0xae, 0x57],
    [0x9b, 0x49, 0x5e, 0x91, 0x48, 0x24],
    [0xe0, 0x7f, 0xcc, 0x8d, 0xc6, 0x63],
    [0xd1, 0xbe, 0x32, 0x53, 0xa9, 0x54],
    [0x1a, 0x1d, 0x4e, 0x60, 0x30, 0x18],
    [0x22, 0x28, 0x75, 0x68, 0x34, 0x9a],
    [0xf7, 0x6c, 0x25, 0xe1, 0x70, 0x38],
    [0x62, 0x82, 0xfd, 0xf6, 0x7b, 0xbd],
    [0x96, 0x47, 0xf9, 0x9d, 0xce, 0x67],
    [0x71, 0x6b, 0x76, 0x40, 0x20, 0x10],
    [0xaa, 0x88, 0xa0, 0x4f, 0x27, 0x13],
    [0x2b, 0xdc, 0xb0, 0xbe, 0x5f, 0x2f],
    [0xe9, 0x8b, 0x09, 0x5b, 0xad, 0xd6],
    [0xcf, 0x59, 0x1e, 0xe9, 0x74, 0xba],
    [0xb7, 0xc6, 0xad, 0x7f, 0x3f, 0x1f],
];

use crate::simd::{Isa, Kernel, Portable};

/// Most lanes any backend has (a zmm register of 32-bit words).
pub const MAX_LANES: usize = 16;

/// Up to [`MAX_LANES`] ACE states, word-major: `words[w][lane]` is 32-bit word `w`
/// (`A0 A1 B0 … E1`) of state `lane`, so a SIMD backend loads word `w` of all its lanes with
/// one instruction.
#[derive(Clone)]
pub struct LaneStates {
    pub(crate) words: [[u32; MAX_LANES]; 10],
}

impl Default for LaneStates {
    fn default() -> Self {
        LaneStates { words: [[0; MAX_LANES]; 10] }
    }
}

impl LaneStates {
    /// Lane `lane` as the 40-byte canonical state.
    pub fn get(&self, lane: usize) -> [u8; 40] {
        let mut out = [0u8; 40];
        for (w, chunk) in out.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&self.words[w][lane].to_be_bytes());
        }
        out
    }

    /// Sets lane `lane` from the 40-byte canonical state.
    pub fn set(&mut self, lane: usize, state: &[u8; 40]) {
        for (w, chunk) in state.chunks_exact(4).enumerate() {
            self.words[w][lane] = u32::from_be_bytes(chunk.try_into().expect("4 bytes"));
        }
    }
}

impl Drop for LaneStates {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.words);
    }
}

/// The same 32-bit word of several independent states.
///
/// Its methods are safe because a word exists only where its ISA does: `splat` and `load`,
/// the only ways to make one, take the ISA's token.
pub(crate) trait LaneWord: Copy {
    /// The instruction set its operations need.
    type Isa: Isa;
    fn splat(isa: Self::Isa, x: u32) -> Self;
    fn xor(self, other: Self) -> Self;
    /// Word `w` of the lanes this type holds.
    fn load(isa: Self::Isa, words: &[u32; MAX_LANES]) -> Self;
    fn store(self, words: &mut [u32; MAX_LANES]);
    /// One Simeck round: `y ⊕ ((x ⋘ 5) ∧ x) ⊕ (x ⋘ 1) ⊕ key`.
    fn simeck_round(x: Self, y: Self, key: Self) -> Self;
}

impl LaneWord for u32 {
    type Isa = Portable;
    #[inline(always)]
    fn splat(_isa: Portable, x: u32) -> Self {
        x
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn load(_isa: Portable, words: &[u32; MAX_LANES]) -> Self {
        words[0]
    }
    #[inline(always)]
    fn store(self, words: &mut [u32; MAX_LANES]) {
        words[0] = self;
    }
    #[inline(always)]
    fn simeck_round(x: Self, y: Self, key: Self) -> Self {
        y ^ (x.rotate_left(5) & x) ^ x.rotate_left(1) ^ key
    }
}

/// SB-64: eight Simeck-64 rounds on the halves (`hi`, `lo`) with key bits from `rc`.
/// The Feistel swap is done by alternating which half is updated. `rc` is a public constant
/// (and, with every step inlined, a compile-time one): choosing the key by its bits is not a
/// secret-dependent index.
#[inline(always)]
fn simeck_box<W: LaneWord>(hi: &mut W, lo: &mut W, rc: u8, keys: &[W; 2]) {
    let mut r = 0;
    while r < 8 {
        *lo = W::simeck_round(*hi, *lo, keys[((rc >> r) & 1) as usize]);
        *hi = W::simeck_round(*lo, *hi, keys[((rc >> (r + 1)) & 1) as usize]);
        r += 2;
    }
}

/// Step `I` of the permutation (a const parameter, so its constants fold into the code) on `s = [A0, A1, B0, B1, C0, C1, D0, D1, E0, E1]`.
#[inline(always)]
fn step<W: LaneWord, const I: usize>(isa: W::Isa, s: &mut [W; 10], keys: &[W; 2]) {
    let [mut a0, mut a1, b0, b1, mut c0, mut c1, d0, d1, mut e0, mut e1] = *s;
    let sc = STEP_CONSTANTS[I];
    simeck_box(&mut a0, &mut a1, sc[0], keys);
    simeck_box(&mut c0, &mut c1, sc[1], keys);
    simeck_box(&mut e0, &mut e1, sc[2], keys);
    let ones = keys[1];
    let nb0 = b0.xor(c0).xor(ones);
    let nb1 = b1.xor(c1).xor(W::splat(isa, 0xffff_ff00 | sc[3] as u32));
    let nd0 = d0.xor(e0).xor(ones);
    let nd1 = d1.xor(e1).xor(W::splat(isa, 0xffff_ff00 | sc[4] as u32));
    let ne0 = e0.xor(a0).xor(ones);
    let ne1 = e1.xor(a1).xor(W::splat(isa, 0xffff_ff00 | sc[5] as u32));
    // (A, B, C, D, E) ← (D, C, A, E, B), with B, D, E the mixed words.
    *s = [nd0, nd1, c0, c1, a0, a1, ne0, ne1, nb0, nb1];
}

/// The full 16-step permutation on the lanes `W` holds (the first 1, 4, 8 or 16) of `states`.
#[inline(always)]
pub(crate) fn permute<W: LaneWord>(isa: W::Isa, states: &mut LaneStates) {
    let words = &mut states.words;
    let mut s = [W::splat(isa, 0); 10];
    for (v, w) in s.iter_mut().zip(words.iter()) {
        *v = W::load(isa, w);
    }
    // Simeck round keys 0xfffffffe ⊕ bit; the second is also the all-ones half of the step
    // constants.
    let keys = [W::splat(isa, 0xffff_fffe), W::splat(isa, 0xffff_ffff)];
    macro_rules! steps {
        ($($i:literal)*) => { $( step::<W, $i>(isa, &mut s, &keys); )* };
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    for (v, w) in s.iter().zip(words.iter_mut()) {
        v.store(w);
    }
}

/// The permutation on the lanes of `W`, as a kernel entered under `W`'s ISA.
pub(crate) struct Permute<'a, W: LaneWord> {
    pub(crate) states: &'a mut LaneStates,
    pub(crate) isa: W::Isa,
}

impl<W: LaneWord> Kernel for Permute<'_, W> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        permute::<W>(self.isa, self.states);
    }
}
