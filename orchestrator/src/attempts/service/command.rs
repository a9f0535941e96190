//! The path of a visitor's command, once: in one transaction, under the attempt's lock, the
//! command is parsed and decided on the attempt's history; in a savepoint its events are sealed,
//! appended with the next step, and what the decision will do (its flow's guards) is admitted by
//! the abuse limits; the idempotency answer is stored; all commit together. A refusal by a limit
//! rolls the savepoint back and is recorded in the same transaction. The limits' locks are
//! taken last, so they are held only for the command's commit.

use std::time::Duration;

use chrono::{DateTime, Utc};
use events::flow::{AttemptFlow, Decision, Refused};
use events::{EventStore, Metadata, NewEvent, RecordedEvent, StoreError, StreamId};
use serde_json::Value;
use uuid::Uuid;

use super::idempotency::{earlier_answer, fingerprint, store_answer};
use super::locked::{lock_and_read, Locked};
use super::reply::{owner_reply, reply, AttemptReply};
use super::savepoint;
use crate::abuse::{self, AbuseGuard};
use crate::attempts::owners::{Owner, Owners};
use crate::attempts::{session, Flows};
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::texts::ATTEMPT_FULL;
use crate::write_path::schedule::{Chain, Planned};
use crate::write_path::{append_and_plan, prepare_in, Offer, PrepareError, Secrets};

/// How long a command waits for the attempt's other writers (a double tap, a retry under the
/// same key, a step's outcome) before it is answered 409.
pub(super) const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// Events one attempt may hold: past it every command is refused (issue 15, bounded attempts),
/// so no visitor can make the reads and folds of an attempt as long as they like. A normal
/// attempt has a few dozen.
pub const MAX_EVENTS_PER_ATTEMPT: usize = 1_000;

/// Client facts recorded in event metadata (never personal data).
pub type ClientInfo = Option<Value>;

pub struct AttemptService<'a> {
    pub db: &'a sqlx::PgPool,
    pub store: &'a EventStore,
    pub vault: &'a events::pii::Vault,
    pub flows: &'a Flows,
    pub abuse: &'a AbuseGuard,
    pub metrics: &'a Metrics,
    /// Attempts' owners already read (the row never changes).
    pub owners: &'a Owners,
    /// Where a committed command leaves the stream's history for the runner's next claim.
    pub histories: &'a crate::write_path::Histories,
    /// Where a command hands the step it planned due at once to this process's runner.
    pub handoff: &'a crate::write_path::Handoff,
}

pub(super) fn not_full(history: &[RecordedEvent]) -> Result<(), ApiError> {
    if history.len() >= MAX_EVENTS_PER_ATTEMPT {
        return Err(ApiError::Rejected(events::flow::Rejection::general(ATTEMPT_FULL)));
    }
    Ok(())
}

/// The flow's decision, or its refusal as the visitor's 422; `name` learns the command's name.
fn decided(decision: Result<Decision, Refused>, name: &mut &'static str) -> Result<Decision, ApiError> {
    match decision {
        Ok(decision) => {
            *name = decision.command;
            Ok(decision)
        }
        Err(refused) => {
            *name = refused.command.unwrap_or("unknown");
            Err(ApiError::Rejected(refused.rejection))
        }
    }
}

pub(super) fn correlated(history: &[RecordedEvent], actor: &str, client: ClientInfo) -> Metadata {
    let correlation_id = history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(Uuid::new_v4);
    Metadata { correlation_id, causation_id: None, actor: actor.into(), client }
}

