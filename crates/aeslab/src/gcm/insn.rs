//! AES-GCM on the AES instructions with carry-less GHASH — AES-NI with PCLMULQDQ, VAES with
//! VPCLMULQDQ on ymm and zmm, ARMv8 with PMULL — one body for every register width. The kernel
//! owns the whole message in one entry under the ISA's token: the AD's GHASH, E(J0), the loop,
//! the tail, the lengths block and the tag.
//!
//! The loop. A group is `IN_FLIGHT` AES registers (16 blocks in ymm), and also `GROUP` GHASH
//! registers of the same width. While the rounds of one group run, the GHASH of a group is
//! multiplied two registers every other round or so, between the rounds, so the AES units and
//! the carry-less multiplier get work from the same stretch of instructions. Sealing hashes
//! the previous group, whose ciphertext was just stored. Opening hashes the group it decrypts,
//! because the input is the ciphertext. A group's products are summed unreduced and reduced
//! once, before the last round: by Karatsuba (see `ghash::clmul`), or on zmm where the
//! carry-less multiplier has a port of its own, by the schoolbook (`GroupProduct`), whose
//! groups leave one sum per lane for the next group rather than adding the lanes (`ByLane`),
//! and sum two groups at a time before one reduction (`ByLaneAhead`). Karatsuba's zmm groups
//! leave their sums by lane too with AES-128 (`KaratsubaByLane`).
//!
//! Register budget (16 vector registers on SSE and AVX2; 32 on AVX-512 and NEON): 8 AES states,
//! the round key, the sum's three parts, the data register, its folded halves and one product,
//! 15 in all (AVX-512 also keeps the second register of a pair and its products, to add both
//! with one three-way XOR, and a sum carried from one group to the next is the same three
//! parts). The powers of H, their halves and the byte-reversal mask are
//! memory operands, and so are most round keys: broadcast from the schedule, or on zmm loaded
//! whole from a copy made per message (`WideKeys`).
//!
//! The counter. FACE (`AFTER` = 0, 1 or 2 cached rounds) starts each register from the
//! message's table, `T[x..] ⊕ C`, with the segment constant recomputed every 256 blocks, as
//! GCM's inc32 carries into the bytes above the low one (and wraps in the low 32 bits). A group
//! that straddles two segments blends the two constants lane by lane. Plain CTR is the same
//! with `AFTER` = 0 over a static table (`ROUND0_TABLE`): whitening's table needs no key.
//!
//! The tail (less than a group) runs in place: the registers the message fills are loaded and
//! stored whole, and the one it ends in is read and written through byte moves (`MaskedTail`,
//! `MaskedSealTail`): AVX-512BW byte masks on zmm, moves of 8, 4, 2 and 1 bytes chosen by the
//! length elsewhere (`Reg::load_bytes`). No byte past the message is read or written, and no
//! buffer of ours holds the keystream past it. The tail's ciphertext is hashed from the
//! registers with the lengths block in the lane after it (`TailInRegisters`): sealing's after
//! the tail's rounds (`hash_tail`); opening's, loaded through the same moves, between them on
//! zmm, as a loop group hashes its own (`Hashed`), and before them with 16 registers.
//! Karatsuba's halves of the powers (made per message) and the accumulator's bytes are wiped
//! at the end.
//!
//! Constant time: AES instructions and carry-less multiplies run in constant time. Every branch
//! and address depends on lengths and on the counter (from the nonce, which is public), never
//! on the key or the data.

#![allow(unsafe_code)] // SIMD kernels: each block says which token makes it sound.

use core::marker::PhantomData;

use super::lengths_block;
use crate::Block;
use crate::aes::insn::{AesIsa, AesRound, IN_FLIGHT};
use crate::aes::{AesInsn, AnyAes};
use crate::aes::key_schedule::{MAX_ROUNDS, RoundKeys};
use crate::ctr::{Counter, TABLE_OVERHANG};
use crate::ctr::insn::segment_constant;
use crate::ghash::clmul::{GROUP, HALVES_SPACE, Sum, absorb_block, absorb_group, absorb_register, absorb_tail, absorb_tail_register, group_register, karatsuba_halves, update_blocks};
use crate::ghash::{ClmulIsa, ClmulReg, GhashImpl, Powers};
use crate::simd::{BlockIsa, Kernel, MAX_LANES, Reg, RegisterSpace, copy_bytes, mask_reaches_next_page, read_u128};

// An AES group and a GHASH group are the same registers: one hashed per AES group.
const _: () = assert!(GROUP == IN_FLIGHT);

/// An AES ISA whose registers also multiply carry-less in a partner ISA: the GHASH of the same
/// width, and the ISA that has both.
pub(crate) trait Stitched: AesIsa + BlockIsa<Reg: ClmulReg> {
    /// The GHASH that runs on the same registers.
    const GHASH: GhashImpl;
    /// The ISA with both instruction sets.
    type Both: ClmulIsa + BlockIsa<Reg = Self::Reg>;
    /// The backend's key in the enum the modes hold.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))] // No impl there.
    fn any(aes: AesInsn<Self>) -> AnyAes;
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Stitched;
    use crate::aes::{AesInsn, AnyAes};
    use crate::ghash::GhashImpl;
    use crate::simd::x86::{AesNi, AesNiPclmul, VaesVpclmulYmm, VaesVpclmulZmm, VaesYmm, VaesZmm};

    impl Stitched for AesNi {
        const GHASH: GhashImpl = GhashImpl::Pclmul;
        type Both = AesNiPclmul;
        fn any(aes: AesInsn<Self>) -> AnyAes {
            AnyAes::Aesni(aes)
        }
    }
    impl Stitched for VaesYmm {
        const GHASH: GhashImpl = GhashImpl::Vpclmul256;
        type Both = VaesVpclmulYmm;
        fn any(aes: AesInsn<Self>) -> AnyAes {
            AnyAes::Vaes256(aes)
        }
    }
    impl Stitched for VaesZmm {
        const GHASH: GhashImpl = GhashImpl::Vpclmul512;
        type Both = VaesVpclmulZmm;
        fn any(aes: AesInsn<Self>) -> AnyAes {
            AnyAes::Vaes512(aes)
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod aarch64 {
    use super::Stitched;
    use crate::aes::{AesInsn, AnyAes};
    use crate::ghash::GhashImpl;
    use crate::simd::aarch64::{NeonAes, NeonAesPmull};

    impl Stitched for NeonAes {
        const GHASH: GhashImpl = GhashImpl::Pmull;
        type Both = NeonAesPmull;
        fn any(aes: AesInsn<Self>) -> AnyAes {
            AnyAes::Armv8(aes)
        }
    }
}

/// Where a group's powers H^(GROUP × LANES) … H^1 and their Karatsuba halves are, and the
/// paired powers (`ghash::table`: register `r`'s first power times H^(GROUP × LANES), read
/// only by [`ByLaneAhead`], where every power is made).
#[derive(Clone, Copy)]
struct GroupKey {
    h: *const Block,
    halves: *const Block,
    paired: *const Block,
}

/// How the loop multiplies a group's registers by their powers and reduces the sum.
///
/// [`Karatsuba`]: three multiplies a register, the data's halves folded (a qword swap and an
/// XOR). Where the multiplier bounds the loop (AMD: Zen 3 and Zen 4 take one VPCLMULQDQ every
/// other cycle), the multiply saved is what counts. [`Schoolbook`]: four multiplies and no
/// fold, on zmm where the multiplier and the shuffles have a port to themselves and the XORs
/// share the other with VAES (`crate::cpu::zmm_clmul_apart_from_aes`: Intel), so that the fold's
/// XORs taken off leave more of that port to the rounds. Emerald Rapids, 2026-11-27, `vaes512`,
/// one message at a time, eight runs each of the two builds alternated, medians, cycles/byte:
/// AES-256 sealing 0.263 → 0.253 at 4 KiB, opening 0.254 → 0.246, the same within the runs'
/// spread at 1420 bytes and from 16 KiB (where the AES port alone bounds the loop); AES-128
/// sealing 1% faster at 1420 bytes and 3% from 4 KiB to 64 KiB (0.212 → 0.205 at 4 KiB, 0.185
/// → 0.179 at 64 KiB), opening 1.5–3%. On ymm the two measured the same (`vaes256`). On Zen 4
/// (2026-12-02, `vaes512`, three alternated rounds of `bench gcm`) the schoolbook was slower
/// from 1 KiB, medians 1.00–1.08× the time: there a zmm multiply takes about an AES round's
/// slot in the pipes the two share (`docs/measurements/zen4.md`).
trait GroupProduct {
    /// The group leaves one sum per lane ([`ByLane`]) rather than the accumulator in lane 0.
    const BY_LANE: bool = false;

    /// The loop sums two of its groups before one reduction, the first by [`ByLaneAhead`]
    /// (`later_groups`; where the rounds leave room, [`paired_groups_pay`]).
    const PAIRS_AHEAD: bool = false;

    /// Adds register `r` of a group (`x`: byte-reversed, the accumulator folded in) times its
    /// power into `sum`.
    ///
    /// # Safety
    /// The ISA of `R` may run; `key` points at a group's powers and halves.
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R);

    /// The accumulator after the group's sum, as a register: in lane 0, zero elsewhere
    /// ([`ByLane`]: one sum per lane).
    ///
    /// # Safety
    /// The ISA of `R` may run.
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R;
}

/// Three multiplies a register (see [`GroupProduct`]).
struct Karatsuba;

impl GroupProduct for Karatsuba {
    #[inline(always)]
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R) {
        unsafe { sum.karatsuba_add(key.h, key.halves, r, x) }
    }

