//! GHASH (SP 800-38D §6.4): Horner's rule over GF(2^128), in constant time.
//!
//! Representation, shared with the carry-less multiplies (`clmul.rs`): a block read as a
//! big-endian `u128` has the coefficient of x^0 in bit 127 — the bit-reversed polynomial. The
//! carry-less product of two reversed 128-bit values is the reversed product over 255 bits;
//! shifted left by one it is the reversed product over 256 bits, whose high half holds the
//! degrees 0..127 and whose low half the degrees 128..255, to be folded back with
//! x^128 = x^7 + x^2 + x + 1 ([`reduce`]). Products can be summed before the shift and the
//! reduction (both are linear): the aggregated reduction of the SIMD backends.

#![deny(unsafe_code)]

use crate::Block;

/// The 64-bit carry-less product of two 32-bit values, with integer multiplications on
/// operands thinned to every fourth bit: each sum of partial products has at most 8 terms, so
/// it fits in the 3 zero bits ("holes") between two used bits and no carry reaches a bit that
/// is kept. Multiplication runs in constant time on the CPUs aeslab targets; there is no branch
/// and no table.
fn clmul32(x: u32, y: u32) -> u64 {
    const M: [u64; 4] = [0x1111_1111_1111_1111, 0x2222_2222_2222_2222, 0x4444_4444_4444_4444, 0x8888_8888_8888_8888];
    let (x, y) = (u64::from(x), u64::from(y));
    let xs = [x & M[0], x & M[1], x & M[2], x & M[3]];
    let ys = [y & M[0], y & M[1], y & M[2], y & M[3]];
    let mut z = 0u64;
    for (i, mask) in M.iter().enumerate() {
        // Bits of class i (positions ≡ i mod 4) come from the pairs of classes (a, b) with
        // a + b ≡ i mod 4.
        let mut acc = 0u64;
        for a in 0..4 {
            acc ^= xs[a].wrapping_mul(ys[(4 + i - a) % 4]);
        }
        z |= acc & mask;
    }
    z
}

/// The 128-bit carry-less product of two 64-bit values (Karatsuba over 32-bit halves).
fn clmul64(x: u64, y: u64) -> u128 {
    let (x0, x1) = (x as u32, (x >> 32) as u32);
    let (y0, y1) = (y as u32, (y >> 32) as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    u128::from(lo) ^ (u128::from(mid) << 32) ^ (u128::from(hi) << 64)
}

/// The 256-bit carry-less product `(high, low)` of two 128-bit values.
fn clmul128(x: u128, y: u128) -> (u128, u128) {
    let (x0, x1) = (x as u64, (x >> 64) as u64);
    let (y0, y1) = (y as u64, (y >> 64) as u64);
    let lo = clmul64(x0, y0);
    let hi = clmul64(x1, y1);
    let mid = clmul64(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (hi ^ (mid >> 64), lo ^ (mid << 64))
}

/// Shifts the 256-bit carry-less product left by one bit and reduces it modulo
/// x^128 + x^7 + x^2 + x + 1 (reversed representation; Gueron and Kounavis, "Intel
/// Carry-Less Multiplication Instruction and its Usage for Computing the GCM Mode", §4).
pub(crate) fn reduce(high: u128, low: u128) -> u128 {
    let high = (high << 1) | (low >> 127);
    let low = low << 1;
    let (x1, x0) = ((low >> 64) as u64, low as u64);
    // The degrees 128..134 that multiplying the low half by x^7 + x^2 + x would push past
    // x^127, folded back into it first.
    let d = x1 ^ (x0 << 63) ^ (x0 << 62) ^ (x0 << 57);
    let v = (u128::from(d) << 64) | u128::from(x0);
    high ^ v ^ (v >> 1) ^ (v >> 2) ^ (v >> 7)
}

/// `x · y` in GCM's field, both in the reversed representation.
pub(crate) fn mul(x: u128, y: u128) -> u128 {
    let (h, l) = clmul128(x, y);
    reduce(h, l)
}

/// Portable GHASH: `acc ← (acc ⊕ block) · H` per 16-byte block, the last one zero-padded.
pub(crate) fn update_portable(h: u128, acc: &mut u128, data: &[u8]) {
    let (blocks, tail) = data.as_chunks::<16>();
    for b in blocks {
        *acc = mul(*acc ^ u128::from_be_bytes(*b), h);
    }
    if !tail.is_empty() {
        let mut b: Block = [0; 16];
        b[..tail.len()].copy_from_slice(tail);
        *acc = mul(*acc ^ u128::from_be_bytes(b), h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-serial multiplication straight from SP 800-38D Algorithm 1 (variable time; tests
    /// only), on the blocks as bit strings.
    fn mul_spec(x: u128, y: u128) -> u128 {
        const R: u128 = 0xe1 << 120;
        let (mut z, mut v) = (0u128, y);
        for i in 0..128 {
            if (x >> (127 - i)) & 1 == 1 {
                z ^= v;
            }
            v = if v & 1 == 1 { (v >> 1) ^ R } else { v >> 1 };
        }
        z
    }

    #[test]
    fn clmul32_matches_shift_and_xor() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (x, y) = ((s >> 32) as u32, s as u32);
            let expect = (0..32).filter(|i| (y >> i) & 1 == 1).fold(0u64, |z, i| z ^ (u64::from(x) << i));
            assert_eq!(clmul32(x, y), expect, "{x:#x} {y:#x}");
        }
        assert_eq!(clmul32(u32::MAX, u32::MAX), 0x5555_5555_5555_5555);
    }

    #[test]
    fn field_multiplication_matches_the_specification() {
        let mut s = 0x0123_4567_89ab_cdefu128 * 0x1000_0000_0000_0001;
        for _ in 0..500 {
            s = s.wrapping_mul(0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645).wrapping_add(0x5851_f42d_4c95_7f2d);
            let (x, y) = (s, s.rotate_left(61) ^ 0xdead_beef);
            assert_eq!(mul(x, y), mul_spec(x, y));
        }
        for (x, y) in [(0, 0), (u128::MAX, u128::MAX), (1 << 127, u128::MAX), (1, 1), (u128::MAX, 1)] {
            assert_eq!(mul(x, y), mul_spec(x, y), "{x:#x} {y:#x}");
        }
    }
}
