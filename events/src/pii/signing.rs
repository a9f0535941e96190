//! A key that signs what the portal hands out and reads back (a cookie's pass): HMAC-SHA-256
//! under a label, so a tag made for one purpose never checks for another. The caller keeps a
//! prefix of the tag; the check compares it in constant time.

use super::crypto::labelled_mac;

/// The shortest tag a check accepts (bytes; 128 bits): a shorter one could be guessed.
pub const SHORTEST_TAG: usize = 16;

/// A 32-byte signing key (see [`super::Vault::signing_key`]).
#[derive(Clone)]
pub struct SigningKey([u8; 32]);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(..)")
    }
}

impl SigningKey {
    pub fn new(secret: [u8; 32]) -> Self {
        Self(secret)
    }

    /// The first `bytes` of the tag of `message` under `label` (at most 32).
    pub fn sign(&self, label: &str, message: &str, bytes: usize) -> Vec<u8> {
        use hmac::Mac;
        let tag = labelled_mac(&self.0, label, message).finalize().into_bytes();
        tag[..bytes.min(tag.len())].to_vec()
    }

    /// Whether `tag` is a prefix, at least [`SHORTEST_TAG`] long, of the tag of `message` under
    /// `label`; compared in constant time.
    pub fn verifies(&self, label: &str, message: &str, tag: &[u8]) -> bool {
        use hmac::Mac;
        tag.len() >= SHORTEST_TAG && labelled_mac(&self.0, label, message).verify_truncated_left(tag).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_checks_for_its_key_label_and_message_only() {
        let key = SigningKey::new([7; 32]);
        let tag = key.sign("pass", "abc.1.2", 16);
        assert_eq!(tag.len(), 16);
        assert!(key.verifies("pass", "abc.1.2", &tag));
        assert!(!key.verifies("pass", "abc.1.3", &tag));
        assert!(!key.verifies("other", "abc.1.2", &tag));
        assert!(!SigningKey::new([8; 32]).verifies("pass", "abc.1.2", &tag));
    }

    #[test]
    fn a_tag_shorter_than_sixteen_bytes_never_checks() {
        let key = SigningKey::new([7; 32]);
        let tag = key.sign("pass", "abc", 32);
        assert!(key.verifies("pass", "abc", &tag));
        assert!(key.verifies("pass", "abc", &tag[..16]));
        assert!(!key.verifies("pass", "abc", &tag[..15]));
        assert!(!key.verifies("pass", "abc", &[]));
    }

    #[test]
    fn a_full_tag_is_the_labelled_hmac_the_vault_tags_with() {
        let key = SigningKey::new([7; 32]);
        assert_eq!(key.sign("tag:x", "v", 32), super::super::crypto::labelled_hmac(&[7; 32], "tag:x", "v"));
    }
}
