//! Key material of the vault.

use std::fmt;

use rand::RngCore;

use crate::error::StoreError;

/// The vault's two secrets: the key-encryption key (wraps per-person data keys) and
/// the HMAC key (look-up index). Both 32 bytes. Debug output never shows them.
#[derive(Clone)]
pub struct Keys {
    pub(crate) kek: [u8; 32],
    pub(crate) hmac: [u8; 32],
    /// Master keys being rotated out: they still open what they wrapped until
    /// [`crate::pii::Vault::rewrap`] has wrapped it again under `kek`.
    pub(crate) previous: Vec<[u8; 32]>,
}

impl Keys {
    pub fn new(kek: [u8; 32], hmac: [u8; 32]) -> Self {
        Self { kek, hmac, previous: Vec::new() }
    }

    /// These keys, still opening what the `previous` master keys (hex, during a rotation)
    /// wrapped.
    pub fn with_previous(mut self, previous_hex: &[&str]) -> Result<Self, StoreError> {
        for hex_key in previous_hex {
            self.previous.push(decode_key("previous master key", hex_key)?);
        }
        Ok(self)
    }

    /// The master key and then the previous ones, in the order they are tried.
    pub(crate) fn all_keks(&self) -> impl Iterator<Item = &[u8; 32]> {
        std::iter::once(&self.kek).chain(self.previous.iter())
    }

    /// A short public fingerprint of the master key (stored beside what it wrapped).
    pub fn kek_id(&self) -> String {
        kek_id(&self.kek)
    }

    /// Both keys as 64 hex characters each (as passed from configuration).
    pub fn from_hex(kek_hex: &str, hmac_hex: &str) -> Result<Self, StoreError> {
        Ok(Self {
            kek: decode_key("master key", kek_hex)?,
            hmac: decode_key("HMAC key", hmac_hex)?,
            previous: Vec::new(),
        })
    }

    /// Fixed, publicly known keys for development and tests only: anything sealed with
    /// them is readable by anyone who has this source code.
    pub fn insecure_dev() -> Self {
        Self {
            kek: *b"exa-dev-only-insecure-master-key",
            hmac: *b"exa-dev-only-insecure-hmac-key!!",
            previous: Vec::new(),
        }
    }

    /// Fresh random keys (e.g. to print for a new deployment's configuration).
    pub fn generate() -> Self {
        let mut keys = Self { kek: [0; 32], hmac: [0; 32], previous: Vec::new() };
        rand::rngs::OsRng.fill_bytes(&mut keys.kek);
        rand::rngs::OsRng.fill_bytes(&mut keys.hmac);
        keys
    }

    /// The keys as hex, in the order `from_hex` takes them.
    pub fn to_hex(&self) -> (String, String) {
        (hex::encode(self.kek), hex::encode(self.hmac))
    }
}

/// 16 hex characters of an HMAC of the key under a fixed label: tells keys apart, reveals
/// nothing of them.
pub(crate) fn kek_id(kek: &[u8; 32]) -> String {
    hex::encode(&super::crypto::labelled_hmac(kek, "exa-kek-id/v1", "")[..8])
}

fn decode_key(name: &str, hex_str: &str) -> Result<[u8; 32], StoreError> {
    let bytes = hex::decode(hex_str.trim()).map_err(|_| StoreError::Crypto(format!("{name} is not valid hex")))?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| StoreError::Crypto(format!("{name} must be 32 bytes (64 hex characters)")))
}

impl fmt::Debug for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Keys { .. }")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_validation() {
        let keys = Keys::generate();
        let (k, h) = keys.to_hex();
        let back = Keys::from_hex(&k, &h).unwrap();
        assert_eq!(back.kek, keys.kek);
        assert_eq!(back.hmac, keys.hmac);
        assert!(Keys::from_hex("zz", &h).is_err());
        assert!(Keys::from_hex(&k[..62], &h).is_err());
        assert!(Keys::from_hex(&k, &format!("{h}00")).is_err());
    }

    #[test]
    fn debug_hides_the_keys() {
        assert_eq!(format!("{:?}", Keys::insecure_dev()), "Keys { .. }");
    }
}
