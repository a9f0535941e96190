//! The upstream call the attempt is waiting for. Every step of this flow is due as soon as
//! it is planned (no waits): its due time is the time of the event that planned it.

use super::state::DownloadState;
use crate::flow::PlannedStep;

pub fn next_step(state: &DownloadState) -> Option<PlannedStep> {
    let due_at = state.updated_at.unwrap_or_default();
    state.pending.as_ref().map(|pending| PlannedStep::now(pending.step().name(), due_at))
}
