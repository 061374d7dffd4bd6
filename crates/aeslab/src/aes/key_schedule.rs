//! AES key expansion (FIPS-197 §5.2), written once. Each backend passes its own SubWord so that
//! the schedule is constant-time wherever the backend is: AES-NI computes it with AESENCLAST,
//! the bitsliced backends with the bitsliced S-box circuit, the T-table backend with its table.

#![deny(unsafe_code)]

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::{Block, Error};

/// The largest number of rounds (AES-256).
pub const MAX_ROUNDS: usize = 14;

/// Encryption round keys `keys[0..=rounds]`, as bytes in FIPS-197 order. Wiped on drop.
#[derive(Clone)]
pub struct RoundKeys {
    pub keys: [Block; MAX_ROUNDS + 1],
    pub rounds: usize,
}

impl Zeroize for RoundKeys {
    fn zeroize(&mut self) {
        // A fill and a barrier: `zeroize` on byte arrays is 240 volatile one-byte stores.
        crate::ct::wipe(self.keys.as_flattened_mut());
    }
}

impl Drop for RoundKeys {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for RoundKeys {}

impl RoundKeys {
    /// No keys yet (all zero), to be filled in place.
    pub const EMPTY: RoundKeys = RoundKeys { keys: [[0u8; 16]; MAX_ROUNDS + 1], rounds: 0 };

