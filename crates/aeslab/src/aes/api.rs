//! RustCrypto `cipher` 0.5 traits: [`Aes128`]/[`Aes192`]/[`Aes256`] (dispatching) and
//! [`AesWith`] (one named backend).

#![deny(unsafe_code)]

use core::fmt;
use core::marker::PhantomData;

use cipher::array::Array;
use cipher::consts::{U16, U24, U32};
use cipher::inout::{InOut, InOutBuf};
use cipher::{
    AlgorithmName, Block as CBlock, BlockCipherDecBackend, BlockCipherDecClosure,
    BlockCipherDecrypt, BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt,
    BlockSizeUser, Key, KeyInit, KeySizeUser, ParBlocks, ParBlocksSizeUser,
};
use zeroize::ZeroizeOnDrop;

use super::{AnyAes, Backend, BackendKind};
use crate::Error;

/// Key sizes AES accepts, as type-level byte counts.
pub trait AesKeySize: cipher::array::ArraySize + 'static {}
impl AesKeySize for U16 {}
impl AesKeySize for U24 {}
impl AesKeySize for U32 {}

/// Adapts a [`Backend`] to `cipher`'s backend traits; the batch is `ParBlocksSize`.
struct Adapter<'a, B>(&'a B);

impl<B: Backend> BlockSizeUser for Adapter<'_, B> {
    type BlockSize = U16;
}

impl<B: Backend> ParBlocksSizeUser for Adapter<'_, B> {
    type ParBlocksSize = B::Batch;
}

impl<B: Backend> BlockCipherEncBackend for Adapter<'_, B> {
    #[inline]
    fn encrypt_block(&self, block: InOut<'_, '_, CBlock<Self>>) {
        let out = block.into_out_with_copied_in();
        self.0.encrypt_blocks(core::slice::from_mut(out.as_mut()));
    }
    #[inline]
    fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let out = blocks.into_buf().into_out_with_copied_in();
        self.0.encrypt_blocks(Array::cast_slice_to_core_mut(out));
    }
    #[inline]
    fn encrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, CBlock<Self>>) {
        let out = blocks.into_out_with_copied_in();
        self.0.encrypt_blocks(Array::cast_slice_to_core_mut(out));
    }
}

impl<B: Backend> BlockCipherDecBackend for Adapter<'_, B> {
    #[inline]
    fn decrypt_block(&self, block: InOut<'_, '_, CBlock<Self>>) {
        let out = block.into_out_with_copied_in();
        self.0.decrypt_blocks(core::slice::from_mut(out.as_mut()));
    }
    #[inline]
    fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
        let out = blocks.into_buf().into_out_with_copied_in();
        self.0.decrypt_blocks(Array::cast_slice_to_core_mut(out));
    }
    #[inline]
    fn decrypt_tail_blocks(&self, blocks: InOutBuf<'_, '_, CBlock<Self>>) {
        let out = blocks.into_out_with_copied_in();
        self.0.decrypt_blocks(Array::cast_slice_to_core_mut(out));
    }
}

