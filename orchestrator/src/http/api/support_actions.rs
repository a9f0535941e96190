//! `/api/support/attempts/{id}/{retry,cancel,notes}`: a support agent acts on an attempt
//! (issue 27). Each is a command on the attempt's own command path
//! ([`crate::attempts::service::AttemptService::support_command`]), audited in the staff trail
//! in the same transaction: retry and cancel with the reason typed (sealed under the attempt's
//! key, so it goes with the people of the attempt, issue 26), a note by its position (its text
//! is sealed in the attempt, never in the trail). CSRF and roles as every support
//! route: support and admin.

use axum::extract::{Path, State};
use axum::routing::post;
use axum::{Json, Router};
use events::flow::support::SupportCommand;
use events::flow::PiiField;
use events::pii::PiiKind;
use events::StreamId;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::attempts::service::TrailEntry;
use crate::error::ApiError;
use crate::http::json::{or_invalid, Json as Body};
use crate::http::state::AppState;
use crate::staff::audit;
use crate::staff::auth::SupportStaff;
use crate::support::detail;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/support/attempts/{id}/retry", post(retry))
        .route("/api/support/attempts/{id}/cancel", post(cancel))
        .route("/api/support/attempts/{id}/notes", post(add_note))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReasonBody {
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoteBody {
    text: String,
}

/// The typed reason, trimmed: at most 500 characters as sent (the API's schema counts them
/// before any trim), and at least 10 once trimmed. A reveal's reason is checked here too.
pub(super) fn reason_of(typed: &str) -> Result<String, ApiError> {
    if typed.chars().count() > 500 {
        return Err(ApiError::Invalid(crate::texts::REASON_TOO_LONG.into()));
    }
    let reason = typed.trim();
    if reason.chars().count() < 10 {
        return Err(ApiError::Invalid(crate::texts::REASON_TOO_SHORT.into()));
    }
    if events::flow::has_control(reason) {
        return Err(ApiError::Invalid(crate::texts::REASON_CONTROL.into()));
    }
    Ok(reason.to_string())
}

/// Runs `command` on the attempt `id`; the answer names the new events (masked) and the
/// position of the first, the permalink's.
async fn act(state: &AppState, id: &str, command: SupportCommand, trail: TrailEntry) -> Result<Json<Value>, ApiError> {
    let stream = StreamId::parse(id).map_err(|_| ApiError::NotFound)?;
    let flow = state.flows.get(stream.category()).ok_or(ApiError::NotFound)?;
    if state.store.stream_version(&stream).await? == 0 {
        return Err(ApiError::NotFound);
    }
    let (after, first) = state.attempts().support_command(&stream, flow, command, trail).await?;
    let events: Vec<Value> = after.iter().filter(|e| e.version >= first).map(detail::entry).collect();
    Ok(Json(json!({ "attempt": stream.as_str(), "version": first, "events": events })))
}

async fn retry(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
    body: Result<Body<ReasonBody>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let trail = reasoned(staff.id, audit::RETRIED_STEP, body)?;
    act(&state, &id, SupportCommand::RetryNow, trail).await
}

async fn cancel(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
    body: Result<Body<ReasonBody>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let trail = reasoned(staff.id, audit::CANCELLED_ATTEMPT, body)?;
    act(&state, &id, SupportCommand::Cancel, trail).await
}

/// The staff trail's entry of an action that asks for a reason (retry, cancel).
fn reasoned(
    staff: uuid::Uuid,
    event_type: &'static str,
    body: Result<Body<ReasonBody>, ApiError>,
) -> Result<TrailEntry, ApiError> {
    let Body(body) = body.map_err(|e| or_invalid(e, crate::texts::ACTION_MALFORMED))?;
    let reason = reason_of(&body.reason)?;
    // A clear marker: the command path seals it before the trail's append.
    let reason = PiiField::clear(PiiKind::StaffReason, &reason);
    Ok(TrailEntry { staff, event_type, payload: json!({ "reason": reason }) })
}

async fn add_note(
    State(state): State<AppState>,
    SupportStaff(staff): SupportStaff,
    Path(id): Path<String>,
    body: Result<Body<NoteBody>, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let Body(body) = body.map_err(|e| or_invalid(e, crate::texts::NOTE_MALFORMED))?;
    // The note's text stays in the attempt, sealed; the trail says only that one was written.
    let trail = TrailEntry { staff: staff.id, event_type: audit::NOTED, payload: json!({}) };
    act(&state, &id, SupportCommand::AddNote { text: body.text }, trail).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_ten_to_five_hundred_characters_without_control_ones() {
        assert_eq!(reason_of("  Cliente pediu para encerrar  ").ok().as_deref(), Some("Cliente pediu para encerrar"));
        assert!(reason_of("curto").is_err());
        assert!(reason_of(&"a".repeat(501)).is_err());
        assert!(reason_of(&format!("\u{b}{}", "a".repeat(500))).is_err(), "501 characters sent, 500 once trimmed");
        assert!(reason_of(&format!(" {}", "a".repeat(499))).is_ok());
        assert!(reason_of("Cliente pediu\u{0} encerrar").is_err());
    }
}
