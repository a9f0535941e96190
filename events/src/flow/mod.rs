//! What every attempt flow (activation, download, cloud) is made of, as pure functions:
//! `decide(state, command) -> events`, `evolve(state, event) -> state`,
//! `next_step(state)` and `view(state)`. No I/O here: the orchestrator supplies the store,
//! the clock and the upstream calls, and tests fold plain event lists.

mod erased;
mod field_error;
mod guards;
mod phone;
mod pii_field;
mod secret_field;
pub mod support;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod typed_code;

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::types::RecordedEvent;

pub use crate::pii::{clear_marker, CLEAR_MARKER};
pub use erased::{AttemptFlow, Decision, Erased, Refused, MALFORMED_COMMAND};
pub(crate) use field_error::debug_masked;
pub use field_error::FieldError;
pub use guards::{national_digits, Guards, SmsTo};
pub use phone::{read_phone, PhoneReading, NATIONAL_DIGITS, VALID_DDDS};
pub use pii_field::PiiField;
pub use secret_field::{SecretField, SECRET_CLEAR_MARKER, SECRET_MARKER};
pub use typed_code::tidy_code;

/// A step the flow wants the runner to execute (an upstream call or the end of a wait).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedStep {
    /// Stable name (for example `send_code`); part of the idempotency key of the call.
    pub name: String,
    /// Not before this time: waits are due times, never sleeps.
    pub due_at: DateTime<Utc>,
}

impl PlannedStep {
    pub fn now(name: &str, now: DateTime<Utc>) -> Self {
        Self { name: name.to_string(), due_at: now }
    }
}

/// Whether `text` holds a control character (NUL, escape, a line break…): no form field takes
/// one, and PostgreSQL refuses `\u0000` in `jsonb`, so every free-text field is refused with its
/// own message when it has one (issue 16, item 10).
pub fn has_control(text: &str) -> bool {
    text.chars().any(char::is_control)
}

/// A command the flow refuses, with the spec's Portuguese message for the visitor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejection {
    /// The form field the message belongs to, when there is one.
    pub field: Option<String>,
    pub message: String,
}

impl Rejection {
    pub fn field(field: &str, message: &str) -> Self {
        Self { field: Some(field.to_string()), message: message.to_string() }
    }

    pub fn general(message: &str) -> Self {
        Self { field: None, message: message.to_string() }
    }
}

/// One flow's pure logic.
///
/// `Event` and `Command` are enums serialized with `#[serde(tag = "type", content = "data")]`
/// (events) and `#[serde(tag = "type")]` (commands); an event's `type` is its stored
/// `event_type`, its `data` the payload. The first command of an attempt is its start
/// command, decided on `State::default()`.
pub trait Flow: Send + Sync + 'static {
    /// The stream category: `activation`, `download` or `cloud`.
    const CATEGORY: &'static str;
    type State: Default + Clone + Send + Sync;
    type Event: Serialize + DeserializeOwned + Clone + Send + Sync;
    /// Parsed once from the request's JSON; unknown fields and types are refused
    /// (`#[serde(deny_unknown_fields)]`), so no field is read that the flow ignores.
    type Command: DeserializeOwned + Send;

    /// The command's name, for metrics and refusals (its `type`).
    fn command_name(command: &Self::Command) -> &'static str;

    /// What the decided events will do that the abuse limits watch (see [`Guards`]).
    fn guards(decided: &[Self::Event]) -> Guards;

    fn evolve(state: Self::State, event: &Self::Event, at: DateTime<Utc>) -> Self::State;

    fn decide(state: &Self::State, command: Self::Command, now: DateTime<Utc>) -> Result<Vec<Self::Event>, Rejection>;

    fn next_step(state: &Self::State) -> Option<PlannedStep>;

    /// What the visitor's browser shows: at least `{"panel": "<name>"}` plus the panel's data.
    /// Never a token and never personal data in clear.
    fn view(state: &Self::State, now: DateTime<Utc>) -> Value;

    /// Where the attempt stands for those who look at it afterwards (support, funnels): done,
    /// refused with the message the visitor read, or still open.
    fn outcome(state: &Self::State) -> Outcome;
}

