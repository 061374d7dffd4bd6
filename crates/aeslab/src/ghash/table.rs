//! The powers of H that a GHASH key keeps, and when the upper half of them is made.
//!
//! A key holds H^32 … H^1 (each times x^-1), H^k at index `POWERS − k`. Only zmm's groups (8
//! registers of 4 blocks) read past H^16, and only for a message of more than 16 blocks. So
//! the key set-up makes H^16 … H^1, and the first such message makes H^32 … H^17 (four
//! multiplies of a zmm register by H^16) and publishes them in the key for every later one.
//!
//! Why not at set-up: the powers are the end of AES-GCM's key set-up, each stage waiting for
//! the one before, and the last stage, those four registers, is 20 carry-less multiplies on a
//! multiplier that takes one every 2 cycles. On Zen 5 `Aes128Gcm::new` took 218–220 cycles
//! with it and 175–176 without, against 208–226 for aes-gcm 0.11; `Aes256Gcm::new` 233–239
//! and 198–201, against 209–212 (`bench gcm --quick`, the two builds alternated three times,
//! 2026-11-29). A key that only ever seals short messages (QUIC's headers, TLS alerts) never
//! pays them; the first longer message pays them once.
//!
//! The key is shared (`&self`, across threads), so the upper half is written at most once,
//! through one atomic byte: `ABSENT`, then `CLAIMED` by the one thread whose compare-exchange
//! moved it, which writes the powers into the key and stores `READY` (release); a reader sees
//! `READY` (acquire) before it reads them. A thread that finds them `CLAIMED` does not wait
//! for the thread that claimed them (it may be descheduled): it makes its own copy in the
//! caller's [`Spare`], used for that message and wiped after it.
//!
//! With the upper half, zmm's key makes the paired powers: H^64, H^60, …, H^36, the first
//! power of each register of a group 32 blocks ahead of another, so that a stitched loop can
//! sum two groups and reduce once (`gcm::insn`, `ByLaneAhead`). They follow H^1 in the same
//! table, are written and published with the upper half, and are read only where it is.

#![allow(unsafe_code)] // Memory shared between threads, written once; each block says why it is sound.

use core::cell::UnsafeCell;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::sync::atomic::{AtomicU8, Ordering};

use super::{Carryless, POWERS};
use crate::Block;

/// How many powers each half holds: the key set-up makes the lower half (H^16 … H^1).
pub(crate) const HALF: usize = POWERS / 2;

/// The upper half is zero: nothing has claimed it.
const ABSENT: u8 = 0;
/// One thread is writing the upper half; nobody else reads or writes it.
const CLAIMED: u8 = 1;
/// The upper half holds H^32 … H^17 and is never written again (but for the wipe on drop).
const READY: u8 = 2;

/// How many paired powers zmm's key makes with its upper half: one per zmm register of a
/// group, H^(2·POWERS − 4r) for register `r`.
pub(crate) const PAIRED: usize = POWERS / 4;

/// The powers and, right after them, the paired powers: a kernel reads the paired ones from
/// the table's pointer, `POWERS` blocks on (`Powers::paired`). (`repr(C)` with fields of
/// alignment 1: no padding between them.)
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct PowerCells {
    powers: [Block; POWERS],
    paired: [Block; PAIRED],
}

const _: () = assert!(core::mem::offset_of!(PowerCells, paired) == POWERS * 16);

/// H^32 … H^1 (and the paired powers), the upper half made once, by the first message that
/// needs it.
#[repr(C)]
pub(crate) struct PowerTable {
    cells: UnsafeCell<PowerCells>,
    upper: AtomicU8,
}

// SAFETY: through `&PowerTable` the lower half is only read (it is written through `&mut`
// alone), and the upper half is written only by the thread that moved `upper` from ABSENT to
// CLAIMED, before it stores READY with release ordering; it is read only after READY was
// loaded with acquire ordering (`full`, `clone`), and no reference to it is made before then.
unsafe impl Sync for PowerTable {}

/// The powers as the kernels read them: a table of POWERS blocks, H^k at `POWERS − k` (the
/// key's own, or a private copy), of which a message reads only the powers it asked for
/// ([`super::GhashKey::powers_for`]). A pointer, not a reference to the table, as the upper
/// half may be being written by another thread while a short message reads the lower half;
/// the kernels ask for H^k by `k` ([`Powers::power`]), as they did of the whole table.
#[derive(Clone, Copy)]
pub(crate) struct Powers<'a> {
    table: *const Block,
    /// How many are made: H^made … H^1 (16, or all).
    made: usize,
    key: PhantomData<&'a Block>,
}

