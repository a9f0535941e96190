//! Starting attempts and handling visitors' commands: decide, seal, append, schedule, in one
//! transaction per command, retried on a concurrent append.

use chrono::Utc;
use events::flow::{AttemptFlow, Rejection};
use events::{EventStore, Metadata, NewEvent, RecordedEvent, StoreError, StreamId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::session;
use super::Flows;
use crate::http::error::ApiError;
use crate::write_path::pii::redact;
use crate::write_path::{append_and_plan, prepare, PrepareError, Secrets};

/// How often a command is re-decided when another writer appended first.
const CONFLICT_RETRIES: usize = 3;

/// An event as the browser receives it: personal data redacted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientEvent {
    #[serde(rename = "type")]
    pub event_type: String,
    pub data: Value,
    pub version: i64,
    pub at: chrono::DateTime<Utc>,
}

impl ClientEvent {
    pub fn from_recorded(event: &RecordedEvent) -> Self {
        let mut data = event.payload.clone();
        redact(&mut data);
        Self { event_type: event.event_type.clone(), data, version: event.version, at: event.recorded_at }
    }
}

/// The answer to every attempt call.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AttemptReply {
    pub id: String,
    pub flow: String,
    pub version: i64,
    pub events: Vec<ClientEvent>,
    pub view: Value,
}

pub fn reply(flow: &dyn AttemptFlow, stream: &StreamId, history: &[RecordedEvent], new_from: usize) -> AttemptReply {
    AttemptReply {
        id: stream.as_str().to_string(),
        flow: flow.category().to_string(),
        version: history.last().map(|e| e.version).unwrap_or(0),
        events: history[new_from.min(history.len())..]
            .iter()
            .filter(|e| flow.knows(&e.event_type, &e.payload))
            .map(ClientEvent::from_recorded)
            .collect(),
        view: flow.view(history, Utc::now()),
    }
}

/// The reply as the attempt's own visitor reads it: the sealed fields they are shown (their
/// device names) opened first, every other personal field redacted as usual.
pub async fn owner_reply(
    vault: &events::pii::Vault,
    flow: &dyn AttemptFlow,
    stream: &StreamId,
    history: &[RecordedEvent],
    new_from: usize,
) -> Result<AttemptReply, StoreError> {
    let mut opened = history.to_vec();
    for event in &mut opened {
        vault.reveal_payload_where(&mut event.payload, |kind| kind.shown_to_owner()).await?;
    }
    Ok(reply(flow, stream, &opened, new_from))
}

fn rejected(rejection: Rejection) -> ApiError {
    ApiError::Rejected(rejection)
}

pub struct AttemptService<'a> {
    pub db: &'a sqlx::PgPool,
    pub store: &'a EventStore,
    pub vault: &'a events::pii::Vault,
    pub flows: &'a Flows,
}

/// Client facts recorded in event metadata (never personal data).
pub type ClientInfo = Option<Value>;