/// Where an attempt stands, as its flow sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The visitor reached the flow's normal end.
    Completed,
    /// The visitor is looking at a refusal: the spec's Portuguese message they read.
    Refused { message: String },
    /// Neither: the visitor may still act (or has walked away).
    Open,
}

impl Outcome {
    pub fn refused(message: impl Into<String>) -> Self {
        Self::Refused { message: message.into() }
    }

    /// How an ended attempt is counted (the metrics' `outcome` label), `None` while it is open.
    pub fn label(&self) -> Option<&'static str> {
        match self {
            Self::Completed => Some("completed"),
            Self::Refused { .. } => Some("refused"),
            Self::Open => None,
        }
    }

    /// The message the visitor read, if refused.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Refused { message } => Some(message),
            Self::Completed | Self::Open => None,
        }
    }
}

/// What the visitor saw after one event: the panel and the refusal message, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seen {
    pub panel: String,
    pub message: Option<String>,
}

/// Encodes a domain event as (`event_type`, payload).
pub fn encode<F: Flow>(event: &F::Event) -> Result<(String, Value), serde_json::Error> {
    let value = serde_json::to_value(event)?;
    let event_type = value
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| serde::ser::Error::custom("event enums must use #[serde(tag = \"type\")]"))?;
    let payload = value.get("data").cloned().unwrap_or(Value::Object(Default::default()));
    Ok((event_type, payload))
}

/// The event types an event enum knows (its serde names), from serde's own list: the error of
/// an unknown variant carries it, so it is read without a second list to keep in step.
pub fn event_types<E: DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::value::MapDeserializer;
    let probe = MapDeserializer::<_, VariantsOf>::new([("type", "")].into_iter());
    match E::deserialize(probe) {
        Err(VariantsOf(Some(variants))) => variants,
        _ => &[],
    }
}

/// A deserializing error that keeps only the variants serde expected (see [`event_types`]).
#[derive(Debug)]
struct VariantsOf(Option<&'static [&'static str]>);

impl std::fmt::Display for VariantsOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not an event")
    }
}

impl std::error::Error for VariantsOf {}

impl serde::de::Error for VariantsOf {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Self(None)
    }

    fn unknown_variant(_: &str, expected: &'static [&'static str]) -> Self {
        Self(Some(expected))
    }
}

/// Decodes a stored event; `None` for types this flow does not know (`step.started`, ...).
pub fn decode<F: Flow>(event_type: &str, payload: &Value) -> Option<F::Event> {
    use serde::de::value::MapDeserializer;
    use serde::Deserialize;
    // Another flow's or the runner's event: no serde error to build and format (a fifth of
    // the events an attempt folds, and every fold read them; docs/throughput.md).
    if !event_types::<F::Event>().contains(&event_type) {
        return None;
    }
    // `{"type", "data"}` read by reference: replays decode millions of payloads, and copying
    // each into a tagged object first doubled the work.
    let kind = Value::String(event_type.to_string());
    let tagged = MapDeserializer::<_, serde_json::Error>::new([("type", &kind), ("data", payload)].into_iter());
    match F::Event::deserialize(tagged) {
        Ok(event) => Some(event),
        // A unit variant has no `data`; it is stored as an empty object.
        Err(_) if payload.as_object().is_some_and(|o| o.is_empty()) || payload.is_null() => {
            serde_json::from_value(serde_json::json!({ "type": event_type })).ok()
        }
        Err(_) => None,
    }
}

/// What the visitor saw after each event of `events` (one entry per event, in order): the
/// stream folded up to that event, never a second source of truth.
pub fn seen_along<F: Flow>(events: &[RecordedEvent]) -> Vec<Seen> {
    let mut state = F::State::default();
    events
        .iter()
        .map(|recorded| {
            if let Some(event) = decode::<F>(&recorded.event_type, &recorded.payload) {
                state = F::evolve(std::mem::take(&mut state), &event, recorded.recorded_at);
            }
            let view = F::view(&state, recorded.recorded_at);
            Seen {
                panel: view.get("panel").and_then(Value::as_str).unwrap_or_default().to_string(),
                message: F::outcome(&state).message().map(str::to_string),
            }
        })
        .collect()
}

