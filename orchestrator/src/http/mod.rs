//! The HTTP surface: one router per area, merged here.

pub mod error;
pub mod health;
pub mod public_config;
pub mod static_files;

use std::path::Path;

use axum::http::{HeaderName, Request};
use axum::Router;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::state::AppState;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

pub fn app(state: AppState, web_dist: &Path) -> Router {
    let api = Router::new()
        .merge(health::router())
        .merge(crate::attempts::api::router())
        .merge(crate::staff::api::router())
        .merge(crate::support::api::router())
        .merge(crate::flows::download::installer::router())
        .merge(public_config::router());
    api.merge(static_files::router(web_dist))
        .layer(
            // One request id per request, in every log line of it and in the answer.
            TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request
                    .headers()
                    .get(&REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                tracing::info_span!("request", method = %request.method(), uri = %request.uri(), request_id = %id)
            }),
        )
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}
