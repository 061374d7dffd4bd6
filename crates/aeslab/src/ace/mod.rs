//! ACE (Aagaard, AlTawy, Gong, Mandal, Rohit; NIST lightweight cryptography round 2): the
//! 320-bit ACE permutation, the ACE-AE-128 AEAD ([`AceAe128`]) and the ACE-H-256 hash
//! ([`AceHash256`]).
//!
//! The permutation is written once (`permutation.rs`) over a lane word; the backends are
//! that body on `u32` (`scalar`, the reference) and on SIMD registers holding the same word of
//! 4 (`sse`), 8 (`avx2`) or 16 (`avx512`) independent states (`simd.rs`). Lanes only pay off
//! with independent messages, so the AEAD and the hash also take a batch of messages
//! ([`AceAe128::seal_many`], [`AceHash256::hash_many`]) and run them in lockstep, one
//! message per lane.

#![deny(unsafe_code)]

mod aead;
mod hash;
mod permutation;
#[cfg(target_arch = "x86_64")]
mod simd;

pub use aead::{AceAe128, AceMessage};
pub use hash::AceHash256;
pub use permutation::{LaneStates, MAX_LANES};

use crate::Error;
use crate::simd::{Isa, Portable};
#[cfg(target_arch = "x86_64")]
use crate::simd::x86::{Avx2, Avx512F, Sse2};
use permutation::Permute;

/// An implementation of the ACE permutation, selected by name (`--backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AceBackend {
    /// One state in `u32` arithmetic: the portable reference.
    Scalar,
    /// 4 states per xmm register (SSE2).
    Sse,
    /// 8 states per ymm register (AVX2).
    Avx2,
    /// 16 states per zmm register (AVX-512F).
    Avx512,
}

impl AceBackend {
    /// Every backend, available or not.
    pub const ALL: [AceBackend; 4] = [AceBackend::Scalar, AceBackend::Sse, AceBackend::Avx2, AceBackend::Avx512];

