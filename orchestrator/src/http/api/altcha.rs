//! `GET /api/altcha/challenge` (a fresh proof-of-work challenge for the browser) and
//! `GET /metrics` (refusal counts for the operator's scraper).

use axum::extract::State;
use axum::http::header::CACHE_CONTROL;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use crate::error::ApiError;
use crate::http::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/altcha/challenge", get(challenge))
}

async fn challenge(State(state): State<AppState>) -> Result<Response, ApiError> {
    let challenge =
        state.abuse.pow.challenge().map_err(|e| ApiError::Internal(anyhow::anyhow!("altcha challenge: {e}")))?;
    Ok(([(CACHE_CONTROL, "no-store")], Json(challenge)).into_response())
}
