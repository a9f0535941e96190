//! Writes the schedule row of an attempt in the caller's transaction.

use sqlx::PgConnection;

use super::flow::PlannedStep;

/// Channel that wakes idle runners when a step is scheduled.
pub const CHANNEL: &str = "due_steps";

/// Sets (or clears, with `None`) the step due for `stream`, and releases any lease on it.
pub async fn schedule_in_tx(
    conn: &mut PgConnection,
    stream_id: &str,
    flow: &str,
    step: Option<&PlannedStep>,
) -> Result<(), sqlx::Error> {
    match step {
        Some(step) => {
            sqlx::query(
                "INSERT INTO due_steps (stream_id, flow, step, due_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (stream_id) DO UPDATE
                 SET step = EXCLUDED.step, due_at = EXCLUDED.due_at, flow = EXCLUDED.flow,
                     lease_until = NULL, claimed_by = NULL,
                     claims = CASE WHEN due_steps.step = EXCLUDED.step THEN due_steps.claims ELSE 0 END,
                     updated_at = now()",
            )
            .bind(stream_id)
            .bind(flow)
            .bind(&step.name)
            .bind(step.due_at)
            .execute(&mut *conn)
            .await?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(stream_id)
                .execute(&mut *conn)
                .await?;
        }
        None => {
            sqlx::query("DELETE FROM due_steps WHERE stream_id = $1")
                .bind(stream_id)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}
