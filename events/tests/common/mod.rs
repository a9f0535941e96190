//! Helpers shared by the store tests.
#![allow(dead_code)]

use events::{Metadata, NewEvent};
use serde_json::{json, Value};
use uuid::Uuid;

pub fn meta() -> Metadata {
    Metadata {
        correlation_id: Uuid::new_v4(),
        causation_id: None,
        actor: "test".into(),
        client: Some(json!({"os": "linux"})),
    }
}

pub fn event(event_type: &str, payload: Value) -> NewEvent {
    NewEvent { event_type: event_type.into(), schema_version: 1, payload, metadata: meta() }
}

/// `read_all_after` once at least `n` events are visible to it (or after 10 s).
///
/// The gap-free read holds events back while ANY older transaction of the cluster is
/// in progress, including other tests' transactions in other databases. Once our
/// events are older than every running transaction they stay visible, so waiting for
/// them to settle is the only retry needed; the ordering under test is forced with
/// explicit transactions, never with this wait.
pub async fn read_all_settled(
    store: &events::EventStore,
    from: events::Checkpoint,
    n: usize,
) -> Vec<events::RecordedEvent> {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let read = store.read_all_after(from, 1000).await.unwrap();
        if read.len() >= n || tokio::time::Instant::now() > deadline {
            return read;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}
