//! The PostgreSQL event store. Schema: `migrations/0001_event_store.sql`; design notes:
//! `docs/event-store.md`.

mod append;
mod listen;
mod notify;
mod read;
mod subscribe;

use std::sync::Arc;

use sqlx::postgres::PgRow;
use sqlx::{PgPool, Row};

use crate::error::StoreError;
use crate::types::{Metadata, RecordedEvent};
use crate::upcast::Upcasters;

pub use listen::Hears;
pub use notify::{streams_named, versions_named};
pub use subscribe::{Subscription, SubscriptionOptions};

/// NOTIFY channel on which every append announces its stream id (at commit).
pub const NOTIFY_CHANNEL: &str = "events";

/// Events one writer of this process committed to one stream, in version order, as it holds
/// them (positions and transaction ids unknown: 0). Every commit of this process is handed
/// over so, with or without its events: its NOTIFY may be skipped (notify.rs).
#[derive(Debug, Clone)]
pub struct Appended {
    pub stream: String,
    /// Empty when the writer only said the stream changed: its readers read.
    pub events: Vec<RecordedEvent>,
}

impl Appended {
    /// A change to `stream` whose events the writer did not hand over.
    fn named(stream: &crate::stream_id::StreamId) -> Self {
        Self { stream: stream.as_str().to_string(), events: Vec::new() }
    }
}

/// Handle on the event store; cheap to clone (a pool and a shared upcaster registry).
#[derive(Clone, Debug)]
pub struct EventStore {
    pool: PgPool,
    upcasters: Arc<Upcasters>,
    /// Sends the NOTIFY that follows each committed `append` (see notify.rs).
    notifier: Arc<notify::Notifier>,
}

impl EventStore {
    /// A store without upcasters: payloads are returned as stored.
    pub fn new(pool: PgPool) -> Self {
        Self::with_upcasters(pool, Upcasters::new())
    }

    /// A store that raises old payloads through `upcasters` on every read.
    pub fn with_upcasters(pool: PgPool, upcasters: Upcasters) -> Self {
        Self { pool, upcasters: Arc::new(upcasters), notifier: Arc::default() }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub fn upcasters(&self) -> &Upcasters {
        &self.upcasters
    }

    /// Decodes one row of [`SELECT_EVENT`] (or a row with its columns, by name, such as the
    /// `lock_and_read_stream` function's) and upcasts its payload.
    pub fn decode(&self, row: &PgRow) -> Result<RecordedEvent, StoreError> {
        let event_type: String = row.try_get("event_type")?;
        let stored_version: i32 = row.try_get("schema_version")?;
        let (payload, schema_version) = self.upcasters.upcast(&event_type, stored_version, row.try_get("payload")?)?;
        let metadata: Metadata = serde_json::from_value(row.try_get("metadata")?)?;
        Ok(RecordedEvent {
            position: row.try_get("position")?,
            tx_id: row.try_get("tx_id")?,
            stream_id: row.try_get("stream_id")?,
            version: row.try_get("version")?,
            event_type,
            schema_version,
            payload,
            metadata,
            recorded_at: row.try_get("recorded_at")?,
        })
    }
}

/// Column list shared by every read; xid8 has no sqlx type, so it goes through text.
const SELECT_EVENT: &str = "SELECT e.position, e.tx_id::text::bigint AS tx_id, e.stream_id, e.version, \
     e.event_type, e.schema_version, e.payload, e.metadata, e.recorded_at FROM events e";
