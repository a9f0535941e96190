//! What a claim leaves in the attempt: its outcome with the next plan, a re-plan, or a counted
//! failure (a retry later or `step.gave_up`), each fenced by the stream version and the claim.

use std::time::Duration;

use events::flow::Outcome;
use events::{Metadata, NewEvent, RecordedEvent, StoreError, StreamId};
use serde_json::{json, Value};

use super::claim::{self, Chain, Claimed, Finished};
use super::failure::{current_start, first_try_at, Failure};
use super::flow::{PlannedStep, StepFlow, StepOutput, STEP_CALLED};
use super::started::Started;
use super::worker::{elapsed, last_version, Runner, RunnerError, Tick, STEP_GAVE_UP};
use crate::upstream::calls::{sanitize, CallLog};
use crate::write_path::{append_after, plan_next, secrets};

/// How long the runner waits before asking a database that could not serve again.
const UNAVAILABLE_PAUSE: Duration = Duration::from_millis(500);

impl RunnerError {
    /// The database could not serve (a failover, a restart): worth asking again shortly.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Self::Database(error) => events::database_unavailable(error),
            Self::Store(error) => error.is_unavailable(),
        }
    }
}

impl Runner {
    /// The claimed stream's events: as this process last wrote them when the claim found it
    /// at that version, else read.
    pub(super) async fn history_of(
        &self,
        stream: &StreamId,
        claimed: &Claimed,
    ) -> Result<Vec<RecordedEvent>, StoreError> {
        let kept = self.histories.as_ref().and_then(|h| h.at_version(stream.as_str(), claimed.stream_version));
        match kept {
            Some(history) => Ok(history),
            None => self.store.read_stream(stream).await,
        }
    }

    /// Keeps `history` (the stream after this runner's committed write) for the next claim.
    pub(super) fn keep(&self, stream: &StreamId, history: Vec<RecordedEvent>) {
        if let Some(histories) = &self.histories {
            histories.keep(stream.as_str(), history);
        }
    }

