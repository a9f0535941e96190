//! The test-facing admin API: move the clock, set and clear faults, read the calls received
//! and the subscriptions made, reset everything. Never logged or faulted itself.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{Duration, SecondsFormat};
use serde::Deserialize;
use serde_json::json;

use super::error::{json_body, Refusal, Style};
use super::intercept::{calls_of, ENDPOINTS};
use super::records::faults::FaultRequest;
use super::state::SandboxState;

pub fn routes() -> Router<SandboxState> {
    Router::new()
        .route("/clock", get(clock).post(advance_clock))
        .route("/faults", get(list_faults).post(add_fault).delete(clear_faults))
        .route("/faults/release", axum::routing::post(release))
        .route("/calls", get(calls).delete(clear_calls))
        .route("/subscriptions", get(subscriptions))
        .route("/endpoints", get(endpoints))
        .route("/reset", axum::routing::post(reset))
}

/// Everything back to its seeded state, so a run (a soak, a browser suite) starts clean.
async fn reset(State(state): State<SandboxState>) -> StatusCode {
    state.reset();
    StatusCode::NO_CONTENT
}

/// Ends the latency of every call waiting one out now (204): they go on at once.
async fn release(State(state): State<SandboxState>) -> StatusCode {
    state.release();
    StatusCode::NO_CONTENT
}

/// Admin errors are for developers: `{"error": {"code", "message"}}`.
const STYLE: Style = Style::Partner;

async fn clock(State(state): State<SandboxState>) -> Json<serde_json::Value> {
    Json(json!({ "now": state.now().to_rfc3339_opts(SecondsFormat::Millis, true) }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    advance_seconds: i64,
}

async fn advance_clock(
    State(state): State<SandboxState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, Refusal> {
    let Advance { advance_seconds } = json_body(STYLE, &headers, &body)?;
    // The clock only moves forward: codes that expired stay expired.
    if !(1..=366 * 86_400).contains(&advance_seconds) {
        return Err(Refusal::bad_request(STYLE, "INVALID_ADVANCE", "advance_seconds must be between 1 and 31622400"));
    }
    let now = state.advance(Duration::seconds(advance_seconds));
    Ok(Json(json!({ "now": now.to_rfc3339_opts(SecondsFormat::Millis, true) })))
}

async fn list_faults(State(state): State<SandboxState>) -> Response {
    Json(state.admin(|admin| admin.faults.list())).into_response()
}

async fn add_fault(State(state): State<SandboxState>, headers: HeaderMap, body: Bytes) -> Result<Response, Refusal> {
    let request: FaultRequest = json_body(STYLE, &headers, &body)?;
    let fault = state
        .admin(|admin| admin.faults.add(request, ENDPOINTS))
        .map_err(|error| Refusal::bad_request(STYLE, "INVALID_FAULT", error.to_string()))?;
    Ok((StatusCode::CREATED, Json(fault)).into_response())
}

async fn clear_faults(State(state): State<SandboxState>) -> StatusCode {
    state.admin(|admin| admin.faults.clear());
    StatusCode::NO_CONTENT
}

#[derive(Deserialize)]
struct CallsQuery {
    endpoint: Option<String>,
}

async fn calls(State(state): State<SandboxState>, Query(query): Query<CallsQuery>) -> Response {
    Json(calls_of(&state, query.endpoint.as_deref())).into_response()
}

async fn clear_calls(State(state): State<SandboxState>) -> StatusCode {
    state.admin(|admin| admin.clear_calls());
    StatusCode::NO_CONTENT
}

async fn subscriptions(State(state): State<SandboxState>) -> Response {
    Json(state.with(|w| w.subscriptions.clone())).into_response()
}

async fn endpoints() -> Json<&'static [&'static str]> {
    Json(ENDPOINTS)
}
