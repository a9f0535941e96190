//! A writer's first round trip on an attempt: its lock, the answer stored under the command's
//! idempotency key, and the events this process does not already hold, in one call of the
//! `lock_and_read_stream` function (migration 0040; it was three round trips, issue 30).

use std::time::Duration;

use chrono::{DateTime, Utc};
use events::{EventStore, RecordedEvent, StoreError, StreamId};
use serde_json::Value;
use sqlx::Row;

use crate::write_path::Histories;

/// The attempt, locked for the caller's transaction.
pub(super) struct Locked {
    /// The transaction's time: the one its events are recorded with.
    pub now: DateTime<Utc>,
    /// What an earlier request under the key answered, with its fingerprint (then `history`
    /// is not read: the command will not decide).
    pub earlier: Option<(Value, Option<Vec<u8>>)>,
    /// The whole stream: the history this process kept, and the events after it, read.
    pub history: Vec<RecordedEvent>,
}

/// Takes `stream`'s lock in the caller's transaction (waiting at most `wait` for another
/// writer: [`StoreError::Busy`] past it), then finds the answer stored under `key` and, when
/// there is none, the stream's events. A history this process kept ([`Histories::latest`]) is a
/// prefix of the stream, so only the events after it are read.
pub(super) async fn lock_and_read(
    conn: &mut sqlx::PgConnection,
    store: &EventStore,
    histories: &Histories,
    stream: &StreamId,
    wait: Duration,
    key: Option<&str>,
) -> Result<Locked, StoreError> {
    let mut history = histories.latest(stream.as_str()).unwrap_or_default();
    let after = history.last().map_or(0, |e| e.version);
    let rows = sqlx::query("SELECT * FROM lock_and_read_stream($1, $2, $3, $4)")
        .bind(stream.as_str())
        .bind(format!("{}ms", wait.as_millis().max(1)))
        .bind(key)
        .bind(after)
        .fetch_all(&mut *conn)
        .await
        .map_err(|error| StoreError::waiting_on(stream.as_str(), error))?;
    let (header, events) = rows.split_first().ok_or_else(|| StoreError::Database(sqlx::Error::RowNotFound))?;
    let now = header.try_get("locked_at")?;
    let answer: Option<Value> = header.try_get("answer")?;
    if let Some(answer) = answer {
        return Ok(Locked { now, earlier: Some((answer, header.try_get("fingerprint")?)), history: Vec::new() });
    }
    for row in events {
        history.push(store.decode(row)?);
    }
    Ok(Locked { now, earlier: None, history })
}
