//! Registers and instruction sets: the one place where a register type meets the
//! `#[target_feature]` string that runs it, and where kernels are entered.
//!
//! - An [`Isa`] is a zero-sized token for a set of CPU features. It can only be made by
//!   [`Isa::detect`], which returns `None` unless this CPU has every feature (and
//!   `AESLAB_CPU_MASK` hides none): holding one proves the instructions may run.
//! - A [`Kernel`] is a plain struct whose `run` does the work, every helper it calls
//!   `#[inline(always)]`. [`Isa::enter`] runs it inside a function compiled with the ISA's
//!   features, so the whole kernel — loops, register moves, intrinsics — is compiled with them
//!   and inlined into one body. Closures would not do: they do not inherit target features,
//!   and where the optimizer does not inline them every intrinsic inside becomes a call.
//! - [`Reg`] is a register of one, two or four 16-byte blocks (xmm, ymm, zmm, ARM's q), with
//!   the block moves every kernel needs. Its methods are `unsafe`: a raw register type proves
//!   nothing, so each use says which token makes it sound. The modes add their own operations
//!   on the same registers: AES rounds (`aes::insn`), carry-less products (`ghash`).
//!
//! The markers for x86-64 are in `x86.rs`, for aarch64 in `aarch64.rs`; [`Portable`] needs no
//! feature and runs everywhere. The module is private: the public backend types name its
//! tokens (`Vaes256` is `AesInsn<VaesYmm>`), but nothing outside the crate can make one.

#![allow(unsafe_code)] // The ISA tokens' entry into code compiled with their features.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::Block;

/// The most blocks a [`Reg`] holds (zmm: 4).
pub(crate) const MAX_LANES: usize = 4;

/// Stack space for `N − MAX_LANES` blocks that a kernel fills with whole registers and loads
/// back (AES-GCM's wide round keys and Karatsuba's halves, and the copy of a tail that would
/// otherwise reach an untouched page), used from its first 64-byte boundary
/// ([`RegisterSpace::first`]), so that no load of a zmm register from it spans two cache
/// lines. Unaligned, the space sat wherever the caller's stack depth put it
/// (the ABI gives 16 bytes). Aligned, AES-GCM sealed 64 KiB 2.7% faster with AES-128 and 4.5%
/// with AES-256 on Zen 5's zmm (2026-11-29, the two builds alternated). Why not a type
/// aligned to 64: the kernel entry then realigns its stack frame for every message, and a
/// 16-byte seal and open took 6–8% longer there.
pub(crate) struct RegisterSpace<const N: usize>(core::mem::MaybeUninit<[Block; N]>);

impl<const N: usize> RegisterSpace<N> {
    /// Blocks usable from [`RegisterSpace::first`].
    pub(crate) const BLOCKS: usize = N - MAX_LANES;

    #[inline(always)]
    pub(crate) fn uninit() -> Self {
        RegisterSpace(core::mem::MaybeUninit::uninit())
    }

    /// The first block at a 64-byte boundary: `BLOCKS` blocks from it lie inside the space (a
    /// boundary is at most 63 bytes in). The address is the stack's, not secret.
    #[inline(always)]
    pub(crate) fn first(&mut self) -> *mut Block {
        let start = self.0.as_mut_ptr().cast::<u8>();
        let skip = start.addr().wrapping_neg() % (16 * MAX_LANES);
        start.wrapping_add(skip).cast()
    }
}

/// A set of CPU features, as a token: a value exists only where the CPU has them.
pub trait Isa: Copy + Send + Sync + 'static {
    /// The features, as `#[target_feature]` spells them (also what error messages name).
    const FEATURES: &'static str;
    /// The token, if this CPU has every feature and `AESLAB_CPU_MASK` hides none.
    fn detect() -> Option<Self>;
    /// Runs `kernel` compiled with [`Isa::FEATURES`].
    fn enter<K: Kernel>(self, kernel: K) -> K::Output;
    /// [`Isa::enter`] through an entry that cannot unwind (a panic inside aborts), for the
    /// kernels that return a key object by value. A call that may unwind must leave its
    /// caller's object unwritten until it returns, so the compiler made such a kernel's
    /// result in a temporary and copied it into place (`memcpy` of the round keys or the
    /// powers of H, gone with `panic = "abort"`); without unwinding it is written in place.
    fn enter_in_place<K: Kernel>(self, kernel: K) -> K::Output;
    /// Runs the [`SliceKernel`] `K` on `context`, `value` and `data` compiled with
    /// [`Isa::FEATURES`], its inputs passed in registers.
    fn enter_slice<K: SliceKernel>(self, context: &K::Context, value: u128, data: &mut [u8]);
}

