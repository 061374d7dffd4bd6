//! The AES round instructions on x86-64: AES-NI on xmm (`aesni`, 8 blocks in flight), VAES on
//! ymm (`vaes256`, 16) and zmm (`vaes512`, 32). On Zen 4 both VAES widths reach 4 block-rounds
//! per cycle (VAESENC ymm: 2/cycle, zmm: 1/cycle); zmm needs half the instructions.

use core::arch::x86_64::*;

use cipher::consts::{U8, U16, U32};

use super::{AesInsn, AesIsa, AesRound};
use crate::Block;
use crate::aes::key_schedule::{MAX_ROUNDS, RoundKeys};
use crate::simd::x86::{AesNi, VaesYmm, VaesZmm};

/// AES-NI, 8 blocks interleaved in xmm registers.
pub type Aesni = AesInsn<AesNi>;
/// VAES on ymm registers: 16 blocks in flight.
pub type Vaes256 = AesInsn<VaesYmm>;
/// VAES on zmm registers: 32 blocks in flight.
pub type Vaes512 = AesInsn<VaesZmm>;

impl AesIsa for AesNi {
    const NAME: &'static str = "aesni";
    type Batch = U8;
    type One = __m128i;
}

impl AesIsa for VaesYmm {
    const NAME: &'static str = "vaes256";
    type Batch = U16;
    type One = __m128i;
}

impl AesIsa for VaesZmm {
    const NAME: &'static str = "vaes512";
    type Batch = U32;
    type One = __m128i;
}

// SAFETY (every method below): the caller holds a token of an ISA with AES-NI (xmm), VAES and
// AVX2 (ymm) or VAES and AVX-512F (zmm): `AesNi`, `VaesYmm`, `VaesZmm` or a GCM ISA that
// includes one of them.

impl AesRound for __m128i {
    #[inline(always)]
    unsafe fn enc(self, k: Self) -> Self {
        unsafe { _mm_aesenc_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn enc_last(self, k: Self) -> Self {
        unsafe { _mm_aesenclast_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec(self, k: Self) -> Self {
        unsafe { _mm_aesdec_si128(self, k) }
    }
    #[inline(always)]
    unsafe fn dec_last(self, k: Self) -> Self {
        unsafe { _mm_aesdeclast_si128(self, k) }
    }
    /// With the word in all four columns, ShiftRows leaves column 0 equal to the word, so
    /// column 0 of AESENCLAST(w, w, w, w; key 0) is SubWord(w).
    #[inline(always)]
    unsafe fn sub_word(w: u32) -> u32 {
        unsafe { _mm_cvtsi128_si32(_mm_aesenclast_si128(_mm_set1_epi32(w as i32), _mm_setzero_si128())) as u32 }
    }
    #[inline(always)]
    unsafe fn inv_mix_columns(b: &Block) -> Block {
        let mut out = [0u8; 16];
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_aesimc_si128(_mm_loadu_si128(b.as_ptr().cast()))) };
        out
    }
    #[inline(always)]
    unsafe fn expand_key(key: &[u8], zero_block: Option<&mut Block>) -> Option<RoundKeys> {
        unsafe { expand_key::<false>(key, zero_block) }
    }
}

/// The schedule for a key of any AES length, in xmm registers; `WIDE` stores it with 32-byte
/// stores (AVX), see [`Made`].
#[inline(always)]
unsafe fn expand_key<const WIDE: bool>(key: &[u8], zero_block: Option<&mut Block>) -> Option<RoundKeys> {
    unsafe {
        match key.len() {
            16 => Some(expand_128::<WIDE>(key, zero_block)),
            24 => Some(expand_192::<WIDE>(key, zero_block)),
            32 => Some(expand_256::<WIDE>(key, zero_block)),
            _ => None,
        }
    }
}

/// `w ⊕ (w << 32) ⊕ (w << 64) ⊕ (w << 96)`: each word XORed with every word below it, the
/// running XOR of FIPS-197's `w[i] = w[i−Nk] ⊕ …` across one register of four words.
#[inline(always)]
unsafe fn prefix_xor(w: __m128i) -> __m128i {
    unsafe {
        let w = _mm_xor_si128(w, _mm_slli_si128::<4>(w));
        _mm_xor_si128(w, _mm_slli_si128::<8>(w))
    }
}

/// A schedule being made: the round keys, stored as they are made, and the all-zero block
/// run through them (AES-GCM's hash key H). Each AESENC on that block waits only for the key
/// it uses, so the ten to fourteen of them fill the schedule's own dependency chain rather than
/// follow it; where nobody asks for the block they are dead code and compiled away. (The keys
/// are borrowed, not held: each `expand_*` returns its own `RoundKeys` local, which is then
/// written in place; moved out of a struct field it was copied, and the copy's wide loads of
/// the 16-byte stores could not be forwarded.)
///
/// `WIDE` (the VAES ISAs, which have AVX) stores the keys in pairs, one 32-byte store for two
/// round keys. A key set-up is bound by its stores as much as by its dependency chain: the
/// stores wait in the store queue for the chain's last key, and a key object's wipe on drop
/// adds as many again, so that back-to-back set-ups (a key per message) no longer overlap. On
/// Zen 3, half the stores took `Aes128::new` + drop from 68 to 48 TSC ticks in a loop
/// (aes 0.9, which does not wipe: 54).
struct Made<'a, const WIDE: bool> {
    keys: &'a mut RoundKeys,
    zero: __m128i,
    /// The last even round key, waiting for its odd partner (`WIDE` only).
    even: __m128i,
}

impl<'a, const WIDE: bool> Made<'a, WIDE> {
    #[inline(always)]
    unsafe fn new(keys: &'a mut RoundKeys) -> Self {
        unsafe { Made { keys, zero: _mm_setzero_si128(), even: _mm_setzero_si128() } }
    }

