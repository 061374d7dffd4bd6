//! Secrets do not outlive their heap blocks: a global allocator that looks at every block freed
//! while a test watches (on the test's own thread), and counts those that still hold what looks
//! like key material.
//!
//! "Looks like key material": a 16-byte-aligned run of 16 bytes none of which is zero. Round
//! keys, FACE tables, bitsliced states and GHASH powers are pseudo-random blocks, and a random
//! block has no zero byte with probability (255/256)^16 ≈ 94%, so a table of hundreds of
//! blocks left behind is caught for certain; a wiped block, or one holding counters and flags,
//! has zero bytes in every such run. The outputs the test keeps are allocated before watching,
//! so nothing public is freed inside the watched code.
//!
//! Grown `Vec`s free their old buffer through `dealloc` (this allocator does not override
//! `realloc`), so a buffer left behind by growth counts too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use aead::{AeadInOut, KeyInit};
use aeslab::ace::AceAe128;
use aeslab::aes::{AnyAes, BackendKind};
use aeslab::aez::Aez;
use aeslab::ctr::{Counter, DynCtr, FaceLevel, face_pays_from_blocks};
use aeslab::gcm::{Aes256Gcm, Gcm, GhashImpl};

struct Watching;

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}
static DIRTY: AtomicUsize = AtomicUsize::new(0);
static FREED: AtomicUsize = AtomicUsize::new(0);
/// The last few offending blocks, for the failure message: size × 10^6 + first dirty run ×
/// 10^3 + dirty runs.
static SIZES: [AtomicUsize; 8] = [const { AtomicUsize::new(0) }; 8];

/// Whether `bytes` has a 16-byte-aligned run with no zero byte.
fn holds_key_material(bytes: &[u8]) -> bool {
    bytes.chunks_exact(16).any(|c| c.iter().all(|&b| b != 0))
}

// SAFETY: every call goes straight to `System`; `dealloc` only reads the block it is given,
// which is still allocated then.
unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // `try_with`: the thread-local may already be gone while a thread exits.
        if WATCHING.try_with(Cell::get).unwrap_or(false) {
            FREED.fetch_add(1, Ordering::Relaxed);
            let bytes = unsafe { std::slice::from_raw_parts(ptr, layout.size()) };
            if holds_key_material(bytes) {
                let i = DIRTY.load(Ordering::Relaxed) % 8;
                let first = bytes.chunks_exact(16).position(|c| c.iter().all(|&b| b != 0)).unwrap_or(0);
                let n = bytes.chunks_exact(16).filter(|c| c.iter().all(|&b| b != 0)).count();
                SIZES[i].store(layout.size() * 1_000_000 + first * 1000 + n, Ordering::Relaxed);
                DIRTY.fetch_add(1, Ordering::Relaxed);
            }
        }
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Watching = Watching;

/// Runs `f` watched; returns (blocks freed, blocks freed that held key material).
fn watched(f: impl FnOnce()) -> (usize, usize) {
    let (freed, dirty) = (FREED.load(Ordering::Relaxed), DIRTY.load(Ordering::Relaxed));
    WATCHING.with(|w| w.set(true));
    f();
    WATCHING.with(|w| w.set(false));
    (FREED.load(Ordering::Relaxed) - freed, DIRTY.load(Ordering::Relaxed) - dirty)
}

#[test]
fn freed_blocks_hold_no_key_material() {
    // The counting is checked first: a block left with a secret in it is seen.
    let (_, dirty) = watched(|| drop(vec![0xa5u8; 64]));
    assert_eq!(dirty, 1, "the allocator sees an unwiped block");

    let key = [0x5au8; 32];
    let iv = [0x11u8; 16];
    let kinds: Vec<BackendKind> = BackendKind::available_kinds().collect();
    // Long enough for every FACE table to be built, in the stream and in GCM.
    let long = 16 * (face_pays_from_blocks(BackendKind::Table).max(2048) + 3);
    let mut data = vec![0x33u8; long];
    let mut tag = [0u8; 16];

    for &kind in &kinds {
        for key_len in [16, 24, 32] {
            let key = &key[..key_len];
            let (freed, dirty) = watched(|| {
                // The block cipher (the T-table backend boxes its decryption keys).
                drop(AnyAes::new_variable_time(kind, key).unwrap());
                // A CTR stream that builds FACE's table (boxed), at every level.
                for level in FaceLevel::ALL {
                    let mut ctr = DynCtr::new_variable_time(key, &iv, kind, level, Counter::Be128).unwrap();
                    ctr.apply_keystream(&mut data);
                    ctr.precompute();
                }
                // AES-GCM: seal, and a forged open.
                let gcm = Gcm::with_options_variable_time(key, kind, FaceLevel::Rd2p, GhashImpl::fastest(), 16).unwrap();
                tag = gcm.encrypt_in_place_detached(&iv[..12], b"ad", &mut data).unwrap();
                tag[0] ^= 1;
                assert!(gcm.decrypt_in_place_detached(&iv[..12], b"ad", &mut data, &tag).is_err());
            });
            let sizes: Vec<usize> = SIZES.iter().map(|s| s.load(Ordering::Relaxed)).collect();
            assert_eq!(dirty, 0, "{kind} AES-{}: {dirty} of {freed} freed blocks held key material {sizes:?}", key_len * 8);
        }
    }

    // AEZ (every constant-time backend; Extract hashes a key of another length than 48 bytes)
    // and ACE, through their traits, with an empty message too.
    let mut msg = vec![0x44u8; 1000];
    let mut empty: [u8; 0] = [];
    for &kind in kinds.iter().filter(|k| k.constant_time()) {
        let (freed, dirty) = watched(|| {
            let aez = Aez::with_backend(b"a key that is not 48 bytes long", kind).unwrap();
            let tag = aez.encrypt_inout_detached(&[1; 16].into(), b"ad", (&mut msg[..]).into()).unwrap();
            assert!(aez.decrypt_inout_detached(&[1; 16].into(), b"ad", (&mut msg[..]).into(), &tag).is_ok());
            let tag = aez.encrypt_inout_detached(&[1; 16].into(), b"", (&mut empty[..]).into()).unwrap();
            assert!(aez.decrypt_inout_detached(&[2; 16].into(), b"", (&mut empty[..]).into(), &tag).is_err());
        });
        assert_eq!(dirty, 0, "AEZ on {kind}: {dirty} of {freed} freed blocks held key material");
    }
    let (freed, dirty) = watched(|| {
        let ace = AceAe128::new(&[9; 16]);
        let tag = ace.encrypt_inout_detached(&[3; 16].into(), b"ad", (&mut msg[..]).into()).unwrap();
        assert!(ace.decrypt_inout_detached(&[3; 16].into(), b"ad", (&mut msg[..]).into(), &tag).is_ok());
        let gcm = Aes256Gcm::new(&key.into());
        let tag = gcm.encrypt_inout_detached(&[4; 12].into(), b"", (&mut msg[..]).into()).unwrap();
        assert!(gcm.decrypt_inout_detached(&[4; 12].into(), b"", (&mut msg[..]).into(), &tag).is_ok());
    });
    assert_eq!(dirty, 0, "ACE and Aes256Gcm: {dirty} of {freed} freed blocks held key material");
}