/// Folds a stream into the flow's state.
pub fn fold<F: Flow>(events: &[RecordedEvent]) -> F::State {
    events.iter().fold(F::State::default(), |state, recorded| {
        match decode::<F>(&recorded.event_type, &recorded.payload) {
            Some(event) => F::evolve(state, &event, recorded.recorded_at),
            None => state,
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) struct Tiny;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", content = "data")]
    pub(crate) enum TinyEvent {
        #[serde(rename = "tiny.opened")]
        Opened { n: u32 },
        #[serde(rename = "tiny.closed")]
        Closed,
    }

    impl Flow for Tiny {
        const CATEGORY: &'static str = "tiny";
        type State = u32;
        type Event = TinyEvent;
        type Command = TinyEvent;
        fn command_name(_: &TinyEvent) -> &'static str {
            "tiny"
        }
        fn guards(_: &[TinyEvent]) -> Guards {
            Guards::default()
        }
        fn evolve(state: u32, event: &TinyEvent, _at: DateTime<Utc>) -> u32 {
            match event {
                TinyEvent::Opened { n } => state + n,
                TinyEvent::Closed => state * 10,
            }
        }
        fn decide(_: &u32, command: TinyEvent, _: DateTime<Utc>) -> Result<Vec<TinyEvent>, Rejection> {
            Ok(vec![command])
        }
        fn next_step(_: &u32) -> Option<PlannedStep> {
            None
        }
        fn view(state: &u32, _: DateTime<Utc>) -> Value {
            json!({ "panel": state.to_string() })
        }
        fn outcome(state: &u32) -> Outcome {
            match state {
                0 => Outcome::Open,
                n if n % 10 == 0 => Outcome::Completed,
                n => Outcome::refused(format!("total {n}")),
            }
        }
    }

    fn recorded(event: &TinyEvent, version: i64) -> RecordedEvent {
        let (event_type, payload) = encode::<Tiny>(event).expect("encode");
        RecordedEvent {
            position: version,
            tx_id: 1,
            stream_id: "tiny-1".into(),
            version,
            event_type,
            schema_version: 1,
            payload,
            metadata: crate::types::Metadata {
                correlation_id: uuid::Uuid::nil(),
                causation_id: None,
                actor: "visitor".into(),
                client: None,
            },
            recorded_at: DateTime::<Utc>::UNIX_EPOCH,
        }
    }

    #[test]
    fn seen_along_gives_the_panel_and_message_after_every_event_foreign_ones_included() {
        let mut history = vec![recorded(&TinyEvent::Opened { n: 3 }, 1)];
        let mut foreign = recorded(&TinyEvent::Closed, 2);
        foreign.event_type = "step.started".into();
        history.push(foreign);
        history.push(recorded(&TinyEvent::Closed, 3));
        let seen = seen_along::<Tiny>(&history);
        let expected = [("3", Some("total 3")), ("3", Some("total 3")), ("30", None)];
        assert_eq!(seen.len(), 3);
        for (seen, (panel, message)) in seen.iter().zip(expected) {
            assert_eq!((seen.panel.as_str(), seen.message.as_deref()), (panel, message));
        }
        assert_eq!(Tiny::outcome(&fold::<Tiny>(&history)), Outcome::Completed);
    }

    #[test]
    fn events_round_trip_through_type_and_payload_including_unit_variants() {
        for event in [TinyEvent::Opened { n: 3 }, TinyEvent::Closed] {
            let (event_type, payload) = encode::<Tiny>(&event).expect("encode");
            assert_eq!(decode::<Tiny>(&event_type, &payload), Some(event));
        }
        assert_eq!(encode::<Tiny>(&TinyEvent::Closed).expect("encode"), ("tiny.closed".into(), json!({})));
        assert_eq!(decode::<Tiny>("step.started", &json!({ "step": "x" })), None, "foreign types are skipped");
    }

    #[test]
    fn an_event_enum_names_its_types_from_its_serde_names() {
        assert_eq!(event_types::<TinyEvent>(), ["tiny.opened", "tiny.closed"]);
        let activation = event_types::<crate::flows::activation::ActivationEvent>();
        assert!(activation.contains(&"attempt.started") && activation.contains(&"step.gave_up"));
        assert!(!activation.contains(&"step.started"), "the runner's own event is no flow's");
    }
}