    #[inline(always)]
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R {
        unsafe { R::from_lane0(sum.reduce_karatsuba()) }
    }
}

/// Four multiplies a register, no fold (see [`GroupProduct`]).
struct Schoolbook;

impl GroupProduct for Schoolbook {
    #[inline(always)]
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R) {
        unsafe { sum.schoolbook_add(key.h, r, x) }
    }

    #[inline(always)]
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R {
        unsafe { R::from_lane0(sum.reduce_schoolbook()) }
    }
}

/// [`Schoolbook`] with each register's power broadcast to its lanes and the group's sum
/// reduced lane by lane, not added (`Sum::schoolbook_add_by_lane`, which says why the lanes'
/// sums stand for the accumulator): the loop's groups on zmm where the schoolbook runs, all
/// but the last that a message hashes, which takes the lanes back to one accumulator by the
/// powers H^n … H^1 as every other group does ([`Schoolbook`] when opening; sealing's last
/// group, hashed in the tail's rounds, by [`Karatsuba`]). The lanes' XOR it saves a group is
/// three lane extracts (on the port of the carry-less multiplies) and three XORs.
struct ByLane;

impl GroupProduct for ByLane {
    const BY_LANE: bool = true;
    const PAIRS_AHEAD: bool = true;

    #[inline(always)]
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R) {
        unsafe { sum.schoolbook_add_by_lane(key.h, r, x) }
    }

    #[inline(always)]
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R {
        unsafe { sum.reduce_by_lane() }
    }
}

/// [`Karatsuba`] with each register's power and its half broadcast to its lanes, the group's
/// sum reduced lane by lane and not added, as [`ByLane`] does for the schoolbook: the loop's
/// groups on zmm where Karatsuba runs, all but the last that a message hashes (which
/// [`Karatsuba`] hashes, taking the lanes back to one). The lanes' XOR it saves a group (lane
/// extracts and XORs, a few of the 260 or so pipe slot-cycles a group of the zmm loop takes on
/// Zen 5, `docs/measurements/zen5.md`) also leaves the chain that carries the accumulator
/// from group to group. The powers and halves it broadcasts are memory operands as before,
/// one block each instead of a register's four. With AES-128 only ([`karatsuba_by_lane_pays`]).
struct KaratsubaByLane;

impl GroupProduct for KaratsubaByLane {
    const BY_LANE: bool = true;

    #[inline(always)]
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R) {
        unsafe { sum.karatsuba_add_by_lane(key.h, key.halves, r, x) }
    }

    #[inline(always)]
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R {
        unsafe { sum.reduce_karatsuba_by_lane() }
    }
}

/// Whether the zmm loop with Karatsuba sums its groups by lane ([`KaratsubaByLane`]) with `nr`
/// rounds: with AES-128. On Zen 5 (2026-12-04, `bench-old-new.sh`, runs of six and eight
/// alternated rounds, medians, new/old time) AES-128 took 0.97–0.99 at 64 KiB sealing and
/// opening and 0.98–1.00 at 4 KiB (opening once its last group read the loop's keys); AES-256
/// 1.00–1.03 at 4 KiB and 0.97–1.02 at 64 KiB, so AES-256 (and AES-192, not measured) keeps
/// the lanes' XOR. (Zen 4 runs the same loop and has
/// not been measured with it; its try of 2026-12-02, which read its last opening group's keys
/// from the schedule, read 0.98–1.05.)
const fn karatsuba_by_lane_pays(nr: usize) -> bool {
    nr == 10
}

/// [`ByLane`] for the first of two groups summed together and reduced once (`later_groups`):
/// register `r` multiplies by its power in the next group times H^(GROUP × LANES), the
/// paired powers, so that the next group's own products add to the same sum, and the two
/// groups' blocks stand in the sum as in one group of twice as many. Lane `j` of every
/// register then still stands for `A_j · H^-j` ([`Sum::schoolbook_add_by_lane`]).
///
/// Why: the reduction (two carry-less multiplies, two qword swaps, two XORs) and the
/// accumulator's fold run once per two groups, and the sums' XORs take fewer two-way steps. In
/// the zmm loop on Intel, where those vector instructions and the rounds share two ports,
/// every one of them is time (see the loop's figures in `docs/measurements`).
struct ByLaneAhead;

impl GroupProduct for ByLaneAhead {
    const BY_LANE: bool = true;

    #[inline(always)]
    unsafe fn add<R: ClmulReg>(sum: &mut Sum<R>, key: GroupKey, r: usize, x: R) {
        unsafe { sum.schoolbook_add_broadcast(key.paired.add(r), x) }
    }

    /// Not reduced on its own (`later_groups` sums the next group onto it); as [`ByLane`] if
    /// it were.
    #[inline(always)]
    unsafe fn reduce<R: ClmulReg>(sum: Sum<R>) -> R {
        unsafe { sum.reduce_by_lane() }
    }
}

/// Where the registers of a group start: their states entering round `AFTER + 1`, in counter
/// order.
trait Starts<R> {
    /// # Safety
    /// The ISA of `R` may run.
    unsafe fn next<const N: usize>(&mut self, s: &mut [R; N]);
}

/// FACE: register `j` of a group is `T[x + j·LANES ..] ⊕ C`, `C` being the state after `AFTER`
/// rounds of the segment's counter `base | 0`.
struct FaceStarts<'a, R, const AFTER: usize> {
    keys: &'a RoundKeys,
    t: *const Block,
    x: usize,
    base: u128,
    c: R,
}