    /// Round key `round`, stored whole (or with its pair), and the zero block through its
    /// round. (`round` is a constant at every call, a literal or a step's literal index: the
    /// branches fold away and nothing here depends on the key.)
    #[inline(always)]
    unsafe fn store(&mut self, round: usize, k: __m128i) {
        unsafe {
            if !WIDE {
                _mm_storeu_si128(self.keys.keys[round].as_mut_ptr().cast(), k);
            } else if round % 2 == 1 {
                // SAFETY: `WIDE` only under a VAES token, which includes AVX.
                let pair = _mm256_set_m128i(k, self.even);
                _mm256_storeu_si256(self.keys.keys[round - 1].as_mut_ptr().cast(), pair);
            } else if round == self.keys.rounds && round < MAX_ROUNDS {
                // The last key of AES-128 or AES-192 (10 and 12 are even) with the unused slot
                // after it; the slots past that keep their zeros.
                let pair = _mm256_set_m128i(_mm_setzero_si128(), k);
                _mm256_storeu_si256(self.keys.keys[round].as_mut_ptr().cast(), pair);
            } else if round == MAX_ROUNDS {
                // AES-256's last key fills the last slot: a pair would run past it.
                _mm_storeu_si128(self.keys.keys[round].as_mut_ptr().cast(), k);
            } else {
                self.even = k;
            }
            self.zero = if round == 0 {
                k
            } else if round == self.keys.rounds {
                _mm_aesenclast_si128(self.zero, k)
            } else {
                _mm_aesenc_si128(self.zero, k)
            };
        }
    }

    /// The zero block's encryption, where the caller asked for it.
    #[inline(always)]
    unsafe fn finish(self, zero_block: Option<&mut Block>) {
        if let Some(z) = zero_block {
            unsafe { _mm_storeu_si128(z.as_mut_ptr().cast(), self.zero) };
        }
    }
}

/// RotWord `n` times (`n` mod 4) on every word: a rotation right by 8n bits, as a byte shuffle.
/// (`n` is a constant at every call: the match folds.)
#[inline(always)]
unsafe fn rot_words(x: __m128i, n: isize) -> __m128i {
    unsafe {
        match n.rem_euclid(4) {
            0 => x,
            1 => _mm_shuffle_epi8(x, _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)),
            2 => _mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)),
            _ => _mm_shuffle_epi8(x, _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)),
        }
    }
}

