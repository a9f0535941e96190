//! Claiming due steps: row locks decide the race, a lease covers the work that follows, and a
//! token fences every later write of the claim.
//!
//! Every time here is the database's (`now()`): several orchestrator processes share the rows,
//! and their own clocks may disagree with each other and with PostgreSQL's.

use chrono::{DateTime, Utc};
use events::flow::PlannedStep;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::write_path::schedule::millis;
pub use crate::write_path::schedule::{release, Chain, Claimed};
use crate::write_path::secrets::{stored_secrets_of, Stored, StoredColumn};

/// What one claim found: the steps now held, and when fewer than asked for were due, how
/// long until the next one falls due (to sleep until then at most).
#[derive(Debug, Default)]
pub struct Claims {
    pub claimed: Vec<Claimed>,
    pub next_due_in: Option<std::time::Duration>,
}

#[derive(sqlx::FromRow)]
struct ClaimRow {
    stream_id: Option<String>,
    flow: Option<String>,
    step: Option<String>,
    claims: Option<i32>,
    lease_until: Option<DateTime<Utc>>,
    lease_token: Option<Uuid>,
    db_now: Option<DateTime<Utc>>,
    due_at: Option<DateTime<Utc>>,
    first_due_at: Option<DateTime<Utc>>,
    stream_version: Option<i64>,
    secrets: StoredColumn,
    next_due_ms: Option<f64>,
}

/// Claims up to `limit` due steps of the given flows whose lease is free or expired, oldest
/// first, each with a lease and a token of its own (`SKIP LOCKED` lets concurrent runners pass
/// over a row another one is claiming); in the same round trip, when fewer were due, the
/// wait until the next one (a runner woken by every append would otherwise ask twice).
pub async fn claim_due(
    db: &PgPool,
    flows: &[String],
    runner_id: &str,
    lease: std::time::Duration,
    limit: usize,
) -> Result<Claims, sqlx::Error> {
    let limit = i64::try_from(limit.max(1)).unwrap_or(i64::MAX);
    let rows = sqlx::query_as::<_, ClaimRow>(concat!(
        "WITH next AS (
             SELECT stream_id FROM due_steps
             WHERE due_at <= now() AND flow = ANY($1)
               AND (lease_until IS NULL OR lease_until < now())
             ORDER BY due_at
             LIMIT $4
             FOR UPDATE SKIP LOCKED
         ), claimed AS (
             UPDATE due_steps d
             SET lease_until = now() + make_interval(secs => $3::double precision / 1000),
                 claimed_by = $2, lease_token = gen_random_uuid(), claims = d.claims + 1, updated_at = now()
             FROM next WHERE d.stream_id = next.stream_id
             RETURNING d.stream_id, d.flow, d.step, d.claims, d.lease_until, d.lease_token, now() AS db_now, d.due_at,
                       d.first_due_at,
                       (SELECT coalesce(max(e.version), 0) FROM events e WHERE e.stream_id = d.stream_id) AS stream_version,
                       ",
        stored_secrets_of!("d.stream_id"),
        " AS secrets
         )
         SELECT stream_id, flow, step, claims, lease_until, lease_token, db_now, due_at, first_due_at, stream_version,
                secrets, NULL::float8 AS next_due_ms
           FROM claimed
         UNION ALL
         SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                (SELECT extract(epoch FROM min(greatest(due_at, coalesce(lease_until, due_at))) - now())::float8 * 1000
                   FROM due_steps
                  WHERE flow = ANY($1) AND stream_id NOT IN (SELECT stream_id FROM claimed))
          WHERE (SELECT count(*) FROM claimed) < $4"
    ))
    .bind(flows)
    .bind(runner_id)
    .bind(millis(lease))
    .bind(limit)
    .fetch_all(db)
    .await?;
    let read_at = std::time::Instant::now();
    let mut claims = Claims::default();
    for row in rows {
        match (
            row.stream_id,
            row.flow,
            row.step,
            row.claims,
            row.lease_until,
            row.lease_token,
            row.db_now,
            row.due_at,
            row.first_due_at,
            row.stream_version,
        ) {
            (
                Some(stream_id),
                Some(flow),
                Some(step),
                Some(claims_so_far),
                Some(lease_until),
                Some(lease_token),
                Some(db_now),
                Some(due_at),
                Some(first_due_at),
                Some(stream_version),
            ) => claims.claimed.push(Claimed {
                stream_id,
                flow,
                step,
                claims: claims_so_far,
                lease_until,
                lease_token,
                db_now,
                due_at,
                first_due_at,
                stream_version,
                secrets: Stored::from_column(row.secrets, read_at),
            }),
            _ => claims.next_due_in = row.next_due_ms.map(|ms| std::time::Duration::from_millis(ms.max(0.0) as u64)),
        }
    }
    // RETURNING keeps no order: oldest first, as they were chosen.
    claims.claimed.sort_by_key(|claimed| claimed.due_at);
    Ok(claims)
}

