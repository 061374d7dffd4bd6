//! The AES S-box and its inverse, derived at compile time from their definition (inversion in
//! GF(2^8) followed by the affine map), so no table is typed in by hand.
//!
//! These tables are indexed by secret bytes only in the variable-time `table` backend and in
//! tests; constant-time backends compute the S-box as a Boolean circuit instead.

#![deny(unsafe_code)]

/// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (compile-time use only).
pub(crate) const fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let hi = a & 0x80;
        a <<= 1;
        if hi != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

/// x^254 = x^-1 in GF(2^8), with 0 mapped to 0.
const fn gf_inv(x: u8) -> u8 {
    let mut result = 1u8;
    let mut base = x;
    let mut e = 254u32;
    while e != 0 {
        if e & 1 != 0 {
            result = gf_mul(result, base);
        }
        base = gf_mul(base, base);
        e >>= 1;
    }
    result
}

const fn make_sbox() -> [u8; 256] {
    let mut s = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = gf_inv(i as u8);
        s[i] = b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63;
        i += 1;
    }
    s
}

const fn make_inv_sbox(s: &[u8; 256]) -> [u8; 256] {
    let mut inv = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        inv[s[i] as usize] = i as u8;
        i += 1;
    }
    inv
}

pub(crate) const SBOX: [u8; 256] = make_sbox();
pub(crate) const INV_SBOX: [u8; 256] = make_inv_sbox(&SBOX);
