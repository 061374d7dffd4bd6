//! AEZ-hash, AEZ-prf, AEZ-tiny and AEZ-core (AEZ v5 §1.5), over [`Tweakable`].
//!
//! AEZ-core's two passes are batched: the E calls of up to [`BATCH`] block pairs go to the
//! backend together, so wide backends (VAES, bitsliced) fill their registers. The offsets are
//! computed from public positions only; nothing here branches on or indexes by secret data
//! (the 10* padding positions depend on lengths, which are public).

#![deny(unsafe_code)]


use super::tweak::{IOffsets, Tweakable, to_block, to_u128};
use crate::Block;
use crate::simd::Block128;

/// Block pairs per backend call in AEZ-core.
const BATCH: usize = 32;

#[inline(always)]
fn load(b: &[u8]) -> u128 {
    u128::from_be_bytes(b[..16].try_into().unwrap())
}

#[inline(always)]
fn store(b: &mut [u8], x: u128) {
    b[..16].copy_from_slice(&x.to_be_bytes());
}

/// `bytes ‖ 10*` as a block (`bytes.len() < 16`).
fn pad(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    b[bytes.len()] = 0x80;
    to_u128(&b)
}

/// A block in a 128-bit register for the XOR glue.
type V = Block128;

/// AEZ-hash(N, A_1..A_k) with tag length `tau_bits`: E^{3,1}([τ]_128) ⊕ the hash of the nonce
/// (j = 4) and of each AD string (j = 5, 6, …), full blocks at i = 1, 2, … and a 10*-padded
/// final (or empty) block at i = 0.
pub(crate) fn hash(t: &Tweakable, nonce: &[u8], ad: &[&[u8]], tau_bits: u32) -> u128 {
    // The AES4 inputs go to the backend in batches of up to 16 from a stack buffer.
    let mut batch = HashBatch { t, buf: [[0u8; 16]; 16], len: 0, sum: V::load(&[0u8; 16]) };
    batch.push(u128::from(tau_bits) ^ t.offset(3, 1));
    for (k, string) in core::iter::once(nonce).chain(ad.iter().copied()).enumerate() {
        let jj = t.j_times(4 + k as u64);
        let full = string.len() / 16;
        for (n, off) in IOffsets::starting_at(t, 1).take(full).enumerate() {
            batch.push(load(&string[16 * n..]) ^ jj ^ off);
        }
        let rest = &string[16 * full..];
        if !rest.is_empty() || string.is_empty() {
            batch.push(pad(rest) ^ jj ^ t.i_offset(0));
        }
    }
    batch.flush();
    let mut sum = [0u8; 16];
    batch.sum.store(&mut sum);
    crate::ct::wipe(batch.buf.as_flattened_mut());
    to_u128(&sum)
}

/// AEZ-hash's AES4 inputs, gathered and XOR-summed a batch at a time.
struct HashBatch<'a> {
    t: &'a Tweakable,
    buf: [Block; 16],
    len: usize,
    sum: V,
}

impl HashBatch<'_> {
    fn push(&mut self, x: u128) {
        if self.len == self.buf.len() {
            self.flush();
        }
        self.buf[self.len] = to_block(x);
        self.len += 1;
    }

    fn flush(&mut self) {
        self.t.rounds().aes4(&mut self.buf[..self.len]);
        for b in &self.buf[..self.len] {
            self.sum = self.sum.xor(V::load(b));
        }
        self.len = 0;
    }
}

/// AEZ-prf(Δ, τ): E^{−1,3}(Δ ⊕ [0]), E^{−1,3}(Δ ⊕ [1]), … truncated to τ bytes.
pub(crate) fn prf(t: &Tweakable, delta: u128, out: &mut [u8]) {
    prf_at(t, delta, 0, out);
}