impl<'a> Powers<'a> {
    /// H^k: where to load it from. Loading it is sound only for `k` at most as many as are
    /// made (what the message asked for); the address alone may be taken for any `k` (a short
    /// message's kernel takes a whole group's and never loads it).
    ///
    /// # Safety
    /// `k` is in `1..=POWERS`.
    #[inline(always)]
    pub(crate) unsafe fn power(self, k: usize) -> *const Block {
        debug_assert!((1..=POWERS).contains(&k));
        // SAFETY: inside the table of POWERS blocks (the caller's `k`).
        unsafe { self.table.add(POWERS - k) }
    }

    /// H^1, which every message reads.
    #[inline(always)]
    pub(crate) fn h1(self) -> &'a Block {
        // SAFETY: H^1 is in the lower half, made with the key and never written while shared.
        unsafe { &*self.table.add(POWERS - 1) }
    }

    /// The paired powers H^64, H^60, …, H^36 (see the module's doc), one block each: where
    /// to load them from. Loading is sound only when every power is made (a message that
    /// asked for more than H^16 on zmm).
    #[inline(always)]
    pub(crate) fn paired(self) -> *const Block {
        // SAFETY: the paired powers follow the POWERS blocks of the table (`PowerCells`, and
        // the spare's room, which has the same layout).
        unsafe { self.table.add(POWERS) }
    }

    /// The paired powers as a slice (checked: every power made), for tests.
    #[cfg(test)]
    pub(crate) fn paired_made(self) -> &'a [Block] {
        assert_eq!(self.made, POWERS, "the paired powers were not made");
        // SAFETY: made with the upper half, and they stay so while `'a` lasts.
        unsafe { core::slice::from_raw_parts(self.paired(), PAIRED) }
    }

    /// H^k … H^1 as a slice (checked: `k` at most as many as are made).
    #[inline(always)]
    pub(crate) fn last(self, k: usize) -> &'a [Block] {
        assert!(k <= self.made, "H^{k} was not made");
        // SAFETY: H^made … H^1 are written and stay so while `'a` lasts.
        unsafe { core::slice::from_raw_parts(self.table.add(POWERS - k), k) }
    }
}

/// Room the caller keeps for a private copy of all the powers, for a message that finds the
/// upper half being made by another thread: written only then, and wiped on drop if it was.
///
/// The room is the caller's bare `MaybeUninit` and this a reference to it: with the room in
/// this struct beside its flag, the compiler zeroed all 513 bytes through `memset` for every
/// message, and a 16-byte AES-GCM seal on Zen 5 went from 6.3 to 8.2–9.3 cycles/byte
/// (2026-11-29). (Passing the powers to a closure instead, made in the cold path's own frame
/// when copied, put the closure out of line, a call with its captures in memory: 16-byte
/// opens took 10.1–10.5 cycles/byte against 7.3.)
pub(crate) struct Spare<'a> {
    room: &'a mut MaybeUninit<PowerCells>,
    used: bool,
}

impl<'a> Spare<'a> {
    #[inline(always)]
    pub(crate) fn new(room: &'a mut MaybeUninit<PowerCells>) -> Spare<'a> {
        Spare { room, used: false }
    }

    #[cfg(test)]
    pub(crate) fn is_used(&self) -> bool {
        self.used
    }

    /// Out of line, like the copy it wipes: it runs only after a message found the upper half
    /// being made.
    #[inline(never)]
    #[cold]
    fn wipe(&mut self) {
        // SAFETY: `used` is set only after the whole room was written.
        let cells = unsafe { self.room.assume_init_mut() };
        crate::ct::wipe(cells.powers.as_flattened_mut());
        crate::ct::wipe(cells.paired.as_flattened_mut());
    }
}

impl Drop for Spare<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        if self.used {
            self.wipe();
        }
    }
}

impl PowerTable {
    /// A table whose upper half (indices `..HALF`) is zero, to be made by the first message
    /// that needs it, or already made (`upper_made`, for widths that do not read it).
    #[inline(always)]
    pub(crate) fn new(powers: [Block; POWERS], upper_made: bool) -> PowerTable {
        let cells = PowerCells { powers, paired: [[0; 16]; PAIRED] };
        PowerTable { cells: UnsafeCell::new(cells), upper: AtomicU8::new(if upper_made { READY } else { ABSENT }) }
    }

