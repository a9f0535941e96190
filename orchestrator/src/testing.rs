//! Plain data for this crate's unit tests.

use events::{Metadata, RecordedEvent};

/// Events `versions` of a cloud attempt's stream, as a fold reads them (`code.sent`, no payload).
pub fn cloud_events(versions: std::ops::RangeInclusive<i64>) -> Vec<RecordedEvent> {
    versions
        .map(|version| RecordedEvent {
            position: 0,
            tx_id: 0,
            stream_id: "cloud-1".into(),
            version,
            event_type: "code.sent".into(),
            schema_version: 1,
            payload: serde_json::json!({}),
            metadata: Metadata {
                correlation_id: uuid::Uuid::nil(),
                causation_id: None,
                actor: "runner".into(),
                client: None,
            },
            recorded_at: chrono::Utc::now(),
        })
        .collect()
}