/// AEZ-prf's output from byte `from` (a multiple of 16) on, into `out`; 32 blocks at a time
/// from a stack buffer.
pub(crate) fn prf_at(t: &Tweakable, delta: u128, from: usize, out: &mut [u8]) {
    debug_assert!(from.is_multiple_of(16));
    let off = t.offset(-1, 3);
    let mut blocks = [[0u8; 16]; 32];
    for (c, chunk) in out.chunks_mut(16 * blocks.len()).enumerate() {
        let n = chunk.len().div_ceil(16);
        for (k, b) in blocks[..n].iter_mut().enumerate() {
            *b = to_block(delta ^ (from / 16 + c * 32 + k) as u128 ^ off);
        }
        t.rounds().aes10(&mut blocks[..n]);
        for (o, b) in chunk.chunks_mut(16).zip(&blocks) {
            o.copy_from_slice(&b[..o.len()]);
        }
    }
    crate::ct::wipe(blocks.as_flattened_mut());
}

/// Enciphers (`decrypt = false`) or deciphers `data` in place under tweak offset Δ.
pub(crate) fn encipher(t: &Tweakable, delta: u128, data: &mut [u8], decrypt: bool) {
    match data.len() {
        0 => {}
        1..=31 => tiny(t, delta, data, decrypt),
        n => {
            let (body, rest) = data.split_at_mut(32 * ((n - 32) / 32));
            core(t, delta, body, rest, decrypt)
        }
    }
}

/// [`encipher`] of the string `head ‖ tail` without joining it: AEZ-core's pairs lie inside
/// `head` (the string's last 32 to 63 bytes are the fragment and the final pair, and `tail`
/// is shorter than 32), so only those last bytes are copied out and back. For the `aead`
/// interface, whose tag is apart from the message.
pub(crate) fn encipher_split(t: &Tweakable, delta: u128, head: &mut [u8], tail: &mut [u8], decrypt: bool) {
    let n = head.len() + tail.len();
    assert!(tail.len() < 32, "a tail shorter than a pair");
    let mut joined = [0u8; 64];
    let body_len = if n >= 32 { 32 * ((n - 32) / 32) } else { 0 };
    let (body, head_rest) = head.split_at_mut(body_len);
    let rest_len = n - body_len;
    joined[..head_rest.len()].copy_from_slice(head_rest);
    joined[head_rest.len()..rest_len].copy_from_slice(tail);
    match n {
        0 => {}
        1..=31 => tiny(t, delta, &mut joined[..rest_len], decrypt),
        _ => core(t, delta, body, &mut joined[..rest_len], decrypt),
    }
    head_rest.copy_from_slice(&joined[..head_rest.len()]);
    tail.copy_from_slice(&joined[head_rest.len()..rest_len]);
    crate::ct::wipe(&mut joined);
}

