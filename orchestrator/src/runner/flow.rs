//! What a flow tells the runner: which step is due, and how to run it.

use async_trait::async_trait;
pub use events::flow::PlannedStep;
use events::{NewEvent, RecordedEvent, StreamId};

use super::KeptSecrets;
use crate::upstream::calls::CallLog;
use crate::write_path::secrets::Stored;

/// The event type recording a try of a step (its idempotency key, the claim and when the claim
/// was taken), appended with the try's result, never before the call. Flows' projectors ignore it.
pub const STEP_STARTED: &str = "step.started";

/// The event type the runner appends after each try of a step: which try, the upstream's
/// endpoint, status and latency, and the failure if it failed. Flows' projectors ignore it.
pub const STEP_CALLED: &str = "step.called";

/// Why a step could not produce its outcome events.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// Worth another try later (database hiccup, our own bug surfaced as an error). The
    /// upstream's own refusals are not errors: the flow records them as outcome events.
    #[error("transient: {0}")]
    Transient(String),
}

impl crate::upstream::call::Classified for StepError {
    fn transient(reason: String) -> Self {
        StepError::Transient(reason)
    }

    fn transient_reason(&self) -> Option<&str> {
        match self {
            StepError::Transient(reason) => Some(reason),
        }
    }
}

/// What a folded stream says to the runner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The step due next, if any.
    pub next: Option<PlannedStep>,
    /// Where the attempt stands (the metrics count the attempts that end; the runner forgets a
    /// completed attempt's secrets); a flow without outcomes says `Open`.
    pub outcome: events::flow::Outcome,
}

/// What one try of a step produced: its outcome events, as the flow decided them, and the
/// tokens it kept for later steps; [`StepFlow::prepare_in`] writes both in the outcome's
/// transaction.
#[derive(Default)]
pub struct StepOutput {
    pub events: Vec<NewEvent>,
    pub kept: KeptSecrets,
}

impl From<Vec<NewEvent>> for StepOutput {
    /// An outcome that keeps no token.
    fn from(events: Vec<NewEvent>) -> Self {
        Self { events, kept: KeptSecrets::default() }
    }
}

/// One flow's part in running steps. Pure decisions stay in `events/`; this glues them to I/O.
#[async_trait]
pub trait StepFlow: Send + Sync + 'static {
    /// The stream category the flow owns (`activation`, `download`, `cloud`).
    fn category(&self) -> &'static str;

    /// Folds the stream once: the step due next, if any, and where the attempt stands.
    fn plan(&self, events: &[RecordedEvent]) -> Result<Plan, StepError>;

    /// Whether the runner deletes the attempt's secrets with the outcome that completes it.
    fn forgets_secrets_when_completed(&self) -> bool {
        false
    }

    /// Runs `step` (calls the upstream) and returns the events recording its outcome, as the
    /// flow decided them (personal data and secrets still marked: [`StepFlow::prepare_in`]
    /// makes them fit to store), with the tokens it kept for later steps, not yet written.
    /// `idempotency_key` is the same on every retry of this step; the upstream calls made are
    /// recorded in `calls` (status, latency) for the runner's events. `stored`: the attempt's
    /// secrets as the claim read them, for the step's reads.
    async fn run(
        &self,
        stream: &StreamId,
        events: &[RecordedEvent],
        step: &PlannedStep,
        idempotency_key: &str,
        calls: &CallLog,
        stored: &Stored,
    ) -> Result<StepOutput, StepError>;

    /// Makes the events [`StepFlow::run`] returned fit to store and writes the tokens it kept,
    /// on `conn`, the transaction that appends them (the write path's
    /// [`crate::write_path::prepare_in`], as a command's are): nothing it writes (vault
    /// subjects, secrets) outlives an outcome that does not commit. A flow without personal
    /// data or secrets stores the events as they are and keeps no token.
    async fn prepare_in(
        &self,
        _conn: &mut sqlx::PgConnection,
        _stream: &StreamId,
        output: StepOutput,
    ) -> Result<Vec<NewEvent>, StepError> {
        Ok(output.events)
    }
}
