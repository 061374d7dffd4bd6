//! The RustCrypto `aead` 0.6 glue the three AEADs share (AES-GCM, AEZ, ACE-AE-128). Each
//! implements [`DetachedAead`] — seal or open a buffer in place with a 16-byte tag kept
//! apart — and [`aead_in_out!`] writes the `AeadCore` and `AeadInOut` impls that call
//! straight through to it: no copy, no allocation, the tag after the ciphertext.

/// Sealing and opening in place with a detached 16-byte tag: what `aead_in_out!` calls.
pub(crate) trait DetachedAead {
    /// Encrypts `buf` in place and returns the tag.
    fn seal_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<[u8; 16], aead::Error>;

    /// Checks `tag` and decrypts `buf` in place. On failure `buf` releases no plaintext.
    fn open_detached(&self, nonce: &[u8], ad: &[u8], buf: &mut [u8], tag: &[u8; 16]) -> Result<(), aead::Error>;
}

/// `aead_in_out!([generics] Type, NonceSize)`: `AeadCore` (the nonce size given, a 16-byte
/// tag after the ciphertext) and `AeadInOut` through the type's [`DetachedAead`].
macro_rules! aead_in_out {
    ([$($generics:tt)*] $ty:ty, $nonce:ty) => {
        impl<$($generics)*> aead::AeadCore for $ty {
            type NonceSize = $nonce;
            type TagSize = cipher::consts::U16;
            const TAG_POSITION: aead::TagPosition = aead::TagPosition::Postfix;
        }

        impl<$($generics)*> aead::AeadInOut for $ty {
            fn encrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: cipher::inout::InOutBuf<'_, '_, u8>,
            ) -> aead::Result<aead::Tag<Self>> {
                let buf = buffer.into_out_with_copied_in();
                $crate::aead_glue::DetachedAead::seal_detached(self, nonce, associated_data, buf).map(Into::into)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: cipher::inout::InOutBuf<'_, '_, u8>,
                tag: &aead::Tag<Self>,
            ) -> aead::Result<()> {
                let buf = buffer.into_out_with_copied_in();
                $crate::aead_glue::DetachedAead::open_detached(self, nonce, associated_data, buf, &(*tag).into())
            }
        }
    };
}
pub(crate) use aead_in_out;
