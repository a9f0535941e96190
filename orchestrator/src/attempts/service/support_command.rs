//! A support agent's command on an attempt (issue 27: retry now, cancel, add a note), on the
//! visitor's command path: in one transaction, under the attempt's lock, the facts are read (the
//! history and the runner's schedule row), the command is decided purely
//! ([`events::flow::support::decide`]), its events are sealed and appended with the next step
//! (`act`, the same as a visitor's), and the staff trail's event is appended beside them, its
//! personal fields (a typed reason) sealed under the attempt's key as the attempt's own are; all
//! commit together, then the attempt is announced (the visitor's page and the runner wake).

use events::flow::support::{self, Facts, Scheduled, SupportCommand};
use events::flow::AttemptFlow;
use events::{ExpectedVersion, NewEvent, RecordedEvent, StreamId};
use serde_json::Value;
use uuid::Uuid;

use super::command::{correlated, not_full, store_error, AttemptService, QUEUE_WAIT};
use super::locked::{lock_and_read, Locked};
use crate::error::ApiError;

/// What the staff trail records of the command, beside the attempt's events; a
/// `PiiField::clear` in its payload is sealed before it is stored.
pub struct TrailEntry {
    pub staff: Uuid,
    pub event_type: &'static str,
    pub payload: Value,
}

impl AttemptService<'_> {
    /// Decides and appends `command` by `trail.staff` on the attempt `stream`; the attempt's
    /// history after it, and the version of the first new event.
    pub async fn support_command(
        &self,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        command: SupportCommand,
        mut trail: TrailEntry,
    ) -> Result<(Vec<RecordedEvent>, i64), ApiError> {
        let mut tx = self.db.begin().await?;
        let Locked { now, history, .. } =
            lock_and_read(&mut tx, self.store, self.histories, stream, QUEUE_WAIT, None).await.map_err(store_error)?;
        not_full(&history)?;
        let scheduled = scheduled(&mut tx, stream).await?;
        let facts = Facts {
            outcome: flow.outcome(&history),
            cancelled: support::cancelled_at(&history).is_some(),
            scheduled,
            now,
        };
        let decided = support::decide(&facts, command).map_err(ApiError::Rejected)?;
        let metadata = correlated(&history, &format!("staff:{}", trail.staff), None);
        let first = history.last().map_or(1, |e| e.version + 1);
        let (after, planned) = self.act(&mut tx, stream, flow, &history, decided, &metadata, None).await?;
        trail.payload["attempt"] = Value::String(stream.as_str().to_string());
        trail.payload["version"] = Value::from(first);
        crate::write_path::pii::seal_markers_in(self.vault, &mut tx, stream, &mut trail.payload)
            .await
            .map_err(store_error)?;
        let audit = NewEvent {
            event_type: trail.event_type.to_string(),
            schema_version: 1,
            payload: trail.payload,
            metadata: events::Metadata {
                correlation_id: metadata.correlation_id,
                causation_id: None,
                actor: metadata.actor.clone(),
                client: None,
            },
        };
        let staff_stream = crate::staff::audit::stream_of(trail.staff).map_err(store_error)?;
        self.store.append_in(&mut tx, &staff_stream, ExpectedVersion::Any, vec![audit]).await.map_err(store_error)?;
        tx.commit().await?;
        self.store.announce(&[stream, &staff_stream]).await;
        // A retry now plans its step due at once: this process's runner is woken for it.
        self.handoff.committed(self.db, None, planned).await;
        Ok((after, first))
    }
}

/// The attempt's schedule row, as support's decision reads it.
async fn scheduled(conn: &mut sqlx::PgConnection, stream: &StreamId) -> Result<Option<Scheduled>, ApiError> {
    let row: Option<(String, chrono::DateTime<chrono::Utc>, i32, bool)> = sqlx::query_as(
        "SELECT step, due_at, claims, coalesce(lease_until > now(), false) FROM due_steps WHERE stream_id = $1",
    )
    .bind(stream.as_str())
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|(step, due_at, tries, running)| Scheduled { step, due_at, tries, running }))
}
