//! Constant-time helpers shared by the AEADs, compiler barriers, and the reads of a nonce or IV
//! that its caller has just written ([`be_words`]).

#![allow(unsafe_code)] // The compiler barriers (empty `asm!`s).

/// Whether every byte of `bytes` is zero, reading all of them whatever they hold.
pub(crate) fn constant_time_is_zero(bytes: &[u8]) -> bool {
    let acc = bytes.iter().fold(0u8, |acc, b| acc | b);
    // The single branch is on the fold of every byte: it reveals only accept/reject.
    core::hint::black_box(acc) == 0
}

/// Whether `a == b` (equal lengths), reading every byte of both.
///
/// Two 16-byte strings (a full tag, the usual case) are compared as two 128-bit integers in
/// registers: by the byte loop, over a tag stored to the stack, a 16-byte AES-GCM open through
/// the `aead` traits took 79–85 TSC ticks on Zen 5, and 53–54 this way (a user's crate,
/// 2026-11-29). The branch is on the length, which is public.
#[inline(always)]
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    assert_eq!(a.len(), b.len(), "compared strings differ in length");
    if let (Ok(a), Ok(b)) = (<&[u8; 16]>::try_from(a), <&[u8; 16]>::try_from(b)) {
        return core::hint::black_box(u128::from_ne_bytes(*a) ^ u128::from_ne_bytes(*b)) == 0;
    }
    let acc = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    core::hint::black_box(acc) == 0
}

/// Overwrites `data` (bytes, or the key schedule's words) with zeros in a way the compiler may
/// not remove.
///
/// `zeroize` writes byte arrays one volatile byte at a time: 128 stores for 8 blocks, which
/// AEZ's per-message scratch would pay several times per call. Here a plain fill (vector
/// stores) is followed by [`may_read`], so the stores are not dead and stay.
///
/// An empty slice is left alone: its pointer may be dangling (0x1 for `&mut []` of bytes), and
/// glibc's AVX-512 `memset` stores to it under an all-zero mask, which the CPU must check
/// against the unmapped page. On Zen 5 that assist cost about 570 cycles a call: a 16-byte
/// AES-GCM seal, which wipes the (empty) halves of a message with no whole group, took 700
/// cycles instead of 132 (`bench gcm --quick`, 2026-11-29). The length is public, so the
/// branch reveals nothing.
#[inline(always)]
pub(crate) fn wipe<T: zeroize::DefaultIsZeroes>(data: &mut [T]) {
    if data.is_empty() {
        return;
    }
    data.fill(T::default());
    may_read(data.as_ptr());
    // (Miri runs no inline assembly: there the volatile writes of `zeroize` do it.)
    #[cfg(any(not(any(target_arch = "x86_64", target_arch = "aarch64")), miri))]
    zeroize::Zeroize::zeroize(data);
}

// Compiler barriers. Each is an empty `asm!` that receives a pointer: the compiler must assume
// the template does what the options leave open with the memory the pointer reaches, yet it
// still knows the pointer's value (where the memory is). They emit no instruction. Only the
// architectures with stable inline assembly that the kernels run on get them; elsewhere, and
// under Miri (which runs no inline assembly), they do nothing. (A barrier on a value in a
// register, which keeps the optimizer from folding a load, is `aes::insn::x86::load_key_block`.)

/// The memory at `ptr` may be read here: stores to it before this are not dead.
#[inline(always)]
pub(crate) fn may_read<T>(ptr: *const T) {
    // SAFETY: the template is empty.
    #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(miri)))]
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) ptr, options(nostack, preserves_flags, readonly));
    }
    #[cfg(any(not(any(target_arch = "x86_64", target_arch = "aarch64")), miri))]
    let _ = ptr;
}