/// Plain CTR's table: FACE's `T_0`, which is the same for every key and counter. Whitening is
/// an XOR, so `T_0[x] = S_0(base | x) ⊕ S_0(base | 0)` is `x` in the block's last byte (the
/// counter's low byte), and entries 256.. repeat the start as every table's overhang does.
/// Plain CTR is `FaceStarts<R, 0>` over it: `C_0` is the whitened block of the segment's first
/// counter, and each register starts as one XOR of `C_0` with a load. Its entries are public
/// (counter bytes), and so is where a group reads them (the counter, from the nonce).
///
/// Why: on Intel cores with AVX-512 the zmm GCM loop is bound by the two vector ports that
/// run 512-bit work (VAES on one, the carry-less multiplies and every shuffle on the other,
/// XORs and adds on either), and counters kept as blocks took a lane add and an XOR with the
/// round key a register, 16 of the 178 instructions a group on those ports (perf annotate,
/// AES-128); a load goes to a load port. On Emerald Rapids (2026-11-27, the two builds
/// alternated, six runs each, best of each), AES-128-GCM sealing went from 0.264 to 0.256
/// cycles/byte at 1420 bytes, 0.200 to 0.197 at 4 KiB, 0.183 to 0.177 at 16 KiB and 0.178 to
/// 0.172 at 64 KiB (plain, FACE off); AES-256, whose loop has more rounds on the VAES port,
/// was the same from 16 KiB, and `vaes256` and AES-NI (under `AESLAB_CPU_MASK`) the same at
/// every size within the runs' spread. (Before, counters little-endian in lanes took a byte
/// shuffle more a register: going to blocks made 1420 bytes to 16 KiB 1–3% faster.)
static ROUND0_TABLE: [Block; 256 + TABLE_OVERHANG] = {
    let mut t = [[0u8; 16]; 256 + TABLE_OVERHANG];
    let mut x = 0;
    while x < t.len() {
        t[x][15] = x as u8;
        x += 1;
    }
    t
};

/// `base` plus 256 in GCM's 32-bit counter.
#[inline(always)]
fn next_segment(base: u128) -> u128 {
    (base & !0xffff_ffff) | u128::from((base as u32).wrapping_add(256))
}

impl<'a, R: AesRound, const AFTER: usize> FaceStarts<'a, R, AFTER> {
    /// # Safety
    /// The ISA of `R` may run.
    #[inline(always)]
    unsafe fn new(keys: &'a RoundKeys, t: &'a [Block], ctr: u128) -> Self {
        assert!(t.len() >= 256 + TABLE_OVERHANG);
        let base = ctr & !0xff;
        let c = unsafe { segment_constant::<R, AFTER>(keys, base) };
        FaceStarts { keys, t: t.as_ptr(), x: (ctr & 0xff) as usize, base, c }
    }
}

impl<R: AesRound, const AFTER: usize> Starts<R> for FaceStarts<'_, R, AFTER> {
    #[inline(always)]
    unsafe fn next<const N: usize>(&mut self, s: &mut [R; N]) {
        unsafe {
            let width = N * R::LANES;
            if self.x + width < 256 {
                for (j, v) in s.iter_mut().enumerate() {
                    *v = R::load(self.t.add(self.x + j * R::LANES)).xor(self.c);
                }
                self.x += width;
                return;
            }
            // The group reaches the next segment (once per 256 blocks): registers wholly past
            // entry 255 use the next constant and the table from its start; one register may
            // straddle, and reads entries 256.. from the table's overhang (its start again)
            // with the constants blended by lane.
            let base = next_segment(self.base);
            let c = segment_constant::<R, AFTER>(self.keys, base);
            let diff = self.c.xor(c);
            for (j, v) in s.iter_mut().enumerate() {
                let xj = self.x + j * R::LANES;
                *v = if xj >= 256 {
                    R::load(self.t.add(xj - 256)).xor(c)
                } else if xj + R::LANES <= 256 {
                    R::load(self.t.add(xj)).xor(self.c)
                } else {
                    R::load(self.t.add(xj)).xor(c).xor(diff.keep_first(256 - xj))
                };
            }
            (self.x, self.base, self.c) = (self.x + width - 256, base, c);
        }
    }
}

/// Where a group reads its round keys from: broadcast from the 16-byte schedule where they
/// are used ([`RoundKeys`]), or loaded whole from a copy made for the message ([`WideKeys`]).
trait GroupKeys<R> {
    /// Round key `i` in every lane.
    ///
    /// # Safety
    /// The ISA of `R` may run.
    unsafe fn round_key(&self, i: usize) -> R;
}

impl<R: Reg> GroupKeys<R> for RoundKeys {
    #[inline(always)]
    unsafe fn round_key(&self, i: usize) -> R {
        unsafe { R::broadcast(&self.keys[i]) }
    }
}

/// The round keys each filling a whole register `R`, written once per message into stack
/// space of the caller's for its loop over whole groups, and wiped after the loop. Only the
/// keys of the schedule's rounds are written (and wiped).
///
/// Why: the loop reads most round keys from memory in every group (the registers hold the
/// states and the GHASH), and a key broadcast from its 16 bytes (VBROADCASTI32X4) takes a
/// vector pipe beside the load on Zen 5, where the zmm loop is bound by those pipes. In a
/// synthetic AES-128-GCM zmm group written in assembly, whole-register loads of the keys took
/// 69.2 cycles a group against 71.9 with the broadcasts (2026-11-26).
///
/// The space is the caller's, and this holds a pointer into it: a value holding the space
/// itself was copied when returned (a call to `memcpy` of a kilobyte per message).
struct WideKeys<R, const NR: usize> {
    first: *mut Block,
    register: PhantomData<R>,
}

/// Blocks of stack space for [`WideKeys`]: every round key of the widest register, from the
/// space's first 64-byte boundary ([`RegisterSpace`]).
const WIDE_KEY_SPACE: usize = (MAX_ROUNDS + 1) * MAX_LANES + MAX_LANES;

impl<R: Reg, const NR: usize> WideKeys<R, NR> {
    /// Blocks written: `NR + 1` keys of `R::LANES` blocks.
    const BLOCKS: usize = (NR + 1) * R::LANES;

    /// # Safety
    /// The ISA of `R` may run.
    #[inline(always)]
    unsafe fn write(keys: &RoundKeys, space: &mut RegisterSpace<WIDE_KEY_SPACE>) -> Self {
        const { assert!(Self::BLOCKS <= RegisterSpace::<WIDE_KEY_SPACE>::BLOCKS) };
        let first = space.first();
        // SAFETY: the `BLOCKS` blocks stored are inside `space` (asserted above); the blocks
        // read (`round_key`) and wiped (`wipe`) are these.
        unsafe {
            for i in 0..=NR {
                R::broadcast(&keys.keys[i]).store(first.add(i * R::LANES));
            }
        }
        // The compiler must no longer know what the space holds, or it would broadcast from the
        // schedule again where the keys are used, and the copy would be for nothing. It still
        // knows where the space is (this stack frame), so the loop's stores into the message do
        // not make it load the keys again after each of them. A barrier that also made the
        // pointer opaque hid that too, and the loop ran 4% slower at 16 and 64 KiB on Zen 5
        // (2026-11-26).
        crate::ct::may_rewrite(first);
        WideKeys { first, register: PhantomData }
    }

    /// Zeroes the keys written.
    #[inline(always)]
    fn wipe(self) {
        // SAFETY: the first `BLOCKS` blocks at `first` were written by `write`.
        let written = unsafe { core::slice::from_raw_parts_mut(self.first, Self::BLOCKS) };
        crate::ct::wipe(written.as_flattened_mut());
    }
}

impl<R: Reg, const NR: usize> GroupKeys<R> for WideKeys<R, NR> {
    #[inline(always)]
    unsafe fn round_key(&self, i: usize) -> R {
        // SAFETY: key `i ≤ NR` is the `R::LANES` blocks `write` stored at `i · R::LANES`.
        unsafe { R::load(self.first.add(i * R::LANES)) }
    }
}

/// The whole groups from which a message's loop reads [`WideKeys`] (all groups but the first
/// do), on zmm only. On Zen 5 (2026-11-26, one binary, interleaved) the copy paid for itself
/// from 6 groups (3 KiB) with AES-128 and from 12–16 (6–8 KiB) with AES-256, which writes and
/// wipes 15 keys and runs fewer groups in the same time; at 64 KiB the loop was 7–8% faster
/// with AES-128 and 4% with AES-256. On ymm the same copy made the loop 2–3% slower at every
/// length (VBROADCASTI128 is a load alone there), and an xmm key is loaded whole anyway.
const fn wide_keys_from_groups(nr: usize) -> usize {
    if nr == 10 { 6 } else { 16 }
}

