//! `GET /api/public-config`: deployment facts the site needs (chatbot host, sandbox mode).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

use crate::http::state::{AppState, SiteConfig};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/public-config", get(public_config))
}

async fn public_config(State(state): State<AppState>) -> Json<SiteConfig> {
    Json((*state.site).clone())
}