    /// Every power, for the wipe on drop.
    pub(crate) fn get_mut(&mut self) -> &mut [Block; POWERS] {
        &mut self.cells.get_mut().powers
    }

    /// The paired powers, for the wipe on drop.
    pub(crate) fn paired_mut(&mut self) -> &mut [Block; PAIRED] {
        &mut self.cells.get_mut().paired
    }

    /// H^16 … H^1: what the key set-up made, never written through `&self`.
    #[inline(always)]
    pub(crate) fn lower(&self) -> Powers<'_> {
        // (The pointer reaches the upper half too, but no reference to it is made.)
        Powers { table: self.cells.get().cast::<Block>().cast_const(), made: HALF, key: PhantomData }
    }

    /// Every power, once the upper half is made.
    #[inline(always)]
    fn all(&self) -> Powers<'_> {
        Powers { made: POWERS, ..self.lower() }
    }

    /// H^32 … H^1, the upper half made first by `clmul` if no message has made it: the key's
    /// own table, or, while another thread is making the key's, a private copy in `spare`.
    #[inline(always)]
    pub(crate) fn full<'a>(&'a self, clmul: Carryless, spare: &'a mut Spare<'_>) -> Powers<'a> {
        if self.upper.load(Ordering::Acquire) == READY {
            // READY, loaded with acquire ordering: the upper half is written and will not be
            // again while `self` is shared.
            self.all()
        } else {
            self.make_upper(clmul, spare)
        }
    }

    /// [`PowerTable::full`] when the upper half was not ready: out of line, as it runs once a
    /// key (or a few times, when threads race for it).
    #[inline(never)]
    #[cold]
    fn make_upper<'a>(&'a self, clmul: Carryless, spare: &'a mut Spare<'_>) -> Powers<'a> {
        let own = self.cells.get().cast::<Block>();
        match self.upper.compare_exchange(ABSENT, CLAIMED, Ordering::Acquire, Ordering::Acquire) {
            Ok(_) => {
                // SAFETY: `own` is the key's table of POWERS blocks and the paired ones; its
                // lower half holds H^16 … H^1, and only this thread touches its upper half and
                // the paired powers until READY.
                unsafe { clmul.upper_powers(own) };
                self.upper.store(READY, Ordering::Release);
                self.all()
            }
            // As in `full`: READY, loaded with acquire ordering.
            Err(READY) => self.all(),
            Err(_) => {
                // Another thread is making them: a copy of the lower half, and the upper half
                // made in the copy.
                let copy = spare.room.as_mut_ptr().cast::<Block>();
                // SAFETY: `copy` has room for POWERS blocks and the paired ones; the lower half
                // of `own` is only read while shared. `upper_powers` writes the copy's upper
                // half and paired powers from its lower half, so every block is written before
                // `used` says so.
                unsafe {
                    core::ptr::copy_nonoverlapping(own.add(HALF), copy.add(HALF), HALF);
                    clmul.upper_powers(copy);
                }
                spare.used = true;
                Powers { table: copy.cast_const(), made: POWERS, key: PhantomData }
            }
        }
    }

    /// Whether the upper half is made (a test's view).
    #[cfg(test)]
    pub(crate) fn is_ready(&self) -> bool {
        self.upper.load(Ordering::Acquire) == READY
    }

    /// A test's view of another thread making the upper half right now.
    #[cfg(test)]
    pub(crate) fn pretend_claimed(&self) {
        assert_eq!(self.upper.compare_exchange(ABSENT, CLAIMED, Ordering::AcqRel, Ordering::Acquire), Ok(ABSENT));
    }
}

impl Clone for PowerTable {
    /// The lower half, and the upper half if it is ready (else the clone makes its own).
    fn clone(&self) -> PowerTable {
        if self.upper.load(Ordering::Acquire) == READY {
            // SAFETY: READY, loaded with acquire ordering: the upper half is written and will
            // not be again while `self` is shared.
            let all: PowerCells = unsafe { *self.cells.get() };
            return PowerTable { cells: UnsafeCell::new(all), upper: AtomicU8::new(READY) };
        }
        let mut powers = [[0u8; 16]; POWERS];
        powers[HALF..].copy_from_slice(self.lower().last(HALF));
        PowerTable::new(powers, false)
    }
}
