//! One attempt's summary, folded from its stream: flow, variant, times, the last step, the
//! outcome (the flow's own, plus what the runner's events and the schedule say about open
//! attempts) and the number of retried upstream calls.

use chrono::{DateTime, Utc};
use events::flow::{AttemptFlow, Outcome as FlowOutcome};
use events::RecordedEvent;
use serde::Serialize;
use serde_json::Value;
use sqlx::PgPool;

use crate::runner::STEP_STARTED;

use crate::runner::worker::STEP_GAVE_UP;
/// An open attempt with no step due and no event for this long was abandoned.
pub const IDLE_MINUTES: i64 = 30;

#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<i64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub id: String,
    pub flow: String,
    pub variant: Option<String>,
    pub started_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub last_step: Option<String>,
    pub outcome: Outcome,
    pub duration_ms: i64,
    pub retries: usize,
}

/// Which of `streams` have a step due (the runner will act on them).
pub async fn with_due_step(db: &PgPool, streams: &[String]) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT stream_id FROM due_steps WHERE stream_id = ANY($1)").bind(streams).fetch_all(db).await
}

fn step_of(event: &RecordedEvent) -> Option<String> {
    event.payload.get("step").and_then(Value::as_str).map(str::to_string)
}

/// The summary of a non-empty history.
pub fn summarize(
    flow: &dyn AttemptFlow,
    history: &[RecordedEvent],
    step_due: bool,
    now: DateTime<Utc>,
) -> Option<Summary> {
    let first = history.first()?;
    let last = history.last()?;
    let view = flow.view(history, now);
    let variant = ["variant", "os"]
        .iter()
        .find_map(|k| first.payload.get(*k).and_then(Value::as_str))
        .or_else(|| view.get("variant").and_then(Value::as_str))
        .map(str::to_string);
    let last_runner_step = history.iter().rev().find_map(step_of);
    let panel = view.get("panel").and_then(Value::as_str).map(str::to_string);
    let last_step = last_runner_step.clone().or(panel.clone());
    let retries = history
        .iter()
        .filter(|e| e.event_type == STEP_STARTED && e.payload.get("claim").and_then(Value::as_i64).unwrap_or(1) > 1)
        .count();
    let idle = (now - last.recorded_at).num_minutes();
    let outcome = match flow.outcome(history) {
        // Support ended it (issue 27): the flow reads it as refused with that message.
        _ if events::flow::support::cancelled_at(history).is_some() => plain("cancelled"),
        FlowOutcome::Completed => plain("completed"),
        FlowOutcome::Refused { message } => Outcome { message: Some(message), ..plain("refused") },
        FlowOutcome::Open if last.event_type == STEP_GAVE_UP => Outcome { step: step_of(last), ..plain("gave_up") },
        FlowOutcome::Open if step_due || last.event_type == STEP_STARTED || idle < IDLE_MINUTES => plain("in_flight"),
        FlowOutcome::Open => Outcome { step: panel.or(last_runner_step), minutes: Some(idle), ..plain("abandoned") },
    };
    Some(Summary {
        id: first.stream_id.clone(),
        flow: flow.category().to_string(),
        variant,
        started_at: first.recorded_at,
        updated_at: last.recorded_at,
        last_step,
        outcome,
        duration_ms: (last.recorded_at - first.recorded_at).num_milliseconds(),
        retries,
    })
}

fn plain(kind: &'static str) -> Outcome {
    Outcome { kind, message: None, step: None, minutes: None }
}
