//! Plain data types exchanged with the event store.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// Who and what caused an event. Stored as the `metadata` jsonb column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metadata {
    /// Shared by every event of one visitor request / attempt chain.
    pub correlation_id: Uuid,
    /// The event or command id that directly caused this event, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub causation_id: Option<Uuid>,
    /// `visitor`, `runner`, `support:<user>`, ...
    pub actor: String,
    /// Client info (OS, browser, app version...). Never personal data in clear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<Value>,
}

/// An event to append. Its stream version and position are assigned by the store.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewEvent {
    pub event_type: String,
    /// Version of the payload shape, starting at 1; readers upcast older ones.
    pub schema_version: i32,
    pub payload: Value,
    pub metadata: Metadata,
}

/// An event as stored, with its payload upcast to the current schema version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedEvent {
    /// Global insertion order (not commit order; may have holes).
    pub position: i64,
    /// Id of the transaction that wrote it (PostgreSQL xid8).
    pub tx_id: i64,
    pub stream_id: String,
    /// 1-based version within the stream.
    pub version: i64,
    pub event_type: String,
    /// Schema version after upcasting.
    pub schema_version: i32,
    pub payload: Value,
    pub metadata: Metadata,
    pub recorded_at: DateTime<Utc>,
}

impl RecordedEvent {
    /// The checkpoint to resume `read_all_after` / `subscribe_all` just after this event.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint { tx_id: self.tx_id, position: self.position }
    }
}

/// What the writer believes the stream's version is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExpectedVersion {
    /// The stream must not exist yet (same as `Exact(0)`).
    NoStream,
    /// The stream's last event must have this version.
    Exact(i64),
    /// No check: append after whatever is there.
    Any,
}

impl ExpectedVersion {
    /// Encoding used by the SQL function `append_events`: NULL = any, 0 = no stream.
    pub(crate) fn as_sql(self) -> Option<i64> {
        match self {
            ExpectedVersion::NoStream => Some(0),
            ExpectedVersion::Exact(v) => Some(v),
            ExpectedVersion::Any => None,
        }
    }
}

impl fmt::Display for ExpectedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpectedVersion::NoStream => f.write_str("no stream"),
            ExpectedVersion::Exact(v) => write!(f, "version {v}"),
            ExpectedVersion::Any => f.write_str("any version"),
        }
    }
}

/// Result of a successful append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppendOutcome {
    /// The stream's version after the append (= version of the last appended event).
    pub stream_version: i64,
    /// Global positions of the appended events, in append order.
    pub positions: Vec<i64>,
    /// The time the events are recorded with (the transaction's `now()`), read by the append's
    /// own statement so a caller folding them needs no second round trip for it.
    pub recorded_at: chrono::DateTime<chrono::Utc>,
}

/// Where a reader of all events stands: the (transaction id, position) of the last
/// event it processed. `Default` is the start of the log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Checkpoint {
    pub tx_id: i64,
    pub position: i64,
}

impl Checkpoint {
    /// The start of the log.
    pub const START: Checkpoint = Checkpoint { tx_id: 0, position: 0 };
}
