//! Upstream tokens of one attempt, kept server-side for a short time and never in an event,
//! sealed at rest ([`events::pii::SecretBox`]: the master key, bound to the attempt and name).

use events::pii::SecretBox;
use sqlx::PgPool;

#[derive(Clone)]
pub struct Secrets {
    db: PgPool,
    sealer: SecretBox,
    stream_id: String,
}

impl Secrets {
    pub fn new(db: PgPool, sealer: SecretBox, stream_id: &str) -> Self {
        Self { db, sealer, stream_id: stream_id.to_string() }
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
        let sealed =
            self.sealer.seal(&self.stream_id, name, value).map_err(|e| sqlx::Error::Protocol(e.to_string()))?;
        sqlx::query(
            "INSERT INTO attempt_secrets (stream_id, name, value, expires_at)
             VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))
             ON CONFLICT (stream_id, name) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at",
        )
        .bind(&self.stream_id)
        .bind(name)
        .bind(sealed)
        .bind(ttl_secs)
        .execute(conn)
        .await?;
        Ok(())
    }

    /// The token if it is there and has not expired. One that does not open (sealed under
    /// another master key, moved, altered, or written in clear before sealing) counts as
    /// absent: the step asks the upstream again or the visitor starts over.
    pub async fn get(&self, name: &str) -> Result<Option<String>, sqlx::Error> {
        let stored: Option<String> = sqlx::query_scalar(
            "SELECT value FROM attempt_secrets WHERE stream_id = $1 AND name = $2 AND expires_at > now()",
        )
        .bind(&self.stream_id)
        .bind(name)
        .fetch_optional(&self.db)
        .await?;
        Ok(stored.and_then(|stored| match self.sealer.open(&self.stream_id, name, &stored) {
            Ok(clear) => Some(clear),
            Err(error) => {
                tracing::warn!(stream = %self.stream_id, name, %error, "an attempt secret did not open; treated as absent");
                None
            }
        }))
    }

    /// Forgets every token of the attempt but `keep`.
    pub async fn clear_except(&self, keep: &[&str]) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM attempt_secrets WHERE stream_id = $1 AND name <> ALL($2)")
            .bind(&self.stream_id)
            .bind(keep)
            .execute(&self.db)
            .await?;
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
