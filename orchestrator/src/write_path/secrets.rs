//! Upstream tokens of one attempt, kept server-side for a short time and never in an event,
//! sealed at rest ([`events::pii::SecretBox`]: the master key, bound to the attempt and name).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use events::pii::SecretBox;
use sqlx::types::Json;
use sqlx::PgPool;

/// The attempt's live secrets as `$stream`'s claim read them, in the statement that claims its
/// step: a JSON object of name to `[sealed value, milliseconds left]`, or NULL when none.
macro_rules! stored_secrets_of {
    ($stream:literal) => {
        concat!(
            "(SELECT jsonb_object_agg(s.name, jsonb_build_array(s.value, extract(epoch FROM s.expires_at - now()) * 1000))
                FROM attempt_secrets s WHERE s.stream_id = ",
            $stream,
            " AND s.expires_at > now())"
        )
    };
}
pub(crate) use stored_secrets_of;

/// The column [`stored_secrets_of`] reads.
pub type StoredColumn = Option<Json<HashMap<String, (String, f64)>>>;

/// An attempt's stored secrets as the statement that claimed its step read them, still sealed,
/// each with when it expires on this process's clock: the step's reads are answered from here,
/// not by a statement each (issue 30: 4.5 reads an attempt). Its writes through [`Secrets`] keep
/// it current. A name it lacks is asked of the database (a command may have stashed a code
/// since the claim). An erasure while the step runs reaches the database, not this copy, which
/// lives no longer than the step (docs/security.md).
#[derive(Clone, Default)]
pub struct Stored(Arc<Mutex<HashMap<String, StoredValue>>>);

struct StoredValue {
    sealed: String,
    until: Instant,
}

impl Stored {
    /// From the claim's [`stored_secrets_of`] column, read at `read_at`.
    pub fn from_column(column: StoredColumn, read_at: Instant) -> Self {
        let values = column.map(|Json(values)| values).unwrap_or_default();
        let values = values
            .into_iter()
            .map(|(name, (sealed, left_ms))| {
                let left = Duration::try_from_secs_f64(left_ms.max(0.0) / 1000.0).unwrap_or(Duration::ZERO);
                (name, StoredValue { sealed, until: read_at + left })
            })
            .collect();
        Self(Arc::new(Mutex::new(values)))
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, StoredValue>> {
        // A poisoned lock only means a step panicked mid-update; that try is failed anyway.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The sealed value of `name` while it has not expired.
    fn get(&self, name: &str) -> Option<String> {
        self.lock().get(name).filter(|v| v.until > Instant::now()).map(|v| v.sealed.clone())
    }

    fn put(&self, name: &str, sealed: String, ttl: Duration) {
        self.lock().insert(name.to_string(), StoredValue { sealed, until: Instant::now() + ttl });
    }

    fn retain(&self, keep: &[&str]) {
        self.lock().retain(|name, _| keep.contains(&name.as_str()));
    }

    /// The names held, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.lock().keys().cloned().collect();
        names.sort();
        names
    }
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored").field("names", &self.names()).finish()
    }
}

#[derive(Clone)]
pub struct Secrets {
    db: PgPool,
    sealer: SecretBox,
    stream_id: String,
    /// What the claim read, for a step's reads; none outside a step.
    stored: Option<Stored>,
}

impl Secrets {
    pub fn new(db: PgPool, sealer: SecretBox, stream_id: &str) -> Self {
        Self { db, sealer, stream_id: stream_id.to_string(), stored: None }
    }

    /// [`Secrets::new`] whose reads are answered first from what the step's claim read.
    pub fn claimed(db: PgPool, sealer: SecretBox, stream_id: &str, stored: Stored) -> Self {
        Self { stored: Some(stored), ..Self::new(db, sealer, stream_id) }
    }

    /// The pool the secrets are kept in.
    pub fn pool(&self) -> &PgPool {
        &self.db
    }

    /// The sealer of attempts' secrets, for values kept beside them (the OAuth verifier).
    pub fn sealer(&self) -> &SecretBox {
        &self.sealer
    }

    /// Stores (or replaces) a token for `ttl`.
    pub async fn put(&self, name: &str, value: &str, ttl: std::time::Duration) -> Result<(), sqlx::Error> {
        let mut conn = self.db.acquire().await?;
        self.put_in(&mut conn, name, value, ttl).await
    }

    fn seal(&self, name: &str, value: &str) -> Result<String, sqlx::Error> {
        self.sealer.seal(&self.stream_id, name, value).map_err(|e| sqlx::Error::Protocol(e.to_string()))
    }

