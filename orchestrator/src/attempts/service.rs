//! Starting attempts and handling visitors' commands: decide, seal, append, schedule, in one
//! transaction per command, retried on a concurrent append.

use chrono::{DateTime, Utc};
use events::flow::{AttemptFlow, Rejection};
use events::{EventStore, Metadata, NewEvent, RecordedEvent, StoreError, StreamId};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use super::session;
use super::Flows;
use crate::abuse::{self, AbuseGuard, Refusal};
use crate::metrics::{outcome_label, Metrics};
use crate::http::error::ApiError;
use crate::write_path::pii::redact;
use crate::write_path::{append_and_plan, prepare_in, PrepareError, Secrets};

/// How often a command is re-decided when another writer appended first.
const CONFLICT_RETRIES: usize = 3;

/// Advisory-lock class of idempotency keys ('IDEM'), apart from the event store's streams.
const KEY_LOCK_CLASS: i32 = 0x4944_454D;

/// How long a request waits for another one with the same key before answering 409.
const KEY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The longest `Idempotency-Key` accepted; a longer one is refused, never cut.
pub const MAX_KEY_CHARS: usize = 100;

/// How long a command's answer is kept under its key.
pub const KEY_RETENTION_HOURS: i32 = 24;

/// The same key sent with another command.
pub const KEY_REUSED: &str = "Esta chave de idempotência já foi usada com outro pedido. Gere uma nova chave para um novo pedido.";

/// An empty key, or one longer than [`MAX_KEY_CHARS`].
pub const KEY_TOO_LONG: &str = "A chave de idempotência deve ter de 1 a 100 caracteres.";

/// SHA-256 of the command as sent (serde_json keeps the keys of an object sorted, so the same
/// command always gives the same bytes).
fn fingerprint(command: &Value) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(command.to_string().as_bytes()).to_vec()
}

/// Forgets command answers older than [`KEY_RETENTION_HOURS`]; run periodically.
pub async fn purge_old_keys(db: &sqlx::PgPool) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM attempt_commands WHERE created_at < now() - make_interval(hours => $1)")
        .bind(KEY_RETENTION_HOURS)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// The only `reason` values a visitor's page receives: the activation's `code.rejected`
/// refusals (`CodeRefusal`), which pick the message it shows.
const VISITOR_REASONS: [&str; 3] = ["expired", "locked", "wrong"];

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
        // The runner's diagnostics (why a step gave up, upstream statuses) are for support;
        // the visitor's page shows the flow's generic message.
        if event.event_type.starts_with("step.") {
            if let Value::Object(map) = &mut data {
                map.retain(|key, _| key == "step");
            }
        }
        // A `reason` is upstream text (an error code, a transport failure) for support only;
        // the one the page reads is the activation's code refusal, a word of our own.
        if let Value::Object(map) = &mut data {
            let ours = map.get("reason").and_then(Value::as_str).is_some_and(|r| VISITOR_REASONS.contains(&r));
            if !ours {
                map.remove("reason");
            }
        }
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

/// The attempt's reply, its view as of `now` (the database's clock, see [`crate::clock`]).
pub fn reply(flow: &dyn AttemptFlow, stream: &StreamId, history: &[RecordedEvent], new_from: usize, now: DateTime<Utc>) -> AttemptReply {
    AttemptReply {
        id: stream.as_str().to_string(),
        flow: flow.category().to_string(),
        version: history.last().map(|e| e.version).unwrap_or(0),
        events: history[new_from.min(history.len())..]
            .iter()
            .filter(|e| flow.knows(&e.event_type, &e.payload))
            .map(ClientEvent::from_recorded)
            .collect(),
        view: flow.view(history, now),
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
    now: DateTime<Utc>,
) -> Result<AttemptReply, StoreError> {
    let mut opened = history.to_vec();
    for event in &mut opened {
        vault.reveal_payload_where(&mut event.payload, |kind| kind.shown_to_owner()).await?;
    }
    Ok(reply(flow, stream, &opened, new_from, now))
}

/// What a command did: the history after it, where its new events begin, and the time.
struct Acted {
    history: Vec<RecordedEvent>,
    from: usize,
    now: DateTime<Utc>,
    /// The outcome label when this command ended an open attempt (counted once committed).
    ended: Option<&'static str>,
}

fn rejected(rejection: Rejection) -> ApiError {
    ApiError::Rejected(rejection)
}

pub struct AttemptService<'a> {
    pub db: &'a sqlx::PgPool,
    pub store: &'a EventStore,
    pub vault: &'a events::pii::Vault,
    pub flows: &'a Flows,
    pub abuse: &'a AbuseGuard,
    pub metrics: &'a Metrics,
}

