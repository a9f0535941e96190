//! One claim's work: the step folded, tried and recorded within the step time-out while the
//! lease is renewed; a panic, an error or the time-out becomes a counted failure.

use std::panic::AssertUnwindSafe;
use std::time::Duration;

use events::StreamId;
use futures::FutureExt;

use super::claim::{self, Claimed};
use super::failure::{current_start, first_try_at, try_key, Failure, FailureKind};
use super::flow::{StepFlow, STEP_CALLED, STEP_STARTED};
use super::started::{self, Started, TrySlot};
use super::worker::{elapsed, last_version, Runner, RunnerError, Tick};
use crate::upstream::calls::CallLog;

/// The database decided the row is due (the claim). Re-folding the stream may name a due time a
/// little later than the database's clock when the plan was folded from events just written
/// (their times are the writer's clock until read back): that much is not "not due yet".
const FOLD_SKEW: chrono::Duration = chrono::Duration::seconds(1);

impl Runner {
    /// Processes a claim within the step time-out, renewing its lease meanwhile; a panic, an
    /// error or the time-out becomes a counted failure. With `chain`, a next step due at once is
    /// claimed by the outcome's transaction and returned, for the caller to process next.
    pub(super) async fn supervise(
        &self,
        flow: &dyn StepFlow,
        claimed: Claimed,
        chain: bool,
    ) -> (Result<Tick, RunnerError>, Option<Claimed>) {
        let _in_flight = self.load.as_ref().map(|load| load.step_started());
        if let Some(metrics) = &self.metrics {
            metrics.runner_lag((claimed.db_now - claimed.due_at).to_std().unwrap_or_default());
        }
        let calls = CallLog::default();
        let (tick, next) = match self.supervised(flow, claimed, &calls, chain).await {
            Ok((tick, next)) => (Ok(tick), next),
            Err(error) => (Err(error), None),
        };
        if let Some(metrics) = &self.metrics {
            for call in calls.calls() {
                metrics.upstream_call(&call.endpoint, Duration::from_millis(call.latency_ms));
            }
            match &tick {
                Ok(Tick::Retrying { step, .. }) => {
                    metrics.step_retried(calls.last().map(|c| c.endpoint).as_deref().unwrap_or(step));
                }
                Ok(Tick::GaveUp { step, .. }) => {
                    metrics.step_given_up(calls.last().map(|c| c.endpoint).as_deref().unwrap_or(step));
                }
                _ => {}
            }
        }
        (tick, next)
    }

    async fn supervised(
        &self,
        flow: &dyn StepFlow,
        claimed: Claimed,
        calls: &CallLog,
        chain: bool,
    ) -> Result<(Tick, Option<Claimed>), RunnerError> {
        let tried = TrySlot::default();
        let work = AssertUnwindSafe(self.process(flow, &claimed, calls, &tried, chain)).catch_unwind();
        let outcome = tokio::select! {
            outcome = tokio::time::timeout(self.config.step_timeout, work) => outcome,
            () = self.keep_lease(&claimed) => {
                tracing::warn!(runner = %self.config.id, stream = %claimed.stream_id, "claim lost mid-step");
                return Ok((Tick::LostClaim { stream_id: claimed.stream_id }, None));
            }
        };
        let failure = match outcome {
            Ok(Ok(Ok(ran))) => return Ok(ran),
            Ok(Ok(Err(failure))) => failure,
            Ok(Err(panic)) => Failure::panic(panic.as_ref()),
            Err(_) => Failure::new(
                FailureKind::Timeout,
                format!("step {} took longer than {} ms", claimed.step, self.config.step_timeout.as_millis()),
            ),
        };
        Ok((self.record_failure(&claimed, failure, calls, tried.take()).await?, None))
    }

    /// Renews the lease every third of it; returns only when the claim is lost.
    async fn keep_lease(&self, claimed: &Claimed) {
        let every = self.config.lease / 3;
        loop {
            tokio::time::sleep(every).await;
            match claim::renew(&self.db, claimed, self.config.lease).await {
                Ok(true) => {}
                Ok(false) => return,
                // The next renewal may get through; the fenced writes catch a real loss.
                Err(error) => tracing::warn!(runner = %self.config.id, %error, "lease renewal failed"),
            }
        }
    }

    /// Reads and folds the stream, calls the upstream and appends the try's `step.started`
    /// with its outcome in one transaction. Nothing is written before the call: a try that
    /// fails leaves its start in `tried` for the failure's transaction.
    async fn process(
        &self,
        flow: &dyn StepFlow,
        claimed: &Claimed,
        calls: &CallLog,
        tried: &TrySlot,
        chain: bool,
    ) -> Result<(Tick, Option<Claimed>), Failure> {
        let stream = StreamId::parse(&claimed.stream_id).map_err(Failure::internal)?;
        let events = self.history_of(&stream, claimed).await.map_err(Failure::internal)?;
        let version = last_version(&events);
        // The stream folded once here, and once more after the outcome's append (issue 24:
        // five folds a claim were two of each question and a spare).
        let plan = flow.plan(&events).map_err(|e| Failure::step(e).at(version))?;
        let before = plan.outcome;
        let step = match plan.next {
            Some(step) if step.name == claimed.step && step.due_at <= claimed.db_now + FOLD_SKEW => step,
            other => {
                // The stream moved on since the row was written: follow the stream.
                self.replan(flow, claimed, &stream, &events, other).await.map_err(Failure::internal)?;
                return Ok((Tick::Replanned { stream_id: claimed.stream_id.clone() }, None));
            }
        };

        let start = current_start(&events, &step.name);
        let tries_before = claimed.claims - 1;
        let elapsed = elapsed(first_try_at(start.as_ref(), claimed), claimed.db_now);
        if tries_before > 0 && !self.config.retry.may_retry(tries_before, elapsed) {
            // Claimed again after tries that never reported (a crash, a lost lease): the budget
            // is spent without one more call.
            return Err(Failure::new(FailureKind::Unfinished, "the step's earlier tries never finished").at(version));
        }

        // The key of the run's first try (recorded or lost mid-call): the upstream sees a
        // repeat under the key of the call it repeats.
        let key = try_key(&events, start.as_ref(), stream.as_str(), &step.name);
        let start = self.event(STEP_STARTED, started::facts(claimed, &step.name, &key), &events);
        tried.set(Started { event: start.clone(), version });

        let outcome = flow
            .run(&stream, &events, &step, &key, calls, &claimed.secrets)
            .await
            .map_err(|e| Failure::step(e).at(version))?;
        let called = self.event(STEP_CALLED, self.call_facts(claimed, calls, None, None), &events);
        self.commit_outcome(flow, claimed, &stream, events, vec![start, called], outcome, before, chain)
            .await
            .map_err(|e| e.at(version))
    }
}