/// How a group's last round meets the data: AESENCLAST(s, k ⊕ p) = AESENCLAST(s, k) ⊕ p, with
/// the data `p` of register `j` read and the result written back in place.
trait Finish<R> {
    /// # Safety
    /// The ISA of `R` may run; `p` is register `j`'s place in the group (for [`Whole`], its
    /// `LANES` blocks are valid; for [`MaskedTail`], the bytes its length leaves there).
    unsafe fn finish(&mut self, j: usize, p: *mut Block, s: R, k_last: R);
}

/// Whole registers, loaded and stored: every group of the loop.
struct Whole;

impl<R: AesRound> Finish<R> for Whole {
    #[inline(always)]
    unsafe fn finish(&mut self, _j: usize, p: *mut Block, s: R, k_last: R) {
        unsafe { s.enc_last(k_last.xor(R::load(p))).store(p) }
    }
}

/// The message's tail in place, through the registers' byte moves ([`Reg::load_bytes`] and
/// [`Reg::store_bytes`]): `bytes` from the group's start. Registers the message fills are
/// loaded and stored whole, as the loop's are; the register the message ends in keeps its
/// keystream (its last round without the data) for [`MaskedTail::write_partial`], after the
/// group, which reads and writes its share of the message alone. Registers wholly past the
/// message read and write nothing. The tail group is rounded up to a power of two
/// ([`tail_regs`]) to keep the number of bodies down (each carries the GHASH), so which
/// register is partial, or past the message, is known only at run time. Opening's keeps
/// nothing, as its results are plaintext not yet authenticated.
///
/// Why the partial register after the group rather than in it: with its byte moves (on xmm
/// and ymm, a few branches on the length and moves of 8, 4, 2 and 1 bytes) in every
/// register's last round, the compiler no longer unrolled the eight registers' last rounds
/// but looped over them with the states on the stack. On Zen 3's ymm (2026-11-28, the two
/// builds in one process, interleaved), opening 1420 bytes took 1.14× the time of the buffer
/// it replaced that way, and sealing 1.07×; the README's Zen 3 section of 2026-11-28 has the
/// figures after this change.
///
/// With byte masks (zmm, `Reg::BYTE_MASKS`), a register's moves are one masked load and one
/// masked store, so every register is finished in its own last round, through masks, and none
/// after the group. Finished after the group, a 16-byte AES-128-GCM seal on Zen 5 took 1.3×
/// as long (2026-11-29: 74 against 57 TSC ticks, the builds alternated).
struct MaskedTail<R> {
    bytes: usize,
    /// The keystream of the register the message ends in, if it ends inside one.
    partial: R,
}

impl<R: AesRound> MaskedTail<R> {
    /// # Safety
    /// The ISA of `R` may run.
    #[inline(always)]
    unsafe fn new(bytes: usize) -> Self {
        MaskedTail { bytes, partial: unsafe { R::zero() } }
    }

    /// Register `j`'s last round: in place, with the data folded into the key, where the
    /// message fills the register (the result is returned; zero for the others); the
    /// keystream kept where the message ends inside it. With byte masks, in place through them
    /// for every register (the result zero past the message).
    #[inline(always)]
    unsafe fn last_round(&mut self, j: usize, p: *mut Block, s: R, k_last: R) -> R {
        unsafe {
            if R::BYTE_MASKS {
                // Its bytes of the message (none for a register past it) through the masks.
                let n = self.bytes.saturating_sub(j * 16 * R::LANES).min(16 * R::LANES);
                let c = s.enc_last(k_last.xor(R::load_bytes(p.cast(), n))).keep_bytes(n);
                c.store_bytes(p.cast(), n);
                return c;
            }
            let whole = self.bytes / (16 * R::LANES);
            if j < whole {
                let c = s.enc_last(k_last.xor(R::load(p)));
                c.store(p);
                c
            } else {
                if j == whole {
                    self.partial = s.enc_last(k_last);
                }
                R::zero()
            }
        }
    }

    /// The register the message ends in, if it ends inside one and is left for
    /// [`MaskedTail::write_partial`] (never with byte masks), and its bytes of the message.
    #[inline(always)]
    fn partial_register(&self) -> Option<(usize, usize)> {
        if R::BYTE_MASKS {
            return None;
        }
        let n = self.bytes % (16 * R::LANES);
        (n > 0).then_some((self.bytes / (16 * R::LANES), n))
    }

    /// The partial register's result, `data` (its `n` bytes at `p`, zero after them) ⊕ the
    /// keystream, written to its `n` bytes at `p`; returned zero past them.
    ///
    /// # Safety
    /// The ISA of `R` may run; `p` is valid for `n` bytes.
    #[inline(always)]
    unsafe fn write_partial(&self, p: *mut u8, n: usize, data: R) -> R {
        unsafe {
            let c = self.partial.xor(data).keep_bytes(n);
            c.store_bytes(p, n);
            c
        }
    }
}

impl<R: AesRound> Finish<R> for MaskedTail<R> {
    #[inline(always)]
    unsafe fn finish(&mut self, j: usize, p: *mut Block, s: R, k_last: R) {
        unsafe { self.last_round(j, p, s, k_last) };
    }
}

/// Sealing's tail: [`MaskedTail`], with the ciphertext (zero past the message, as GHASH pads)
/// kept in `ct` for the GHASH, which takes it from there rather than from memory
/// ([`hash_tail`]); the keystream past the message is stored nowhere (short of the compiler
/// spilling a register).
struct MaskedSealTail<R> {
    tail: MaskedTail<R>,
    ct: [R; IN_FLIGHT],
}

impl<R: AesRound> Finish<R> for MaskedSealTail<R> {
    #[inline(always)]
    unsafe fn finish(&mut self, j: usize, p: *mut Block, s: R, k_last: R) {
        unsafe { self.ct[j] = self.tail.last_round(j, p, s, k_last) };
    }
}

/// The GHASH a group multiplies between its rounds, register by register.
trait Hashed<R: ClmulReg> {
    /// Adds register `r` of the group (0 .. `GROUP`), the accumulator `acc` (a register, as
    /// [`GroupProduct::reduce`] leaves it) folded into register 0, times its powers into `sum`.
    ///
    /// # Safety
    /// The ISA of `R` may run.
    unsafe fn add(&self, sum: &mut Sum<R>, r: usize, acc: R);

    /// The accumulator after the group's sum, as a register.
    ///
    /// # Safety
    /// The ISA of `R` may run.
    unsafe fn reduce(&self, sum: Sum<R>) -> R;
}

/// A whole group of blocks at `at` in memory, against the group's powers (and their halves),
/// multiplied as `P` does.
struct GroupAt<P> {
    key: GroupKey,
    at: *const Block,
    product: PhantomData<P>,
}

impl<P> GroupAt<P> {
    #[inline(always)]
    fn new(key: GroupKey, at: *const Block) -> Self {
        GroupAt { key, at, product: PhantomData }
    }
}

impl<R: ClmulReg, P: GroupProduct> Hashed<R> for GroupAt<P> {
    #[inline(always)]
    unsafe fn add(&self, sum: &mut Sum<R>, r: usize, acc: R) {
        unsafe { P::add(sum, self.key, r, group_register::<R>(self.at, r, acc)) }
    }

    #[inline(always)]
    unsafe fn reduce(&self, sum: Sum<R>) -> R {
        unsafe { P::reduce(sum) }
    }
}

/// A message's tail in registers, with the lengths block after it where it fits
/// ([`tail_in_registers`]): [`absorb_tail`]'s sum, made register by register. Registers wholly
/// past its `m` blocks add nothing and load no power.
struct TailInRegisters<'a, R> {
    /// The powers H^m … H^1.
    h: *const Block,
    m: usize,
    /// The tail as loaded (block byte order, zero past it).
    ct: &'a [R; IN_FLIGHT],
    /// The lengths block in the lane after the data, XORed into register `.0` (`GROUP`: none).
    extra: (usize, R),
}

