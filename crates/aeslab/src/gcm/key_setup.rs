//! AES-GCM's key set-up in one kernel, on the ISAs that run the whole-message kernel
//! (`insn.rs`): the AES key schedule, H = E_K(0^128) along it, and the powers of H that GHASH
//! keeps, in one body under the ISA with both instruction sets.
//!
//! Constant time: the AES schedule's steps and the carry-less multiplies run in constant time,
//! with no branch or address on the key (`aes::insn`, `ghash::clmul`).

#![allow(unsafe_code)] // A SIMD kernel: its block says which token makes it sound.

use super::insn::Stitched;
use crate::aes::{AesInsn, AnyAes, Backend};
use crate::ghash::{Available, GhashKey};
use crate::simd::{Isa, Kernel};

/// AES-GCM's key set-up in one kernel under `I::Both`: the AES schedule with H = E_K(0^128)
/// made along it, then the powers of H, in one body. Through the backend's and GHASH's own
/// set-ups it is two kernels: H went through memory into general registers, the call between
/// them spilled the round keys to the stack to be copied into the key object afterwards, and
/// the powers waited for the call. (The round keys still wait on the stack while the powers
/// are made, as sixteen vector registers do not hold both, and are copied into place at the
/// end.) `wrap` builds the caller's key object from the two keys, in place (the kernel is
/// entered without unwinding, see `Isa::enter_in_place`).
struct KeySetup<'a, I, T, W: FnOnce(AnyAes, GhashKey) -> T> {
    key: &'a [u8],
    aes: I,
    ghash: Available,
    /// `ghash`'s [`Available::stitched_schoolbook`], looked up before the kernel.
    stitched_schoolbook: bool,
    wrap: W,
}

impl<I: Stitched, T, W: FnOnce(AnyAes, GhashKey) -> T> Kernel for KeySetup<'_, I, T, W> {
    type Output = T;
    #[inline(always)]
    fn run(self) -> T {
        let mut h = [0u8; 16];
        // SAFETY: entered under `I::Both`, which has `I`'s AES instructions and the carry-less
        // multiply of the same registers; `one_kernel` checked that `ghash` is that width's
        // GHASH, and the key's length.
        let (aes, ghash) = unsafe {
            let aes = AesInsn::schedule_in_kernel(self.aes, self.key, Some(&mut h));
            (aes, GhashKey::new_in_kernel::<I::Reg>(&h, self.ghash, self.stitched_schoolbook))
        };
        // H stays in the GHASH key only.
        crate::ct::wipe(&mut h);
        (self.wrap)(I::any(aes), ghash)
    }
}

/// The key object `wrap` builds from `key` scheduled on `I` and a GHASH key on `ghash`: by one
/// kernel ([`KeySetup`]) where `ghash` is `I`'s stitched GHASH and the CPU has both (and the key
/// length is right), else by `otherwise`, which gets `wrap` back.
#[inline(always)]
pub(crate) fn one_kernel<I: Stitched, T, W: FnOnce(AnyAes, GhashKey) -> T>(
    key: &[u8],
    ghash: Available,
    wrap: W,
    otherwise: impl FnOnce(W) -> T,
) -> T {
    if ghash.imp() == I::GHASH
        && let Ok(aes) = AesInsn::<I>::ready(key.len())
        && let Some(both) = I::Both::detect()
    {
        return both.enter_in_place(KeySetup { key, aes, ghash, stitched_schoolbook: ghash.stitched_schoolbook(), wrap });
    }
    otherwise(wrap)
}