/// A kernel whose inputs go to its entry in registers: a reference (a key), a 128-bit value (a
/// counter block) and a byte slice, five general registers. A [`Kernel`] struct larger than
/// 16 bytes goes in memory: the caller stores it field by field and the entry loads it back,
/// behind a call frame of its own. On the shortest messages that was a tenth of the call: 16
/// bytes of plain CTR through `DynCtr::apply_keystream` took 17.2–17.7 TSC ticks as a
/// [`Kernel`] and 15.9 as a `SliceKernel` on Zen 5 (2026-11-29, four alternating runs; the
/// engine's method is then a jump to the entry).
pub trait SliceKernel {
    /// What the reference points at.
    type Context: ?Sized;
    fn run(context: &Self::Context, value: u128, data: &mut [u8]);
}

/// An ISA whose kernels work on registers of whole blocks (AES rounds, carry-less products).
pub trait BlockIsa: Isa {
    type Reg: Reg;
}

/// Work to run under an [`Isa`]: a struct holding its inputs (and the token that makes its
/// instructions sound), with an `#[inline(always)]` [`Kernel::run`].
pub trait Kernel {
    type Output;
    fn run(self) -> Self::Output;
}

/// No feature at all: plain Rust, on every CPU.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Isa for Portable {
    const FEATURES: &'static str = "";
    fn detect() -> Option<Self> {
        Some(Portable)
    }
    #[inline(always)]
    fn enter<K: Kernel>(self, kernel: K) -> K::Output {
        kernel.run()
    }
    #[inline(always)]
    fn enter_in_place<K: Kernel>(self, kernel: K) -> K::Output {
        kernel.run()
    }
    #[inline(always)]
    fn enter_slice<K: SliceKernel>(self, context: &K::Context, value: u128, data: &mut [u8]) {
        K::run(context, value, data)
    }
}

