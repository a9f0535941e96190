//! One synthetic attempt, driven through its flow's own `decide` and `evolve`: a visitor's
//! command is decided like the API decides it, a step's outcome is an event the flow folds,
//! and only outcomes of a step the flow has planned are accepted. So every stream the seed
//! writes is one the orchestrator could have written.

use chrono::{DateTime, Duration, Utc};
use events::flow::Flow;
use serde_json::Value;

/// An event ready to store (personal data still as clear markers).
#[derive(Debug, Clone, PartialEq)]
pub struct SeedEvent {
    pub event_type: String,
    pub payload: Value,
    pub at: DateTime<Utc>,
    /// `visitor` for decided commands, `runner` for step outcomes.
    pub actor: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum JourneyError {
    #[error("{flow}: the command {command} was refused: {message}")]
    Refused { flow: &'static str, command: String, message: String },
    #[error("{flow}: {what} is not one of the flow's commands or events: {error}")]
    Malformed { flow: &'static str, what: String, error: serde_json::Error },
    #[error("{flow}: {event} arrived with no step planned")]
    NoStepPlanned { flow: &'static str, event: String },
}

/// An attempt of flow `F` in the making.
pub struct Journey<F: Flow> {
    state: F::State,
    at: DateTime<Utc>,
    events: Vec<SeedEvent>,
}

impl<F: Flow> Journey<F> {
    pub fn starting_at(at: DateTime<Utc>) -> Self {
        Self { state: F::State::default(), at, events: Vec::new() }
    }

    /// The visitor sends `command` `after` the previous event.
    pub fn command(&mut self, after: Duration, command: Value) -> Result<&mut Self, JourneyError> {
        self.at += after;
        let text = command.to_string();
        let parsed: F::Command = serde_json::from_value(command).map_err(|error| JourneyError::Malformed {
            flow: F::CATEGORY,
            what: text.clone(),
            error,
        })?;
        let decided = F::decide(&self.state, parsed, self.at).map_err(|r| JourneyError::Refused {
            flow: F::CATEGORY,
            command: text,
            message: r.message,
        })?;
        for event in decided {
            self.fold(event, "visitor")?;
        }
        Ok(self)
    }

    /// The runner records the planned step's outcome `after` the previous event: one event,
    /// or several a step writes together (`[signed_in, activated]`).
    pub fn step(&mut self, after: Duration, outcome: Value) -> Result<&mut Self, JourneyError> {
        let text = outcome.to_string();
        if F::next_step(&self.state).is_none() {
            return Err(JourneyError::NoStepPlanned { flow: F::CATEGORY, event: text });
        }
        self.at += after;
        let list = match outcome {
            Value::Array(list) => list,
            one => vec![one],
        };
        for event in list {
            let parsed: F::Event = serde_json::from_value(event).map_err(|error| JourneyError::Malformed {
                flow: F::CATEGORY,
                what: text.clone(),
                error,
            })?;
            self.fold(parsed, "runner")?;
        }
        Ok(self)
    }

    /// The portal records a fact it observed itself `after` the previous event (the installer
    /// went out whole): no command, no planned step.
    pub fn fact(&mut self, after: Duration, event: Value) -> Result<&mut Self, JourneyError> {
        let text = event.to_string();
        let parsed: F::Event = serde_json::from_value(event).map_err(|error| JourneyError::Malformed {
            flow: F::CATEGORY,
            what: text,
            error,
        })?;
        self.at += after;
        self.fold(parsed, "portal")?;
        Ok(self)
    }

    fn fold(&mut self, event: F::Event, actor: &'static str) -> Result<(), JourneyError> {
        let (event_type, payload) = events::flow::encode::<F>(&event).map_err(|error| JourneyError::Malformed {
            flow: F::CATEGORY,
            what: "an event".into(),
            error,
        })?;
        self.state = F::evolve(std::mem::take(&mut self.state), &event, self.at);
        self.events.push(SeedEvent { event_type, payload, at: self.at, actor });
        Ok(())
    }

    pub fn state(&self) -> &F::State {
        &self.state
    }

    pub fn into_events(self) -> Vec<SeedEvent> {
        self.events
    }
}
