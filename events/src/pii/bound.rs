//! What staff records keep of a person, bound to the person's own data key so that it goes
//! with their erasure (issue 26): a keyed tag that finds the person's look-ups in the audit
//! while they exist, and a note (a staff member's free-text reason) sealed beside one of their
//! fields. Once the key is deleted, nobody can compute the tag from a phone again nor open the
//! note: nothing left in the audit links back to the person.

use uuid::Uuid;

use super::crypto::{self, field_aad, labelled_hmac};
use super::{KeyRef, PiiKind, Sealed, Vault};
use crate::error::StoreError;

impl Vault {
    /// HMAC-SHA256, under `subject`'s data key, of `purpose` and the normalized `value`;
    /// `None` when the subject is gone (erased) or never existed.
    pub async fn subject_tag(
        &self,
        subject: Uuid,
        purpose: &str,
        kind: PiiKind,
        value: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let keys = self.data_keys(&[KeyRef::Subject(subject)]).await?;
        Ok(keys
            .get(&KeyRef::Subject(subject))
            .map(|(_, key)| labelled_hmac(key, &format!("tag:{purpose}:{}", kind.as_str()), &kind.normalize(value))))
    }

    /// `clear` sealed as `kind` under the key of the sealed `field` (naming the same subject or
    /// link); `None` when that key is gone (the field's person was erased).
    pub async fn seal_beside(
        &self,
        field: &serde_json::Value,
        kind: PiiKind,
        clear: &str,
    ) -> Result<Option<Sealed>, StoreError> {
        let field = Sealed::from_value(field)?;
        let keys = self.data_keys(&[field.key]).await?;
        let Some((subject, key)) = keys.get(&field.key) else { return Ok(None) };
        let (nonce, ct) = crypto::encrypt(key, &field_aad(*subject, kind), clear.as_bytes())?;
        Ok(Some(Sealed { key: field.key, kind, nonce: nonce.to_vec(), ct }))
    }
}
