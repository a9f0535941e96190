//! Why a claim did not produce its outcome, and where the step's tries began.

use chrono::{DateTime, Utc};
use events::flow::support::RETRY_REQUESTED;
use events::RecordedEvent;

use super::claim::Claimed;
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

/// Whether `event` belongs to a run of tries of `step`: the runner's own events of it and
/// support's "retry now" of it, which only brings the next try forward (the same call, under
/// the same key).
fn in_run(event: &RecordedEvent, step: &str) -> bool {
    let runner_event =
        event.event_type == STEP_STARTED || event.event_type == STEP_CALLED || event.event_type == RETRY_REQUESTED;
    runner_event && event.payload.get("step").and_then(|s| s.as_str()) == Some(step)
}

/// Walks back over the runner's own events of `step` (`step.started`, `step.called`) to the
/// first `step.started` of the current run of tries; any other event ends the run (the step was
/// planned again, so it gets a new key), but support's "retry now" of the step.
///
/// A try's `step.started` is appended with its result, so the first try's start is its
/// payload's `started_at` (the claim's database time), not when it was recorded (after the
/// call); an event written before that field existed was recorded before its call.
pub fn current_start(events: &[RecordedEvent], step: &str) -> Option<Start> {
    let mut found: Option<Start> = None;
    for event in events.iter().rev() {
        if !in_run(event, step) {
            break;
        }
        if event.event_type == STEP_STARTED {
            if let Some(key) = event.payload.get("idempotency_key").and_then(|k| k.as_str()) {
                let started_at = event
                    .payload
                    .get("started_at")
                    .and_then(|at| serde_json::from_value::<DateTime<Utc>>(at.clone()).ok());
                found = Some(Start { key: key.to_string(), first_at: started_at.unwrap_or(event.recorded_at) });
            }
        }
    }
    found
}

/// The idempotency key of `step`'s next try: the current run's (`start`, its
/// [`current_start`]), or when no try of the run was recorded, `<stream>:<step>:<n>` with `n`
/// the version after the last event before the run (where its first `step.started` lands). A
/// try that died mid-call recorded nothing, and a failure before the call records no start, so
/// the repeat derives the key the lost call carried.
pub fn try_key(events: &[RecordedEvent], start: Option<&Start>, stream: &str, step: &str) -> String {
    if let Some(start) = start {
        return start.key.clone();
    }
    let before_run = events.iter().rev().find(|e| !in_run(e, step)).map(|e| e.version).unwrap_or(0);
    format!("{stream}:{step}:{}", before_run + 1)
}

/// When the step's current run of tries began, for its retry budget: the first recorded try's
/// start; with none recorded, when the plan first fell due if earlier claims of it never
/// reported (a crash, a lost lease), else this claim.
pub fn first_try_at(start: Option<&Start>, claimed: &Claimed) -> DateTime<Utc> {
    match start {
        Some(start) => start.first_at,
        None if claimed.claims > 1 => claimed.first_due_at.min(claimed.db_now),
        None => claimed.db_now,
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use serde_json::{json, Value};

    use super::*;

    fn at(second: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, second).single().expect("a time")
    }

    fn recorded(version: i64, event_type: &str, payload: Value) -> RecordedEvent {
        RecordedEvent {
            position: version,
            tx_id: version,
            stream_id: "demo-1".into(),
            version,
            event_type: event_type.into(),
            schema_version: 1,
            payload,
            metadata: events::Metadata {
                correlation_id: uuid::Uuid::nil(),
                causation_id: None,
                actor: "test".into(),
                client: None,
            },
            recorded_at: at(u32::try_from(version).unwrap_or(0) * 10),
        }
    }

    fn claimed(claims: i32) -> Claimed {
        Claimed {
            stream_id: "demo-1".into(),
            flow: "demo".into(),
            step: "call".into(),
            claims,
            lease_until: at(59),
            lease_token: uuid::Uuid::nil(),
            db_now: at(50),
            due_at: at(45),
            first_due_at: at(5),
            stream_version: 1,
            secrets: Default::default(),
        }
    }

    #[test]
    fn a_first_try_takes_the_key_of_the_version_it_read() {
        let events = [recorded(1, "demo.started", json!({}))];
        assert_eq!(try_key(&events, current_start(&events, "call").as_ref(), "demo-1", "call"), "demo-1:call:2");
        assert!(current_start(&events, "call").is_none());
    }

    #[test]
    fn a_recorded_try_gives_its_key_and_its_claims_time_to_the_next() {
        let events = [
            recorded(1, "demo.started", json!({})),
            recorded(
                2,
                "step.started",
                json!({ "step": "call", "idempotency_key": "demo-1:call:2", "claim": 1, "started_at": at(12) }),
            ),
            recorded(3, "step.called", json!({ "step": "call", "kind": "upstream" })),
            recorded(4, RETRY_REQUESTED, json!({ "step": "call" })),
        ];
        let start = current_start(&events, "call").expect("a start");
        assert_eq!(
            (start.key.as_str(), start.first_at),
            ("demo-1:call:2", at(12)),
            "the claim's time, not the append's"
        );
        assert_eq!(try_key(&events, current_start(&events, "call").as_ref(), "demo-1", "call"), "demo-1:call:2");
        assert_eq!(first_try_at(Some(&start), &claimed(2)), at(12));
    }

    #[test]
    fn a_start_written_before_the_call_falls_back_to_its_recorded_time() {
        let events = [
            recorded(1, "demo.started", json!({})),
            recorded(2, "step.started", json!({ "step": "call", "idempotency_key": "demo-1:call:2", "claim": 1 })),
        ];
        assert_eq!(current_start(&events, "call").map(|s| s.first_at), Some(at(20)));
    }

    #[test]
    fn a_failure_recorded_without_a_start_keeps_the_key_of_the_lost_call() {
        // A try died mid-call (nothing recorded), then the next claim failed before calling.
        let events = [recorded(1, "demo.started", json!({})), recorded(2, "step.called", json!({ "step": "call" }))];
        assert_eq!(try_key(&events, current_start(&events, "call").as_ref(), "demo-1", "call"), "demo-1:call:2");
        assert_eq!(first_try_at(None, &claimed(3)), at(5), "from when the plan fell due");
        assert_eq!(first_try_at(None, &claimed(1)), at(50), "a first claim starts now");
    }

    #[test]
    fn another_event_starts_a_new_run_with_a_new_key() {
        let events = [
            recorded(1, "demo.started", json!({})),
            recorded(2, "step.started", json!({ "step": "call", "idempotency_key": "demo-1:call:2", "claim": 1 })),
            recorded(3, "step.called", json!({ "step": "call", "kind": "upstream" })),
            recorded(4, "demo.poked", json!({})),
        ];
        assert!(current_start(&events, "call").is_none());
        assert_eq!(try_key(&events, current_start(&events, "call").as_ref(), "demo-1", "call"), "demo-1:call:5");
    }
}
