//! What every fuzz target shares: the entry point, and how a case draws lengths and bytes
//! from the fuzzer's input. Each target includes it with `mod common;`.
//!
//! Lengths decide which code runs (a block's tail, a group's tail, the short-message path),
//! so a case draws them from the input and short ones often. The bytes of AD and messages are
//! filled from an 8-byte seed of the input, not drawn byte by byte: a case drawing 37 bytes of
//! AD from the input needed an input that long before the message's length was even read, and
//! libFuzzer's inputs rarely were. In gcm's first version a fault planted in the library at
//! exactly 37 bytes of AD was not found in 138 390 cases.

// Not every target uses every helper.
#![allow(dead_code)]

use arbitrary::{Result, Unstructured};

/// The fuzz entry point: one case per input through `one_case(&mut Unstructured) ->
/// arbitrary::Result<()>`. A case that runs out of input ends early with `Err`, which is not a
/// failure; a failure is a panic.
macro_rules! fuzz_cases {
    ($one_case:path) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            let _ = $one_case(&mut arbitrary::Unstructured::new(data));
        });
    };
}
pub(crate) use fuzz_cases;

/// The lengths up to which [`length`] draws three cases in four: a few blocks and every tail
/// of them.
pub const SHORT: usize = 80;

/// A length in `0..=max`, at most [`SHORT`] three times in four.
pub fn length(u: &mut Unstructured, max: usize) -> Result<usize> {
    if max > SHORT && u.ratio(1u8, 4u8)? { u.int_in_range(0..=max) } else { u.int_in_range(0..=max.min(SHORT)) }
}

/// `len` bytes that vary with the input: an 8-byte seed from it, spread by SplitMix64.
pub fn filled(u: &mut Unstructured, len: usize) -> Result<Vec<u8>> {
    let mut state: u64 = u.arbitrary()?;
    let mut out = Vec::with_capacity(len.next_multiple_of(8));
    while out.len() < len {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    Ok(out)
}

/// Up to `max` bytes: a [`length`], then [`filled`].
pub fn bytes(u: &mut Unstructured, max: usize) -> Result<Vec<u8>> {
    let len = length(u, max)?;
    filled(u, len)
}
