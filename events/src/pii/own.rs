//! The attempt's own subject (what belongs to the attempt rather than to a person found again
//! by look-up: device names, licences, serials), found or created, linked and its key read back
//! in one statement (issue 24: it was a look-up, an insert, a link and a key read).

use sqlx::{PgConnection, Row};
use uuid::Uuid;

use super::crypto::{self, field_aad};
use super::vault::{StreamLink, Vault};
use super::{KeyRef, PiiKind, Sealed};
use crate::error::StoreError;
use crate::StreamId;

/// The stream `$1`'s own subject (linked to it, and found by no look-up), or a new one (`$2`
/// with the wrapped key `$3` under master key `$4`) linked to it: its link and wrapped key.
/// The stream's lock, held by every writer of it, keeps two writers from creating two.
const FIND_OR_CREATE_OWN: &str = "\
WITH existing AS (
    SELECT l.subject_id, l.link_id, s.wrapped_key
      FROM pii_stream_links l JOIN pii_subjects s USING (subject_id)
     WHERE l.stream_id = $1 AND NOT EXISTS (SELECT 1 FROM pii_lookup k WHERE k.subject_id = l.subject_id)
     ORDER BY l.linked_at, l.link_id LIMIT 1
), new_subject AS (
    INSERT INTO pii_subjects (subject_id, wrapped_key, kek_id)
    SELECT $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM existing)
    RETURNING subject_id, wrapped_key
), new_link AS (
    INSERT INTO pii_stream_links (subject_id, stream_id) SELECT subject_id, $1 FROM new_subject
    RETURNING subject_id, link_id
)
SELECT subject_id, link_id, wrapped_key FROM existing
UNION ALL
SELECT n.subject_id, l.link_id, n.wrapped_key FROM new_subject n JOIN new_link l USING (subject_id)";

impl Vault {
    /// The attempt's own subject, linked to `stream`, and its data key, in the caller's
    /// transaction: created on first need. An erasure forgets it with the attempt, when the
    /// attempt is the erased person's (it proved their phone).
    pub async fn attempt_key_in(
        &self,
        conn: &mut PgConnection,
        stream: &StreamId,
    ) -> Result<(StreamLink, [u8; 32]), StoreError> {
        let generation = self.opened.generation();
        let candidate = Uuid::new_v4();
        let fresh = crypto::random_key();
        let wrapped = crypto::wrap_key(&self.keys.kek, candidate, &fresh)?;
        let row = sqlx::query(FIND_OR_CREATE_OWN)
            .bind(stream.as_str())
            .bind(candidate)
            .bind(&wrapped)
            .bind(self.keys.kek_id())
            .fetch_one(&mut *conn)
            .await?;
        let subject: Uuid = row.try_get("subject_id")?;
        let link = StreamLink { subject, link_id: row.try_get("link_id")? };
        let key = if subject == candidate {
            fresh
        } else {
            crypto::unwrap_key_any(&self.keys, subject, &row.try_get::<Vec<u8>, _>("wrapped_key")?)?
        };
        self.keep_sealing_key(generation, subject, Some(link.link_id), key);
        Ok((link, key))
    }

    /// [`Vault::attempt_key_in`] without the key.
    pub async fn attempt_subject_in(
        &self,
        conn: &mut PgConnection,
        stream: &StreamId,
    ) -> Result<StreamLink, StoreError> {
        Ok(self.attempt_key_in(conn, stream).await?.0)
    }
}

/// `clear` sealed under `key`, the data key of `link`'s subject, named by the link.
pub fn seal_with(link: StreamLink, key: &[u8; 32], kind: PiiKind, clear: &str) -> Result<Sealed, StoreError> {
    let (nonce, ct) = crypto::encrypt(key, &field_aad(link.subject, kind), clear.as_bytes())?;
    Ok(Sealed { key: KeyRef::Link(link.link_id), kind, nonce: nonce.to_vec(), ct })
}
