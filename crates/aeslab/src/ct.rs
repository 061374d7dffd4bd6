//! Constant-time helpers shared by the AEADs.

#![allow(unsafe_code)] // The compiler barriers (empty `asm!`s).

/// Whether every byte of `bytes` is zero, reading all of them whatever they hold.
pub(crate) fn constant_time_is_zero(bytes: &[u8]) -> bool {
    let acc = bytes.iter().fold(0u8, |acc, b| acc | b);
    // The single branch is on the fold of every byte: it reveals only accept/reject.
    core::hint::black_box(acc) == 0
}

/// Whether `a == b` (equal lengths), reading every byte of both.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    assert_eq!(a.len(), b.len(), "compared strings differ in length");
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
