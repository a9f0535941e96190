//! The step runner: executes the upstream calls that attempts have due, one at a time per
//! attempt, across any number of orchestrator processes.
//!
//! - The schedule (`due_steps`) is written with the events that change it
//!   ([`crate::write_path::schedule`]).
//! - A runner claims a due row with `FOR UPDATE SKIP LOCKED` and takes a lease on it, so two
//!   runners never execute one step at once ([`claim`]). A step due at once is claimed by the
//!   transaction that plans it instead: a step's result for the same runner, which goes on with
//!   it in the same slot, or a command of this process, which hands it to the runner after its
//!   commit ([`crate::write_path::Handoff`]).
//! - It reads and folds the stream, calls the upstream with an idempotency key, then appends,
//!   in one transaction at the version it read, `step.started` (the key, the claim and its
//!   time), `step.called` (the upstream's status and latency) and the outcome events, or
//!   `step.started` and the failure (issue 24: nothing is written before the call). A runner
//!   that dies mid-call leaves the lease to expire and the stream as it was; the next claim
//!   folds the same version, derives the same key and repeats the call under it, so the
//!   upstream can deduplicate it ([`worker`]). Tries are counted and bounded
//!   ([`policy`]).
//! - Waits (the cloud flow's 5 s) are due times in the row, never sleeps in a handler.
//! - Tokens a step keeps for later steps are written with its outcome, in its transaction
//!   ([`KeptSecrets`]); a try that fails keeps none.

pub mod claim;
pub mod failure;
pub mod flow;
mod kept;
pub mod policy;
mod record;
mod started;
pub mod steps;
mod supervise;
pub mod worker;

pub use crate::upstream::calls::CallLog;
pub use flow::{Plan, PlannedStep, StepError, StepFlow, StepOutput, STEP_CALLED, STEP_STARTED};
pub use kept::KeptSecrets;
pub use policy::RetryPolicy;
pub use steps::{FlowRunner, FlowSteps, StepContext, StepDeps};
pub use worker::{Runner, RunnerConfig};
