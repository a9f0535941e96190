//! The runner loop: claim a due step, record it as started, run it, append its outcome.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use events::{EventStore, ExpectedVersion, Metadata, NewEvent, RecordedEvent, StoreError, StreamId};
use serde_json::json;
use sqlx::postgres::PgListener;
use sqlx::PgPool;

use super::claim::{self, Claimed};
use super::flow::{PlannedStep, StepError, StepFlow, STEP_STARTED};
use super::schedule::{self, schedule_in_tx};
use crate::write_path::{append_and_plan, recorded_after};

/// The event type appended when a step failed `max_claims` times in a row.
pub const STEP_GAVE_UP: &str = "step.gave_up";

#[derive(Debug, Clone)]
pub struct RunnerConfig {
    /// Names this runner in leases and in the events it writes.
    pub id: String,
    /// How long a claim holds a step; longer than `step_timeout`, so a live runner keeps it.
    pub lease: Duration,
    /// Upper bound of one step's call.
    pub step_timeout: Duration,
    /// Fallback wake-up when a notification is lost (a pooler may drop them).
    pub poll: Duration,
    /// Claims of one step before the runner gives up on it.
    pub max_claims: i32,
}

impl Default for RunnerConfig {
    fn default() -> Self {
        Self {
            id: format!("runner-{}", uuid::Uuid::new_v4()),
            lease: Duration::from_secs(45),
            step_timeout: Duration::from_secs(30),
            poll: Duration::from_secs(1),
            max_claims: 5,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("event store: {0}")]
    Store(#[from] StoreError),
}

/// What one claim came to; tests read it, the loop only logs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tick {
    /// Nothing was due.
    Idle,
    /// The step ran and its outcome was appended.
    Ran { stream_id: String, step: String },
    /// The stream moved on (or the step is not due yet): the schedule was re-planned.
    Replanned { stream_id: String },
    /// The step failed and will be retried later.
    Retrying { stream_id: String, step: String },
    /// The step failed too often: `step.gave_up` was appended.
    GaveUp { stream_id: String, step: String },
}

pub struct Runner {
    db: PgPool,
    store: EventStore,
    flows: HashMap<String, Arc<dyn StepFlow>>,
    config: RunnerConfig,
}

impl Runner {
    pub fn new(db: PgPool, store: EventStore, config: RunnerConfig) -> Self {
        Self { db, store, flows: HashMap::new(), config }
    }

    pub fn with_flow(mut self, flow: Arc<dyn StepFlow>) -> Self {
        self.flows.insert(flow.category().to_string(), flow);
        self
    }

    pub fn id(&self) -> &str {
        &self.config.id
    }

    fn flow_names(&self) -> Vec<String> {
        self.flows.keys().cloned().collect()
    }

    /// Runs due steps until `shutdown` resolves; an in-flight step finishes first.
    pub async fn run_until(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), RunnerError> {
        let mut listener = PgListener::connect_with(&self.db).await?;
        listener.listen(schedule::CHANNEL).await?;
        tokio::pin!(shutdown);
        loop {
            let tick = match self.tick().await {
                Ok(tick) => tick,
                Err(error) => {
                    tracing::warn!(runner = %self.config.id, %error, "runner tick failed");
                    Tick::Idle
                }
            };
            if tick != Tick::Idle {
                tracing::debug!(runner = %self.config.id, ?tick, "step");
                continue;
            }
            let wait = self.idle_wait().await;
            tokio::select! {
                () = &mut shutdown => break,
                _ = listener.recv() => {},
                () = tokio::time::sleep(wait) => {},
            }
        }
        tracing::info!(runner = %self.config.id, "runner stopped");
        Ok(())
    }

    /// Until the next due time, at most the poll interval.
    async fn idle_wait(&self) -> Duration {
        let poll = self.config.poll;
        match claim::next_due_at(&self.db, &self.flow_names()).await {
            Ok(Some(at)) => (at - Utc::now()).to_std().unwrap_or(Duration::ZERO).min(poll).max(Duration::from_millis(10)),
            Ok(None) => poll,
            Err(_) => poll,
        }
    }

    /// Claims and processes at most one due step.
    pub async fn tick(&self) -> Result<Tick, RunnerError> {
        let flows = self.flow_names();
        let Some(claimed) = claim::claim_one(&self.db, &flows, &self.config.id, self.config.lease).await? else {
            return Ok(Tick::Idle);
        };
        let Some(flow) = self.flows.get(&claimed.flow).cloned() else {
            return Ok(Tick::Idle);
        };
        self.process(flow.as_ref(), claimed).await
    }