impl AttemptService<'_> {
    /// Starts an attempt of `flow` with its start command. Returns the reply and, when the
    /// browser had no session yet, the new session token to set as a cookie.
    pub async fn start(
        &self,
        flow_name: &str,
        command: Value,
        session: Option<String>,
        client: ClientInfo,
    ) -> Result<(AttemptReply, Option<String>), ApiError> {
        let flow = self.flows.get(flow_name).ok_or(ApiError::NotFound)?;
        let stream = StreamId::new(flow.category()).map_err(|e| ApiError::Internal(e.into()))?;
        let decided = flow.decide(&[], command, Utc::now()).map_err(rejected)?;
        let (token, fresh) = match session {
            Some(token) => (token, None),
            None => {
                let token = session::new_token();
                (token.clone(), Some(token))
            }
        };
        let metadata = Metadata { correlation_id: Uuid::new_v4(), causation_id: None, actor: "visitor".into(), client };
        let new_events = self.prepare(&stream, decided, &metadata).await?;

        let mut tx = self.db.begin().await?;
        sqlx::query("INSERT INTO attempts (stream_id, flow, session_hash) VALUES ($1, $2, $3)")
            .bind(stream.as_str())
            .bind(flow.category())
            .bind(session::hash(&token))
            .execute(&mut *tx)
            .await?;
        // The schedule is written with the events, so a crash cannot leave a step unplanned.
        let history = append_and_plan(&mut tx, self.store, &stream, flow.category(), Vec::new(), new_events, |h| {
            flow.next_step(h)
        })
        .await
        .map_err(store_error)?;
        tx.commit().await?;
        Ok((owner_reply(self.vault, flow, &stream, &history, 0).await.map_err(store_error)?, fresh))
    }

    /// Handles one command of the browser that owns the attempt; a repeated idempotency key
    /// answers what the first call answered.
    pub async fn command(
        &self,
        id: &str,
        session: Option<String>,
        idempotency_key: Option<String>,
        command: Value,
        client: ClientInfo,
    ) -> Result<AttemptReply, ApiError> {
        let (stream, flow) = self.authorize(id, session).await?;
        if let Some(key) = &idempotency_key {
            let earlier: Option<Value> = sqlx::query_scalar(
                "SELECT response FROM attempt_commands WHERE stream_id = $1 AND idempotency_key = $2",
            )
            .bind(stream.as_str())
            .bind(key)
            .fetch_optional(self.db)
            .await?;
            if let Some(earlier) = earlier {
                return serde_json::from_value::<AttemptReply>(earlier).map_err(|e| ApiError::Internal(e.into()));
            }
        }

        for _ in 0..CONFLICT_RETRIES {
            let history = self.store.read_stream(&stream).await.map_err(store_error)?;
            let decided = flow.decide(&history, command.clone(), Utc::now()).map_err(rejected)?;
            let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
            let metadata = Metadata { correlation_id, causation_id: None, actor: "visitor".into(), client: client.clone() };
            let new_events = self.prepare(&stream, decided, &metadata).await?;

            let seen = history.len();
            let mut tx = self.db.begin().await?;
            let after = match append_and_plan(&mut tx, self.store, &stream, flow.category(), history, new_events, |h| {
                flow.next_step(h)
            })
            .await
            {
                Ok(after) => after,
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(store_error(error)),
            };
            // The stored copy keeps device names sealed; a replay of it shows them blank.
            let answer = reply(flow, &stream, &after, seen);
            if let Some(key) = &idempotency_key {
                sqlx::query(
                    "INSERT INTO attempt_commands (stream_id, idempotency_key, response) VALUES ($1, $2, $3)
                     ON CONFLICT DO NOTHING",
                )
                .bind(stream.as_str())
                .bind(key)
                .bind(serde_json::to_value(&answer).map_err(|e| ApiError::Internal(e.into()))?)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            return owner_reply(self.vault, flow, &stream, &after, seen).await.map_err(store_error);
        }
        Err(ApiError::Conflict(format!("attempt {id} kept changing")))
    }

    /// The attempt as it stands, for its owner.
    pub async fn load(&self, id: &str, session: Option<String>) -> Result<AttemptReply, ApiError> {
        let (stream, flow) = self.authorize(id, session).await?;
        let history = self.store.read_stream(&stream).await.map_err(store_error)?;
        owner_reply(self.vault, flow, &stream, &history, 0).await.map_err(store_error)
    }

    /// The stream and flow of an attempt, if this browser started it.
    pub async fn authorize(&self, id: &str, session: Option<String>) -> Result<(StreamId, &dyn AttemptFlow), ApiError> {
        let stream = StreamId::parse(id).map_err(|_| ApiError::NotFound)?;
        let row: Option<(String, Vec<u8>)> =
            sqlx::query_as("SELECT flow, session_hash FROM attempts WHERE stream_id = $1")
                .bind(stream.as_str())
                .fetch_optional(self.db)
                .await?;
        let (flow_name, owner) = row.ok_or(ApiError::NotFound)?;
        match session {
            Some(token) if session::hash(&token) == owner => {}
            _ => return Err(ApiError::Forbidden),
        }
        let flow = self.flows.get(&flow_name).ok_or(ApiError::NotFound)?;
        Ok((stream, flow))
    }

    /// Seals and strips the decided events (see [`crate::write_path::prepare`]).
    async fn prepare(
        &self,
        stream: &StreamId,
        decided: Vec<(String, Value)>,
        metadata: &Metadata,
    ) -> Result<Vec<NewEvent>, ApiError> {
        let secrets = Secrets::new(self.db.clone(), stream.as_str());
        prepare(self.vault, &secrets, stream, decided, metadata).await.map_err(|error| match error {
            PrepareError::Seal { source, .. } => store_error(source),
            PrepareError::Secret { source, .. } => ApiError::Database(source),
            left @ PrepareError::LeftInClear(_) => ApiError::Internal(left.into()),
        })
    }
}

fn store_error(error: StoreError) -> ApiError {
    match error {
        StoreError::Database(e) => ApiError::Database(e),
        other => ApiError::Internal(other.into()),
    }
}
