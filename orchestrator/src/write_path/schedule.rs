//! Writes the schedule row of an attempt in the caller's transaction.

use sqlx::PgConnection;

use events::flow::PlannedStep;

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