/// Extends the lease while the claim is still this runner's; `false` when it was lost (the
/// lease expired and another runner took the row, or the row is gone).
pub async fn renew(db: &PgPool, claim: &Claimed, lease: std::time::Duration) -> Result<bool, sqlx::Error> {
    let renewed = sqlx::query(
        "UPDATE due_steps SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
         WHERE stream_id = $1 AND lease_token = $2",
    )
    .bind(&claim.stream_id)
    .bind(claim.lease_token)
    .bind(millis(lease))
    .execute(db)
    .await?;
    Ok(renewed.rows_affected() == 1)
}

/// Clears this claim's lease in `conn`'s transaction if the claim is still held, which locks
/// the row, so the transaction's writes are fenced by it: `false` means another runner owns
/// the step now (or nobody does), and the caller drops its writes. One statement for the fence
/// and the finish; the next plan is written after it (a plan keeps only a live lease, see
/// [`crate::write_path::schedule_in_tx`]).
pub async fn finish_if_held(conn: &mut PgConnection, claim: &Claimed) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE due_steps SET lease_until = NULL, claimed_by = NULL, lease_token = NULL, updated_at = now()
         WHERE stream_id = $1 AND lease_token = $2 AND lease_until > now()",
    )
    .bind(&claim.stream_id)
    .bind(claim.lease_token)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How a claim's finish ended ([`finish_and_plan`]).
#[derive(Debug)]
pub enum Finished {
    /// Another runner owns the step now, or nobody does: nothing was written.
    Lost,
    /// The lease is cleared and the next plan written.
    Done,
    /// The next plan was due at once and is this runner's already, under a new claim: the
    /// runner goes on with it without claiming it again (one writing transaction fewer a step).
    Chained(Claimed),
}

#[derive(sqlx::FromRow)]
struct FinishRow {
    chained: bool,
    flow: String,
    step: String,
    claims: i32,
    lease_until: Option<DateTime<Utc>>,
    lease_token: Option<Uuid>,
    db_now: DateTime<Utc>,
    due_at: DateTime<Utc>,
    first_due_at: DateTime<Utc>,
    secrets: StoredColumn,
}

