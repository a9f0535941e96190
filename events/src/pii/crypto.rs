//! Primitive operations: XChaCha20-Poly1305 (random 24-byte nonces are safe to draw at
//! random) and HMAC-SHA256.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;
use uuid::Uuid;

use super::PiiKind;
use crate::error::StoreError;

pub(crate) const NONCE_LEN: usize = 24;

pub(crate) fn random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut key);
    key
}

/// Encrypts with a fresh random nonce; returns (nonce, ciphertext).
pub(crate) fn encrypt(key: &[u8; 32], aad: &[u8], clear: &[u8]) -> Result<([u8; NONCE_LEN], Vec<u8>), StoreError> {
    let mut nonce = [0u8; NONCE_LEN];
    rand::rngs::OsRng.fill_bytes(&mut nonce);
    let ct = XChaCha20Poly1305::new(key.into())
        .encrypt(XNonce::from_slice(&nonce), Payload { msg: clear, aad })
        .map_err(|_| StoreError::Crypto("encryption failed".into()))?;
    Ok((nonce, ct))
}

pub(crate) fn decrypt(key: &[u8; 32], aad: &[u8], nonce: &[u8], ct: &[u8]) -> Result<Vec<u8>, StoreError> {
    if nonce.len() != NONCE_LEN {
        return Err(StoreError::Crypto("bad nonce length".into()));
    }
    XChaCha20Poly1305::new(key.into())
        .decrypt(XNonce::from_slice(nonce), Payload { msg: ct, aad })
        .map_err(|_| StoreError::Crypto("decryption failed (wrong key or tampered data)".into()))
}

/// `nonce || ciphertext` of a data key under the KEK, bound to its subject.
pub(crate) fn wrap_key(kek: &[u8; 32], subject: Uuid, data_key: &[u8; 32]) -> Result<Vec<u8>, StoreError> {
    let (nonce, ct) = encrypt(kek, &wrap_aad(subject), data_key)?;
    let mut out = nonce.to_vec();
    out.extend_from_slice(&ct);
    Ok(out)
}

pub(crate) fn unwrap_key(kek: &[u8; 32], subject: Uuid, wrapped: &[u8]) -> Result<[u8; 32], StoreError> {
    if wrapped.len() < NONCE_LEN {
        return Err(StoreError::Crypto("wrapped key too short".into()));
    }
    let (nonce, ct) = wrapped.split_at(NONCE_LEN);
    let key = decrypt(kek, &wrap_aad(subject), nonce, ct)?;
    <[u8; 32]>::try_from(key.as_slice()).map_err(|_| StoreError::Crypto("bad data key length".into()))
}

/// [`unwrap_key`] with the master key, then each previous one (a rotation under way).
pub(crate) fn unwrap_key_any(keys: &super::Keys, subject: Uuid, wrapped: &[u8]) -> Result<[u8; 32], StoreError> {
    let mut last = StoreError::Crypto("no master key".into());
    for kek in keys.all_keks() {
        match unwrap_key(kek, subject, wrapped) {
            Ok(key) => return Ok(key),
            Err(error) => last = error,
        }
    }
    Err(last)
}

fn wrap_aad(subject: Uuid) -> Vec<u8> {
    let mut aad = b"exa-pii-key/v1|".to_vec();
    aad.extend_from_slice(subject.as_bytes());
    aad
}

/// Associated data of a sealed field: a ciphertext moved to another subject or kind
/// fails to open.
pub(crate) fn field_aad(subject: Uuid, kind: PiiKind) -> Vec<u8> {
    let mut aad = b"exa-pii-field/v1|".to_vec();
    aad.extend_from_slice(subject.as_bytes());
    aad.push(b'|');
    aad.extend_from_slice(kind.as_str().as_bytes());
    aad
}

/// Keyed look-up hash of an already normalized value.
pub(crate) fn lookup_hmac(hmac_key: &[u8; 32], kind: PiiKind, normalized: &str) -> Vec<u8> {
    labelled_hmac(hmac_key, kind.as_str(), normalized)
}

/// HMAC-SHA256 of `label`, a zero byte and `value`: the label keeps tags made for one purpose
/// from matching tags made for another.
pub(crate) fn labelled_hmac(hmac_key: &[u8; 32], label: &str, value: &str) -> Vec<u8> {
    labelled_mac(hmac_key, label, value).finalize().into_bytes().to_vec()
}

/// [`labelled_hmac`] before it is finished, to finish or to check a tag against.
pub(crate) fn labelled_mac(hmac_key: &[u8; 32], label: &str, value: &str) -> Hmac<Sha256> {
    // `new_from_slice` accepts any key length for HMAC; 32 bytes cannot fail.
    let mut mac = match <Hmac<Sha256> as Mac>::new_from_slice(hmac_key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts keys of any length"),
    };
    mac.update(label.as_bytes());
    mac.update(&[0]);
    mac.update(value.as_bytes());
    mac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_round_trip_is_bound_to_subject() {
        let kek = random_key();
        let dk = random_key();
        let s = Uuid::new_v4();
        let w = wrap_key(&kek, s, &dk).unwrap();
        assert_eq!(unwrap_key(&kek, s, &w).unwrap(), dk);
        assert!(unwrap_key(&kek, Uuid::new_v4(), &w).is_err());
        assert!(unwrap_key(&random_key(), s, &w).is_err());
    }

    #[test]
    fn hmac_depends_on_key_and_kind() {
        let k = [7u8; 32];
        let a = lookup_hmac(&k, PiiKind::Phone, "11987654321");
        assert_eq!(a, lookup_hmac(&k, PiiKind::Phone, "11987654321"));
        assert_ne!(a, lookup_hmac(&k, PiiKind::CpfCnpj, "11987654321"));
        assert_ne!(a, lookup_hmac(&[8u8; 32], PiiKind::Phone, "11987654321"));
        // A staff member's e-mail and a visitor's same e-mail are looked up apart (issue 26).
        assert_ne!(
            lookup_hmac(&k, PiiKind::Email, "ana@exa.com.br"),
            lookup_hmac(&k, PiiKind::StaffEmail, "ana@exa.com.br")
        );
        assert_eq!(a.len(), 32);
    }
}
