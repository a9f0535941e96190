//! The security activation (spec sections 2, 4, 5, 7, 8, 9): one template, six variants.
//! See `docs/activation-flow.md` for the events, panels and upstream chain of each variant.

pub mod commands;
pub mod decide;
pub mod events;
pub mod messages;
pub mod next_step;
pub mod state;
pub mod validation;
pub mod variant;
pub mod view;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::flow::{Flow, PlannedStep, Rejection};

pub use commands::Command;
pub use events::{CodeRefusal, Event, Platform, Products};
pub use state::{Panel, State};
pub use variant::{Brand, Step, Variant};

/// The activation flow's pure logic.
pub struct Activation;

impl Flow for Activation {
    const CATEGORY: &'static str = "activation";
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
