//! Constant-time helpers shared by the AEADs.

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
