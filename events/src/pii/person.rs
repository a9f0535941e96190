//! Finding or creating a person, and sealing a person's value into an attempt, in one round trip: the person found by the value's
//! keyed look-up or created with a fresh data key, linked to the stream, and the key that seals
//! the value read back, all by one statement (issue 24: it was a look-up, then a savepoint with
//! two inserts, then the link, then a read of the key: seven statements for a new person).

use std::sync::LazyLock;

use sqlx::{PgConnection, Row};
use uuid::Uuid;

use super::crypto::{self, field_aad, lookup_hmac};
use super::vault::{StreamLink, Vault};
use super::{KeyRef, PiiKind, Sealed};
use crate::error::StoreError;
use crate::StreamId;

/// Finds or creates the subject of `(kind, hmac)` (a new one as `$3` with the wrapped key `$4`
/// under master key `$5`): `chosen` holds it, with its wrapped key. Empty when a concurrent
/// creator of the same value won the look-up: the subject inserted here is then an orphan the
/// caller removes before asking again.
const FIND_OR_CREATE: &str = "\
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
)";

/// [`FIND_OR_CREATE`], and the subject linked to stream `$6` (a link's id back).
static FIND_OR_CREATE_LINKED: LazyLock<String> = LazyLock::new(|| {
    format!(
        "{FIND_OR_CREATE}, link AS (
    INSERT INTO pii_stream_links (subject_id, stream_id) SELECT subject_id, $6 FROM chosen
    ON CONFLICT (subject_id, stream_id) DO UPDATE SET subject_id = EXCLUDED.subject_id
    RETURNING subject_id, link_id
)
SELECT link.subject_id, link.link_id, chosen.wrapped_key FROM link JOIN chosen USING (subject_id)"
    )
});

/// [`FIND_OR_CREATE`] alone (no link).
static FIND_OR_CREATE_UNLINKED: LazyLock<String> =
    LazyLock::new(|| format!("{FIND_OR_CREATE} SELECT subject_id, NULL::uuid AS link_id, wrapped_key FROM chosen"));

/// A person found or created: their subject, its link to the stream when one was asked, and
/// their data key.
struct Person {
    subject: Uuid,
    link_id: Option<Uuid>,
    key: [u8; 32],
}

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
        let person = self.find_or_create_in(conn, kind, value, Some(stream)).await?;
        let link_id = person.link_id.ok_or_else(|| StoreError::Crypto("the person was not linked".into()))?;
        let link = StreamLink { subject: person.subject, link_id };
        let (nonce, ct) = crypto::encrypt(&person.key, &field_aad(person.subject, kind), value.as_bytes())?;
        Ok((link, Sealed { key: KeyRef::Link(link_id), kind, nonce: nonce.to_vec(), ct }))
    }

    /// The subject of this phone / CPF-CNPJ / e-mail, created (with a fresh data key) on first
    /// sight, in the caller's transaction: what it writes exists only if that commits. `value`
    /// is normalized with [`PiiKind::normalize`].
    pub async fn subject_for_in(
        &self,
        conn: &mut PgConnection,
        kind: PiiKind,
        value: &str,
    ) -> Result<Uuid, StoreError> {
        Ok(self.find_or_create_in(conn, kind, value, None).await?.subject)
    }

    /// The person of `value`, found by its keyed look-up or created, and linked to `stream`
    /// when given: one statement, asked again when a concurrent creator won.
    async fn find_or_create_in(
        &self,
        conn: &mut PgConnection,
        kind: PiiKind,
        value: &str,
        stream: Option<&StreamId>,
    ) -> Result<Person, StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        let sql: &str = if stream.is_some() { &FIND_OR_CREATE_LINKED } else { &FIND_OR_CREATE_UNLINKED };
        let generation = self.opened.generation();
        for _ in 0..3 {
            let candidate = Uuid::new_v4();
            let fresh = crypto::random_key();
            let wrapped = crypto::wrap_key(&self.keys.kek, candidate, &fresh)?;
            let mut query =
                sqlx::query(sql).bind(kind.as_str()).bind(&mac).bind(candidate).bind(&wrapped).bind(self.keys.kek_id());
            if let Some(stream) = stream {
                query = query.bind(stream.as_str());
            }
            let Some(row) = query.fetch_optional(&mut *conn).await? else {
                // Another transaction created this person first: ours is an orphan. The
                // look-up waited for that transaction, so the next try finds its subject.
                sqlx::query("DELETE FROM pii_subjects WHERE subject_id = $1")
                    .bind(candidate)
                    .execute(&mut *conn)
                    .await?;
                continue;
            };
            let subject: Uuid = row.try_get("subject_id")?;
            let key = if subject == candidate {
                fresh
            } else {
                crypto::unwrap_key_any(&self.keys, subject, &row.try_get::<Vec<u8>, _>("wrapped_key")?)?
            };
            let link_id: Option<Uuid> = row.try_get("link_id")?;
            self.keep_sealing_key(generation, subject, link_id, key);
            return Ok(Person { subject, link_id, key });
        }
        Err(StoreError::Crypto("could not create personal-data subject".into()))
    }
}