impl<R: ClmulReg> Hashed<R> for TailInRegisters<'_, R> {
    /// `acc` holds the accumulator in lane 0: the group before it, if any, took the lanes back
    /// to one ([`ByLane`]).
    #[inline(always)]
    unsafe fn add(&self, sum: &mut Sum<R>, r: usize, acc: R) {
        unsafe {
            if r * R::LANES < self.m {
                absorb_tail_register(sum, self.h, self.m, acc.lane0(), r, self.ct[r], self.extra);
            }
        }
    }

    #[inline(always)]
    unsafe fn reduce(&self, sum: Sum<R>) -> R {
        unsafe { R::from_lane0(sum.reduce_karatsuba()) }
    }
}

/// One group of `N` registers in place at `dst`: rounds `AFTER + 1 .. NR` on the next starts
/// and the last round with the data folded into its key, through `fin`. With `HASH`, the GHASH
/// group `hashed` is multiplied between the rounds (its registers spread evenly over them, the
/// accumulator `acc` folded into the first) and reduced before the last round; the new
/// accumulator is returned.
///
/// Each round key is read from `keys` where it is used: with the states, the sum and the data
/// live, the keys do not fit in 16 registers beside them (see `ctr::insn::finish`), and on
/// zmm LLVM reads most of them from memory too.
#[inline(always)]
unsafe fn group<R, S, K, H, F, const NR: usize, const AFTER: usize, const N: usize, const HASH: bool>(
    keys: &K,
    starts: &mut S,
    dst: *mut Block,
    hashed: &H,
    acc: R,
    fin: &mut F,
) -> R
where
    R: AesRound + ClmulReg,
    S: Starts<R>,
    K: GroupKeys<R>,
    H: Hashed<R>,
    F: Finish<R>,
{
    unsafe { group_summing::<R, S, K, H, F, NR, AFTER, N, HASH, true>(keys, starts, dst, hashed, acc, Sum::zero(), fin).0 }
}

/// [`group`] with the GHASH products added onto `sum`, reduced (`REDUCE`: the accumulator
/// returned) or not (the sum returned, for a group after it to add to: [`ByLaneAhead`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn group_summing<R, S, K, H, F, const NR: usize, const AFTER: usize, const N: usize, const HASH: bool, const REDUCE: bool>(
    keys: &K,
    starts: &mut S,
    dst: *mut Block,
    hashed: &H,
    acc: R,
    mut sum: Sum<R>,
    fin: &mut F,
) -> (R, Sum<R>)
where
    R: AesRound + ClmulReg,
    S: Starts<R>,
    K: GroupKeys<R>,
    H: Hashed<R>,
    F: Finish<R>,
{
    unsafe {
        let mut s = [R::zero(); N];
        starts.next::<N>(&mut s);
        // The full rounds, written out (a loop over them with the GHASH registers inside was
        // not unrolled: the round keys and register indices stayed run-time values). The GHASH
        // registers go in pairs, `PAIRS[q]` in round `i` of `rounds` for `q` in
        // `i·(GROUP/2)/rounds .. (i+1)·(GROUP/2)/rounds`, register 0 (which waits for the
        // previous group's reduction) last. Why pairs: the two products of each part can be
        // added to the sum together (one three-way XOR on AVX-512), and the zmm loop ran 3.5%
        // (AES-128) and 9% (AES-256) faster at 16 and 64 KiB on Zen 5 (2026-11-26, one binary,
        // interleaved) than with one register per round, where LLVM moved most of the GHASH
        // after the rounds and spilled the hashed data to the stack. On ymm and xmm it measured
        // the same. Forcing the written order on top (an empty `asm!` per live register after
        // each round) was 2% slower than this.
        const PAIRS: [[usize; 2]; GROUP / 2] = {
            let mut pairs = [[0; 2]; GROUP / 2];
            let mut q = 0;
            while q < GROUP / 2 {
                pairs[q] = [2 * q + 1, (2 * q + 2) % GROUP];
                q += 1;
            }
            pairs
        };
        let rounds = NR - 1 - AFTER;
        macro_rules! rounds {
            ($($i:literal)*) => {$(
                if $i < rounds {
                    let k = keys.round_key(AFTER + 1 + $i);
                    for v in s.iter_mut() {
                        *v = v.enc(k);
                    }
                    if HASH {
                        for pair in &PAIRS[$i * (GROUP / 2) / rounds..($i + 1) * (GROUP / 2) / rounds] {
                            for &r in pair {
                                hashed.add(&mut sum, r, acc);
                            }
                        }
                    }
                }
            )*};
        }
        rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12);
        let acc = if HASH && REDUCE { hashed.reduce(sum) } else { acc };
        let k_last = keys.round_key(NR);
        for (j, v) in s.iter().enumerate() {
            // (Wrapping: a masked tail's padding registers lie past the message.)
            fin.finish(j, dst.wrapping_add(j * R::LANES), *v, k_last);
        }
        (acc, sum)
    }
}

/// [`group`] for the tail's `nregs` registers (1 ..= `IN_FLIGHT`), rounded up to a power of
/// two (fewer bodies; the extra registers encrypt padding).
#[inline(always)]
unsafe fn tail_group<R, S, H, F, const NR: usize, const AFTER: usize, const HASH: bool>(
    keys: &RoundKeys,
    starts: &mut S,
    dst: *mut Block,
    hashed: &H,
    acc: R,
    nregs: usize,
    fin: &mut F,
) -> R
where
    R: AesRound + ClmulReg,
    S: Starts<R>,
    H: Hashed<R>,
    F: Finish<R>,
{
    unsafe {
        match tail_regs(nregs) {
            1 => group::<R, S, RoundKeys, H, F, NR, AFTER, 1, HASH>(keys, starts, dst, hashed, acc, fin),
            2 => group::<R, S, RoundKeys, H, F, NR, AFTER, 2, HASH>(keys, starts, dst, hashed, acc, fin),
            4 => group::<R, S, RoundKeys, H, F, NR, AFTER, 4, HASH>(keys, starts, dst, hashed, acc, fin),
            _ => group::<R, S, RoundKeys, H, F, NR, AFTER, IN_FLIGHT, HASH>(keys, starts, dst, hashed, acc, fin),
        }
    }
}

/// The registers [`tail_group`] runs for a tail of `nregs` registers: a few sizes, each its
/// own compiled group, so a short tail runs no rounds for registers it does not have.
#[inline(always)]
fn tail_regs(nregs: usize) -> usize {
    match nregs {
        1 | 2 => nregs,
        3 | 4 => 4,
        _ => IN_FLIGHT,
    }
}

/// Blocks of stack space for a tail that runs in a copy (see `message`): a group of the
/// widest registers, from the space's first 64-byte boundary.
const BOUNCE_SPACE: usize = IN_FLIGHT * MAX_LANES + MAX_LANES;

/// E_K(J0): one block, independent of the loop, so it runs in the loop's shadow (when it is
/// issued early: see where `message` calls it).
#[inline(always)]
unsafe fn encrypt_j0<L: AesRound, const NR: usize>(keys: &RoundKeys, j0: u128) -> L {
    unsafe {
        let mut x = L::broadcast_u128(j0.swap_bytes()).xor(L::load(&keys.keys[0]));
        for key in &keys.keys[1..NR] {
            x = x.enc(L::load(key));
        }
        x.enc_last(L::load(&keys.keys[NR]))
    }
}

/// `acc` after the whole `blocks`, through the general GHASH body.
#[inline(always)]
unsafe fn hash_blocks<R: ClmulReg>(powers: Powers<'_>, acc: R::Lane, blocks: &[Block]) -> R::Lane {
    unsafe {
        let mut bytes = [0u8; 16];
        acc.store(&mut bytes);
        // A whole group's powers when there is one, else one per block.
        update_blocks::<R>(powers.last(blocks.len().min(GROUP * R::LANES)), &mut bytes, blocks);
        let acc = <R::Lane as Reg>::load(&bytes);
        crate::ct::wipe(&mut bytes);
        acc
    }
}

