//! A try's `step.started`: made before the upstream call, written only with the try's result
//! (the outcome, or the failure) in that result's transaction (issue 24: one write path, no
//! transaction of its own). A try that dies mid-call leaves nothing, and its repeat derives the
//! same idempotency key from the same stream ([`super::failure::try_key`]).

use std::sync::Mutex;

use events::NewEvent;
use serde_json::{json, Value};

use super::claim::Claimed;

/// The start of this claim's try, and the stream version the try read (its result is appended
/// there, so a stream that moved on meanwhile is never written over).
#[derive(Debug, Clone)]
pub(super) struct Started {
    pub event: NewEvent,
    pub version: i64,
}

/// What `step.started` says: the step, its key, which claim tried it (support counts retries
/// from it) and when the claim was taken, on the database's clock (the retry budget runs from
/// the first try's, not from the append after its call).
pub(super) fn facts(claimed: &Claimed, step: &str, key: &str) -> Value {
    json!({ "step": step, "idempotency_key": key, "claim": claimed.claims, "started_at": claimed.db_now })
}

/// Where the try leaves its start for the failure path: a panic or the step time-out drops the
/// try's future with everything it held.
#[derive(Debug, Default)]
pub(super) struct TrySlot(Mutex<Option<Started>>);

impl TrySlot {
    pub fn set(&self, started: Started) {
        // A poisoned lock only means a panic elsewhere mid-set; the value is still whole.
        *self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(started);
    }

    pub fn take(&self) -> Option<Started> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }
}
