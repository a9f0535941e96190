//! Sealing a person's value into an attempt in one round trip: the person found by the value's
//! keyed look-up or created with a fresh data key, linked to the stream, and the key that seals
//! the value read back, all by one statement (issue 24: it was a look-up, then a savepoint with
//! two inserts, then the link, then a read of the key: seven statements for a new person).

use sqlx::{PgConnection, Row};
use uuid::Uuid;

use super::crypto::{self, field_aad, lookup_hmac};
use super::vault::{StreamLink, Vault};
use super::{KeyRef, PiiKind, Sealed};
use crate::error::StoreError;
use crate::StreamId;

/// Finds or creates the subject of `(kind, hmac)` (a new one as `$3` with the wrapped key `$4`
/// under master key `$5`), links it to stream `$6` and returns the link and the wrapped key.
/// No row when a concurrent creator of the same value won the look-up: the subject inserted
/// here is then an orphan the caller removes before asking again.
const FIND_OR_CREATE_LINKED: &str = "\
WITH found AS (
    SELECT k.subject_id, s.wrapped_key FROM pii_lookup k JOIN pii_subjects s USING (subject_id)
    WHERE k.kind = $1 AND k.hmac = $2
), new_subject AS (
    INSERT INTO pii_subjects (subject_id, wrapped_key, kek_id)
    SELECT $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM found)
    RETURNING subject_id, wrapped_key
), new_lookup AS (
    INSERT INTO pii_lookup (kind, hmac, subject_id) SELECT $1, $2, subject_id FROM new_subject
    ON CONFLICT (kind, hmac) DO NOTHING
    RETURNING subject_id
), chosen AS (
    SELECT subject_id, wrapped_key FROM found
    UNION ALL
    SELECT n.subject_id, n.wrapped_key FROM new_subject n JOIN new_lookup l USING (subject_id)
), link AS (
    INSERT INTO pii_stream_links (subject_id, stream_id) SELECT subject_id, $6 FROM chosen
    ON CONFLICT (subject_id, stream_id) DO UPDATE SET subject_id = EXCLUDED.subject_id
    RETURNING subject_id, link_id
)
SELECT link.subject_id, link.link_id, chosen.wrapped_key FROM link JOIN chosen USING (subject_id)";

impl Vault {
    /// `value` (a phone, CPF/CNPJ or e-mail, already normalized with [`PiiKind::normalize`])
    /// sealed under its person's key and named by their link to `stream`, in the caller's
    /// transaction: the person found by look-up or created on first sight, and linked for
    /// support's look-ups. What it writes exists only if that transaction commits.
    pub async fn seal_for_person_in(
        &self,
        conn: &mut PgConnection,
        stream: &StreamId,
        kind: PiiKind,
        value: &str,
    ) -> Result<(StreamLink, Sealed), StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        for _ in 0..3 {
            let candidate = Uuid::new_v4();
            let fresh = crypto::random_key();
            let wrapped = crypto::wrap_key(&self.keys.kek, candidate, &fresh)?;
            let row = sqlx::query(FIND_OR_CREATE_LINKED)
                .bind(kind.as_str())
                .bind(&mac)
                .bind(candidate)
                .bind(&wrapped)
                .bind(self.keys.kek_id())
                .bind(stream.as_str())
                .fetch_optional(&mut *conn)
                .await?;
            let Some(row) = row else {
                // Another transaction created this person first: ours is an orphan. The
                // look-up waited for that transaction, so the next try finds its subject.
                sqlx::query("DELETE FROM pii_subjects WHERE subject_id = $1")
                    .bind(candidate)
                    .execute(&mut *conn)
                    .await?;
                continue;
            };
            let subject: Uuid = row.try_get("subject_id")?;
            let link = StreamLink { subject, link_id: row.try_get("link_id")? };
            let key = if subject == candidate {
                fresh
            } else {
                crypto::unwrap_key_any(&self.keys, subject, &row.try_get::<Vec<u8>, _>("wrapped_key")?)?
            };
            let (nonce, ct) = crypto::encrypt(&key, &field_aad(subject, kind), value.as_bytes())?;
            return Ok((link, Sealed { key: KeyRef::Link(link.link_id), kind, nonce: nonce.to_vec(), ct }));
        }
        Err(StoreError::Crypto("could not create personal-data subject".into()))
    }
}
