//! Decided events → events fit to store.

use events::pii::Vault;
use events::{Metadata, NewEvent, StoreError, StreamId};
use serde_json::Value;

use super::pii::{has_clear_marker, seal_markers_in, stash_secrets_in};
use super::Secrets;

/// Why decided events could not be made fit to store.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("sealing personal data in {event_type}: {source}")]
    Seal { event_type: String, source: StoreError },
    #[error("keeping a secret of {event_type}: {source}")]
    Secret { event_type: String, source: sqlx::Error },
    /// A personal-data or secret marker survived: a bug, and never stored.
    #[error("unsealed personal data in {0}")]
    LeftInClear(String),
}

/// Encoded `(type, payload)` pairs of one stream, with their metadata, sealed and stripped of
/// secrets in order, in the caller's transaction, the one that appends the events (a
/// visitor's command, a step's outcome): nothing it writes (vault subjects, look-ups, links,
/// secrets) outlives a write that fails or is refused after it, and the first failure stops
/// the whole batch.
pub async fn prepare_in(
    conn: &mut sqlx::PgConnection,
    vault: &Vault,
    secrets: &Secrets,
    stream: &StreamId,
    decided: Vec<(String, Value)>,
    metadata: &Metadata,
) -> Result<Vec<NewEvent>, PrepareError> {
    let mut out = Vec::with_capacity(decided.len());
    for (event_type, mut payload) in decided {
        if let Err(source) = seal_markers_in(vault, &mut *conn, stream, &mut payload).await {
            return Err(PrepareError::Seal { event_type, source });
        }
        if let Err(source) = stash_secrets_in(secrets, &mut *conn, &mut payload).await {
            return Err(PrepareError::Secret { event_type, source });
        }
        if has_clear_marker(&payload) {
            return Err(PrepareError::LeftInClear(event_type));
        }
        out.push(NewEvent { event_type, schema_version: 1, payload, metadata: metadata.clone() });
    }
    Ok(out)
}
