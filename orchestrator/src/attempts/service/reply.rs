//! What the browser receives of an attempt: its new events, redacted, and its view.

use chrono::{DateTime, Utc};
use events::flow::AttemptFlow;
use events::{RecordedEvent, StoreError, StreamId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::write_path::pii::redact;

/// The only `reason` values a visitor's page receives: the activation's `code.rejected`
/// refusals (`CodeRefusal`), which pick the message it shows.
const VISITOR_REASONS: [&str; 3] = ["expired", "locked", "wrong"];

/// An event as the browser receives it: personal data redacted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientEvent {
    #[serde(rename = "type")]
    pub event_type: String,
    pub data: Value,
    pub version: i64,
    pub at: chrono::DateTime<Utc>,
}

impl ClientEvent {
    pub fn from_recorded(event: &RecordedEvent) -> Self {
        let mut data = event.payload.clone();
        redact(&mut data);
        // The runner's diagnostics (why a step gave up, upstream statuses) are for support;
        // the visitor's page shows the flow's generic message.
        if event.event_type.starts_with("step.") {
            if let Value::Object(map) = &mut data {
                map.retain(|key, _| key == "step");
            }
        }
        // A `reason` is upstream text (an error code, a transport failure) for support only;
        // the one the page reads is the activation's code refusal, a word of our own.
        if let Value::Object(map) = &mut data {
            let ours = map.get("reason").and_then(Value::as_str).is_some_and(|r| VISITOR_REASONS.contains(&r));
            if !ours {
                map.remove("reason");
            }
        }
        Self { event_type: event.event_type.clone(), data, version: event.version, at: event.recorded_at }
    }
}

/// The answer to every attempt call.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AttemptReply {
    pub id: String,
    pub flow: String,
    pub version: i64,
    pub events: Vec<ClientEvent>,
    pub view: Value,
}

/// The attempt's reply, its view as of `now` (the database's clock, see [`crate::clock`]).
pub fn reply(
    flow: &dyn AttemptFlow,
    stream: &StreamId,
    history: &[RecordedEvent],
    new_from: usize,
    now: DateTime<Utc>,
) -> AttemptReply {
    AttemptReply {
        id: stream.as_str().to_string(),
        flow: flow.category().to_string(),
        version: history.last().map(|e| e.version).unwrap_or(0),
        events: history[new_from.min(history.len())..]
            .iter()
            .filter(|e| flow.knows(&e.event_type, &e.payload))
            .map(ClientEvent::from_recorded)
            .collect(),
        view: flow.view(history, now),
    }
}

/// The reply as the attempt's own visitor reads it: the sealed fields they are shown (their
/// device names) opened first, every other personal field redacted as usual.
pub async fn owner_reply(
    vault: &events::pii::Vault,
    flow: &dyn AttemptFlow,
    stream: &StreamId,
    history: &[RecordedEvent],
    new_from: usize,
    now: DateTime<Utc>,
) -> Result<AttemptReply, StoreError> {
    let mut opened = history.to_vec();
    open_for_owner(vault, &mut opened).await?;
    Ok(reply(flow, stream, &opened, new_from, now))
}

/// Opens, in place, the sealed fields of `events` their owner is shown (see [`owner_reply`]).
/// An event stream opens each event once, as it arrives, and keeps it opened between frames:
/// most frames then read no key.
pub async fn open_for_owner(vault: &events::pii::Vault, events: &mut [RecordedEvent]) -> Result<(), StoreError> {
    vault.reveal_payloads_where(events.iter_mut().map(|e| &mut e.payload), |kind| kind.shown_to_owner()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::Metadata;
    use serde_json::json;
    use uuid::Uuid;

    fn recorded(event_type: &str, payload: Value) -> RecordedEvent {
        RecordedEvent {
            position: 1,
            tx_id: 1,
            stream_id: "download-x".into(),
            version: 1,
            event_type: event_type.into(),
            schema_version: 1,
            payload,
            metadata: Metadata {
                correlation_id: Uuid::nil(),
                causation_id: None,
                actor: "runner".into(),
                client: None,
            },
            recorded_at: Utc::now(),
        }
    }

    #[test]
    fn a_visitor_never_receives_an_upstream_reason() {
        for (event_type, payload) in [
            ("devices.failed", json!({ "reason": "HTTP 500 key=LEAK" })),
            ("code.send_failed", json!({ "reason": "phone-auth.send-code: connection failed" })),
            ("device.removal_failed", json!({ "device_id": "d1", "reason": "HTTP 403 X" })),
            ("step.gave_up", json!({ "step": "send_code", "reason": "http://h/?key=LEAK" })),
        ] {
            let data = ClientEvent::from_recorded(&recorded(event_type, payload)).data;
            assert!(data.get("reason").is_none(), "{event_type}: {data}");
        }
        let kept =
            ClientEvent::from_recorded(&recorded("code.rejected", json!({ "reason": "expired", "status": 403 }))).data;
        assert_eq!(kept["reason"], "expired", "the activation page picks its message by it");
        let removal =
            ClientEvent::from_recorded(&recorded("device.removal_failed", json!({ "device_id": "d1", "reason": "x" })))
                .data;
        assert_eq!(removal["device_id"], "d1");
    }
}
