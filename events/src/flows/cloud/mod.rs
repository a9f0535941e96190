//! Cloud activation by serial (`/cloud/positivo`, spec sections 2, 4, 5, 7, 8, 9 "Cloud
//! activation"): form 1 (phone, serial) → phone check → code sent → form 2 (code) → validate
//! code → register serial → 5 s → custom token → sign in → success. Documented in
//! `docs/cloud-flow.md`.

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

pub use commands::CloudCommand;
pub use events::CloudEvent;
pub use messages::*;
pub use state::{CloudPanel, CloudState, Pending, RESEND_COUNTDOWN, TOKEN_DELAY};
pub use step::CloudStep;
pub use validation::{CloudPhone, Pincode, Serial, CODE_LEN, COUNTRY_PREFIX, SERIAL_MAX_LEN};
pub use view::{SUCCESS_MODAL_MS, SUCCESS_REDIRECT};

/// The stream category and the `flow` of `POST /api/attempts`.
pub const CATEGORY: &str = "cloud";

pub struct CloudFlow;

impl Flow for CloudFlow {
    const CATEGORY: &'static str = CATEGORY;
    type State = CloudState;
    type Event = CloudEvent;
    type Command = CloudCommand;

    fn command_name(command: &CloudCommand) -> &'static str {
        command.name()
    }

    fn guards(decided: &[CloudEvent]) -> Guards {
        decide::guards(decided)
    }

    fn evolve(state: CloudState, event: &CloudEvent, at: DateTime<Utc>) -> CloudState {
        state::evolve(state, event, at)
    }

    fn decide(state: &CloudState, command: CloudCommand, now: DateTime<Utc>) -> Result<Vec<CloudEvent>, Rejection> {
        decide::decide(state, command, now)
    }

    fn next_step(state: &CloudState) -> Option<PlannedStep> {
        next_step::next_step(state)
    }

    fn view(state: &CloudState, now: DateTime<Utc>) -> Value {
        view::view(state, now)
    }

    fn outcome(state: &CloudState) -> Outcome {
        view::outcome(state)
    }
}

#[cfg(test)]
mod tests;