    /// [`Secrets::put`] inside the caller's transaction.
    pub async fn put_in(
        &self,
        conn: &mut sqlx::PgConnection,
        name: &str,
        value: &str,
        ttl: std::time::Duration,
    ) -> Result<(), sqlx::Error> {
        // Expiry on the database's clock, the one `get` and the purge compare it with.
        let ttl_secs = i64::try_from(ttl.as_secs()).unwrap_or(3600);
        let sealed = self.seal(name, value)?;
        sqlx::query(
            "INSERT INTO attempt_secrets (stream_id, name, value, expires_at)
             VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))
             ON CONFLICT (stream_id, name) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at",
        )
        .bind(&self.stream_id)
        .bind(name)
        .bind(&sealed)
        .bind(ttl_secs)
        .execute(conn)
        .await?;
        if let Some(stored) = &self.stored {
            stored.put(name, sealed, ttl);
        }
        Ok(())
    }

    /// The token if it is there and has not expired. One that does not open (sealed under
    /// another master key, moved, altered, or written in clear before sealing) counts as
    /// absent: the step asks the upstream again or the visitor starts over.
    pub async fn get(&self, name: &str) -> Result<Option<String>, sqlx::Error> {
        if let Some(sealed) = self.stored.as_ref().and_then(|stored| stored.get(name)) {
            return Ok(self.open(name, &sealed));
        }
        let stored: Option<String> = sqlx::query_scalar(
            "SELECT value FROM attempt_secrets WHERE stream_id = $1 AND name = $2 AND expires_at > now()",
        )
        .bind(&self.stream_id)
        .bind(name)
        .fetch_optional(&self.db)
        .await?;
        Ok(stored.and_then(|stored| self.open(name, &stored)))
    }

    fn open(&self, name: &str, sealed: &str) -> Option<String> {
        match self.sealer.open(&self.stream_id, name, sealed) {
            Ok(clear) => Some(clear),
            Err(error) => {
                tracing::warn!(stream = %self.stream_id, name, %error, "an attempt secret did not open; treated as absent");
                None
            }
        }
    }

    /// Forgets every token of the attempt but `keep`.
    pub async fn clear_except(&self, keep: &[&str]) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM attempt_secrets WHERE stream_id = $1 AND name <> ALL($2)")
            .bind(&self.stream_id)
            .bind(keep)
            .execute(&self.db)
            .await?;
        if let Some(stored) = &self.stored {
            stored.retain(keep);
        }
        Ok(())
    }
}

/// Forgets every token of attempt `stream_id` inside the caller's transaction (the runner's,
/// with the outcome that completes the attempt).
pub async fn clear_in(conn: &mut sqlx::PgConnection, stream_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM attempt_secrets WHERE stream_id = $1").bind(stream_id).execute(conn).await?;
    Ok(())
}

/// Deletes expired tokens of every attempt; run periodically.
pub async fn purge_expired(db: &PgPool) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM attempt_secrets WHERE expires_at <= now()").execute(db).await?.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(values: &[(&str, &str, f64)]) -> StoredColumn {
        Some(Json(values.iter().map(|(name, sealed, left)| (name.to_string(), (sealed.to_string(), *left))).collect()))
    }

    #[test]
    fn what_the_claim_read_is_served_until_it_expires() {
        let read_at = Instant::now();
        let stored = Stored::from_column(
            column(&[("flow.token", "sealed-a", 60_000.0), ("flow.gone", "sealed-b", 0.0)]),
            read_at,
        );
        assert_eq!(stored.get("flow.token").as_deref(), Some("sealed-a"));
        assert_eq!(stored.get("flow.gone"), None, "no time left");
        assert_eq!(stored.get("flow.other"), None);
        assert_eq!(Stored::from_column(None, read_at).names(), Vec::<String>::new(), "an attempt without secrets");
    }

    #[test]
    fn the_steps_own_writes_keep_it_current() {
        let stored =
            Stored::from_column(column(&[("flow.a", "old", 60_000.0), ("flow.b", "b", 60_000.0)]), Instant::now());
        stored.put("flow.a", "new".into(), Duration::from_secs(60));
        stored.put("flow.c", "c".into(), Duration::from_secs(60));
        assert_eq!(stored.get("flow.a").as_deref(), Some("new"));
        stored.retain(&["flow.a", "flow.c"]);
        assert_eq!(stored.names(), ["flow.a", "flow.c"]);
    }

    #[test]
    fn debug_output_names_the_secrets_without_their_values() {
        let stored = Stored::from_column(column(&[("flow.token", "sealed-secret-text", 60_000.0)]), Instant::now());
        let shown = format!("{stored:?}");
        assert!(shown.contains("flow.token") && !shown.contains("sealed-secret-text"), "{shown}");
    }
}
