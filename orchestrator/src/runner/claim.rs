//! Claiming due steps: row locks decide the race, a lease covers the call that follows.

use chrono::{DateTime, Utc};
use sqlx::PgPool;

/// A due step this runner now holds until `lease_until`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub stream_id: String,
    pub flow: String,
    pub step: String,
    pub claims: i32,
    pub lease_until: DateTime<Utc>,
}

/// Claims the oldest due step of the given flows whose lease is free or expired.
/// `SKIP LOCKED` lets concurrent runners pass over a row another one is claiming.
pub async fn claim_one(
    db: &PgPool,
    flows: &[String],
    runner_id: &str,
    lease: std::time::Duration,
) -> Result<Option<Claimed>, sqlx::Error> {
    let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
    sqlx::query_as::<_, Claimed>(
        "WITH next AS (
             SELECT stream_id FROM due_steps
             WHERE due_at <= now() AND flow = ANY($1)
               AND (lease_until IS NULL OR lease_until < now())
             ORDER BY due_at
             LIMIT 1
             FOR UPDATE SKIP LOCKED
         )
         UPDATE due_steps d
         SET lease_until = now() + make_interval(secs => $3::double precision / 1000),
             claimed_by = $2, claims = d.claims + 1, updated_at = now()
         FROM next WHERE d.stream_id = next.stream_id
         RETURNING d.stream_id, d.flow, d.step, d.claims, d.lease_until",
    )
    .bind(flows)
    .bind(runner_id)
    .bind(lease_ms)
    .fetch_optional(db)
    .await
}

/// When the next step of these flows falls due (to sleep until then at most).
pub async fn next_due_at(db: &PgPool, flows: &[String]) -> Result<Option<DateTime<Utc>>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT min(greatest(due_at, coalesce(lease_until, due_at))) FROM due_steps WHERE flow = ANY($1)",
    )
    .bind(flows)
    .fetch_one(db)
    .await
}

/// Gives a claimed step back to be retried at `retry_at` (after a transient failure).
pub async fn release(
    db: &PgPool,
    stream_id: &str,
    runner_id: &str,
    retry_at: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE due_steps SET lease_until = NULL, claimed_by = NULL, due_at = $3, updated_at = now()
         WHERE stream_id = $1 AND claimed_by = $2",
    )
    .bind(stream_id)
    .bind(runner_id)
    .bind(retry_at)
    .execute(db)
    .await?;
    Ok(())
}
