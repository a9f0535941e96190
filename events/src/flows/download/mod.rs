//! The desktop antivirus download (`/av-desktop/download/{os}`): SMS verification, user
//! look-up, partner choice, download grant, licences in use. Pure; the orchestrator's
//! `flows::download` runs its steps. Decisions the spec left open: `docs/download-flow.md`.

mod commands;
mod decide;
mod events;
mod next_step;
mod state;
mod validation;
mod view;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::flow::{Flow, PlannedStep, Rejection};

pub use commands::Command;
pub use decide::{resend_message, BUSY, INVALID_BROWSER, INVALID_OS, OUT_OF_STEP, UNKNOWN_CHOICE};
pub use events::{Device, Event, Partner};
pub use state::{Pending, Snackbar, Stage, State};
pub use validation::*;

/// The flow, for the [`Flow`] registry.
pub struct Download;

impl Flow for Download {
    const CATEGORY: &'static str = "download";
    type State = State;
    type Event = Event;
    type Command = Command;

    fn evolve(state: State, event: &Event, at: DateTime<Utc>) -> State {
        state::evolve(state, event, at)
    }

    fn decide(state: &State, command: Command, now: DateTime<Utc>) -> Result<Vec<Event>, Rejection> {
        decide::decide(state, command, now)
    }

    fn next_step(state: &State) -> Option<PlannedStep> {
        next_step::next_step(state)
    }

    fn view(state: &State, now: DateTime<Utc>) -> Value {
        view::view(state, now)
    }
}

#[cfg(test)]
mod tests;