/// Calls the `cipher` closure `f` with the adapter of the backend `aes` holds.
macro_rules! call_with_backend {
    ((($aes:expr), ($f:ident)) $($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {
        match $aes {
            $( $(#[$cfg])* AnyAes::$variant(b) => $f.call(&Adapter(b)), )*
        }
    };
}

/// AES with a `K`-byte key on the fastest constant-time backend of this CPU
/// ([`default_backend`](super::default_backend)), or on one chosen with [`Aes::with_backend`].
#[derive(Clone)]
pub struct Aes<K: AesKeySize> {
    inner: AnyAes,
    _key: PhantomData<K>,
}

/// AES-128 on the dispatched backend.
pub type Aes128 = Aes<U16>;
/// AES-192 on the dispatched backend.
pub type Aes192 = Aes<U24>;
/// AES-256 on the dispatched backend.
pub type Aes256 = Aes<U32>;

impl<K: AesKeySize> Aes<K> {
    /// Uses the given constant-time backend; an error if this CPU lacks it, or for the
    /// variable-time `table` (see [`Aes::with_backend_variable_time`]).
    pub fn with_backend(key: &Key<Self>, kind: BackendKind) -> Result<Self, Error> {
        Ok(Aes { inner: AnyAes::new(kind, key)?, _key: PhantomData })
    }

    /// Uses the given backend, the variable-time `table` included.
    pub fn with_backend_variable_time(key: &Key<Self>, kind: BackendKind) -> Result<Self, Error> {
        Ok(Aes { inner: AnyAes::new_variable_time(kind, key)?, _key: PhantomData })
    }

    /// The backend doing the work.
    pub fn backend(&self) -> BackendKind {
        self.inner.kind()
    }

    /// The runtime-dispatched core.
    pub fn as_any(&self) -> &AnyAes {
        &self.inner
    }

    /// The runtime-dispatched core, by value.
    #[inline]
    pub fn into_any(self) -> AnyAes {
        self.inner
    }
}

impl<K: AesKeySize> KeySizeUser for Aes<K> {
    type KeySize = K;
}

impl<K: AesKeySize> KeyInit for Aes<K> {
    #[inline]
    fn new(key: &Key<Self>) -> Self {
        // The default backend is available by construction and the key length is fixed by
        // the type, so scheduling cannot fail. The `Aes` is made inside the scheduling call, in
        // the caller's variable: wrapped around the `AnyAes` it returned, it was a 264-byte
        // `memcpy` in a user's crate (where `new` inlines into the caller).
        AnyAes::new_default_wrapped(key, None, |inner, _| Aes { inner, _key: PhantomData })
    }
}

impl<K: AesKeySize> BlockSizeUser for Aes<K> {
    type BlockSize = U16;
}

impl<K: AesKeySize> BlockCipherEncrypt for Aes<K> {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        super::backend_list!([call_with_backend], (&self.inner), (f))
    }
}

impl<K: AesKeySize> BlockCipherDecrypt for Aes<K> {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        super::backend_list!([call_with_backend], (&self.inner), (f))
    }
}

impl<K: AesKeySize> AlgorithmName for Aes<K> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AES-{}", K::USIZE * 8)
    }
}

impl<K: AesKeySize> fmt::Debug for Aes<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Aes{}({}) {{ .. }}", K::USIZE * 8, self.inner.kind())
    }
}

// Every backend's key material wipes itself on drop.
impl<K: AesKeySize> ZeroizeOnDrop for Aes<K> {}

/// AES with a `K`-byte key on one specific backend `B`, e.g. `Aes128With<Ct64>`.
#[derive(Clone)]
pub struct AesWith<B: Backend, K: AesKeySize> {
    backend: B,
    _key: PhantomData<K>,
}

/// AES-128 on backend `B`, chosen at compile time.
pub type Aes128With<B> = AesWith<B, U16>;
/// AES-192 on backend `B`, chosen at compile time.
pub type Aes192With<B> = AesWith<B, U24>;
/// AES-256 on backend `B`, chosen at compile time.
pub type Aes256With<B> = AesWith<B, U32>;

impl<B: Backend, K: AesKeySize> AesWith<B, K> {
    /// Schedules `key`; an error if this CPU lacks the backend.
    pub fn try_new(key: &Key<Self>) -> Result<Self, Error> {
        Ok(AesWith { backend: B::new(key)?, _key: PhantomData })
    }

    /// The backend's scheduled key.
    pub fn backend(&self) -> &B {
        &self.backend
    }
}

impl<B: Backend, K: AesKeySize> KeySizeUser for AesWith<B, K> {
    type KeySize = K;
}

impl<B: Backend, K: AesKeySize> KeyInit for AesWith<B, K> {
    /// # Panics
    /// If this CPU lacks the backend's instructions; [`AesWith::try_new`] returns an error instead.
    fn new(key: &Key<Self>) -> Self {
        match Self::try_new(key) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        }
    }
}

impl<B: Backend, K: AesKeySize> BlockSizeUser for AesWith<B, K> {
    type BlockSize = U16;
}

impl<B: Backend, K: AesKeySize> ParBlocksSizeUser for AesWith<B, K> {
    type ParBlocksSize = B::Batch;
}

impl<B: Backend, K: AesKeySize> BlockCipherEncrypt for AesWith<B, K> {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = U16>) {
        f.call(&Adapter(&self.backend));
    }
}

impl<B: Backend, K: AesKeySize> BlockCipherDecrypt for AesWith<B, K> {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = U16>) {
        f.call(&Adapter(&self.backend));
    }
}

impl<B: Backend, K: AesKeySize> AlgorithmName for AesWith<B, K> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AES-{} ({})", K::USIZE * 8, B::NAME)
    }
}

impl<B: Backend, K: AesKeySize> ZeroizeOnDrop for AesWith<B, K> {}
