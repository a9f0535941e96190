//! The desktop antivirus download (`/av-desktop/download/{os}`): SMS verification, user
//! look-up, partner choice, download grant, licences in use. Pure; the orchestrator's
//! `flows::download` runs its steps. Decisions the spec left open: `docs/download-flow.md`.

mod commands;
mod decide;
mod events;
mod messages;
mod next_step;
mod state;
mod step;
mod validation;
mod view;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::flow::{Flow, Guards, Outcome, PlannedStep, Rejection};

pub use commands::DownloadCommand;
pub use events::{Device, DownloadEvent, Partner};
pub use messages::*;
pub use state::{DownloadPanel, DownloadState, Pending, Snackbar};
pub use step::DownloadStep;
pub use validation::*;

/// The flow, for the [`Flow`] registry.
pub struct DownloadFlow;

impl Flow for DownloadFlow {
    const CATEGORY: &'static str = "download";
    type State = DownloadState;
    type Event = DownloadEvent;
    type Command = DownloadCommand;

    fn command_name(command: &DownloadCommand) -> &'static str {
        command.name()
    }

    fn guards(decided: &[DownloadEvent]) -> Guards {
        decide::guards(decided)
    }

    fn evolve(state: DownloadState, event: &DownloadEvent, at: DateTime<Utc>) -> DownloadState {
        state::evolve(state, event, at)
    }

    fn decide(
        state: &DownloadState,
        command: DownloadCommand,
        now: DateTime<Utc>,
    ) -> Result<Vec<DownloadEvent>, Rejection> {
        decide::decide(state, command, now)
    }

    fn next_step(state: &DownloadState) -> Option<PlannedStep> {
        next_step::next_step(state)
    }

    fn view(state: &DownloadState, now: DateTime<Utc>) -> Value {
        view::view(state, now)
    }

    fn outcome(state: &DownloadState) -> Outcome {
        view::outcome(state)
    }
}

#[cfg(test)]
mod tests;
