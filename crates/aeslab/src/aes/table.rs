//! `table`: the classic 32-bit T-table AES (Daemen–Rijmen §4.2), one block at a time.
//!
//! VARIABLE TIME. Every table lookup is indexed by a secret state byte, so cache timing leaks
//! key material. It exists as the baseline of FACE's table-based variant and of measurements;
//! the dispatch never picks it, and its type name says so.

#![deny(unsafe_code)]

use cipher::consts::U1;

use super::consts::{INV_SBOX, SBOX, gf_mul};
use super::key_schedule::{self, RoundKeys};
use super::{Backend, Rounds};
use crate::{Block, Error};

/// `TE[x]` = the MixColumns column (2s, s, s, 3s) of `s = S(x)`, byte 0 lowest. The other three
/// tables of the classic layout are byte rotations of this one.
const fn make_te() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let s = SBOX[i];
        t[i] = u32::from_le_bytes([gf_mul(s, 2), s, s, gf_mul(s, 3)]);
        i += 1;
    }
    t
}

/// `TD[x]` = the InvMixColumns column (14·s, 9·s, 13·s, 11·s) of `s = S⁻¹(x)`.
const fn make_td() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let s = INV_SBOX[i];
        t[i] = u32::from_le_bytes([gf_mul(s, 14), gf_mul(s, 9), gf_mul(s, 13), gf_mul(s, 11)]);
        i += 1;
    }
    t
}

const fn rotated(t: &[u32; 256], bits: u32) -> [u32; 256] {
    let mut r = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        r[i] = t[i].rotate_left(bits);
        i += 1;
    }
    r
}

const TE0: [u32; 256] = make_te();
pub(crate) static TE: [[u32; 256]; 4] = [TE0, rotated(&TE0, 8), rotated(&TE0, 16), rotated(&TE0, 24)];
const TD0: [u32; 256] = make_td();
static TD: [[u32; 256]; 4] = [TD0, rotated(&TD0, 8), rotated(&TD0, 16), rotated(&TD0, 24)];

fn sub_word_table(w: u32) -> u32 {
    u32::from_le_bytes(w.to_le_bytes().map(|b| SBOX[b as usize]))
}

#[inline(always)]
fn columns(b: &Block) -> [u32; 4] {
    core::array::from_fn(|c| u32::from_le_bytes(b[4 * c..4 * c + 4].try_into().unwrap()))
}

#[inline(always)]
fn byte(w: u32, row: usize) -> usize {
    ((w >> (8 * row)) & 0xff) as usize
}

/// Variable-time T-table AES. Never selected by dispatch; use only where timing leaks are
/// acceptable (measurement baselines, FACE's table-based variant).
#[derive(Clone)]
pub struct TableVartime {
    enc: RoundKeys,
    /// Boxed (see [`DecKeys`]).
    dec: DecKeys,
}

/// The decryption keys. Every `AnyAes` is as large as its largest backend, and the modes copy
/// key objects whole, so the keys that only this reference backend keeps apart live on the
/// heap where there is one (`AnyAes` is 264 bytes on x86-64; inline keys would make it about
/// 500). Without `alloc` they are inline, as every backend's keys then are.
#[cfg(feature = "alloc")]
type DecKeys = alloc::boxed::Box<RoundKeys>;
#[cfg(not(feature = "alloc"))]
type DecKeys = RoundKeys;

impl TableVartime {
    /// One full round through the tables: column `c` takes row `r` from column `c + r`.
    #[inline(always)]
    pub(crate) fn round(s: &[u32; 4], k: &Block) -> [u32; 4] {
        let k = columns(k);
        core::array::from_fn(|c| {
            TE[0][byte(s[c], 0)]
                ^ TE[1][byte(s[(c + 1) % 4], 1)]
                ^ TE[2][byte(s[(c + 2) % 4], 2)]
                ^ TE[3][byte(s[(c + 3) % 4], 3)]
                ^ k[c]
        })
    }

