//! The security activation (spec sections 2, 4, 5, 7, 8, 9): one template, six variants.
//! See `docs/activation-flow.md` for the events, panels and upstream chain of each variant.

mod commands;
mod decide;
mod events;
pub mod messages;
mod next_step;
mod state;
mod step;
mod validation;
mod variant;
mod view;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::flow::{Flow, Guards, Outcome, PlannedStep, Rejection};

pub use commands::ActivationCommand;
pub use decide::BROADBAND_RETURN_PATH;
pub use events::{
    ActivationEvent, CodeRefusal, EmailSubmitted, PhoneSubmitted, Platform, Products, Refused, Started, StepFailed,
};
pub use messages::*;
pub use state::{ActivationPanel, ActivationState, RESEND_COUNTDOWN_SECS};
pub use step::ActivationStep;
pub use validation::{CpfCnpj, DocumentKind, Email, Licence, Msisdn, Pincode};
pub use variant::{Brand, Form, Variant};

/// The activation flow's pure logic.
pub struct ActivationFlow;

impl Flow for ActivationFlow {
    const CATEGORY: &'static str = "activation";
    type State = ActivationState;
    type Event = ActivationEvent;
    type Command = ActivationCommand;

    fn command_name(command: &ActivationCommand) -> &'static str {
        command.name()
    }

    fn guards(decided: &[ActivationEvent]) -> Guards {
        decide::guards(decided)
    }

    fn evolve(state: ActivationState, event: &ActivationEvent, at: DateTime<Utc>) -> ActivationState {
        state::evolve(state, event, at)
    }

    fn decide(
        state: &ActivationState,
        command: ActivationCommand,
        now: DateTime<Utc>,
    ) -> Result<Vec<ActivationEvent>, Rejection> {
        decide::decide(state, command, now)
    }

    fn next_step(state: &ActivationState) -> Option<PlannedStep> {
        next_step::next_step(state)
    }

    fn view(state: &ActivationState, now: DateTime<Utc>) -> Value {
        view::view(state, now)
    }

    fn outcome(state: &ActivationState) -> Outcome {
        view::outcome(state)
    }
}

#[cfg(test)]
mod tests;
