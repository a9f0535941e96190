//! The upstream call due next: the pending step, due since the event that asked for it.

use crate::flow::PlannedStep;

use super::state::ActivationState;

pub fn next_step(state: &ActivationState) -> Option<PlannedStep> {
    let step = state.pending?;
    let due_at = state.pending_since?;
    Some(PlannedStep { name: step.name().to_string(), due_at })
}
