//! The vault: subjects, their wrapped keys, look-ups and stream links in PostgreSQL.

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use super::crypto::{self, field_aad, lookup_hmac};
use super::opened::OpenedKeys;
use super::{KeyRef, Keys, PiiKind, Sealed};
use crate::error::StoreError;
use crate::stream_id::StreamId;

/// Seals and opens personal data; cheap to clone.
#[derive(Clone, Debug)]
pub struct Vault {
    pub(super) pool: PgPool,
    pub(super) keys: Arc<Keys>,
    /// Data keys unwrapped or made lately, shared by the clones (`opened.rs`).
    pub(super) opened: Arc<OpenedKeys>,
}

impl Vault {
    pub fn new(pool: PgPool, keys: Keys) -> Self {
        Self { pool, keys: Arc::new(keys), opened: Arc::default() }
    }

    /// The same keys, reading through `pool` (a standby, for look-ups that only read).
    pub fn reading_through(&self, pool: PgPool) -> Self {
        Self { pool, keys: self.keys.clone(), opened: self.opened.clone() }
    }

    /// Wraps again under the current master key up to `batch` data keys that another one
    /// wrapped (a rotation: the previous keys are still configured, so reads work all along).
    /// Returns how many it wrapped; 0 once the rotation is complete. Rows are locked and
    /// skipped if locked, so two runs share the work.
    pub async fn rewrap(&self, batch: i64) -> Result<u64, StoreError> {
        let current = self.keys.kek_id();
        let mut tx = self.pool.begin().await?;
        let rows: Vec<(Uuid, Vec<u8>)> = sqlx::query_as(
            "SELECT subject_id, wrapped_key FROM pii_subjects WHERE kek_id IS DISTINCT FROM $1 \
             ORDER BY subject_id LIMIT $2 FOR UPDATE SKIP LOCKED",
        )
        .bind(&current)
        .bind(batch)
        .fetch_all(&mut *tx)
        .await?;
        for (subject, wrapped) in &rows {
            let key = crypto::unwrap_key_any(&self.keys, *subject, wrapped)?;
            let again = crypto::wrap_key(&self.keys.kek, *subject, &key)?;
            sqlx::query("UPDATE pii_subjects SET wrapped_key = $2, kek_id = $3 WHERE subject_id = $1")
                .bind(subject)
                .bind(again)
                .bind(&current)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(rows.len() as u64)
    }

    /// Data keys still wrapped by another master key than the current one.
    pub async fn left_to_rewrap(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT count(*) FROM pii_subjects WHERE kek_id IS DISTINCT FROM $1")
            .bind(self.keys.kek_id())
            .fetch_one(&self.pool)
            .await?)
    }

    /// The sealer of attempts' short-lived secrets, under the same master key.
    pub fn secret_box(&self) -> super::SecretBox {
        super::SecretBox::from_keys(&self.keys)
    }

    /// The subject of this phone / CPF-CNPJ / e-mail, created (with a fresh data key)
    /// on first sight. `value` is normalized with [`PiiKind::normalize`].
    pub async fn subject_for(&self, kind: PiiKind, value: &str) -> Result<Uuid, StoreError> {
        let mut tx = self.pool.begin().await?;
        let subject = self.subject_for_in(&mut tx, kind, value).await?;
        tx.commit().await?;
        Ok(subject)
    }

