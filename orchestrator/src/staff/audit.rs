//! Every staff action is an event in the member's own `staff-<uuid>` stream (refused sign-ins
//! for an e-mail nobody has go to a `staffauth-<uuid>` stream of their own). Payloads never
//! hold personal data in clear: look-ups keep the keyed look-up hash in hex.

use events::{EventStore, ExpectedVersion, Metadata, NewEvent, StoreError, StreamId};
use serde_json::Value;
use uuid::Uuid;

pub const SIGNED_IN: &str = "staff.signed_in";
pub const SIGNED_OUT: &str = "staff.signed_out";
pub const SIGN_IN_REFUSED: &str = "staff.sign_in_refused";
pub const LOOKED_UP: &str = "staff.looked_up";
/// A look-up's results downloaded as CSV (issue 27): the key's hash and the rows.
pub const EXPORTED: &str = "staff.exported_lookup";
pub const OPENED_ATTEMPT: &str = "staff.opened_attempt";
pub const DOWNLOADED_HISTORY: &str = "staff.downloaded_history";
pub const REVEALED: &str = "staff.revealed";
pub const ERASED: &str = "staff.erased";
/// Support's actions on an attempt (issue 27), each beside the attempt's own event.
pub const RETRIED_STEP: &str = "staff.retried_step";
pub const CANCELLED_ATTEMPT: &str = "staff.cancelled_attempt";
pub const NOTED: &str = "staff.noted";
pub const SECOND_FACTOR_ENROLLED: &str = "staff.second_factor_enrolled";

/// The stream of one staff member's actions.
pub fn stream_of(staff_id: Uuid) -> Result<StreamId, StoreError> {
    StreamId::from_parts("staff", staff_id)
}

/// Appends one action of `staff_id` (or, for `None`, of someone not known).
pub async fn record(
    store: &EventStore,
    staff_id: Option<Uuid>,
    event_type: &str,
    payload: Value,
) -> Result<(), StoreError> {
    let (stream, actor) = match staff_id {
        Some(id) => (stream_of(id)?, format!("staff:{id}")),
        None => (StreamId::new("staffauth")?, "staff:unknown".to_string()),
    };
    let event = NewEvent {
        event_type: event_type.to_string(),
        schema_version: 1,
        payload,
        metadata: Metadata { correlation_id: Uuid::new_v4(), causation_id: None, actor, client: None },
    };
    store.append(&stream, ExpectedVersion::Any, vec![event]).await?;
    Ok(())
}
