//! Append → fold → next step → schedule, in the caller's transaction.

use chrono::{DateTime, Utc};
use events::flow::PlannedStep;
use events::{EventStore, ExpectedVersion, NewEvent, RecordedEvent, StoreError, StreamId};
use sqlx::PgConnection;

use super::schedule::{schedule_and_take, Chain, Planned};
use super::schedule_in_tx;

/// Appends `new_events` after `history` (the whole stream so far: empty for a new stream) and
/// schedules what `next_step` names for the result, on `conn` (the caller's transaction):
/// [`append_after`] then [`plan_next`]. Returns the history with the new events. The caller
/// announces the stream ([`EventStore::announce`]) once its transaction committed: a NOTIFY
/// inside it would serialize concurrent commits (issue 15). A concurrent writer shows as
/// [`StoreError::Conflict`]; the caller decides again or gives way. With `chain`, a next step
/// due at once is claimed for that runner in the same statement as its plan; what was planned
/// is returned beside the history ([`Planned`]).
#[allow(clippy::too_many_arguments)]
pub async fn append_and_plan(
    conn: &mut PgConnection,
    store: &EventStore,
    stream: &StreamId,
    category: &str,
    history: Vec<RecordedEvent>,
    new_events: Vec<NewEvent>,
    next_step: impl Fn(&[RecordedEvent]) -> Option<PlannedStep>,
    chain: Option<Chain<'_>>,
) -> Result<(Vec<RecordedEvent>, Planned), StoreError> {
    // Every append plans from the same fold, so a history that plans nothing has no schedule
    // row (a give-up deletes it whatever the fold says, and then this fold is not nothing):
    // when the new events plan nothing either, there is no row to write or delete.
    let planned_nothing = history.is_empty() || next_step(&history).is_none();
    let history = append_after(conn, store, stream, history, new_events).await?;
    let next = next_step(&history);
    let version = history.last().map(|e| e.version).unwrap_or(0);
    let planned = match (next, chain) {
        (Some(step), Some(chain)) => {
            match schedule_and_take(conn, stream.as_str(), category, &step, version, chain).await? {
                Some(claimed) => Planned::Taken(claimed),
                None => Planned::Free,
            }
        }
        (Some(step), None) => {
            schedule_in_tx(conn, stream.as_str(), category, Some(&step), version).await?;
            Planned::Free
        }
        (None, _) => {
            if !planned_nothing {
                schedule_in_tx(conn, stream.as_str(), category, None, version).await?;
            }
            Planned::Nothing
        }
    };
    Ok((history, planned))
}

/// The first half of [`append_and_plan`], for a writer that fences between the two (the
/// runner checks its claim after the stream's lock and before the schedule row's): appends
/// `new_events` at the version `history` ends with and returns the history with them, as
/// folds read them (recorded at the transaction's time).
pub async fn append_after(
    conn: &mut PgConnection,
    store: &EventStore,
    stream: &StreamId,
    mut history: Vec<RecordedEvent>,
    new_events: Vec<NewEvent>,
) -> Result<Vec<RecordedEvent>, StoreError> {
    let expected = match history.last() {
        None => ExpectedVersion::NoStream,
        Some(last) => ExpectedVersion::Exact(last.version),
    };
    let version = history.last().map(|e| e.version).unwrap_or(0);
    let appended = store.append_in(conn, stream, expected, new_events.clone()).await?;
    // Folded with the time they are recorded with (the transaction's `now()`, which the
    // append's statement read).
    history.extend(recorded_after(stream, version, new_events, appended.recorded_at));
    Ok(history)
}

/// The second half of [`append_and_plan`]: schedules the step `next_step` names for `history`.
pub async fn plan_next(
    conn: &mut PgConnection,
    stream: &StreamId,
    category: &str,
    history: &[RecordedEvent],
    next_step: impl FnOnce(&[RecordedEvent]) -> Option<PlannedStep>,
) -> Result<(), sqlx::Error> {
    let next = next_step(history);
    let version = history.last().map(|e| e.version).unwrap_or(0);
    schedule_in_tx(conn, stream.as_str(), category, next.as_ref(), version).await
}

/// Appended events as a fold reads them back (folds use neither positions nor transaction ids),
/// recorded at `at` (the database's time of the append).
pub fn recorded_after(
    stream: &StreamId,
    after_version: i64,
    events: Vec<NewEvent>,
    at: DateTime<Utc>,
) -> Vec<RecordedEvent> {
    events
        .into_iter()
        .zip(after_version + 1..)
        .map(|(e, version)| RecordedEvent {
            position: 0,
            tx_id: 0,
            stream_id: stream.as_str().to_string(),
            version,
            event_type: e.event_type,
            schema_version: e.schema_version,
            payload: e.payload,
            metadata: e.metadata,
            recorded_at: at,
        })
        .collect()
}
