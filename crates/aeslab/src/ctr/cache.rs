//! The FACE cache, computed once for every backend with the backend's own first rounds.
//!
//! `S_r(base | x) = C_r(base) ⊕ T_r[x]` (see the module docs). With `x0 = 0`:
//! `C_r = S_r(base | 0)` and `T_r[x] = S_r(base | x) ⊕ S_r(base | 0)`. `T_r[x]` depends only on
//! the key and counter bytes 0, 5, 10 and 15, so any `base` with the right bytes 0, 5, 10
//! gives the same table.

use zeroize::Zeroize;

use super::FaceBackend;
use crate::Block;

/// `C_r` for one segment (`c[r]` is filled for the rounds the level uses).
#[derive(Clone, Default)]
pub(crate) struct Segment {
    pub c: [Block; 3],
}

impl Zeroize for Segment {
    fn zeroize(&mut self) {
        self.c.zeroize();
    }
}

/// The segment constants for `base` (byte 15 clear): one block through the first rounds.
pub(crate) fn segment<B: FaceBackend>(backend: &B, base: u128, rounds: &[usize]) -> Segment {
    let mut seg = Segment::default();
    for &r in rounds {
        seg.c[r] = base.to_be_bytes();
        backend.head(core::slice::from_mut(&mut seg.c[r]), r);
    }
    seg
}

/// `T_r` for the key and bytes 0, 5, 10 of `ctr`: 256 blocks through the first rounds.
pub(crate) fn table<B: FaceBackend>(backend: &B, ctr: u128, r: usize) -> Vec<Block> {
    let base = ctr & !0xff;
    let mut t: Vec<Block> = (0..256u128).map(|x| (base | x).to_be_bytes()).collect();
    backend.head(&mut t, r);
    let s0 = t[0];
    for e in t.iter_mut() {
        for (b, z) in e.iter_mut().zip(s0) {
            *b ^= z;
        }
    }
    t
}
