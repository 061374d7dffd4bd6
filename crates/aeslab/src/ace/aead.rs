//! ACE-AE-128 (aceae128v1): a duplex sponge on the ACE permutation with an 8-byte rate.
//!
//! ```text
//! state ← K[0..8] ‖ N[0..8] ‖ K[8..16] ‖ 0^64 ‖ N[8..16];  P
//! rate ⊕= K[0..8]; P;  rate ⊕= K[8..16]; P
//! AD (only when non-empty): 8-byte blocks, the last padded with 0x80 (a whole pad block
//!     when the length is a multiple of 8), each with domain 1 in the last state byte; P
//! message: the same blocks, always at least the pad block, domain 2; C = rate after ⊕ M; P
//! rate ⊕= K[0..8]; P;  rate ⊕= K[8..16]; P;  tag = A ‖ C
//! ```

#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};
use cipher::consts::U16;
use cipher::{KeyInit, KeySizeUser};
use zeroize::{Zeroize, Zeroizing};

use super::{AceBackend, Lane, LaneJob, RATE, run_lockstep};
use crate::aead_glue::DetachedAead;
use crate::Error;
use crate::ct::constant_time_eq;

const DOMAIN_AD: u8 = 1;
const DOMAIN_MESSAGE: u8 = 2;

/// ACE-AE-128: 16-byte key, 16-byte nonce, 16-byte tag.
///
/// One message at a time runs on the scalar backend (a single state cannot fill SIMD lanes);
/// [`seal_many`](Self::seal_many) and [`open_many`](Self::open_many) run one message per lane
/// on the widest backend the CPU has. [`with_backend`](Self::with_backend) forces one backend
/// for both.
#[derive(Clone)]
pub struct AceAe128 {
    key: Zeroizing<[u8; 16]>,
    forced: Option<AceBackend>,
}

/// One message of a batch, sealed or opened in place.
pub struct AceMessage<'a> {
    /// The 16-byte nonce (public; never reused under one key).
    pub nonce: [u8; 16],
    /// Associated data: authenticated, not encrypted.
    pub ad: &'a [u8],
    /// The plaintext, replaced by the ciphertext (seal), or the other way round (open).
    pub buffer: &'a mut [u8],
    /// Written by seal; read (and checked) by open.
    pub tag: [u8; 16],
}

impl AceAe128 {
    /// ACE-AE-128 under `key`; one message runs on the scalar backend, a batch on the widest the CPU has.
    pub fn new(key: &[u8; 16]) -> Self {
        AceAe128 { key: Zeroizing::new(*key), forced: None }
    }

    /// A cipher that runs everything on `backend`; fails when the CPU lacks it.
    pub fn with_backend(key: &[u8; 16], backend: AceBackend) -> Result<Self, Error> {
        Ok(AceAe128 { key: Zeroizing::new(*key), forced: Some(backend.check()?) })
    }

    fn backend_for(&self, messages: usize) -> AceBackend {
        match self.forced {
            Some(b) => b,
            None if messages <= 1 => AceBackend::Scalar,
            None => AceBackend::widest(),
        }
    }

    /// Ciphertext ‖ tag. ([`seal_many`](Self::seal_many) with one message does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn seal(&self, nonce: &[u8; 16], ad: &[u8], plaintext: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(plaintext.len() + 16);
        out.extend_from_slice(plaintext);
        let mut msg = AceMessage { nonce: *nonce, ad, buffer: &mut out[..], tag: [0; 16] };
        self.seal_many(core::slice::from_mut(&mut msg));
        let tag = msg.tag;
        out.extend_from_slice(&tag);
        out
    }

    /// The plaintext of ciphertext ‖ tag, or an error (and nothing else) if it does not
    /// authenticate. ([`open_many_into`](Self::open_many_into) does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn open(&self, nonce: &[u8; 16], ad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Error> {
        let Some(body_len) = sealed.len().checked_sub(16) else {
            return Err(Error::CiphertextTooShort { len: sealed.len(), tag: 16 });
        };
        let mut out = sealed[..body_len].to_vec();
        let tag = sealed[body_len..].try_into().expect("16 bytes");
        self.open_one(*nonce, ad, &mut out, tag)?;
        Ok(out)
    }

    /// Opens one message in place (a batch of one): `Err(AuthenticationFailed)`, with `buffer`
    /// wiped, when the tag does not match.
    fn open_one(&self, nonce: [u8; 16], ad: &[u8], buffer: &mut [u8], tag: [u8; 16]) -> Result<(), Error> {
        let mut msg = AceMessage { nonce, ad, buffer, tag };
        let mut verdict = [Ok(())];
        self.open_many_into(core::slice::from_mut(&mut msg), &mut verdict)?;
        let [verdict] = verdict;
        verdict
    }

    /// Seals every message in place and writes its tag, one message per lane.
    pub fn seal_many(&self, messages: &mut [AceMessage<'_>]) {
        let backend = self.backend_for(messages.len());
        let jobs = messages.iter_mut().map(|m| AeadJob::new(&self.key, m, false));
        run_lockstep(backend, jobs, |job| job.message.tag = job.tag);
    }

    /// Opens every message in place. A message whose tag does not match gets
    /// `Err(AuthenticationFailed)` and its buffer wiped. ([`open_many_into`](Self::open_many_into)
    /// does not allocate.)
    #[cfg(feature = "alloc")]
    pub fn open_many(&self, messages: &mut [AceMessage<'_>]) -> Vec<Result<(), Error>> {
        let mut verdicts = vec![Ok(()); messages.len()];
        self.open_many_into(messages, &mut verdicts).expect("one verdict per message");
        verdicts
    }

    /// Opens every message in place and writes its verdict to the same index of `verdicts`: a
    /// message whose tag does not match gets `Err(AuthenticationFailed)` and its buffer wiped.
    /// An error, with nothing opened, when `verdicts` does not have one entry per message.
    pub fn open_many_into(&self, messages: &mut [AceMessage<'_>], verdicts: &mut [Result<(), Error>]) -> Result<(), Error> {
        if verdicts.len() != messages.len() {
            return Err(Error::OutputLength { inputs: messages.len(), outputs: verdicts.len() });
        }
        let backend = self.backend_for(messages.len());
        let jobs = messages.iter_mut().map(|m| AeadJob::new(&self.key, m, true));
        let mut verdicts = verdicts.iter_mut();
        run_lockstep(backend, jobs, |job| {
            let verdict = if constant_time_eq(&job.tag, &job.message.tag) {
                Ok(())
            } else {
                job.message.buffer.zeroize();
                Err(Error::AuthenticationFailed)
            };
            if let Some(slot) = verdicts.next() {
                *slot = verdict;
            }
        });
        Ok(())
    }
}

/// One message's sponge schedule (see the module docs).
struct AeadJob<'k, 'm, 'b> {
    key: &'k [u8; 16],
    message: &'b mut AceMessage<'m>,
    decrypt: bool,
    ad_blocks: usize,
    message_blocks: usize,
    tag: [u8; 16],
}

impl<'k, 'm, 'b> AeadJob<'k, 'm, 'b> {
    fn new(key: &'k [u8; 16], message: &'b mut AceMessage<'m>, decrypt: bool) -> Self {
        let ad_blocks = if message.ad.is_empty() { 0 } else { message.ad.len() / RATE + 1 };
        let message_blocks = message.buffer.len() / RATE + 1;
        AeadJob { key, message, decrypt, ad_blocks, message_blocks, tag: [0; 16] }
    }
}

impl Drop for AeadJob<'_, '_, '_> {
    fn drop(&mut self) {
        self.tag.zeroize();
    }
}