    async fn process(&self, flow: &dyn StepFlow, claimed: Claimed) -> Result<Tick, RunnerError> {
        let stream = StreamId::parse(&claimed.stream_id)?;
        let events = self.store.read_stream(&stream).await?;
        let planned = match flow.next_step(&events) {
            Ok(planned) => planned,
            Err(error) => return self.retry_or_give_up(&stream, &events, &claimed, &error).await,
        };
        let step = match planned {
            Some(step) if step.name == claimed.step && step.due_at <= Utc::now() => step,
            other => {
                // The stream moved on since the row was written: follow the stream.
                let mut tx = self.db.begin().await?;
                schedule_in_tx(&mut tx, stream.as_str(), flow.category(), other.as_ref()).await?;
                tx.commit().await?;
                return Ok(Tick::Replanned { stream_id: claimed.stream_id });
            }
        };

        let (key, history) = match resumed_key(&events, &step.name) {
            Some(key) => (key, events),
            None => match self.record_started(&stream, &events, &step, &claimed).await? {
                Some(started) => started,
                None => return Ok(Tick::Replanned { stream_id: claimed.stream_id }),
            },
        };

        let outcome = tokio::time::timeout(self.config.step_timeout, flow.run(&stream, &history, &step, &key)).await;
        let new_events = match outcome {
            Ok(Ok(new_events)) => new_events,
            Ok(Err(error)) => return self.retry_or_give_up(&stream, &history, &claimed, &error).await,
            Err(_) => {
                let error = StepError::Transient(format!("step {} timed out", step.name));
                return self.retry_or_give_up(&stream, &history, &claimed, &error).await;
            }
        };

        let mut tx = self.db.begin().await?;
        let next_step = |h: &[RecordedEvent]| flow.next_step(h).ok().flatten();
        match append_and_plan(&mut tx, &self.store, &stream, flow.category(), history, new_events, next_step).await {
            Ok(_) => {}
            Err(StoreError::Conflict { .. }) => {
                // A visitor's command landed during the call; re-plan from the new history.
                // A repeated call reuses the key, so the upstream does not act twice.
                drop(tx);
                claim::release(&self.db, stream.as_str(), &self.config.id, Utc::now()).await?;
                return Ok(Tick::Replanned { stream_id: claimed.stream_id });
            }
            Err(error) => return Err(error.into()),
        }
        tx.commit().await?;
        Ok(Tick::Ran { stream_id: claimed.stream_id, step: step.name })
    }

    /// Appends `step.started`; `None` when the stream moved on meanwhile.
    async fn record_started(
        &self,
        stream: &StreamId,
        events: &[RecordedEvent],
        step: &PlannedStep,
        claimed: &Claimed,
    ) -> Result<Option<(String, Vec<RecordedEvent>)>, RunnerError> {
        let version = last_version(events);
        let key = format!("{}:{}:{}", stream.as_str(), step.name, version + 1);
        let started = NewEvent {
            event_type: STEP_STARTED.to_string(),
            schema_version: 1,
            payload: json!({ "step": step.name, "idempotency_key": key, "claim": claimed.claims }),
            metadata: self.metadata(events),
        };
        match self.store.append(stream, ExpectedVersion::Exact(version), vec![started.clone()]).await {
            Ok(_) => {
                let mut history = events.to_vec();
                history.extend(recorded_after(stream, version, vec![started]));
                Ok(Some((key, history)))
            }
            Err(StoreError::Conflict { .. }) => {
                claim::release(&self.db, stream.as_str(), &self.config.id, Utc::now()).await?;
                Ok(None)
            }
            Err(error) => Err(error.into()),
        }
    }

    async fn retry_or_give_up(
        &self,
        stream: &StreamId,
        history: &[RecordedEvent],
        claimed: &Claimed,
        error: &StepError,
    ) -> Result<Tick, RunnerError> {
        tracing::warn!(stream = %stream, step = %claimed.step, claims = claimed.claims, %error, "step failed");
        if claimed.claims < self.config.max_claims {
            let backoff = Duration::from_millis(200 * 2u64.pow(claimed.claims.clamp(0, 10) as u32));
            let retry_at = Utc::now() + chrono::Duration::from_std(backoff).unwrap_or_default();
            claim::release(&self.db, stream.as_str(), &self.config.id, retry_at).await?;
            return Ok(Tick::Retrying { stream_id: claimed.stream_id.clone(), step: claimed.step.clone() });
        }
        let gave_up = NewEvent {
            event_type: STEP_GAVE_UP.to_string(),
            schema_version: 1,
            payload: json!({ "step": claimed.step, "claims": claimed.claims, "reason": error.to_string() }),
            metadata: self.metadata(history),
        };
        let mut tx = self.db.begin().await?;
        match self.store.append_in_tx(&mut tx, stream, ExpectedVersion::Exact(last_version(history)), vec![gave_up]).await {
            Ok(_) | Err(StoreError::Conflict { .. }) => {}
            Err(error) => return Err(error.into()),
        }
        schedule_in_tx(&mut tx, stream.as_str(), &claimed.flow, None).await?;
        tx.commit().await?;
        Ok(Tick::GaveUp { stream_id: claimed.stream_id.clone(), step: claimed.step.clone() })
    }

    /// The runner's events carry the attempt's correlation id.
    fn metadata(&self, history: &[RecordedEvent]) -> Metadata {
        Metadata {
            correlation_id: history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(uuid::Uuid::new_v4),
            causation_id: None,
            actor: self.config.id.clone(),
            client: None,
        }
    }
}

fn last_version(events: &[RecordedEvent]) -> i64 {
    events.last().map(|e| e.version).unwrap_or(0)
}

/// A `step.started` for this step with no outcome after it: a runner died mid-call.
fn resumed_key(events: &[RecordedEvent], step: &str) -> Option<String> {
    let last = events.last()?;
    if last.event_type != STEP_STARTED || last.payload.get("step")?.as_str()? != step {
        return None;
    }
    last.payload.get("idempotency_key")?.as_str().map(str::to_string)
}