    /// The round keys that are used (`rounds + 1` of them).
    pub fn used(&self) -> &[Block] {
        &self.keys[..=self.rounds]
    }
}

/// The S-box on each byte of a word, in the backend's own constant-time way. Its words are
/// little-endian (byte 0 of the key word is the low byte), which it need not care about since
/// the S-box acts on each byte alone.
///
/// A trait rather than a closure, so that a kernel's implementation is `#[inline(always)]`
/// into the kernel and compiled with its target features: a closure is not, and its AES
/// instruction then ran as a call.
pub trait SubWord {
    fn sub_word(&self, w: u32) -> u32;
}

impl<F: Fn(u32) -> u32> SubWord for F {
    #[inline(always)]
    fn sub_word(&self, w: u32) -> u32 {
        self(w)
    }
}

/// An error unless `len` is an AES key length (16, 24 or 32 bytes).
#[inline(always)]
pub fn check_key_len(len: usize) -> Result<(), Error> {
    match len {
        16 | 24 | 32 => Ok(()),
        n => Err(Error::InvalidKeyLength(n)),
    }
}

/// Expands `key` (16, 24 or 32 bytes) with the backend's SubWord. (The backends check the
/// length in `Backend::ready` and call [`expand_checked`].)
#[cfg(test)]
pub fn expand<S: SubWord>(key: &[u8], s: S) -> Result<RoundKeys, Error> {
    check_key_len(key.len())?;
    Ok(expand_checked(key, s))
}

/// [`expand`] for a key whose length [`check_key_len`] accepted (a kernel returns the keys
/// themselves, not a `Result`, so that they are written in place).
#[inline(always)]
pub fn expand_checked<S: SubWord>(key: &[u8], s: S) -> RoundKeys {
    debug_assert!(check_key_len(key.len()).is_ok());
    // The key's word count as a constant: `i % nk` by a run-time `nk` is a division per word
    // (tens of cycles each on current cores, most of the schedule's time).
    match key.len() {
        16 => expand_nk::<S, 4>(key, s),
        24 => expand_nk::<S, 6>(key, s),
        _ => expand_nk::<S, 8>(key, s),
    }
}

/// [`expand`] for a key of `NK` words.
#[inline(always)]
fn expand_nk<S: SubWord, const NK: usize>(key: &[u8], s: S) -> RoundKeys {
    let (nk, rounds) = (NK, NK + 6);
    let total = 4 * (rounds + 1);
    let mut w = [0u32; 4 * (MAX_ROUNDS + 1)];
    for (i, chunk) in key.chunks_exact(4).enumerate() {
        w[i] = u32::from_le_bytes(chunk.try_into().unwrap());
    }
    let mut rcon: u8 = 1;
    for i in nk..total {
        let mut t = w[i - 1];
        if i % nk == 0 {
            // RotWord moves byte 0 to byte 3: a right rotation of the little-endian word.
            t = s.sub_word(t.rotate_right(8)) ^ u32::from(rcon);
            // Rcon doubles in GF(2^8); it depends only on the round index, not on the key.
            rcon = (rcon << 1) ^ (0x1b * (rcon >> 7));
        } else if nk > 6 && i % nk == 4 {
            t = s.sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    let mut out = RoundKeys { keys: [[0u8; 16]; MAX_ROUNDS + 1], rounds };
    for (r, block) in out.keys.iter_mut().take(rounds + 1).enumerate() {
        for c in 0..4 {
            block[4 * c..4 * c + 4].copy_from_slice(&w[4 * r + c].to_le_bytes());
        }
    }
    crate::ct::wipe(&mut w);
    out
}

/// xtime (multiply by x in GF(2^8)) on four bytes at once, without a branch on the data.
#[inline(always)]
fn xtime4(x: u32) -> u32 {
    let hi = x & 0x8080_8080;
    ((x & 0x7f7f_7f7f) << 1) ^ ((hi >> 7) * 0x1b)
}

/// InvMixColumns on one block, in constant time (no table, no data-dependent branch).
pub fn inv_mix_columns(block: &Block) -> Block {
    let mut out = [0u8; 16];
    for c in 0..4 {
        let a = u32::from_le_bytes(block[4 * c..4 * c + 4].try_into().unwrap());
        // InvMixColumns = MixColumns ∘ (a_r ⊕ 4·(a_r ⊕ a_{r+2})): the circulant (0e 0b 0d 09)
        // factors as (02 03 01 01)·(05 00 04 00).
        let u = a ^ xtime4(xtime4(a ^ a.rotate_right(16)));
        let t = u ^ u.rotate_right(8);
        let m = xtime4(t) ^ u.rotate_right(8) ^ t.rotate_right(16);
        out[4 * c..4 * c + 4].copy_from_slice(&m.to_le_bytes());
    }
    out
}

/// Round keys for the equivalent inverse cipher (FIPS-197 §5.3.5), in the order decryption
/// uses them: `dec[0] = enc[rounds]`, `dec[i] = InvMixColumns(enc[rounds - i])`, `dec[rounds] = enc[0]`.
pub fn equivalent_inverse(enc: &RoundKeys) -> RoundKeys {
    equivalent_inverse_with(enc, PortableInvMixColumns)
}

/// InvMixColumns on one block, in the backend's own way (AESIMC for the AES-instruction
/// backends); a trait for the reason given at [`SubWord`].
pub trait InvMixColumns {
    fn inv_mix_columns(&self, b: &Block) -> Block;
}

/// [`inv_mix_columns`] in plain Rust.
struct PortableInvMixColumns;

impl InvMixColumns for PortableInvMixColumns {
    #[inline(always)]
    fn inv_mix_columns(&self, b: &Block) -> Block {
        inv_mix_columns(b)
    }
}

/// [`equivalent_inverse`] with the backend's InvMixColumns.
#[inline(always)]
pub fn equivalent_inverse_with<M: InvMixColumns>(enc: &RoundKeys, m: M) -> RoundKeys {
    let mut dec = RoundKeys::EMPTY;
    equivalent_inverse_into(enc, m, &mut dec);
    dec
}

/// [`equivalent_inverse_with`], written into `dec`.
#[inline(always)]
pub fn equivalent_inverse_into<M: InvMixColumns>(enc: &RoundKeys, m: M, dec: &mut RoundKeys) {
    let n = enc.rounds;
    dec.rounds = n;
    dec.keys[0] = enc.keys[n];
    for i in 1..n {
        dec.keys[i] = m.inv_mix_columns(&enc.keys[n - i]);
    }
    dec.keys[n] = enc.keys[0];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aes::consts::SBOX;
    use alloc::{vec, vec::Vec};

    fn table_sub_word(w: u32) -> u32 {
        u32::from_le_bytes(w.to_le_bytes().map(|b| SBOX[b as usize]))
    }

    #[test]
    fn fips197_appendix_a1_last_round_key() {
        let key = hex_bytes("2b7e151628aed2a6abf7158809cf4f3c");
        let rk = expand(&key, table_sub_word).unwrap();
        assert_eq!(rk.rounds, 10);
        assert_eq!(rk.keys[10].to_vec(), hex_bytes("d014f9a8c9ee2589e13f0cc8b6630ca6"));
    }

    #[test]
    fn fips197_appendix_a3_last_round_key() {
        let key = hex_bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
        let rk = expand(&key, table_sub_word).unwrap();
        assert_eq!(rk.rounds, 14);
        assert_eq!(rk.keys[14].to_vec(), hex_bytes("fe4890d1e6188d0b046df344706c631e"));
    }

    #[test]
    fn fips197_appendix_a2_last_round_key() {
        let key = hex_bytes("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b");
        let rk = expand(&key, table_sub_word).unwrap();
        assert_eq!(rk.rounds, 12);
        assert_eq!(rk.keys[12].to_vec(), hex_bytes("e98ba06f448c773c8ecc720401002202"));
    }

    #[test]
    fn rejects_bad_key_lengths() {
        for n in [0, 1, 15, 17, 23, 25, 31, 33, 64] {
            assert_eq!(expand(&vec![0; n], table_sub_word).err(), Some(Error::InvalidKeyLength(n)));
        }
    }

    #[test]
    fn inv_mix_columns_inverts_mix_columns() {
        // MixColumns of the FIPS-197 column db 13 53 45 is 8e 4d a1 bc.
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&[0x8e, 0x4d, 0xa1, 0xbc]);
        assert_eq!(&inv_mix_columns(&b)[..4], &[0xdb, 0x13, 0x53, 0x45]);
    }

    fn hex_bytes(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }
}
