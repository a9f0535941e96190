//! The object-safe face of a [`Flow`], so the HTTP API and the runner can hold every flow
//! in one table and speak JSON to them.

use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{decode, encode, fold, seen_along, Flow, Outcome, PlannedStep, Rejection, Seen};
use crate::types::RecordedEvent;

/// A flow driven with JSON commands over stored events.
pub trait AttemptFlow: Send + Sync {
    fn category(&self) -> &'static str;

    /// Decides `command` (JSON with a `type`) on the folded history; returns the new events
    /// as (`event_type`, payload) pairs.
    fn decide(
        &self,
        history: &[RecordedEvent],
        command: Value,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Value)>, Rejection>;

    fn next_step(&self, history: &[RecordedEvent]) -> Option<PlannedStep>;

    fn view(&self, history: &[RecordedEvent], now: DateTime<Utc>) -> Value;

    /// Where the folded attempt stands (see [`Outcome`]).
    fn outcome(&self, history: &[RecordedEvent]) -> Outcome;

    /// What the visitor saw after each event (see [`seen_along`]).
    fn seen_along(&self, history: &[RecordedEvent]) -> Vec<Seen>;

    /// Whether this flow knows the event type (the others, like `step.started`, are the runner's).
    fn knows(&self, event_type: &str, payload: &Value) -> bool;
}

/// Wraps a [`Flow`] as an [`AttemptFlow`].
pub struct Erased<F>(PhantomData<fn() -> F>);

impl<F> Default for Erased<F> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

/// Shown when a command's JSON does not even have the expected shape.
pub const MALFORMED_COMMAND: &str = "Não entendemos sua solicitação. Atualize a página e tente novamente.";

impl<F: Flow> AttemptFlow for Erased<F> {
    fn category(&self) -> &'static str {
        F::CATEGORY
    }

    fn decide(
        &self,
        history: &[RecordedEvent],
        command: Value,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Value)>, Rejection> {
        let command: F::Command =
            serde_json::from_value(command).map_err(|_| Rejection::general(MALFORMED_COMMAND))?;
        let state = fold::<F>(history);
        let events = F::decide(&state, command, now)?;
        events
            .iter()
            .map(|e| encode::<F>(e).map_err(|_| Rejection::general(MALFORMED_COMMAND)))
            .collect()
    }

    fn next_step(&self, history: &[RecordedEvent]) -> Option<PlannedStep> {
        F::next_step(&fold::<F>(history))
    }

    fn view(&self, history: &[RecordedEvent], now: DateTime<Utc>) -> Value {
        F::view(&fold::<F>(history), now)
    }

    fn outcome(&self, history: &[RecordedEvent]) -> Outcome {
        F::outcome(&fold::<F>(history))
    }

    fn seen_along(&self, history: &[RecordedEvent]) -> Vec<Seen> {
        seen_along::<F>(history)
    }

    fn knows(&self, event_type: &str, payload: &Value) -> bool {
        decode::<F>(event_type, payload).is_some()
    }
}
