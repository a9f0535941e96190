//! The object-safe face of a [`Flow`], so the HTTP API and the runner can hold every flow
//! in one table and speak JSON to them.

use std::marker::PhantomData;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::support::{cancelled_at, cancelled_outcome, cancelled_view, ATTEMPT_CANCELLED, CANCELLED_MESSAGE};
use super::{decode, encode, fold, seen_along, Flow, Guards, Outcome, PlannedStep, Rejection, Seen};
use crate::types::RecordedEvent;

/// A flow driven with JSON commands over stored events.
pub trait AttemptFlow: Send + Sync {
    fn category(&self) -> &'static str;

    /// Parses `command` (JSON with a `type`) once into the flow's command and decides it on
    /// the folded history: the new events, and what they will do that the limits watch.
    fn decide(&self, history: &[RecordedEvent], command: Value, now: DateTime<Utc>) -> Result<Decision, Refused>;

    fn next_step(&self, history: &[RecordedEvent]) -> Option<PlannedStep>;

    fn view(&self, history: &[RecordedEvent], now: DateTime<Utc>) -> Value;

    /// Where the folded attempt stands (see [`Outcome`]).
    fn outcome(&self, history: &[RecordedEvent]) -> Outcome;

    /// What the visitor saw after each event (see [`seen_along`]).
    fn seen_along(&self, history: &[RecordedEvent]) -> Vec<Seen>;

    /// Whether this flow knows the event type (the others, like `step.started`, are the runner's).
    fn knows(&self, event_type: &str, payload: &Value) -> bool;
}

/// A command the flow accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The command's name ([`Flow::command_name`]).
    pub command: &'static str,
    /// The new events as (`event_type`, payload) pairs; empty when nothing changes.
    pub events: Vec<(String, Value)>,
    pub guards: Guards,
}

/// A command the flow refused: its name when it parsed, and the visitor's message.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub command: Option<&'static str>,
    pub rejection: Rejection,
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

    fn decide(&self, history: &[RecordedEvent], command: Value, now: DateTime<Utc>) -> Result<Decision, Refused> {
        let malformed = |command| Refused { command, rejection: Rejection::general(MALFORMED_COMMAND) };
        let command: F::Command = serde_json::from_value(command).map_err(|_| malformed(None))?;
        let name = F::command_name(&command);
        // Support ended the attempt (`attempt.cancelled`): the visitor starts a new one.
        if cancelled_at(history).is_some() {
            return Err(Refused { command: Some(name), rejection: Rejection::general(CANCELLED_MESSAGE) });
        }
        let state = fold::<F>(history);
        let decided =
            F::decide(&state, command, now).map_err(|rejection| Refused { command: Some(name), rejection })?;
        let events = decided.iter().map(encode::<F>).collect::<Result<_, _>>().map_err(|_| malformed(Some(name)))?;
        Ok(Decision { command: name, events, guards: F::guards(&decided) })
    }

    fn next_step(&self, history: &[RecordedEvent]) -> Option<PlannedStep> {
        cancelled_at(history).is_none().then(|| F::next_step(&fold::<F>(history))).flatten()
    }

    fn view(&self, history: &[RecordedEvent], now: DateTime<Utc>) -> Value {
        let view = F::view(&fold::<F>(history), now);
        if cancelled_at(history).is_some() {
            return cancelled_view(view);
        }
        view
    }

    fn outcome(&self, history: &[RecordedEvent]) -> Outcome {
        if cancelled_at(history).is_some() {
            return cancelled_outcome();
        }
        F::outcome(&fold::<F>(history))
    }

    fn seen_along(&self, history: &[RecordedEvent]) -> Vec<Seen> {
        let mut seen = seen_along::<F>(history);
        if let Some(at) = cancelled_at(history) {
            seen.iter_mut().skip(at).for_each(|s| s.message = Some(CANCELLED_MESSAGE.to_string()));
        }
        seen
    }

    /// The flow's own events, and support's cancellation (the visitor's page shows it).
    fn knows(&self, event_type: &str, payload: &Value) -> bool {
        event_type == ATTEMPT_CANCELLED || decode::<F>(event_type, payload).is_some()
    }
}
