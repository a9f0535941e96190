//! The upstream call due next: the pending step, due since the event that asked for it.

use crate::flow::PlannedStep;

use super::state::State;

pub fn next_step(state: &State) -> Option<PlannedStep> {
    let step = state.pending?;
    let due_at = state.pending_since?;
    Some(PlannedStep { name: step.as_str().to_string(), due_at })
}