/// A message's tail in registers (`ct`: its last `rest < GROUP × LANES × 16` bytes, zero past
/// them, as [`MaskedSealTail`] leaves them and opening loads them) and the lengths block after
/// them, for [`absorb_tail`]: the lengths block goes into the lane after the last block, or,
/// after a tail of a whole group of blocks less a few bytes, is left out, to be hashed on its
/// own (the flag says it is in).
#[inline(always)]
unsafe fn tail_in_registers<'a, R: ClmulReg>(powers: Powers<'_>, ct: &'a [R; IN_FLIGHT], rest: usize, lengths: &Block) -> (TailInRegisters<'a, R>, bool) {
    unsafe {
        let nblocks = rest.div_ceil(16);
        let with_lengths = nblocks < IN_FLIGHT * R::LANES;
        let m = nblocks + usize::from(with_lengths);
        // The lengths block in the lane after the data alone: the bytes below its end less
        // those below its start.
        let (r, lane) = (nblocks / R::LANES, nblocks % R::LANES);
        let everywhere = R::broadcast(lengths);
        let in_lane = everywhere.keep_bytes(16 * (lane + 1)).xor(everywhere.keep_bytes(16 * lane));
        let extra = if with_lengths { (r, in_lane) } else { (GROUP, R::zero()) };
        (TailInRegisters { h: powers.power(m), m, ct, extra }, with_lengths)
    }
}

/// `acc` after a message's tail in registers and the lengths block ([`tail_in_registers`]).
#[inline(always)]
unsafe fn hash_tail<R: ClmulReg>(powers: Powers<'_>, acc: R::Lane, ct: &[R; IN_FLIGHT], rest: usize, lengths: &Block) -> R::Lane {
    unsafe {
        let (tail, with_lengths) = tail_in_registers::<R>(powers, ct, rest, lengths);
        let acc = absorb_tail::<R>(tail.h, tail.m, acc, ct, tail.extra);
        if with_lengths { acc } else { absorb_block::<R>(powers.h1(), acc, lengths) }
    }
}

/// Whether the zmm loop sums two groups before one reduction ([`ByLaneAhead`]): where the
/// rounds it runs, `NR − AFTER`, leave the VAES port time for other work, as AES-128 with FACE
/// rd2p does (8 rounds a group beside 79 other vector instructions on the two ports). With
/// more rounds the port is the bound (AES-128 without FACE: 10 rounds and 79 others; the XORs
/// then go to the other port), and the instructions saved are not time. On Emerald Rapids
/// (2026-12-03, one message at a time, six alternated runs of the builds with and without,
/// fastest of each) AES-128 with rd2p sealed 64 KiB in 1.8% less time and opened it in 1.9%
/// less (32 KiB: 2.0% and 0.9%); without FACE, at 4 and 16 KiB, pairs took 1–4% more, and
/// AES-256 read the same either way.
const fn paired_groups_pay(nr: usize, after: usize) -> bool {
    nr - after <= 8
}

/// Groups `1..full` of the message at `p`, each hashing a group (sealing: the one before it;
/// opening: itself) into `acc`, which is returned. Where `P` pairs its groups
/// ([`GroupProduct::PAIRS_AHEAD`]: the schoolbook's zmm loop on Intel) and the rounds leave
/// room ([`paired_groups_pay`]), two groups at a time
/// share one reduction: the first multiplies as [`ByLaneAhead`] and leaves its sum to the
/// second.
///
/// # Safety
/// The ISA of `R` may run; `p` holds `full` groups; with `P::PAIRS_AHEAD`, `gkey`'s paired powers
/// are made.
#[inline(always)]
unsafe fn later_groups<R, S, K, P, const NR: usize, const AFTER: usize>(
    keys: &K,
    starts: &mut S,
    p: *mut Block,
    full: usize,
    gkey: GroupKey,
    mut acc: R,
    decrypt: bool,
) -> R
where
    R: AesRound + ClmulReg,
    S: Starts<R>,
    K: GroupKeys<R>,
    P: GroupProduct,
{
    let g = GROUP * R::LANES;
    let mut first = 1;
    if P::PAIRS_AHEAD && paired_groups_pay(NR, AFTER) {
        while first + 1 < full {
            let i = first;
            // SAFETY: the caller's ISA and `full` groups at `p`; the paired powers are made
            // (the caller's).
            unsafe {
                let (ahead, own) = if decrypt { (p.add(i * g), p.add((i + 1) * g)) } else { (p.add((i - 1) * g), p.add(i * g)) };
                let (_, sum) = group_summing::<R, S, K, _, _, NR, AFTER, IN_FLIGHT, true, false>(
                    keys,
                    starts,
                    p.add(i * g),
                    &GroupAt::<ByLaneAhead>::new(gkey, ahead),
                    acc,
                    Sum::zero(),
                    &mut Whole,
                );
                // The accumulator went into the first group: none to fold here.
                acc = group_summing::<R, S, K, _, _, NR, AFTER, IN_FLIGHT, true, true>(
                    keys,
                    starts,
                    p.add((i + 1) * g),
                    &GroupAt::<P>::new(gkey, own),
                    R::zero(),
                    sum.computed_here(),
                    &mut Whole,
                )
                .0;
            }
            first += 2;
        }
    }
    for i in first..full {
        // SAFETY: the caller's ISA and `full` groups at `p`.
        unsafe {
            let at = if decrypt { p.add(i * g) } else { p.add((i - 1) * g) };
            acc = group::<R, S, K, _, _, NR, AFTER, IN_FLIGHT, true>(keys, starts, p.add(i * g), &GroupAt::<P>::new(gkey, at), acc, &mut Whole);
        }
    }
    acc
}

/// The `full` whole groups of the message at `p`, their GHASH multiplied as `P` does, into
/// `acc`, which is returned; sealing leaves the last group's GHASH to the caller. Opening
/// hashes its last group as `Q` does where `P` leaves one sum per lane ([`ByLane`]), so that
/// the accumulator returned is in lane 0 (see [`GroupProduct::reduce`]).
///
/// # Safety
/// The ISA of `R` may run; `p` holds `full` groups.
#[inline(always)]
unsafe fn whole_groups<R, S, P, Q, const NR: usize, const AFTER: usize>(
    keys: &RoundKeys,
    starts: &mut S,
    p: *mut Block,
    full: usize,
    gkey: GroupKey,
    mut acc: R,
    decrypt: bool,
) -> R
where
    R: AesRound + ClmulReg,
    S: Starts<R>,
    P: GroupProduct,
    Q: GroupProduct,
{
    // Opening's last group apart, when `P` would leave its sums by lane, from the round keys
    // the loop read: the loop's copy (`WideKeys`) where the message is long enough for one,
    // else the schedule. (From the schedule always, AES-128 opening 4 KiB took 2–3% longer
    // than without the lanes' sums on Zen 5, 2026-12-04.)
    let last_apart = decrypt && P::BY_LANE && full > 0;
    let by_p = if last_apart { full - 1 } else { full };
    // SAFETY: the caller's ISA and `full` groups at `p`.
    unsafe {
        let at = p.add(by_p * GROUP * R::LANES);
        if by_p > 0 {
            // The first group reads the keys from the schedule; the copy below is made while
            // its rounds run.
            let first = GroupAt::<P>::new(gkey, p);
            if decrypt {
                acc = group::<R, S, _, _, _, NR, AFTER, IN_FLIGHT, true>(keys, starts, p, &first, acc, &mut Whole);
            } else {
                group::<R, S, _, _, _, NR, AFTER, IN_FLIGHT, false>(keys, starts, p, &first, acc, &mut Whole);
            }
        }
        // The other groups, on zmm from a copy of the keys once there are enough of them.
        acc = if R::LANES >= 4 && by_p >= wide_keys_from_groups(NR) {
            let mut space = RegisterSpace::<WIDE_KEY_SPACE>::uninit();
            let wide = WideKeys::<R, NR>::write(keys, &mut space);
            let mut acc = later_groups::<R, S, _, P, NR, AFTER>(&wide, starts, p, by_p, gkey, acc, decrypt);
            if last_apart {
                acc = group::<R, S, _, _, _, NR, AFTER, IN_FLIGHT, true>(&wide, starts, at, &GroupAt::<Q>::new(gkey, at), acc, &mut Whole);
            }
            wide.wipe();
            acc
        } else {
            let acc = later_groups::<R, S, _, P, NR, AFTER>(keys, starts, p, by_p, gkey, acc, decrypt);
            if last_apart {
                group::<R, S, _, _, _, NR, AFTER, IN_FLIGHT, true>(keys, starts, at, &GroupAt::<Q>::new(gkey, at), acc, &mut Whole)
            } else {
                acc
            }
        };
        acc
    }
}