/// AEZ-tiny: a Feistel network on the two halves of a message of 1–31 bytes (halves of an
/// odd length meet in the middle of a byte), 24/16/10/8 rounds by length. Messages under 16
/// bytes get one more E^{0,3} call that fixes the top bit.
///
/// Each half is `4n` bits, held at the top of a 128-bit integer (the spec's strings read
/// big-endian), so the nibble-aligned middle of an odd length, the 10* padding and the
/// rejoining are shifts and masks by the public length, with no byte loop or closure: a
/// 1-byte AEZ message (17 bytes with the tag) took about 270 ns on Zen 5 with a closure per
/// round, which the compiler did not inline, and byte copies of run-time length (2026-11-29).
fn tiny(t: &Tweakable, delta: u128, data: &mut [u8], decrypt: bool) {
    let n = data.len();
    debug_assert!((1..32).contains(&n));
    let (rounds, i): (u32, u64) = match n {
        1 => (24, 7),
        2 => (16, 7),
        3..=15 => (10, 7),
        _ => (8, 6),
    };
    let bits = 4 * n as u32; // 4 ..= 124: a half's length
    let keep = !(u128::MAX >> bits); // a half's bits, at the top
    let pad = 1u128 << (127 - bits); // the 1 of the 10* after a half
    let top = 1u128 << 127;

    // The message as two big-endian blocks, zero past its end: L is its first `bits` bits,
    // R the next `bits`.
    let mut bytes = [0u8; 32];
    bytes[..n].copy_from_slice(data);
    let (hi, lo) = (load(&bytes[..16]), load(&bytes[16..]));
    let mut l = hi & keep;
    let mut r = ((hi << bits) | (lo >> (128 - bits))) & keep;

    // Under 16 bytes, the top bit is fixed by E^{0,3} of the whole string with that bit set:
    // before the rounds when deciphering, after them when enciphering.
    if decrypt && n < 16 {
        l ^= t.e(0, 3, (hi | top) ^ delta) & top;
    }
    // Round k: `dst ^= E^{0,i}(src ‖ 10* ⊕ Δ ⊕ [k]_128)`, its counter k = 0, 1, … when
    // enciphering and counting down when deciphering.
    let (mut k, step): (u32, u32) = if decrypt { (rounds - 1, u32::MAX) } else { (0, 1) };
    for _ in 0..rounds / 2 {
        l ^= t.e(0, i, ((r & keep) | pad) ^ delta ^ u128::from(k as u8));
        k = k.wrapping_add(step);
        r ^= t.e(0, i, ((l & keep) | pad) ^ delta ^ u128::from(k as u8));
        k = k.wrapping_add(step);
    }
    // The output is R ‖ L.
    let (r, l) = (r & keep, l & keep);
    let mut out_hi = r | (l >> bits);
    let out_lo = l << (128 - bits);
    if !decrypt && n < 16 {
        out_hi ^= t.e(0, 3, (out_hi | top) ^ delta) & top;
    }
    store(&mut bytes[..16], out_hi);
    store(&mut bytes[16..], out_lo);
    data.copy_from_slice(&bytes[..n]);
    crate::ct::wipe(&mut bytes);
}