    /// The existing subject of this value, if any (never creates one).
    pub async fn find_subject(&self, kind: PiiKind, value: &str) -> Result<Option<Uuid>, StoreError> {
        let mac = lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value));
        self.find_by_hmac(kind, &mac).await
    }

    /// Moves `subject`'s look-up of `value` from the `from` namespace to the `to` one (a staff
    /// e-mail found under the visitors' kind, issue 26), in one transaction: afterwards the
    /// value is found under `to` only. Returns whether the subject had the `from` look-up.
    pub async fn move_lookup(
        &self,
        subject: Uuid,
        from: PiiKind,
        to: PiiKind,
        value: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let moved = sqlx::query("DELETE FROM pii_lookup WHERE kind = $1 AND hmac = $2 AND subject_id = $3")
            .bind(from.as_str())
            .bind(lookup_hmac(&self.keys.hmac, from, &from.normalize(value)))
            .bind(subject)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        if moved {
            sqlx::query("INSERT INTO pii_lookup (kind, hmac, subject_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
                .bind(to.as_str())
                .bind(lookup_hmac(&self.keys.hmac, to, &to.normalize(value)))
                .bind(subject)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(moved)
    }

    /// The keyed look-up hash of a value (HMAC-SHA256 of the normalized value): what audit
    /// records and rate limits keep instead of the clear value.
    pub fn lookup_hash(&self, kind: PiiKind, value: &str) -> Vec<u8> {
        lookup_hmac(&self.keys.hmac, kind, &kind.normalize(value))
    }

    /// A keyed tag of `value` for `purpose` (e.g. `"abuse:ip"`): what rate limits count by,
    /// for values that are no kind of personal data the vault seals (client addresses).
    pub fn tag(&self, purpose: &str, value: &str) -> Vec<u8> {
        super::crypto::labelled_hmac(&self.keys.hmac, &format!("tag:{purpose}"), value)
    }

    /// A 32-byte secret for `purpose`, derived from the look-up key: one secret to configure
    /// and share between replicas, and no way back from the derived one to it.
    pub fn derived_secret(&self, purpose: &str) -> [u8; 32] {
        let mac = super::crypto::labelled_hmac(&self.keys.hmac, &format!("secret:{purpose}"), "");
        let mut secret = [0u8; 32];
        secret.copy_from_slice(&mac[..32]);
        secret
    }

    /// The key that signs what the portal hands out for `purpose` (see [`Self::derived_secret`]).
    pub fn signing_key(&self, purpose: &str) -> super::SigningKey {
        super::SigningKey::new(self.derived_secret(purpose))
    }

    async fn find_by_hmac(&self, kind: PiiKind, mac: &[u8]) -> Result<Option<Uuid>, StoreError> {
        find_by_hmac_on(&self.pool, kind, mac).await
    }

    /// Encrypts `clear` under the subject's key, naming the subject (for fields outside
    /// attempt streams). Put `sealed.to_value()` in the payload.
    pub async fn seal(&self, subject: Uuid, kind: PiiKind, clear: &str) -> Result<Sealed, StoreError> {
        self.seal_as(KeyRef::Subject(subject), subject, kind, clear).await
    }

    /// Encrypts `clear` under the subject's key, naming only the subject's link to one
    /// stream (from [`Vault::link_stream`]): what attempt events carry.
    pub async fn seal_linked(&self, link: StreamLink, kind: PiiKind, clear: &str) -> Result<Sealed, StoreError> {
        self.seal_as(KeyRef::Link(link.link_id), link.subject, kind, clear).await
    }

    async fn seal_as(&self, key_ref: KeyRef, subject: Uuid, kind: PiiKind, clear: &str) -> Result<Sealed, StoreError> {
        let (_, key) = self
            .data_keys(&[KeyRef::Subject(subject)])
            .await?
            .remove(&KeyRef::Subject(subject))
            .ok_or(StoreError::UnknownSubject(subject))?;
        let (nonce, ct) = crypto::encrypt(&key, &field_aad(subject, kind), clear.as_bytes())?;
        Ok(Sealed { key: key_ref, kind, nonce: nonce.to_vec(), ct })
    }

    /// Records that `stream` mentions `subject`, for [`Vault::streams_for`]; the link's id
    /// is what the stream's sealed fields name (the same id each time for one stream).
    pub async fn link_stream(&self, subject: Uuid, stream: &StreamId) -> Result<StreamLink, StoreError> {
        let mut conn = self.pool.acquire().await?;
        self.link_stream_in_tx(&mut conn, subject, stream).await
    }

    /// [`Vault::link_stream`] inside the caller's transaction (e.g. with the append).
    pub async fn link_stream_in_tx(
        &self,
        conn: &mut PgConnection,
        subject: Uuid,
        stream: &StreamId,
    ) -> Result<StreamLink, StoreError> {
        // The no-op update makes an existing link return its id too.
        let link_id: Uuid = sqlx::query_scalar(
            "INSERT INTO pii_stream_links (subject_id, stream_id) VALUES ($1, $2) \
             ON CONFLICT (subject_id, stream_id) DO UPDATE SET subject_id = EXCLUDED.subject_id \
             RETURNING link_id",
        )
        .bind(subject)
        .bind(stream.as_str())
        .fetch_one(conn)
        .await?;
        Ok(StreamLink { subject, link_id })
    }

    /// The attempt's own subject, linked to `stream`: the key of what belongs to the attempt
    /// rather than to a person found again by look-up (device names). An erasure forgets it
    /// with the attempt, when the attempt is the erased person's (it proved their phone).
    pub async fn attempt_subject(&self, stream: &StreamId) -> Result<StreamLink, StoreError> {
        let mut tx = self.pool.begin().await?;
        let link = self.attempt_subject_in(&mut tx, stream).await?;
        tx.commit().await?;
        Ok(link)
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
        let done =
            sqlx::query("DELETE FROM pii_subjects WHERE subject_id = $1").bind(subject).execute(&self.pool).await;
        // Whatever the answer, this process stops opening with keys it may have kept.
        self.opened.forget_all();
        Ok(done?.rows_affected() > 0)
    }

    /// Keeps the data key a seal found or made for `subject` (and its `link`), as a read of it
    /// would ([`Vault::data_keys`]): the attempt's page, stream and steps open what was just
    /// sealed. `generation` is [`OpenedKeys::generation`] from before the seal's statement.
    /// A seal whose transaction rolls back leaves at worst a key under ids nothing names (a new
    /// subject's, a new link's); a subject it found is the person's, key and all.
    pub(super) fn keep_sealing_key(&self, generation: u64, subject: Uuid, link: Option<Uuid>, key: [u8; 32]) {
        let refs = std::iter::once(KeyRef::Subject(subject)).chain(link.map(KeyRef::Link));
        self.opened.keep(generation, refs.map(|key_ref| (key_ref, (subject, key))));
    }

    /// Unwrapped data keys (with their subject) of the key references that still exist: those
    /// this process unwrapped lately as it kept them, the others read (`opened.rs`).
    pub(super) async fn data_keys(&self, refs: &[KeyRef]) -> Result<HashMap<KeyRef, (Uuid, [u8; 32])>, StoreError> {
        let mut keys = HashMap::with_capacity(refs.len());
        let mut missing = Vec::new();
        for key_ref in refs {
            match self.opened.get(key_ref) {
                Some(found) => {
                    keys.insert(*key_ref, found);
                }
                None => missing.push(*key_ref),
            }
        }
        if missing.is_empty() {
            return Ok(keys);
        }
        let generation = self.opened.generation();
        let found = self.data_keys_on(&self.pool, &missing).await?;
        self.opened.keep(generation, found.iter().map(|(r, k)| (*r, *k)));
        keys.extend(found);
        Ok(keys)
    }

    async fn data_keys_on<'e, E: sqlx::PgExecutor<'e>>(
        &self,
        executor: E,
        refs: &[KeyRef],
    ) -> Result<HashMap<KeyRef, (Uuid, [u8; 32])>, StoreError> {
        let subjects: Vec<Uuid> = refs
            .iter()
            .filter_map(|r| match r {
                KeyRef::Subject(s) => Some(*s),
                KeyRef::Link(_) => None,
            })
            .collect();
        let links: Vec<Uuid> = refs
            .iter()
            .filter_map(|r| match r {
                KeyRef::Link(l) => Some(*l),
                KeyRef::Subject(_) => None,
            })
            .collect();
        let rows = sqlx::query(
            "SELECT subject_id AS ref_id, false AS is_link, subject_id, wrapped_key FROM pii_subjects WHERE subject_id = ANY($1) \
             UNION ALL \
             SELECT l.link_id, true, s.subject_id, s.wrapped_key FROM pii_stream_links l \
             JOIN pii_subjects s ON s.subject_id = l.subject_id WHERE l.link_id = ANY($2)",
        )
        .bind(&subjects)
        .bind(&links)
        .fetch_all(executor)
        .await?;
        let mut keys = HashMap::with_capacity(rows.len());
        for row in rows {
            let id: Uuid = row.try_get("ref_id")?;
            let is_link: bool = row.try_get("is_link")?;
            let subject: Uuid = row.try_get("subject_id")?;
            let wrapped: Vec<u8> = row.try_get("wrapped_key")?;
            let key_ref = if is_link { KeyRef::Link(id) } else { KeyRef::Subject(id) };
            keys.insert(key_ref, (subject, crypto::unwrap_key_any(&self.keys, subject, &wrapped)?));
        }
        Ok(keys)
    }
}

async fn find_by_hmac_on<'e, E: sqlx::PgExecutor<'e>>(
    executor: E,
    kind: PiiKind,
    mac: &[u8],
) -> Result<Option<Uuid>, StoreError> {
    Ok(sqlx::query_scalar("SELECT subject_id FROM pii_lookup WHERE kind = $1 AND hmac = $2")
        .bind(kind.as_str())
        .bind(mac)
        .fetch_optional(executor)
        .await?)
}

/// A subject's link to one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLink {
    pub subject: Uuid,
    pub link_id: Uuid,
}

pub(super) type Keyring = HashMap<KeyRef, (Uuid, [u8; 32])>;