    /// Their names, in the same order.
    pub const NAMES: &'static [&'static str] = &["scalar", "sse", "avx2", "avx512"];

    /// Its name, as `--backend` takes it.
    pub fn name(self) -> &'static str {
        match self {
            AceBackend::Scalar => "scalar",
            AceBackend::Sse => "sse",
            AceBackend::Avx2 => "avx2",
            AceBackend::Avx512 => "avx512",
        }
    }

    /// The backend called `name`.
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| Error::UnknownAceBackend { name: name.into(), known: Self::NAMES })
    }

    /// Independent states it permutes at once.
    pub fn lanes(self) -> usize {
        match self {
            AceBackend::Scalar => 1,
            AceBackend::Sse => 4,
            AceBackend::Avx2 => 8,
            AceBackend::Avx512 => 16,
        }
    }

    /// The CPU features it needs, for error messages.
    pub fn requires(self) -> &'static str {
        match self {
            AceBackend::Scalar => "nothing",
            AceBackend::Sse => "x86-64 SSE2",
            AceBackend::Avx2 => "x86-64 AVX2",
            AceBackend::Avx512 => "x86-64 AVX-512F",
        }
    }

    /// Whether this CPU can run it.
    pub fn available(self) -> bool {
        match self {
            AceBackend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            AceBackend::Sse => Sse2::detect().is_some(),
            #[cfg(target_arch = "x86_64")]
            AceBackend::Avx2 => Avx2::detect().is_some(),
            #[cfg(target_arch = "x86_64")]
            AceBackend::Avx512 => Avx512F::detect().is_some(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// `self`, or an error naming what the CPU lacks.
    pub fn check(self) -> Result<Self, Error> {
        if self.available() {
            Ok(self)
        } else {
            Err(Error::BackendUnavailable { backend: self.name(), requires: self.requires() })
        }
    }

    /// The available backend with the most lanes: the fastest for batches of messages.
    pub fn widest() -> Self {
        Self::ALL.into_iter().rev().find(|b| b.available()).unwrap_or(AceBackend::Scalar)
    }

    /// Lanes `0..self.lanes()` of `states` through the permutation; an error if this CPU lacks
    /// the backend.
    pub fn permute(self, states: &mut LaneStates) -> Result<(), Error> {
        self.check()?.permute_checked(states);
        Ok(())
    }

    /// [`AceBackend::permute`] for a backend that already passed [`AceBackend::check`] (the
    /// schemes check it once, when they are built).
    pub(crate) fn permute_checked(self, states: &mut LaneStates) {
        match self {
            AceBackend::Scalar => Portable.enter(Permute::<u32> { states, isa: Portable }),
            #[cfg(target_arch = "x86_64")]
            AceBackend::Sse => {
                let isa = Sse2::detect().unwrap_or_else(|| self.missing());
                isa.enter(Permute::<simd::Xmm> { states, isa })
            }
            #[cfg(target_arch = "x86_64")]
            AceBackend::Avx2 => {
                let isa = Avx2::detect().unwrap_or_else(|| self.missing());
                isa.enter(Permute::<simd::Ymm> { states, isa })
            }
            #[cfg(target_arch = "x86_64")]
            AceBackend::Avx512 => {
                let isa = Avx512F::detect().unwrap_or_else(|| self.missing());
                isa.enter(Permute::<simd::Zmm> { states, isa })
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => self.missing(),
        }
    }

    /// Every caller checked the backend; a missing token here is a bug, not bad input.
    fn missing(self) -> ! {
        panic!("ACE backend `{}` needs {}", self.name(), self.requires())
    }
}

/// The ACE permutation on one 40-byte state (canonical byte order: A ‖ B ‖ C ‖ D ‖ E, each
/// word big-endian), with the scalar reference.
pub fn permute(state: &mut [u8; 40]) {
    let mut lanes = LaneStates::default();
    lanes.set(0, state);
    AceBackend::Scalar.permute_checked(&mut lanes);
    *state = lanes.get(0);
}

/// One state of a [`LaneStates`], seen by a sponge job between permutations.
struct Lane<'a> {
    states: &'a mut LaneStates,
    index: usize,
}

/// Bytes absorbed or squeezed per permutation by both ACE-AE-128 and ACE-H-256.
const RATE: usize = 8;

/// The rate is the high half of A (bytes 0..4) then the high half of C (16..20).
const RATE_WORDS: [usize; 2] = [0, 4];

impl Lane<'_> {
    fn word(&self, w: usize) -> u32 {
        self.states.words[w][self.index]
    }

    fn set_word(&mut self, w: usize, v: u32) {
        self.states.words[w][self.index] = v;
    }

    fn rate(&self) -> [u8; RATE] {
        let mut r = [0u8; RATE];
        r[..4].copy_from_slice(&self.word(RATE_WORDS[0]).to_be_bytes());
        r[4..].copy_from_slice(&self.word(RATE_WORDS[1]).to_be_bytes());
        r
    }

    fn set_rate(&mut self, r: &[u8; RATE]) {
        self.set_word(RATE_WORDS[0], u32::from_be_bytes(r[..4].try_into().expect("4 bytes")));
        self.set_word(RATE_WORDS[1], u32::from_be_bytes(r[4..].try_into().expect("4 bytes")));
    }

    /// XORs `block` (at most 8 bytes) into the rate. A block shorter than the rate is a
    /// message's last: the 0x80 pad byte is XORed in right after it.
    fn absorb_block(&mut self, block: &[u8]) {
        let mut r = self.rate();
        for (r, d) in r.iter_mut().zip(block) {
            *r ^= d;
        }
        if let Some(pad) = r.get_mut(block.len()) {
            *pad ^= 0x80;
        }
        self.set_rate(&r);
    }

    /// XORs the domain separator into the last byte of the state (the low byte of E).
    fn domain(&mut self, d: u8) {
        let e1 = self.word(9);
        self.set_word(9, e1 ^ d as u32);
    }
}

/// A sponge computation on one lane: what to do to the state before each permutation.
trait LaneJob {
    /// Permutations this job needs.
    fn permutations(&self) -> usize;
    /// Acts on the lane before permutation `t`; `t == permutations()` is the final read-out.
    fn step(&mut self, t: usize, lane: &mut Lane<'_>);
}

/// Runs `jobs` `backend.lanes()` at a time, each batch in lockstep: one permutation call
/// advances every lane; lanes whose job is finished idle until the longest one is done. A batch
/// is held on the stack (at most [`MAX_LANES`] jobs), so nothing allocates; `done` gets each
/// job back, in order, once its batch has run.
fn run_lockstep<J: LaneJob>(backend: AceBackend, jobs: impl IntoIterator<Item = J>, mut done: impl FnMut(J)) {
    let lanes = backend.lanes().min(MAX_LANES);
    let mut states = LaneStates::default();
    let mut jobs = jobs.into_iter();
    loop {
        let mut slots: [Option<J>; MAX_LANES] = [const { None }; MAX_LANES];
        let mut n = 0;
        while n < lanes {
            let Some(job) = jobs.next() else { break };
            slots[n] = Some(job);
            n += 1;
        }
        if n == 0 {
            return;
        }
        let batch = &mut slots[..n];
        let total = batch.iter().flatten().map(|j| j.permutations()).max().unwrap_or(0);
        for t in 0..=total {
            for (index, slot) in batch.iter_mut().enumerate() {
                if let Some(job) = slot
                    && t <= job.permutations()
                {
                    job.step(t, &mut Lane { states: &mut states, index });
                }
            }
            if t < total {
                backend.permute_checked(&mut states);
            }
        }
        for job in batch.iter_mut().filter_map(Option::take) {
            done(job);
        }
        if n < lanes {
            return;
        }
    }
}
