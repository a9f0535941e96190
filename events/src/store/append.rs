//! Appends: one statement (the `append_events` SQL function) per batch, so the version
//! check and the inserts are a single round trip.

use sqlx::{PgConnection, Row};

use super::{Appended, EventStore};
use crate::error::StoreError;
use crate::stream_id::StreamId;
use crate::types::{AppendOutcome, ExpectedVersion, NewEvent, RecordedEvent};

impl EventStore {
    /// Appends `events` to `stream` atomically if the stream is at `expected`.
    ///
    /// A stale expectation returns [`StoreError::Conflict`] and writes nothing (not even
    /// a position). Subscribers are notified when the transaction commits.
    pub async fn append(
        &self,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
    ) -> Result<AppendOutcome, StoreError> {
        // One autocommit statement is its own transaction. The NOTIFY follows the
        // commit (notify.rs): inside the transaction it would serialize concurrent
        // commits (docs/event-store.md, "Notifications").
        let mut conn = self.pool.acquire().await?;
        let outcome = append_on(&mut conn, stream, expected, &events).await?;
        drop(conn);
        self.notifier.committed(&self.pool, [(stream.as_str(), Some(outcome.stream_version))]).await;
        self.notifier.hand_over(Appended::named(stream));
        Ok(outcome)
    }

    /// [`EventStore::append`] on the caller's connection: inside its transaction (pass
    /// `&mut *tx`), so the caller can write its own tables atomically with the events, or on a
    /// bare connection as a statement of its own. Nothing is announced from inside the
    /// transaction (a NOTIFY there would serialize concurrent commits: docs/event-store.md,
    /// "Notifications"); the caller calls [`EventStore::announce`] once it committed, or not
    /// at all for events nobody waits on.
    ///
    /// On `Conflict` the transaction is still usable (nothing was written); the caller
    /// decides whether to roll back. Under REPEATABLE READ / SERIALIZABLE a concurrent
    /// writer surfaces as a `Database` serialization error instead of `Conflict`.
    pub async fn append_in(
        &self,
        conn: &mut PgConnection,
        stream: &StreamId,
        expected: ExpectedVersion,
        events: Vec<NewEvent>,
    ) -> Result<AppendOutcome, StoreError> {
        append_on(conn, stream, expected, &events).await
    }

    /// Wakes the subscribers of `streams` after the caller's transaction that appended to
    /// them with [`EventStore::append_in`] committed.
    pub async fn announce(&self, streams: &[&StreamId]) {
        self.notifier.committed(&self.pool, streams.iter().map(|s| (s.as_str(), None))).await;
        for stream in streams {
            self.notifier.hand_over(Appended::named(stream));
        }
    }

    /// [`EventStore::announce`] of one stream, naming the version `appended` ends with, and
    /// handing `appended` (the events the caller's committed transaction appended, as it holds
    /// them) to this process's readers ([`EventStore::appended_here`]), who then need not read
    /// them back.
    pub async fn announce_appended(&self, stream: &StreamId, appended: &[RecordedEvent]) {
        let version = appended.last().map(|e| e.version);
        self.notifier.committed(&self.pool, [(stream.as_str(), version)]).await;
        self.notifier.hand_over(Appended { stream: stream.as_str().to_string(), events: appended.to_vec() });
    }

    /// Sends one NOTIFY naming `streams` now, unless no listener needs it (one of another
    /// store's, or one that hears every commit from NOTIFYs: [`EventStore::listener`]); whether
    /// it was sent. Writers need not call it: every commit is announced after it, in batches.
    pub async fn notify_listeners(&self, streams: &[&StreamId]) -> Result<bool, StoreError> {
        let named: Vec<&str> = streams.iter().map(|s| s.as_str()).collect();
        Ok(super::notify::notify_if_heard(&self.pool, self.notifier.tag(), &named.join(",")).await?)
    }

    /// Whether `payload` (of a NOTIFY on [`super::NOTIFY_CHANNEL`]) was sent by this store or a
    /// clone of it: commits a listener of this process may learn of in process instead.
    pub fn sent_here(&self, payload: &str) -> bool {
        self.notifier.sent_here(payload)
    }

    /// What this process commits from now on, stream by stream ([`EventStore::announce_appended`]):
    /// a reader that falls behind sees `Lagged` and reads instead.
    pub fn appended_here(&self) -> tokio::sync::broadcast::Receiver<std::sync::Arc<Appended>> {
        self.notifier.appended_here()
    }

    /// Current version of `stream` (0 when it has no events).
    pub async fn stream_version(&self, stream: &StreamId) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT coalesce(max(version), 0)::bigint FROM events WHERE stream_id = $1")
            .bind(stream.as_str())
            .fetch_one(&self.pool)
            .await?)
    }
}

async fn append_on(
    conn: &mut PgConnection,
    stream: &StreamId,
    expected: ExpectedVersion,
    events: &[NewEvent],
) -> Result<AppendOutcome, StoreError> {
    if events.is_empty() {
        return Err(StoreError::EmptyAppend);
    }
    let mut types = Vec::with_capacity(events.len());
    let mut schema_versions = Vec::with_capacity(events.len());
    let mut payloads = Vec::with_capacity(events.len());
    let mut metadata = Vec::with_capacity(events.len());
    for e in events {
        types.push(e.event_type.as_str());
        schema_versions.push(e.schema_version);
        payloads.push(&e.payload);
        metadata.push(serde_json::to_value(&e.metadata)?);
    }
    let row = sqlx::query("SELECT appended, stream_version, positions, now() AS recorded_at FROM append_events($1, $2, $3, $4, $5, $6, $7)")
        .bind(stream.as_str())
        .bind(expected.as_sql())
        .bind(&types)
        .bind(&schema_versions)
        .bind(&payloads)
        .bind(&metadata)
        // Never a NOTIFY inside the transaction: the writer announces after its commit.
        .bind(false)
        .fetch_one(&mut *conn)
        .await?;

    let appended: bool = row.try_get("appended")?;
    let stream_version: i64 = row.try_get("stream_version")?;
    if !appended {
        return Err(StoreError::Conflict { stream: stream.to_string(), expected, actual: stream_version });
    }
    let positions: Vec<i64> = row.try_get("positions")?;
    let recorded_at = row.try_get("recorded_at")?;
    Ok(AppendOutcome { stream_version, positions, recorded_at })
}