impl<'a> AttemptService<'a> {
    /// The service over the server's state.
    pub fn of(state: &'a crate::state::AppState) -> Self {
        Self { db: &state.db, store: &state.store, vault: &state.vault, flows: &state.flows, abuse: &state.abuse, metrics: &state.metrics }
    }
}

/// The type of the event that records a refusal by an abuse limit.
pub const LIMITED_EVENT: &str = "abuse.limited";

/// Refusals recorded per attempt at most: past it they are still refused and counted in the
/// metrics, but a script cannot grow the attempt's history with them.
const MAX_RECORDED_REFUSALS: usize = 20;

/// Events one attempt may hold: past it every command is refused (issue 15, bounded attempts),
/// so no visitor can make the reads and folds of an attempt as long as they like. A normal
/// attempt has a few dozen.
pub const MAX_EVENTS_PER_ATTEMPT: usize = 1_000;

/// The refusal past [`MAX_EVENTS_PER_ATTEMPT`].
pub const ATTEMPT_FULL: &str = "Esta tentativa chegou ao limite de ações. Recarregue a página para começar de novo.";

fn not_full(history: &[RecordedEvent]) -> Result<(), ApiError> {
    if history.len() >= MAX_EVENTS_PER_ATTEMPT {
        return Err(rejected(Rejection::general(ATTEMPT_FULL)));
    }
    Ok(())
}

/// The category of the streams that record refused starts (no attempt exists for them).
pub const REFUSED_START_CATEGORY: &str = "abuse";

/// Client facts recorded in event metadata (never personal data).
pub type ClientInfo = Option<Value>;