/// AEZ-core for messages of 32 bytes and more: pairs (M_i, M'_i) in `body` (a multiple of 32
/// bytes), then in `rest` a fragment of 0–31 bytes and the final pair (M_x, M_y). Two passes
/// over the pairs, each batched.
fn core(t: &Tweakable, delta: u128, body: &mut [u8], rest: &mut [u8], decrypt: bool) {
    let d = u64::from(decrypt);
    debug_assert!(body.len().is_multiple_of(32) && (32..64).contains(&rest.len()));
    let pairs = body.len() / 32;
    let frag = rest.len() - 32;
    let (fragment, last) = rest.split_at_mut(frag);
    let (j0, j1, j2) = (0u128, t.j, t.j_times(2));
    let i0 = t.i_offset(0);

    // What the kernels rebuild the offsets 2^⌈i/8⌉·I ⊕ (i mod 8)·L of the pairs from.
    let offs = t.pair_offsets();
    let (pair_blocks, _) = body.as_chunks_mut::<32>();

    // What needs no pair, before the passes in program order so that it overlaps them rather
    // than waiting for them: the fragment's contribution to X, and E^{0,1+d}(M_y), in one
    // batch.
    let frag_in: [u8; 32] = {
        let mut f = [0u8; 32];
        f[..frag].copy_from_slice(fragment);
        f
    };
    let (mx, my) = (load(last), load(&last[16..]));
    let mut e4 = [0u128; 3];
    let n4 = if frag >= 16 {
        t.e_many(&[(0, 1 + d, my), (0, 4, load(&frag_in)), (0, 5, pad(&frag_in[16..frag]))], &mut e4);
        3
    } else if frag > 0 {
        t.e_many(&[(0, 1 + d, my), (0, 4, pad(&frag_in[..frag]))], &mut e4[..2]);
        2
    } else {
        e4[0] = t.e(0, 1 + d, my);
        1
    };
    // Pass 1: W_i = M_i ⊕ E^{1,i}(M'_i); X_i = M'_i ⊕ E^{0,0}(W_i); X = ⊕ X_i.
    // E^{1,i} adds J ⊕ off_i, E^{0,0} adds I.
    let (j1b, j2b, i0b) = (to_block(j1), to_block(j2), to_block(j0 ^ i0));
    // The backend's register kernel does all the pairs; without one, the batched loop does.
    // (Nothing to set up when there are no pairs.)
    let (done, x_kernel) = if pairs > 0 { t.rounds().core_pass1(pair_blocks, offs, &j1b, &i0b) } else { (0, [0u8; 16]) };
    let xacc = V::load(&x_kernel).xor(pass1_batched(t, &mut pair_blocks[done..], done, &j1b, &i0b));
    let mut x = [0u8; 16];
    xacc.store(&mut x);
    let x = to_u128(&x);
    let x = e4[1..n4].iter().fold(x, |acc, e| acc ^ e);
    // S from the final pair.
    let sx = mx ^ x ^ delta ^ e4[0];
    let sy = my ^ t.e(-1, 1 + d, sx);
    let s = sx ^ sy;
    // Everything that needs only S and S_y, in one batch before pass 2: E^{−1,2−d}(S_y) for
    // the final pair and the fragment's E^{−1,4}(S), E^{−1,5}(S).
    let mut e10 = [0u128; 3];
    match frag {
        0 => e10[0] = t.e(-1, 2 - d, sy),
        1..=15 => t.e_many(&[(-1, 2 - d, sy), (-1, 4, s)], &mut e10[..2]),
        _ => t.e_many(&[(-1, 2 - d, sy), (-1, 4, s), (-1, 5, s)], &mut e10),
    }
    let cx = sx ^ e10[0];

    // Also before pass 2: the fragment, XORed with E^{−1,4}(S) (and E^{−1,5}(S)); its
    // contribution to Y and E^{0,2−d}(C_x) for the final pair in one batch.
    let mut last4 = [0u128; 3];
    if frag >= 16 {
        let cu = load(&frag_in) ^ e10[1];
        store(fragment, cu);
        let ks = to_block(e10[2]);
        let mut cv = [0u8; 16];
        for (o, (m, k)) in cv.iter_mut().zip(frag_in[16..frag].iter().zip(ks)) {
            *o = m ^ k;
        }
        fragment[16..].copy_from_slice(&cv[..frag - 16]);
        t.e_many(&[(0, 2 - d, cx), (0, 4, cu), (0, 5, pad(&cv[..frag - 16]))], &mut last4);
    } else if frag > 0 {
        let ks = to_block(e10[1]);
        let mut cu = [0u8; 16];
        for (o, (m, k)) in cu.iter_mut().zip(frag_in[..frag].iter().zip(ks)) {
            *o = m ^ k;
        }
        fragment.copy_from_slice(&cu[..frag]);
        t.e_many(&[(0, 2 - d, cx), (0, 4, pad(&cu[..frag]))], &mut last4[..2]);
    } else {
        last4[0] = t.e(0, 2 - d, cx);
    }
    // Pass 2: with E^{2,i}(S) removed from W_i and X_i, run the pair back through E^{0,0} and
    // E^{1,i} and swap the halves; Y = ⊕ of the W_i ⊕ E^{2,i}(S).
    let s2 = V::load(&to_block(s)).xor(V::load(&j2b));
    let mut s2b = [0u8; 16];
    s2.store(&mut s2b);
    let (pair_blocks, _) = body.as_chunks_mut::<32>();
    let (done, y_kernel) = if pairs > 0 { t.rounds().core_pass2(pair_blocks, offs, &s2b, &j1b, &i0b) } else { (0, [0u8; 16]) };
    let yacc = V::load(&y_kernel).xor(pass2_batched(t, &mut pair_blocks[done..], done, &s2b, &j1b, &i0b));
    let mut y = [0u8; 16];
    yacc.store(&mut y);
    // The fragment's part of Y.
    let y = last4[1..].iter().fold(to_u128(&y), |acc, e| acc ^ e);
    // The final pair, swapped.
    let cy = sy ^ last4[0] ^ delta ^ y;
    store(last, cy);
    store(&mut last[16..], cx);
    let mut frag_in = frag_in;
    crate::ct::wipe(&mut frag_in);
}

