//! The HTTP surface: one router per area, merged here.

pub mod admin;
pub mod api;
pub mod client_ip;
pub mod health;
pub mod json;
pub mod no_store;
pub mod public_config;
pub mod request_id;
pub mod response_metrics;
pub mod security_headers;
pub mod server;
pub mod sse;
pub mod staff_auth;
pub mod state;
pub mod static_files;

use std::path::Path;

use axum::http::{Request, StatusCode};
use axum::Router;
use tower_http::classify::ServerErrorsFailureClass;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::http::request_id::REQUEST_ID;
use crate::http::state::AppState;

pub fn app(state: AppState, web_dist: &Path) -> Router {
    let body_limit = axum::extract::DefaultBodyLimit::max(state.server.body_bytes);
    let bounds = axum::middleware::from_fn_with_state(server::Bounds::new(&state.server), server::bounded);
    let security =
        security_headers::SecurityHeaders::new(web_dist, &state.site.chatbot_url, &state.site.chatbot_avatar_url);
    let security = axum::middleware::from_fn_with_state(std::sync::Arc::new(security), security_headers::add);
    let responses = axum::middleware::from_fn_with_state(state.metrics.clone(), response_metrics::count);
    let api = Router::new()
        .merge(health::router())
        .merge(api::attempts::router())
        .merge(api::staff::router())
        .merge(api::support::router())
        .merge(api::support_stuck::router())
        .merge(api::support_actions::router())
        .merge(api::analytics::router())
        .merge(api::installer::router())
        .merge(api::altcha::router())
        .merge(public_config::router());
    api.merge(static_files::router(web_dist))
        .layer(body_limit)
        .layer(bounds)
        .layer(security)
        .layer(axum::middleware::from_fn(json::json_client_errors))
        .layer(axum::middleware::from_fn(no_store::no_store))
        .layer(
            // One request id per request, in every log line of it and in the answer.
            TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request
                    .headers()
                    .get(&REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                // The path only: query strings carry the partner's OAuth code (`?code=`) and
                // licences, which must not reach the logs (docs/security.md, item 1).
                tracing::info_span!("request", method = %request.method(), uri = %request.uri().path(), request_id = %id)
            })
            .on_failure(log_failure),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        // Before the id is set: a client's id that is not a UUID is dropped, so one is made.
        .layer(axum::middleware::from_fn(request_id::keep_uuids_only))
        // Outermost: the bounds' 503s and the body limit's 413s are answers too.
        .layer(responses)
        .with_state(state)
}

/// A failed answer, as `TraceLayer` logs it, except the 503s: those are answers to wait out,
/// logged where they are decided (the door when it closes and opens, not once per start it
/// refuses; the pool's time-out as a warning), so a flood of starts past capacity writes no
/// flood of errors.
fn log_failure(class: ServerErrorsFailureClass, latency: std::time::Duration, _span: &tracing::Span) {
    match class {
        ServerErrorsFailureClass::StatusCode(StatusCode::SERVICE_UNAVAILABLE) => {
            tracing::debug!(latency_ms = latency.as_millis(), "answered 503: wait and try again");
        }
        other => tracing::error!(classification = %other, latency_ms = latency.as_millis(), "response failed"),
    }
}