/// [`finish_if_held`] and the next plan (as [`crate::write_path::schedule_in_tx`] writes it
/// right after the lease is cleared) in one statement, fenced the same way: [`Finished::Lost`]
/// (nothing written) when another runner owns the step now or nobody does. `version`: the last
/// version of the history the plan was folded from. With `chain`, a next step already due is
/// claimed in the same statement for that runner ([`Finished::Chained`]).
pub async fn finish_and_plan(
    conn: &mut PgConnection,
    claim: &Claimed,
    step: Option<&PlannedStep>,
    version: i64,
    chain: Option<Chain<'_>>,
) -> Result<Finished, sqlx::Error> {
    let Some(step) = step else {
        let done = sqlx::query(
            "DELETE FROM due_steps
             WHERE stream_id = $1 AND lease_token = $2 AND lease_until > now() AND stream_version <= $3",
        )
        .bind(&claim.stream_id)
        .bind(claim.lease_token)
        .bind(version)
        .execute(&mut *conn)
        .await?;
        // Nothing deleted: not held, or held by a plan of a newer history (which stays).
        let held = done.rows_affected() == 1 || finish_if_held(conn, claim).await?;
        return Ok(if held { Finished::Done } else { Finished::Lost });
    };
    // A plan of an older history than the row's leaves the row's plan; the lease goes anyway,
    // unless the new plan is due already and `chain` takes it (its first claim).
    let row = sqlx::query_as::<_, FinishRow>(concat!(
        "UPDATE due_steps SET
             step = CASE WHEN stream_version <= $5 THEN $3 ELSE step END,
             due_at = CASE WHEN stream_version <= $5 THEN $4 ELSE due_at END,
             first_due_at = CASE WHEN stream_version <= $5 THEN $4 ELSE first_due_at END,
             claims = CASE WHEN stream_version <= $5 THEN
                          CASE WHEN $6::text IS NOT NULL AND $4 <= now() THEN 1 ELSE 0 END
                      ELSE claims END,
             stream_version = greatest(stream_version, $5),
             lease_until = CASE WHEN $6::text IS NOT NULL AND stream_version <= $5 AND $4 <= now()
                                THEN now() + make_interval(secs => $7::double precision / 1000) END,
             claimed_by = CASE WHEN $6::text IS NOT NULL AND stream_version <= $5 AND $4 <= now() THEN $6 END,
             lease_token = CASE WHEN $6::text IS NOT NULL AND stream_version <= $5 AND $4 <= now()
                                THEN gen_random_uuid() END,
             updated_at = now()
         WHERE stream_id = $1 AND lease_token = $2 AND lease_until > now()
         RETURNING lease_token IS NOT NULL AS chained, flow, step, claims, lease_until, lease_token,
                   now() AS db_now, due_at, first_due_at,
                   CASE WHEN lease_token IS NOT NULL THEN ",
        stored_secrets_of!("due_steps.stream_id"),
        " END AS secrets"
    ))
    .bind(&claim.stream_id)
    .bind(claim.lease_token)
    .bind(&step.name)
    .bind(step.due_at)
    .bind(version)
    .bind(chain.map(|c| c.runner_id))
    .bind(chain.map(|c| millis(c.lease)).unwrap_or(0))
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        None => Finished::Lost,
        Some(FinishRow {
            chained: true,
            flow,
            step,
            claims,
            lease_until: Some(lease_until),
            lease_token: Some(lease_token),
            db_now,
            due_at,
            first_due_at,
            secrets,
        }) => Finished::Chained(Claimed {
            stream_id: claim.stream_id.clone(),
            flow,
            step,
            claims,
            lease_until,
            lease_token,
            db_now,
            due_at,
            first_due_at,
            stream_version: version,
            secrets: Stored::from_column(secrets, std::time::Instant::now()),
        }),
        Some(_) => Finished::Done,
    })
}

/// Gives the step back to be tried again `after` from now (a failed call), if the claim is
/// still held (`false`: another runner owns the step now, and the caller drops its writes).
/// Only the same plan is pushed back: a plan a command wrote meanwhile keeps its own due time.
pub async fn retry_later(
    conn: &mut PgConnection,
    claim: &Claimed,
    after: std::time::Duration,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE due_steps
         SET lease_until = NULL, claimed_by = NULL, lease_token = NULL, updated_at = now(),
             due_at = CASE WHEN step = $3 THEN now() + make_interval(secs => $4::double precision / 1000) ELSE due_at END
         WHERE stream_id = $1 AND lease_token = $2 AND lease_until > now()",
    )
    .bind(&claim.stream_id)
    .bind(claim.lease_token)
    .bind(&claim.step)
    .bind(millis(after))
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}