/// The memory at `ptr` may be read and written here: the compiler forgets what it holds, so a
/// value stored there is loaded back rather than recomputed from where it came from.
#[inline(always)]
pub(crate) fn may_rewrite<T>(ptr: *mut T) {
    // SAFETY: the template is empty.
    #[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), not(miri)))]
    unsafe {
        core::arch::asm!("/* {0} */", in(reg) ptr, options(nostack, preserves_flags));
    }
    #[cfg(any(not(any(target_arch = "x86_64", target_arch = "aarch64")), miri))]
    let _ = ptr;
}

/// The first `4·W` bytes of `bytes` as big-endian 32-bit words, read as `W` loads of 4 bytes.
///
/// For a nonce or an IV the caller has just written. A load can take its bytes from a store
/// still in flight only if the store covers the whole load; otherwise it waits until the store
/// has reached the cache, after everything before it has retired, so each message waits for
/// the one before. Callers write a nonce as a whole, or its counter part alone (the last 8
/// bytes of a 12-byte nonce, the last 4 or 8 of a 16-byte IV), in stores of 4 bytes or more on
/// 4-byte boundaries: a 4-byte load at each such boundary is covered by one of them, where the
/// compiler's own split of the copy (8 then 4 bytes) was not. Sealing 16 bytes, with the
/// nonce's last 8 bytes written before each message, took 104–107 TSC ticks that way and
/// 62–64 this way, against 61–62 with the nonce left as it was (Zen 5, 2026-11-29). Each word
/// goes through an empty `asm!` so that the optimizer does not merge the loads again (under
/// Miri, which runs no inline assembly, and on other architectures it may).
///
/// # Panics
/// If `bytes` is shorter than `4·W`.
#[inline(always)]
pub(crate) fn be_words<const W: usize>(bytes: &[u8]) -> [u32; W] {
    let mut words = [0u32; W];
    for (w, chunk) in words.iter_mut().zip(bytes[..4 * W].chunks_exact(4)) {
        #[allow(unused_mut)] // Mutated only by the barrier.
        let mut x = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        // SAFETY (both): the template is empty; it only hides the value from the optimizer.
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        unsafe {
            core::arch::asm!("/* {0:e} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        #[cfg(all(target_arch = "aarch64", not(miri)))]
        unsafe {
            core::arch::asm!("/* {0:w} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        *w = x;
    }
    words
}

/// A 16-byte counter block (an IV) as the big-endian integer, read by [`be_words`].
#[inline(always)]
pub(crate) fn be_u128(bytes: &[u8; 16]) -> u128 {
    u128_from_be_words(be_words::<4>(bytes))
}

/// The 128-bit integer whose big-endian 32-bit words are `words`, the first the most
/// significant.
#[inline(always)]
pub(crate) fn u128_from_be_words(words: [u32; 4]) -> u128 {
    let mut x = 0u128;
    for w in words {
        x = (x << 32) | u128::from(w);
    }
    x
}

/// A secret block wiped (by [`wipe`]) when it goes out of scope: for a value that must outlive
/// the expression that returns a key object (AES-GCM's H), so that the expression can be the
/// function's tail and build the object in place, with the wipe after it. (`Zeroizing` would
/// do the same with 16 volatile one-byte stores.)
pub(crate) struct WipedBlock(pub(crate) crate::Block);

impl Drop for WipedBlock {
    #[inline(always)]
    fn drop(&mut self) {
        wipe(&mut self.0);
    }
}

#[cfg(test)]
mod tests {
    /// The words and the 128-bit value are the bytes' big-endian reading, from any offset.
    #[test]
    fn words_read_big_endian() {
        let bytes: [u8; 21] = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(5));
        for at in 0..5 {
            let b = &bytes[at..];
            let words = crate::ct::be_words::<3>(b);
            for (k, w) in words.iter().enumerate() {
                assert_eq!(*w, u32::from_be_bytes(b[4 * k..4 * k + 4].try_into().unwrap()), "word {k} at offset {at}");
            }
            let block: &[u8; 16] = b[..16].try_into().unwrap();
            assert_eq!(crate::ct::be_u128(block), u128::from_be_bytes(*block), "offset {at}");
        }
    }
}