/// The whole message `m` (under ISA `I`), its counter blocks from `starts`: returns E_K(J0) ⊕
/// GHASH(AD, C, lengths), the full tag.
#[inline(always)]
unsafe fn message<R, S, I, const NR: usize, const AFTER: usize>(m: Message<'_, I>, mut starts: S) -> Block
where
    R: AesRound + ClmulReg<Lane: AesRound>,
    S: Starts<R>,
{
    unsafe {
        let Message { keys, powers, ad, data, decrypt, schoolbook, .. } = m;
        let j0 = read_u128(&m.j0);
        let lanes = R::LANES;
        let g = GROUP * lanes;
        let p = data.as_mut_ptr().cast::<Block>();
        let full = data.len() / (16 * g);
        // Karatsuba's halves of the powers, made per message (a few instructions) rather than
        // kept in the key, whose every byte costs set-up; wiped at the end. Only a message with
        // a whole group reads them (the loop, and sealing's last group in the tail's rounds),
        // so a shorter one makes none and wipes none. Made for every message, in a buffer sized
        // for zmm that was zeroed and wiped whole (and with an empty AD hashed all the same),
        // a 16-byte seal on AES-NI took 596 instructions (callgrind) against 561 now. On Zen
        // 3's ymm (2026-11-28, the builds interleaved in one process, medians of five runs) a
        // seal of 16 to 128 bytes went 1.01–1.06× faster; at 256 bytes, a whole group, which
        // makes its halves as before, 1.00× with AES-128 and 0.98× with AES-256.
        // H^g … H^1: made for a message with a whole group; a shorter one may have only
        // H^16 … H^1, and reads none of the group's.
        let h = powers.power(g);
        let mut halves_space = RegisterSpace::<HALVES_SPACE>::uninit();
        let halves: &mut [Block] = if full > 0 { karatsuba_halves::<R>(h, &mut halves_space) } else { &mut [] };
        // (Dangling when empty: then nothing reads it, as nothing hashes a whole group.)
        // (The paired powers are read only by the zmm loop on Intel, whose messages of whole
        // groups have every power made.)
        let gkey = GroupKey { h, halves: halves.as_ptr(), paired: powers.paired() };
        // Pinned here, before the AD and the data: left alone, the compiler moved E_K(J0)'s ten
        // dependent rounds to the end, next to their one use, after the last GHASH reduction,
        // where a short message waited for them (and it kept the round keys, loaded here, in
        // stack slots until then). On Zen 3's ymm (2026-11-28, the two builds in one program,
        // medians of 41 interleaved rounds) AES-128 sealing 16 to 128 bytes went 1.07–1.11×
        // faster and opening 1.04–1.11×, 256 bytes 1.04–1.07× and 1.12–1.14×; AES-256 sealing
        // 16 to 256 bytes 1.09–1.11×. The loop of whole groups is the same code.
        let ek_j0 = encrypt_j0::<R::Lane, NR>(keys, j0).computed_here();

        // The AD, its last block zero-padded. One block at a time (a short AD: TLS's 13 bytes,
        // the benches' 16) in registers; more through the general GHASH body.
        let h1 = powers.h1();
        let (ad_blocks, ad_tail) = ad.as_chunks::<16>();
        let mut ad_acc = <R::Lane as Reg>::zero();
        match ad_blocks {
            [] => {}
            [block] => ad_acc = absorb_block::<R>(h1, ad_acc, block),
            _ => ad_acc = hash_blocks::<R>(powers, ad_acc, ad_blocks),
        }
        if !ad_tail.is_empty() {
            // Read into a register, zero after it: through a zeroed block on the stack, the
            // copy (a `memcpy` call, of moves smaller than the block) and the block's 16-byte
            // load that spans them waited for the copy's stores to reach the cache, after
            // everything before them had retired. A 16-byte seal with a 13-byte AD took 103–105
            // TSC ticks that way and 67–69 this way, against 59–63 without an AD (Zen 5,
            // 2026-11-29).
            let last = <R::Lane as Reg>::load_bytes(ad_tail.as_ptr(), ad_tail.len());
            ad_acc = absorb_register::<R>(h1, ad_acc, last);
        }

        // Whole groups. Sealing hashes one group behind. The schoolbook only on zmm (on ymm the
        // two forms measured the same), so ymm and xmm compile one loop; there its groups leave
        // their sums by lane, and the last group a message hashes takes them back to one.
        // (A register from here to the tail: see `GroupProduct::reduce`.)
        let groups_acc = R::from_lane0(ad_acc);
        let groups_acc = if R::LANES >= 4 && schoolbook {
            whole_groups::<R, S, ByLane, Schoolbook, NR, AFTER>(keys, &mut starts, p, full, gkey, groups_acc, decrypt)
        } else if R::LANES >= 4 && karatsuba_by_lane_pays(NR) {
            whole_groups::<R, S, KaratsubaByLane, Karatsuba, NR, AFTER>(keys, &mut starts, p, full, gkey, groups_acc, decrypt)
        } else {
            whole_groups::<R, S, Karatsuba, Karatsuba, NR, AFTER>(keys, &mut starts, p, full, gkey, groups_acc, decrypt)
        };
        // Sealing's last whole group is not hashed yet: the tail's rounds hash it (by
        // Karatsuba, whatever the loop's form: one tail body less to compile).
        let pending = !decrypt && full > 0;
        let last_group = GroupAt::<Karatsuba>::new(gkey, if pending { p.add((full - 1) * g).cast_const() } else { p.cast_const() });

        // The tail (less than a group) and the lengths block: with no tail, the lengths block
        // alone; else the tail in place through the registers' byte moves (see `MaskedTail`),
        // hashed from the registers with the lengths block in the lane after it.
        let done = full * g * 16;
        let rest = data.len() - done;
        let lengths = lengths_block(ad.len(), data.len());
        let acc = if rest == 0 {
            let acc = if pending { absorb_group::<R>(gkey.h, groups_acc, last_group.at) } else { groups_acc.lane0() };
            absorb_block::<R>(h1, acc, &lengths)
        } else {
            // In place, not through a zero-padded buffer on the stack, which every width but zmm
            // used until 2026-11-28: its copies in and out, zeroing and wipe were a sixth of a
            // 256-byte seal's time on Zen 5. There, on zmm, AES-128-GCM seal went 9.4–9.6 →
            // 6.7–6.9 cycles/byte at 16 bytes, 0.72–0.82 → 0.55 at 256 and 0.242–0.251 →
            // 0.232–0.241 at 1420 (2026-11-26, alternating binaries). For ymm and xmm see the
            // README's Zen 3 section of 2026-11-28.
            let nregs = rest.div_ceil(16 * lanes);
            let in_message = p.add(full * g);
            // With byte masks, the tail group's registers reach `tail_regs(nregs)` registers
            // from its start, past the message's end. Masked-off bytes raise no fault, but the
            // CPU checks their page, and when that page is not mapped or not yet touched, the
            // check is an assist of hundreds of cycles for every register that reaches it. On
            // Zen 5 (2026-11-29), AES-128-GCM sealed a 16-byte message that ended 16 bytes
            // before such a page in 350 ns against 51 ns mid-page, 1420 bytes in 686 against
            // 96. Such a tail runs in a copy on the stack instead (60 and 108 ns): one test a
            // message, outside the registers' code. It costs 0–5% at 16 to 256 bytes; a test
            // inside each register's byte moves instead made 16 to 1420 bytes 1.2–1.5× slower.
            // The address is public.
            let mut bounce = RegisterSpace::<BOUNCE_SPACE>::uninit();
            const { assert!(IN_FLIGHT * MAX_LANES <= RegisterSpace::<BOUNCE_SPACE>::BLOCKS) };
            let reach = tail_regs(nregs) * 16 * lanes;
            let bounced = R::BYTE_MASKS && mask_reaches_next_page(in_message.addr(), rest, reach);
            let tail = if bounced {
                let copy = bounce.first();
                copy_bytes(in_message.cast(), copy.cast(), rest);
                copy
            } else {
                in_message
            };
            let acc = if decrypt {
                // The ciphertext hashed before it is decrypted, read through the same moves.
                let mut fin = MaskedTail::<R>::new(rest);
                let mut ct = [R::zero(); IN_FLIGHT];
                for (r, c) in ct.iter_mut().enumerate().take(nregs) {
                    let bytes = (rest - r * 16 * lanes).min(16 * lanes);
                    *c = R::load_bytes(tail.cast::<u8>().add(r * 16 * lanes), bytes);
                }
                let (hashed, with_lengths) = tail_in_registers::<R>(powers, &ct, rest, &lengths);
                let acc = if R::BYTE_MASKS {
                    // On zmm, its GHASH between the tail's rounds, as the loop's groups do
                    // theirs. On Emerald Rapids (2026-11-27, the two builds alternated, six
                    // runs each beside a busy neighbour) opening went from 0.289–0.311 to
                    // 0.283–0.286 cycles/byte at 1420 bytes with AES-128 (2000 bytes:
                    // 0.257–0.271 to 0.252–0.254) and from 0.339–0.356 to 0.329–0.333 with
                    // AES-256 against hashing it first.
                    tail_group::<R, S, _, _, NR, AFTER, true>(keys, &mut starts, tail, &hashed, groups_acc, nregs, &mut fin).lane0()
                } else {
                    // With 16 registers (xmm, ymm), before the rounds: between them, the states,
                    // the sum and the tail's registers do not fit and spill. On Zen 3's ymm
                    // (2026-11-28, each against the buffer it replaced, in one process),
                    // opening 1420 and 2000 bytes read 1.02 and 0.98 that way (one run), and
                    // 1.01–1.20 and 1.03–1.20 this way (four runs).
                    let acc = absorb_tail::<R>(hashed.h, hashed.m, groups_acc.lane0(), &ct, hashed.extra);
                    tail_group::<R, S, _, _, NR, AFTER, false>(keys, &mut starts, tail, &hashed, groups_acc, nregs, &mut fin);
                    acc
                };
                if let Some((r, n)) = fin.partial_register() {
                    fin.write_partial(tail.add(r * lanes).cast(), n, ct[r]);
                }
                if with_lengths { acc } else { absorb_block::<R>(h1, acc, &lengths) }
            } else {
                let mut fin = MaskedSealTail { tail: MaskedTail::<R>::new(rest), ct: [R::zero(); IN_FLIGHT] };
                let acc = if pending {
                    tail_group::<R, S, _, _, NR, AFTER, true>(keys, &mut starts, tail, &last_group, groups_acc, nregs, &mut fin)
                } else {
                    tail_group::<R, S, _, _, NR, AFTER, false>(keys, &mut starts, tail, &last_group, groups_acc, nregs, &mut fin)
                };
                if let Some((r, n)) = fin.tail.partial_register() {
                    let p = tail.add(r * lanes).cast::<u8>();
                    fin.ct[r] = fin.tail.write_partial(p, n, R::load_bytes(p, n));
                }
                hash_tail::<R>(powers, acc.lane0(), &fin.ct, rest, &lengths)
            };
            if bounced {
                copy_bytes(tail.cast(), in_message.cast(), rest);
                crate::ct::wipe(core::slice::from_raw_parts_mut(tail.cast::<u8>(), rest));
            }
            acc
        };
        crate::ct::wipe(halves.as_flattened_mut());
        let mut tag = [0u8; 16];
        acc.byte_reverse().xor(ek_j0).store(&mut tag);
        tag
    }
}

/// One message under `S`: the FACE table `face` (the round it caches, 0 to 2, and the table) or plain
/// CTR, from `inc32(j0)`.
pub(crate) struct Message<'a, S> {
    pub(crate) keys: &'a RoundKeys,
    /// H^n … H^1, as many as the message reads (`GhashKey::powers_for`).
    pub(crate) powers: Powers<'a>,
    pub(crate) face: Option<(usize, &'a [Block])>,
    pub(crate) j0: u128,
    pub(crate) ad: &'a [u8],
    pub(crate) data: &'a mut [u8],
    pub(crate) decrypt: bool,
    /// The loop multiplies by the schoolbook on zmm (see [`GroupProduct`]).
    pub(crate) schoolbook: bool,
    pub(crate) isa: PhantomData<S>,
}

/// [`Message`] with its rounds (`NR`) and its table's round (`AFTER`) fixed: the kernel that one
/// `#[target_feature]` entry compiles. Plain CTR is `AFTER` = 0 over `ROUND0_TABLE`, the same
/// code as FACE's round-0 table, so the two share an entry.
///
/// Why an entry per variant: with the choice made inside one entry, the compiler inlined all
/// twelve bodies (each with its loops and tails) into one function per ISA, 1.1 MB of machine
/// code on zmm, and LLVM's time and memory on a function grow faster than its size. On Zen 3
/// (2026-11-28, Rust 1.95, the dev profile) the library took 810 s to compile, with 121 million
/// page faults; with nine entries per ISA (the largest about 100 KB), 243 s. The choice is
/// made once per message either way, and the entry is a call either way. (Seal and open
/// apart as well, eighteen entries, took 332 s: more code in all.)
struct Variant<'a, S, const NR: usize, const AFTER: usize> {
    message: Message<'a, S>,
    table: &'a [Block],
}