impl AttemptService<'_> {
    /// Starts an attempt of `flow` with its start command. Returns the reply and the session
    /// token to set as a cookie again: the browser's own when this server issued it, else a new
    /// random one (a value the browser made up is never adopted).
    pub async fn start(
        &self,
        flow_name: &str,
        command: Value,
        session: Option<String>,
        client: ClientInfo,
        request: abuse::Request<'_>,
    ) -> Result<(AttemptReply, String), ApiError> {
        let flow = self.flows.get(flow_name).ok_or(ApiError::NotFound)?;
        let stream = StreamId::new(flow.category()).map_err(|e| ApiError::Internal(e.into()))?;
        let now = crate::clock::current(self.db, &[]).await?;
        let decided = flow.decide(&[], command.clone(), now).map_err(rejected)?;
        let token = match session {
            Some(token) if session::known(self.db, &token).await? => token,
            _ => session::new_token(),
        };
        let metadata = Metadata { correlation_id: Uuid::new_v4(), causation_id: None, actor: "visitor".into(), client };
        // The limits in a short transaction of their own (see `command`), before anything of
        // the command is written: a refused start leaves no vault subject, link or secret.
        if self.abuse.watches_start(flow.category(), &command) {
            let mut admission = self.db.begin().await?;
            match self.abuse.admit_start(&mut admission, self.vault, flow.category(), stream.as_str(), &command, request).await? {
                Ok(()) => admission.commit().await?,
                Err(refusal) => {
                    drop(admission);
                    return Err(self.refuse_start(flow, &command, refusal, &metadata).await);
                }
            }
        }
        let mut tx = self.db.begin().await?;
        sqlx::query("INSERT INTO attempts (stream_id, flow, session_hash) VALUES ($1, $2, $3)")
            .bind(stream.as_str())
            .bind(flow.category())
            .bind(session::hash(&token))
            .execute(&mut *tx)
            .await?;
        // Sealing writes the subjects and links the events name, in the command's transaction.
        let new_events = self.prepare(&mut tx, &stream, decided, &metadata).await?;
        // The schedule is written with the events, so a crash cannot leave a step unplanned.
        let history = append_and_plan(&mut tx, self.store, &stream, flow.category(), Vec::new(), new_events, |h| {
            flow.next_step(h)
        })
        .await
        .map_err(store_error)?;
        tx.commit().await?;
        self.store.announce(&[&stream]).await;
        self.metrics.attempt_started(flow.category());
        let at = history.last().map_or(now, |e| e.recorded_at);
        Ok((owner_reply(self.vault, flow, &stream, &history, 0, at).await.map_err(store_error)?, token))
    }

    /// Handles one command of the browser that owns the attempt. Under an idempotency key the
    /// command acts once: requests with the same key queue on a lock, the first one's answer is
    /// stored with the command's fingerprint in the same transaction as its events, and a later
    /// request gets that answer, or 422 if it sent another command under the key.
    pub async fn command(
        &self,
        id: &str,
        session: Option<String>,
        idempotency_key: Option<String>,
        command: Value,
        client: ClientInfo,
        request: abuse::Request<'_>,
    ) -> Result<AttemptReply, ApiError> {
        let received = std::time::Instant::now();
        let (stream, flow) = self.authorize(id, session).await?;
        let name = command.get("type").and_then(Value::as_str).filter(|t| t.len() <= 32).unwrap_or("unknown").to_string();
        let answer = self.command_of(stream, flow, idempotency_key, command, client, request).await;
        self.metrics.command(flow.category(), &name, received.elapsed());
        answer
    }

    async fn command_of(
        &self,
        stream: StreamId,
        flow: &dyn AttemptFlow,
        idempotency_key: Option<String>,
        command: Value,
        client: ClientInfo,
        request: abuse::Request<'_>,
    ) -> Result<AttemptReply, ApiError> {
        // Limits are checked before the command acts, in a short transaction of their own: it
        // waits on the limits' locks holding one connection and needing no other, so many
        // visitors at once cannot starve the pool the lock holders need.
        let guarded = abuse::rules::classify(flow.category(), &command);
        if !guarded.is_empty() {
            if let Some(key) = &idempotency_key {
                // A retry of a command that acted answers as before, and is not counted again.
                let mut conn = self.db.acquire().await?;
                if let Some(earlier) = self.earlier_answer(&mut conn, &stream, key, &fingerprint(&command)).await? {
                    return Ok(earlier);
                }
            }
            let history = self.store.read_stream(&stream).await.map_err(store_error)?;
            not_full(&history)?;
            // A command the flow refuses (a mistyped phone) sends nothing and counts nothing.
            flow.decide(&history, command.clone(), crate::clock::current(self.db, &history).await?).map_err(rejected)?;
            let mut admission = self.db.begin().await?;
            match self.abuse.admit(&mut admission, self.vault, flow.category(), stream.as_str(), &history, &command, request).await? {
                Ok(()) => admission.commit().await?,
                Err(refusal) => {
                    drop(admission);
                    return Err(self.refuse(&stream, flow, &command, refusal, client).await);
                }
            }
        }
        let (mut tx, keyed) = match idempotency_key {
            Some(key) => {
                let fingerprint = fingerprint(&command);
                let mut tx = self.lock_key(&stream, &key).await?;
                if let Some(earlier) = self.earlier_answer(&mut tx, &stream, &key, &fingerprint).await? {
                    return Ok(earlier);
                }
                (tx, Some((key, fingerprint)))
            }
            None => (self.db.begin().await?, None),
        };
        let acted = self.act(&mut tx, &stream, flow, command, client).await?;
        // The stored answer keeps device names sealed; a replay of it shows them blank.
        let answer = reply(flow, &stream, &acted.history, acted.from, acted.now);
        if let Some((key, fingerprint)) = keyed {
            sqlx::query(
                "INSERT INTO attempt_commands (stream_id, idempotency_key, fingerprint, response) VALUES ($1, $2, $3, $4)",
            )
            .bind(stream.as_str())
            .bind(key)
            .bind(fingerprint)
            .bind(serde_json::to_value(&answer).map_err(|e| ApiError::Internal(e.into()))?)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        self.store.announce(&[&stream]).await;
        if let Some(ended) = acted.ended {
            self.metrics.attempt_ended(flow.category(), ended);
        }
        owner_reply(self.vault, flow, &stream, &acted.history, acted.from, acted.now).await.map_err(store_error)
    }

    /// Counts a refusal (and opens the SMS breaker when it tripped), in a transaction of its
    /// own so that nothing after it can roll the breaker back.
    async fn count_refusal(&self, refusal: &Refusal) -> Result<(), ApiError> {
        let mut tx = self.db.begin().await?;
        self.abuse.record(&mut tx, refusal).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records a refused command in the attempt and answers with the rule's message. A failure
    /// to record is logged, never shown.
    async fn refuse(&self, stream: &StreamId, flow: &dyn AttemptFlow, command: &Value, refusal: Refusal, client: ClientInfo) -> ApiError {
        let recorded = async {
            self.count_refusal(&refusal).await?;
            let mut tx = self.db.begin().await?;
            let history = self.store.read_stream(stream).await.map_err(store_error)?;
            if history.iter().filter(|e| e.event_type == LIMITED_EVENT).count() < MAX_RECORDED_REFUSALS {
                let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
                let metadata = Metadata { correlation_id, causation_id: None, actor: "visitor".into(), client };
                let event = (LIMITED_EVENT.to_string(), abuse::limited_event(&refusal, flow.category(), command));
                let new_events = self.prepare(&mut tx, stream, vec![event], &metadata).await?;
                append_and_plan(&mut tx, self.store, stream, flow.category(), history, new_events, |h| flow.next_step(h))
                    .await
                    .map_err(store_error)?;
            }
            tx.commit().await?;
            self.store.announce(&[stream]).await;
            Ok::<_, ApiError>(())
        };
        if let Err(error) = recorded.await {
            tracing::warn!(%error, stream = stream.as_str(), "recording an abuse refusal failed");
        }
        ApiError::Limited(refusal.clone(), refusal.rule.message(flow.category()))
    }

    /// Records a fact the portal observed itself (not a visitor's command) in the attempt, by
    /// `actor`, when `wanted` says the attempt still needs it; `Ok(false)` when it did not, or
    /// when another writer got there first.
    pub async fn record_fact(
        &self,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        event: (String, Value),
        actor: &str,
        wanted: impl FnOnce(&[RecordedEvent]) -> bool,
    ) -> Result<bool, ApiError> {
        let mut tx = self.db.begin().await?;
        let history = self.store.read_stream(stream).await.map_err(store_error)?;
        if !wanted(&history) || history.len() >= MAX_EVENTS_PER_ATTEMPT {
            return Ok(false);
        }
        let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
        let metadata = Metadata { correlation_id, causation_id: None, actor: actor.into(), client: None };
        let new_events = self.prepare(&mut tx, stream, vec![event], &metadata).await?;
        match append_and_plan(&mut tx, self.store, stream, flow.category(), history, new_events, |h| flow.next_step(h)).await {
            Ok(_) => {}
            Err(StoreError::Conflict { .. }) => return Ok(false),
            Err(error) => return Err(store_error(error)),
        }
        tx.commit().await?;
        self.store.announce(&[stream]).await;
        Ok(true)
    }

    /// Records a refused start in a stream of its own (there is no attempt to record it in).
    async fn refuse_start(&self, flow: &dyn AttemptFlow, command: &Value, refusal: Refusal, metadata: &Metadata) -> ApiError {
        let recorded = async {
            let stream = StreamId::new(REFUSED_START_CATEGORY).map_err(|e| ApiError::Internal(e.into()))?;
            self.count_refusal(&refusal).await?;
            let mut tx = self.db.begin().await?;
            let mut payload = abuse::limited_event(&refusal, flow.category(), command);
            payload["flow"] = Value::String(flow.category().to_string());
            let new_events = self.prepare(&mut tx, &stream, vec![(LIMITED_EVENT.to_string(), payload)], metadata).await?;
            self.store
                .append_in_tx_announce_later(&mut tx, &stream, events::ExpectedVersion::NoStream, new_events)
                .await
                .map_err(store_error)?;
            tx.commit().await?;
            self.store.announce(&[&stream]).await;
            Ok::<_, ApiError>(())
        };
        if let Err(error) = recorded.await {
            tracing::warn!(%error, "recording a refused start failed");
        }
        ApiError::Limited(refusal.clone(), refusal.rule.message(flow.category()))
    }

    /// A transaction holding the key's lock, once any other request with this key finished.
    /// The wait polls with a try-lock rather than blocking on the lock: a blocked request would
    /// hold a pooled connection, and a few of them could starve the request they wait for.
    async fn lock_key(&self, stream: &StreamId, key: &str) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, ApiError> {
        let name = format!("{}:{key}", stream.as_str());
        let deadline = tokio::time::Instant::now() + KEY_WAIT;
        loop {
            let mut tx = self.db.begin().await?;
            let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_xact_lock($1, hashtext($2))")
                .bind(KEY_LOCK_CLASS)
                .bind(&name)
                .fetch_one(&mut *tx)
                .await?;
            if locked {
                return Ok(tx);
            }
            drop(tx);
            if tokio::time::Instant::now() >= deadline {
                return Err(ApiError::Conflict(format!("idempotency key of {} kept busy", stream.as_str())));
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// What an earlier request with this key answered: `Some(reply)` for the same command, 422
    /// for another one, `None` when the key is new.
    async fn earlier_answer(
        &self,
        tx: &mut sqlx::PgConnection,
        stream: &StreamId,
        key: &str,
        fingerprint: &[u8],
    ) -> Result<Option<AttemptReply>, ApiError> {
        let earlier: Option<(Value, Option<Vec<u8>>)> = sqlx::query_as(
            "SELECT response, fingerprint FROM attempt_commands WHERE stream_id = $1 AND idempotency_key = $2",
        )
        .bind(stream.as_str())
        .bind(key)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((response, stored)) = earlier else { return Ok(None) };
        if stored.is_some_and(|stored| stored != fingerprint) {
            return Err(ApiError::Invalid(KEY_REUSED.to_string()));
        }
        serde_json::from_value::<AttemptReply>(response).map(Some).map_err(|e| ApiError::Internal(e.into()))
    }

    /// Decides the command on the current history and appends its events in `tx`, deciding
    /// again when another writer appended first (three times at most).
    async fn act(
        &self,
        tx: &mut sqlx::PgConnection,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        command: Value,
        client: ClientInfo,
    ) -> Result<Acted, ApiError> {
        // The transaction's time: the one its events are recorded with.
        let now = crate::clock::now(&mut *tx).await?;
        for _ in 0..CONFLICT_RETRIES {
            let history = self.store.read_stream(stream).await.map_err(store_error)?;
            not_full(&history)?;
            let decided = flow.decide(&history, command.clone(), now).map_err(rejected)?;
            if decided.is_empty() {
                // Nothing to change (a repeat such as a second `record_store_redirect`): the
                // command succeeded, and the answer is the attempt as it stands.
                let from = history.len();
                return Ok(Acted { history, from, now, ended: None });
            }
            let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
            let metadata = Metadata { correlation_id, causation_id: None, actor: "visitor".into(), client: client.clone() };
            let new_events = self.prepare(&mut *tx, stream, decided, &metadata).await?;

            let seen = history.len();
            let before = flow.outcome(&history);
            let appending = std::time::Instant::now();
            // A conflict leaves the transaction usable (`append_events` reports it, not raises).
            match append_and_plan(tx, self.store, stream, flow.category(), history, new_events, |h| flow.next_step(h)).await {
                Ok(after) => {
                    self.metrics.store_append(appending.elapsed());
                    let ended = match (outcome_label(&before), outcome_label(&flow.outcome(&after))) {
                        (None, Some(ended)) => Some(ended),
                        _ => None,
                    };
                    return Ok(Acted { history: after, from: seen, now, ended });
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(store_error(error)),
            }
        }
        Err(ApiError::Conflict(format!("attempt {} kept changing", stream.as_str())))
    }

    /// The attempt as it stands, for its owner.
    pub async fn load(&self, id: &str, session: Option<String>) -> Result<AttemptReply, ApiError> {
        let (stream, flow) = self.authorize(id, session).await?;
        let history = self.store.read_stream(&stream).await.map_err(store_error)?;
        let now = crate::clock::current(self.db, &history).await?;
        owner_reply(self.vault, flow, &stream, &history, 0, now).await.map_err(store_error)
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

    /// Seals and strips the decided events in the command's transaction `conn` (see
    /// [`crate::write_path::prepare_in`]): nothing outlives a command that does not commit.
    async fn prepare(
        &self,
        conn: &mut sqlx::PgConnection,
        stream: &StreamId,
        decided: Vec<(String, Value)>,
        metadata: &Metadata,
    ) -> Result<Vec<NewEvent>, ApiError> {
        let secrets = Secrets::new(self.db.clone(), self.vault.secret_box(), stream.as_str());
        prepare_in(conn, self.vault, &secrets, stream, decided, metadata).await.map_err(|error| match error {
            PrepareError::Seal { source, .. } => store_error(source),
            PrepareError::Secret { source, .. } | PrepareError::Transaction(source) => ApiError::Database(source),
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn recorded(event_type: &str, payload: Value) -> RecordedEvent {
        RecordedEvent {
            position: 1,
            tx_id: 1,
            stream_id: "download-x".into(),
            version: 1,
            event_type: event_type.into(),
            schema_version: 1,
            payload,
            metadata: Metadata { correlation_id: Uuid::nil(), causation_id: None, actor: "runner".into(), client: None },
            recorded_at: Utc::now(),
        }
    }

    #[test]
    fn a_visitor_never_receives_an_upstream_reason() {
        for (event_type, payload) in [
            ("devices.failed", json!({ "reason": "HTTP 500 key=LEAK" })),
            ("code.send_failed", json!({ "reason": "phone-auth.send-code: connection failed" })),
            ("device.removal_failed", json!({ "device_id": "d1", "reason": "HTTP 403 X" })),
            ("step.gave_up", json!({ "step": "send_code", "reason": "http://h/?key=LEAK" })),
        ] {
            let data = ClientEvent::from_recorded(&recorded(event_type, payload)).data;
            assert!(data.get("reason").is_none(), "{event_type}: {data}");
        }
        let kept = ClientEvent::from_recorded(&recorded("code.rejected", json!({ "reason": "expired", "status": 403 }))).data;
        assert_eq!(kept["reason"], "expired", "the activation page picks its message by it");
        let removal = ClientEvent::from_recorded(&recorded("device.removal_failed", json!({ "device_id": "d1", "reason": "x" }))).data;
        assert_eq!(removal["device_id"], "d1");
    }
}
