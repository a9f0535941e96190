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
}

impl Keys {
    pub fn new(kek: [u8; 32], hmac: [u8; 32]) -> Self {
        Self { kek, hmac }
    }

    /// Both keys as 64 hex characters each (as passed from configuration).
    pub fn from_hex(kek_hex: &str, hmac_hex: &str) -> Result<Self, StoreError> {
        Ok(Self {
            kek: decode_key("master key", kek_hex)?,
            hmac: decode_key("HMAC key", hmac_hex)?,
        })
    }

    /// Fixed, publicly known keys for development and tests only: anything sealed with
    /// them is readable by anyone who has this source code.
    pub fn insecure_dev() -> Self {
        Self {
            kek: *b"exa-dev-only-insecure-master-key",
            hmac: *b"exa-dev-only-insecure-hmac-key!!",
        }
    }

    /// Fresh random keys (e.g. to print for a new deployment's configuration).
    pub fn generate() -> Self {
        let mut keys = Self {
            kek: [0; 32],
            hmac: [0; 32],
        };
        rand::rngs::OsRng.fill_bytes(&mut keys.kek);
        rand::rngs::OsRng.fill_bytes(&mut keys.hmac);
        keys
    }

    /// The keys as hex, in the order `from_hex` takes them.
    pub fn to_hex(&self) -> (String, String) {
        (hex::encode(self.kek), hex::encode(self.hmac))
    }
}

fn decode_key(name: &str, hex_str: &str) -> Result<[u8; 32], StoreError> {
    let bytes = hex::decode(hex_str.trim())
        .map_err(|_| StoreError::Crypto(format!("{name} is not valid hex")))?;
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