/// The key's 16 bytes at block `f`, as one 16-byte load whose words are then taken in
/// registers. The compiler folded the word broadcasts below into 4-byte loads at offsets inside
/// the key; a key the caller has just written (a new key per message) could not be forwarded to
/// those from its stores, and each load waited for the stores to reach the cache, behind
/// everything before them. The empty `asm!` keeps the register opaque so the loads stay whole:
/// `Aes256Gcm::new` in criterion 64.4 → 58.4 ns on Zen 5 (2026-11-26). (Miri runs no inline
/// assembly; there the loads may fold.)
#[inline(always)]
unsafe fn load_key_block(key: &[u8], f: usize) -> __m128i {
    unsafe {
        #[allow(unused_mut)] // Mutated only by the barrier.
        let mut k = _mm_loadu_si128(key.as_ptr().add(16 * f).cast());
        // SAFETY: the template is empty; it only hides the value from the optimizer.
        #[cfg(not(miri))]
        core::arch::asm!("/* {0} */", inout(xmm_reg) k, options(pure, nomem, nostack, preserves_flags));
        k
    }
}

/// Rcon for the first word of the key schedule's `i`-th Nk-word block (i ≥ 1).
const RCON: [i32; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// The AES-128 (`NK` = 4) or AES-256 (`NK` = 8) schedule being made as one chain of
/// AESENCLAST, one a round key, with nothing else on it.
///
/// Why: through AESKEYGENASSIST each round key waits for the one before through the S-box, a
/// shuffle and XORs, and on Zen 5 a step took about 9 cycles (the AES unit's result crosses to
/// the shuffle and back each time), 10 × 9 before AES-GCM's H could start its powers. Here a
/// step is the S-box alone, 4 cycles.
///
/// How. Let u_n be the last word of round key n. The schedule is linear in the S-box outputs,
/// and for either key length
///   u_n = S(RotWord^e(u_{n−1})) ⊕ u_{n−NK} ⊕ Rcon,
/// with e = 1 and Rcon where FIPS-197 rotates (every step of AES-128; the even round keys of
/// AES-256) and e = 0, no Rcon, at AES-256's odd ones. (Round key n is the running XOR of
/// round key n − s, s = NK/4, plus the S-box word; so the XOR of the four words of any round
/// key is the last word of the one 3s before it, and for round key n − s that is u_{n−4s} =
/// u_{n−NK}, a whole key length back.) SubWord
/// commutes with RotWord, so carrying y_n = RotWord^(a_n)(u_n), with a_n falling by one at each
/// rotating step, takes the rotation off the chain:
///   y_n = S(y_{n−1}) ⊕ y_{n−NK} ⊕ RotWord^(a_n)(Rcon),
/// as RotWord^4 is the identity and a falls by 4 over NK steps. With y in all four columns,
/// ShiftRows moves nothing, so AESENCLAST(y_{n−1}, y_{n−NK} ⊕ c_n) is y_n in every column: one
/// instruction on the chain, its key operand made long before.
///
/// Each round key is then four XORs of last words of its register family (stride s = NK/4):
/// [u_{n−3s} ⊕ u_{n−2s} ⊕ u_{n−s} ⊕ u_n, u_{n−2s} ⊕ u_n, u_{n−s} ⊕ u_n, u_n], off the chain.
/// The key's own registers give the u before round key s, as the same combinations solved
/// backwards. Every step is a fixed sequence of instructions on the key's bits: constant time
/// (the S-box is the AES unit's).
///
/// The steps are called with literal indices (the `sbox_chain!` lists): as a loop, the compiler
/// kept `u` and `y` in memory and the rotations behind a jump table.
struct SboxChain<const NK: usize> {
    /// u_n and y_n in every word, for n from `STRIDE − NK` (the first the key implies) to the
    /// last round, at index n + NK − STRIDE.
    u: [__m128i; 21],
    y: [__m128i; 21],
}

impl<const NK: usize> SboxChain<NK> {
    const STRIDE: isize = (NK / 4) as isize;

    #[inline(always)]
    fn at(n: isize) -> usize {
        (n + NK as isize - Self::STRIDE) as usize
    }

    /// The exponent a_n of y_n = RotWord^(a_n)(u_n).
    #[inline(always)]
    fn rot_of(n: isize) -> isize {
        if NK == 4 { 1 - n } else { -n.div_euclid(2) }
    }

    #[inline(always)]
    unsafe fn new() -> Self {
        unsafe { SboxChain { u: [_mm_setzero_si128(); 21], y: [_mm_setzero_si128(); 21] } }
    }

    /// The key's register `f` (round key f < STRIDE): stored, and the u it implies.
    #[inline(always)]
    unsafe fn key_register<const WIDE: bool>(&mut self, out: &mut Made<WIDE>, key: &[u8], f: isize) {
        unsafe {
            let k = load_key_block(key, f as usize);
            out.store(f as usize, k);
            // [a0, a1, a2, a3] = [u_{f−3s} ⊕ u_{f−2s} ⊕ u_{f−s} ⊕ u_f, u_{f−2s} ⊕ u_f, u_{f−s} ⊕ u_f, u_f].
            let a3 = _mm_shuffle_epi32::<0xff>(k);
            let a2 = _mm_shuffle_epi32::<0xaa>(k);
            let a1 = _mm_shuffle_epi32::<0x55>(k);
            let a0 = _mm_shuffle_epi32::<0x00>(k);
            let s = Self::STRIDE;
            let implied = [(f, a3), (f - s, _mm_xor_si128(a2, a3)), (f - 2 * s, _mm_xor_si128(a1, a3)), (f - 3 * s, _mm_xor_si128(_mm_xor_si128(a0, a1), _mm_xor_si128(a2, a3)))];
            for (n, u) in implied {
                self.u[Self::at(n)] = u;
                self.y[Self::at(n)] = rot_words(u, Self::rot_of(n));
            }
        }
    }

    /// Round key `n` (STRIDE ≤ n ≤ rounds): one AESENCLAST on the chain, then the key from
    /// the last words.
    #[inline(always)]
    unsafe fn step<const WIDE: bool>(&mut self, out: &mut Made<WIDE>, n: isize) {
        unsafe {
            let rcon = match NK {
                4 => Some(RCON[n as usize - 1]),
                _ if n % 2 == 0 => Some(RCON[n as usize / 2 - 1]),
                _ => None,
            };
            let mut k = self.y[Self::at(n - NK as isize)];
            if let Some(rcon) = rcon {
                k = _mm_xor_si128(k, rot_words(_mm_set1_epi32(rcon), Self::rot_of(n)));
            }
            let y = _mm_aesenclast_si128(self.y[Self::at(n - 1)], k);
            let u = rot_words(y, -Self::rot_of(n));
            self.y[Self::at(n)] = y;
            self.u[Self::at(n)] = u;
            let s = Self::STRIDE;
            let older = _mm_xor_si128(
                _mm_xor_si128(
                    _mm_and_si128(self.u[Self::at(n - s)], _mm_setr_epi32(-1, 0, -1, 0)),
                    _mm_and_si128(self.u[Self::at(n - 2 * s)], _mm_setr_epi32(-1, -1, 0, 0)),
                ),
                _mm_and_si128(self.u[Self::at(n - 3 * s)], _mm_setr_epi32(-1, 0, 0, 0)),
            );
            out.store(n as usize, _mm_xor_si128(older, u));
        }
    }
}

/// A schedule by [`SboxChain`]: the key's registers, then the chain's steps, each index a
/// literal.
macro_rules! sbox_chain {
    ($nk:literal, $key:ident, $zero_block:ident; key: $($f:literal)*; steps: $($n:literal)*) => {{
        let mut keys = RoundKeys { keys: [[0u8; 16]; MAX_ROUNDS + 1], rounds: $nk + 6 };
        let mut out = Made::<WIDE>::new(&mut keys);
        let mut chain = SboxChain::<$nk>::new();
        $( chain.key_register(&mut out, $key, $f); )*
        $( chain.step(&mut out, $n); )*
        out.finish($zero_block);
        keys
    }};
}

/// The AES-128 schedule: ten steps of one AESENCLAST each ([`SboxChain`]).
#[inline(always)]
unsafe fn expand_128<const WIDE: bool>(key: &[u8], zero_block: Option<&mut Block>) -> RoundKeys {
    unsafe { sbox_chain!(4, key, zero_block; key: 0; steps: 1 2 3 4 5 6 7 8 9 10) }
}

/// The AES-256 schedule: thirteen steps of one AESENCLAST each ([`SboxChain`]).
#[inline(always)]
unsafe fn expand_256<const WIDE: bool>(key: &[u8], zero_block: Option<&mut Block>) -> RoundKeys {
    unsafe { sbox_chain!(8, key, zero_block; key: 0 1; steps: 2 3 4 5 6 7 8 9 10 11 12 13 14) }
}

/// One AES-192 step: the next six words from the last six, held as `a` = w0..w3 and `b` = w4,
/// w5 in its low half (its high half is never read: the S-box step takes its word 1, and the
/// round keys take its low half). `w[i] = w[i−6] ⊕ w[i−1]`, and for the first word of a step
/// also `⊕ SubWord(RotWord(w5)) ⊕ Rcon`: RotWord(w5) in all four columns (one PSHUFB), where
/// ShiftRows moves nothing, so AESENCLAST with Rcon in every word as its key gives that word
/// in every column. AESKEYGENASSIST gives it too, but its latency is 12 cycles on Emerald
/// Rapids against AESENCLAST's 3 (`aeslab instr`), and the eight steps are one dependent
/// chain: `Aes192::new` went from 144–152 cycles to 76–79 there (2026-11-27, `vaes512` and
/// `aesni`). On Zen 3 both take 4 cycles, so the chain is as long as before (PSHUFB where a
/// PSHUFD was).
#[inline(always)]
unsafe fn step_192<const RCON: i32>((a, b): (__m128i, __m128i)) -> (__m128i, __m128i) {
    unsafe {
        let rot_w5 = _mm_shuffle_epi8(b, _mm_setr_epi8(5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4));
        let t = _mm_aesenclast_si128(rot_w5, _mm_set1_epi32(RCON));
        let a = _mm_xor_si128(prefix_xor(a), t);
        // w10 = w4 ⊕ w9 and w11 = w5 ⊕ w10: the running XOR of b, each word ⊕ the new w9.
        let b = _mm_xor_si128(prefix_xor(b), _mm_shuffle_epi32::<0xff>(a));
        (a, b)
    }
}

/// `[lo half of x, lo half of y]` and `[hi half of x, lo half of y]`: two steps' twelve words
/// (`a0 b0 a1 b1`) are three round keys `a0`, `[b0, a1.lo]`, `[a1.hi, b1]`.
#[inline(always)]
unsafe fn low_halves(x: __m128i, y: __m128i) -> __m128i {
    unsafe { _mm_unpacklo_epi64(x, y) }
}
#[inline(always)]
unsafe fn high_then_low(x: __m128i, y: __m128i) -> __m128i {
    unsafe { _mm_castpd_si128(_mm_shuffle_pd::<0b01>(_mm_castsi128_pd(x), _mm_castsi128_pd(y))) }
}

/// Round keys `round` … `round + 2` from two steps' twelve words: `a`, `b`, then the next
/// step's `a_next`, `b_next`.
#[inline(always)]
unsafe fn store_three_192<const WIDE: bool>(out: &mut Made<WIDE>, round: usize, (a, b): (__m128i, __m128i), (a_next, b_next): (__m128i, __m128i)) {
    unsafe {
        out.store(round, a);
        out.store(round + 1, low_halves(b, a_next));
        out.store(round + 2, high_then_low(a_next, b_next));
    }
}

/// The AES-192 schedule: eight dependent six-word steps in two registers, the round keys put
/// together from them with shuffles and stored whole (whole keys or `WIDE` pairs at their
/// 16-byte offsets, so that loading a round key later is forwarded from one store, not pieced
/// from two).
#[inline(always)]
unsafe fn expand_192<const WIDE: bool>(key: &[u8], zero_block: Option<&mut Block>) -> RoundKeys {
    unsafe {
        let mut keys = RoundKeys { keys: [[0u8; 16]; MAX_ROUNDS + 1], rounds: 12 };
        let mut out = Made::<WIDE>::new(&mut keys);
        let s0 = (_mm_loadu_si128(key.as_ptr().cast()), _mm_loadl_epi64(key.as_ptr().add(16).cast()));
        let s1 = step_192::<0x01>(s0);
        store_three_192(&mut out, 0, s0, s1);
        let s2 = step_192::<0x02>(s1);
        let s3 = step_192::<0x04>(s2);
        store_three_192(&mut out, 3, s2, s3);
        let s4 = step_192::<0x08>(s3);
        let s5 = step_192::<0x10>(s4);
        store_three_192(&mut out, 6, s4, s5);
        let s6 = step_192::<0x20>(s5);
        let s7 = step_192::<0x40>(s6);
        store_three_192(&mut out, 9, s6, s7);
        // Round key 12 is the first four words of the last step; its last two are not used.
        let (a8, _) = step_192::<0x80>(s7);
        out.store(12, a8);
        out.finish(zero_block);
        keys
    }
}

/// `AesRound` for a VAES register: its width's four round instructions, and the key
/// schedule's helpers on xmm, where the schedule runs.
macro_rules! vaes_round {
    ($reg:ty, $enc:ident, $enc_last:ident, $dec:ident, $dec_last:ident) => {
        impl AesRound for $reg {
            #[inline(always)]
            unsafe fn enc(self, k: Self) -> Self {
                unsafe { $enc(self, k) }
            }
            #[inline(always)]
            unsafe fn enc_last(self, k: Self) -> Self {
                unsafe { $enc_last(self, k) }
            }
            #[inline(always)]
            unsafe fn dec(self, k: Self) -> Self {
                unsafe { $dec(self, k) }
            }
            #[inline(always)]
            unsafe fn dec_last(self, k: Self) -> Self {
                unsafe { $dec_last(self, k) }
            }
            #[inline(always)]
            unsafe fn sub_word(w: u32) -> u32 {
                unsafe { <__m128i as AesRound>::sub_word(w) }
            }
            #[inline(always)]
            unsafe fn inv_mix_columns(b: &Block) -> Block {
                unsafe { <__m128i as AesRound>::inv_mix_columns(b) }
            }
            #[inline(always)]
            unsafe fn expand_key(key: &[u8], zero_block: Option<&mut Block>) -> Option<RoundKeys> {
                // SAFETY: a ymm or zmm register means a VAES token, which includes AVX.
                unsafe { expand_key::<true>(key, zero_block) }
            }
        }
    };
}

vaes_round!(__m256i, _mm256_aesenc_epi128, _mm256_aesenclast_epi128, _mm256_aesdec_epi128, _mm256_aesdeclast_epi128);
vaes_round!(__m512i, _mm512_aesenc_epi128, _mm512_aesenclast_epi128, _mm512_aesdec_epi128, _mm512_aesdeclast_epi128);
