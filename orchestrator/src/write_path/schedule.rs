//! Writes the schedule row of an attempt in the caller's transaction.

use chrono::{DateTime, Utc};
use events::flow::PlannedStep;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::secrets::{stored_secrets_of, Stored, StoredColumn};

/// Channel that wakes idle runners: the event store's. A step is planned by the transaction
/// that appends the events it follows from, and that append is announced after its commit
/// (a NOTIFY inside the transaction would serialize concurrent commits; issue 15). A plan
/// written without an append (a re-plan, a retry later) is the runner's own, which claims it
/// itself or wakes for its due time.
pub const CHANNEL: &str = events::NOTIFY_CHANNEL;

/// Sets (or clears, with `None`) the step due for `stream`, as folded from the stream at
/// `version` (the last version of the history `step` was planned from).
///
/// - A plan folded from an older version than the row's is ignored: the row already follows a
///   newer history (a runner re-planning from a stale read must not undo a visitor's command).
/// - A live lease is kept: a runner may be mid-call on this stream, and clearing its lease
///   would let a second runner start the new step while the first call still runs. The holder
///   gives the lease back when its own append conflicts ([`super::claim::release`]).
/// - `claims` starts again from 0: the stream moved, so earlier claims were not retries of
///   this plan; `first_due_at` is the new plan's due time (a retry later moves only `due_at`,
///   so support sees how long the step has waited).
pub async fn schedule_in_tx(
    conn: &mut PgConnection,
    stream_id: &str,
    flow: &str,
    step: Option<&PlannedStep>,
    version: i64,
) -> Result<(), sqlx::Error> {
    match step {
        Some(step) => {
            sqlx::query(
                "INSERT INTO due_steps (stream_id, flow, step, due_at, first_due_at, stream_version)
                 VALUES ($1, $2, $3, $4, $4, $5)
                 ON CONFLICT (stream_id) DO UPDATE
                 SET step = EXCLUDED.step, due_at = EXCLUDED.due_at, flow = EXCLUDED.flow,
                     first_due_at = EXCLUDED.first_due_at,
                     stream_version = EXCLUDED.stream_version,
                     lease_until = CASE WHEN due_steps.lease_until > now() THEN due_steps.lease_until END,
                     claimed_by = CASE WHEN due_steps.lease_until > now() THEN due_steps.claimed_by END,
                     lease_token = CASE WHEN due_steps.lease_until > now() THEN due_steps.lease_token END,
                     claims = 0,
                     updated_at = now()
                 WHERE due_steps.stream_version <= EXCLUDED.stream_version",
            )
            .bind(stream_id)
            .bind(flow)
            .bind(&step.name)
            .bind(step.due_at)
            .bind(version)
            .execute(&mut *conn)
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM due_steps WHERE stream_id = $1 AND stream_version <= $2")
                .bind(stream_id)
                .bind(version)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

/// A due step a runner now holds until `lease_until`.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub stream_id: String,
    pub flow: String,
    pub step: String,
    /// How many times this plan was claimed, this claim included.
    pub claims: i32,
    pub lease_until: DateTime<Utc>,
    /// Names this claim in every later write of it.
    pub lease_token: Uuid,
    /// The database's clock when the claim was taken.
    pub db_now: DateTime<Utc>,
    /// When the step fell due (the runner's lag is `db_now - due_at`).
    pub due_at: DateTime<Utc>,
    /// When this plan of the step first fell due (a retry later moves only `due_at`): the
    /// retry budget's start when no try of it was recorded (earlier claims never reported).
    pub first_due_at: DateTime<Utc>,
    /// The stream's version when the claim was taken (read by the claim's statement): a
    /// history this process kept at it needs no read.
    pub stream_version: i64,
    /// The attempt's secrets as the claim's statement read them, for the step's reads.
    pub secrets: Stored,
}

pub(crate) fn millis(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Who takes a next step that is due at once: the runner whose step planned it
/// ([`crate::runner::claim::finish_and_plan`]), or the one a command hands it to ([`schedule_and_take`]).
#[derive(Debug, Clone, Copy)]
pub struct Chain<'a> {
    pub runner_id: &'a str,
    pub lease: std::time::Duration,
}

/// What a writer's plan came to ([`super::append_and_plan`]).
#[derive(Debug)]
pub enum Planned {
    /// No step is due (none was, or the row is gone).
    Nothing,
    /// A step is planned, free for any runner to claim.
    Free,
    /// A step due at once is planned and claimed for the writer's runner.
    Taken(Claimed),
}

#[derive(sqlx::FromRow)]
struct TakenRow {
    taken: bool,
    claims: i32,
    lease_until: Option<DateTime<Utc>>,
    db_now: DateTime<Utc>,
    due_at: DateTime<Utc>,
    first_due_at: DateTime<Utc>,
    secrets: StoredColumn,
}

/// [`schedule_in_tx`] of a step, which `chain`'s runner claims in the same statement when it is
/// due already and no live lease holds the row (its first claim, under a new token): the
/// claim, or `None` when the plan was written free (due later, held, or a newer plan stands).
pub async fn schedule_and_take(
    conn: &mut PgConnection,
    stream_id: &str,
    flow: &str,
    step: &PlannedStep,
    version: i64,
    chain: Chain<'_>,
) -> Result<Option<Claimed>, sqlx::Error> {
    let token = Uuid::new_v4();
    let row = sqlx::query_as::<_, TakenRow>(concat!(
        "INSERT INTO due_steps AS d (stream_id, flow, step, due_at, first_due_at, stream_version,
                                     lease_until, claimed_by, lease_token, claims)
         SELECT $1, $2, $3, $4, $4, $5,
                CASE WHEN $4 <= now() THEN now() + make_interval(secs => $7::double precision / 1000) END,
                CASE WHEN $4 <= now() THEN $6 END,
                CASE WHEN $4 <= now() THEN $8::uuid END,
                CASE WHEN $4 <= now() THEN 1 ELSE 0 END
         ON CONFLICT (stream_id) DO UPDATE
         SET step = EXCLUDED.step, due_at = EXCLUDED.due_at, flow = EXCLUDED.flow,
             first_due_at = EXCLUDED.first_due_at,
             stream_version = EXCLUDED.stream_version,
             lease_until = CASE WHEN d.lease_until > now() THEN d.lease_until ELSE EXCLUDED.lease_until END,
             claimed_by = CASE WHEN d.lease_until > now() THEN d.claimed_by ELSE EXCLUDED.claimed_by END,
             lease_token = CASE WHEN d.lease_until > now() THEN d.lease_token ELSE EXCLUDED.lease_token END,
             claims = CASE WHEN d.lease_until > now() THEN 0 ELSE EXCLUDED.claims END,
             updated_at = now()
         WHERE d.stream_version <= EXCLUDED.stream_version
         RETURNING coalesce(d.lease_token = $8, false) AS taken, d.claims, d.lease_until, now() AS db_now,
                   d.due_at, d.first_due_at, CASE WHEN d.lease_token = $8 THEN ",
        stored_secrets_of!("d.stream_id"),
        " END AS secrets"
    ))
    .bind(stream_id)
    .bind(flow)
    .bind(&step.name)
    .bind(step.due_at)
    .bind(version)
    .bind(chain.runner_id)
    .bind(millis(chain.lease))
    .bind(token)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(match row {
        Some(TakenRow {
            taken: true,
            claims,
            lease_until: Some(lease_until),
            db_now,
            due_at,
            first_due_at,
            secrets,
        }) => Some(Claimed {
            stream_id: stream_id.to_string(),
            flow: flow.to_string(),
            step: step.name.clone(),
            claims,
            lease_until,
            lease_token: token,
            db_now,
            due_at,
            first_due_at,
            stream_version: version,
            secrets: Stored::from_column(secrets, std::time::Instant::now()),
        }),
        _ => None,
    })
}

/// Gives the lease back without a call having failed (the stream moved on meanwhile): the
/// claim was not a try of the step, so it is not counted.
pub async fn release(db: &PgPool, claim: &Claimed) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE due_steps
         SET lease_until = NULL, claimed_by = NULL, lease_token = NULL, updated_at = now(),
             claims = CASE WHEN step = $3 THEN greatest(claims - 1, 0) ELSE claims END
         WHERE stream_id = $1 AND lease_token = $2",
    )
    .bind(&claim.stream_id)
    .bind(claim.lease_token)
    .bind(&claim.step)
    .execute(db)
    .await?;
    Ok(())
}
