//! The one error type of the event store and the personal-data vault.

use uuid::Uuid;

use crate::types::ExpectedVersion;

/// Everything that can go wrong when appending, reading or (un)sealing.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The stream was not at the expected version: another writer got there first.
    /// `actual` is the stream's version when the append was refused (0 = no stream).
    #[error("version conflict on stream {stream}: expected {expected}, actual {actual}")]
    Conflict { stream: String, expected: ExpectedVersion, actual: i64 },

    /// The stream's lock stayed held by another writer past the wait the caller allowed.
    #[error("stream {0} stayed locked by another writer")]
    Busy(String),

    /// An append was asked with no events.
    #[error("an append needs at least one event")]
    EmptyAppend,

    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),

    /// A registered upcaster refused a stored payload.
    #[error("cannot upcast {event_type} from schema version {from_version}: {message}")]
    Upcast { event_type: String, from_version: i32, message: String },

    #[error("serialization error: {0}")]
    Serialization(#[from] serde_json::Error),

    #[error("invalid stream id {0:?}: expected <flow>-<uuid>, flow in lowercase ascii letters")]
    InvalidStreamId(String),

    /// Bad key material, a tampered ciphertext or a malformed sealed value.
    #[error("crypto error: {0}")]
    Crypto(String),

    /// Sealing for a subject that does not exist (never created, or forgotten).
    #[error("unknown personal-data subject {0}")]
    UnknownSubject(Uuid),
}

impl StoreError {
    /// The error of a statement that waited on `stream`'s lock (`lock_streams`, under the
    /// transaction's `lock_timeout`): the time-out (55P03, lock_not_available) is
    /// [`StoreError::Busy`]; the transaction is then aborted.
    pub fn waiting_on(stream: &str, error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::Database(e) if e.code().as_deref() == Some("55P03") => Self::Busy(stream.to_string()),
            other => other.into(),
        }
    }
}
