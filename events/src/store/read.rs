//! Reads. Every read upcasts payloads through the store's registry.

use sqlx::Row;

use super::{EventStore, SELECT_EVENT};
use crate::error::StoreError;
use crate::stream_id::StreamId;
use crate::types::{Checkpoint, RecordedEvent};

/// Whether visible events after checkpoint ($1, $2) have `tx_id >= xmin`. The lower
/// bound is written as one row comparison, max((cp), (xmin, 0)), so the index scan
/// starts at it: with the two conditions apart it would walk from the checkpoint.
/// The first such event in index order, not `EXISTS`: without statistics on `events` (a
/// young or fast-growing table) the planner took `EXISTS` for a sequential scan that stops
/// at its first row, and the rows it wants are the newest, so it read the whole table and
/// evaluated the snapshot's bound on every row (30 to 50 ms a call at 8,000 events in the
/// load benchmark, the funnel projection's every page; docs/benchmarks.md).
const HELD_BACK: &str = "coalesce((SELECT true FROM events e WHERE (e.tx_id, e.position) > ( \
       GREATEST($1::bigint::text::xid8, pg_snapshot_xmin(pg_current_snapshot())), \
       CASE WHEN $1::bigint::text::xid8 >= pg_snapshot_xmin(pg_current_snapshot()) \
            THEN $2::bigint ELSE 0::bigint END) \
     ORDER BY e.tx_id, e.position LIMIT 1), false)";

/// [`EventStore::stream_category_after`]'s query: the gap-free read of one category, whole.
const CATEGORY_AFTER: &str = "SELECT e.position, e.tx_id::text::bigint AS tx_id, e.stream_id, e.version, \
     e.event_type, e.schema_version, e.payload, e.metadata, e.recorded_at FROM events e \
     WHERE (e.tx_id, e.position) > ($1::bigint::text::xid8, $2) \
       AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) AND e.category = $3 \
     ORDER BY e.tx_id, e.position";

impl EventStore {
    /// All events of one stream, in version order.
    pub async fn read_stream(&self, stream: &StreamId) -> Result<Vec<RecordedEvent>, StoreError> {
        // Versions start at 1.
        self.read_stream_after(stream, 0).await
    }

    /// The events of one stream after `after_version`, in version order: what a follower
    /// that already holds the stream up to that version is missing. Versions are gap-free
    /// and a stream's appends are serialized, so nothing below the last one returned can
    /// commit later.
    pub async fn read_stream_after(
        &self,
        stream: &StreamId,
        after_version: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        self.stream_after(&self.pool, stream, after_version).await
    }

    async fn stream_after<'e>(
        &self,
        executor: impl sqlx::PgExecutor<'e>,
        stream: &StreamId,
        after_version: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let sql = format!("{SELECT_EVENT} WHERE e.stream_id = $1 AND e.version > $2 ORDER BY e.version");
        let rows = sqlx::query(&sql).bind(stream.as_str()).bind(after_version).fetch_all(executor).await?;
        rows.iter().map(|r| self.decode(r)).collect()
    }

    /// Up to `limit` events of every stream of `category` (`activation`, ...) with a
    /// position above `after_position`, in position order.
    ///
    /// Positions are insertion order, not commit order: while writers are in flight
    /// this can skip an event that commits late with a lower position. Use it for
    /// reports over settled data; live followers use [`EventStore::read_all_after`].
    pub async fn read_category(
        &self,
        category: &str,
        after_position: i64,
        limit: i64,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let sql = format!("{SELECT_EVENT} WHERE e.category = $1 AND e.position > $2 ORDER BY e.position LIMIT $3");
        let rows = sqlx::query(&sql).bind(category).bind(after_position).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(|r| self.decode(r)).collect()
    }

    /// Up to `limit` events after `checkpoint`, in (transaction id, position) order,
    /// gap-free: only events of transactions older than every transaction still in
    /// progress are returned, so an event that commits late is delivered later instead
    /// of being skipped. Resume with the last event's [`RecordedEvent::checkpoint`].
    pub async fn read_all_after(&self, checkpoint: Checkpoint, limit: i64) -> Result<Vec<RecordedEvent>, StoreError> {
        Ok(self.read_all_after_probe(checkpoint, limit).await?.0)
    }

    /// [`EventStore::read_all_after`] plus, from the same snapshot, whether committed
    /// events after `checkpoint` are held back. One snapshot for both matters to
    /// subscribers: an empty batch with nothing held back means that every event they
    /// have not seen commits after this read, so its NOTIFY is still to come.
    pub(crate) async fn read_all_after_probe(
        &self,
        checkpoint: Checkpoint,
        limit: i64,
    ) -> Result<(Vec<RecordedEvent>, bool), StoreError> {
        // One statement, so the batch and the probe share one snapshot. Both walk the
        // (tx_id, position) index; see HELD_BACK for the probe's bound.
        let sql = format!(
            "WITH batch AS ( \
               SELECT e.* FROM events e \
               WHERE (e.tx_id, e.position) > ($1::bigint::text::xid8, $2) \
                 AND e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) \
               ORDER BY e.tx_id, e.position LIMIT $3) \
             SELECT b.position, b.tx_id::text::bigint AS tx_id, b.stream_id, b.version, \
               b.event_type, b.schema_version, b.payload, b.metadata, b.recorded_at, \
               {HELD_BACK} AS held_back \
             FROM (SELECT 1) one LEFT JOIN batch b ON true \
             ORDER BY b.tx_id, b.position"
        );
        let rows = sqlx::query(&sql)
            .bind(checkpoint.tx_id)
            .bind(checkpoint.position)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let mut held_back = false;
        let mut events = Vec::with_capacity(rows.len());
        for row in &rows {
            held_back = row.try_get("held_back")?;
            // The left join yields one all-NULL row when the batch is empty.
            let position: Option<i64> = row.try_get("position")?;
            if position.is_some() {
                events.push(self.decode(row)?);
            }
        }
        Ok((events, held_back))
    }

    /// Every event of `category` after `checkpoint`, in the gap-free order of
    /// [`EventStore::read_all_after`], streamed by one query (one snapshot, no page to plan
    /// again): for replays of history. Events of transactions still open when it started are
    /// left for the next call (see [`EventStore::has_held_back_after`]). The snapshot is held
    /// while the stream is read: keep it for analysts' replays, not for live followers.
    pub fn stream_category_after<'a>(
        &'a self,
        category: &'a str,
        checkpoint: Checkpoint,
    ) -> impl futures::Stream<Item = Result<RecordedEvent, StoreError>> + Send + 'a {
        use futures::StreamExt;
        sqlx::query(CATEGORY_AFTER)
            .bind(checkpoint.tx_id)
            .bind(checkpoint.position)
            .bind(category)
            .fetch(&self.pool)
            .map(move |row| row.map_err(StoreError::from).and_then(|row| self.decode(&row)))
    }

    /// Whether committed events after `checkpoint` exist that [`EventStore::read_all_after`]
    /// still holds back because an older transaction (of any database in the cluster)
    /// is in progress. Followers use it to re-read soon instead of sleeping a full
    /// poll interval: that blocking transaction may end without notifying.
    pub async fn has_held_back_after(&self, checkpoint: Checkpoint) -> Result<bool, StoreError> {
        Ok(sqlx::query_scalar(&format!("SELECT {HELD_BACK}"))
            .bind(checkpoint.tx_id)
            .bind(checkpoint.position)
            .fetch_one(&self.pool)
            .await?)
    }
}