    /// The final round (no MixColumns) and the output bytes.
    #[inline(always)]
    pub(crate) fn last_round(s: &[u32; 4], k: &Block) -> Block {
        let k = columns(k);
        let mut out = [0u8; 16];
        for c in 0..4 {
            let w = u32::from_le_bytes([
                SBOX[byte(s[c], 0)],
                SBOX[byte(s[(c + 1) % 4], 1)],
                SBOX[byte(s[(c + 2) % 4], 2)],
                SBOX[byte(s[(c + 3) % 4], 3)],
            ]) ^ k[c];
            out[4 * c..4 * c + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Encryption round keys (for FACE).
    pub(crate) fn round_keys(&self) -> &RoundKeys {
        &self.enc
    }

    /// Round 0: the block XOR the first round key, as columns.
    pub(crate) fn whiten(&self, b: &Block) -> [u32; 4] {
        let (s, k0) = (columns(b), columns(&self.enc.keys[0]));
        core::array::from_fn(|c| s[c] ^ k0[c])
    }

    /// Rounds `FIRST..rounds` and the final round, from the state after round `FIRST − 1`:
    /// the one round loop shared by plain encryption and FACE, unrolled for each round count.
    #[inline(always)]
    pub(crate) fn finish_from<const FIRST: usize>(&self, s: [u32; 4]) -> Block {
        match self.enc.rounds {
            10 => self.rounds::<10, FIRST>(s),
            12 => self.rounds::<12, FIRST>(s),
            _ => self.rounds::<14, FIRST>(s),
        }
    }

    #[inline(always)]
    fn rounds<const NR: usize, const FIRST: usize>(&self, mut s: [u32; 4]) -> Block {
        for k in &self.enc.keys[FIRST..NR] {
            s = Self::round(&s, k);
        }
        Self::last_round(&s, &self.enc.keys[NR])
    }

    fn encrypt_block(&self, b: &mut Block) {
        *b = self.finish_from::<1>(self.whiten(b));
    }

    fn decrypt_block(&self, b: &mut Block) {
        // Equivalent inverse cipher: column c takes row r from column c − r.
        let keys = self.dec.used();
        let n = self.dec.rounds;
        let k0 = columns(&keys[0]);
        let mut s: [u32; 4] = core::array::from_fn(|c| columns(b)[c] ^ k0[c]);
        for k in &keys[1..n] {
            let k = columns(k);
            s = core::array::from_fn(|c| {
                TD[0][byte(s[c], 0)]
                    ^ TD[1][byte(s[(c + 3) % 4], 1)]
                    ^ TD[2][byte(s[(c + 2) % 4], 2)]
                    ^ TD[3][byte(s[(c + 1) % 4], 3)]
                    ^ k[c]
            });
        }
        let k = columns(&keys[n]);
        for c in 0..4 {
            let w = u32::from_le_bytes([
                INV_SBOX[byte(s[c], 0)],
                INV_SBOX[byte(s[(c + 3) % 4], 1)],
                INV_SBOX[byte(s[(c + 2) % 4], 2)],
                INV_SBOX[byte(s[(c + 1) % 4], 3)],
            ]) ^ k[c];
            b[4 * c..4 * c + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
}

impl Backend for TableVartime {
    const NAME: &'static str = "table";
    const CONSTANT_TIME: bool = false;
    const REQUIRES: &'static str = "nothing";
    type Batch = U1;

    fn available() -> bool {
        true
    }

    type Ready = ();

    fn ready(key_len: usize) -> Result<(), Error> {
        key_schedule::check_key_len(key_len)
    }

    fn schedule((): (), key: &[u8]) -> Self {
        let enc = key_schedule::expand_checked(key, sub_word_table);
        let dec = DecKeys::from(key_schedule::equivalent_inverse(&enc));
        TableVartime { enc, dec }
    }

    fn rounds(&self) -> usize {
        self.enc.rounds
    }

    fn encrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks {
            self.encrypt_block(b);
        }
    }

    fn decrypt_blocks(&self, blocks: &mut [Block]) {
        for b in blocks {
            self.decrypt_block(b);
        }
    }
}

/// Round keys for [`Rounds::rounds_only`] on the T-tables (up to ten). Wiped on drop.
pub struct TableRoundKeys {
    keys: [Block; 10],
    len: usize,
}

impl Drop for TableRoundKeys {
    fn drop(&mut self) {
        crate::ct::wipe(self.keys.as_flattened_mut());
    }
}

/// The state's columns as bytes.
fn column_bytes(s: &[u32; 4], b: &mut Block) {
    for (c, w) in s.iter().enumerate() {
        b[4 * c..4 * c + 4].copy_from_slice(&w.to_le_bytes());
    }
}

impl Rounds for TableVartime {
    type RoundKeys = TableRoundKeys;

    fn first_rounds(&self, blocks: &mut [Block], rounds: usize) {
        for b in blocks {
            let mut s = self.whiten(b);
            for r in 1..=rounds {
                s = TableVartime::round(&s, &self.enc.keys[r]);
            }
            column_bytes(&s, b);
        }
    }

    fn prepare_round_keys(keys: &[Block]) -> Result<TableRoundKeys, Error> {
        assert!(keys.len() <= 10, "up to ten round keys");
        let mut k = TableRoundKeys { keys: [[0u8; 16]; 10], len: keys.len() };
        k.keys[..keys.len()].copy_from_slice(keys);
        Ok(k)
    }

    fn rounds_only(keys: &TableRoundKeys, blocks: &mut [Block]) {
        for b in blocks {
            let mut s = columns(b);
            for k in &keys.keys[..keys.len] {
                s = TableVartime::round(&s, k);
            }
            column_bytes(&s, b);
        }
    }
}
