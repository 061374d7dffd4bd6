//! ACE-H-256 (acehash256v1): a sponge on the ACE permutation, 8-byte rate, 32-byte digest.
//!
//! ```text
//! state ← P(0^64 ‖ 0x80 0x40 0x40 0^40 ‖ 0^192)      (the IV: h/2, r, r' in B)
//! message in 8-byte blocks, the last padded with 0x80 (a whole pad block when the length is
//!     a multiple of 8): rate ⊕= block; P
//! digest = rate ‖ P; rate ‖ P; rate ‖ P; rate
//! ```

#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};
use digest::consts::U32;
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use zeroize::Zeroize;

use super::{AceBackend, Lane, LaneJob, LaneStates, RATE, run_lockstep};
use crate::Error;


/// The state after the IV permutation: the permutation of the state whose bytes 8..11 are
/// 80 40 40 (the IV of ACE-H-256) and the rest zero. A constant, so that no lazily initialised
/// static is needed without `std`; `initial_state_is_the_permuted_iv` recomputes it.
const INITIAL_STATE: [u8; 40] = [
    0xb9, 0x7d, 0xda, 0x3f, 0x0c, 0x5f, 0x0e, 0xca, //
    0x65, 0xd1, 0x80, 0xd6, 0x49, 0xdc, 0xa1, 0x8c, //
    0x66, 0x2c, 0xd1, 0xa6, 0x70, 0x37, 0x58, 0x75, //
    0x29, 0x7d, 0xb0, 0xb0, 0x72, 0x73, 0xce, 0xa8, //
    0x99, 0x71, 0xde, 0x8a, 0x9a, 0x65, 0x72, 0x24,
];

fn initial_state() -> &'static [u8; 40] {
    &INITIAL_STATE
}

/// ACE-H-256 with the `digest` traits (`Digest`, `Update`, `FixedOutput`, `Reset`) for one
/// message at a time on the scalar backend, and [`hash_many`](Self::hash_many) for batches in
/// SIMD lanes.
#[derive(Clone)]
pub struct AceHash256 {
    states: LaneStates,
    backend: AceBackend,
    pending: [u8; RATE],
    filled: usize,
}

impl Default for AceHash256 {
    fn default() -> Self {
        Self::with_backend(AceBackend::Scalar).expect("scalar runs everywhere")
    }
}

impl AceHash256 {
    /// A hasher whose permutations run on `backend` (lane 0 only); fails when the CPU lacks it.
    pub fn with_backend(backend: AceBackend) -> Result<Self, Error> {
        let mut states = LaneStates::default();
        states.set(0, initial_state());
        Ok(AceHash256 { states, backend: backend.check()?, pending: [0; RATE], filled: 0 })
    }

    fn lane(&mut self) -> Lane<'_> {
        Lane { states: &mut self.states, index: 0 }
    }

    /// The digests of `messages`, one message per lane of the widest backend.
    /// ([`hash_many_into`](Self::hash_many_into) does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn hash_many(messages: &[&[u8]]) -> Vec<[u8; 32]> {
        Self::hash_many_with(AceBackend::widest(), messages).expect("the widest backend is available")
    }

    /// The digests of `messages`, one message per lane of `backend`.
    #[cfg(feature = "alloc")]
    pub fn hash_many_with(backend: AceBackend, messages: &[&[u8]]) -> Result<Vec<[u8; 32]>, Error> {
        let mut digests = vec![[0u8; 32]; messages.len()];
        Self::hash_many_into(backend, messages, &mut digests)?;
        Ok(digests)
    }

    /// The digest of `messages[i]` into `digests[i]`, one message per lane of `backend`; an
    /// error when `digests` does not have one entry per message or the CPU lacks `backend`.
    pub fn hash_many_into(backend: AceBackend, messages: &[&[u8]], digests: &mut [[u8; 32]]) -> Result<(), Error> {
        let backend = backend.check()?;
        if digests.len() != messages.len() {
            return Err(Error::OutputLength { inputs: messages.len(), outputs: digests.len() });
        }
        let jobs = messages.iter().zip(digests.iter_mut()).map(|(m, d)| HashJob { message: m, blocks: m.len() / RATE + 1, digest: d });
        run_lockstep(backend, jobs, |_| ());
        Ok(())
    }

    fn finish(&mut self, out: &mut [u8]) {
        let (pending, filled) = (self.pending, self.filled);
        self.lane().absorb_block(&pending[..filled]);
        // The first permutation absorbs the last block; each one after it squeezes 8 more bytes.
        for chunk in out.chunks_exact_mut(RATE) {
            self.backend.permute_checked(&mut self.states);
            chunk.copy_from_slice(&self.lane().rate());
        }
    }
}

impl Update for AceHash256 {
    fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (RATE - self.filled).min(data.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled == RATE {
                let block = self.pending;
                self.lane().absorb_block(&block);
                self.backend.permute_checked(&mut self.states);
                self.filled = 0;
            }
        }
    }
}

impl OutputSizeUser for AceHash256 {
    type OutputSize = U32;
}

impl FixedOutput for AceHash256 {
    fn finalize_into(mut self, out: &mut Output<Self>) {
        self.finish(out);
    }
}

impl Reset for AceHash256 {
    fn reset(&mut self) {
        self.states.set(0, initial_state());
        self.pending.zeroize();
        self.filled = 0;
    }
}

impl FixedOutputReset for AceHash256 {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        self.finish(out);
        self.reset();
    }
}

impl HashMarker for AceHash256 {}

impl Drop for AceHash256 {
    fn drop(&mut self) {
        self.pending.zeroize();
    }
}

/// One message's sponge schedule: `blocks` absorbing permutations, then three squeezing ones.
struct HashJob<'a> {
    message: &'a [u8],
    blocks: usize,
    digest: &'a mut [u8; 32],
}

impl LaneJob for HashJob<'_> {
    fn permutations(&self) -> usize {
        self.blocks + 3
    }

    fn step(&mut self, t: usize, lane: &mut Lane<'_>) {
        if t == 0 {
            lane.states.set(lane.index, initial_state());
        }
        if t < self.blocks {
            let block = &self.message[RATE * t..self.message.len().min(RATE * t + RATE)];
            lane.absorb_block(block);
        } else {
            let i = t - self.blocks;
            self.digest[RATE * i..RATE * i + RATE].copy_from_slice(&lane.rate());
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn initial_state_is_the_permuted_iv() {
        let mut s = [0u8; 40];
        s[8..11].copy_from_slice(&[0x80, 0x40, 0x40]);
        crate::ace::permute(&mut s);
        assert_eq!(&s, super::initial_state());
    }
}