    /// Appends a claim's try and outcome (`tried`: `step.started` and `step.called`, then the
    /// flow's events, prepared in the same transaction) and the next plan through the one write
    /// path ([`append_after`], then the plan as [`plan_next`] writes it, fenced by the claim in
    /// the same statement: [`claim::finish_and_plan`]),
    /// fenced: by the stream version `history` ends with, the one the try read (a command that
    /// landed meanwhile wins, and the step is re-planned) and by the claim (a runner that took
    /// the step over wins, and this outcome is dropped; the call it repeats carries the same
    /// key). `before` is where the attempt stood before the step. With `chain`, a next step due
    /// at once is this runner's next claim, returned beside the tick.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn commit_outcome(
        &self,
        flow: &dyn StepFlow,
        claimed: &Claimed,
        stream: &StreamId,
        history: Vec<RecordedEvent>,
        tried: Vec<NewEvent>,
        outcome: StepOutput,
        before: Outcome,
        chain: bool,
    ) -> Result<(Tick, Option<Claimed>), Failure> {
        let appending = std::time::Instant::now();
        let mut tx = self.db.begin().await.map_err(Failure::internal)?;
        let mut batch = tried;
        batch.extend(flow.prepare_in(&mut tx, stream, outcome).await.map_err(Failure::step)?);
        // Where the attempt stands after the outcome, from the same fold that plans its next step.
        let mut after = Outcome::Open;
        let seen = history.len();
        let history = match append_after(&mut tx, &self.store, stream, history, batch).await {
            Ok(history) => history,
            Err(StoreError::Conflict { .. }) => {
                drop(tx);
                claim::release(&self.db, claimed).await.map_err(Failure::internal)?;
                return Ok((Tick::Replanned { stream_id: claimed.stream_id.clone() }, None));
            }
            Err(error) => return Err(Failure::internal(error)),
        };
        // The claim's fence, its finish and the next plan: one statement after the stream's
        // lock (as every writer takes it).
        let next = match flow.plan(&history) {
            Ok(plan) => {
                after = plan.outcome;
                plan.next
            }
            Err(_) => None,
        };
        let version = last_version(&history);
        let chain = chain.then_some(Chain { runner_id: &self.config.id, lease: self.config.lease });
        let next = match claim::finish_and_plan(&mut tx, claimed, next.as_ref(), version, chain)
            .await
            .map_err(Failure::internal)?
        {
            Finished::Lost => return Ok((Tick::LostClaim { stream_id: claimed.stream_id.clone() }, None)),
            Finished::Done => None,
            Finished::Chained(next) => Some(next),
        };
        // After `prepare_in` wrote the tokens the try kept: a completing step leaves none behind.
        if flow.forgets_secrets_when_completed() && after == Outcome::Completed && before != Outcome::Completed {
            secrets::clear_in(&mut tx, stream.as_str()).await.map_err(Failure::internal)?;
        }
        tx.commit().await.map_err(Failure::internal)?;
        self.store.announce_appended(stream, &history[seen..]).await;
        self.keep(stream, history);
        if let Some(metrics) = &self.metrics {
            metrics.store_append(appending.elapsed());
            if let (None, Some(ended)) = (before.label(), after.label()) {
                metrics.attempt_ended(flow.category(), ended);
            }
        }
        Ok((Tick::Ran { stream_id: claimed.stream_id.clone(), step: claimed.step.clone() }, next))
    }

    /// Writes the plan the stream now calls for (the write path's [`plan_next`], fenced by the
    /// version `history` ends with) and gives the claim back uncounted.
    pub(super) async fn replan(
        &self,
        flow: &dyn StepFlow,
        claimed: &Claimed,
        stream: &StreamId,
        history: &[RecordedEvent],
        step: Option<PlannedStep>,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        plan_next(&mut tx, stream, flow.category(), history, |_| step).await?;
        tx.commit().await?;
        claim::release(&self.db, claimed).await
    }

    /// [`Runner::failed`], asked again while the database cannot serve (a failover: the
    /// outcome's write and then the failure's both hit it) for up to half the lease: the claim
    /// is still this runner's (renewed at most a third of the lease ago), so the step is tried
    /// again after its back-off instead of waiting for the lease to expire. Past that, the lease
    /// expires and the next claim repeats the try with the same idempotency key.
    pub(super) async fn record_failure(
        &self,
        claimed: &Claimed,
        failure: Failure,
        calls: &CallLog,
        tried: Option<Started>,
    ) -> Result<Tick, RunnerError> {
        let deadline = tokio::time::Instant::now() + self.config.lease / 2;
        loop {
            match self.failed(claimed, failure.clone(), calls, tried.clone()).await {
                Err(error) if error.is_unavailable() && tokio::time::Instant::now() < deadline => {
                    tracing::warn!(runner = %self.config.id, %error, "recording a failed try: the database cannot serve; trying again");
                    tokio::time::sleep(UNAVAILABLE_PAUSE).await;
                }
                outcome => return outcome,
            }
        }
    }

    /// A counted failure: `step.called` with the failure and a retry later, or, past the
    /// budget, `step.gave_up` with the reason (support reads it; the visitor sees the flow's
    /// generic error), after the try's `step.started` when the try got as far as its call
    /// (`tried`; a failure before it, or earlier tries that never reported, started nothing).
    /// Both are fenced by the version the failed try read.
    pub(super) async fn failed(
        &self,
        claimed: &Claimed,
        failure: Failure,
        calls: &CallLog,
        tried: Option<Started>,
    ) -> Result<Tick, RunnerError> {
        tracing::warn!(
            runner = %self.config.id, stream = %claimed.stream_id, step = %claimed.step,
            claim = claimed.claims, kind = failure.kind.as_str(), reason = %failure.reason, "step failed"
        );
        let stream = StreamId::parse(&claimed.stream_id)?;
        let history = self.history_of(&stream, claimed).await?;
        // A panic or the time-out carries no version; the try's start knows the one it read.
        let expected = failure.version.or(tried.as_ref().map(|t| t.version)).unwrap_or_else(|| last_version(&history));
        if !self.flows.contains_key(&claimed.flow) {
            claim::release(&self.db, claimed).await?;
            return Ok(Tick::Idle);
        }
        let upto: Vec<RecordedEvent> = history.iter().filter(|e| e.version <= expected).cloned().collect();
        let first_at = first_try_at(current_start(&upto, &claimed.step).as_ref(), claimed);
        let db_now = crate::clock::current(&self.db, &upto).await?;
        let elapsed = elapsed(first_at, db_now);
        let policy = self.config.retry;
        let retry = policy.may_retry(claimed.claims, elapsed);
        let delay = retry.then(|| policy.delay(claimed.claims, elapsed, &mut rand::thread_rng()));

        let event = match delay {
            Some(delay) => self.event(STEP_CALLED, self.call_facts(claimed, calls, Some(&failure), Some(delay)), &upto),
            None => {
                let mut facts = self.call_facts(claimed, calls, Some(&failure), None);
                facts["reason"] = Value::String(format!("{}: {}", failure.kind.as_str(), failure.reason));
                facts["claims"] = json!(claimed.claims);
                self.event(STEP_GAVE_UP, facts, &upto)
            }
        };
        // The write path's first half, at the version the failed try read.
        let batch = tried.map(|t| t.event).into_iter().chain([event]).collect();
        let mut tx = self.db.begin().await?;
        let seen = upto.len();
        let history = match append_after(&mut tx, &self.store, &stream, upto, batch).await {
            Ok(history) => history,
            Err(StoreError::Conflict { .. }) => {
                // The stream moved on (a command, or a runner that took over): its plan stands.
                drop(tx);
                claim::release(&self.db, claimed).await?;
                return Ok(Tick::Replanned { stream_id: claimed.stream_id.clone() });
            }
            Err(error) => return Err(error.into()),
        };
        // The claim's fence, with its finish: a retry later keeps the plan and pushes it back;
        // a give-up plans nothing more, whatever the flow would fold (a flow that planned the
        // same step again would turn the give-up into the endless loop it ends).
        let held = match delay {
            Some(delay) => claim::retry_later(&mut tx, claimed, delay).await?,
            None => !matches!(
                claim::finish_and_plan(&mut tx, claimed, None, last_version(&history), None).await?,
                Finished::Lost
            ),
        };
        if !held {
            return Ok(Tick::LostClaim { stream_id: claimed.stream_id.clone() });
        }
        tx.commit().await?;
        self.store.announce_appended(&stream, &history[seen..]).await;
        self.keep(&stream, history);
        let (stream_id, step) = (claimed.stream_id.clone(), claimed.step.clone());
        Ok(match delay {
            Some(_) => Tick::Retrying { stream_id, step },
            None => Tick::GaveUp { stream_id, step },
        })
    }

    /// What support's timeline shows of one try: the step, which try it was, the upstream
    /// call's endpoint, status and latency, and what went wrong.
    pub(super) fn call_facts(
        &self,
        claimed: &Claimed,
        calls: &CallLog,
        failure: Option<&Failure>,
        retry_in: Option<Duration>,
    ) -> Value {
        let call = calls.last();
        let mut facts = json!({
            "step": claimed.step,
            "claim": claimed.claims,
            "retries": claimed.claims - 1,
            "endpoint": call.as_ref().map(|c| c.endpoint.clone()),
            "status": call.as_ref().and_then(|c| c.status),
            "latency_ms": call.as_ref().map(|c| c.latency_ms),
        });
        if let Some(failure) = failure {
            facts["kind"] = json!(failure.kind.as_str());
            facts["error"] = json!(sanitize(&failure.reason));
        } else if let Some(error) = call.and_then(|c| c.error) {
            facts["error"] = json!(error);
        }
        if let Some(delay) = retry_in {
            facts["retry_in_ms"] = json!(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX));
        }
        facts
    }

    pub(super) fn event(&self, event_type: &str, payload: Value, history: &[RecordedEvent]) -> NewEvent {
        NewEvent { event_type: event_type.to_string(), schema_version: 1, payload, metadata: self.metadata(history) }
    }

    /// The runner's events carry the attempt's correlation id.
    pub(super) fn metadata(&self, history: &[RecordedEvent]) -> Metadata {
        Metadata {
            correlation_id: history.first().map(|e| e.metadata.correlation_id).unwrap_or_else(uuid::Uuid::new_v4),
            causation_id: None,
            actor: self.config.id.clone(),
            client: None,
        }
    }
}
