//! The vault: subjects, their wrapped keys, look-ups and stream links in PostgreSQL.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use super::crypto::{self, field_aad, lookup_hmac};
use super::{Keys, Opened, PiiKind, Sealed};
use crate::error::StoreError;
use crate::stream_id::StreamId;

/// Seals and opens personal data; cheap to clone.
#[derive(Clone, Debug)]
pub struct Vault {
    pool: PgPool,
    keys: Arc<Keys>,
}

impl Vault {
    pub fn new(pool: PgPool, keys: Keys) -> Self {
        Self {
            pool,
            keys: Arc::new(keys),
        }
    }

    /// The subject of this phone / CPF-CNPJ / e-mail, created (with a fresh data key)
    /// on first sight. `value` is normalized with [`PiiKind::normalize`].
    pub async fn subject_for(&self, kind: PiiKind, value: &str) -> Result<Uuid, StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        // Two rounds: a concurrent creator of the same value makes our insert a no-op,
        // after which the look-up finds theirs.
        for _ in 0..2 {
            if let Some(subject) = self.find_by_hmac(kind, &mac).await? {
                return Ok(subject);
            }
            let subject = Uuid::new_v4();
            let wrapped = crypto::wrap_key(&self.keys.kek, subject, &crypto::random_key())?;
            let mut tx = self.pool.begin().await?;
            sqlx::query("INSERT INTO pii_subjects (subject_id, wrapped_key) VALUES ($1, $2)")
                .bind(subject)
                .bind(&wrapped)
                .execute(&mut *tx)
                .await?;
            let inserted = sqlx::query(
                "INSERT INTO pii_lookup (kind, hmac, subject_id) VALUES ($1, $2, $3) \
                 ON CONFLICT (kind, hmac) DO NOTHING RETURNING subject_id",
            )
            .bind(kind.as_str())
            .bind(&mac)
            .bind(subject)
            .fetch_optional(&mut *tx)
            .await?;
            if inserted.is_some() {
                tx.commit().await?;
                return Ok(subject);
            }
            tx.rollback().await?;
        }
        self.find_by_hmac(kind, &mac)
            .await?
            .ok_or_else(|| StoreError::Crypto("could not create personal-data subject".into()))
    }

    /// The existing subject of this value, if any (never creates one).
    pub async fn find_subject(
        &self,
        kind: PiiKind,
        value: &str,
    ) -> Result<Option<Uuid>, StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        self.find_by_hmac(kind, &mac).await
    }

    /// The keyed look-up hash of a value (HMAC-SHA256 of the normalized value): what audit
    /// records and rate limits keep instead of the clear value.
    pub fn lookup_hash(&self, kind: PiiKind, value: &str) -> Vec<u8> {
        lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value))
    }

    async fn find_by_hmac(&self, kind: PiiKind, mac: &[u8]) -> Result<Option<Uuid>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT subject_id FROM pii_lookup WHERE kind = $1 AND hmac = $2")
                .bind(kind.as_str())
                .bind(mac)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Encrypts `clear` under the subject's key. Put `sealed.to_value()` in the payload.
    pub async fn seal(
        &self,
        subject: Uuid,
        kind: PiiKind,
        clear: &str,
    ) -> Result<Sealed, StoreError> {
        let key = self
            .data_keys(&[subject])
            .await?
            .remove(&subject)
            .ok_or(StoreError::UnknownSubject(subject))?;
        let (nonce, ct) = crypto::encrypt(&key, &field_aad(subject, kind), clear.as_bytes())?;
        Ok(Sealed {
            subject,
            kind,
            nonce: nonce.to_vec(),
            ct,
        })
    }

    /// Opens one sealed field (`{"$pii": ...}`): its clear text, or `Erased` when the
    /// subject was forgotten.
    pub async fn open(&self, sealed: &Value) -> Result<Opened, StoreError> {
        let sealed = Sealed::from_value(sealed)?;
        let keys = self.data_keys(&[sealed.subject]).await?;
        open_with(&keys, &sealed)
    }

    /// Replaces, anywhere in `payload`, each sealed field by its clear text or by
    /// `{"$erased": true}`. One key query for the whole payload.
    pub async fn reveal_payload(&self, payload: &mut Value) -> Result<(), StoreError> {
        let mut subjects = Vec::new();
        collect_subjects(payload, &mut subjects)?;
        if subjects.is_empty() {
            return Ok(());
        }
        subjects.sort();
        subjects.dedup();
        let keys = self.data_keys(&subjects).await?;
        replace_sealed(payload, &keys)
    }

    /// Records that `stream` mentions `subject`, for [`Vault::streams_for`].
    pub async fn link_stream(&self, subject: Uuid, stream: &StreamId) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        self.link_stream_in_tx(&mut conn, subject, stream).await
    }

    /// [`Vault::link_stream`] inside the caller's transaction (e.g. with the append).
    pub async fn link_stream_in_tx(
        &self,
        conn: &mut PgConnection,
        subject: Uuid,
        stream: &StreamId,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO pii_stream_links (subject_id, stream_id) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind(subject)
        .bind(stream.as_str())
        .execute(conn)
        .await?;
        Ok(())
    }

    /// Streams linked to whoever has this phone / CPF-CNPJ / e-mail, oldest link first.
    /// Empty for an unknown or forgotten person.
    pub async fn streams_for(&self, kind: PiiKind, value: &str) -> Result<Vec<String>, StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        Ok(sqlx::query_scalar(
            "SELECT l.stream_id FROM pii_lookup k \
             JOIN pii_stream_links l ON l.subject_id = k.subject_id \
             WHERE k.kind = $1 AND k.hmac = $2 \
             ORDER BY l.linked_at, l.stream_id",
        )
        .bind(kind.as_str())
        .bind(&mac)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Crypto-shredding (LGPD art. 18): deletes the subject's key, look-ups and links.
    /// Their events stay readable; their sealed fields open as `Erased`. Returns
    /// whether the subject existed.
    pub async fn forget(&self, subject: Uuid) -> Result<bool, StoreError> {
        // Look-up and link rows go with it (ON DELETE CASCADE).
        let done = sqlx::query("DELETE FROM pii_subjects WHERE subject_id = $1")
            .bind(subject)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Unwrapped data keys of the subjects that still exist.
    async fn data_keys(&self, subjects: &[Uuid]) -> Result<HashMap<Uuid, [u8; 32]>, StoreError> {
        let rows = sqlx::query(
            "SELECT subject_id, wrapped_key FROM pii_subjects WHERE subject_id = ANY($1)",
        )
        .bind(subjects)
        .fetch_all(&self.pool)
        .await?;
        let mut keys = HashMap::with_capacity(rows.len());
        for row in rows {
            let subject: Uuid = row.try_get("subject_id")?;
            let wrapped: Vec<u8> = row.try_get("wrapped_key")?;
            keys.insert(
                subject,
                crypto::unwrap_key(&self.keys.kek, subject, &wrapped)?,
            );
        }
        Ok(keys)
    }
}

fn open_with(keys: &HashMap<Uuid, [u8; 32]>, sealed: &Sealed) -> Result<Opened, StoreError> {
    let Some(key) = keys.get(&sealed.subject) else {
        return Ok(Opened::Erased);
    };
    let clear = crypto::decrypt(
        key,
        &field_aad(sealed.subject, sealed.kind),
        &sealed.nonce,
        &sealed.ct,
    )?;
    String::from_utf8(clear)
        .map(Opened::Clear)
        .map_err(|_| StoreError::Crypto("sealed value is not UTF-8".into()))
}

fn collect_subjects(value: &Value, out: &mut Vec<Uuid>) -> Result<(), StoreError> {
    if Sealed::is_sealed(value) {
        out.push(Sealed::from_value(value)?.subject);
        return Ok(());
    }
    match value {
        Value::Array(items) => items.iter().try_for_each(|v| collect_subjects(v, out)),
        Value::Object(map) => map.values().try_for_each(|v| collect_subjects(v, out)),
        _ => Ok(()),
    }
}

fn replace_sealed(value: &mut Value, keys: &HashMap<Uuid, [u8; 32]>) -> Result<(), StoreError> {
    if Sealed::is_sealed(value) {
        let sealed = Sealed::from_value(value)?;
        *value = open_with(keys, &sealed)?.into_value();
        return Ok(());
    }
    match value {
        Value::Array(items) => items.iter_mut().try_for_each(|v| replace_sealed(v, keys)),
        Value::Object(map) => map.values_mut().try_for_each(|v| replace_sealed(v, keys)),
        _ => Ok(()),
    }
}