impl LaneJob for AeadJob<'_, '_, '_> {
    fn permutations(&self) -> usize {
        3 + self.ad_blocks + self.message_blocks + 2
    }

    fn step(&mut self, t: usize, lane: &mut Lane<'_>) {
        let (k0, k1) = self.key.split_at(8);
        let ad_end = 3 + self.ad_blocks;
        let message_end = ad_end + self.message_blocks;
        match t {
            0 => {
                let n = &self.message.nonce;
                let mut init = [0u8; 40];
                init[..8].copy_from_slice(k0);
                init[8..16].copy_from_slice(&n[..8]);
                init[16..24].copy_from_slice(k1);
                init[32..].copy_from_slice(&n[8..]);
                lane.states.set(lane.index, &init);
                init.zeroize();
            }
            1 => lane.absorb_block(k0),
            2 => lane.absorb_block(k1),
            t if t < ad_end => {
                let j = t - 3;
                let block = &self.message.ad[RATE * j..self.message.ad.len().min(RATE * j + RATE)];
                lane.absorb_block(block);
                lane.domain(DOMAIN_AD);
            }
            t if t < message_end => {
                let j = t - ad_end;
                let end = self.message.buffer.len().min(RATE * j + RATE);
                let block = &mut self.message.buffer[RATE * j..end];
                let mut rate = lane.rate();
                for (r, b) in rate.iter_mut().zip(block.iter_mut()) {
                    if self.decrypt {
                        // The ciphertext byte replaces the rate byte; the plaintext is their XOR.
                        let c = *b;
                        *b ^= *r;
                        *r = c;
                    } else {
                        *r ^= *b;
                        *b = *r;
                    }
                }
                if block.len() < RATE {
                    rate[block.len()] ^= 0x80;
                }
                lane.set_rate(&rate);
                lane.domain(DOMAIN_MESSAGE);
            }
            t if t == message_end => lane.absorb_block(k0),
            t if t == message_end + 1 => lane.absorb_block(k1),
            _ => {
                // The tag is A ‖ C.
                let state = lane.states.get(lane.index);
                self.tag[..8].copy_from_slice(&state[..8]);
                self.tag[8..].copy_from_slice(&state[16..24]);
            }
        }
    }
}

// RustCrypto `aead` 0.6: 16-byte nonce, 16-byte tag appended.

impl KeySizeUser for AceAe128 {
    type KeySize = U16;
}

impl KeyInit for AceAe128 {
    fn new(key: &cipher::Key<Self>) -> Self {
        AceAe128::new(&(*key).into())
    }
}

crate::aead_glue::aead_in_out!([] AceAe128, U16);

impl DetachedAead for AceAe128 {
    fn seal_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], aead::Error> {
        let nonce = nonce.try_into().map_err(|_| aead::Error)?;
        let mut msg = AceMessage { nonce, ad, buffer: buf, tag: [0; 16] };
        self.seal_many(core::slice::from_mut(&mut msg));
        Ok(msg.tag)
    }

    fn open_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8; 16]) -> Result<(), aead::Error> {
        let nonce = nonce.try_into().map_err(|_| aead::Error)?;
        self.open_one(nonce, ad, buf, *tag).map_err(|_| aead::Error)
    }
}