impl AttemptService<'_> {
    /// Starts an attempt of `flow` with its start command. Returns the reply and the session
    /// token to set as a cookie again: the browser's own when this server issued it, else a new
    /// random one (a value the browser made up is never adopted). `leaving`: the waiting line's
    /// ticket the start went in with, taken out of the line in the start's own transaction.
    pub async fn start(
        &self,
        flow_name: &str,
        command: Value,
        session: Option<String>,
        client: ClientInfo,
        request: abuse::Request<'_>,
        leaving: Option<&str>,
    ) -> Result<(AttemptReply, String), ApiError> {
        let flow = self.flows.get(flow_name).ok_or(ApiError::NotFound)?;
        let stream = StreamId::new(flow.category()).map_err(|e| ApiError::Internal(e.into()))?;
        let token = match session {
            Some(token) if session::known(self.db, &token).await? => token,
            _ => session::new_token(),
        };
        let metadata = correlated(&[], "visitor", client);
        // The session the attempt is opened in pays for its codes.
        let owner = session::hash(&token);
        let request = abuse::Request { session: Some(&owner), ..request };
        // The database's clock as carried by this process (no round trip): a new attempt has no
        // lock to read it with.
        let now = crate::clock::current(self.db, &[]).await?;
        let decision = decided(flow.decide(&[], command, now), &mut "start")?;
        let offer = self.handoff.offer();
        let chain = offer.as_ref().map(Offer::chain);
        let watched = self.abuse.watches_start(&decision.guards);
        let mut tx = if watched { savepoint::begin_marked(self.db).await? } else { self.db.begin().await? };
        let (history, taken) = if watched {
            // A refused start leaves nothing of the attempt (no row, vault subject, link or
            // secret): it is written after a savepoint that a refusal rolls back to.
            let opened = self.open(&mut tx, flow, &stream, &token, decision.events, &metadata, chain).await?;
            let admitted =
                self.abuse.admit_start(&mut tx, self.vault, stream.as_str(), &decision.guards, request).await?;
            if let Err(refusal) = admitted {
                savepoint::roll_back(&mut tx).await?;
                let error = self.refuse_start(&mut tx, flow, refusal).await?;
                tx.commit().await?;
                return Err(error);
            }
            opened
        } else {
            // Nothing a limit watches: no refusal can undo it, so no savepoint.
            self.open(&mut tx, flow, &stream, &token, decision.events, &metadata, chain).await?
        };
        if let Some(ticket) = leaving {
            // Out of the line with the start's commit, not in a transaction of its own (one
            // pool connection and one commit fewer for each visitor let in from the line).
            crate::admission::tickets::leave_in(&mut tx, ticket).await?;
        }
        tx.commit().await?;
        self.store.announce_appended(&stream, &history).await;
        self.histories.keep(stream.as_str(), history.clone());
        self.handoff.committed(self.db, offer, taken).await;
        // The row just written never changes: its browser's next requests need not read it.
        self.owners.put(stream.as_str(), Owner { flow: flow.category().to_string(), session_hash: owner.clone() });
        self.metrics.attempt_started(flow.category());
        let at = history.last().map_or(now, |e| e.recorded_at);
        Ok((owner_reply(self.vault, flow, &stream, &history, 0, at).await.map_err(store_error)?, token))
    }

    /// Handles one command of the browser that owns the attempt. Under an idempotency key the
    /// command acts once: requests with the same key queue on the attempt's lock, the first
    /// one's answer is stored with the command's fingerprint in the same transaction as its
    /// events, and a later request gets that answer, or 422 if it sent another command under
    /// the key.
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
        let owner = session.as_deref().map(session::hash);
        let (stream, flow) = self.authorize(id, session).await?;
        // Authorized: the cookie is the attempt's owner's, whose session pays for its codes.
        let request = abuse::Request { session: owner.as_deref(), ..request };
        // Named by the flow's parsed command; anything it cannot parse is `unknown`.
        let mut name = "unknown";
        let answer = self.command_of(&stream, flow, idempotency_key, command, client, request, &mut name).await;
        self.metrics.command(flow.category(), name, received.elapsed());
        answer
    }

    #[allow(clippy::too_many_arguments)]
    async fn command_of(
        &self,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        idempotency_key: Option<String>,
        command: Value,
        client: ClientInfo,
        request: abuse::Request<'_>,
        name: &mut &'static str,
    ) -> Result<AttemptReply, ApiError> {
        let keyed = idempotency_key.map(|key| (fingerprint(self.vault, &command), key));
        let mut tx = self.db.begin().await?;
        // The attempt's lock: its commands queue on it (a retry under the same key then finds
        // the first one's answer), and no other writer appends while this one decides.
        // The transaction's time, read after the lock: the one its events are recorded with.
        let key = keyed.as_ref().map(|(_, key)| key.as_str());
        let Locked { now, earlier, history } =
            lock_and_read(&mut tx, self.store, self.histories, stream, QUEUE_WAIT, key).await.map_err(store_error)?;
        if let (Some(stored), Some((fingerprint, _))) = (earlier, &keyed) {
            return earlier_answer(stored, fingerprint);
        }
        not_full(&history)?;
        let decision = decided(flow.decide(&history, command, now), name)?;
        let seen = history.len();
        let (after, ended, taken) = if decision.events.is_empty() {
            // Nothing to change (a repeat such as a second `record_store_redirect`): the
            // command succeeded, and the answer is the attempt as it stands.
            (history, None, None)
        } else {
            let metadata = correlated(&history, "visitor", client.clone());
            let wrong_codes = abuse::rules::wrong_codes(&history);
            let before = flow.outcome(&history).label();
            // A slot of this process's runner for the step the command plans due at once.
            let offer = self.handoff.offer();
            let chain = offer.as_ref().map(Offer::chain);
            let acted = if decision.guards.is_empty() {
                // Nothing a limit watches: no refusal can undo it, so no savepoint.
                self.act(&mut tx, stream, flow, &history, decision.events, &metadata, chain).await?
            } else {
                // A refusal by a limit rolls the command's writes back and is recorded instead.
                savepoint::mark(&mut tx).await?;
                let acted = self.act(&mut tx, stream, flow, &history, decision.events, &metadata, chain).await?;
                let admitted = self
                    .abuse
                    .admit(&mut tx, self.vault, stream.as_str(), wrong_codes, &decision.guards, request)
                    .await?;
                if let Err(refusal) = admitted {
                    savepoint::roll_back(&mut tx).await?;
                    let error = self.refuse(&mut tx, stream, flow, history, decision.command, refusal, client).await?;
                    tx.commit().await?;
                    self.store.announce(&[stream]).await;
                    // The refusal's events may plan a step (for this process's runner).
                    self.handoff.wake();
                    return Err(error);
                }
                acted
            };
            let ended = match (before, flow.outcome(&acted.0).label()) {
                (None, Some(ended)) => Some(ended),
                _ => None,
            };
            (acted.0, ended, Some((offer, acted.1)))
        };
        if let Some((fingerprint, key)) = &keyed {
            // The stored answer keeps device names sealed; a replay of it shows them blank.
            store_answer(&mut tx, stream, key, fingerprint, &reply(flow, stream, &after, seen, now)).await?;
        }
        tx.commit().await?;
        if after.len() > seen {
            self.store.announce_appended(stream, &after[seen..]).await;
            self.histories.keep(stream.as_str(), after.clone());
        }
        if let Some((offer, planned)) = taken {
            self.handoff.committed(self.db, offer, planned).await;
        }
        if let Some(ended) = ended {
            self.metrics.attempt_ended(flow.category(), ended);
        }
        owner_reply(self.vault, flow, stream, &after, seen, now).await.map_err(store_error)
    }

    /// A new attempt on `conn`: its row (owned by the session `token`), then its first events
    /// (and its first step's claim, when `chain` took it).
    #[allow(clippy::too_many_arguments)]
    async fn open(
        &self,
        conn: &mut sqlx::PgConnection,
        flow: &dyn AttemptFlow,
        stream: &StreamId,
        token: &str,
        decided: Vec<(String, Value)>,
        metadata: &Metadata,
        chain: Option<Chain<'_>>,
    ) -> Result<(Vec<RecordedEvent>, Planned), ApiError> {
        sqlx::query("INSERT INTO attempts (stream_id, flow, session_hash) VALUES ($1, $2, $3)")
            .bind(stream.as_str())
            .bind(flow.category())
            .bind(session::hash(token))
            .execute(&mut *conn)
            .await?;
        self.act(conn, stream, flow, &[], decided, metadata, chain).await
    }

    /// A decided command's events sealed, appended after `history` and the next step planned,
    /// on `conn` (the command's transaction or its savepoint): the attempt after them, and what
    /// was planned (the next step's claim when `chain` took it, due at once).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn act(
        &self,
        conn: &mut sqlx::PgConnection,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        history: &[RecordedEvent],
        decided: Vec<(String, Value)>,
        metadata: &Metadata,
        chain: Option<Chain<'_>>,
    ) -> Result<(Vec<RecordedEvent>, Planned), ApiError> {
        let new_events = self.prepare(conn, stream, decided, metadata).await?;
        let appending = std::time::Instant::now();
        let next_step = |h: &[RecordedEvent]| flow.next_step(h);
        let acted =
            append_and_plan(conn, self.store, stream, flow.category(), history.to_vec(), new_events, next_step, chain)
                .await
                .map_err(store_error)?;
        self.metrics.store_append(appending.elapsed());
        Ok(acted)
    }

    /// Records a fact the portal observed itself (not a visitor's command) in the attempt, by
    /// `actor`, when `wanted` says the attempt still needs it; `Ok(false)` when it did not.
    pub async fn record_fact(
        &self,
        stream: &StreamId,
        flow: &dyn AttemptFlow,
        event: (String, Value),
        actor: &str,
        wanted: impl FnOnce(&[RecordedEvent]) -> bool,
    ) -> Result<bool, ApiError> {
        let mut tx = self.db.begin().await?;
        let Locked { history, .. } =
            lock_and_read(&mut tx, self.store, self.histories, stream, QUEUE_WAIT, None).await.map_err(store_error)?;
        if !wanted(&history) || history.len() >= MAX_EVENTS_PER_ATTEMPT {
            return Ok(false);
        }
        let metadata = correlated(&history, actor, None);
        let seen = history.len();
        let (after, planned) = self.act(&mut tx, stream, flow, &history, vec![event], &metadata, None).await?;
        tx.commit().await?;
        self.store.announce_appended(stream, &after[seen..]).await;
        self.histories.keep(stream.as_str(), after);
        self.handoff.committed(self.db, None, planned).await;
        Ok(true)
    }

    /// The attempt as it stands, for its owner.
    pub async fn load(&self, id: &str, session: Option<String>) -> Result<AttemptReply, ApiError> {
        let (stream, flow) = self.authorize(id, session).await?;
        let history = self.store.read_stream(&stream).await.map_err(store_error)?;
        let now: DateTime<Utc> = crate::clock::current(self.db, &history).await?;
        owner_reply(self.vault, flow, &stream, &history, 0, now).await.map_err(store_error)
    }

    /// The stream and flow of an attempt, if this browser started it.
    pub async fn authorize(&self, id: &str, session: Option<String>) -> Result<(StreamId, &dyn AttemptFlow), ApiError> {
        let stream = StreamId::parse(id).map_err(|_| ApiError::NotFound)?;
        let owner = match self.owners.get(stream.as_str()) {
            Some(owner) => owner,
            None => {
                let row: Option<(String, Vec<u8>)> =
                    sqlx::query_as("SELECT flow, session_hash FROM attempts WHERE stream_id = $1")
                        .bind(stream.as_str())
                        .fetch_optional(self.db)
                        .await?;
                let (flow, session_hash) = row.ok_or(ApiError::NotFound)?;
                let owner = Owner { flow, session_hash };
                self.owners.put(stream.as_str(), owner.clone());
                owner
            }
        };
        match session {
            Some(token) if session::hash(&token) == owner.session_hash => {}
            _ => return Err(ApiError::Forbidden),
        }
        let flow = self.flows.get(&owner.flow).ok_or(ApiError::NotFound)?;
        Ok((stream, flow))
    }

    /// Seals and strips the decided events in the command's transaction `conn` (see
    /// [`crate::write_path::prepare_in`]): nothing outlives a command that does not commit.
    pub(super) async fn prepare(
        &self,
        conn: &mut sqlx::PgConnection,
        stream: &StreamId,
        decided: Vec<(String, Value)>,
        metadata: &Metadata,
    ) -> Result<Vec<NewEvent>, ApiError> {
        let secrets = Secrets::new(self.db.clone(), self.vault.secret_box(), stream.as_str());
        prepare_in(conn, self.vault, &secrets, stream, decided, metadata).await.map_err(|error| match error {
            PrepareError::Seal { source, .. } => store_error(source),
            PrepareError::Secret { source, .. } => ApiError::Database(source),
            left @ PrepareError::LeftInClear(_) => ApiError::Internal(left.into()),
        })
    }
}

pub(super) fn store_error(error: StoreError) -> ApiError {
    match error {
        StoreError::Database(e) => ApiError::Database(e),
        StoreError::Busy(stream) | StoreError::Conflict { stream, .. } => {
            ApiError::Conflict(format!("attempt {stream} kept busy"))
        }
        other => ApiError::Internal(other.into()),
    }
}
