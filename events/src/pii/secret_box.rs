//! Attempts' short-lived secrets (upstream bearer tokens, SMS codes, OAuth codes, installer
//! URLs) sealed at rest under the same master key as personal data: XChaCha20-Poly1305 with a
//! key derived from the master key for this one purpose, and the attempt and the secret's name
//! as associated data, so a value copied to another attempt or name does not open.

use std::fmt;

use super::crypto::{decrypt, encrypt, labelled_hmac, NONCE_LEN};
use super::Keys;
use crate::error::StoreError;

/// What sealed values start with (the format's version).
const PREFIX: &str = "v1.";

#[derive(Clone)]
pub struct SecretBox {
    key: [u8; 32],
    /// Derived from the previous master keys during a rotation: they still open.
    previous: Vec<[u8; 32]>,
}

impl fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

fn aad(stream: &str, name: &str) -> Vec<u8> {
    format!("exa-attempt-secret/v1|{stream}|{name}").into_bytes()
}

impl SecretBox {
    /// The box of these keys: its key is HMAC-SHA256 of the master key over a fixed label.
    pub fn from_keys(keys: &Keys) -> Self {
        let derive = |kek: &[u8; 32]| {
            let derived = labelled_hmac(kek, "exa-attempt-secrets/v1", "");
            let mut key = [0u8; 32];
            key.copy_from_slice(&derived[..32]);
            key
        };
        Self { key: derive(&keys.kek), previous: keys.previous.iter().map(derive).collect() }
    }

    /// `v1.` and the hex of nonce and ciphertext.
    pub fn seal(&self, stream: &str, name: &str, clear: &str) -> Result<String, StoreError> {
        let (nonce, ct) = encrypt(&self.key, &aad(stream, name), clear.as_bytes())?;
        let mut bytes = nonce.to_vec();
        bytes.extend_from_slice(&ct);
        Ok(format!("{PREFIX}{}", hex::encode(bytes)))
    }

    /// The clear value, or an error when it was sealed under another key, for another attempt
    /// or name, altered, or never sealed.
    pub fn open(&self, stream: &str, name: &str, stored: &str) -> Result<String, StoreError> {
        let body = stored.strip_prefix(PREFIX).ok_or_else(|| StoreError::Crypto("secret not sealed".into()))?;
        let bytes = hex::decode(body).map_err(|_| StoreError::Crypto("sealed secret is not hex".into()))?;
        if bytes.len() < NONCE_LEN {
            return Err(StoreError::Crypto("sealed secret too short".into()));
        }
        let (nonce, ct) = bytes.split_at(NONCE_LEN);
        let aad = aad(stream, name);
        let clear = std::iter::once(&self.key)
            .chain(self.previous.iter())
            .find_map(|key| decrypt(key, &aad, nonce, ct).ok())
            .ok_or_else(|| StoreError::Crypto("sealed secret does not open (wrong key or altered)".into()))?;
        String::from_utf8(clear).map_err(|_| StoreError::Crypto("sealed secret is not text".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_only_for_its_attempt_name_and_key() {
        let sealer = SecretBox::from_keys(&Keys::insecure_dev());
        let sealed = sealer.seal("cloud-1", "id_token", "eyJhbGciOi.token").expect("seals");
        assert!(sealed.starts_with("v1.") && !sealed.contains("eyJhbGciOi"));
        assert_eq!(sealer.open("cloud-1", "id_token", &sealed).expect("opens"), "eyJhbGciOi.token");
        assert!(sealer.open("cloud-2", "id_token", &sealed).is_err(), "another attempt");
        assert!(sealer.open("cloud-1", "sms_code", &sealed).is_err(), "another name");
        assert!(SecretBox::from_keys(&Keys::generate()).open("cloud-1", "id_token", &sealed).is_err(), "another key");
        assert!(sealer.open("cloud-1", "id_token", "eyJhbGciOi.token").is_err(), "a clear value is refused");
        assert_ne!(sealed, sealer.seal("cloud-1", "id_token", "eyJhbGciOi.token").expect("seals"), "fresh nonce");
    }
}