/// Defines an ISA token: the type, its feature string, its detection and its entry point (a
/// generic function carrying the `#[target_feature]`, which trait methods cannot), and with
/// `reg = T` the block register its kernels use.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! isa {
    ($(#[$doc:meta])* $name:ident, $features:literal, reg = $reg:ty, $detect:expr) => {
        $crate::simd::isa!($(#[$doc])* $name, $features, $detect);
        impl $crate::simd::BlockIsa for $name {
            type Reg = $reg;
        }
    };
    ($(#[$doc:meta])* $name:ident, $features:literal, $detect:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name(());

        impl $crate::simd::Isa for $name {
            const FEATURES: &'static str = $features;

            #[inline]
            fn detect() -> Option<Self> {
                // Detected once and kept (`cpu::Found`): a token is one load away. The first
                // call's detection is out of line, so that what callers inline is the load and
                // the compare (inline, the feature checks made functions that merely ask for a
                // token too big to inline: a call per AES-GCM key).
                fn detected() -> bool {
                    $detect
                }
                static SEEN: $crate::cpu::Found = $crate::cpu::Found::new();
                if SEEN.get(detected) { Some($name(())) } else { None }
            }

            #[inline(always)]
            fn enter<K: $crate::simd::Kernel>(self, kernel: K) -> K::Output {
                #[target_feature(enable = $features)]
                fn entry<K: $crate::simd::Kernel>(kernel: K) -> K::Output {
                    kernel.run()
                }
                // SAFETY: `self` exists only if `detect` found every feature of `entry`.
                unsafe { entry(kernel) }
            }

            #[inline(always)]
            fn enter_slice<K: $crate::simd::SliceKernel>(self, context: &K::Context, value: u128, data: &mut [u8]) {
                #[target_feature(enable = $features)]
                fn entry<K: $crate::simd::SliceKernel>(context: &K::Context, value: u128, data: &mut [u8]) {
                    K::run(context, value, data)
                }
                // SAFETY: as for `enter`.
                unsafe { entry::<K>(context, value, data) }
            }

            #[inline(always)]
            fn enter_in_place<K: $crate::simd::Kernel>(self, kernel: K) -> K::Output {
                // The kernel goes by reference: by value, the C ABI passes a struct of more
                // than 16 bytes in memory, as one copy whose wide load waited on the narrow
                // stores that made it (a stall that doubled `Aes128::new` on Zen 3).
                #[target_feature(enable = $features)]
                extern "C" fn entry<K: $crate::simd::Kernel>(kernel: &mut core::mem::ManuallyDrop<K>) -> K::Output {
                    // SAFETY: the caller hands the kernel over and never uses it again.
                    unsafe { core::mem::ManuallyDrop::take(kernel) }.run()
                }
                let mut kernel = core::mem::ManuallyDrop::new(kernel);
                // SAFETY: as for `enter`.
                unsafe { entry(&mut kernel) }
            }
        }
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use isa;

/// A register of [`Reg::LANES`] blocks.
///
/// # Safety
/// Every method runs instructions of the register's ISA: call them only where a token of an
/// ISA with those features exists (inside its kernels), so the CPU has them.
pub trait Reg: Copy {
    /// Blocks per register.
    const LANES: usize;
    unsafe fn zero() -> Self;
    /// `LANES` consecutive blocks.
    unsafe fn load(src: *const Block) -> Self;
    unsafe fn store(self, dst: *mut Block);
    /// The same block in every lane.
    unsafe fn broadcast(b: &Block) -> Self;
    /// `x`'s 16 little-endian bytes in every lane, made in registers: a counter computed in
    /// general registers and loaded from memory as one 16-byte value would wait for the two
    /// 8-byte stores that wrote it to reach the cache (they cannot forward to a wider load),
    /// which chains every call to the previous one's retirement.
    unsafe fn broadcast_u128(x: u128) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    /// 32-bit lane addition (counters kept little-endian).
    unsafe fn add32(self, o: Self) -> Self;
    /// Reverses the 16 bytes of every block (little-endian counter ↔ big-endian block).
    unsafe fn byte_reverse(self) -> Self;
    /// `n` in the low 32 bits of every block, zero elsewhere.
    unsafe fn splat_low32(n: u32) -> Self;
    /// Block `l` holds `l` in its low 32 bits.
    unsafe fn lane_index() -> Self;
    /// The first `n < LANES` blocks (the rest zero), touching no memory beyond them.
    unsafe fn load_partial(src: *const Block, n: usize) -> Self;
    /// Stores the first `n < LANES` blocks, touching no memory beyond them.
    unsafe fn store_partial(self, dst: *mut Block, n: usize);
    /// The first `n < LANES` blocks, zero in the others.
    unsafe fn keep_first(self, n: usize) -> Self;
    /// From two registers holding the blocks `a0 b0 a1 b1 …` (pairs in order), the register
    /// of the `a`s and the register of the `b`s.
    unsafe fn unzip(lo: Self, hi: Self) -> (Self, Self);
    /// Inverse of [`Reg::unzip`].
    unsafe fn zip(a: Self, b: Self) -> (Self, Self);
    /// Whether [`Reg::load_bytes`], [`Reg::store_bytes`] and [`Reg::keep_bytes`] are single
    /// byte-masked instructions (AVX-512BW on zmm): cheap enough for a whole short message to
    /// run in its registers (`ctr::insn::Plain`). Elsewhere (xmm, ymm, NEON) they are a few
    /// moves of whole halves and of 8, 4, 2 and 1 bytes, chosen by the length.
    const BYTE_MASKS: bool = false;
    /// The first `n ≤ 16·LANES` bytes at `src`, zero after them, touching no memory beyond
    /// them (`src` may point past its object when `n` is 0).
    unsafe fn load_bytes(src: *const u8, n: usize) -> Self;
    /// Stores the first `n ≤ 16·LANES` bytes, touching no memory beyond them.
    unsafe fn store_bytes(self, dst: *mut u8, n: usize);
    /// The first `n ≤ 16·LANES` bytes, zero after them.
    unsafe fn keep_bytes(self, n: usize) -> Self;
    /// `self`, computed here: an empty `asm!` that takes the register and, having side
    /// effects, stays where it is written, so the instructions that make the value are not
    /// moved past it. For a value the code needs only at its end but whose chain is long and
    /// independent of everything before (GCM's E_K(J0)). The one-block registers (xmm, NEON)
    /// have it; elsewhere, and under Miri (which runs no inline assembly), it is `self`.
    #[inline(always)]
    unsafe fn computed_here(self) -> Self {
        self
    }
}

/// The [`Reg`] methods that are trivial for a register of one block (xmm, ARM's q): "fewer
/// than LANES blocks" never occurs, and a pair of registers is already unzipped.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! one_block_per_register {
    () => {
        #[inline(always)]
        unsafe fn load_partial(_src: *const $crate::Block, _n: usize) -> Self {
            unreachable!("a 128-bit register holds one block")
        }
        #[inline(always)]
        unsafe fn store_partial(self, _dst: *mut $crate::Block, _n: usize) {
            unreachable!("a 128-bit register holds one block")
        }
        #[inline(always)]
        unsafe fn keep_first(self, n: usize) -> Self {
            // "Fewer than one" block: none.
            debug_assert_eq!(n, 0);
            unsafe { Self::zero() }
        }
        #[inline(always)]
        unsafe fn unzip(lo: Self, hi: Self) -> (Self, Self) {
            (lo, hi)
        }
        #[inline(always)]
        unsafe fn zip(a: Self, b: Self) -> (Self, Self) {
            (a, b)
        }
    };
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use one_block_per_register;

/// A `u128` field of a kernel's struct (a counter block, a GHASH accumulator), read as two
/// 8-byte loads. A kernel is entered with its struct in memory, where the caller wrote the
/// value as two 8-byte stores; the compiler read it back as one 16-byte load, which cannot be
/// forwarded from two stores and waits until they reach the cache, after everything before
/// them has retired. Each call then waited for the one before it: 16 bytes of plain CTR took
/// 86 cycles a call on Zen 3, on every backend, and 63 reading it this way. (Volatile reads
/// are not merged.)
#[inline(always)]
pub(crate) fn read_u128(x: &u128) -> u128 {
    let p = (x as *const u128).cast::<u64>();
    // SAFETY: both halves lie inside `*x`, which is valid and aligned for u64 reads.
    let (first, second) = unsafe { (core::ptr::read_volatile(p), core::ptr::read_volatile(p.add(1))) };
    if cfg!(target_endian = "little") {
        (u128::from(second) << 64) | u128::from(first)
    } else {
        (u128::from(first) << 64) | u128::from(second)
    }
}

/// The first `n < 16` bytes at `src` as a block's two little-endian halves, zero above them:
/// a 16-byte register's byte-granular load where it has no byte mask (xmm, NEON), and the
/// end of [`copy_bytes`], in at most one move each of 8, 4, 2 and 1 bytes. It reads no byte
/// past them, and it branches on the length alone, which is public (a message's, never its
/// contents).
///
/// # Safety
/// `src` is valid for reads of `n` bytes.
#[inline(always)]
pub(crate) unsafe fn read_partial_block(src: *const u8, n: usize) -> (u64, u64) {
    debug_assert!(n < 16);
    unsafe {
        let (mut halves, mut at) = ([0u64; 2], 0usize);
        for half in &mut halves {
            let m = n.saturating_sub(at).min(8);
            if m == 8 {
                *half = u64::from_le(src.add(at).cast::<u64>().read_unaligned());
            } else {
                let mut shift = 0;
                if m & 4 != 0 {
                    *half = u64::from(u32::from_le(src.add(at).cast::<u32>().read_unaligned()));
                    shift = 4;
                }
                if m & 2 != 0 {
                    *half |= u64::from(u16::from_le(src.add(at + shift).cast::<u16>().read_unaligned())) << (8 * shift);
                    shift += 2;
                }
                if m & 1 != 0 {
                    *half |= u64::from(src.add(at + shift).read()) << (8 * shift);
                }
            }
            at += 8;
        }
        (halves[0], halves[1])
    }
}

/// The inverse of [`read_partial_block`]: writes the first `n < 16` bytes of the block whose
/// little-endian halves are `halves`, and no byte past them.
///
/// # Safety
/// `dst` is valid for writes of `n` bytes.
#[inline(always)]
pub(crate) unsafe fn write_partial_block(dst: *mut u8, halves: (u64, u64), n: usize) {
    debug_assert!(n < 16);
    unsafe {
        let mut at = 0usize;
        for mut half in [halves.0, halves.1] {
            let m = n.saturating_sub(at).min(8);
            if m == 8 {
                dst.add(at).cast::<u64>().write_unaligned(half.to_le());
            } else {
                let mut shift = 0;
                if m & 4 != 0 {
                    dst.add(at).cast::<u32>().write_unaligned((half as u32).to_le());
                    half >>= 32;
                    shift = 4;
                }
                if m & 2 != 0 {
                    dst.add(at + shift).cast::<u16>().write_unaligned((half as u16).to_le());
                    half >>= 16;
                    shift += 2;
                }
                if m & 1 != 0 {
                    dst.add(at + shift).write(half as u8);
                }
            }
            at += 8;
        }
    }
}

/// Copies `n` bytes from `src` to `dst` (not overlapping) by moves of 16 bytes, then 8, 4, 2
/// and 1, touching no byte past them (`memcpy` may use masks itself): the copies in and out of
/// a buffer's end that would otherwise reach the next page (see [`mask_reaches_next_page`]).
/// Out of line and cold, so that a kernel's common path carries none of it.
///
/// # Safety
/// `src` and `dst` are valid for `n` bytes.
#[cold]
#[inline(never)]
pub(crate) unsafe fn copy_bytes(src: *const u8, dst: *mut u8, n: usize) {
    unsafe {
        let mut at = 0;
        while n - at >= 16 {
            dst.add(at).cast::<u128>().write_unaligned(src.add(at).cast::<u128>().read_unaligned());
            at += 16;
        }
        if at < n {
            write_partial_block(dst.add(at), read_partial_block(src.add(at), n - at), n - at);
        }
    }
}

/// Whether a masked move of `width` bytes at address `at`, of which only the first `wanted`
/// (at least one) are moved, leaves out bytes on the page after the last moved byte's.
///
/// Masked-off bytes raise no fault, but the CPU checks their page, and when it is not mapped or
/// not yet touched the check is an assist of hundreds of cycles for each such move: on Zen 5
/// (2026-11-29) about 800 TSC ticks (1300 cycles), against 18 for a whole 20-byte CTR call
/// mid-page. The kernels that move the end of a caller's buffer through masks (AES-GCM's tail,
/// GHASH's long tail, CTR's last register) test for it first and, when it happens, take that
/// part through a copy on the stack or through moves without masks. Addresses are public, so
/// the test reveals nothing.
#[inline(always)]
pub(crate) fn mask_reaches_next_page(at: usize, wanted: usize, width: usize) -> bool {
    const PAGE: usize = 4096;
    debug_assert!(wanted >= 1 && wanted <= width);
    (at + wanted - 1) ^ (at + width - 1) >= PAGE
}

/// The first `n` blocks at `src` (`n ≤ LANES`; zeros after them).
#[inline(always)]
pub(crate) unsafe fn load_blocks<R: Reg>(src: *const Block, n: usize) -> R {
    unsafe {
        match n {
            0 => R::zero(),
            _ if n >= R::LANES => R::load(src),
            _ => R::load_partial(src, n),
        }
    }
}

/// Stores the first `n` blocks of `v` (`n ≤ LANES`).
#[inline(always)]
pub(crate) unsafe fn store_blocks<R: Reg>(v: R, dst: *mut Block, n: usize) {
    unsafe {
        match n {
            0 => {}
            _ if n >= R::LANES => v.store(dst),
            _ => v.store_partial(dst, n),
        }
    }
}

/// The XOR of the blocks of a register.
#[inline(always)]
pub(crate) unsafe fn xor_lanes<R: Reg>(v: R) -> Block {
    unsafe {
        let mut buf = [[0u8; 16]; 4];
        v.store(buf.as_mut_ptr());
        let mut acc = 0u128;
        for b in &buf[..R::LANES] {
            acc ^= u128::from_ne_bytes(*b);
        }
        acc.to_ne_bytes()
    }
}

/// One block in a 128-bit register, for XOR glue outside the kernels (AEZ's passes between
/// batches): an SSE2 register on x86-64, a `u128` elsewhere. Left to themselves, `u128` XORs
/// compile to pairs of 64-bit operations shuffled through the stack.
///
/// Its methods are safe: SSE2 is part of every x86-64 target (the target proves the feature,
/// no token needed), and the loads and stores check their lengths.
#[derive(Clone, Copy)]
pub(crate) struct Block128(#[cfg(target_arch = "x86_64")] core::arch::x86_64::__m128i, #[cfg(not(target_arch = "x86_64"))] u128);

impl Block128 {
    #[inline(always)]
    pub(crate) fn load(b: &[u8]) -> Block128 {
        assert!(b.len() >= 16);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: 16 readable bytes (checked above); SSE2 is part of x86-64.
        return Block128(unsafe { core::arch::x86_64::_mm_loadu_si128(b.as_ptr().cast()) });
        #[cfg(not(target_arch = "x86_64"))]
        return Block128(u128::from_ne_bytes(b[..16].try_into().unwrap()));
    }

    #[inline(always)]
    pub(crate) fn store(self, b: &mut [u8]) {
        assert!(b.len() >= 16);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: 16 writable bytes (checked above); SSE2 is part of x86-64.
        unsafe {
            core::arch::x86_64::_mm_storeu_si128(b.as_mut_ptr().cast(), self.0)
        }
        #[cfg(not(target_arch = "x86_64"))]
        b[..16].copy_from_slice(&self.0.to_ne_bytes());
    }

    #[inline(always)]
    pub(crate) fn xor(self, o: Block128) -> Block128 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        return Block128(unsafe { core::arch::x86_64::_mm_xor_si128(self.0, o.0) });
        #[cfg(not(target_arch = "x86_64"))]
        return Block128(self.0 ^ o.0);
    }
}
