//! Which upstream call the runner owes the attempt, and from when.

use super::state::CloudState;
use crate::flow::PlannedStep;

pub fn next_step(state: &CloudState) -> Option<PlannedStep> {
    state.pending.map(|pending| PlannedStep { name: pending.step.name().to_string(), due_at: pending.due_at })
}
