//! Why a claim did not produce its outcome, and where the step's tries began.

use chrono::{DateTime, Utc};
use events::flow::support::RETRY_REQUESTED;
use events::RecordedEvent;

use super::flow::{StepError, STEP_CALLED, STEP_STARTED};
use crate::upstream::calls::sanitize;

/// What kind of trouble ended a try; support reads it next to the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The step got no usable answer from its upstream (or our side of it failed).
    Upstream,
    /// The try took longer than the step time-out.
    Timeout,
    /// The step's code panicked.
    Panic,
    /// The runner's own reads or writes failed (a database error, an event refused).
    Internal,
    /// Earlier tries were claimed and never reported (a crash or a lost lease).
    Unfinished,
}

impl FailureKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Upstream => "upstream",
            FailureKind::Timeout => "timeout",
            FailureKind::Panic => "panic",
            FailureKind::Internal => "internal",
            FailureKind::Unfinished => "unfinished",
        }
    }
}

/// A failed try: its kind, a sanitized reason, and the stream version the try read (the
/// failure's event is appended there, so a stream that moved on is not overwritten).
#[derive(Debug, Clone)]
pub struct Failure {
    pub kind: FailureKind,
    pub reason: String,
    pub version: Option<i64>,
}

impl Failure {
    pub fn new(kind: FailureKind, reason: impl AsRef<str>) -> Self {
        Self { kind, reason: sanitize(reason.as_ref()), version: None }
    }

    pub fn internal(error: impl std::fmt::Display) -> Self {
        Self::new(FailureKind::Internal, error.to_string())
    }

    pub fn step(error: StepError) -> Self {
        match error {
            StepError::Transient(reason) => Self::new(FailureKind::Upstream, reason),
        }
    }

    /// The message of a caught panic (`&str` or `String` payloads; anything else unnamed).
    pub fn panic(payload: &(dyn std::any::Any + Send)) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unnamed panic".to_string());
        Self::new(FailureKind::Panic, format!("the step panicked: {message}"))
    }

    /// The stream version the failed try had read (set once, by the innermost caller).
    pub fn at(mut self, version: i64) -> Self {
        self.version.get_or_insert(version);
        self
    }
}

/// The tries of `step` still in progress: its idempotency key and when the first try started.
pub struct Start {
    pub key: String,
    pub first_at: DateTime<Utc>,
}

/// Walks back over the runner's own events of `step` (`step.started`, `step.called`) to the
/// first `step.started` of the current run of tries; any other event ends the run (the step was
/// planned again, so it gets a new key), but support's "retry now" of the step, which only
/// brings the next try forward (the same call, under the same key).
pub fn current_start(events: &[RecordedEvent], step: &str) -> Option<Start> {
    let mut found: Option<Start> = None;
    for event in events.iter().rev() {
        let runner_event =
            event.event_type == STEP_STARTED || event.event_type == STEP_CALLED || event.event_type == RETRY_REQUESTED;
        if !runner_event || event.payload.get("step").and_then(|s| s.as_str()) != Some(step) {
            break;
        }
        if event.event_type == STEP_STARTED {
            if let Some(key) = event.payload.get("idempotency_key").and_then(|k| k.as_str()) {
                found = Some(Start { key: key.to_string(), first_at: event.recorded_at });
            }
        }
    }
    found
}
