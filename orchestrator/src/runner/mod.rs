//! The step runner: executes the upstream calls that attempts have due, one at a time per
//! attempt, across any number of orchestrator processes.
//!
//! - The schedule (`due_steps`) is written with the events that change it
//!   ([`crate::write_path::schedule`]).
//! - A runner claims a due row with `FOR UPDATE SKIP LOCKED` and takes a lease on it, so two
//!   runners never execute one step at once ([`claim`]).
//! - Before calling out it appends `step.started` with an idempotency key; `step.called` (the
//!   upstream's status and latency) and the outcome events are appended with the expected
//!   version after it. A runner that dies mid-call leaves the lease to expire; the next claim
//!   finds the step's tries without an outcome and repeats the call with the same key, so the
//!   upstream can deduplicate it ([`worker`]). Tries are counted and bounded ([`policy`]).
//! - Waits (the cloud flow's 5 s) are due times in the row, never sleeps in a handler.
//! - Tokens a step keeps for later steps are written with its outcome, in its transaction
//!   ([`KeptSecrets`]); a try that fails keeps none.

pub mod claim;
pub mod failure;
pub mod flow;
mod kept;
pub mod policy;
mod record;
pub mod steps;
pub mod worker;

pub use crate::upstream::calls::CallLog;
pub use flow::{Plan, PlannedStep, StepError, StepFlow, StepOutput, STEP_CALLED, STEP_STARTED};
pub use kept::KeptSecrets;
pub use policy::RetryPolicy;
pub use steps::{FlowRunner, FlowSteps, StepContext, StepDeps};
pub use worker::{Runner, RunnerConfig};