impl<S: BlockIsa, const NR: usize, const AFTER: usize> Kernel for Variant<'_, S, NR, AFTER>
where
    S::Reg: AesRound + ClmulReg<Lane: AesRound>,
{
    type Output = Block;
    #[inline(always)]
    fn run(self) -> Block {
        let Variant { message: m, table } = self;
        // SAFETY: entered under `S`, which has both the AES and the carry-less instructions of
        // its registers and of their one-block lanes (the caller made its token).
        unsafe {
            let ctr = Counter::Be32.advance(read_u128(&m.j0), 1);
            let starts = FaceStarts::<S::Reg, AFTER>::new(m.keys, table, ctr);
            message::<S::Reg, _, S, NR, AFTER>(m, starts)
        }
    }
}

/// Runs `message` under `S`'s token, if this CPU has it: the full tag, or `None` (nothing
/// done).
pub(crate) fn seal_or_open<S: BlockIsa>(message: Message<'_, S>) -> Option<Block>
where
    S::Reg: AesRound + ClmulReg<Lane: AesRound>,
{
    let isa = S::detect()?;
    let (after, table) = match message.face {
        None => (0, &ROUND0_TABLE[..]),
        Some((after, t)) => (after, t),
    };
    macro_rules! enter {
        ($nr:literal, $after:literal) => {
            isa.enter(Variant::<S, $nr, $after> { message, table })
        };
    }
    Some(match (message.keys.rounds, after) {
        (10, 0) => enter!(10, 0),
        (10, 1) => enter!(10, 1),
        (10, _) => enter!(10, 2),
        (12, 0) => enter!(12, 0),
        (12, 1) => enter!(12, 1),
        (12, _) => enter!(12, 2),
        (_, 0) => enter!(14, 0),
        (_, 1) => enter!(14, 1),
        (_, _) => enter!(14, 2),
    })
}
