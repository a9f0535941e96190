//! The admin book: injected faults, the call log and the answers stored for idempotent replay.
//! [`crate::intercept`] fills it for every call; `/admin` reads and clears it.

use std::collections::{HashMap, VecDeque};

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode};
use rand::rngs::StdRng;
use serde::Serialize;

use super::faults::FaultBook;

/// Oldest calls are forgotten past this many.
const CALL_LOG_CAPACITY: usize = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Still running (or held by a time-out fault).
    Pending,
    Answered,
    /// Answered from the idempotency store; the contract did not run again.
    Replayed,
    /// An injected status answered.
    Fault,
    Timeout,
    Dropped,
}

#[derive(Debug, Clone, Serialize)]
pub struct CallRecord {
    pub seq: u64,
    pub endpoint: &'static str,
    pub method: String,
    pub path: String,
    pub idempotency_key: Option<String>,
    pub correlation_id: Option<String>,
    pub at: String,
    pub status: Option<u16>,
    pub outcome: Outcome,
    pub fault_id: Option<u64>,
}

pub enum Reply {
    /// The first call with this key is running; `request` is its body.
    InFlight {
        request: Bytes,
    },
    Done {
        request: Bytes,
        status: StatusCode,
        content_type: Option<HeaderValue>,
        body: Bytes,
    },
}

/// The admin side of the sandbox: faults, the call log, stored answers.
pub struct AdminBook {
    pub faults: FaultBook,
    calls: VecDeque<CallRecord>,
    next_seq: u64,
    /// Answers by endpoint and `Idempotency-Key`.
    pub replies: HashMap<(&'static str, String), Reply>,
}

impl AdminBook {
    pub fn new(rng: StdRng) -> Self {
        Self { faults: FaultBook::new(rng), calls: VecDeque::new(), next_seq: 1, replies: HashMap::new() }
    }

    pub fn calls(&self, endpoint: Option<&str>) -> Vec<CallRecord> {
        self.calls.iter().filter(|call| endpoint.is_none_or(|e| call.endpoint == e)).cloned().collect()
    }

    pub fn clear_calls(&mut self) {
        self.calls.clear();
    }

    /// Appends `record` under the next sequence number, which it returns.
    pub fn log(&mut self, mut record: CallRecord) -> u64 {
        record.seq = self.next_seq;
        self.next_seq += 1;
        self.calls.push_back(record);
        if self.calls.len() > CALL_LOG_CAPACITY {
            self.calls.pop_front();
        }
        self.next_seq - 1
    }

    pub fn finish(&mut self, seq: u64, status: Option<u16>, outcome: Outcome, fault_id: Option<u64>) {
        if let Some(call) = self.calls.iter_mut().rev().find(|call| call.seq == seq) {
            call.status = status;
            call.outcome = outcome;
            call.fault_id = fault_id;
        }
    }
}