/// AEZ-core pass 1 over `pairs` (pair `done` onwards) with single-block E calls batched
/// [`BATCH`] pairs at a time: for backends without a register kernel. Returns ⊕X.
fn pass1_batched(t: &Tweakable, pairs: &mut [[u8; 32]], done: usize, j1: &Block, i0: &Block) -> V {
    let (j1v, i0v) = (V::load(j1), V::load(i0));
    let mut xacc = V::load(&[0u8; 16]);
    if pairs.is_empty() {
        return xacc;
    }
    let (mut a, mut b) = ([[0u8; 16]; BATCH], [[0u8; 16]; BATCH]);
    let mut offsets = IOffsets::starting_at(t, done as u64 + 1);
    for group in pairs.chunks_mut(BATCH) {
        let k = group.len();
        // E^{1,i} adds J ⊕ off_i, E^{0,0} adds I.
        for (p, off) in (0..k).zip(&mut offsets) {
            V::load(&group[p][16..]).xor(V::load(&to_block(off))).xor(j1v).store(&mut a[p]);
        }
        t.rounds().aes4(&mut a[..k]);
        for p in 0..k {
            let w = V::load(&group[p]).xor(V::load(&a[p]));
            w.store(&mut group[p][..16]);
            w.xor(i0v).store(&mut b[p]);
        }
        t.rounds().aes4(&mut b[..k]);
        for p in 0..k {
            let xi = V::load(&group[p][16..]).xor(V::load(&b[p]));
            xi.store(&mut group[p][16..]);
            xacc = xacc.xor(xi);
        }
    }
    let used = pairs.len().min(BATCH);
    for rows in [&mut a[..used], &mut b[..used]] {
        crate::ct::wipe(rows.as_flattened_mut());
    }
    xacc
}

/// AEZ-core pass 2 over `pairs` (pair `done` onwards), batched like [`pass1_batched`];
/// `s2` = S ⊕ 2J. Returns ⊕(W ⊕ E).
fn pass2_batched(t: &Tweakable, pairs: &mut [[u8; 32]], done: usize, s2: &Block, j1: &Block, i0: &Block) -> V {
    let (s2, j1v, i0v) = (V::load(s2), V::load(j1), V::load(i0));
    let mut yacc = V::load(&[0u8; 16]);
    if pairs.is_empty() {
        return yacc;
    }
    let (mut a, mut b) = ([[0u8; 16]; BATCH], [[0u8; 16]; BATCH]);
    // The offsets of one group (used twice).
    let mut o = [[0u8; 16]; BATCH];
    let mut offsets = IOffsets::starting_at(t, done as u64 + 1);
    for group in pairs.chunks_mut(BATCH) {
        let k = group.len();
        for (p, off) in (0..k).zip(&mut offsets) {
            o[p] = to_block(off);
            s2.xor(V::load(&o[p])).store(&mut a[p]);
        }
        t.rounds().aes4(&mut a[..k]);
        for p in 0..k {
            let e = V::load(&a[p]);
            let (out_l, out_r) = (V::load(&group[p]).xor(e), V::load(&group[p][16..]).xor(e));
            yacc = yacc.xor(out_l);
            out_r.store(&mut group[p][16..]);
            out_r.xor(i0v).store(&mut b[p]);
            out_l.store(&mut group[p][..16]);
        }
        t.rounds().aes4(&mut b[..k]);
        for p in 0..k {
            let out_l = V::load(&group[p]).xor(V::load(&b[p]));
            out_l.store(&mut group[p][..16]);
            out_l.xor(j1v).xor(V::load(&o[p])).store(&mut a[p]);
        }
        t.rounds().aes4(&mut a[..k]);
        for p in 0..k {
            // Swap the halves.
            let l = V::load(&group[p]);
            V::load(&group[p][16..]).xor(V::load(&a[p])).store(&mut group[p][..16]);
            l.store(&mut group[p][16..]);
        }
    }
    let used = pairs.len().min(BATCH);
    for rows in [&mut a[..used], &mut b[..used], &mut o[..used]] {
        crate::ct::wipe(rows.as_flattened_mut());
    }
    yacc
}
